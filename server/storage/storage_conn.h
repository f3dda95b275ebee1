/* The storage wing's connections (storage_conn.c): each thread has its own
 * connection to the database, opened on first use with the driver the
 * database's name calls for (sql_driver.h) and closed when the thread
 * ends, with its cache of prepared statements. For the storage*.c files
 * only. */
#ifndef SOKOD_STORAGE_CONN_H
#define SOKOD_STORAGE_CONN_H

#include "storage/sql.h"

#include <stdbool.h>

struct sql_conn;

/* Sets the database (a file path or a PostgreSQL URI) and the synchronous
 * mode of SQLite (1 NORMAL, 2 FULL) of every connection opened from now
 * on, and the driver the process uses. False when the name is too long. */
bool storage_conn_configure(const char *target, int synchronous);

/* The database's name as given to storage_conn_configure, with a URI's
 * password hidden, for messages. */
const char *storage_conn_name(void);

/* Bounds the connections open at once (0: no bound): a thread past it
 * gets no connection. */
void storage_conn_limit(unsigned n);

/* The database as configured, password and all: for a connection of the
 * storage wing's own (never to be printed). */
const char *storage_conn_target(void);

/* The calling thread's connection, opened on first use; NULL when it
 * cannot be opened (logged). */
struct sql_conn *storage_conn(void);

/* The prepared statement for `sql`, reset and unbound, from the calling
 * thread's cache (prepared on first use). `sql` must be a string with static
 * storage: the cache is keyed by its address. NULL on failure (logged). */
struct sql_stmt *storage_stmt(const char *sql);

/* Runs a script of statements without parameters on the calling thread's
 * connection: STORAGE_OK or the error's code (logged with what). */
int storage_conn_exec(const char *script, const char *what);

/* Whether the calling thread's connection has a transaction open. */
bool storage_conn_in_transaction(void);

/* Closes the calling thread's connection, and reports on stderr connections
 * of other threads still open. */
void storage_conn_close(void);

#endif
