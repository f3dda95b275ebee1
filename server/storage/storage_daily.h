/* Storage of the daily puzzle: which level is the puzzle of which day, in a
 * hidden collection of its own. */
#ifndef SOKOD_STORAGE_DAILY_H
#define SOKOD_STORAGE_DAILY_H

#include "storage/storage_codes.h"
#include "storage/storage_race_levels.h"

#include <stdint.h>

/* The level of `day` (YYYY-MM-DD): STORAGE_OK with *level set, or
 * STORAGE_NOT_FOUND before the day's puzzle is made. */
int storage_daily_get(const char *day, int64_t *level);

/* A generated day's puzzle, to store once. */
struct storage_daily_new {
    const char *day;
    struct storage_generated_level level;
};

/* Stores the day's level, its reference solution and the day's row in one
 * transaction, creating the hidden collection "Daily puzzles" on first use.
 * When the day has a level already (another thread or process was first),
 * keeps that one. Sets *level to the day's level. Returns STORAGE_OK or an
 * error code (nothing written). */
int storage_daily_add(const struct storage_daily_new *d, int64_t now, int64_t *level);

#endif
