/* Storage for watching a player: the game they played last. */
#ifndef SOKOD_STORAGE_WATCH_H
#define SOKOD_STORAGE_WATCH_H

#include "storage/storage_codes.h"

#include <stdint.h>

/* The user's own game (not a race game) touched last, with its level:
 * STORAGE_OK, or STORAGE_NOT_FOUND when the user has none. */
int storage_watch_last_game(int64_t user, int64_t *game, int64_t *level);

#endif
