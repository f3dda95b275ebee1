/* Storage: the statement helpers every storage file uses. */
#include "storage/storage_sql.h"

#include "storage/sql_sqlite.h"
#include "storage/storage_conn.h"

#include <stdio.h>
#include <string.h>

int storage_exec_stmt(struct sql_stmt *st, const char *what)
{
    if (st == NULL)
        return STORAGE_ERROR;
    int status = sql_step(st, what);
    sql_reset(st);
    return status == SQL_ROW ? STORAGE_OK : status;
}

static _Thread_local bool deferring;

void storage_set_writes_deferred(bool on)
{
    deferring = on;
}

bool storage_writes_deferred(void)
{
    return deferring;
}

int storage_write_stmt(struct sql_stmt *st, const char *what)
{
    if (st == NULL)
        return STORAGE_ERROR;
    if (deferring)
        return sql_send(st, what);
    return storage_exec_stmt(st, what);
}

int storage_exec_changed(struct sql_stmt *st, const char *what)
{
    if (st == NULL)
        return STORAGE_ERROR;
    int status = sql_step(st, what);
    int64_t changed = sql_changes(st);
    sql_reset(st);
    if (status == SQL_ROW)
        status = STORAGE_OK;
    if (status == STORAGE_OK && changed == 0)
        return STORAGE_NOT_FOUND;
    return status;
}

int storage_exec_insert(struct sql_stmt *st, int64_t *id, const char *what)
{
    if (st == NULL)
        return STORAGE_ERROR;
    int status = sql_step(st, what);
    if (status == SQL_ROW) {
        *id = sql_column_int64(st, 0);
        status = STORAGE_OK;
    } else if (status == STORAGE_OK) {
        status = STORAGE_NOT_FOUND;
    }
    sql_reset(st);
    return status;
}

const char *storage_dialect(const char *lite, const char *pg)
{
    return sql_backend() == SQL_POSTGRES ? pg : lite;
}

const char *storage_column_text_or_null(struct sql_stmt *st, int col)
{
    return sql_column_is_null(st, col) ? NULL : sql_column_text(st, col);
}

int storage_first_row(struct sql_stmt *st, const char *what)
{
    int status = sql_step(st, what);
    if (status == SQL_ROW)
        return STORAGE_OK;
    if (status == STORAGE_OK)
        return STORAGE_NOT_FOUND;
    return status;
}

int storage_first_int64(struct sql_stmt *st, int64_t *out, const char *what)
{
    int status = storage_first_row(st, what);
    if (status == STORAGE_OK)
        *out = sql_column_int64(st, 0);
    sql_reset(st);
    return status;
}

int storage_text_by_id(const char *sql, int64_t id, char *out, size_t cap, const char *what)
{
    struct sql_stmt *st = storage_stmt(sql);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    int status = storage_first_row(st, what);
    if (status == STORAGE_OK)
        snprintf(out, cap, "%s", sql_column_text(st, 0));
    sql_reset(st);
    return status;
}

int storage_each_row(struct sql_stmt *st, int (*row)(struct sql_stmt *st, void *fn, void *arg),
                     void *fn, void *arg, const char *what)
{
    int status = STORAGE_NOT_FOUND;
    int rc = sql_step(st, what);
    while (rc == SQL_ROW) {
        status = STORAGE_OK;
        if (row(st, fn, arg) != 0) {
            status = STORAGE_STOP;
            break;
        }
        rc = sql_step(st, what);
    }
    if (rc != SQL_ROW && rc != STORAGE_OK)
        status = rc;
    sql_reset(st);
    return status;
}

/* Prepares sql, binds ids[0..n) to ?1..?n, and steps it through its rows. */
static int rows_of(const char *sql, const int64_t *ids, int n,
                   int (*row)(struct sql_stmt *st, void *fn, void *arg), void *fn, void *arg,
                   const char *what)
{
    struct sql_stmt *st = storage_stmt(sql);
    if (st == NULL)
        return STORAGE_ERROR;
    for (int i = 0; i < n; i++)
        sql_bind_int64(st, i + 1, ids[i]);
    return storage_each_row(st, row, fn, arg, what);
}

static int listed(int status)
{
    return status == STORAGE_NOT_FOUND ? STORAGE_OK : status;
}

int storage_rows_by_id(const char *sql, int64_t id,
                       int (*row)(struct sql_stmt *st, void *fn, void *arg), void *fn, void *arg,
                       const char *what)
{
    return rows_of(sql, &id, 1, row, fn, arg, what);
}

int storage_list_by_id(const char *sql, int64_t id,
                       int (*row)(struct sql_stmt *st, void *fn, void *arg), void *fn, void *arg,
                       const char *what)
{
    return listed(rows_of(sql, &id, 1, row, fn, arg, what));
}

int storage_rows_by_ids(const char *sql, int64_t a, int64_t b,
                        int (*row)(struct sql_stmt *st, void *fn, void *arg), void *fn, void *arg,
                        const char *what)
{
    const int64_t ids[] = {a, b};
    return rows_of(sql, ids, 2, row, fn, arg, what);
}

int storage_list_by_ids(const char *sql, int64_t a, int64_t b,
                        int (*row)(struct sql_stmt *st, void *fn, void *arg), void *fn, void *arg,
                        const char *what)
{
    const int64_t ids[] = {a, b};
    return listed(rows_of(sql, ids, 2, row, fn, arg, what));
}

static int lite_slice(sqlite3 *db, const char *table, const char *column, int64_t id, size_t offset,
                      char *out, size_t cap, size_t *got, size_t *total, const char *what)
{
    sqlite3_blob *blob = NULL;
    int rc = sqlite3_blob_open(db, "main", table, column, id, 0, &blob);
    if (rc == SQLITE_ERROR) {
        /* No such row: it was deleted since it was listed. */
        sqlite3_blob_close(blob);
        return STORAGE_NOT_FOUND;
    }
    if (rc == SQLITE_OK) {
        size_t bytes = (size_t)sqlite3_blob_bytes(blob);
        size_t n = offset < bytes ? bytes - offset : 0;
        if (n > cap)
            n = cap;
        if (n > 0)
            rc = sqlite3_blob_read(blob, out, (int)n, (int)offset);
        if (rc == SQLITE_OK) {
            *total = bytes;
            *got = n;
        }
    }
    int status = sql_sqlite_status(db, rc, what);
    sqlite3_blob_close(blob);
    return status;
}

int storage_text_slice(const char *table, const char *column, const char *sql, int64_t id,
                       size_t offset, char *out, size_t cap, size_t *got, size_t *total,
                       const char *what)
{
    *got = 0;
    sqlite3 *db = sql_sqlite_handle(storage_conn());
    if (db != NULL)
        return lite_slice(db, table, column, id, offset, out, cap, got, total, what);
    struct sql_stmt *st = storage_stmt(sql);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_int64(st, 2, (int64_t)offset + 1);
    sql_bind_int64(st, 3, (int64_t)cap);
    int status = storage_first_row(st, what);
    if (status == STORAGE_OK) {
        *total = (size_t)sql_column_int64(st, 0);
        const char *text = sql_column_text(st, 1);
        size_t n = strlen(text);
        *got = n < cap ? n : cap;
        memcpy(out, text, *got);
    }
    sql_reset(st);
    return status;
}
