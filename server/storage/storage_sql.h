/* Helpers for the storage*.c files' statements (storage_sql.c), over the
 * statement API of sql.h, and SQL text shared by several files. For the
 * storage*.c files only. */
#ifndef SOKOD_STORAGE_SQL_H
#define SOKOD_STORAGE_SQL_H

#include "storage/storage_codes.h"

#include "storage/sql.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Steps a statement that returns no rows; resets it. */
int storage_exec_stmt(struct sql_stmt *st, const char *what);

/* As storage_exec_stmt, for a write whose answer nobody reads: while the
 * calling thread defers its writes (storage_defer_writes), it is only sent
 * (sql_send), to go with the next statement that waits. */
int storage_write_stmt(struct sql_stmt *st, const char *what);

/* Whether the calling thread defers its writes; and its setting, which
 * storage_defer_writes (storage.h) makes. */
bool storage_writes_deferred(void);
void storage_set_writes_deferred(bool on);

/* As storage_exec_stmt, for a statement that must change a row:
 * STORAGE_NOT_FOUND when it ran but changed none. */
int storage_exec_changed(struct sql_stmt *st, const char *what);

/* As storage_exec_stmt, for an INSERT ... RETURNING id: sets *id to the
 * new row's id when it succeeds (leaves it untouched otherwise), and gives
 * STORAGE_NOT_FOUND when no row was inserted (ON CONFLICT DO NOTHING). */
int storage_exec_insert(struct sql_stmt *st, int64_t *id, const char *what);

/* The text of a statement whose dialects part: lite on SQLite, pg on
 * PostgreSQL. Both must have static storage, as for storage_stmt. */
const char *storage_dialect(const char *lite, const char *pg);

/* A column's text, or NULL when the column is NULL. */
const char *storage_column_text_or_null(struct sql_stmt *st, int col);

/* Steps a bound statement to its first row: STORAGE_OK with that row ready
 * to read, STORAGE_NOT_FOUND when there is none, or the error's code
 * (logged with what). The caller reads the row, then resets the statement. */
int storage_first_row(struct sql_stmt *st, const char *what);

/* As storage_first_row, for a statement whose first column is an integer:
 * reads it into *out (untouched when there is no row) and resets the
 * statement. */
int storage_first_int64(struct sql_stmt *st, int64_t *out, const char *what);

/* Runs `sql`, a statement of one parameter (bound to id) and one text
 * column, and copies the first row's text into out (cap bytes, cut short
 * to fit). STORAGE_NOT_FOUND when there is no row; out is then untouched.
 * `sql` must have static storage, as for storage_stmt. */
int storage_text_by_id(const char *sql, int64_t id, char *out, size_t cap, const char *what);

/* Steps a bound statement through its rows, calling row(st, fn, arg) on
 * each until row returns nonzero, then resets it. row reads the row into
 * the caller's struct and hands it to fn, the caller's callback (passed
 * through untouched). Returns STORAGE_OK after one row or more,
 * STORAGE_NOT_FOUND when there was none, STORAGE_STOP when row asked to
 * stop, or the code of the error that ended the rows (logged with what). */
int storage_each_row(struct sql_stmt *st, int (*row)(struct sql_stmt *st, void *fn, void *arg),
                     void *fn, void *arg, const char *what);

/* Runs `sql`, a statement of one parameter (bound to id), through
 * storage_each_row with row, fn and arg, and returns what that returns;
 * STORAGE_ERROR when the statement cannot be prepared. `sql` must have
 * static storage, as for storage_stmt. */
int storage_rows_by_id(const char *sql, int64_t id,
                       int (*row)(struct sql_stmt *st, void *fn, void *arg), void *fn, void *arg,
                       const char *what);

/* As storage_rows_by_id, for a listing: no rows is STORAGE_OK. */
int storage_list_by_id(const char *sql, int64_t id,
                       int (*row)(struct sql_stmt *st, void *fn, void *arg), void *fn, void *arg,
                       const char *what);

/* As storage_rows_by_id and storage_list_by_id, for a statement of two
 * parameters: a bound to ?1, b to ?2. */
int storage_rows_by_ids(const char *sql, int64_t a, int64_t b,
                        int (*row)(struct sql_stmt *st, void *fn, void *arg), void *fn, void *arg,
                        const char *what);
int storage_list_by_ids(const char *sql, int64_t a, int64_t b,
                        int (*row)(struct sql_stmt *st, void *fn, void *arg), void *fn, void *arg,
                        const char *what);

/* Copies at most cap bytes of a text column of row `id` of `table`, from
 * byte `offset` on, into out; sets *got to the bytes copied and *total to
 * the text's whole length. On SQLite an incremental read of
 * table.column, which goes to the slice through the row's pages instead of
 * reading the whole text; on PostgreSQL `sql`, whose ?1 is the id, ?2 the
 * first byte (from 1) and ?3 the length, giving the text's length and the
 * slice (static storage, as for storage_stmt). The text must be ASCII,
 * where PostgreSQL's characters are bytes. STORAGE_NOT_FOUND when there is
 * no such row. */
int storage_text_slice(const char *table, const char *column, const char *sql, int64_t id,
                       size_t offset, char *out, size_t cap, size_t *got, size_t *total,
                       const char *what);

/* The best solutions of user ?1, one row per level: level_id, best_moves,
 * best_pushes, hinted, first_at. A solution was helped when the game it
 * was played in had been given hints by the time it was solved. The counts
 * are those of solutions played without hints when the level has one;
 * otherwise hinted is 1 and they are those of the helped ones. */
#define STORAGE_BEST_SOLUTIONS                                                                     \
    "(SELECT level_id, "                                                                           \
    "CASE WHEN min(hints) = 0 THEN min(CASE WHEN hints = 0 THEN moves END) ELSE min(moves) END "   \
    "AS best_moves, "                                                                              \
    "CASE WHEN min(hints) = 0 THEN min(CASE WHEN hints = 0 THEN pushes END) ELSE min(pushes) END " \
    "AS best_pushes, "                                                                             \
    "min(hints) > 0 AS hinted, min(solved_at) AS first_at "                                        \
    "FROM solutions WHERE user_id = ?1 GROUP BY level_id)"

#endif
