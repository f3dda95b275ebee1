/* The sweeper's thread and its passes. A sweep has five passes, each a
 * series of short write transactions:
 *   1. guests who never played, made more than unplayed_ttl ago, by age;
 *      a cursor remembers the last guest looked at, so that each guest is
 *      looked at once (one that played stays until it is idle);
 *   2. guests last seen more than idle_ttl ago, SWEEP_IDLE_ROWS guests per
 *      sweep by id, the cursor going round the table over several sweeps;
 *   3. expired sessions, SWEEP_BATCH per transaction;
 *   4. expired rate limits (shared_limits.h), and those past its cap;
 *   5. uploads unused for three hours (storage_staging.h), in one.
 * Candidates are found with reads, outside any write transaction. A guest
 * goes in transactions that each hold at most SWEEP_BATCH guests and
 * SWEEP_BUDGET's rows of what grows with use (saved positions, game logs,
 * solutions, games, hosted rooms): a small guest shares its transaction
 * with others, a large one takes as many as it needs, its sessions ending
 * in the first.
 * Each transaction checks again that the guest still qualifies.
 * Ids are never given twice (migration 0012), so what the server keeps in
 * memory under a deleted guest's ids (a cached game, a live topic) can
 * never be taken for someone else's; it ages out as usual. */
#include "accounts/sweeper.h"

#include "accounts/auth.h"
#include "accounts/shared_limits.h"
#include "base/clock.h"
#include "base/metrics.h"
#include "storage/storage.h"
#include "storage/storage_quota.h"
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
/* Guests the idle pass looks at per sweep. */
#define SWEEP_IDLE_ROWS 4096
/* Rows of guests' growing parts deleted per write transaction, at most:
 * 64 saved positions hold at most 3.2 MB (SNAPSHOTS_STEPS_MAX steps each);
 * 4,096 log entries took about 17 ms on a Release build. */
static const struct storage_sweep_budget SWEEP_BUDGET = {
    .snapshots = 64,
    .logs = 4096,
    .solutions = 256,
    .games = 256,
    .rooms = 64,
};

static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    bool running, stopping;
    struct sweeper_config cfg;
    struct storage_sweep_cursor unplayed, idle;
} sw = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* What one sweep deleted, and in how many transactions of the guests'
 * passes, the largest of how many rows. */
struct sweep_counts {
    int64_t unplayed, idle, sessions, limits;
    int64_t transactions, most_rows;
};

static bool stopping(void)
{
    pthread_mutex_lock(&sw.lock);
    bool s = sw.stopping;
    pthread_mutex_unlock(&sw.lock);
    return s;
}

/* Deletes the guests of ids (n of them) that still qualify under rule at
 * cut-off `before`, adding how many went to *deleted: in transactions of
 * SWEEP_BATCH guests and SWEEP_BUDGET rows at most, a large guest going
 * over several. Ends between two transactions when the server stops. */
static int delete_guests(enum storage_sweep_rule rule, const int64_t *ids, int n, int64_t before,
                         struct sweep_counts *counts, int64_t *deleted)
{
    int status = STORAGE_OK;
    int i = 0;
    while (i < n && status == STORAGE_OK && !stopping()) {
        struct storage_sweep_budget budget = SWEEP_BUDGET;
        int64_t gone = 0;
        int next = i;
        status = storage_begin();
        bool done = true;
        while (status == STORAGE_OK && done && next < n && next - i < SWEEP_BATCH) {
            status = storage_guest_sweep(ids[next], rule, before, AUTH_SESSION_SECONDS, &budget,
                                         &done, &gone);
            if (done)
                next++;
        }
        status = storage_finish(status);
        if (status != STORAGE_OK)
            break;
        i = next;
        *deleted += gone;
        counts->transactions++;
        if (budget.rows > counts->most_rows)
            counts->most_rows = budget.rows;
    }
    return status;
}

