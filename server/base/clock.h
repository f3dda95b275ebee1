/* The process's clocks: the wall clock (which tests may set with
 * SOKOD_TEST_NOW) for times that are kept or shown, the monotonic clock
 * for durations. Nodes that share a PostgreSQL database follow its clock
 * (clock_follow), so that sessions, days and timers mean one time on every
 * node. */
#ifndef SOKOD_CLOCK_H
#define SOKOD_CLOCK_H

#include <stdint.h>

/* The wall clock in Unix seconds, on the server's one clock: when the
 * environment holds SOKOD_TEST_NOW (Unix seconds, for tests), the clock
 * starts there, read once, and runs on. This function can't fail. */
int64_t clock_now(void);

/* The same clock in Unix milliseconds. */
int64_t clock_now_ms(void);

/* The same clock in Unix microseconds. */
int64_t clock_now_us(void);

/* Makes the wall clock run skew_us ahead of this machine's system clock:
 * how far the database's clock is ahead of it. Ignored when SOKOD_TEST_NOW
 * set the clock. For tests of nodes whose clocks disagree, SOKOD_TEST_SKEW
 * (seconds) puts this machine's clock that far off before any following. */
void clock_follow(int64_t skew_us);

/* This machine's wall clock in Unix microseconds, as clock_follow measures
 * against (SOKOD_TEST_SKEW included, nothing followed). */
int64_t clock_system_us(void);

/* The monotonic clock in microseconds, from an arbitrary start: for
 * durations and deadlines within the process only. */
uint64_t clock_mono_us(void);

/* The monotonic clock in milliseconds. */
int64_t clock_mono_ms(void);

#endif
