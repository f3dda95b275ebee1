/* Storage: schema migrations, applied in order and tracked by SQLite's PRAGMA
 * user_version or PostgreSQL's schema_version table. */
#include "storage/storage_migrate.h"

#include "base/files.h"
#include "storage/storage.h"
#include "storage/storage_boards.h"
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

/* Nodes that start together apply each migration once: the first to take
 * this lock applies it, the others wait, then find it applied. The key is
 * any constant of sokod's own ("sokodmig" in ASCII). */
#define PG_MIGRATE_LOCK "SELECT pg_advisory_xact_lock(8317147483291658599)"
static const char SQL_PG_MIGRATE_LOCK[] = PG_MIGRATE_LOCK;
/* PostgreSQL keeps the version in a table of one row, made by the runner
 * before the first migration. The script is one transaction, under the
 * migrations' lock: two nodes making the table at once would otherwise
 * both find it missing, and the second would fail on the first's (or both
 * would insert a row). */
static const char SQL_PG_VERSION_TABLE[] = PG_MIGRATE_LOCK
    "; "
    "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL); "
    "INSERT INTO schema_version SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM schema_version)";
static const char SQL_PG_VERSION[] = "SELECT version FROM schema_version";
static const char SQL_PG_VERSION_SET[] = "UPDATE schema_version SET version = ?";
static const char SQL_LITE_VERSION[] = "PRAGMA user_version";

static int schema_version(int *version)
{
    bool pg = sql_backend() == SQL_POSTGRES;
    if (pg &&
        storage_conn_exec(SQL_PG_VERSION_TABLE, "making the schema_version table") != STORAGE_OK)
        return STORAGE_ERROR;
    struct sql_stmt *st = storage_stmt(pg ? SQL_PG_VERSION : SQL_LITE_VERSION);
    if (st == NULL)
        return STORAGE_ERROR;
    int64_t v = 0;
    int status = storage_first_int64(st, &v, "reading the schema version");
    *version = (int)v;
    return status == STORAGE_NOT_FOUND ? STORAGE_OK : status;
}

static int set_schema_version(int version)
{
    if (sql_backend() == SQL_POSTGRES) {
        struct sql_stmt *st = storage_stmt(SQL_PG_VERSION_SET);
        if (st == NULL)
            return STORAGE_ERROR;
        sql_bind_int64(st, 1, version);
        return storage_exec_stmt(st, "setting the schema version");
    }
    char pragma[64];
    snprintf(pragma, sizeof pragma, "PRAGMA user_version=%d", version);
    return storage_conn_exec(pragma, "setting user_version");
}

/* A migration whose first line is this runs with foreign keys off, as
 * SQLite's way to rebuild a table requires: dropping a table that others
 * refer to would otherwise delete their rows. */
#define FOREIGN_KEYS_OFF "-- sokod: foreign keys off"

static bool wants_foreign_keys_off(const char *dir, const char *name)
{
    if (sql_backend() != SQL_SQLITE)
        return false;
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return false;
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return false;
    char line[64] = "";
    bool off = fgets(line, sizeof line, f) != NULL &&
               strncmp(line, FOREIGN_KEYS_OFF, strlen(FOREIGN_KEYS_OFF)) == 0;
    fclose(f);
    return off;
}

static const char SQL_LITE_FOREIGN_KEYS[] = "PRAGMA foreign_keys";
static const char SQL_LITE_FOREIGN_KEY_CHECK[] = "PRAGMA foreign_key_check";

/* Fails when a migration run with SQLite's foreign keys off leaves a row
 * that refers to a row that does not exist. */
