/* Storage: schema migrations, applied in order and tracked by PRAGMA user_version. */
#include "storage/storage_migrate.h"

#include "base/files.h"
#include "storage/storage.h"
#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <stdio.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MIGRATIONS 1000

struct migration {
    int number;
    char name[256];
};

/* Accepts NNNN_name.sql (four digits, then letters, digits and '_') and
 * returns its number, or -1 for any other file name. */
static int migration_number(const char *name)
{
    size_t len = strlen(name);
    if (len < 10 || strcmp(name + len - 4, ".sql") != 0 || name[4] != '_')
        return -1;
    int number = 0;
    for (int i = 0; i < 4; i++) {
        if (name[i] < '0' || name[i] > '9')
            return -1;
        number = number * 10 + (name[i] - '0');
    }
    for (size_t i = 5; i < len - 4; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return -1;
    }
    return number;
}

static int by_number(const void *a, const void *b)
{
    const struct migration *x = a, *y = b;
    return (x->number > y->number) - (x->number < y->number);
}

/* Lists the migrations of dir in order into *out (malloc'd). Checks that
 * they are numbered 1, 2, 3 ... without gaps or repeats. Returns their number or -1. */
static int list_migrations(const char *dir, struct migration **out)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        fprintf(stderr, "sokod: cannot read the migrations folder %s: %s\n", dir, strerror(errno));
        return -1;
    }
    struct migration *list = calloc(MAX_MIGRATIONS, sizeof *list);
    int n = 0;
    for (struct dirent *e = readdir(d); e != NULL && list != NULL; e = readdir(d)) {
        int number = migration_number(e->d_name);
        if (number < 0)
            continue;
        if (n == MAX_MIGRATIONS) {
            fprintf(stderr, "sokod: too many migrations in %s\n", dir);
            n = -1;
            break;
        }
        list[n].number = number;
        snprintf(list[n].name, sizeof list[n].name, "%s", e->d_name);
        n++;
    }
    closedir(d);
    if (list == NULL || n < 0) {
        free(list);
        return -1;
    }
    qsort(list, (size_t)n, sizeof *list, by_number);
    for (int i = 0; i < n; i++) {
        if (list[i].number != i + 1) {
            fprintf(stderr,
                    "sokod: migrations in %s must be numbered 0001, 0002 ... "
                    "without gaps or repeats; %s is out of place\n",
                    dir, list[i].name);
            free(list);
            return -1;
        }
    }
    *out = list;
    return n;
}

static int user_version(sqlite3 *db, int *version)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? STORAGE_OK : storage_status(rc, "reading user_version");
}

/* A migration whose first line is this runs with foreign keys off, as
 * SQLite's way to rebuild a table requires: dropping a table that others
 * refer to would otherwise delete their rows. */
#define FOREIGN_KEYS_OFF "-- sokod: foreign keys off"

static bool wants_foreign_keys_off(const char *dir, const char *name)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return false;
    char line[64] = "";
    bool off = fgets(line, sizeof line, f) != NULL &&
               strncmp(line, FOREIGN_KEYS_OFF, strlen(FOREIGN_KEYS_OFF)) == 0;
    fclose(f);
    return off;
}

static bool foreign_keys_on(sqlite3 *db)
{
    sqlite3_stmt *st = NULL;
    bool on = true;
    if (sqlite3_prepare_v2(db, "PRAGMA foreign_keys", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        on = sqlite3_column_int(st, 0) != 0;
    sqlite3_finalize(st);
    return on;
}

/* Fails (SQLITE_CONSTRAINT, with a message) when a row refers to a row that
 * does not exist: what a migration run with foreign keys off must not leave. */
static int check_foreign_keys(sqlite3 *db, const char *name)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, "PRAGMA foreign_key_check", -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        fprintf(stderr, "sokod: migration %s leaves a row of %s referring to a missing row of %s\n",
                name, (const char *)sqlite3_column_text(st, 0),
                (const char *)sqlite3_column_text(st, 2));
        rc = SQLITE_CONSTRAINT;
    } else if (rc == SQLITE_DONE) {
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc;
}

/* Applies the migration after the current version, inside one write
 * transaction that also reads the version, so that two processes starting
 * at once cannot apply the same migration twice. Sets *version to the
 * version now in force. */
static int apply_next(sqlite3 *db, const char *dir, const struct migration *list, int n,
                      int *version)
{
    int status = storage_begin();
    if (status != STORAGE_OK)
        return status;
    status = user_version(db, version);
    if (status != STORAGE_OK || *version >= n) {
        storage_rollback();
        return status;
    }
    const struct migration *m = &list[*version];
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, m->name);
    uint32_t len = 0;
    char *sql = file_read_whole(path, &len);
    if (sql == NULL) {
        fprintf(stderr, "sokod: cannot read %s: %s\n", path, strerror(errno));
        storage_rollback();
        return STORAGE_ERROR;
    }
    char *msg = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    free(sql);
    if (rc == SQLITE_OK && !foreign_keys_on(db))
        rc = check_foreign_keys(db, m->name);
    if (rc != SQLITE_OK) {
        fprintf(stderr, "sokod: migration %s failed: %s\n", m->name,
                msg != NULL ? msg : sqlite3_errstr(rc));
        sqlite3_free(msg);
        storage_rollback();
        return STORAGE_ERROR;
    }
    char pragma[64];
    snprintf(pragma, sizeof pragma, "PRAGMA user_version=%d", m->number);
    rc = sqlite3_exec(db, pragma, NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        storage_rollback();
        return storage_status(rc, "setting user_version");
    }
    status = storage_commit();
    if (status == STORAGE_OK) {
        *version = m->number;
        fprintf(stderr, "sokod: applied migration %s\n", m->name);
    }
    return status;
}

int storage_migrate(const char *dir, bool *fresh)
{
    sqlite3 *db = storage_db();
    if (db == NULL)
        return STORAGE_ERROR;
    int version = 0;
    int status = user_version(db, &version);
    if (status != STORAGE_OK)
        return status;
    *fresh = version == 0;

    struct migration *list = NULL;
    int n = list_migrations(dir, &list);
    if (n < 0)
        return STORAGE_ERROR;
    if (version > n) {
        fprintf(stderr,
                "sokod: the database %s has schema version %d, newer than this sokod knows "
                "(%d, from %s); it was written by a newer sokod: run that one, or restore a "
                "backup\n",
                sqlite3_db_filename(db, "main"), version, n, dir);
        free(list);
        return STORAGE_ERROR;
    }
    while (status == STORAGE_OK && version < n) {
        /* PRAGMA foreign_keys does nothing inside a transaction. */
        bool off = wants_foreign_keys_off(dir, list[version].name);
        if (off)
            sqlite3_exec(db, "PRAGMA foreign_keys=OFF", NULL, NULL, NULL);
        status = apply_next(db, dir, list, n, &version);
        if (off)
            sqlite3_exec(db, "PRAGMA foreign_keys=ON", NULL, NULL, NULL);
    }
    free(list);
    return status;
}
