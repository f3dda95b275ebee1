/* Storage of rate limits that every node of one database shares
 * (storage_limits.c): one row per key, by the generic cell rate algorithm,
 * on the database's clock. Same rules as storage.h: the calling thread's
 * connection, STORAGE_* codes. Call outside any transaction: each call is
 * a statement of its own, counted at once whatever the request does next. */
#ifndef SOKOD_STORAGE_LIMITS_H
#define SOKOD_STORAGE_LIMITS_H

#include "storage/storage_codes.h"

#include <stdint.h>

/* The longest key stored, in bytes; longer keys are cut to it. */
#define STORAGE_LIMIT_KEY_MAX 96

/* Counts one event for key, allowed `burst` at once and then one every
 * interval_ms. STORAGE_OK with *wait_ms 0 when it is allowed (and counted);
 * STORAGE_OK with *wait_ms > 0, the milliseconds until one more would be
 * allowed, when it is over its limit (and not counted); or the code of a
 * failure, with nothing counted. */
int storage_limit_take(const char *key, unsigned burst, int64_t interval_ms, int64_t *wait_ms);

/* As storage_limit_take without counting anything. */
int storage_limit_check(const char *key, unsigned burst, int64_t interval_ms, int64_t *wait_ms);

/* Forgets key's events, as after a right password. */
int storage_limit_forget(const char *key);

/* Deletes the keys whose events are all past, then, when more than `cap`
 * keys remain, those nearest to expiry beyond the cap, but never one whose
 * tat lies more than hold_ms ahead of now: a key over its limit (the
 * smallest allowance, (burst - 1) * interval, of the limits counted), which
 * stays until its time runs out. Adds the rows deleted to *deleted. */
int storage_limits_sweep(int64_t cap, int64_t hold_ms, int64_t *deleted);

#endif
