/* Storage: the SQLite driver of sql.h, with the VFS of storage_vfs.c. */
#include "storage/sql_sqlite.h"

#include "storage/storage_codes.h"
#include "storage/storage_vfs.h"

#include <errno.h>
#include <string.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

struct lite_conn {
    struct sql_conn base;
    sqlite3 *db;
};

struct lite_stmt {
    struct sql_stmt base;
    sqlite3_stmt *st;
    sqlite3 *db;
};

static atomic_int synchronous_mode = 1;
/* Set while a background checkpointer runs (storage_wal.c). */
static _Atomic(storage_wal_hook *) wal_hook;

void sql_sqlite_configure(int synchronous)
{
    atomic_store(&synchronous_mode, synchronous);
}

void sql_sqlite_watch_wal(storage_wal_hook *hook)
{
    atomic_store(&wal_hook, hook);
}

sqlite3 *sql_sqlite_handle(struct sql_conn *c)
{
    if (c == NULL || c->driver != &sql_sqlite_driver)
        return NULL;
    return ((struct lite_conn *)c)->db;
}

int sql_sqlite_status(sqlite3 *db, int rc, const char *what)
{
    switch (rc & 0xFF) {
    case SQLITE_OK:
    case SQLITE_DONE:
    case SQLITE_ROW:
        return STORAGE_OK;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        fprintf(stderr, "sokod: database busy: %s\n", what);
        return STORAGE_BUSY;
    case SQLITE_FULL:
        fprintf(stderr, "sokod: database: disk full: %s\n", what);
        return STORAGE_FULL;
    case SQLITE_IOERR:
        if (db != NULL && sqlite3_system_errno(db) == ENOSPC) {
            fprintf(stderr, "sokod: database: disk full: %s\n", what);
            return STORAGE_FULL;
        }
        break;
    case SQLITE_CONSTRAINT:
        if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
            return STORAGE_CONFLICT;
        /* RAISE(ABORT, 'quota_exceeded') in a trigger of migration 0020. */
        if (rc == SQLITE_CONSTRAINT_TRIGGER && db != NULL &&
            strcmp(sqlite3_errmsg(db), "quota_exceeded") == 0)
            return STORAGE_QUOTA;
        break;
    default:
        break;
    }
    fprintf(stderr, "sokod: database: %s: %s\n", what,
            db != NULL ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    return STORAGE_ERROR;
}

static int lite_exec(struct sql_conn *c, const char *script, const char *what)
{
    sqlite3 *db = ((struct lite_conn *)c)->db;
    char *msg = NULL;
    int rc = sqlite3_exec(db, script, NULL, NULL, &msg);
    if (rc == SQLITE_OK)
        return STORAGE_OK;
    int status = sql_sqlite_status(db, rc, what);
    if (msg != NULL && status != STORAGE_ERROR)
        fprintf(stderr, "sokod: database: %s: %s\n", what, msg);
    sqlite3_free(msg);
    return status;
}

static struct sql_conn *lite_open(const char *path)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(
        path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, storage_vfs());
    if (rc != SQLITE_OK) {
        fprintf(stderr, "sokod: cannot open database %s: %s\n", path,
                db != NULL ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        return NULL;
    }
    struct lite_conn *c = calloc(1, sizeof *c);
    if (c == NULL) {
        sqlite3_close(db);
        return NULL;
    }
    c->base.driver = &sql_sqlite_driver;
    c->db = db;
    sqlite3_busy_timeout(db, STORAGE_BUSY_MS);
    sqlite3_extended_result_codes(db, 1);
    const char *sync = atomic_load(&synchronous_mode) == 2 ? "PRAGMA synchronous=FULL"
                                                           : "PRAGMA synchronous=NORMAL";
    storage_wal_hook *hook = atomic_load(&wal_hook);
    if (lite_exec(&c->base, "PRAGMA journal_mode=WAL", "PRAGMA journal_mode") != STORAGE_OK ||
        lite_exec(&c->base, sync, "PRAGMA synchronous") != STORAGE_OK ||
        lite_exec(&c->base, "PRAGMA foreign_keys=ON", "PRAGMA foreign_keys") != STORAGE_OK ||
        (hook != NULL && lite_exec(&c->base, "PRAGMA wal_autocheckpoint=0",
                                   "PRAGMA wal_autocheckpoint") != STORAGE_OK)) {
        sqlite3_close(db);
        free(c);
        return NULL;
    }
    if (hook != NULL)
        sqlite3_wal_hook(db, hook, NULL);
    return &c->base;
}

static void lite_close(struct sql_conn *base)
{
    struct lite_conn *c = (struct lite_conn *)base;
    if (sqlite3_close(c->db) != SQLITE_OK)
        fprintf(stderr, "sokod: database: closing: %s\n", sqlite3_errmsg(c->db));
    free(c);
}

static struct sql_stmt *lite_prepare(struct sql_conn *base, const char *sql)
{
    struct lite_conn *c = (struct lite_conn *)base;
    sqlite3_stmt *raw = NULL;
    int rc = sqlite3_prepare_v3(c->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &raw, NULL);
    if (rc != SQLITE_OK) {
        fprintf(stderr, "sokod: database: preparing %s: %s\n", sql, sqlite3_errmsg(c->db));
        return NULL;
    }
    struct lite_stmt *st = calloc(1, sizeof *st);
    if (st == NULL) {
        sqlite3_finalize(raw);
        return NULL;
    }
    st->base.driver = &sql_sqlite_driver;
    st->st = raw;
    st->db = c->db;
    return &st->base;
}

static void lite_finalize(struct sql_stmt *base)
{
    struct lite_stmt *st = (struct lite_stmt *)base;
    sqlite3_finalize(st->st);
    free(st);
}

static bool lite_in_transaction(struct sql_conn *base)
{
    return !sqlite3_get_autocommit(((struct lite_conn *)base)->db);
}

static sqlite3_stmt *raw(struct sql_stmt *base)
{
    return ((struct lite_stmt *)base)->st;
}

static void lite_bind_int64(struct sql_stmt *st, int idx, int64_t value)
{
    sqlite3_bind_int64(raw(st), idx, value);
}

static void lite_bind_text(struct sql_stmt *st, int idx, const char *text)
{
    sqlite3_bind_text(raw(st), idx, text, -1, SQLITE_TRANSIENT);
}

static void lite_bind_blob(struct sql_stmt *st, int idx, const void *data, size_t len)
{
    sqlite3_bind_blob64(raw(st), idx, data, len, SQLITE_TRANSIENT);
}

static void lite_bind_null(struct sql_stmt *st, int idx)
{
    sqlite3_bind_null(raw(st), idx);
}

static int lite_step(struct sql_stmt *base, const char *what)
{
    struct lite_stmt *st = (struct lite_stmt *)base;
    int rc = sqlite3_step(st->st);
    if (rc == SQLITE_ROW)
        return SQL_ROW;
    return sql_sqlite_status(st->db, rc, what);
}

static int64_t lite_column_int64(struct sql_stmt *st, int col)
{
    return sqlite3_column_int64(raw(st), col);
}

static const char *lite_column_text(struct sql_stmt *st, int col)
{
    return (const char *)sqlite3_column_text(raw(st), col);
}

static const void *lite_column_blob(struct sql_stmt *st, int col, size_t *len)
{
    const void *data = sqlite3_column_blob(raw(st), col);
    *len = (size_t)sqlite3_column_bytes(raw(st), col);
    return data;
}

static bool lite_column_is_null(struct sql_stmt *st, int col)
{
    return sqlite3_column_type(raw(st), col) == SQLITE_NULL;
}

static int64_t lite_changes(struct sql_stmt *base)
{
    return sqlite3_changes64(((struct lite_stmt *)base)->db);
}

static void lite_reset(struct sql_stmt *base)
{
    struct lite_stmt *st = (struct lite_stmt *)base;
    sqlite3_reset(st->st);
    sqlite3_clear_bindings(st->st);
}

static bool lite_busy(struct sql_stmt *base)
{
    return sqlite3_stmt_busy(raw(base)) != 0;
}

const struct sql_driver sql_sqlite_driver = {
    .backend = SQL_SQLITE,
    .open = lite_open,
    .close = lite_close,
    .prepare = lite_prepare,
    .finalize = lite_finalize,
    .exec = lite_exec,
    .in_transaction = lite_in_transaction,
    .bind_int64 = lite_bind_int64,
    .bind_text = lite_bind_text,
    .bind_blob = lite_bind_blob,
    .bind_null = lite_bind_null,
    .step = lite_step,
    .column_int64 = lite_column_int64,
    .column_text = lite_column_text,
    .column_blob = lite_column_blob,
    .column_is_null = lite_column_is_null,
    .changes = lite_changes,
    .reset = lite_reset,
    .busy = lite_busy,
};
