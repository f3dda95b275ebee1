/* Backups, restores and the lock file beside the database
 * (storage_backup.c). These open the database file themselves: they need
 * no storage_init. */
#ifndef SOKOD_STORAGE_BACKUP_H
#define SOKOD_STORAGE_BACKUP_H

#include "storage/storage_codes.h"

#include <stdbool.h>
#include <stddef.h>

/* Copies the database at db_path, as it stands at one moment, to `target`
 * (replaced whole, or left as it was on failure), safely while a server
 * writes to it, and checks the copy. Returns STORAGE_OK, or STORAGE_ERROR /
 * STORAGE_FULL with what went wrong in err. Needs no storage_init. */
int storage_backup(const char *db_path, const char *target, char *err, size_t cap);

/* Replaces the content of the database at db_path (created if missing)
 * with the checked copy `backup`. The caller must hold storage_lock(db_path,
 * true), so that no server has the database open. */
int storage_restore(const char *backup, const char *db_path, char *err, size_t cap);

/* Takes the lock file beside the database (DB.lock): shared for a server
 * (several may share it), exclusive for a restore. Returns the descriptor
 * that holds it until closed or the process ends, or -1 (errno
 * EWOULDBLOCK when another process holds it in the other mode). */
int storage_lock(const char *db_path, bool exclusive);

#endif
