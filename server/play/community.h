/* Players' own levels: a signed-in player publishes a level made in the
 * editor to the community collection, where it is listed under its author
 * with its likes; players like and report levels, admins read the reports
 * and block authors from publishing (hiding and deleting a level are the
 * library's admin routes, as for any level).
 *
 * A publish is checked in this order, the cheap checks first: an account
 * not blocked and within its levels per day (--community-per-day); a valid
 * board (the core's reader) within COMMUNITY_MAX_SIDE and
 * COMMUNITY_MAX_BOXES; no level of the library, in any state, with the
 * same canonical hash (rotations and mirror images hash the same); then
 * the solver, on the hints' pool within its limits (--hint-seconds,
 * --hint-memory), must solve it. The solution found is kept as the level's
 * reference solution: admins see it, best known counts it, players never
 * read it. The level's bytes count against its author's storage quota.
 *
 *   POST /api/v1/community/levels                {"board": "...", "title": "..."}
 *   GET  /api/v1/community/levels?author=ID&before=ID&limit=N
 *   PUT  /api/v1/community/levels/{id}/like      {"liked": true}
 *   POST /api/v1/community/levels/{id}/reports   {"reason": "..."}
 *   GET  /api/v1/admin/community
 *   PUT  /api/v1/admin/community/authors/{id}    {"blocked": true, "reason": "..."}
 */
#ifndef SOKOD_COMMUNITY_H
#define SOKOD_COMMUNITY_H

#include "base/config.h"
#include "http/http.h"

/* The largest board a player may publish, in squares a side, and its boxes. */
#define COMMUNITY_MAX_SIDE 40
#define COMMUNITY_MAX_BOXES 40
/* The longest title, in bytes, and the longest report. */
#define COMMUNITY_MAX_TITLE 100
#define COMMUNITY_MAX_REASON 500
/* Reports one player may make a day. */
#define COMMUNITY_REPORTS_PER_DAY 20

/* Reads --community-per-day; call before serving. */
void community_setup(const struct config *cfg);

int community_publish(struct http_conn *c);
int community_list(struct http_conn *c);
int community_like(struct http_conn *c);
int community_report(struct http_conn *c);
int community_admin(struct http_conn *c);
int community_admin_block(struct http_conn *c);

#endif
