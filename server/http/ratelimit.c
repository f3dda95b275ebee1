/* In-memory rate limits, by the generic cell rate algorithm: each key keeps
 * one time, the moment its bucket would be full again ("tat"). An event at
 * `now` is allowed while tat - now <= (burst - 1) * interval, and moves tat
 * one interval later.
 *
 * The table has a fixed number of slots, so memory stays bounded, and a
 * key lives in one of RATELIMIT_PROBE slots from its hash. A slot is in one
 * of three states, and a new key takes the first of these it finds:
 * - idle: free, or its tat has passed (as good as absent);
 * - counting: its key is under its limit; taking its slot forgets some of
 *   that key's events, so the one nearest to being idle goes first;
 * - locked: its key is over its limit. Never taken: a key locked by wrong
 *   passwords stays locked until its time runs out, however many keys
 *   arrive. When every slot of a window is locked, a new key of that
 *   window is refused (fails closed) until the first of them unlocks.
 * Slots are found by SipHash under a key drawn at start, so that clients
 * cannot choose keys that share one window. */
#include "http/ratelimit.h"

#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATELIMIT_PROBE 16u
#define RATELIMIT_KEY 72u

struct slot {
    char key[RATELIMIT_KEY]; /* "" when free */
    uint64_t tat;
};

struct ratelimit {
    pthread_mutex_t lock;
    unsigned burst;
    uint64_t interval_ms;
    unsigned char hash_key[crypto_shorthash_KEYBYTES];
    uint32_t nslots;
    struct slot slot[];
};

struct ratelimit *ratelimit_new(unsigned burst, uint64_t interval_ms)
{
    return ratelimit_new_sized(burst, interval_ms, RATELIMIT_KEYS_DEFAULT);
}

struct ratelimit *ratelimit_new_sized(unsigned burst, uint64_t interval_ms, unsigned keys)
{
    if (keys == 0)
        keys = RATELIMIT_KEYS_DEFAULT;
    struct ratelimit *rl = calloc(1, sizeof *rl + (size_t)keys * sizeof rl->slot[0]);
    if (rl == NULL)
        return NULL;
    pthread_mutex_init(&rl->lock, NULL);
    rl->burst = burst > 0 ? burst : 1;
    rl->interval_ms = interval_ms > 0 ? interval_ms : 1;
    rl->nslots = keys;
    randombytes_buf(rl->hash_key, sizeof rl->hash_key);
    return rl;
}

void ratelimit_free(struct ratelimit *rl)
{
    if (rl == NULL)
        return;
    pthread_mutex_destroy(&rl->lock);
    free(rl);
}

/* The first slot of key's window, as stored (cut to RATELIMIT_KEY - 1). */
static uint32_t key_start(const struct ratelimit *rl, const char *key)
{
    unsigned char h[crypto_shorthash_BYTES];
    size_t len = strnlen(key, RATELIMIT_KEY - 1);
    crypto_shorthash(h, (const unsigned char *)key, len, rl->hash_key);
    uint64_t v;
    memcpy(&v, h, sizeof v);
    return (uint32_t)(v % rl->nslots);
}

/* How long s's key stays over its limit, in ms: 0 when it is not locked. */
static uint64_t locked_for(const struct ratelimit *rl, const struct slot *s, uint64_t now)
{
    uint64_t allowance = (uint64_t)(rl->burst - 1) * rl->interval_ms;
    if (s->key[0] == '\0' || s->tat <= now + allowance)
        return 0;
    return s->tat - now - allowance;
}

/* The slot of key (*found), or a slot to take for it: an idle one, else
 * the counting one nearest to idle; NULL when every slot of the window is
 * locked, with *unlock_ms set to the wait until the first one unlocks.
 * Called with the lock held. */
static struct slot *find(struct ratelimit *rl, const char *key, uint64_t now, bool *found,
                         uint64_t *unlock_ms)
{
    uint32_t start = key_start(rl, key);
    uint32_t probe = rl->nslots < RATELIMIT_PROBE ? rl->nslots : RATELIMIT_PROBE;
    struct slot *idle = NULL, *counting = NULL;
    *unlock_ms = UINT64_MAX;
    *found = false;
    for (uint32_t i = 0; i < probe; i++) {
        struct slot *s = &rl->slot[(start + i) % rl->nslots];
        if (s->key[0] != '\0' && strncmp(s->key, key, RATELIMIT_KEY - 1) == 0) {
            *found = true;
            return s;
        }
        uint64_t locked = locked_for(rl, s, now);
        if (s->key[0] == '\0' || s->tat <= now) {
            if (idle == NULL)
                idle = s;
        } else if (locked == 0) {
            if (counting == NULL || s->tat < counting->tat)
                counting = s;
        } else if (locked < *unlock_ms) {
            *unlock_ms = locked;
        }
    }
    return idle != NULL ? idle : counting;
}

static unsigned seconds_of(uint64_t wait_ms)
{
    uint64_t s = (wait_ms + 999) / 1000;
    return s < 1 ? 1 : s > 86400 ? 86400 : (unsigned)s;
}

static bool decide(struct ratelimit *rl, const char *key, uint64_t now, unsigned *retry_s,
                   bool count)
{
    pthread_mutex_lock(&rl->lock);
    bool found;
    uint64_t unlock_ms;
    struct slot *s = find(rl, key, now, &found, &unlock_ms);
    if (s == NULL) {
        /* No room without dropping a locked key: refuse the new one. */
        pthread_mutex_unlock(&rl->lock);
        if (retry_s != NULL)
            *retry_s = seconds_of(unlock_ms);
        return false;
    }
    uint64_t tat = found && s->tat > now ? s->tat : now;
    uint64_t allowance = (uint64_t)(rl->burst - 1) * rl->interval_ms;
    bool allowed = tat - now <= allowance;
    if (allowed && count) {
        if (!found)
            snprintf(s->key, sizeof s->key, "%s", key);
        s->tat = tat + rl->interval_ms;
    } else if (!allowed && retry_s != NULL) {
        *retry_s = seconds_of(tat - now - allowance);
    }
    pthread_mutex_unlock(&rl->lock);
    return allowed;
}

bool ratelimit_take(struct ratelimit *rl, const char *key, uint64_t now_ms, unsigned *retry_s)
{
    return decide(rl, key, now_ms, retry_s, true);
}

bool ratelimit_check(struct ratelimit *rl, const char *key, uint64_t now_ms, unsigned *retry_s)
{
    return decide(rl, key, now_ms, retry_s, false);
}

void ratelimit_reset(struct ratelimit *rl, const char *key)
{
    pthread_mutex_lock(&rl->lock);
    bool found;
    uint64_t unlock_ms;
    struct slot *s = find(rl, key, 0, &found, &unlock_ms);
    if (found)
        s->key[0] = '\0';
    pthread_mutex_unlock(&rl->lock);
}
