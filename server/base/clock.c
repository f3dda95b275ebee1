/* The process's clocks, with the test offset of the wall clock. */
#include "base/clock.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* For tests only, SOKOD_TEST_NOW (Unix seconds) sets where the server's
 * clock starts; it then runs on. One offset for everything that reads the
 * time (sessions, solutions, the daily puzzle, the audit log), so that a
 * test can play a day's puzzle before and after midnight. */
static pthread_once_t offset_once = PTHREAD_ONCE_INIT;
static int64_t offset_s; /* seconds added to the system clock */
static bool test_clock;  /* SOKOD_TEST_NOW set it: nothing is followed */
static int64_t skew_s;   /* SOKOD_TEST_SKEW: this machine's clock off */
/* Microseconds added to follow the database's clock (clock_follow). */
static _Atomic int64_t follow_us;

/* Reads a number of seconds from the environment into *out. */
static bool env_seconds(const char *name, int64_t *out)
{
    const char *v = getenv(name);
    if (v == NULL || v[0] == '\0')
        return false;
    char *end;
    errno = 0;
    long long t = strtoll(v, &end, 10);
    if (errno != 0 || *end != '\0') {
        fprintf(stderr, "sokod: %s is not a number of seconds: ignored\n", name);
        return false;
    }
    *out = (int64_t)t;
    return true;
}

static void offset_init(void)
{
    env_seconds("SOKOD_TEST_SKEW", &skew_s);
    int64_t t = 0;
    if (!env_seconds("SOKOD_TEST_NOW", &t))
        return;
    if (t < 0) {
        fprintf(stderr, "sokod: SOKOD_TEST_NOW is before 1970: ignored\n");
        return;
    }
    test_clock = true;
    offset_s = t - (int64_t)time(NULL);
    fprintf(stderr, "sokod: the clock starts at %lld (SOKOD_TEST_NOW)\n", (long long)t);
}

int64_t clock_system_us(void)
{
    pthread_once(&offset_once, offset_init);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ((int64_t)ts.tv_sec + skew_s) * 1000000 + ts.tv_nsec / 1000;
}

void clock_follow(int64_t skew_us)
{
    pthread_once(&offset_once, offset_init);
    if (!test_clock)
        atomic_store(&follow_us, skew_us);
}

int64_t clock_now_us(void)
{
    return clock_system_us() + offset_s * 1000000 + atomic_load(&follow_us);
}

int64_t clock_now(void)
{
    int64_t us = clock_now_us();
    return us >= 0 ? us / 1000000 : -((-us + 999999) / 1000000);
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
