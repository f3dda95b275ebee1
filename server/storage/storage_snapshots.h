/* Storage of saved positions ("snapshots"): named positions of a game,
 * each kept as the steps that reach it from the level's start. */
#ifndef SOKOD_STORAGE_SNAPSHOTS_H
#define SOKOD_STORAGE_SNAPSHOTS_H

#include "storage/storage_codes.h"

#include <stdbool.h>
#include <stdint.h>

/* A saved position as stored. Text is valid during a callback only. */
struct storage_snapshot {
    int64_t id;
    int64_t game_id;
    const char *name;
    const char *lurd; /* "" in listings, which leave it out */
    uint32_t moves, pushes;
    bool solved;
    int64_t created_at;
};

/* Adds s (its id ignored) to game s->game_id unless the game holds `max`
 * already, counting and inserting in one transaction. Returns STORAGE_OK
 * with *id set, STORAGE_CONFLICT when the game is full (nothing written),
 * or an error code. */
int storage_snapshot_add(const struct storage_snapshot *s, uint32_t max, int64_t *id);

/* Calls fn(s, arg) on each saved position of game `game`, oldest first,
 * without its lurd. Returns STORAGE_OK (none is OK too) or an error code. */
int storage_snapshot_list(int64_t game, void (*fn)(const struct storage_snapshot *s, void *arg),
                          void *arg);

/* Calls fn(s, arg) on saved position `id` of game `game`, lurd included.
 * Returns STORAGE_OK, STORAGE_NOT_FOUND (none such in that game) or an
 * error code. */
int storage_snapshot_get(int64_t game, int64_t id,
                         void (*fn)(const struct storage_snapshot *s, void *arg), void *arg);

/* Deletes saved position `id` of game `game`. Returns STORAGE_OK,
 * STORAGE_NOT_FOUND or an error code. */
int storage_snapshot_delete(int64_t game, int64_t id);

#endif
