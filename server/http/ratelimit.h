/* Rate limits kept in memory: a fixed table of keys ("login address
 * 192.0.2.7", "login name alice"), each a bucket that refills at a steady
 * rate. A key over its limit keeps its slot until its time runs out; when
 * the table has no other room, new keys are refused rather than a locked
 * one forgotten. Limits are lost when sokod stops, which is fine for
 * throttling password guessing: a restart costs more than it gives an
 * attacker. */
#ifndef SOKOD_RATELIMIT_H
#define SOKOD_RATELIMIT_H

#include <stdbool.h>
#include <stdint.h>

/* The keys a limiter holds unless told otherwise (about 80 bytes each). */
#define RATELIMIT_KEYS_DEFAULT 4096u

struct ratelimit;

/* A limiter allowing `burst` events at once, then one more every
 * `interval_ms`, holding RATELIMIT_KEYS_DEFAULT keys. NULL when out of
 * memory. Thread-safe. */
struct ratelimit *ratelimit_new(unsigned burst, uint64_t interval_ms);

/* As ratelimit_new, holding at most `keys` keys (0: the default). */
struct ratelimit *ratelimit_new_sized(unsigned burst, uint64_t interval_ms, unsigned keys);
void ratelimit_free(struct ratelimit *rl);

/* Counts one event for key at now_ms (a monotonic clock). Returns true when
 * allowed; false when the key is over its limit, or new while its part of
 * the table holds only keys over their limits, with *retry_s set to the
 * seconds until one more event would be allowed (at least 1); a refused
 * event is not counted. */
bool ratelimit_take(struct ratelimit *rl, const char *key, uint64_t now_ms, unsigned *retry_s);

/* Like ratelimit_take without counting anything: true when an event would
 * be allowed now. */
bool ratelimit_check(struct ratelimit *rl, const char *key, uint64_t now_ms, unsigned *retry_s);

/* Forgets key, as after a successful log-in. */
void ratelimit_reset(struct ratelimit *rl, const char *key);

#endif
