/* Shared rate limits: a limiter in memory beside the database's. The
 * memory's limiter counts the same events with the same burst and rate,
 * so, for a limit whose keys are never reset, it never refuses what the
 * database would allow, and stands in front: it spares the database the
 * statements of a client already over its limit here. A key that another
 * node may reset (a name, after a right password) must not be refused by
 * this node's stale count: its memory only decides when the database
 * cannot.
 *
 * On SQLite one process owns the database, so its memory is already
 * exact and decides alone: a statement would only contend for SQLite's
 * one write lock, and an attempt made while another process holds it
 * would wait for the lock twice, once for its limit and once for its own
 * transaction. */
#include "accounts/shared_limits.h"

#include "base/clock.h"
#include "http/ratelimit.h"
#include "storage/storage.h"
#include "storage/storage_limits.h"

#include <stdatomic.h>
#include <stdlib.h>

/* The furthest ahead a locked row is looked for: a year. */
#define SHARED_LIMITS_HOLD_MAX_MS (366LL * 86400 * 1000)

struct shared_limit {
    struct ratelimit *local;
    unsigned burst;
    int64_t interval_ms;
    bool front; /* the memory may refuse before the database is asked */
};

/* Events counted in the database by this process, for its own sweeps. */
static _Atomic uint64_t counted;

/* The keys each limit holds in memory. */
static _Atomic unsigned memory_keys;

/* The smallest allowance, (burst - 1) * interval, of the limits made: a
 * row whose tat lies further ahead of now is over its limit, whichever
 * limit it counts for, so the sweep keeps it. */
static _Atomic int64_t least_allowance_ms = SHARED_LIMITS_HOLD_MAX_MS;

void shared_limits_set_keys(unsigned keys)
{
    atomic_store(&memory_keys, keys);
}

struct shared_limit *shared_limit_new(unsigned burst, uint64_t interval_ms, bool resettable)
{
    struct shared_limit *l = calloc(1, sizeof *l);
    if (l == NULL)
        return NULL;
    l->burst = burst > 0 ? burst : 1;
    l->front = !resettable;
    l->interval_ms = interval_ms > 0 ? (int64_t)interval_ms : 1;
    l->local = ratelimit_new_sized(l->burst, (uint64_t)l->interval_ms, atomic_load(&memory_keys));
    if (l->local == NULL) {
        free(l);
        return NULL;
    }
    int64_t allowance = (int64_t)(l->burst - 1) * l->interval_ms;
    int64_t least = atomic_load(&least_allowance_ms);
    while (allowance < least &&
           !atomic_compare_exchange_weak(&least_allowance_ms, &least, allowance))
        ;
    return l;
}

void shared_limit_free(struct shared_limit *l)
{
    if (l == NULL)
        return;
    ratelimit_free(l->local);
    free(l);
}

static unsigned seconds_of(int64_t wait_ms)
{
    int64_t s = (wait_ms + 999) / 1000;
    return s < 1 ? 1 : s > 86400 ? 86400 : (unsigned)s;
}

int shared_limits_sweep(int64_t *deleted)
{
    if (!storage_is_server())
        return STORAGE_OK;
    return storage_limits_sweep(SHARED_LIMITS_CAP, atomic_load(&least_allowance_ms), deleted);
}

/* Every SHARED_LIMITS_SWEEP_EVERY events counted here, sweeps. */
static void sweep_now_and_then(void)
{
    if (atomic_fetch_add(&counted, 1) % SHARED_LIMITS_SWEEP_EVERY != SHARED_LIMITS_SWEEP_EVERY - 1)
        return;
    int64_t deleted = 0;
    shared_limits_sweep(&deleted);
}

/* The decision on key, counting it (take) or not: the memory's first
 * (local), then the database's, unless the memory refused in front of it.
 * When the database fails, the memory's decision stands. */
static bool decide(struct shared_limit *l, const char *key, bool take, unsigned *retry_s)
{
    uint64_t now = clock_mono_us() / 1000u;
    bool local = take ? ratelimit_take(l->local, key, now, retry_s)
                      : ratelimit_check(l->local, key, now, retry_s);
    if (!storage_is_server() || (!local && l->front))
        return local;
    int64_t wait_ms = 0;
    int status = take ? storage_limit_take(key, l->burst, l->interval_ms, &wait_ms)
                      : storage_limit_check(key, l->burst, l->interval_ms, &wait_ms);
    if (status != STORAGE_OK)
        return local;
    if (take)
        sweep_now_and_then();
    if (wait_ms == 0)
        return true;
    if (retry_s != NULL)
        *retry_s = seconds_of(wait_ms);
    return false;
}

bool shared_limit_take(struct shared_limit *l, const char *key, unsigned *retry_s)
{
    return decide(l, key, true, retry_s);
}

bool shared_limit_check(struct shared_limit *l, const char *key, unsigned *retry_s)
{
    return decide(l, key, false, retry_s);
}

void shared_limit_reset(struct shared_limit *l, const char *key)
{
    ratelimit_reset(l->local, key);
    storage_limit_forget(key);
}

static bool take_shared(void *limit, const char *key, unsigned *retry_s)
{
    return shared_limit_take(limit, key, retry_s);
}

bool shared_limit_client(struct http_conn *c, struct shared_limit *l, const char *kind,
                         const char *what, int *result)
{
    return http_limit_client_by(c, take_shared, l, kind, what, "", result);
}
