/* Storage of race levels: the levels the generator made for race rooms,
 * one per difficulty and seed, in a hidden collection of their own. */
#ifndef SOKOD_STORAGE_RACE_LEVELS_H
#define SOKOD_STORAGE_RACE_LEVELS_H

#include "storage/storage_codes.h"

#include <stdint.h>

/* The level made for `difficulty` and `seed`: STORAGE_OK with *level set,
 * or STORAGE_NOT_FOUND before it is made. */
int storage_race_level_get(const char *difficulty, int64_t seed, int64_t *level);

/* A level the generator made, as sokod stores it. */
struct storage_generated_level {
    const char *title, *comment, *board;
    uint32_t width, height, boxes;
    const char *canonical_hash;
    const char *solution; /* the reference solution, LURD */
    uint32_t moves, pushes;
};

/* A generated race level, to store once. */
struct storage_race_level_new {
    const char *difficulty;
    int64_t seed;
    struct storage_generated_level level;
};

/* Stores the level, its reference solution and its row in one
 * transaction, creating the hidden collection "Race levels" on first use.
 * When the pair has a level already (made meanwhile by another request),
 * keeps that one. Sets *level. Returns STORAGE_OK or an error code
 * (nothing written). */
int storage_race_level_add(const struct storage_race_level_new *r, int64_t now, int64_t *level);

/* The hidden collection whose source is `source`, created when missing
 * under the first free name of `name`, "`name` 2", ... with `notes` and
 * the author sokod. Call inside a write transaction. Sets *id; returns
 * STORAGE_OK or an error code. Shared by the collections sokod fills
 * itself (daily puzzles, race levels). */
int storage_hidden_collection(const char *source, const char *name, const char *notes, int64_t now,
                              int64_t *id);

/* Adds g at the end of the hidden collection of `source` (created as
 * storage_hidden_collection does), by the author sokod, with its solution
 * as the reference. Call inside a write transaction. Sets *level; returns
 * STORAGE_OK or an error code. */
int storage_generated_level_insert(const char *source, const char *name, const char *notes,
                                   const struct storage_generated_level *g, int64_t now,
                                   int64_t *level);

#endif
