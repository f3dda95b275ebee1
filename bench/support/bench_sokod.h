/* A sokod started by a benchmark program: the build's own (../sokod, next
 * to the benchmark), in a temporary folder of its own (database, levels,
 * log) on a free loopback port. It goes when the benchmark goes, whatever
 * way that ends, and it is in a process group of its own, so that Ctrl-C
 * reaches the benchmark alone, which stops sokod once its figures are in. */
#ifndef SOKOD_BENCH_SOKOD_H
#define SOKOD_BENCH_SOKOD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct bench_sokod {
    pid_t pid;                  /* -1: not running */
    unsigned port;              /* once started */
    char dir[PATH_MAX];         /* the temporary folder; "" once removed */
    char levels[PATH_MAX + 16]; /* dir/levels: sokod's bundled levels */
};

/* Makes /tmp/sokod-bench-NAME-XXXXXX and its empty levels folder, for the
 * caller to fill. False with the reason in why. */
bool bench_sokod_prepare(struct bench_sokod *s, const char *name, char *why, size_t cap);

/* Starts sokod serve on the folder, with a fresh database; sets port.
 * False with the reason in why (sokod's log: dir/stderr.log). */
bool bench_sokod_run(struct bench_sokod *s, char *why, size_t cap);

/* What sokod uses of the machine. */
struct bench_sokod_usage {
    long rss_kb;                     /* resident memory (VmRSS); -1 when unknown */
    unsigned long long utime, stime; /* CPU time in clock ticks; 0 when unknown */
};

/* Reads sokod's memory and CPU time from /proc. */
struct bench_sokod_usage bench_sokod_usage(const struct bench_sokod *s);

/* The same of any process of the machine (a sokod the benchmark did not
 * start, HAProxy): rss_kb -1 when it is not there. */
struct bench_sokod_usage bench_process_usage(pid_t pid);

/* The size in bytes of a file in sokod's folder ("sokod.db"), 0 when there
 * is none. */
long long bench_sokod_file_size(const struct bench_sokod *s, const char *name);

/* Stops sokod (SIGTERM, then waits for it). Safe to call more than once. */
void bench_sokod_stop(struct bench_sokod *s);

/* Stops sokod and removes the folder. Safe to call more than once. */
void bench_sokod_remove(struct bench_sokod *s);

#endif
