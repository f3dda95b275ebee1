/* A soak test of sokod: many players for a long time, as people play.
 *
 * Starts the sokod beside this program (../sokod) on a free loopback port
 * with a fresh database in a temporary folder (removed on exit, Ctrl-C
 * included), with the bundled levels of the checkout and one level of its
 * own, an open floor where any walk inside the room is legal. Then it
 * simulates players, each a person with one kept-alive connection (and an
 * event stream when it watches something), each from a loopback address of
 * its own (127.x.y.z) as players come from addresses of their own: the
 * server's limits per address then apply per player, not to all at once.
 *
 * A player opens levels and plays them: steps with the right seq (walks on
 * the open floor, or the reference solution of a tutorial level, read from
 * levels/tutorial.sok, with pushes), undoes, redoes, restarts, walks in
 * point mode, opens other levels, reads the library, a level, its board,
 * its progress and its game. Some sign up (and log in again later as on a
 * second device), some keep a second tab on their game's event stream, some
 * race in rooms (open one and wait for others, or join one waiting) and
 * some watch races being run as spectators. Each waits 100 to 500 ms between
 * actions, so the players set the load, not the server. Sessions end after
 * a few minutes and new players (new guests) take their places.
 *
 * Every answer the script did not expect is an error: a status other than
 * the one expected, a refused step, a stale seq, a connection that failed,
 * an answer that did not come within 10 s, an event stream that broke.
 *
 * Prints a progress line every 30 s, then: requests and errors by kind,
 * p50/p99/max latency per route, requests per second, log entries committed,
 * the event streams, sokod's memory (VmRSS every 10 s) with a verdict on its
 * growth after warm-up, sokod's CPU time, the database's size (file and
 * WAL) at the end and per 1,000,000 entries, and the WAL's largest size.
 * Never fails on a time; exits 1 only when the run could not be made.
 *
 * Settings: BENCH_SOAK_PLAYERS (1000), BENCH_SOAK_SECONDS (600),
 * BENCH_SOAK_SESSION_SECONDS (300: a session lasts 0.4 to 1.6 times this),
 * BENCH_SOAK_SEED (1: the same seed plays the same choices). */
#include "soak.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <unistd.h>

unsigned soak_nplayers, soak_session_seconds, soak_seed;
static unsigned run_seconds;

struct bench_sokod soak_sokod = {.pid = -1};
unsigned soak_port;
static volatile sig_atomic_t interrupted;

static void stop_server(void)
{
    bench_sokod_stop(&soak_sokod);
}

static void cleanup(void)
{
    bench_sokod_remove(&soak_sokod);
}

void soak_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "bench_soak: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    cleanup();
    exit(1);
}

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

static void start_server(void)
{
    char why[PATH_MAX + 128];
    if (!bench_sokod_prepare(&soak_sokod, "soak", why, sizeof why))
        soak_fail("%s", why);
    library_make_levels(soak_sokod.levels);
    if (!bench_sokod_run(&soak_sokod, why, sizeof why))
        soak_fail("%s (the folder is removed)", why);
    soak_port = soak_sokod.port;
}

static void print_load(const char *when)
{
    char avg[128];
    bench_env_load(avg, sizeof avg);
    printf("load average %s: %s\n", when, avg);
}

/* The CPU time sokod used from one reading to another, in seconds. */
static double cpu_seconds(const struct bench_sokod_usage *from, const struct bench_sokod_usage *to)
{
    return (double)(to->utime + to->stime - from->utime - from->stime) /
           (double)sysconf(_SC_CLK_TCK);
}

/* Reads the settings, and readies the process: signals that end the run
 * with its figures, and a file limit for two sockets a player. */
static void setup_process(void)
{
    soak_nplayers = bench_env_unsigned("BENCH_SOAK_PLAYERS", 1000);
    run_seconds = bench_env_unsigned("BENCH_SOAK_SECONDS", 600);
    soak_session_seconds = bench_env_unsigned("BENCH_SOAK_SESSION_SECONDS", 300);
    soak_seed = bench_env_unsigned("BENCH_SOAK_SEED", 1);
    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    /* Two sockets per player at most, at both ends when the server is ours. */
    struct rlimit lim;
    rlim_t need = (rlim_t)soak_nplayers * 2 + 256;
    if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < need) {
        lim.rlim_cur = lim.rlim_max < need ? lim.rlim_max : need;
        setrlimit(RLIMIT_NOFILE, &lim);
        if (lim.rlim_cur < need)
            printf("note: the open file limit is %llu, low for %u players\n",
                   (unsigned long long)lim.rlim_cur, soak_nplayers);
    }
}

