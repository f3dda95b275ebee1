/* Rate limits that hold across every node of one database: log-ins,
 * sign-ups and new guests. Each key is counted in the database
 * (storage_limits.h), on the database's clock, so that N nodes give a
 * client the limit of one; this process's own memory (http/ratelimit.h)
 * counts them too: it refuses a key over its limit here without a
 * statement, and decides alone when the database cannot answer, and on
 * SQLite, whose database one process owns. */
#ifndef SOKOD_SHARED_LIMITS_H
#define SOKOD_SHARED_LIMITS_H

#include "http/http.h"

#include <stdbool.h>
#include <stdint.h>

/* The most keys under their limits the database keeps: past it, each
 * sweep deletes those nearest to expiry (see shared_limits_sweep). */
#define SHARED_LIMITS_CAP 100000
/* A node sweeps the keys itself after this many counted events, however
 * long the sweeper's interval: a flood of distinct keys grows the table by
 * at most this many per node between two sweeps. */
#define SHARED_LIMITS_SWEEP_EVERY 1024

struct shared_limit;

/* Sets how many keys each limit made after this call holds in this
 * process's memory (0: RATELIMIT_KEYS_DEFAULT). */
void shared_limits_set_keys(unsigned keys);

/* A limit allowing `burst` events at once, then one more every
 * `interval_ms`; `resettable` when its keys may be reset
 * (shared_limit_reset), which keeps this node's memory from refusing
 * before the database. NULL when out of memory. Thread-safe. */
struct shared_limit *shared_limit_new(unsigned burst, uint64_t interval_ms, bool resettable);
void shared_limit_free(struct shared_limit *l);

/* Counts one event for key on every node. Returns true when allowed;
 * false when key is over its limit, with *retry_s set to the seconds until
 * one more event would be allowed (at least 1); a refused event is not
 * counted in the database. */
bool shared_limit_take(struct shared_limit *l, const char *key, unsigned *retry_s);

/* Like shared_limit_take without counting anything. */
bool shared_limit_check(struct shared_limit *l, const char *key, unsigned *retry_s);

/* Forgets key on every node, as after a right password. */
void shared_limit_reset(struct shared_limit *l, const char *key);

/* Counts an event of `kind` ("guest") for the request's client address;
 * true to go on, otherwise has answered 429 rate_limited ("too many
 * <what>; try again in N seconds") with Retry-After and set *result. */
bool shared_limit_client(struct http_conn *c, struct shared_limit *l, const char *kind,
                         const char *what, int *result);

/* Deletes the database's expired keys, and trims them to SHARED_LIMITS_CAP
 * by deleting those nearest to expiry (whose limits then start afresh:
 * the flood that fills the table loosens the limits of its least used
 * keys, never refuses anyone). A key over its limit, as a name locked by
 * wrong passwords, is never trimmed: it stays until its time runs out.
 * Returns the STORAGE_* code. */
int shared_limits_sweep(int64_t *deleted);

#endif
