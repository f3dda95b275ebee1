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

/* A search's hold on the hints' pool: its place (one of --hint-jobs, under
 * a key) and the suspended connection that waits for its answer. Embedded
 * in the search's job and filled in by hint_pool_run. */
struct hint_pool_hold {
    int64_t key;
    bool held; /* the place is taken */
    struct http_deferred *deferred;
};

/* Runs work(arg), a search, on the hints' pool with the connection
 * suspended, in the place `key`: a game's id for its hints (positive), a
 * key of its own apart from those for any other search (the optimiser,
 * publishing). When the key holds a place already, answers 429
 * hint_pending; when every place is taken, 503 with Retry-After; out of
 * memory, 500: release(arg) has then run. Otherwise work runs on a thread
 * of the pool, or on this one when the pool is stopping (the request is
 * answered rather than lost), and ends, itself or through what it hands
 * on to, with hint_pool_done(h); answer(c, arg) then answers. release(arg)
 * frees arg once answered, or when the connection ends first, and calls
 * hint_pool_drop(h). Returns what the handler should return. */
int hint_pool_run(struct http_conn *c, struct hint_pool_hold *h, int64_t key,
                  void (*work)(void *arg), int (*answer)(struct http_conn *c, void *arg),
                  void (*release)(void *arg), void *arg);

/* The end of a search: gives its place back and wakes its connection.
 * Neither h nor its job may be touched after. */
void hint_pool_done(struct hint_pool_hold *h);

/* Gives h's place back when the search did not: for the job's release. */
void hint_pool_drop(struct hint_pool_hold *h);

/* The time, memory and cancel flag a search on the hints' pool runs
 * within. */
void hint_limits(double *seconds, uint64_t *memory, const volatile int **cancel);

#endif
