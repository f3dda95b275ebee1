/* Storage: result codes and the statement helpers every storage file uses. */
#include "storage/storage_sql.h"

#include "storage/storage_conn.h"

#include <errno.h>
#include <stdio.h>

int storage_status(int rc, const char *what)
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
        if (storage_db() != NULL && sqlite3_system_errno(storage_db()) == ENOSPC) {
            fprintf(stderr, "sokod: database: disk full: %s\n", what);
            return STORAGE_FULL;
        }
        break;
    case SQLITE_CONSTRAINT:
        if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
            return STORAGE_CONFLICT;
        break;
    default:
        break;
    }
    sqlite3 *db = storage_db();
    fprintf(stderr, "sokod: database: %s: %s\n", what,
            db != NULL ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    return STORAGE_ERROR;
}

int storage_exec_stmt(sqlite3_stmt *st, const char *what)
{
    if (st == NULL)
        return STORAGE_ERROR;
    int rc = sqlite3_step(st);
    int status = storage_status(rc, what);
    sqlite3_reset(st);
    return status;
}

int storage_exec_changed(sqlite3_stmt *st, const char *what)
{
    int status = storage_exec_stmt(st, what);
    if (status == STORAGE_OK && sqlite3_changes(storage_db()) == 0)
        return STORAGE_NOT_FOUND;
    return status;
}

int storage_exec_insert(sqlite3_stmt *st, int64_t *id, const char *what)
{
    int status = storage_exec_stmt(st, what);
    if (status == STORAGE_OK)
        *id = sqlite3_last_insert_rowid(storage_db());
    return status;
}

int storage_bind_text(sqlite3_stmt *st, int idx, const char *text)
{
    return sqlite3_bind_text(st, idx, text != NULL ? text : "", -1, SQLITE_TRANSIENT);
}

const char *storage_column_text(sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    return t != NULL ? (const char *)t : "";
}

int storage_first_row(sqlite3_stmt *st, const char *what)
{
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        return STORAGE_OK;
    if (rc == SQLITE_DONE)
        return STORAGE_NOT_FOUND;
    return storage_status(rc, what);
}

int storage_first_int64(sqlite3_stmt *st, int64_t *out, const char *what)
{
    int status = storage_first_row(st, what);
    if (status == STORAGE_OK)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    return status;
}

int storage_text_by_id(const char *sql, int64_t id, char *out, size_t cap, const char *what)
{
    sqlite3_stmt *st = storage_stmt(sql);
    if (st == NULL)
        return STORAGE_ERROR;
    sqlite3_bind_int64(st, 1, id);
    int status = storage_first_row(st, what);
    if (status == STORAGE_OK)
        snprintf(out, cap, "%s", storage_column_text(st, 0));
    sqlite3_reset(st);
    return status;
}

int storage_each_row(sqlite3_stmt *st, int (*row)(sqlite3_stmt *st, void *fn, void *arg), void *fn,
                     void *arg, const char *what)
{
    int status = STORAGE_NOT_FOUND;
    int rc = sqlite3_step(st);
    while (rc == SQLITE_ROW) {
        status = STORAGE_OK;
        if (row(st, fn, arg) != 0) {
            status = STORAGE_STOP;
            break;
        }
        rc = sqlite3_step(st);
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        status = storage_status(rc, what);
    sqlite3_reset(st);
    return status;
}

/* Prepares sql, binds ids[0..n) to ?1..?n, and steps it through its rows. */
static int rows_of(const char *sql, const int64_t *ids, int n,
                   int (*row)(sqlite3_stmt *st, void *fn, void *arg), void *fn, void *arg,
                   const char *what)
{
    sqlite3_stmt *st = storage_stmt(sql);
    if (st == NULL)
        return STORAGE_ERROR;
    for (int i = 0; i < n; i++)
        sqlite3_bind_int64(st, i + 1, ids[i]);
    return storage_each_row(st, row, fn, arg, what);
}

static int listed(int status)
{
    return status == STORAGE_NOT_FOUND ? STORAGE_OK : status;
}

int storage_rows_by_id(const char *sql, int64_t id,
                       int (*row)(sqlite3_stmt *st, void *fn, void *arg), void *fn, void *arg,
                       const char *what)
{
    return rows_of(sql, &id, 1, row, fn, arg, what);
}

int storage_list_by_id(const char *sql, int64_t id,
                       int (*row)(sqlite3_stmt *st, void *fn, void *arg), void *fn, void *arg,
                       const char *what)
{
    return listed(rows_of(sql, &id, 1, row, fn, arg, what));
}

int storage_rows_by_ids(const char *sql, int64_t a, int64_t b,
                        int (*row)(sqlite3_stmt *st, void *fn, void *arg), void *fn, void *arg,
                        const char *what)
{
    const int64_t ids[] = {a, b};
    return rows_of(sql, ids, 2, row, fn, arg, what);
}

int storage_list_by_ids(const char *sql, int64_t a, int64_t b,
                        int (*row)(sqlite3_stmt *st, void *fn, void *arg), void *fn, void *arg,
                        const char *what)
{
    const int64_t ids[] = {a, b};
    return listed(rows_of(sql, ids, 2, row, fn, arg, what));
}
