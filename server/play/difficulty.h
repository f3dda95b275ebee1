/* The library by difficulty (difficulty.c): every listed level with its
 * rating and solve count, filtered and sorted by the server in pages, and
 * the next level for a player: an unsolved level near their rating.
 *
 *   GET /api/v1/levels?collection=&filter=&sort=&order=&offset=&limit=
 *   GET /api/v1/levels/next?exclude=&draw=
 *
 * The next level is drawn among those in the band by the player and
 * `draw`, not at random: the same question gets the same answer, and
 * "Another" asks with the next draw.
 */
#ifndef SOKOD_DIFFICULTY_H
#define SOKOD_DIFFICULTY_H

#include "http/http.h"

/* Levels a page holds at most, and by default. */
#define DIFFICULTY_PAGE_MAX 200
#define DIFFICULTY_PAGE 50
/* The next level's band: half its width at first, doubled while nothing
 * fits, DIFFICULTY_WIDENINGS times at most; then any unsolved level. */
#define DIFFICULTY_BAND 100
#define DIFFICULTY_WIDENINGS 4
/* The largest draw= taken. */
#define DIFFICULTY_DRAWS 1000000

int difficulty_levels(struct http_conn *c);
int difficulty_next(struct http_conn *c);

#endif
