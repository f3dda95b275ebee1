/* Leaderboard endpoints: a level's boards of witnessed solutions, and one
 * solution for a replay.
 *
 * A level has two orderings (fewest moves, then pushes; fewest pushes, then
 * moves; ties go to the earlier solution) and, for each, two lists: the
 * solutions found without hints, ranked against each other, and those
 * found with hints, ranked apart. A hint changes what a solution proves, so
 * no helped solution ever pushes an unhelped one down. Guests are ranked
 * for themselves but shown to nobody else: a guest has no name to show,
 * and a board anyone can fill with throw-away guests would be worth little.
 * Signing up puts a guest's solutions on the boards. */
#ifndef SOKOD_LEADERBOARD_H
#define SOKOD_LEADERBOARD_H

#include "http/http.h"

#include <stdbool.h>
#include <stdint.h>

/* Endpoints, for the routing table (server/endpoints.c). */
int leaderboard_level(struct http_conn *c);

/* Reads a board's query, as GET .../leaderboard takes it: ?by=moves or
 * pushes, ?rule=0 or 1, ?limit=1 to 100 (10 when absent). False after
 * answering 400 invalid_value. */
bool leaderboard_query(struct http_conn *c, bool *by_pushes, int *rule, uint32_t *limit,
                       int *result);
int leaderboard_solution(struct http_conn *c);
int leaderboard_daily(struct http_conn *c);
int leaderboard_streak(struct http_conn *c);

#endif
