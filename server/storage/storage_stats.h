/* Storage for a player's statistics (storage_stats.c): solves and time
 * played per day over a window, and per collection how many levels the
 * player solved and on how many their best is the best known. Same rules
 * as storage.h: the calling thread's connection, STORAGE_* codes, text
 * handed to callbacks valid during the call only. */
#ifndef SOKOD_STORAGE_STATS_H
#define SOKOD_STORAGE_STATS_H

#include "storage/storage_codes.h"

#include <stdint.h>

/* Idle time counted at most between two entries of a game's log. */
#define STORAGE_STATS_GAP_CAP 300

/* One day of the window: day is its index from the window's first day, or
 * -1 for all the days before the window (the player's earlier history). */
struct storage_stats_day {
    int64_t day;
    uint32_t solved; /* levels first solved that day */
    int64_t seconds; /* time played that day */
};

/* Calls fn(arg, row) for the days from `start` (Unix seconds, a UTC
 * midnight) on, and once with day -1 for everything before it, skipping
 * days with nothing: a level counts on the day of the player's oldest
 * solution of it that sokod keeps; time played is the sum over the
 * player's games of the time between consecutive entries of a log (from
 * the game's opening for its first entry), each gap counted at most
 * STORAGE_STATS_GAP_CAP seconds, on the day of the later entry. Reads the
 * player's whole log once, which the storage quota bounds. */
int storage_stats_days(int64_t user, int64_t start,
                       int (*fn)(void *arg, const struct storage_stats_day *d), void *arg);

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