static void print_start(void)
{
    errno = 0;
    int niceness = getpriority(PRIO_PROCESS, (id_t)soak_sokod.pid);
    printf("sokod soak: %u players for %u s (sessions of %u s on average, seed %u), %ld CPUs, "
           "sokod on 127.0.0.1:%u (nice %d) with a fresh database\n",
           soak_nplayers, run_seconds, soak_session_seconds, soak_seed,
           sysconf(_SC_NPROCESSORS_ONLN), soak_port, errno == 0 ? niceness : 0);
    printf("library: %u levels to browse, %u tutorial levels with solutions, the open floor "
           "(level %ld)\n",
           library_nbrowse + library_ntutorial + 1, library_ntutorial, library_walk_level);
    print_load("before");
}

/* The first sessions, spread over the ramp: a quarter of the run, at most
 * RAMP_MAX_S seconds. */
static void start_players(uint64_t t0)
{
    player_list = calloc(soak_nplayers, sizeof *player_list);
    player_heap = calloc(soak_nplayers, sizeof *player_heap);
    if (player_list == NULL || player_heap == NULL)
        soak_fail("out of memory");
    uint64_t ramp = (uint64_t)(run_seconds / 4 < RAMP_MAX_S ? run_seconds / 4 : RAMP_MAX_S);
    for (unsigned i = 0; i < soak_nplayers; i++) {
        struct player *p = &player_list[i];
        p->slot = i;
        p->serial = i; /* player_start_session adds soak_nplayers: every session its own number */
        p->api.fd = p->feed.fd = -1;
        p->api.p = p->feed.p = p;
        p->feed.feed = true;
        p->rng = soak_seed * 7919u + i;
        player_start_session(p,
                             t0 + (ramp * 1000000u * i) / (soak_nplayers > 0 ? soak_nplayers : 1));
    }
}

/* What the run measures of sokod as it goes. */
struct run {
    uint64_t t0, end;
    struct bench_sokod_usage use0, use;
    struct rss_sample *rss;
    size_t nrss, max_samples;
    long long db_start, db_end, wal_end, wal_max;
    uint64_t next_rss, next_wal, next_progress, next_check, last_progress;
    unsigned long last_requests;
};

/* The progress line of the last 30 s. */
static void print_progress(struct run *run, uint64_t now)
{
    run->use = bench_sokod_usage(&soak_sokod);
    unsigned long open = 0;
    for (unsigned i = 0; i < soak_nplayers; i++)
        open += player_list[i].feed_ready;
    double dt = (double)(now - run->last_progress) / 1e6;
    /* Latency of these 30 s alone: does the server slow down as it runs? */
    double p50, p99;
    figures_window(&p50, &p99);
    printf("[%4.0f s] requests %lu (%.0f/s; p50 %.1f ms, p99 %.1f ms), errors %lu, entries "
           "%lu, streams open %lu, sokod RSS %.1f MiB, CPU %.1f s, WAL %.1f MiB\n",
           (double)(now - run->t0) / 1e6, figures.requests,
           (double)(figures.requests - run->last_requests) / dt, p50, p99, figures_errors,
           figures.entries, open, run->use.rss_kb / 1024.0, cpu_seconds(&run->use0, &run->use),
           figures_mib(bench_sokod_file_size(&soak_sokod, "sokod.db-wal")));
    run->last_requests = figures.requests;
    run->last_progress = now;
    run->next_progress += PROGRESS_EVERY_US;
}

/* What falls due at `now` besides the players: timeouts, the WAL's size,
 * sokod's memory, the progress line. */
static void tick(struct run *run, uint64_t now)
{
    if (now >= run->next_check) {
        net_check_timeouts(now);
        run->next_check = now + 250000u;
    }
    if (now >= run->next_wal) {
        long long w = bench_sokod_file_size(&soak_sokod, "sokod.db-wal");
        run->wal_max = w > run->wal_max ? w : run->wal_max;
        run->next_wal = now + WAL_EVERY_US;
    }
    if (now >= run->next_rss) {
        run->use = bench_sokod_usage(&soak_sokod);
        if (run->nrss < run->max_samples)
            run->rss[run->nrss++] = (struct rss_sample){now - run->t0, run->use.rss_kb};
        figures_watch_cache(now - run->t0);
        run->next_rss += RSS_EVERY_US;
    }
    if (now >= run->next_progress)
        print_progress(run, now);
}

/* Plays until the end (or a signal), then waits up to ANSWER_TIMEOUT_US for
 * the requests still out. */
static void play_run(struct run *run)
{
    struct epoll_event evs[512];
    bool draining = false;
    uint64_t drain_end = 0;
    for (;;) {
        uint64_t now = bench_env_now_us();
        if (!draining && (now >= run->end || interrupted)) {
            draining = true;
            drain_end = now + ANSWER_TIMEOUT_US;
        }
        if (draining) {
            bool any = false;
            for (unsigned i = 0; i < soak_nplayers && !any; i++)
                any = player_list[i].busy;
            if (!any || now >= drain_end)
                break;
        }
        /* Due players act, unless a request of theirs is still out. */
        while (!draining && player_heap_len > 0 && player_heap[0]->wake <= now) {
            struct player *p = player_next_due();
            if (!p->busy)
                player_act(p, now);
        }
        tick(run, now);
        int timeout = 100;
        if (!draining && player_heap_len > 0) {
            uint64_t due = player_heap[0]->wake > now ? player_heap[0]->wake - now : 0;
            timeout = due / 1000 < 100 ? (int)(due / 1000) : 100;
        }
        int n = epoll_wait(net_epfd, evs, 512, timeout);
        for (int i = 0; i < n; i++)
            net_event(evs[i].data.ptr, evs[i].events);
    }
}

