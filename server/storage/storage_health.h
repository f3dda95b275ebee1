/* Storage for the health checks: whether the database answers and holds
 * the schema this node was started with. */
#ifndef SOKOD_STORAGE_HEALTH_H
#define SOKOD_STORAGE_HEALTH_H

#include "storage/storage_codes.h"

/* Reads the schema version into *version: STORAGE_OK, or the code of the
 * failure (logged). A read only, which a writer holding the database does
 * not block. */
int storage_health_schema(int *version);

/* Remembers the schema version the database holds now, once migrated, as
 * the one this node expects; returns what storage_health_schema returns. */
int storage_health_remember(void);

/* The version storage_health_remember found; 0 before it ran. */
int storage_health_expected(void);

#endif
