/* The daily puzzle: one generated level a day (UTC), the same everywhere. */
#ifndef SOKOD_DAILY_H
#define SOKOD_DAILY_H

#include "base/config.h"

/* Takes the limit of --daily-past-jobs (past days' puzzles being made or
 * waiting at once; more are answered 503). Call before serving. */
void daily_setup(const struct config *cfg);

/* Today (UTC, on the server's clock, which SOKOD_TEST_NOW sets in tests) as
 * YYYY-MM-DD. Cannot fail. */
void daily_today(char out[11]);

#endif
