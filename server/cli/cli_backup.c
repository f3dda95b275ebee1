/* sokod backup and sokod restore: a consistent copy of the database taken
 * while the server runs, and its way back once the server is stopped. */
#include "cli/cli.h"
#include "cli/cli_options.h"

#include "base/config.h"
#include "storage/storage.h"
#include "storage/storage_backup.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
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

int cli_backup(int argc, char **argv)
{
    static const char synopsis[] = "sokod backup FILE [--db PATH]";
    struct config cfg;
    int early = load(&cfg, argc, argv, synopsis,
                     "Copies the database to FILE as it stands at one moment, while the server\n"
                     "keeps serving and writing, and checks the copy (PRAGMA integrity_check).\n"
                     "FILE is replaced only once the copy is complete. Exit status: 0 done,\n"
                     "1 failed, 2 usage.\n");
    if (early >= 0)
        return early;
    if (access(cfg.db, F_OK) != 0) {
        fprintf(stderr, "sokod backup: no database at %s\n", cfg.db);
        return 1;
    }
    char err[PATH_MAX + 256] = "";
    if (storage_backup(cfg.db, cfg.args[0], err, sizeof err) != STORAGE_OK) {
        fprintf(stderr, "sokod backup: %s\n", err);
        return 1;
    }
    printf("sokod backup: %s copied to %s and checked\n", cfg.db, cfg.args[0]);
    return 0;
}

int cli_restore(int argc, char **argv)
{
    static const char synopsis[] = "sokod restore FILE [--db PATH]";
    struct config cfg;
    int early =
        load(&cfg, argc, argv, synopsis,
             "Replaces the database with FILE, a copy made by sokod backup, after checking\n"
             "it. Refuses while a sokod server uses the database: stop it first. Exit\n"
             "status: 0 done, 1 refused or failed, 2 usage.\n");
    if (early >= 0)
        return early;
    if (access(cfg.args[0], R_OK) != 0) {
        fprintf(stderr, "sokod restore: cannot read %s: %s\n", cfg.args[0], strerror(errno));
        return 1;
    }
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
