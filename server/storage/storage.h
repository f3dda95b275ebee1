/* Storage: every SQL statement of sokod lives behind the headers of this
 * folder, so that a port to another database touches only server/storage/.
 * This one holds what every user of the database needs: setting it up,
 * shutting it down, and transactions. The rest is one header per part of
 * the schema, each for the wings that use it:
 *   storage_codes.h     the STORAGE_* codes every function returns
 *   storage_users.h     users, sessions, old guests (accounts, play, live, cli)
 *   storage_settings.h  each user's settings (accounts, live)
 *   storage_keys.h      the server's secret keys (accounts)
 *   storage_limits.h    rate limits shared by every node (accounts)
 *   storage_admin.h     admins, the audit log, managing the library (library, accounts, cli)
 *   storage_levels.h    collections and levels (library, play, live)
 *   storage_games.h     games, their logs, progress and solutions (play, live)
 *   storage_boards.h    witnessed solutions and leaderboards (play)
 *   storage_daily.h     the daily puzzle (play, live)
 *   storage_race_levels.h  levels generated for races (play, live)
 *   storage_snapshots.h saved positions of games (play)
 *   storage_hints.h     hint plans, the rest of a hint's solution (play)
 *   storage_ratings.h   ratings of players and levels, the library by difficulty (play)
 *   storage_staging.h   uploads staged for import, and their parts (library, accounts)
 *   storage_jobs.h      background jobs leased to one node at a time (library)
 *   storage_rooms.h, storage_watch.h  race rooms, watching a player (live)
 *   storage_work.h      work one node at a time does, across nodes (accounts, play,
 *                       library)
 *   storage_migrate.h, storage_backup.h, storage_wal.h  the schema, backups and
 *                       the WAL's checkpointer (the server's start, cli)
 *   storage_conn.h, storage_sql.h, storage_vfs.h  connections, statements and
 *                       the VFS, for the files of this folder only
 *
 * Each thread has its own SQLite connection, opened on first use and closed
 * when the thread ends; prepared statements are cached per connection. All
 * functions work on the calling thread's connection. Functions return
 * STORAGE_OK or another code of storage_codes.h; on STORAGE_ERROR the cause
 * has been logged to stderr. Text handed to a callback is valid during the
 * call only. */
#ifndef SOKOD_STORAGE_H
#define SOKOD_STORAGE_H

#include "storage/storage_codes.h"

#include <stdbool.h>
#include <stdint.h>

/* Sets the database file and the synchronous mode (1 NORMAL, 2 FULL) used by
 * every connection, and creates the file's folder if missing. Call once,
 * before any other storage function. Returns STORAGE_OK or STORAGE_ERROR. */
int storage_init(const char *path, int synchronous);

/* Whether the database is a server's (PostgreSQL), which other nodes may
 * share and which counts each connection, rather than a SQLite file. */
bool storage_is_server(void);

/* The connections the process may hold at once (each thread that uses
 * the database holds one); a thread past it gets none, and its storage
 * calls fail (logged). 0: no bound. */
void storage_set_max_connections(unsigned n);

/* On PostgreSQL, measures how far the database's clock is from this
 * machine's and makes the process's wall clock follow it (clock_follow),
 * so that every node of the database reads one time. Returns STORAGE_OK,
 * STORAGE_NOT_FOUND on SQLite (its clock is this machine's), STORAGE_BUSY
 * when the round trip was too slow to measure by, or the failure's code. */
int storage_follow_clock(void);

/* The database's name as storage_init was given it, with a PostgreSQL
 * URI's password hidden: what messages may print. */
const char *storage_name(void);

/* Closes the calling thread's connection, and reports on stderr connections
 * of other threads still open. */
void storage_shutdown(void);

/* BEGIN IMMEDIATE: a write transaction that holds the write lock from the
 * start. Transactions do not nest. Waits for the lock up to STORAGE_BUSY_MS
 * from the call, then gives STORAGE_BUSY. */
int storage_begin(void);
/* storage_begin, waiting for the lock no later than deadline_ms (on the
 * clock of clock_mono_ms); a deadline already past still takes a free
 * lock, without waiting. */
int storage_begin_until(int64_t deadline_ms);
/* COMMIT; on failure the transaction is rolled back. */
int storage_commit(void);
/* ROLLBACK, when a transaction is open. Cannot fail. */
void storage_rollback(void);
/* Ends the open transaction by what was done in it: storage_commit when
 * status is STORAGE_OK, else storage_rollback. Returns status, or the
 * commit's failure. */
int storage_finish(int status);

/* For tests: with SOKOD_TEST_CONFLICTS=1 in the environment, from now on
 * every other transaction each thread ends with storage_finish is undone
 * as a lost conflict (STORAGE_RETRY), so that a test finds the requests
 * that do not run their transaction again. Does nothing otherwise. */
void storage_test_conflicts(void);

/* How many times a transaction undone by a serialization failure or a
 * deadlock (STORAGE_RETRY) runs again before its caller gets the code. */
#define STORAGE_RETRIES 4

/* Runs body(arg) in a transaction (storage_begin, then storage_finish of
 * what body returns) and, while a serialization failure or a deadlock
 * undoes it, runs it all again, up to STORAGE_RETRIES more times, each
 * after storage_retry_pause. body may run several times: what it sets
 * outside the database it must set afresh on each run. Returns the last
 * run's status. */
int storage_transaction(int (*body)(void *arg), void *arg);

/* Whether the transaction that just ended with `status` runs again: true,
 * after storage_retry_pause, when a serialization failure or a deadlock
 * undid it (STORAGE_RETRY) and it has runs left (STORAGE_RETRIES more
 * than the first). *runs counts its runs; set it to 0 before the first.
 * A caller that begins and ends its own transaction runs it all in
 *     unsigned runs = 0;
 *     do { status = storage_begin(); ...; status = storage_finish(status); }
 *     while (storage_again(status, &runs));
 * setting afresh on each run what it sets outside the database, as the
 * committer and storage_transaction do. */
bool storage_again(int status, unsigned *runs);

/* Sleeps before a transaction runs again after its `runs`-th run lost a
 * conflict: a random point between half and all of a span that starts at
 * 2 ms and doubles with each run (up to 64 ms), so that the transactions
 * that met do not meet again at once. */
void storage_retry_pause(unsigned runs);

/* Batched transactions, on PostgreSQL: while `on`, the calling thread's
 * BEGIN and the writes whose answers nobody reads (an entry's record, a
 * hint's count, a notification) are only sent, to go with the next
 * statement that waits, in one round trip. A failure of one of them then
 * fails that statement and the rest of the transaction. Off by default. */
void storage_defer_writes(bool on);

/* The round trips to the database server (PostgreSQL) the calling thread
 * has made, each statement or pipeline of statements waited for; 0 on
 * SQLite. */
uint64_t storage_round_trips(void);

/* SAVEPOINT inside the open transaction, so that one part of it can be
 * undone (storage_undo_to_savepoint) and the rest still committed. On
 * PostgreSQL this and the release go out with the next statement that
 * waits for an answer (sql_send): a failure of either fails that one and
 * the rest of the transaction. */
int storage_savepoint(void);
/* Forgets the last savepoint, keeping what was written since. */
int storage_release_savepoint(void);
/* Undoes what was written since the last savepoint, and forgets it. */
int storage_undo_to_savepoint(void);

#endif
