/* Storage for witnessed solutions and the leaderboards built from them
 * (storage_boards.c). Same rules as storage.h: the calling thread's
 * connection, STORAGE_* codes, text handed to callbacks valid during the
 * call only. */
#ifndef SOKOD_STORAGE_BOARDS_H
#define SOKOD_STORAGE_BOARDS_H

#include "storage/storage_codes.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Take the hint count from the game's row (storage_solution_insert). */
#define STORAGE_HINTS_OF_GAME (-1)

struct storage_new_solution {
    int64_t user_id, level_id;
    int64_t game_id; /* 0 when no game row stands behind it */
    int rule;        /* the game's rule: 0 standard, 1 multi-push */
    uint32_t moves, pushes;
    int32_t hints; /* or STORAGE_HINTS_OF_GAME */
    const char *lurd;
    int64_t at;
    bool reverse; /* found in a reverse game (migration 0023) */
};

/* The bytes of a line's hash: its SHA-256, which PostgreSQL's sha256
 * computes too (migration 0019). */
#define STORAGE_LURD_HASH_BYTES 32

/* Writes the hash of a solution's line (a NUL-terminated LURD) into out,
 * as the solutions table keys lines by it. Cannot fail. */
void storage_lurd_hash(const char *lurd, uint8_t out[STORAGE_LURD_HASH_BYTES]);

/* Inserts a solution, unless the user has that very line on the level
 * under the rule already, then removes the user's other solutions of the
 * level and rule that no board holds, but those recorded before solutions
 * were bounded (migration 0019): what is left is the best by moves and by
 * pushes of each board, and this one, the latest. Sets *id to the new row,
 * or to 0 when nothing was inserted. Call it inside a write transaction:
 * on failure the caller undoes it. */
int storage_solution_insert(const struct storage_new_solution *s, int64_t *id);

/* Hashes the lines of the solutions recorded before lines were hashed
 * (migration 0019 leaves them NULL on SQLite), a few hundred rows at a
 * time, in the caller's transaction: the migration's, so that the table
 * is never seen with a line unhashed. Returns a STORAGE_* code. */
int storage_solutions_hash_lines(void);

/* One ranked solution: a user's best on one board. */
struct storage_board_entry {
    int64_t user_id;
    const char *username; /* NULL for a guest */
    uint32_t moves, pushes, hints;
    int64_t solved_at;
    int64_t solution_id;
    bool listed; /* false for guests: ranked for themselves only */
};

/* The boards of a level: its orderings, the same for the daily puzzle on
 * its own day only, and the same for solutions played under the multi-push
 * rule (migration 0015). */
enum {
    STORAGE_BOARD_MOVES = 0,
    STORAGE_BOARD_PUSHES = 1,
    STORAGE_BOARD_DAILY_MOVES = 2,
    STORAGE_BOARD_DAILY_PUSHES = 3,
    STORAGE_BOARD_MULTIPUSH_MOVES = 4,
    STORAGE_BOARD_MULTIPUSH_PUSHES = 5,
};

/* Calls fn for the first `limit` listed entries of a level's board (the
 * hinted or the unhinted one), best first: fewest of the board's count,
 * then of the other, then earliest. */
int storage_board_top(int64_t level, int board, bool hinted, uint32_t limit,
                      int (*fn)(void *arg, const struct storage_board_entry *e), void *arg);

/* Calls fn with the user's entry on that board and sets *rank to its place
 * among listed entries (1 + the listed entries ahead of it, so a guest
 * learns where it would stand). STORAGE_NOT_FOUND when the user has none. */
int storage_board_user(int64_t level, int board, bool hinted, int64_t user, uint32_t *rank,
                       int (*fn)(void *arg, const struct storage_board_entry *e), void *arg);

/* The number of listed entries of a board. */
int storage_board_count(int64_t level, int board, bool hinted, uint32_t *count);

/* The user's streak of daily puzzles solved on their own day (UTC): the
 * days in a row, ending today (`today` is YYYY-MM-DD) or, while today's is
 * not solved yet, yesterday. Sets *solved_today too. */
int storage_daily_streak(int64_t user, const char *today, uint32_t *streak, bool *solved_today);

/* A solution as a replay needs it, but its moves: they can be megabytes,
 * read in parts with storage_solution_moves (storage_games.h). */
struct storage_solution_row {
    int64_t id, user_id, level_id, game_id;
    const char *username; /* NULL for a guest */
    uint32_t moves, pushes, hints;
    int rule;
    bool reverse; /* found in a reverse game */
    int64_t solved_at;
};

/* Calls fn with solution `id`; STORAGE_NOT_FOUND when there is none. */
int storage_solution_get(int64_t id, int (*fn)(void *arg, const struct storage_solution_row *s),
                         void *arg);

#endif
