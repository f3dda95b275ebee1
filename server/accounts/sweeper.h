/* The sweeper: a thread that deletes, now and then, what nobody can use
 * any more: guests who never played, guests unseen for long, and expired
 * sessions. It works in small transactions, so that it never holds the
 * database's write lock for long. */
#ifndef SOKOD_SWEEPER_H
#define SOKOD_SWEEPER_H

#include <stdint.h>

/* What the sweeper deletes and how often it looks, in seconds. */
struct sweeper_config {
    unsigned interval;     /* between sweeps */
    unsigned unplayed_ttl; /* a guest who never played goes this long after it was made */
    unsigned idle_ttl;     /* a guest goes this long after it was last seen */
    int64_t guest_bytes;   /* what one guest may store */
    int64_t guests_bytes;  /* what all guests together may store; 0: no bound */
};

/* Seconds between two counts of what all guests store, at most: past
 * guests_bytes, the guests' limit is set to 0 (they store nothing more)
 * until a count finds them below it again. */
#define SWEEPER_GUESTS_CHECK 10

/* Starts the thread; it counts the guests' bytes at once, and its first
 * sweep comes one interval later. Returns 0,
 * or -1 when the thread could not start (nothing is swept then). */
int sweeper_start(const struct sweeper_config *cfg);

/* Stops the thread, ending a sweep under way between two of its
 * transactions, and waits for it. Does nothing when it is not running. */
void sweeper_stop(void);

#endif
