/* Submitted solutions: a player pastes a line found elsewhere (another
 * program, a book, a friend) for a level; the core replays it, and when
 * it solves the level it is kept on the level's submitted board. That
 * board is apart from the leaderboards, which hold only what the server
 * saw played; together with them and with the solutions an admin's
 * upload carried, it gives each level its best known moves and pushes.
 *
 *   POST /api/v1/levels/{id}/solutions   {"lurd": "...", "rule": 0}
 *   GET  /api/v1/levels/{id}/submitted?by=moves|pushes&rule=0|1&limit=N
 *   POST /api/v1/solutions/{id}/optimise  {"metric": "moves"}
 */
#ifndef SOKOD_SUBMITTED_H
#define SOKOD_SUBMITTED_H

#include "http/http.h"

#include <stdint.h>

/* The most steps a submitted line may hold, once its run-length counts are
 * expanded. */
#define SUBMITTED_MAX_STEPS (1u << 20)

int submitted_post(struct http_conn *c);
int submitted_board(struct http_conn *c);

/* POST /api/v1/solutions/{id}/optimise {"metric": "moves" | "pushes"}: the
 * optimiser looks near one of the caller's witnessed solutions (of the
 * standard rule, at most OPTIMISE_MAX_MOVES moves) for a shorter line,
 * on the hints' pool within their limits (--hint-seconds, --hint-memory,
 * --hint-jobs). A shorter one goes on the submitted board as the
 * player's, marked optimised. */
int submitted_optimise(struct http_conn *c);

#define OPTIMISE_MAX_MOVES 100000u

#endif
