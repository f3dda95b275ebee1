/* Rate limits kept in memory: a fixed table of keys ("login address
 * 192.0.2.7", "login name alice"), each a bucket that refills at a steady
 * rate. Limits are lost when sokod stops, which is fine for throttling
 * password guessing: a restart costs more than it gives an attacker. */
#ifndef SOKOD_RATELIMIT_H
#define SOKOD_RATELIMIT_H

#include <stdbool.h>
#include <stdint.h>

struct ratelimit;

/* A limiter allowing `burst` events at once, then one more every
 * `interval_ms`. NULL when out of memory. Thread-safe. */
struct ratelimit *ratelimit_new(unsigned burst, uint64_t interval_ms);
void ratelimit_free(struct ratelimit *rl);

/* Counts one event for key at now_ms (a monotonic clock). Returns true when
 * allowed; false when the key is over its limit, with *retry_s set to the
 * seconds until one more event would be allowed (at least 1); a refused
 * event is not counted. */
bool ratelimit_take(struct ratelimit *rl, const char *key, uint64_t now_ms, unsigned *retry_s);

/* Like ratelimit_take without counting anything: true when an event would
 * be allowed now. */
bool ratelimit_check(struct ratelimit *rl, const char *key, uint64_t now_ms, unsigned *retry_s);

/* Forgets key, as after a successful log-in. */
void ratelimit_reset(struct ratelimit *rl, const char *key);

#endif
