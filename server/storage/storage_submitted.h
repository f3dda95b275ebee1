/* Storage for submitted solutions (storage_submitted.c): lines players
 * found elsewhere and pasted, replayed by the core before they arrive
 * here, kept apart from the witnessed ones; and a level's best known
 * counts. Same rules as storage.h: the calling thread's connection,
 * STORAGE_* codes, text handed to callbacks valid during the call only. */
#ifndef SOKOD_STORAGE_SUBMITTED_H
#define SOKOD_STORAGE_SUBMITTED_H

#include "storage/storage_codes.h"

#include <stdbool.h>
#include <stdint.h>

struct storage_submitted {
    int64_t id, user_id, level_id;
    const char *user; /* the player's name, in a board's rows */
    int rule;         /* 0 standard, 1 multi-push */
    uint32_t moves, pushes;
    const char *lurd;   /* as played, pushes in upper case */
    const char *source; /* "pasted" or "optimised" */
    int64_t at;         /* Unix seconds */
};

/* Stores s unless its player has that line on the level under the rule
 * already, then deletes the player's others on the level and rule but the
 * best by moves and the best by pushes: at most three stay, this one
 * among them. Sets *id to the row, the one there before when *created is
 * false. Call it inside a write transaction; STORAGE_QUOTA past the
 * player's storage quota. */
int storage_submitted_add(const struct storage_submitted *s, int64_t *id, bool *created);

/* The best known moves and pushes on a level under a rule, each the
 * fewest of any solution the server holds: witnessed, submitted, and (for
 * the standard rule) those an admin's upload carried. *found is false
 * when it holds none. */
int storage_level_best_known(int64_t level, int rule, uint32_t *moves, uint32_t *pushes,
                             bool *found);

/* The submitted board of a level under a rule: each player's best by moves
 * (or by pushes), best first, at most `limit` rows; fn(arg, row) for each,
 * with id, user_id, user, moves, pushes, source and at set. */
int storage_submitted_board(int64_t level, int rule, bool by_pushes, uint32_t limit,
                            int (*fn)(void *arg, const struct storage_submitted *s), void *arg);

#endif
