/* The daily puzzle: one generated level a day (UTC), the same everywhere. */
#ifndef SOKOD_DAILY_H
#define SOKOD_DAILY_H

#include "base/config.h"
#include "http/http.h"

/* Takes the limit of --daily-past-jobs (past days' puzzles being made or
 * waiting at once; more are answered 503). Call before serving. */
void daily_setup(const struct config *cfg);

/* Today (UTC, on the server's clock, which SOKOD_TEST_NOW sets in tests) as
 * YYYY-MM-DD. Cannot fail. */
void daily_today(char out[11]);

/* Reads a date written exactly YYYY-MM-DD into *y, *m and *d. Returns
 * false when s is written otherwise or the calendar has no such day. */
bool daily_parse_day(const char *s, int *y, int *m, int *d);

/* Endpoints, for the routing table (server/endpoints.c). */
int daily_get(struct http_conn *c);

#endif
