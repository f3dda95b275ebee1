/* Shared by the storage*.c files only: the calling thread's connection and
 * its cache of prepared statements. */
#ifndef SOKOD_STORAGE_INTERNAL_H
#define SOKOD_STORAGE_INTERNAL_H

#include "storage/storage.h"

#include <sqlite3.h>

/* The calling thread's connection, opened (and configured) on first use;
 * NULL when it cannot be opened (logged). */
sqlite3 *storage_db(void);

/* The prepared statement for `sql`, reset and unbound, from the calling
 * thread's cache (prepared on first use). `sql` must be a string with static
 * storage: the cache is keyed by its address. NULL on failure (logged). */
sqlite3_stmt *storage_stmt(const char *sql);

/* The name of the VFS to open the database with (storage_vfs.c: the
 * system's, with the WAL's writes gathered per transaction), registered on
 * first use; NULL when it could not be registered (the system's then). */
const char *storage_vfs(void);

/* True while the background checkpointer runs (storage_wal.c): connections
 * opened then leave checkpoints to it. */
bool storage_wal_background(void);
/* Lets the checkpointer see how long the WAL is after each commit of db. */
void storage_wal_watch(sqlite3 *db);
/* Right after a commit, with this process's write lock still held: copies
 * the WAL's last frames into the database when the checkpointer asked for
 * it, so that the next transaction starts the WAL over. */
void storage_wal_tend(void);

/* Maps an SQLite result code to a STORAGE_* code, logging errors with `what`. */
int storage_status(int rc, const char *what);

/* Steps a statement that returns no rows; resets it. */
int storage_exec_stmt(sqlite3_stmt *st, const char *what);

/* Binds text, treating NULL as "". */
int storage_bind_text(sqlite3_stmt *st, int idx, const char *text);

/* A column's text, "" for NULL. */
const char *storage_column_text(sqlite3_stmt *st, int col);

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
