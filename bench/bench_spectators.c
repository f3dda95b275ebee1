/* One race room, many spectators: how long a step takes from the moment
 * the player's request is answered (the step is committed) to its arrival
 * on every spectator's event stream, and what the server spends meanwhile.
 *
 * Starts the sokod beside this program (../sokod) on a free loopback port
 * with a fresh database in a temporary folder, opens a room on a level of
 * its own, connects the spectators (anonymous GET /api/v1/events?room=ID),
 * starts the race and has its player step 10 times a second. Prints the
 * median and 99th percentile of the delivery delay over every (step,
 * spectator) pair, the same for the last spectator of each step, and the
 * server's resident memory and CPU while stepping. An event may reach a
 * spectator before the answer reaches the player (both leave once the step
 * is committed): such deliveries count as 0 ms, and the delay from sending
 * the step is printed too.
 *
 * Settings: BENCH_SPECTATORS (1000), BENCH_SPECTATORS_SECONDS (20),
 * BENCH_SPECTATORS_RATE (10 steps a second). */
#include "bench_env.h"
#include "bench_http.h"
#include "bench_json.h"
#include "bench_sokod.h"

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <unistd.h>

/* A level where stepping right and left never ends the race. */
static const char LEVEL[] = "Collection: bench\n\n; Open\n#######\n#@    #\n#  $. #\n#######\n";

static struct bench_sokod sokod = {.pid = -1};
static unsigned port;

static void stop_server(void)
{
    bench_sokod_remove(&sokod);
}

static void fail(const char *what)
{
    fprintf(stderr, "bench_spectators: %s\n", what);
    stop_server();
    exit(1);
}

/* Starts sokod with the benchmark's level; sets port. */
static void start_server(void)
{
    char why[PATH_MAX + 128], path[PATH_MAX + 32];
    if (!bench_sokod_prepare(&sokod, "spectators", why, sizeof why))
        fail(why);
    snprintf(path, sizeof path, "%s/bench.sok", sokod.levels);
    FILE *f = fopen(path, "w");
    if (f == NULL || fputs(LEVEL, f) < 0 || fclose(f) != 0)
        fail("cannot write the level");
    if (!bench_sokod_run(&sokod, why, sizeof why))
        fail(why);
    port = sokod.port;
}

static int connect_server(void)
{
    int fd = bench_http_connect(port);
    if (fd < 0)
        fail("cannot connect to sokod");
    return fd;
}

/* One request of the player, which must answer `want`: returns the answer
 * parsed (json_decref). Exits with the answer when it is anything else. */
static json_t *player_request(struct bench_http_client *player, const char *method,
                              const char *path, const char *json, int want)
{
    char *body;
    int status = bench_http_request(player, method, path, json, &body);
    json_t *doc = status == want ? bench_json_parse(body) : NULL;
    if (doc == NULL)
        fail(status < 0 ? "the connection closed" : body);
    free(body);
    return doc;
}

/* The spectators and what they saw: arrival[step * nspec + i]. */
struct spectator {
    int fd;
    bool ready; /* its stream said "ready": it follows the room */
    struct bench_http_stream stream;
};
static unsigned nspec, nsteps;
static struct spectator *specs;
static uint64_t *arrival;
static uint64_t *acked;
static uint64_t *sent;
static volatile bool watching = true;

/* Whose event it is, and when the bytes that hold it were read. */
struct reading {
    unsigned spectator;
    uint64_t at;
};

/* Notes the arrival of each race step by its seq, and the ready event. */
static void on_event(void *arg, const struct bench_http_event *e)
{
    const struct reading *r = arg;
    if (e->type != NULL && strcmp(e->type, "ready") == 0)
        specs[r->spectator].ready = true;
    if (e->type == NULL || strcmp(e->type, "race_step") != 0)
        return;
    json_t *doc = bench_json_parse(e->data);
    long seq = bench_json_long(doc, "seq", 0);
    json_decref(doc);
    size_t at = (size_t)(seq - 1) * nspec + r->spectator;
    if (seq >= 1 && (unsigned long)seq <= nsteps && arrival[at] == 0)
        arrival[at] = r->at;
}

/* Reads what spectator i's stream holds, read at `at`. False when the
 * stream closed, broke, or was refused. */
