/* Hints: the next push of a solution from where a game stands, worked out
 * by the solver on the worker pool and counted in the game. */
#ifndef SOKOD_HINT_H
#define SOKOD_HINT_H

#include "base/config.h"
#include "http/http.h"

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

#endif
