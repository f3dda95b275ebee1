/* Storage: the quota of bytes each account may store (migration 0020).
 * The database counts a player's bytes with every write and refuses a
 * write past the limit (STORAGE_QUOTA); this sets the limits and reads
 * the counts. */
#ifndef SOKOD_STORAGE_QUOTA_H
#define SOKOD_STORAGE_QUOTA_H

#include "storage/storage_codes.h"

#include <stdbool.h>
#include <stdint.h>

/* Sets the limits of accounts and of guests, in bytes, in a transaction
 * of its own: every node of a database shares them, as the last node to
 * start set them. */
int storage_quota_set(int64_t user_bytes, int64_t guest_bytes);

/* What all guests together store, in bytes (a read of every guest's
 * count: the sweeper's thread calls it now and then). */
int storage_quota_guests_stored(int64_t *bytes);

/* Sets the guests' limit alone, in bytes, in a transaction of its own;
 * *changed says whether it stood at another value. 0 closes the guests'
 * storage: every write of a guest that adds bytes is refused. */
int storage_quota_set_guests(int64_t guest_bytes, bool *changed);

/* Counts every game's and every player's bytes again from the rows they
 * hold, in a transaction of its own (after a copy, whose rows arrived with
 * their counts and were counted again by the triggers). */
int storage_quota_recount(void);

/* What the player stores and may store, in bytes. STORAGE_NOT_FOUND when
 * there is no such player. */
int storage_quota_of(int64_t user, int64_t *used, int64_t *allowed);

#endif
