/* The cost limiter: a fixed table of buckets by the generic cell rate
 * algorithm, each key keeping the moment its bucket is full again ("tat").
 * A charge of w ms at `now` is allowed while tat + w - now stays within
 * the burst, and moves tat w later. A key whose tat has passed holds
 * nothing and its slot may be reused; a key whose tat is still ahead (it
 * owes time) keeps its slot until it has paid, so that a flood of new
 * keys never wipes a key's debt. When no slot is free in a key's window,
 * its request is refused instead (503 would say the server is full; 429
 * with a second's wait is what the client can act on). */
#include "http/cost_limit.h"

#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COST_SLOTS 16384u
#define COST_PROBE 32u
#define COST_KEY 48u
/* Seconds of the rate a bucket holds. */
#define COST_BURST_SECONDS 10u

struct slot {
    char key[COST_KEY]; /* "" when free */
    uint64_t tat;       /* in microseconds of the rate's clock */
};

static struct {
    pthread_mutex_t lock;
    uint64_t us_per_ms; /* wall microseconds that one declared millisecond costs */
    uint64_t burst_us;
    unsigned char hash_key[crypto_shorthash_KEYBYTES];
    struct slot *slot;
} lim = {.lock = PTHREAD_MUTEX_INITIALIZER};

int cost_limit_start(unsigned ms_per_second)
{
    struct slot *s = calloc(COST_SLOTS, sizeof *s);
    if (s == NULL)
        return -1;
    pthread_mutex_lock(&lim.lock);
    free(lim.slot);
    lim.slot = s;
    randombytes_buf(lim.hash_key, sizeof lim.hash_key);
    if (ms_per_second == 0)
        ms_per_second = 1;
    lim.us_per_ms = 1000000u / ms_per_second > 0 ? 1000000u / ms_per_second : 1;
    lim.burst_us = (uint64_t)COST_BURST_SECONDS * 1000000u;
    pthread_mutex_unlock(&lim.lock);
    return 0;
}

void cost_limit_stop(void)
{
    pthread_mutex_lock(&lim.lock);
    free(lim.slot);
    lim.slot = NULL;
    pthread_mutex_unlock(&lim.lock);
}

/* The first slot of key's window: SipHash under a key drawn at start, so
 * that clients cannot pick addresses that share one window. */
static uint32_t key_start(const char *key)
{
    unsigned char h[crypto_shorthash_BYTES];
    crypto_shorthash(h, (const unsigned char *)key, strlen(key), lim.hash_key);
    uint64_t v;
    memcpy(&v, h, sizeof v);
    return (uint32_t)(v % COST_SLOTS);
}

/* The slot of key, else a free or paid-off one to take for it, else NULL.
 * Called with the lock held. */
static struct slot *find(const char *key, uint64_t now)
{
    uint32_t h = key_start(key);
    struct slot *spare = NULL;
    for (unsigned i = 0; i < COST_PROBE; i++) {
        struct slot *s = &lim.slot[(h + i) % COST_SLOTS];
        /* As stored: a key longer than a slot holds is cut, never a new key
         * at each request. */
        if (s->key[0] != '\0' && strncmp(s->key, key, COST_KEY - 1) == 0)
            return s;
        if (spare == NULL && (s->key[0] == '\0' || s->tat <= now))
            spare = s;
    }
    if (spare != NULL) {
        snprintf(spare->key, sizeof spare->key, "%s", key);
        spare->tat = now;
    }
    return spare;
}

static unsigned seconds_until(uint64_t us)
{
    uint64_t s = (us + 999999u) / 1000000u;
    return s < 1 ? 1 : s > 3600 ? 3600 : (unsigned)s;
}

bool cost_limit_take(const char *key, uint32_t ms, uint64_t now_ms, unsigned *retry_s)
{
    uint64_t now = now_ms * 1000u;
    pthread_mutex_lock(&lim.lock);
    if (lim.slot == NULL) {
        pthread_mutex_unlock(&lim.lock);
        return true;
    }
    struct slot *s = find(key, now);
    if (s == NULL) {
        pthread_mutex_unlock(&lim.lock);
        *retry_s = 1;
        return false;
    }
    uint64_t tat = s->tat > now ? s->tat : now;
    uint64_t charge = (uint64_t)ms * lim.us_per_ms;
    /* One request dearer than the whole burst may still run alone, from
     * a full bucket. */
    uint64_t allowed = charge > lim.burst_us ? charge : lim.burst_us;
    bool ok = tat + charge - now <= allowed;
    if (ok)
        s->tat = tat + charge;
    else
        *retry_s = seconds_until(tat + charge - now - allowed);
    pthread_mutex_unlock(&lim.lock);
    return ok;
}