static bool spectator_read(unsigned i, uint64_t at)
{
    char buf[16384];
    ssize_t n = read(specs[i].fd, buf, sizeof buf);
    if (n <= 0)
        return false;
    struct reading r = {i, at};
    struct bench_http_stream *s = &specs[i].stream;
    int taken = bench_http_stream_take(s, buf, (size_t)n, on_event, &r);
    return taken == 0 || (taken > 0 && s->head.status == 200);
}

static void *watch_main(void *unused)
{
    (void)unused;
    int ep = epoll_create1(0);
    for (unsigned i = 0; i < nspec; i++) {
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = i};
        epoll_ctl(ep, EPOLL_CTL_ADD, specs[i].fd, &ev);
    }
    struct epoll_event evs[256];
    while (watching) {
        int n = epoll_wait(ep, evs, 256, 100);
        uint64_t at = bench_env_now_us();
        for (int k = 0; k < n; k++)
            spectator_read(evs[k].data.u32, at);
    }
    close(ep);
    return NULL;
}

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    nspec = bench_env_unsigned("BENCH_SPECTATORS", 1000);
    unsigned seconds = bench_env_unsigned("BENCH_SPECTATORS_SECONDS", 20);
    unsigned rate = bench_env_unsigned("BENCH_SPECTATORS_RATE", 10);
    nsteps = seconds * rate;
    signal(SIGPIPE, SIG_IGN);
    struct rlimit lim;
    if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < nspec + 64) {
        lim.rlim_cur = lim.rlim_max < nspec + 64 ? lim.rlim_max : nspec + 64;
        setrlimit(RLIMIT_NOFILE, &lim);
    }
    /* Every spectator comes from 127.0.0.1: the caps per address would
     * count them as one client (the environment may still set them). */
    setenv("SOKOD_CONNECTIONS_PER_ADDRESS", "1000000", 0);
    setenv("SOKOD_STREAMS_PER_ADDRESS", "1000000", 0);
    start_server();
    atexit(stop_server);

    char path[128], json[128];
    struct bench_http_client player = bench_http_client(port);
    json_t *doc = player_request(&player, "POST", "/api/v1/rooms", "{\"level\":\"random\"}", 201);
    long room = bench_json_long(doc, "room.id", -1);
    long user = bench_json_long(doc, "you.user_id", -1);
    json_decref(doc);
    long rss_idle = bench_sokod_usage(&sokod).rss_kb;

    /* The spectators, in batches so the listen queue never overflows. */
    specs = calloc(nspec, sizeof *specs);
    arrival = calloc((size_t)nsteps * nspec, sizeof *arrival);
    acked = calloc(nsteps, sizeof *acked);
    sent = calloc(nsteps, sizeof *sent);
    if (specs == NULL || arrival == NULL || acked == NULL || sent == NULL)
        fail("out of memory");
    char get[256];
    int glen = snprintf(get, sizeof get,
                        "GET /api/v1/events?room=%ld HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        "Accept: text/event-stream\r\n\r\n",
                        room);
    for (unsigned i = 0; i < nspec; i++) {
        specs[i].fd = connect_server();
        if (write(specs[i].fd, get, (size_t)glen) != glen)
            fail("cannot ask for a stream");
        while (!specs[i].ready) {
            if (!spectator_read(i, 0))
                fail("a stream closed or was refused before it was ready");
        }
    }
    long rss_watched = bench_sokod_usage(&sokod).rss_kb;

    pthread_t watcher;
    if (pthread_create(&watcher, NULL, watch_main, NULL) != 0)
        fail("cannot start the watching thread");
    snprintf(path, sizeof path, "/api/v1/rooms/%ld/start", room);
    doc = player_request(&player, "POST", path, "{}", 200);
    long wait_ms = bench_json_long(doc, "room.starts_in_ms", -1);
    long game =
        bench_json_long(bench_json_find(doc, "room.players", "user_id", user), "game_id", -1);
    json_decref(doc);
    if (game <= 0)
        fail("the race gave the player no game");
    usleep((useconds_t)(wait_ms + 50) * 1000u);

    snprintf(path, sizeof path, "/api/v1/games/%ld/log", game);
    struct bench_sokod_usage start = bench_sokod_usage(&sokod);
    uint64_t t0 = bench_env_now_us(), period = 1000000u / rate;
    for (unsigned s = 0; s < nsteps; s++) {
        uint64_t due = t0 + (uint64_t)s * period, t = bench_env_now_us();
        if (due > t)
            usleep((useconds_t)(due - t));
        snprintf(json, sizeof json, "{\"seq\":%u,\"steps\":\"%c\"}", s + 1, s % 2 == 0 ? 'r' : 'l');
        sent[s] = bench_env_now_us();
        char *body;
        int status = bench_http_request(&player, "POST", path, json, &body);
        acked[s] = bench_env_now_us();
        if (status != 200)
            fail(status < 0 ? "the connection closed" : body);
        free(body);
    }
    uint64_t wall = bench_env_now_us() - t0;
    struct bench_sokod_usage end = bench_sokod_usage(&sokod);
    usleep(500000); /* the last events' way to the last spectators */
    watching = false;
    pthread_join(watcher, NULL);

    /* Delays over every (step, spectator) pair, and per step to its last spectator. */
    size_t pairs = (size_t)nsteps * nspec, got = 0, early = 0;
    uint64_t *all = malloc(pairs * sizeof *all), *last = malloc(nsteps * sizeof *last);
    uint64_t *from_send = malloc(pairs * sizeof *from_send),
             *answer = malloc(nsteps * sizeof *answer);
    if (all == NULL || last == NULL || from_send == NULL || answer == NULL)
        fail("out of memory");
    for (unsigned s = 0; s < nsteps; s++)
        answer[s] = acked[s] - sent[s];
    unsigned complete = 0;
    for (unsigned s = 0; s < nsteps; s++) {
        uint64_t worst = 0;
        bool every = true;
        for (unsigned i = 0; i < nspec; i++) {
            uint64_t a = arrival[(size_t)s * nspec + i];
            if (a == 0) {
                every = false;
                continue;
            }
            /* An event can beat the answer to its own request: both leave
             * after the commit, on different connections. */
            uint64_t d = a > acked[s] ? a - acked[s] : 0;
            early += a <= acked[s];
            from_send[got] = a - sent[s];
            all[got++] = d;
            if (d > worst)
                worst = d;
        }
        if (every)
            last[complete++] = worst;
    }
    qsort(all, got, sizeof *all, by_value);
    qsort(last, complete, sizeof *last, by_value);
    qsort(from_send, got, sizeof *from_send, by_value);
    qsort(answer, nsteps, sizeof *answer, by_value);
    long hz = sysconf(_SC_CLK_TCK);
    double cpu = (double)(end.utime + end.stime - start.utime - start.stime) / (double)hz /
                 ((double)wall / 1e6) * 100.0;
    printf("spectators: %u, steps: %u at %u a second, deliveries: %zu of %zu (%zu before the "
           "answer)\n",
           nspec, nsteps, rate, got, pairs, early);
    if (got > 0)
        printf("ack -> spectator, every delivery: median %.2f ms, p99 %.2f ms, max %.2f ms\n",
               (double)all[got / 2] / 1000.0, (double)all[(size_t)((double)got * 0.99)] / 1000.0,
               (double)all[got - 1] / 1000.0);
    if (got > 0)
        printf("step sent -> spectator: median %.2f ms, p99 %.2f ms; step sent -> answer: median "
               "%.2f ms, p99 %.2f ms\n",
               (double)from_send[got / 2] / 1000.0,
               (double)from_send[(size_t)((double)got * 0.99)] / 1000.0,
               (double)answer[nsteps / 2] / 1000.0,
               (double)answer[(size_t)((double)nsteps * 0.99)] / 1000.0);
    if (complete > 0)
        printf("ack -> last spectator of a step: median %.2f ms, p99 %.2f ms (%u complete steps)\n",
               (double)last[complete / 2] / 1000.0,
               (double)last[(size_t)((double)complete * 0.99)] / 1000.0, complete);
    printf("server RSS: %ld kB idle, %ld kB with the spectators, %ld kB after stepping\n", rss_idle,
           rss_watched, end.rss_kb);
    printf("server CPU while stepping: %.1f%% of one core\n", cpu);
    /* Figures taken on a busy machine say little: say how busy it was. */
    char avg[128];
    bench_env_load(avg, sizeof avg);
    printf("load average: %s\n", avg);
    free(from_send);
    free(answer);
    free(all);
    free(last);
    for (unsigned i = 0; i < nspec; i++)
        close(specs[i].fd);
    bench_http_close(&player);
    return 0;
}
