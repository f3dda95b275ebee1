/* The soak's figures: latencies per route, errors by kind, counters, and
 * sokod's memory judged over the run. */
#include "soak.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const route_name[RT_COUNT] = {
    "GET /api/v1/account",
    "POST /api/v1/account/signup",
    "POST /api/v1/account/login",
    "POST /api/v1/account/logout",
    "GET /api/v1/collections",
    "GET /api/v1/collections/{id}",
    "GET /api/v1/levels/{id}",
    "POST /api/v1/levels/{id}/game",
    "GET /api/v1/games/{id}",
    "POST /api/v1/games/{id}/log",
    "POST /api/v1/games/{id}/walk",
    "GET /api/v1/progress",
    "GET /api/v1/levels/{id}/leaderboard",
    "GET /api/v1/rooms",
    "POST /api/v1/rooms",
    "GET /api/v1/rooms/{id}",
    "POST /api/v1/rooms/{id}/join",
    "POST /api/v1/rooms/{id}/leave",
    "POST /api/v1/rooms/{id}/start",
    "GET /api/v1/events (to its ready event)",
};

struct samples {
    uint32_t *v; /* microseconds */
    size_t n, cap;
};
static struct samples latency[RT_COUNT];
static struct samples window; /* every route since the last progress line */

static void add_sample(struct samples *s, uint64_t us)
{
    if (s->n == s->cap) {
        size_t cap = s->cap > 0 ? s->cap * 2 : 1024;
        uint32_t *v = realloc(s->v, cap * sizeof *v);
        if (v == NULL)
            return;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
}

void figures_latency(enum route r, uint64_t us)
{
    add_sample(&latency[r], us);
    add_sample(&window, us);
}

/* An error kind: what went wrong on which route, counted, with its first
 * message as an example. */
struct error_kind {
    char what[96];
    enum route route;
    unsigned long count;
    char example[200];
};
#define MAX_ERROR_KINDS 96
static struct error_kind error_kinds[MAX_ERROR_KINDS];
static unsigned nerror_kinds;
unsigned long figures_errors;
static unsigned long errors_other_kinds;

void figures_error(enum route r, const char *what, const char *example)
{
    figures_errors++;
    for (unsigned i = 0; i < nerror_kinds; i++) {
        if (error_kinds[i].route == r && strcmp(error_kinds[i].what, what) == 0) {
            error_kinds[i].count++;
            return;
        }
    }
    if (nerror_kinds == MAX_ERROR_KINDS) {
        errors_other_kinds++;
        return;
    }
    struct error_kind *k = &error_kinds[nerror_kinds++];
    snprintf(k->what, sizeof k->what, "%s", what);
    k->route = r;
    k->count = 1;
    snprintf(k->example, sizeof k->example, "%s", example != NULL ? example : "");
    /* One line per example: answers may hold newlines. */
    for (char *c = k->example; *c != '\0'; c++) {
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    }
}

struct soak_counts figures;

const char *const figures_event_name[] = {"ready",     "step",     "room",
                                          "race_step", "snapshot", "other"};

static int by_value(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

double figures_mib(long long bytes)
{
    return (double)bytes / (1024.0 * 1024.0);
}

static int by_kb(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* The median of n > 0 samples, in MiB. */
static double median_mib(const struct rss_sample *s, size_t n)
{
    long *v = malloc(n * sizeof *v);
    if (v == NULL)
        soak_fail("out of memory");
    for (size_t i = 0; i < n; i++)
        v[i] = s[i].kb;
    qsort(v, n, sizeof *v, by_kb);
    double mid = n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2.0;
    free(v);
    return mid / 1024.0;
}

/* When sokod said its game cache is full, in us since the run started (at
 * the first call after it said so), or 0 while it has not: reads its log on
 * from where the last call stopped, whole lines only. */
static uint64_t cache_full_at;

void figures_watch_cache(uint64_t at)
{
    static long done;
    if (cache_full_at != 0)
        return;
    char path[PATH_MAX + 16], line[1024];
    snprintf(path, sizeof path, "%s/stderr.log", soak_sokod.dir);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return;
    if (fseek(f, done, SEEK_SET) == 0)
        while (fgets(line, sizeof line, f) != NULL) {
            if (strchr(line, '\n') == NULL && feof(f))
                break; /* a line still being written: read it whole next time */
            done = ftell(f);
            if (strncmp(line, CACHE_FULL, strlen(CACHE_FULL)) == 0) {
                cache_full_at = at > 0 ? at : 1;
                break;
            }
        }
    fclose(f);
}

/* Prints the memory samples and judges their growth after warm-up: the
 * first minute (a third of a short run), or longer until the game cache
 * filled, since the cache filling up to its bound is growth by design. */
void figures_print_memory(const struct rss_sample *s, size_t n)
{
    if (n == 0)
        return;
    long max = 0;
    for (size_t i = 0; i < n; i++)
        max = s[i].kb > max ? s[i].kb : max;
    printf("sokod memory (VmRSS every 10 s): %.1f MiB at the start, %.1f MiB at most, %.1f MiB at "
           "the end\n",
           s[0].kb / 1024.0, max / 1024.0, s[n - 1].kb / 1024.0);
    uint64_t last = s[n - 1].at, warm = WARMUP_US < last / 3 ? WARMUP_US : last / 3;
    if (cache_full_at > warm)
        warm = cache_full_at;
    if (cache_full_at != 0)
        printf("  the game cache was full after %.0f s\n", (double)cache_full_at / 1e6);
    else
        printf("  the game cache had not filled by the end\n");
    size_t first = 0;
    while (first < n && s[first].at < warm)
        first++;
    size_t m = n - first;
    if (m < 8) {
        printf("  growth: too few samples after warm-up to judge (%zu)\n", m);
        return;
    }
    /* Judged on the last half alone, quarter against quarter, by medians:
     * memory that rose and then levelled off (caches filling up to their
     * bounds) is flat there, and memory that still grows is not; a median
     * is not moved by a passing spike. */
    double q[4];
    for (int k = 0; k < 4; k++)
        q[k] =
            median_mib(s + first + m * (size_t)k / 4, m * (size_t)(k + 1) / 4 - m * (size_t)k / 4);
    double growth = q[3] - q[2], limit = q[2] * 0.025 > 2.0 ? q[2] * 0.025 : 2.0;
    double quarter_min = (double)(s[n - 1].at - s[first].at) / 4.0 / 60e6;
    printf("  after warm-up (%.0f s; %zu samples): medians by quarter %.1f, %.1f, %.1f, %.1f MiB; "
           "last quarter against the third %+.1f MiB (%+.1f%%, %+.2f MiB per minute)\n",
           (double)warm / 1e6, m, q[0], q[1], q[2], q[3], growth,
           q[2] > 0 ? growth / q[2] * 100.0 : 0.0, quarter_min > 0 ? growth / quarter_min : 0.0);
    printf("  verdict: %s\n",
           growth <= limit ? "flat: the last quarter stands within max(2 MiB, 2.5%) of the third"
           : cache_full_at > 0
               ? "GROWS: the last quarter stands above the third by more than max(2 MiB, 2.5%), "
                 "with the game cache full (a longer run tells whether it levels off)"
               : "not judged: the last quarter stands above the third by more than max(2 MiB, "
                 "2.5%), but the game cache was still filling (a longer run, or more players, "
                 "fills it)");
}

void figures_window(double *p50, double *p99)
{
    *p50 = *p99 = 0;
    if (window.n > 0) {
        qsort(window.v, window.n, sizeof *window.v, by_value);
        *p50 = window.v[window.n / 2] / 1000.0;
        *p99 = window.v[(size_t)((double)window.n * 0.99)] / 1000.0;
    }
    window.n = 0;
}

void figures_print_run(double secs)
{
    printf("\nrequests: %lu in %.1f s, %.0f per second (%lu answers, %lu event streams; %lu sent "
           "again on a new connection after the server closed an idle one, %lu idle connections "
           "closed by the server)\n",
           figures.requests, secs, (double)figures.requests / secs, figures.answered,
           figures.streams, figures.resent, figures.closed_idle);
    printf("errors: %lu\n", figures_errors);
    for (unsigned i = 0; i < nerror_kinds; i++) {
        struct error_kind *k = &error_kinds[i];
        printf("  %8lu  %s on %s%s%.160s\n", k->count, k->what, route_name[k->route],
               k->example[0] ? ": " : "", k->example);
    }
    if (errors_other_kinds > 0)
        printf("  %8lu  of further kinds\n", errors_other_kinds);

    printf("latency per route (ms):\n  %-42s %9s %8s %8s %8s\n", "route", "requests", "p50", "p99",
           "max");
    for (int r = 0; r < RT_COUNT; r++) {
        struct samples *l = &latency[r];
        if (l->n == 0)
            continue;
        qsort(l->v, l->n, sizeof *l->v, by_value);
        printf("  %-42s %9zu %8.2f %8.2f %8.2f\n", route_name[r], l->n, l->v[l->n / 2] / 1000.0,
               l->v[(size_t)((double)l->n * 0.99)] / 1000.0, l->v[l->n - 1] / 1000.0);
    }
    printf("log entries committed: %lu (%.0f per second): %lu moves (%lu pushes), %lu undos, %lu "
           "redos, %lu restarts, %lu point-mode walks; %lu duplicates; %lu solves\n",
           figures.entries, (double)figures.entries / secs, figures.moves, figures.pushes,
           figures.undos, figures.redos, figures.restarts, figures.walks, figures.duplicates,
           figures.solved);
    printf("players: %lu sessions, %lu sign-ups, %lu log-ins; races: %lu rooms, %lu started "
           "(%lu seats), %lu players finished\n",
           figures.sessions, figures.signups, figures.logins, figures.rooms, figures.races_started,
           figures.race_seats, figures.race_finishes);
    printf("event streams: %lu opened, %lu ready; events:", figures.streams, figures.stream_ready);
    for (int k = 0; k <= EV_OTHER; k++)
        printf(" %s %lu,", figures_event_name[k], figures.events[k]);
    printf(" heartbeats %lu; second tabs saw %lu of the %lu entries their games committed while "
           "they watched (%lu events came twice)\n",
           figures.heartbeats, figures.watched_steps_seen, figures.watched_steps_sent,
           figures.watched_steps_twice);
}

/* Prints what sokod wrote to its log besides its access lines and its
 * start: lines alike but for their numbers are counted as one. */
void figures_print_sokod_log(void)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/stderr.log", soak_sokod.dir);
    FILE *log = fopen(path, "r");
    unsigned long access = 0, other = 0;
    static struct {
        char text[160];
        unsigned long count;
    } said[24];
    unsigned nsaid = 0;
    char line[1024];
    while (log != NULL && fgets(line, sizeof line, log) != NULL) {
        bool is_access = (strncmp(line, "GET ", 4) == 0 || strncmp(line, "POST ", 5) == 0) &&
                         strstr(line, "us\n") != NULL;
        bool is_start = strncmp(line, "sokod: applied migration", 24) == 0 ||
                        strncmp(line, "sokod: imported ", 16) == 0 ||
                        strncmp(line, "sokod: created the database", 27) == 0 ||
                        strncmp(line, CACHE_FULL, strlen(CACHE_FULL)) == 0;
        if (is_access) {
            access++;
            continue;
        }
        if (is_start)
            continue;
        other++;
        /* Lines alike but for their numbers count as one kind. */
        line[strcspn(line, "\n")] = '\0';
        for (char *c = line; *c != '\0'; c++)
            *c = *c >= '0' && *c <= '9' ? '#' : *c;
        line[sizeof said[0].text - 1] = '\0';
        unsigned k = 0;
        while (k < nsaid && strcmp(said[k].text, line) != 0)
            k++;
        if (k == nsaid && nsaid < sizeof said / sizeof said[0])
            memcpy(said[nsaid++].text, line, strlen(line) + 1);
        if (k < nsaid)
            said[k].count++;
    }
    if (log != NULL)
        fclose(log);
    printf("sokod's log: %lu request lines, %lu other lines%s\n", access, other,
           other > 0 ? " (numbers shown as #):" : "");
    for (unsigned k = 0; k < nsaid; k++)
        printf("  %8lu  %s\n", said[k].count, said[k].text);
}
