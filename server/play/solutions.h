/* Witnessed solutions: a solution goes on the leaderboards only when the
 * server saw it played, step by step, through a game's log (or a race's).
 * Reference solutions that come with level files are kept apart and never
 * ranked. */
#ifndef SOKOD_SOLUTIONS_H
#define SOKOD_SOLUTIONS_H

#include <stdbool.h>
#include <stdint.h>

/* Take the hint count from the game's row (solutions_record's hints). */
#define SOLUTIONS_HINTS_OF_GAME (-1)

struct solutions_new {
    int64_t user_id;
    int64_t level_id;
    int64_t game_id; /* the game of the games table that solved it, or 0 */
    int rule;        /* the rule played: 0 standard, 1 multi-push */
    uint32_t moves, pushes;
    int32_t hints;    /* hints asked for, or SOLUTIONS_HINTS_OF_GAME */
    const char *lurd; /* the solving line, from the start position */
    int64_t at;       /* Unix seconds */
    bool reverse;     /* found in a reverse game: lurd is its forward line */
};

/* Records a solution the server has just seen played. Call it inside the
 * write transaction of the log entry that solved the game, so the solution
 * exists exactly when that entry does. The user's leaderboard entries move
 * to it when it beats them (kept by the database). A user keeps, per level
 * and rule, the solutions the boards hold (the best by moves and by
 * pushes, found with and without hints, and on the daily puzzle's day) and
 * the latest: this one replaces those it leaves on no board, but for those
 * recorded before solutions were bounded, which stay. The same line again
 * is recorded once. Sets *id (when not NULL) to the new solution, or 0 when
 * none was made. Returns a STORAGE_* code; on failure the caller undoes its
 * transaction. */
int solutions_record(const struct solutions_new *s, int64_t *id);

#endif
