/* Storage of collections and levels, each with one user's progress on it
 * (storage_levels.c). Same rules as storage.h: the calling thread's
 * connection, STORAGE_* codes, text handed to callbacks valid during the
 * call only. */
#ifndef SOKOD_STORAGE_LEVELS_H
#define SOKOD_STORAGE_LEVELS_H

#include "storage/storage_codes.h"

#include <stdbool.h>
#include <stdint.h>

struct storage_collection {
    int64_t id;
    const char *name;
    const char *source;
    const char *notes;
    const char *author; /* the collection's credit */
    int64_t created_at;
    uint32_t levels;
    uint32_t solved; /* levels the user has solved */
};

/* A level with, for one user, its best solution and game. Text fields point
 * into the row being read, or into storage_level_get's copies. */
struct storage_level {
    int64_t id;
    int64_t collection_id;
    uint32_t position;
    const char *title;
    const char *author;
    const char *comment;
    const char *board;
    const char *collection_name;
    uint32_t width, height, boxes;
    const char *canonical_hash;
    bool solved;
    uint32_t best_moves, best_pushes; /* from the user's solutions, when solved */
    bool hinted;     /* solved only with hints: the best counts are of helped solutions */
    int64_t game_id; /* the user's game on the level, or 0 */
};

struct storage_new_level {
    int64_t collection_id;
    uint32_t position;
    const char *title, *author, *comment, *board;
    uint32_t width, height, boxes;
    const char *canonical_hash;
};

/* STORAGE_OK when a collection was imported from `source`, else STORAGE_NOT_FOUND. */
int storage_collection_from_source(const char *source);
int storage_level_insert(const struct storage_new_level *l, int64_t now, int64_t *id);

/* Calls fn for each collection, in id order, with the user's solved count
 * (user 0: nobody). */
int storage_collections_each(int64_t user, int (*fn)(void *arg, const struct storage_collection *c),
                             void *arg);
int storage_collection_get(int64_t id, int64_t user,
                           int (*fn)(void *arg, const struct storage_collection *c), void *arg);
/* Calls fn for each level of a collection, in position order, with the
 * user's state. The board is not read (NULL). */
int storage_levels_each(int64_t collection, int64_t user,
                        int (*fn)(void *arg, const struct storage_level *l), void *arg);
/* Calls fn once with the level and the user's state. */
int storage_level_get(int64_t id, int64_t user, int (*fn)(void *arg, const struct storage_level *l),
                      void *arg);

#endif
