/* The rating pass (ratings.c): a thread that rates finished and given-up
 * games with Glicko-2 (glicko.h), as docs/ratings.md describes. */
#ifndef SOKOD_RATINGS_H
#define SOKOD_RATINGS_H

#include <stdint.h>

struct ratings_config {
    unsigned interval;       /* seconds between passes */
    unsigned given_up_after; /* seconds an unsolved game waits before it counts as given up */
};

/* Starts the thread; its first pass comes at once. Returns 0, or -1 when
 * the thread could not start (nothing is rated then). */
int ratings_start(const struct ratings_config *cfg);

/* Stops the thread between two of its transactions and waits for it.
 * Does nothing when it is not running. */
void ratings_stop(void);

/* One pass now, on the calling thread: what the thread does each
 * interval. Returns the attempts rated, or -1 when the database failed
 * (what was committed stays; the rest waits for the next pass). */
int ratings_pass(int64_t now, unsigned given_up_after);

#endif
