/* The process's clocks: the wall clock (which tests may set with
 * SOKOD_TEST_NOW) for times that are kept or shown, the monotonic clock
 * for durations. */
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

/* The monotonic clock in microseconds, from an arbitrary start: for
 * durations and deadlines within the process only. */
uint64_t clock_mono_us(void);

/* The monotonic clock in milliseconds. */
int64_t clock_mono_ms(void);

#endif
