/* A small pool of threads for slow work (password hashing) that must not
 * run on the HTTP threads. */
#ifndef SOKOD_WORKER_H
#define SOKOD_WORKER_H

#include <stdbool.h>

/* Starts n threads. Returns 0, or -1 (nothing started). */
int worker_start(unsigned n);

/* Queues fn(arg) to run on a worker thread. Returns false when the pool is
 * not running (never started, or stopping): the caller must then run the
 * work itself. */
bool worker_submit(void (*fn)(void *arg), void *arg);

/* Runs every queued job to its end, then joins the threads. */
void worker_stop(void);

#endif
