/* Storage of hint plans (hint_plans): the rest of the solution a game's
 * last hint came from, shared by the nodes so that the next hint, asked of
 * any of them, goes on with it. */
#ifndef SOKOD_STORAGE_HINTS_H
#define SOKOD_STORAGE_HINTS_H

#include "storage/storage_codes.h"

#include <stdint.h>

/* Stores `rest` as game_id's plan from the position of Zobrist hash
 * `hash`, replacing the game's plan, in a transaction of its own. */
int storage_hint_plan_put(int64_t game_id, uint64_t hash, const char *rest);

/* Takes (and deletes) game_id's plan, in a transaction of its own: its
 * hash in *hash and its rest in *rest (malloc'd, the caller frees it).
 * STORAGE_NOT_FOUND when the game has none. */
int storage_hint_plan_take(int64_t game_id, uint64_t *hash, char **rest);

#endif
