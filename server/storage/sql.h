/* One statement API over sokod's two databases (sql_driver.c): the storage*.c
 * files prepare, bind, step and read statements through it, and it passes
 * each call to the driver of the connection the statement belongs to:
 * SQLite (sql_sqlite.c) or PostgreSQL (sql_pg.c). For the storage*.c files
 * only.
 *
 * Statements are written once, in the SQL both databases read: `?` or
 * `?N` placeholders (the PostgreSQL driver numbers them as `$N`), RETURNING
 * for a new row's id, ON CONFLICT for upserts, integers for flags. Where
 * the dialects part, a storage file holds one text per backend and picks
 * with sql_backend(). Parameters are numbered from 1, columns from 0. */
#ifndef SOKOD_STORAGE_SQL_DRIVER_API_H
#define SOKOD_STORAGE_SQL_DRIVER_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A prepared statement of one connection (a driver's own struct). */
struct sql_stmt;

enum sql_backend {
    SQL_SQLITE,
    SQL_POSTGRES,
};

/* What sql_step gives when a row is ready to read: a value no STORAGE_*
 * code takes. A finished statement gives STORAGE_OK, a failed one the
 * error's STORAGE_* code. */
#define SQL_ROW 100

/* The backend of the database the process uses (set by storage_init). */
enum sql_backend sql_backend(void);

void sql_bind_int64(struct sql_stmt *st, int idx, int64_t value);
/* Binds text, treating NULL as "". The text is copied. */
void sql_bind_text(struct sql_stmt *st, int idx, const char *text);
/* Binds len bytes, copied. */
void sql_bind_blob(struct sql_stmt *st, int idx, const void *data, size_t len);
void sql_bind_null(struct sql_stmt *st, int idx);

/* Runs the statement on its first call and moves to the next row on each
 * further one: SQL_ROW when a row is ready, STORAGE_OK when there are no
 * more, or the error's STORAGE_* code, logged on stderr with `what`. */
int sql_step(struct sql_stmt *st, const char *what);

/* Runs a statement whose rows nobody reads and resets it. Inside a
 * transaction on PostgreSQL it may only be sent, to go with the next
 * statement that waits for an answer (one round trip for both): then a
 * failure of it fails that statement, and every further one of the
 * transaction but a whole ROLLBACK. Elsewhere it runs at once. Returns
 * STORAGE_OK or the error's STORAGE_* code, logged with `what`. */
int sql_send(struct sql_stmt *st, const char *what);

/* The current row's columns. A NULL reads as 0, "" or no bytes. Text and
 * bytes stay valid until the next step or reset of the statement. */
int64_t sql_column_int64(struct sql_stmt *st, int col);
int sql_column_int(struct sql_stmt *st, int col);
const char *sql_column_text(struct sql_stmt *st, int col);
/* Sets *len to the column's length in bytes. */
const void *sql_column_blob(struct sql_stmt *st, int col, size_t *len);
bool sql_column_is_null(struct sql_stmt *st, int col);

/* The rows the statement's last run inserted, updated or deleted. */
int64_t sql_changes(struct sql_stmt *st);

/* Ends the statement's run and forgets its bindings, so that it can run
 * again. Cannot fail. */
void sql_reset(struct sql_stmt *st);

/* Whether the statement is between its first step and its reset. */
bool sql_busy(struct sql_stmt *st);

/* The round trips to the database server (PostgreSQL) the calling thread
 * has made: each statement, or pipeline of statements, whose answer it
 * waited for. Also counted in GET /metrics. Always 0 on SQLite. */
uint64_t sql_round_trips(void);

#endif
