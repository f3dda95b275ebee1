/* Storage: online backups and restores with SQLite's backup API.
 *
 * A backup copies the whole database in one step, inside one read
 * transaction: in WAL mode that transaction sees one committed state (every
 * commit before it, none after) and never blocks the server's writers, so
 * a backup taken while sokod serves is consistent. It is written beside
 * the target under a temporary name, checked, synced and renamed, so that
 * the target is either the old file or the complete new one. */
#include "storage/storage_backup.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

static void say(char *err, size_t cap, const char *fmt, const char *a, const char *b)
{
    snprintf(err, cap, fmt, a, b);
}

/* Copies every page of src's main database into dst's, retrying while the
 * source is locked (a checkpoint, or a writer of a rollback journal). */
static int copy_all(sqlite3 *dst, sqlite3 *src, char *err, size_t cap)
{
    sqlite3_backup *b = sqlite3_backup_init(dst, "main", src, "main");
    if (b == NULL) {
        say(err, cap, "cannot start the copy: %s%s", sqlite3_errmsg(dst), "");
        return STORAGE_ERROR;
    }
    int rc;
    int tries = 0;
    do {
        rc = sqlite3_backup_step(b, -1);
        if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) {
            struct timespec pause = {0, 20 * 1000 * 1000};
            nanosleep(&pause, NULL);
        }
    } while ((rc == SQLITE_BUSY || rc == SQLITE_LOCKED || rc == SQLITE_OK) && ++tries < 1500);
    int done = sqlite3_backup_finish(b);
    if (rc != SQLITE_DONE || done != SQLITE_OK) {
        say(err, cap, "the copy failed: %s%s", sqlite3_errstr(rc != SQLITE_DONE ? rc : done), "");
        return (rc & 0xFF) == SQLITE_FULL ? STORAGE_FULL : STORAGE_ERROR;
    }
    return STORAGE_OK;
}

/* PRAGMA integrity_check on db: STORAGE_OK when it says "ok". */
static int check(sqlite3 *db, const char *what, char *err, size_t cap)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) != SQLITE_OK) {
        say(err, cap, "%s is not a SQLite database: %s", what, sqlite3_errmsg(db));
        return STORAGE_ERROR;
    }
    int status = STORAGE_OK;
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        say(err, cap, "%s cannot be read: %s", what, sqlite3_errmsg(db));
        status = STORAGE_ERROR;
    } else if (strcmp((const char *)sqlite3_column_text(st, 0), "ok") != 0) {
        say(err, cap, "%s fails its integrity check: %s", what,
            (const char *)sqlite3_column_text(st, 0));
        status = STORAGE_ERROR;
    }
    sqlite3_finalize(st);
    return status;
}

static int open_db(const char *path, int flags, sqlite3 **db, char *err, size_t cap)
{
    int rc = sqlite3_open_v2(path, db, flags, NULL);
    if (rc != SQLITE_OK) {
        say(err, cap, "cannot open %s: %s", path, *db != NULL ? sqlite3_errmsg(*db) : "");
        sqlite3_close(*db);
        *db = NULL;
        return STORAGE_ERROR;
    }
    sqlite3_busy_timeout(*db, 5000);
    return STORAGE_OK;
}

/* fsync of a file or folder by path; 0 or -1. */
static int sync_path(const char *path, int flags)
{
    int fd = open(path, flags | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

int storage_backup(const char *db_path, const char *target, char *err, size_t cap)
{
    char part[PATH_MAX];
    int n = snprintf(part, sizeof part, "%s.part", target);
    if (n < 0 || (size_t)n >= sizeof part) {
        say(err, cap, "the path %s is too long%s", target, "");
        return STORAGE_ERROR;
    }
    sqlite3 *src = NULL, *dst = NULL;
    /* Read-write, without create: reading a WAL database needs its -shm. */
    int status = open_db(db_path, SQLITE_OPEN_READWRITE, &src, err, cap);
    if (status == STORAGE_OK) {
        unlink(part);
        status = open_db(part, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &dst, err, cap);
    }
    if (status == STORAGE_OK)
        status = copy_all(dst, src, err, cap);
    /* The copy keeps the WAL mode of its source; as a single file it needs
     * no -wal beside it. */
    if (status == STORAGE_OK &&
        sqlite3_exec(dst, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL) != SQLITE_OK) {
        say(err, cap, "cannot finish %s: %s", part, sqlite3_errmsg(dst));
        status = STORAGE_ERROR;
    }
    if (status == STORAGE_OK)
        status = check(dst, "the copy", err, cap);
    sqlite3_close(src);
    if (sqlite3_close(dst) != SQLITE_OK && status == STORAGE_OK) {
        say(err, cap, "cannot close %s%s", part, "");
        status = STORAGE_ERROR;
    }
    if (status == STORAGE_OK && sync_path(part, O_RDONLY) != 0) {
        say(err, cap, "cannot sync %s: %s", part, strerror(errno));
        status = errno == ENOSPC ? STORAGE_FULL : STORAGE_ERROR;
    }
    if (status == STORAGE_OK && rename(part, target) != 0) {
        say(err, cap, "cannot rename the copy to %s: %s", target, strerror(errno));
        status = STORAGE_ERROR;
    }
    if (status != STORAGE_OK) {
        unlink(part);
        return status;
    }
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", target);
    char *slash = strrchr(dir, '/');
    if (slash == NULL)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    sync_path(dir, O_RDONLY | O_DIRECTORY);
    return STORAGE_OK;
}

int storage_restore(const char *backup, const char *db_path, char *err, size_t cap)
{
    sqlite3 *src = NULL, *dst = NULL;
    int status = open_db(backup, SQLITE_OPEN_READONLY, &src, err, cap);
    if (status == STORAGE_OK)
        status = check(src, backup, err, cap);
    if (status == STORAGE_OK)
        status = open_db(db_path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &dst, err, cap);
    /* Written through SQLite, the restore goes into the database's own WAL
     * and is whole or absent after a crash. */
    if (status == STORAGE_OK &&
        sqlite3_exec(dst, "PRAGMA journal_mode=WAL", NULL, NULL, NULL) != SQLITE_OK) {
        say(err, cap, "cannot open %s in WAL mode: %s", db_path, sqlite3_errmsg(dst));
        status = STORAGE_ERROR;
    }
    if (status == STORAGE_OK)
        status = copy_all(dst, src, err, cap);
    if (status == STORAGE_OK &&
        sqlite3_exec(dst, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL) != SQLITE_OK) {
        say(err, cap, "cannot checkpoint %s: %s", db_path, sqlite3_errmsg(dst));
        status = STORAGE_ERROR;
    }
    if (status == STORAGE_OK)
        status = check(dst, db_path, err, cap);
    sqlite3_close(src);
    sqlite3_close(dst);
    return status;
}

/* The lock file beside the database: "DB.lock". */
static int lock_path(const char *db_path, char *out, size_t cap)
{
    int n = snprintf(out, cap, "%s.lock", db_path);
    return n >= 0 && (size_t)n < cap ? 0 : -1;
}

int storage_lock(const char *db_path, bool exclusive)
{
    char path[PATH_MAX];
    if (lock_path(db_path, path, sizeof path) != 0)
        return -1;
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    if (flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}
