/* The schema's migrations (storage_migrate.c). */
#ifndef SOKOD_STORAGE_MIGRATE_H
#define SOKOD_STORAGE_MIGRATE_H

#include "storage/storage_codes.h"

#include <stdbool.h>

/* Brings the schema up to date with the NNNN_name.sql files of `dir`, each
 * in its own transaction, tracked by PRAGMA user_version. Sets *fresh when
 * the database had no schema before. Refuses (STORAGE_ERROR, with a message
 * on stderr) a database newer than the newest migration. */
int storage_migrate(const char *dir, bool *fresh);

#endif
