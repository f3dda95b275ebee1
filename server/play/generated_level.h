/* A level from the generator, made ready to store: its canonical hash
 * worked out by the core, and the generator's own figures. */
#ifndef SOKOD_GENERATED_LEVEL_H
#define SOKOD_GENERATED_LEVEL_H

#include "generate.h"
#include "storage/storage_race_levels.h"

#include <stdbool.h>

/* The canonical hash in hex, NUL included. */
#define GENERATED_LEVEL_HASH_SIZE 17

/* Fills *row from l, with `title` and `comment`, and `hash` with the
 * level's canonical hash; row points into l, the two texts and hash. False
 * when the board does not parse (a generator bug) or memory runs out. */
bool generated_level_row(const gen_level *l, const char *title, const char *comment,
                         char hash[GENERATED_LEVEL_HASH_SIZE], struct storage_generated_level *row);

#endif
