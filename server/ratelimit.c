/* Rate limits: a table of token buckets, four places a key, under one lock. */
#include "ratelimit.h"

#include <pthread.h>
#include <time.h>

#define SLOTS 4096u
#define WAYS 4u

struct bucket {
    uint64_t key; /* (kind, key) mixed; 0: empty */
    double tokens;
    double at; /* seconds, monotonic: when tokens was counted */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct bucket table[SLOTS];

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x != 0 ? x : 1;
}

uint64_t ratelimit_key(const char *text)
{
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++)
        h = (h ^ *p) * 1099511628211ull;
    return h;
}

bool ratelimit_take(enum ratelimit_kind kind, uint64_t key, double per_minute, double burst,
                    unsigned *retry_s)
{
    uint64_t k = mix(key * 8u + (uint64_t)kind);
    double now = now_s();
    double rate = per_minute / 60.0;
    pthread_mutex_lock(&lock);
    unsigned first = (unsigned)(k % (SLOTS / WAYS)) * WAYS;
    struct bucket *b = NULL, *oldest = &table[first];
    for (unsigned i = 0; i < WAYS; i++) {
        struct bucket *c = &table[first + i];
        if (c->key == k) {
            b = c;
            break;
        }
        if (c->key == 0 || c->at < oldest->at)
            oldest = c;
    }
    if (b == NULL) {
        /* A new key, or one forgotten: a full bucket. */
        b = oldest;
        b->key = k;
        b->tokens = burst;
        b->at = now;
    }
    b->tokens += (now - b->at) * rate;
    if (b->tokens > burst)
        b->tokens = burst;
    b->at = now;
    bool ok = b->tokens >= 1.0;
    if (ok)
        b->tokens -= 1.0;
    else
        *retry_s = (unsigned)((1.0 - b->tokens) / rate) + 1;
    pthread_mutex_unlock(&lock);
    return ok;
}
