/* Pools of threads for slow work that must not run on the HTTP threads.
 * Each pool has its own queue and threads, so that work of one kind never
 * waits behind another's: a log-in never queues behind an upload's check. */
#ifndef SOKOD_WORKER_H
#define SOKOD_WORKER_H

#include <stdbool.h>

enum worker_pool {
    WORKER_AUTH,    /* password hashing: log-ins, sign-ups, password changes */
    WORKER_HINTS,   /* hint searches (hint.c admits at most one per thread) */
    WORKER_LEVELS,  /* generated levels: the daily puzzle, race levels */
    WORKER_UPLOADS, /* upload checks and imports; runs at a lower CPU
                     * priority than the HTTP threads and the other pools */
    WORKER_POOLS
};

/* Starts threads[p] threads for each pool p (0 counts as 1). Returns 0, or
 * -1 (nothing left running). */
int worker_start(const unsigned threads[WORKER_POOLS]);

/* Queues fn(arg) to run on a thread of `pool`, whatever its caps, behind
 * other work of no owner. Returns false when the pools are not running
 * (never started, or stopping), or when out of memory: the caller must
 * then run the work itself. */
bool worker_submit(enum worker_pool pool, void (*fn)(void *arg), void *arg);

/* Caps the jobs waiting (not yet running) in `pool`: `waiting` in all, and
 * `per_owner` of one owner (0: no cap). Call before submitting. */
void worker_cap(enum worker_pool pool, unsigned waiting, unsigned per_owner);

enum worker_queued {
    WORKER_QUEUED,  /* fn(arg) will run */
    WORKER_FULL,    /* over a cap of the pool (or out of memory): not queued */
    WORKER_STOPPED, /* the pools are not running: not queued */
};

/* Queues fn(arg) for `owner` (a client's address; NULL or "" for none)
 * within the pool's caps. Owners' jobs take turns, one job each, an owner
 * with nothing waiting first, so that one owner's flood of jobs delays
 * another's by about one job. Thread-safe. */
enum worker_queued worker_submit_from(enum worker_pool pool, const char *owner,
                                      void (*fn)(void *arg), void *arg);

/* Runs every queued job to its end, then joins the threads. */
void worker_stop(void);

/* Lowers the calling thread's CPU priority (nice 10), for threads of work
 * that may wait while the server answers requests. Best effort. */
void worker_lower_priority(void);

#endif
