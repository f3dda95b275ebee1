/* What only the SQLite driver (sql_sqlite.c) has: its synchronous mode,
 * the WAL's hook and the connection's handle, for the storage files that
 * work on SQLite alone (the WAL's checkpointer, backups, migrations). */
#ifndef SOKOD_STORAGE_SQL_SQLITE_H
#define SOKOD_STORAGE_SQL_SQLITE_H

#include "storage/sql_driver.h"

#include <sqlite3.h>

/* Sets the synchronous mode (1 NORMAL, 2 FULL) of connections opened from
 * now on. */
void sql_sqlite_configure(int synchronous);

/* Called by SQLite after each commit of a connection, with the frames the
 * WAL then holds (the signature of sqlite3_wal_hook's callback). */
typedef int storage_wal_hook(void *arg, sqlite3 *db, const char *name, int frames);

/* Connections opened from now on leave checkpoints to the caller (SQLite's
 * automatic ones off) and call hook after each commit; NULL gives the
 * connections opened from then on SQLite's automatic checkpoints again. */
void sql_sqlite_watch_wal(storage_wal_hook *hook);

/* The SQLite handle of a connection of this driver; NULL for any other. */
sqlite3 *sql_sqlite_handle(struct sql_conn *c);

/* Maps an SQLite result code of db to a STORAGE_* code, logging errors
 * with what. */
int sql_sqlite_status(sqlite3 *db, int rc, const char *what);

#endif
