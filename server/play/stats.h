/* A player's statistics, for the statistics screen: levels solved and time
 * played per day over the last STATS_DAYS days (and per week), the daily
 * puzzle's streak, totals, and per listed collection the levels solved and
 * those solved in the best known moves. One bounded answer:
 *
 *   GET /api/v1/account/stats
 */
#ifndef SOKOD_STATS_H
#define SOKOD_STATS_H

#include "http/http.h"

/* Days in the window, the last of them today (UTC): twelve weeks. */
#define STATS_DAYS 84

int stats_get(struct http_conn *c);

#endif
