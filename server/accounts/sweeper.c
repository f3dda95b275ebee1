/* The sweeper's thread and its passes. A sweep has five passes, each a
 * series of short write transactions (SWEEP_BATCH guests or sessions, or
 * SWEEP_LOG_ROWS entries of an idle guest's game logs, at most):
 *   1. guests who never played, made more than unplayed_ttl ago, by age;
 *      a cursor remembers the last guest looked at, so that each guest is
 *      looked at once (one that played stays until it is idle);
 *   2. guests last seen more than idle_ttl ago, SWEEP_IDLE_ROWS guests per
 *      sweep by id, the cursor going round the table over several sweeps;
 *   3. expired sessions;
 *   4. expired rate limits (shared_limits.h), and those past its cap;
 *   5. uploads unused for three hours (storage_staging.h), in one.
 * Candidates are found with reads, outside any write transaction; each
 * delete checks again, in its transaction, that the guest still qualifies.
 * Ids are never given twice (migration 0012), so what the server keeps in
 * memory under a deleted guest's ids (a cached game, a live topic) can
 * never be taken for someone else's; it ages out as usual. */
#include "accounts/sweeper.h"

#include "accounts/auth.h"
#include "accounts/shared_limits.h"
#include "base/clock.h"
#include "storage/storage.h"
#include "storage/storage_staging.h"
#include "storage/storage_users.h"
#include "storage/storage_work.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Guests, or sessions, deleted per write transaction. */
#define SWEEP_BATCH 64
/* Game log entries of an idle guest deleted per write transaction. */
#define SWEEP_LOG_ROWS 4096
/* Guests the idle pass looks at per sweep. */
#define SWEEP_IDLE_ROWS 4096

static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    bool running, stopping;
    struct sweeper_config cfg;
    struct storage_sweep_cursor unplayed, idle;
} sw = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* What one sweep deleted. */
struct sweep_counts {
    int64_t unplayed, idle, sessions, limits;
};

static bool stopping(void)
{
    pthread_mutex_lock(&sw.lock);
    bool s = sw.stopping;
    pthread_mutex_unlock(&sw.lock);
    return s;
}

/* Deletes the guests of ids who never played in one transaction, each
 * only when it still qualifies at the cut-off time made_before. They have
 * no game log, so the transaction stays short. */
static int delete_unplayed(const int64_t *ids, int n, int64_t made_before, int64_t *deleted)
{
    if (n == 0)
        return STORAGE_OK;
    int status = storage_begin();
    for (int i = 0; i < n && status == STORAGE_OK; i++)
        status = storage_guest_delete_unplayed(ids[i], made_before, deleted);
    return storage_finish(status);
}

/* Runs one step of deleting an idle guest in a transaction of its own. */
static int idle_step(int64_t id, int64_t seen_before, bool trim, bool *idle, int64_t *n)
{
    int status = storage_begin();
    if (status != STORAGE_OK)
        return status;
    if (trim)
        status =
            storage_guest_trim_idle(id, seen_before, AUTH_SESSION_SECONDS, SWEEP_LOG_ROWS, idle, n);
    else
        status = storage_guest_delete_idle(id, seen_before, AUTH_SESSION_SECONDS, n);
    return storage_finish(status);
}

/* Deletes an idle guest, when it still is one: first its sessions and its
 * games' logs, SWEEP_LOG_ROWS entries at a time (a player's histories may
 * hold millions), then the guest and what is left of it. */
static int delete_idle(int64_t id, int64_t seen_before, int64_t *deleted)
{
    bool idle = true;
    int64_t trimmed = SWEEP_LOG_ROWS;
    int status = STORAGE_OK;
    while (status == STORAGE_OK && idle && trimmed == SWEEP_LOG_ROWS && !stopping())
        status = idle_step(id, seen_before, true, &idle, &trimmed);
    if (status != STORAGE_OK || !idle || trimmed == SWEEP_LOG_ROWS)
        return status;
    return idle_step(id, seen_before, false, &idle, deleted);
}

static int sweep_unplayed(int64_t now, int64_t *deleted)
{
    int64_t made_before = now - (int64_t)sw.cfg.unplayed_ttl;
    int status = STORAGE_OK;
    do {
        int64_t ids[SWEEP_BATCH];
        int n = 0;
        /* A batch that fails is looked at again by the next sweep. */
        struct storage_sweep_cursor from = sw.unplayed;
        status = storage_guests_unplayed(made_before, &sw.unplayed, SWEEP_BATCH, ids, &n);
        if (status == STORAGE_OK)
            status = delete_unplayed(ids, n, made_before, deleted);
        if (status != STORAGE_OK)
            sw.unplayed = from;
    } while (status == STORAGE_OK && !sw.unplayed.done && !stopping());
    /* The cursor stays where it ended: guests made later are looked at by
     * the next sweeps. */
    sw.unplayed.done = false;
    return status;
}