static int check_foreign_keys(const char *name)
{
    if (sql_backend() != SQL_SQLITE)
        return STORAGE_OK; /* PostgreSQL checks them whatever a migration does */
    int64_t on = 1;
    int status =
        storage_first_int64(storage_stmt(SQL_LITE_FOREIGN_KEYS), &on, "PRAGMA foreign_keys");
    if (status != STORAGE_OK || on != 0)
        return status;
    struct sql_stmt *st = storage_stmt(SQL_LITE_FOREIGN_KEY_CHECK);
    if (st == NULL)
        return STORAGE_ERROR;
    status = storage_first_row(st, "PRAGMA foreign_key_check");
    if (status == STORAGE_OK) {
        fprintf(stderr, "sokod: migration %s leaves a row of %s referring to a missing row of %s\n",
                name, sql_column_text(st, 0), sql_column_text(st, 2));
        status = STORAGE_ERROR;
    } else if (status == STORAGE_NOT_FOUND) {
        status = STORAGE_OK;
    }
    sql_reset(st);
    return status;
}

/* What a migration needs done in C, in its own transaction after its SQL:
 * work SQL cannot do on both backends alike. */
struct migration_step {
    int number;
    int (*run)(void);
};

static const struct migration_step STEPS_IN_C[] = {
    /* SQLite has no SHA-256 of its own: the lines of solutions recorded
     * before are hashed here (PostgreSQL's migration hashed them). */
    {19, storage_solutions_hash_lines},
};

static int run_steps_in_c(int number)
{
    for (size_t i = 0; i < sizeof STEPS_IN_C / sizeof STEPS_IN_C[0]; i++) {
        if (STEPS_IN_C[i].number == number)
            return STEPS_IN_C[i].run();
    }
    return STORAGE_OK;
}

/* Applies the migration after the current version, inside one write
 * transaction that also reads the version, so that two processes starting
 * at once cannot apply the same migration twice. Sets *version to the
 * version now in force. */
static int apply_next(const char *dir, const struct migration *list, int n, int *version)
{
    int status = storage_begin();
    if (status != STORAGE_OK)
        return status;
    if (sql_backend() == SQL_POSTGRES)
        status = storage_conn_exec(SQL_PG_MIGRATE_LOCK, "waiting for other nodes' migrations");
    if (status == STORAGE_OK)
        status = schema_version(version);
    if (status != STORAGE_OK || *version >= n) {
        storage_rollback();
        return status;
    }
    const struct migration *m = &list[*version];
    char path[PATH_MAX];
    uint32_t len = 0;
    char *sql = NULL;
    if (snprintf(path, sizeof path, "%s/%s", dir, m->name) < (int)sizeof path)
        sql = file_read_whole(path, &len);
    else
        errno = ENAMETOOLONG;
    if (sql == NULL) {
        fprintf(stderr, "sokod: cannot read %s: %s\n", path, strerror(errno));
        storage_rollback();
        return STORAGE_ERROR;
    }
    status = storage_conn_exec(sql, m->name);
    free(sql);
    if (status == STORAGE_OK)
        status = run_steps_in_c(m->number);
    if (status == STORAGE_OK)
        status = check_foreign_keys(m->name);
    if (status == STORAGE_OK)
        status = set_schema_version(m->number);
    if (status != STORAGE_OK) {
        fprintf(stderr, "sokod: migration %s failed\n", m->name);
        storage_rollback();
        return STORAGE_ERROR;
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
    /* PostgreSQL's migrations sit beside SQLite's, with the same numbers. */
    char pg_dir[PATH_MAX];
    if (sql_backend() == SQL_POSTGRES) {
        int w = snprintf(pg_dir, sizeof pg_dir, "%s/postgresql", dir);
        if (w < 0 || (size_t)w >= sizeof pg_dir)
            return STORAGE_ERROR;
        dir = pg_dir;
    }
    if (storage_conn() == NULL)
        return STORAGE_ERROR;
    int version = 0;
    int status = schema_version(&version);
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
                storage_conn_name(), version, n, dir);
        free(list);
        return STORAGE_ERROR;
    }
    while (status == STORAGE_OK && version < n) {
        /* PRAGMA foreign_keys does nothing inside a transaction. */
        bool off = wants_foreign_keys_off(dir, list[version].name);
        if (off)
            storage_conn_exec("PRAGMA foreign_keys=OFF", "PRAGMA foreign_keys");
        status = apply_next(dir, list, n, &version);
        if (off)
            storage_conn_exec("PRAGMA foreign_keys=ON", "PRAGMA foreign_keys");
    }
    free(list);
    return status;
}
