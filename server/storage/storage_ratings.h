/* Storage: the ratings of players and levels (storage_ratings.c): the
 * rating pass's reads and writes, the library's listing by difficulty
 * and the next level for a player. Ratings are kept in thousandths of a
 * point, volatility in millionths (migration 0024). Same rules as
 * storage.h: the calling thread's connection, STORAGE_* codes, text
 * handed to callbacks valid during the call only. */
#ifndef SOKOD_STORAGE_RATINGS_H
#define SOKOD_STORAGE_RATINGS_H

#include "storage/storage_codes.h"

#include <stdbool.h>
#include <stdint.h>

/* A rating as stored, with what the rating pass keeps beside it. */
struct storage_rating {
    int64_t rating_milli, deviation_milli, volatility_micro;
    uint32_t attempts;
    uint32_t solves;           /* levels: rated attempts that ended solved */
    int64_t log_seconds_milli; /* levels: sum of ln(seconds) of those */
    int64_t updated_at;
};

/* What a level's prior is drawn from (rating_rules.h). */
struct storage_level_facts {
    int64_t id;
    uint32_t boxes;
    const char *comment;
    const char *solver_status;
    uint32_t solver_pushes;
};

/* Calls fn(arg, facts) for up to `limit` levels without a rating, by id. */
int storage_ratings_unrated(uint32_t limit,
                            int (*fn)(void *arg, const struct storage_level_facts *f), void *arg);

/* Calls fn(arg, facts) for level `id`: STORAGE_NOT_FOUND when it is gone. */
int storage_ratings_level_facts(int64_t id,
                                int (*fn)(void *arg, const struct storage_level_facts *f),
                                void *arg);

/* Gives level `id` its first rating, `prior` naming where it came from;
 * does nothing when it has one. */
int storage_ratings_seed(int64_t id, const struct storage_rating *r, const char *prior);

/* Calls fn(arg, facts) for up to `limit` levels rated from no prior
 * ('none') and not played yet, whose upload check's solver has given its
 * verdict since (it may come after the import), by id. */
int storage_ratings_stale(uint32_t limit, int (*fn)(void *arg, const struct storage_level_facts *f),
                          void *arg);

/* Replaces the prior of level `id` while it has no rated attempt. */
int storage_ratings_reseed(int64_t id, const struct storage_rating *r, const char *prior);

/* A solution the rating pass reads: who solved what, in which game. */
struct storage_rated_solution {
    int64_t id, user_id, level_id;
    int64_t game_id;         /* 0 when its game is gone */
    int64_t game_created_at; /* the game's opening */
    int64_t solved_at;
    bool hinted;
    bool rated_kind; /* a game of the standard rule outside race rooms */
};

/* Calls fn(arg, s) for up to `limit` solutions of id above `after`, by id. */
int storage_ratings_solutions(int64_t after, uint32_t limit,
                              int (*fn)(void *arg, const struct storage_rated_solution *s),
                              void *arg);

/* A game left unsolved: rated as given up. */
struct storage_idle_game {
    int64_t id, user_id, level_id, created_at, updated_at;
};

/* Calls fn(arg, g) for up to `limit` games of the standard rule outside
 * race rooms, last changed before `before` and after (at, id) in
 * (updated_at, id) order, with at least `entries` log entries, no
 * solution and no rating yet. */
int storage_ratings_idle_games(int64_t at, int64_t id, int64_t before, uint32_t entries,
                               uint32_t limit,
                               int (*fn)(void *arg, const struct storage_idle_game *g), void *arg);

/* The time played in game `id` from its opening (`from`) up to `until`:
 * the gaps between its log entries, each counted at most `gap_cap`
 * seconds, over its first `budget` entries at most. */
int storage_ratings_game_seconds(int64_t id, int64_t from, int64_t until, int64_t gap_cap,
                                 uint32_t budget, int64_t *seconds);

/* The pass's cursors (rating_cursor). */
struct storage_rating_cursor {
    int64_t solution_id, idle_at, idle_game;
};
int storage_ratings_cursor(struct storage_rating_cursor *c);
int storage_ratings_set_cursor(const struct storage_rating_cursor *c);

/* The following write, inside the caller's write transaction. */

/* Counts user as a solver of level once: sets *added when it is new. */
int storage_ratings_add_solver(int64_t level, int64_t user, bool *added);

/* Marks game `id` rated: STORAGE_NOT_FOUND (and nothing written) when it
 * already was. */
int storage_ratings_mark(int64_t id, int score, int64_t seconds, int64_t now);

/* Reads a level's or a player's rating: STORAGE_NOT_FOUND when it has
 * none. */
int storage_ratings_level(int64_t level, struct storage_rating *r);
int storage_ratings_player(int64_t user, struct storage_rating *r);

/* Writes them; a player's also becomes the rating of `day` (a UTC
 * midnight) in its history. */
int storage_ratings_put_level(int64_t level, const struct storage_rating *r);
int storage_ratings_put_player(int64_t user, const struct storage_rating *r, int64_t day);

/* A player's history from `since` (a UTC midnight) on, oldest first. */
int storage_ratings_history(int64_t user, int64_t since,
                            int (*fn)(void *arg, int64_t day, int64_t rating_milli,
                                      int64_t deviation_milli),
                            void *arg);

/* The library's listing (GET /api/v1/levels). */
enum storage_library_filter {
    STORAGE_FILTER_ALL,
    STORAGE_FILTER_UNSOLVED,
    STORAGE_FILTER_SOLVED,
    STORAGE_FILTER_STARTED, /* played, not solved */
    STORAGE_FILTERS
};
enum storage_library_sort {
    STORAGE_SORT_ORDER, /* the library's order: collections, then places */
    STORAGE_SORT_DIFFICULTY,
    STORAGE_SORT_SIZE, /* width times height */
    STORAGE_SORT_BOXES,
    STORAGE_SORT_SOLVERS,
    STORAGE_SORTS
};
struct storage_library_query {
    int64_t user;       /* whose solved state; 0 for nobody */
    int64_t collection; /* 0: every listed collection */
    enum storage_library_filter filter;
    enum storage_library_sort sort;
    bool descending;
    uint32_t offset, limit;
};
struct storage_library_level {
    int64_t id, collection_id;
    const char *collection_name;
    uint32_t position;
    const char *title;
    uint32_t width, height, boxes;
    bool rated;
    int64_t rating_milli, deviation_milli;
    uint32_t solvers;
    bool solved, started;
};

/* Calls fn(arg, l) for the page of listed levels the query asks for, and
 * sets *total to how many levels match it. */
int storage_ratings_library(const struct storage_library_query *q,
                            int (*fn)(void *arg, const struct storage_library_level *l), void *arg,
                            uint32_t *total);

/* A listed, rated level that `user` has not solved, rated from lo to hi
 * (thousandths), other than `exclude`, drawn by `seed` (from 0 to 10^12:
 * the same seed draws the same level of the same candidates, another
 * seed most likely another): sets *level, or gives STORAGE_NOT_FOUND
 * when there is none. */
int storage_ratings_pick(int64_t user, int64_t lo, int64_t hi, int64_t exclude, int64_t seed,
                         int64_t *level);

#endif
