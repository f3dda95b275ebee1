/* Storage of each user's settings (storage_settings.c). Same rules as
 * storage.h: the calling thread's connection, STORAGE_* codes, text handed
 * to callbacks valid during the call only. */
#ifndef SOKOD_STORAGE_SETTINGS_H
#define SOKOD_STORAGE_SETTINGS_H

#include "storage/storage_codes.h"

#include <stdint.h>

/* A user's settings as JSON text in *json (the caller frees), or
 * STORAGE_NOT_FOUND when the user has saved none. */
int storage_settings_get(int64_t user, char **json);
/* Replaces a user's settings with the JSON object text `json`. */
int storage_settings_put(int64_t user, const char *json, int64_t now);

#endif