static int sweep_idle(int64_t now, int64_t *deleted)
{
    int64_t seen_before = now - (int64_t)sw.cfg.idle_ttl;
    int status = STORAGE_OK;
    for (int looked = 0; status == STORAGE_OK && looked < SWEEP_IDLE_ROWS && !stopping();
         looked += SWEEP_BATCH) {
        int64_t ids[SWEEP_BATCH];
        int n = 0;
        status =
            storage_guests_idle(seen_before, AUTH_SESSION_SECONDS, &sw.idle, SWEEP_BATCH, ids, &n);
        for (int i = 0; i < n && status == STORAGE_OK && !stopping(); i++)
            status = delete_idle(ids[i], seen_before, deleted);
        if (sw.idle.done) {
            /* Round the table once more at the next sweep. */
            memset(&sw.idle, 0, sizeof sw.idle);
            break;
        }
    }
    return status;
}

static int sweep_sessions(int64_t now, int64_t *deleted)
{
    int status = STORAGE_OK;
    int64_t n = SWEEP_BATCH;
    while (status == STORAGE_OK && n == SWEEP_BATCH && !stopping()) {
        status = storage_begin();
        if (status != STORAGE_OK)
            break;
        status = storage_sessions_expired(now, SWEEP_BATCH, &n);
        status = storage_finish(status);
        if (status == STORAGE_OK)
            *deleted += n;
    }
    return status;
}

/* Uploads left unused too long: their bytes stay in the database until then. */
static int sweep_uploads(int64_t now, int64_t *deleted)
{
    int status = storage_begin();
    if (status == STORAGE_OK)
        status = storage_staging_expire(now - STAGING_KEEP_SECONDS, deleted);
    return storage_finish(status);
}

/* One sweep; a pass that fails (a busy database, a full disk) ends it, and
 * the next sweep tries again. */
static void sweep(void)
{
    /* Each round, every node measures again how far its clock drifted. */
    storage_follow_clock();
    /* Nodes sharing a database take turns: one sweeps, the others skip. */
    if (!storage_work_begin(STORAGE_WORK_SWEEP))
        return;
    struct sweep_counts n = {0};
    int64_t now = clock_now();
    int status = sweep_unplayed(now, &n.unplayed);
    if (status == STORAGE_OK)
        status = sweep_idle(now, &n.idle);
    if (status == STORAGE_OK)
        status = sweep_sessions(now, &n.sessions);
    if (status == STORAGE_OK)
        status = shared_limits_sweep(&n.limits);
    int64_t uploads = 0;
    if (status == STORAGE_OK)
        status = sweep_uploads(now, &uploads);
    if (uploads > 0)
        fprintf(stderr, "sokod: sweep deleted %lld uploads unused for three hours\n",
                (long long)uploads);
    if (n.unplayed > 0 || n.idle > 0 || n.sessions > 0)
        fprintf(stderr,
                "sokod: sweep deleted %lld guests who never played, %lld idle guests and %lld "
                "expired sessions\n",
                (long long)n.unplayed, (long long)n.idle, (long long)n.sessions);
    if (n.limits > 0)
        fprintf(stderr, "sokod: swept %lld rate limit keys\n", (long long)n.limits);
    if (status != STORAGE_OK)
        fprintf(stderr, "sokod: sweep stopped early (storage status %d); it goes on later\n",
                status);
    storage_work_end(STORAGE_WORK_SWEEP);
}

static void *sweeper_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&sw.lock);
    while (!sw.stopping) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_sec += sw.cfg.interval;
        while (!sw.stopping && pthread_cond_timedwait(&sw.wake, &sw.lock, &until) == 0)
            ;
        if (sw.stopping)
            break;
        pthread_mutex_unlock(&sw.lock);
        sweep();
        pthread_mutex_lock(&sw.lock);
    }
    pthread_mutex_unlock(&sw.lock);
    /* The thread's database connection closes as the thread ends. */
    return NULL;
}

int sweeper_start(const struct sweeper_config *cfg)
{
    pthread_mutex_lock(&sw.lock);
    sw.cfg = *cfg;
    if (sw.cfg.interval == 0)
        sw.cfg.interval = 1;
    memset(&sw.unplayed, 0, sizeof sw.unplayed);
    memset(&sw.idle, 0, sizeof sw.idle);
    sw.stopping = false;
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&sw.wake, &attr);
    pthread_condattr_destroy(&attr);
    sw.running = pthread_create(&sw.thread, NULL, sweeper_main, NULL) == 0;
    if (!sw.running)
        pthread_cond_destroy(&sw.wake);
    pthread_mutex_unlock(&sw.lock);
    return sw.running ? 0 : -1;
}

void sweeper_stop(void)
{
    pthread_mutex_lock(&sw.lock);
    bool running = sw.running;
    sw.stopping = true;
    if (running)
        pthread_cond_signal(&sw.wake);
    pthread_mutex_unlock(&sw.lock);
    if (!running)
        return;
    pthread_join(sw.thread, NULL);
    pthread_mutex_lock(&sw.lock);
    sw.running = false;
    pthread_cond_destroy(&sw.wake);
    pthread_mutex_unlock(&sw.lock);
}