static int sweep_unplayed(int64_t now, struct sweep_counts *counts)
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
            status = delete_guests(STORAGE_SWEEP_UNPLAYED, ids, n, made_before, counts,
                                   &counts->unplayed);
        if (status != STORAGE_OK)
            sw.unplayed = from;
    } while (status == STORAGE_OK && !sw.unplayed.done && !stopping());
    /* The cursor stays where it ended: guests made later are looked at by
     * the next sweeps. */
    sw.unplayed.done = false;
    return status;
}

static int sweep_idle(int64_t now, struct sweep_counts *counts)
{
    int64_t seen_before = now - (int64_t)sw.cfg.idle_ttl;
    int status = STORAGE_OK;
    for (int looked = 0; status == STORAGE_OK && looked < SWEEP_IDLE_ROWS && !stopping();
         looked += SWEEP_BATCH) {
        int64_t ids[SWEEP_BATCH];
        int n = 0;
        status =
            storage_guests_idle(seen_before, AUTH_SESSION_SECONDS, &sw.idle, SWEEP_BATCH, ids, &n);
        if (status == STORAGE_OK)
            status = delete_guests(STORAGE_SWEEP_IDLE, ids, n, seen_before, counts, &counts->idle);
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
    int status = sweep_unplayed(now, &n);
    if (status == STORAGE_OK)
        status = sweep_idle(now, &n);
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
                "expired sessions; the guests in %lld transactions of at most %lld rows\n",
                (long long)n.unplayed, (long long)n.idle, (long long)n.sessions,
                (long long)n.transactions, (long long)n.most_rows);
    if (n.limits > 0)
        fprintf(stderr, "sokod: swept %lld rate limit keys\n", (long long)n.limits);
    if (status != STORAGE_OK)
        fprintf(stderr, "sokod: sweep stopped early (storage status %d); it goes on later\n",
                status);
    storage_work_end(STORAGE_WORK_SWEEP);
}

/* Counts what all guests store, and closes their storage (a limit of 0)
 * past the bound, or opens it again below it. Every node counts (a read
 * of each guest's count); the limit is shared in storage_quota. */
static void check_guests(void)
{
    if (sw.cfg.guests_bytes <= 0)
        return;
    int64_t stored = 0;
    if (storage_quota_guests_stored(&stored) != STORAGE_OK)
        return; /* counted again at the next check */
    metrics_guests_storage_bytes(stored);
    bool full = stored >= sw.cfg.guests_bytes, changed = false;
    if (storage_quota_set_guests(full ? 0 : sw.cfg.guest_bytes, &changed) != STORAGE_OK || !changed)
        return;
    if (full)
        fprintf(stderr,
                "sokod: guests store %lld bytes, %lld allowed to all of them "
                "(--all-guests-storage-mb): guests store nothing more until the sweep frees "
                "room\n",
                (long long)stored, (long long)sw.cfg.guests_bytes);
    else
        fprintf(stderr,
                "sokod: guests store %lld bytes, below the %lld allowed to all of them: they "
                "store again\n",
                (long long)stored, (long long)sw.cfg.guests_bytes);
}

static void *sweeper_main(void *arg)
{
    (void)arg;
    struct timespec next_sweep;
    clock_gettime(CLOCK_MONOTONIC, &next_sweep);
    next_sweep.tv_sec += sw.cfg.interval;
    pthread_mutex_lock(&sw.lock);
    while (!sw.stopping) {
        pthread_mutex_unlock(&sw.lock);
        check_guests();
        pthread_mutex_lock(&sw.lock);
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_sec += SWEEPER_GUESTS_CHECK;
        if (until.tv_sec > next_sweep.tv_sec ||
            (until.tv_sec == next_sweep.tv_sec && until.tv_nsec > next_sweep.tv_nsec))
            until = next_sweep;
        while (!sw.stopping && pthread_cond_timedwait(&sw.wake, &sw.lock, &until) == 0)
            ;
        if (sw.stopping)
            break;
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec < next_sweep.tv_sec ||
            (now.tv_sec == next_sweep.tv_sec && now.tv_nsec < next_sweep.tv_nsec))
            continue;
        next_sweep = now;
        next_sweep.tv_sec += sw.cfg.interval;
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
