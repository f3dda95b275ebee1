/* sokod backup and sokod restore: a consistent copy of the database taken
 * while the server runs, and its way back once the server is stopped. A
 * SQLite database is copied by SQLite's online backup; a PostgreSQL one by
 * pg_dump and pg_restore. */
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "cli/cli_progress.h"

#include "base/config.h"
#include "storage/storage.h"
#include "storage/storage_backup.h"
#include "storage/storage_copy.h"
#include "storage/storage_pgdump.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* cli_config, then the one argument both commands take, FILE. */
static int load(struct config *cfg, int argc, char **argv, const char *synopsis, const char *about)
{
    int early = cli_config(cfg, CONFIG_ADMIN, argc, argv, synopsis, about);
    if (early >= 0)
        return early;
    if (cfg->nargs != 1) {
        fprintf(stderr, "usage: %s (try --help)\n", synopsis);
        return 2;
    }
    return -1;
}

/* The progress of a copy, drawn on a terminal: a thread looks at the size
 * of the file being written (SQLite's backup and pg_dump write it whole
 * before it takes FILE's name) ten times a second, against what the
 * database holds when that is known. */
struct backup_watch {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool running, done;
    char path[PATH_MAX];
    struct cli_progress progress;
};

static uint64_t file_mib(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size >> 20 : 0;
}

static void *watch_main(void *arg)
{
    struct backup_watch *w = arg;
    pthread_mutex_lock(&w->lock);
    while (!w->done) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&w->cond, &w->lock, &until);
        if (w->done)
            break;
        uint64_t mib = file_mib(w->path);
        /* The file may end past the estimate (SQLite's pages, pg_dump's
         * format): the line stays below its total until the copy ends. */
        if (w->progress.total > 0 && mib >= w->progress.total)
            mib = w->progress.total - 1;
        cli_progress_update(&w->progress, mib);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

/* Starts drawing the progress of a copy into `path` of about total_mib
 * (0: not known); nothing happens when standard error is no terminal. */
static void watch_begin(struct backup_watch *w, const char *path, uint64_t total_mib)
{
    memset(w, 0, sizeof *w);
    cli_progress_begin(&w->progress, "backup", "MiB", total_mib, false);
    snprintf(w->path, sizeof w->path, "%s", path);
    if (!w->progress.on)
        return;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->cond, NULL);
    w->running = pthread_create(&w->thread, NULL, watch_main, w) == 0;
    if (!w->running) {
        pthread_cond_destroy(&w->cond);
        pthread_mutex_destroy(&w->lock);
    }
}

static void watch_end(struct backup_watch *w)
{
    if (!w->running)
        return;
    pthread_mutex_lock(&w->lock);
    w->done = true;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->cond);
    pthread_mutex_destroy(&w->lock);
    cli_progress_end(&w->progress);
}

/* sokod backup on PostgreSQL: pg_dump of the whole database. */
static int backup_postgres(const struct config *cfg)
{
    if (storage_init(cfg->db, cfg->synchronous) != STORAGE_OK)
        return 1;
    char err[PATH_MAX + 256] = "", partial[PATH_MAX + 16];
    snprintf(partial, sizeof partial, "%s.partial", cfg->args[0]);
    struct backup_watch watch;
    watch_begin(&watch, partial, 0);
    int status = storage_pg_backup(cfg->db, cfg->args[0], err, sizeof err);
    watch_end(&watch);
    if (status != STORAGE_OK)
        fprintf(stderr, "sokod backup: %s\n", err);
    else
        printf("sokod backup: %s dumped to %s (pg_dump's custom format)\n", storage_name(),
               cfg->args[0]);
    storage_shutdown();
    return status == STORAGE_OK ? 0 : 1;
}

/* sokod restore on PostgreSQL: pg_restore into the same database, refused
 * while others (sokod servers) are connected to it. */
