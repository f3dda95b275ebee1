/* The sweeper: a thread that deletes, now and then, what nobody can use
 * any more: guests who never played, guests unseen for long, and expired
 * sessions. It works in small transactions, so that it never holds the
 * database's write lock for long. */
#ifndef SOKOD_SWEEPER_H
#define SOKOD_SWEEPER_H

/* What the sweeper deletes and how often it looks, in seconds. */
struct sweeper_config {
    unsigned interval;     /* between sweeps */
    unsigned unplayed_ttl; /* a guest who never played goes this long after it was made */
    unsigned idle_ttl;     /* a guest goes this long after it was last seen */
};

/* Starts the thread; its first sweep comes one interval later. Returns 0,
 * or -1 when the thread could not start (nothing is swept then). */
int sweeper_start(const struct sweeper_config *cfg);

/* Stops the thread, ending a sweep under way between two of its
 * transactions, and waits for it. Does nothing when it is not running. */
void sweeper_stop(void);

#endif
