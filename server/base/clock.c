/* The process's clocks, with the test offset of the wall clock. */
#include "base/clock.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* For tests only, SOKOD_TEST_NOW (Unix seconds) sets where the server's
 * clock starts; it then runs on. One offset for everything that reads the
 * time (sessions, solutions, the daily puzzle, the audit log), so that a
 * test can play a day's puzzle before and after midnight. */
static pthread_once_t offset_once = PTHREAD_ONCE_INIT;
static int64_t offset_s; /* seconds added to the system clock */

static void offset_init(void)
{
    const char *v = getenv("SOKOD_TEST_NOW");
    if (v == NULL || v[0] == '\0')
        return;
    char *end;
    errno = 0;
    long long t = strtoll(v, &end, 10);
    if (errno != 0 || *end != '\0' || t < 0) {
        fprintf(stderr, "sokod: SOKOD_TEST_NOW is not a number of seconds: ignored\n");
        return;
    }
    offset_s = (int64_t)t - (int64_t)time(NULL);
    fprintf(stderr, "sokod: the clock starts at %lld (SOKOD_TEST_NOW)\n", t);
}

int64_t clock_now(void)
{
    pthread_once(&offset_once, offset_init);
    return (int64_t)time(NULL) + offset_s;
}

int64_t clock_now_us(void)
{
    pthread_once(&offset_once, offset_init);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ((int64_t)ts.tv_sec + offset_s) * 1000000 + ts.tv_nsec / 1000;
}

int64_t clock_now_ms(void)
{
    return clock_now_us() / 1000;
}

uint64_t clock_mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

int64_t clock_mono_ms(void)
{
    return (int64_t)(clock_mono_us() / 1000u);
}