static int restore_postgres(const struct config *cfg)
{
    if (storage_init(cfg->db, cfg->synchronous) != STORAGE_OK)
        return 1;
    int64_t others = 0;
    int status = storage_pg_other_connections(&others);
    storage_shutdown();
    if (status != STORAGE_OK)
        return 1;
    if (others > 0) {
        fprintf(stderr,
                "sokod restore: %" PRId64 " other connections use %s: stop the sokod servers, "
                "then restore\n",
                others, storage_name());
        return 1;
    }
    char err[PATH_MAX + 256] = "";
    if (storage_pg_restore(cfg->db, cfg->args[0], err, sizeof err) != STORAGE_OK) {
        fprintf(stderr, "sokod restore: %s\n", err);
        return 1;
    }
    printf("sokod restore: %s now holds the content of %s\n", storage_name(), cfg->args[0]);
    return 0;
}

int cli_backup(int argc, char **argv)
{
    static const char synopsis[] = "sokod backup FILE [--db PATH|URI]";
    struct config cfg;
    int early = load(&cfg, argc, argv, synopsis,
                     "Copies the database to FILE as it stands at one moment, while the server\n"
                     "keeps serving and writing, and checks the copy (PRAGMA integrity_check).\n"
                     "FILE is replaced only once the copy is complete. On PostgreSQL it runs\n"
                     "pg_dump (custom format) instead. Exit status: 0 done, 1 failed, 2 usage.\n");
    if (early >= 0)
        return early;
    if (storage_copy_is_postgres(cfg.db))
        return backup_postgres(&cfg);
    if (access(cfg.db, F_OK) != 0) {
        fprintf(stderr, "sokod backup: no database at %s\n", cfg.db);
        return 1;
    }
    char err[PATH_MAX + 256] = "", part[PATH_MAX + 16], wal[PATH_MAX + 16];
    snprintf(part, sizeof part, "%s.part", cfg.args[0]);
    snprintf(wal, sizeof wal, "%s-wal", cfg.db);
    struct backup_watch watch;
    /* The copy holds the database's pages, its write-ahead log's included. */
    watch_begin(&watch, part, file_mib(cfg.db) + file_mib(wal) + 1);
    int status = storage_backup(cfg.db, cfg.args[0], err, sizeof err);
    watch_end(&watch);
    if (status != STORAGE_OK) {
        fprintf(stderr, "sokod backup: %s\n", err);
        return 1;
    }
    printf("sokod backup: %s copied to %s and checked\n", cfg.db, cfg.args[0]);
    return 0;
}

int cli_restore(int argc, char **argv)
{
    static const char synopsis[] = "sokod restore FILE [--db PATH|URI]";
    struct config cfg;
    int early =
        load(&cfg, argc, argv, synopsis,
             "Replaces the database with FILE, a copy made by sokod backup, after checking\n"
             "it. Refuses while a sokod server uses the database: stop it first. On\n"
             "PostgreSQL it runs pg_restore --clean --if-exists in one transaction. Exit\n"
             "status: 0 done, 1 refused or failed, 2 usage.\n");
    if (early >= 0)
        return early;
    if (access(cfg.args[0], R_OK) != 0) {
        fprintf(stderr, "sokod restore: cannot read %s: %s\n", cfg.args[0], strerror(errno));
        return 1;
    }
    if (storage_copy_is_postgres(cfg.db))
        return restore_postgres(&cfg);
    if (storage_init(cfg.db, cfg.synchronous) != STORAGE_OK)
        return 1;
    int lock = storage_lock(cfg.db, true);
    if (lock < 0) {
        if (errno == EWOULDBLOCK)
            fprintf(stderr, "sokod restore: a sokod server is using %s: stop it, then restore\n",
                    cfg.db);
        else
            fprintf(stderr, "sokod restore: cannot lock %s.lock: %s\n", cfg.db, strerror(errno));
        return 1;
    }
    char err[PATH_MAX + 256] = "";
    int status = storage_restore(cfg.args[0], cfg.db, err, sizeof err);
    close(lock);
    if (status != STORAGE_OK) {
        fprintf(stderr, "sokod restore: %s\n", err);
        return 1;
    }
    printf("sokod restore: %s now holds the content of %s\n", cfg.db, cfg.args[0]);
    return 0;
}
