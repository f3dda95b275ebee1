/* Storage for a player's statistics (storage_stats.c): solves and time
 * played per day over a window, and per collection how many levels the
 * player solved and on how many their best is the best known. Same rules
 * as storage.h: the calling thread's connection, STORAGE_* codes, text
 * handed to callbacks valid during the call only. */
#ifndef SOKOD_STORAGE_STATS_H
#define SOKOD_STORAGE_STATS_H

#include "storage/storage_codes.h"

#include <stdbool.h>
#include <stdint.h>

/* Idle time counted at most between two entries of a game's log. */
#define STORAGE_STATS_GAP_CAP 300

/* Levels first solved on one day: day is its index from the window's
 * first day, or -1 for all the days before the window. */
struct storage_stats_day {
    int64_t day;
    uint32_t solved;
};

/* Calls fn(arg, row) for the days from `start` (Unix seconds, a UTC
 * midnight) on that have a level first solved, and once with day -1 for
 * those before: a level counts on the day of the player's oldest solution
 * of it that sokod keeps. */
int storage_stats_days(int64_t user, int64_t start,
                       int (*fn)(void *arg, const struct storage_stats_day *d), void *arg);

/* Time played: for the player's games, most recently played first, the
 * time between consecutive entries of a log (from the game's opening for
 * its first entry), each gap counted at most STORAGE_STATS_GAP_CAP
 * seconds. Calls fn(arg, at, seconds) for each gap, `at` the later
 * entry's time. Reads at most `budget` entries in all, the latest of each
 * game first, and sets *partial when the budget ended the reading before
 * the player's oldest entry. */
int storage_stats_played(int64_t user, uint32_t budget,
                         int (*fn)(void *arg, int64_t at, int64_t seconds), void *arg,
                         bool *partial);

struct storage_stats_collection {
    int64_t id;
    const char *name;
    uint32_t levels;        /* listed levels */
    uint32_t solved;        /* of them, solved by the player under either rule */
    uint32_t at_best_known; /* of them, where the player's fewest moves under the standard
                               rule equal the level's best known moves */
};

/* Calls fn(arg, row) for each listed collection, in the library's order.
 * Best known moves are those storage_level_best_known gives under the
 * standard rule: witnessed, submitted or carried by an admin's upload. */
int storage_stats_collections(int64_t user,
                              int (*fn)(void *arg, const struct storage_stats_collection *c),
                              void *arg);

#endif
