/* Rate limits: token buckets by key (a user, an address) in a fixed table,
 * so that a flood of keys costs no memory: the least recently used bucket
 * gives its place up. */
#ifndef SOKOD_RATELIMIT_H
#define SOKOD_RATELIMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What is limited: each has its own buckets. */
enum ratelimit_kind {
    RATELIMIT_ROOM_USER,
    RATELIMIT_ROOM_ADDRESS,
    RATELIMIT_STEP_USER,
    RATELIMIT_STEP_ADDRESS,
};

/* Takes one token from the bucket of (kind, key), which holds at most
 * `burst` and gains `per_minute` a minute. True when there was one;
 * otherwise false with *retry_s set to the seconds until there is. */
bool ratelimit_take(enum ratelimit_kind kind, uint64_t key, double per_minute, double burst,
                    unsigned *retry_s);

/* A key for a text (an address). */
uint64_t ratelimit_key(const char *text);

#endif
