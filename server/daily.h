/* The daily puzzle: one generated level a day (UTC), the same everywhere. */
#ifndef SOKOD_DAILY_H
#define SOKOD_DAILY_H

/* Today (UTC, on the server's clock, which SOKOD_TEST_NOW sets in tests) as
 * YYYY-MM-DD. Cannot fail. */
void daily_today(char out[11]);

#endif
