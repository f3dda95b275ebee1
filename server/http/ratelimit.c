/* In-memory rate limits, by the generic cell rate algorithm: each key keeps
 * one time, the moment its bucket would be full again ("tat"). An event at
 * `now` is allowed while tat - now <= (burst - 1) * interval, and moves tat
 * one interval later. A key whose tat has passed is as good as absent, so
 * its slot can be reused: the table never grows. */
#include "http/ratelimit.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATELIMIT_SLOTS 4096u
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
    struct slot slot[RATELIMIT_SLOTS];
};

struct ratelimit *ratelimit_new(unsigned burst, uint64_t interval_ms)
{
    struct ratelimit *rl = calloc(1, sizeof *rl);
    if (rl == NULL)
        return NULL;
    pthread_mutex_init(&rl->lock, NULL);
    rl->burst = burst > 0 ? burst : 1;
    rl->interval_ms = interval_ms > 0 ? interval_ms : 1;
    return rl;
}

void ratelimit_free(struct ratelimit *rl)
{
    if (rl == NULL)
        return;
    pthread_mutex_destroy(&rl->lock);
    free(rl);
}

/* FNV-1a: keys are short and chosen by clients, but a collision only
 * shares a probe window, never a bucket. */
static uint32_t key_hash(const char *key)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)key; *p != '\0'; p++)
        h = (h ^ *p) * 16777619u;
    return h;
}

/* The slot of key, or a slot to take for it (free, expired or, when the
 * window is full, the one closest to expiry). Called with the lock held. */
static struct slot *find(struct ratelimit *rl, const char *key, uint64_t now, bool *found)
{
    uint32_t start = key_hash(key) % RATELIMIT_SLOTS;
    struct slot *spare = NULL;
    for (uint32_t i = 0; i < RATELIMIT_PROBE; i++) {
        struct slot *s = &rl->slot[(start + i) % RATELIMIT_SLOTS];
        if (s->key[0] != '\0' && strncmp(s->key, key, RATELIMIT_KEY - 1) == 0) {
            *found = true;
            return s;
        }
        bool idle = s->key[0] == '\0' || s->tat <= now;
        if (spare == NULL || (idle && !(spare->key[0] == '\0' || spare->tat <= now)) ||
            (!idle && s->tat < spare->tat))
            spare = s;
    }
    *found = false;
    return spare;
}

static bool decide(struct ratelimit *rl, const char *key, uint64_t now, unsigned *retry_s,
                   bool count)
{
    pthread_mutex_lock(&rl->lock);
    bool found;
    struct slot *s = find(rl, key, now, &found);
    uint64_t tat = found && s->tat > now ? s->tat : now;
    uint64_t allowance = (uint64_t)(rl->burst - 1) * rl->interval_ms;
    bool allowed = tat - now <= allowance;
    if (allowed && count) {
        if (!found)
            snprintf(s->key, sizeof s->key, "%s", key);
        s->tat = tat + rl->interval_ms;
    } else if (!allowed && retry_s != NULL) {
        uint64_t wait_ms = tat - now - allowance;
        *retry_s = (unsigned)((wait_ms + 999) / 1000);
        if (*retry_s == 0)
            *retry_s = 1;
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
    struct slot *s = find(rl, key, 0, &found);
    if (found)
        s->key[0] = '\0';
    pthread_mutex_unlock(&rl->lock);
}
