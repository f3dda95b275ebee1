/* Hints: the next push of a solution from where a game stands, worked out
 * by the solver on the worker pool and counted in the game. */
#ifndef SOKOD_HINT_H
#define SOKOD_HINT_H

#include "base/config.h"
#include "http/http.h"

#include <stdbool.h>
#include <stdint.h>

/* The most hints computed at once that --hint-jobs allows. */
#define HINT_MAX_JOBS 8

/* Takes the hint settings of cfg (time, memory, hints at once). Call once
 * before the server starts answering. Cannot fail. */
void hint_setup(const struct config *cfg);

/* Tells every search in progress to stop soon: their hints answer
 * "unknown". For a server that is stopping. */
void hint_cancel_all(void);

/* Endpoints, for the routing table (server/endpoints.c). */
int hint_ask(struct http_conn *c);

/* Other searches on the hints' pool (the optimiser) share its places
 * (--hint-jobs) and limits. A place is held by a key of its own, apart
 * from the games' ids (which are positive): hint_place_take answers 0 with
 * the place taken, or after refusing: 429 hint_pending when the key holds
 * one already, 503 with Retry-After when every place is taken. Give the
 * place back with hint_place_give once the search ended. */
int hint_place_take(struct http_conn *c, int64_t key, bool *taken);
void hint_place_give(int64_t key);

/* The time, memory and cancel flag a search on the hints' pool runs
 * within. */
void hint_limits(double *seconds, uint64_t *memory, const volatile int **cancel);

#endif
