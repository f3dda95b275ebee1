/* The storage wing's connections (storage_conn.c): each thread has its own
 * SQLite connection, opened and configured on first use and closed when the
 * thread ends, with its cache of prepared statements. For the storage*.c
 * files only. */
#ifndef SOKOD_STORAGE_CONN_H
#define SOKOD_STORAGE_CONN_H

#include <sqlite3.h>
#include <stdbool.h>

/* Sets the database file and the synchronous mode (1 NORMAL, 2 FULL) of
 * every connection opened from now on. False when the path is too long. */
bool storage_conn_configure(const char *path, int synchronous);

/* The calling thread's connection, opened (and configured) on first use;
 * NULL when it cannot be opened (logged). */
sqlite3 *storage_db(void);

/* The prepared statement for `sql`, reset and unbound, from the calling
 * thread's cache (prepared on first use). `sql` must be a string with static
 * storage: the cache is keyed by its address. NULL on failure (logged). */
sqlite3_stmt *storage_stmt(const char *sql);

/* Called by SQLite after each commit of a connection, with the frames the
 * WAL then holds (the signature of sqlite3_wal_hook's callback). */
typedef int storage_wal_hook(void *arg, sqlite3 *db, const char *name, int frames);

/* Connections opened from now on leave checkpoints to the caller (SQLite's
 * automatic ones off) and call hook after each commit; NULL gives the
 * connections opened from then on SQLite's automatic checkpoints again. */
void storage_conn_watch_wal(storage_wal_hook *hook);

/* Closes the calling thread's connection, and reports on stderr connections
 * of other threads still open. */
void storage_conn_close(void);

#endif