/* Prints sokod's CPU time and its database's size, while it still runs and
 * once stopped (which checkpoints the WAL): stops it. */
static void print_sokod(const struct run *run, double secs)
{
    long long db = run->db_end, wal = run->wal_end;
    long hz = sysconf(_SC_CLK_TCK);
    double cpu = cpu_seconds(&run->use0, &run->use);
    printf("sokod CPU: %.1f s user + %.1f s system = %.1f s over %.0f s (%.0f%% of one core); "
           "%.0f us per request\n",
           (double)(run->use.utime - run->use0.utime) / (double)hz,
           (double)(run->use.stime - run->use0.stime) / (double)hz, cpu, secs, cpu / secs * 100.0,
           figures.requests > 0 ? cpu * 1e6 / (double)figures.requests : 0.0);
    printf("database: sokod.db %.1f MiB + WAL %.1f MiB = %.1f MiB at the end; %.1f MiB per "
           "1,000,000 log entries (extrapolated from %lu); WAL at most %.1f MiB (sampled every "
           "second)\n",
           figures_mib(db), figures_mib(wal), figures_mib(db + wal),
           figures.entries > 0 ? figures_mib(db + wal) / (double)figures.entries * 1e6 : 0.0,
           figures.entries, figures_mib(run->wal_max));
    stop_server();
    long long db_stopped = bench_sokod_file_size(&soak_sokod, "sokod.db") +
                           bench_sokod_file_size(&soak_sokod, "sokod.db-wal");
    printf("after sokod stopped (WAL checkpointed): sokod.db %.1f MiB, WAL %.1f MiB; growth since "
           "the start (%.1f MiB of library): %.1f MiB, %.1f MiB per 1,000,000 log entries\n",
           figures_mib(bench_sokod_file_size(&soak_sokod, "sokod.db")),
           figures_mib(bench_sokod_file_size(&soak_sokod, "sokod.db-wal")),
           figures_mib(run->db_start), figures_mib(db_stopped - run->db_start),
           figures.entries > 0
               ? figures_mib(db_stopped - run->db_start) / (double)figures.entries * 1e6
               : 0.0);
}

int main(void)
{
    setup_process();
    atexit(cleanup);
    start_server();
    library_read();
    if (interrupted)
        soak_fail("interrupted while starting");
    print_start();

    struct run run = {.max_samples = run_seconds / 10 + 8};
    net_epfd = epoll_create1(EPOLL_CLOEXEC);
    run.rss = calloc(run.max_samples, sizeof *run.rss);
    if (net_epfd < 0 || run.rss == NULL)
        soak_fail("out of memory");
    run.t0 = bench_env_now_us();
    run.end = run.t0 + (uint64_t)run_seconds * 1000000u;
    start_players(run.t0);
    /* The library alone: what the database holds before anyone plays. */
    run.db_start = bench_sokod_file_size(&soak_sokod, "sokod.db") +
                   bench_sokod_file_size(&soak_sokod, "sokod.db-wal");
    run.use0 = run.use = bench_sokod_usage(&soak_sokod);
    run.rss[run.nrss++] = (struct rss_sample){0, run.use0.rss_kb};
    run.next_rss = run.t0 + RSS_EVERY_US;
    run.next_wal = run.next_check = run.last_progress = run.t0;
    run.next_progress = run.t0 + PROGRESS_EVERY_US;
    play_run(&run);

    uint64_t wall = bench_env_now_us() - run.t0;
    if (interrupted)
        printf("interrupted after %.0f s: the figures so far\n", (double)wall / 1e6);
    /* Figures of the server while it still runs. */
    run.use = bench_sokod_usage(&soak_sokod);
    if (run.nrss < run.max_samples)
        run.rss[run.nrss++] = (struct rss_sample){wall, run.use.rss_kb};
    run.db_end = bench_sokod_file_size(&soak_sokod, "sokod.db");
    run.wal_end = bench_sokod_file_size(&soak_sokod, "sokod.db-wal");
    run.wal_max = run.wal_end > run.wal_max ? run.wal_end : run.wal_max;
    for (unsigned i = 0; i < soak_nplayers; i++) {
        net_close(&player_list[i].api);
        net_close(&player_list[i].feed);
    }
    double secs = (double)wall / 1e6;
    figures_print_run(secs);
    figures_print_memory(run.rss, run.nrss);
    free(run.rss);
    print_sokod(&run, secs);
    figures_print_sokod_log();
    print_load("after");
    cleanup();
    return 0;
}
