/* The in-memory rate limiter (server/http/ratelimit.c): a key over its
 * limit is never dropped to make room, however many keys arrive; a window
 * of locked keys refuses new ones until the first unlocks; and, over a
 * seeded random walk of many keys through a small table, every refusal
 * holds for as long as its Retry-After said. Each failure prints the
 * seed, the key and the times. */
#include "http/ratelimit.h"
#include "check.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>

#define MINUTE_MS 60000u

static void a_locked_key_outlives_a_flood_of_new_keys(void)
{
    struct ratelimit *rl = ratelimit_new_sized(10, MINUTE_MS, 16);
    unsigned retry = 0;
    for (int i = 0; i < 10; i++)
        CHECK(ratelimit_take(rl, "name victim", 0, &retry));
    CHECK(!ratelimit_take(rl, "name victim", 0, &retry));
    /* Every other key lands in the victim's one window of 16 slots. */
    unsigned refused = 0;
    uint64_t now = 1;
    for (int k = 0; k < 1000; k++) {
        char key[32];
        snprintf(key, sizeof key, "name other%d", k);
        for (int i = 0; i < 11; i++, now++)
            if (!ratelimit_take(rl, key, now, &retry))
                refused++;
    }
    note("11 takes of each of 1000 other names until %llu ms: %u refused", (unsigned long long)now,
         refused);
    CHECK_MSG(now < MINUTE_MS, "the flood outlasted the victim's lock (%llu ms)",
              (unsigned long long)now);
    CHECK_MSG(!ratelimit_check(rl, "name victim", now, &retry),
              "the victim's lock was dropped after 1000 other names");
    CHECK(!ratelimit_take(rl, "name victim", now, &retry));
    /* Its time runs out as it would have alone: one more a minute. */
    CHECK(ratelimit_check(rl, "name victim", MINUTE_MS, &retry));
    ratelimit_free(rl);
}

static void a_window_of_locked_keys_refuses_new_ones_until_one_unlocks(void)
{
    struct ratelimit *rl = ratelimit_new_sized(1, 1000, 16);
    unsigned retry = 0;
    for (int k = 0; k < 16; k++) {
        char key[16];
        snprintf(key, sizeof key, "k%d", k);
        CHECK(ratelimit_take(rl, key, (uint64_t)k, &retry));
    }
    retry = 0;
    CHECK_MSG(!ratelimit_take(rl, "newcomer", 16, &retry),
              "a new key took the slot of a locked one");
    CHECK_INT(retry, 1);
    CHECK(!ratelimit_check(rl, "newcomer", 999, &retry));
    /* k0 unlocks at 1000 ms: its slot is free again. */
    CHECK(ratelimit_take(rl, "newcomer", 1000, &retry));
    CHECK(!ratelimit_check(rl, "k1", 1000, &retry));
    ratelimit_free(rl);
}

/* A refusal at `at` with Retry-After `retry` s: the key must be refused
 * until at + (retry - 1) s at least (the wait was more than that). */
struct refusal {
    char key[16];
    uint64_t at, until;
};

static void refusals_hold_for_their_retry_over_a_random_walk(void)
{
    unsigned seed = 2611u;
    srand(seed);
    struct ratelimit *rl = ratelimit_new_sized(3, 10000, 64);
    struct refusal seen[256] = {{{0}, 0, 0}};
    unsigned nseen = 0, broken = 0, held = 0;
    uint64_t now = 0;
    for (int op = 0; op < 200000; op++) {
        now += (uint64_t)(rand() % 4);
        char key[16];
        snprintf(key, sizeof key, "key %d", rand() % 500);
        unsigned retry = 0;
        if (!ratelimit_take(rl, key, now, &retry) && retry > 1) {
            struct refusal *r = &seen[nseen++ % 256];
            snprintf(r->key, sizeof r->key, "%s", key);
            r->at = now;
            r->until = now + (uint64_t)(retry - 1) * 1000;
        }
        struct refusal *r = &seen[(unsigned)rand() % 256];
        if (r->until <= now)
            continue;
        held++;
        if (!ratelimit_check(rl, r->key, now, &retry))
            continue;
        if (broken++ == 0)
            note("seed %u, op %d: '%s', refused at %llu ms until %llu, allowed at %llu", seed, op,
                 r->key, (unsigned long long)r->at, (unsigned long long)r->until,
                 (unsigned long long)now);
    }
    note("%u refusals checked again before their time", held);
    CHECK(held > 1000);
    CHECK_INT(broken, 0);
    ratelimit_free(rl);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    RUN(a_locked_key_outlives_a_flood_of_new_keys);
    RUN(a_window_of_locked_keys_refuses_new_ones_until_one_unlocks);
    RUN(refusals_hold_for_their_retry_over_a_random_walk);
    return check_finish();
}
