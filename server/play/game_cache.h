/* The live games of this process, kept in memory by game id so that an
 * entry costs one step through the core rather than a replay of the log. */
#ifndef SOKOD_GAME_CACHE_H
#define SOKOD_GAME_CACHE_H

#include "play/game_play.h"

#include <stddef.h>

/* The default bound of the cache, in MiB (--game-cache-mb). */
#define GAME_CACHE_DEFAULT_MB 128

/* Sets the bytes that games nobody uses may keep in memory; games in use
 * are never freed, so the cache can exceed it by what requests hold. Call
 * before the first request. */
void game_cache_setup(size_t bytes);

/* Takes game `id`, locked for the caller alone, rebuilt from the database
 * when it was not in memory (or was invalidated). Returns STORAGE_OK with
 * *out set, or the STORAGE_* code of a failed rebuild (then nothing is held). */
int game_cache_acquire(int64_t id, struct live_game **out);

/* The entry game `id` is at in memory: its seq when it is cached, valid
 * and held by nobody; -1 otherwise. Takes nothing: a hint, for a batch
 * to read ahead what the game lacks. */
int64_t game_cache_seq(int64_t id);

/* Unlocks a game taken with game_cache_acquire. */
void game_cache_release(struct live_game *g);

/* Frees every game; call when no request can run any more. */
void game_cache_clear(void);

#endif
