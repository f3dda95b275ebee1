/* Storage of the server's secret keys (storage_keys.c). Same rules as
 * storage.h: the calling thread's connection, STORAGE_* codes, text handed
 * to callbacks valid during the call only. */
#ifndef SOKOD_STORAGE_KEYS_H
#define SOKOD_STORAGE_KEYS_H

#include "storage/storage_codes.h"

#include <stddef.h>
#include <stdint.h>

/* The secret key `name` of len bytes into key: the one stored, or else
 * `fresh` (random bytes of the same length), stored from now on. */
int storage_server_key(const char *name, const uint8_t *fresh, uint8_t *key, size_t len);

#endif
