/* Backups of a PostgreSQL database (storage_pgdump.c): PostgreSQL's own
 * pg_dump and pg_restore, run as child processes. The password of the
 * database's URI never appears on their command lines, which any user of
 * the machine may read: the children get it in PGPASSWORD. */
#ifndef SOKOD_STORAGE_PGDUMP_H
#define SOKOD_STORAGE_PGDUMP_H

#include "storage/storage_codes.h"

#include <stddef.h>
#include <stdint.h>

/* Dumps the database of uri into file (pg_dump's custom format), through a
 * file beside it that replaces file only once complete. On failure returns
 * STORAGE_ERROR and says why in err (a missing pg_dump named as such). */
int storage_pg_backup(const char *uri, const char *file, char *err, size_t cap);

/* Puts the content of file, made by storage_pg_backup, back into the
 * database of uri, in one transaction (pg_restore --clean --if-exists):
 * tables are dropped and made again. Same errors as storage_pg_backup. */
int storage_pg_restore(const char *uri, const char *file, char *err, size_t cap);

/* Sets *n to the connections to the process's database (storage_init)
 * other than the calling thread's own. */
int storage_pg_other_connections(int64_t *n);

#endif
