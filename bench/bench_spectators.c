/* One race room, many spectators: how long a step takes from the moment
 * the player's request is answered (the step is committed) to its arrival
 * on every spectator's event stream, and what the servers spend meanwhile.
 *
 * By default it starts the sokod beside this program (../sokod) on a free
 * loopback port with a fresh database in a temporary folder, opens a room
 * on a level of its own, connects the spectators (anonymous GET
 * /api/v1/events?room=ID), starts the race and has its player step 10
 * times a second. Prints the median and 99th percentile of the delivery
 * delay over every (step, spectator) pair, the same for the last spectator
 * of each step, and each server's resident memory and CPU while stepping.
 * An event may reach a spectator before the answer reaches the player
 * (both leave once the step is committed): such deliveries count as 0 ms,
 * and the delay from sending the step is printed too.
 *
 * Or it uses servers already running on loopback (bench_spectators_nodes.sh
 * starts two nodes on PostgreSQL and HAProxy): the player steps on the
 * port BENCH_SPECTATORS_PLAYER_PORT, whose levels must hold a level that
 * "r" then "l" from the start walks without end; the spectators connect in
 * turn to the ports of BENCH_SPECTATORS_AT ("a=PORT b=PORT", or
 * "haproxy=PORT"), and each counts under the node that answered it: the
 * value of an X-Sokod-Node header of its answer (a proxy in front may add
 * one), else the name of its port. The figures are printed over all
 * spectators and per node. BENCH_SPECTATORS_PROCESSES ("a=PID b=PID
 * haproxy=PID") names the processes whose memory and CPU are read: memory
 * per spectator is what the process grew by while the spectators
 * connected, over the spectators of the node of its name (over all of
 * them for a name no spectator counts under, as a proxy's); CPU per
 * spectator is its CPU time while stepping, over the steps and those same
 * spectators.
 *
 * Settings: BENCH_SPECTATORS (1000), BENCH_SPECTATORS_SECONDS (20),
 * BENCH_SPECTATORS_RATE (10 steps a second), and the three above. */
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
static unsigned port; /* the player's */

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

/* A name and a number, as "a=PORT" or "haproxy=PID" reads. */
#define MAX_NAMED 16
struct named {
    char name[32];
    long value;
};

/* Reads the pairs "NAME=NUMBER ..." of the environment variable `var` into
 * out; returns how many. Exits on a malformed one. */
static unsigned read_named(const char *var, struct named *out)
{
    const char *text = getenv(var);
    unsigned n = 0;
    while (text != NULL && *text != '\0') {
        text += strspn(text, " \t");
        size_t len = strcspn(text, " \t");
        if (len == 0)
            break;
        const char *eq = memchr(text, '=', len);
        char *end;
        if (n == MAX_NAMED || eq == NULL || eq == text || (size_t)(eq - text) >= sizeof out->name)
            fail("a setting's pairs are NAME=NUMBER, at most 16");
        memcpy(out[n].name, text, (size_t)(eq - text));
        out[n].name[eq - text] = '\0';
        out[n].value = strtol(eq + 1, &end, 10);
        if (end != text + len || out[n].value <= 0)
            fail("a setting's pairs are NAME=NUMBER, at most 16");
        n++;
        text += len;
    }
    return n;
}

/* Where the spectators connect, in turn, and the processes read. */
static struct named places[MAX_NAMED], watched[MAX_NAMED];
static unsigned nplaces, nwatched;

/* The nodes the spectators count under: a place's name, or the value of
 * an X-Sokod-Node header. */
static char nodes[MAX_NAMED][32];
static unsigned nnodes;

static unsigned node_index(const char *name, size_t len)
{
    if (len >= sizeof nodes[0])
        len = sizeof nodes[0] - 1;
    for (unsigned k = 0; k < nnodes; k++) {
        if (strlen(nodes[k]) == len && memcmp(nodes[k], name, len) == 0)
            return k;
    }
    if (nnodes == MAX_NAMED)
        fail("more than 16 nodes");
    memcpy(nodes[nnodes], name, len);
    nodes[nnodes][len] = '\0';
    return nnodes++;
}

static int connect_to(unsigned to)
{
    int fd = bench_http_connect(to);
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
    if (doc == NULL) {
        char why[512];
        snprintf(why, sizeof why, "%s %s: %s", method, path,
                 status < 0 ? "the connection closed" : body);
        fail(why);
    }
    free(body);
    return doc;
}

/* The spectators and what they saw: arrival[step * nspec + i]. */
struct spectator {
    int fd;
    bool ready;    /* its stream said "ready": it follows the room */
    bool named;    /* its node is known */
    unsigned node; /* in nodes[] */
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

/* Notes the arrival of each race step by its seq, and the ready event.
 * The seq is found without parsing the whole event: with thousands of
 * streams, this program shares the machine with the servers it measures. */
static void on_event(void *arg, const struct bench_http_event *e)
{
    const struct reading *r = arg;
    if (e->type != NULL && strcmp(e->type, "ready") == 0)
        specs[r->spectator].ready = true;
    if (e->type == NULL || strcmp(e->type, "race_step") != 0)
        return;
    const char *at_seq = strstr(e->data, "\"seq\":");
    long seq = at_seq != NULL ? strtol(at_seq + 6, NULL, 10) : 0;
    size_t at = (size_t)(seq - 1) * nspec + r->spectator;
    if (seq >= 1 && (unsigned long)seq <= nsteps && arrival[at] == 0)
        arrival[at] = r->at;
}

/* Reads what spectator i's stream holds, read at `at`. False when the
 * stream closed, broke, or was refused. Before the answer's head is read,
 * an X-Sokod-Node header in it names the spectator's node. */
static bool spectator_read(unsigned i, uint64_t at)
{
    char buf[16384];
    ssize_t n = read(specs[i].fd, buf, sizeof buf - 1);
    if (n <= 0)
        return false;
    struct bench_http_stream *s = &specs[i].stream;
    if (s->head.size == 0) {
        buf[n] = '\0';
        const char *h = strcasestr(buf, "\r\nX-Sokod-Node:");
        if (h != NULL) {
            h += strlen("\r\nX-Sokod-Node:");
            h += strspn(h, " ");
            specs[i].node = node_index(h, strcspn(h, " \r\n"));
            specs[i].named = true;
        }
    }
    struct reading r = {i, at};
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

/* The value at fraction q of the n sorted values v, in milliseconds. */
static double at_ms(const uint64_t *v, size_t n, double q)
{
    size_t k = (size_t)((double)n * q);
    return (double)v[k < n ? k : n - 1] / 1000.0;
}

/* The delays of the spectators of node `node` (all of them for -1), from
 * the player's answer: every (step, spectator) pair, and per step the
 * last of them. */
struct delays {
    unsigned spectators, complete;
    size_t got, early;
    uint64_t *all, *last, *from_send;
};

static struct delays delays_of(int node)
{
    struct delays d = {0};
    size_t pairs = (size_t)nsteps * nspec;
    d.all = malloc(pairs * sizeof *d.all);
    d.last = malloc(nsteps * sizeof *d.last);
    d.from_send = malloc(pairs * sizeof *d.from_send);
    if (d.all == NULL || d.last == NULL || d.from_send == NULL)
        fail("out of memory");
    for (unsigned i = 0; i < nspec; i++)
        d.spectators += node < 0 || specs[i].node == (unsigned)node;
    for (unsigned s = 0; s < nsteps; s++) {
        uint64_t worst = 0;
        bool every = true;
        for (unsigned i = 0; i < nspec; i++) {
            if (node >= 0 && specs[i].node != (unsigned)node)
                continue;
            uint64_t a = arrival[(size_t)s * nspec + i];
            if (a == 0) {
                every = false;
                continue;
            }
            /* An event can beat the answer to its own request: both leave
             * after the commit, on different connections. */
            uint64_t delay = a > acked[s] ? a - acked[s] : 0;
            d.early += a <= acked[s];
            d.from_send[d.got] = a - sent[s];
            d.all[d.got++] = delay;
            if (delay > worst)
                worst = delay;
        }
        if (every && d.spectators > 0)
            d.last[d.complete++] = worst;
    }
    qsort(d.all, d.got, sizeof *d.all, by_value);
    qsort(d.last, d.complete, sizeof *d.last, by_value);
    qsort(d.from_send, d.got, sizeof *d.from_send, by_value);
    return d;
}

static void delays_free(struct delays *d)
{
    free(d->all);
    free(d->last);
    free(d->from_send);
}

/* The spectators counted under the process named `name`: those of the node
 * of that name, or all of them when none is. */
static unsigned spectators_of(const char *name)
{
    unsigned n = 0;
    for (unsigned i = 0; i < nspec; i++)
        n += strcmp(nodes[specs[i].node], name) == 0;
    return n > 0 ? n : nspec;
}

/* What each process read used, at four moments: idle (the room made),
 * with the spectators connected, at the start and at the end of the
 * stepping. */
enum moment { IDLE, WITH, START, END, MOMENTS };
static struct bench_sokod_usage usages[MAX_NAMED][MOMENTS];

static void read_usages(enum moment m)
{
    for (unsigned k = 0; k < nwatched; k++)
        usages[k][m] = bench_process_usage((pid_t)watched[k].value);
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
    if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < nspec + 64)
        fail("too few open files for the spectators (ulimit -n)");
    nplaces = read_named("BENCH_SPECTATORS_AT", places);
    nwatched = read_named("BENCH_SPECTATORS_PROCESSES", watched);
    port = bench_env_unsigned("BENCH_SPECTATORS_PLAYER_PORT", 0);
    if (port == 0) {
        /* Every spectator comes from 127.0.0.1: the caps per address would
         * count them as one client, and the caps over the server are below
         * a large count (the environment may still set them). */
        char cap[32];
        setenv("SOKOD_CONNECTIONS_PER_ADDRESS", "1000000", 0);
        setenv("SOKOD_STREAMS_PER_ADDRESS", "1000000", 0);
        snprintf(cap, sizeof cap, "%u", nspec + 256);
        setenv("SOKOD_MAX_STREAMS", cap, 0);
        snprintf(cap, sizeof cap, "%u", nspec + 512);
        setenv("SOKOD_MAX_CONNECTIONS", cap, 0);
        start_server();
        atexit(stop_server);
        snprintf(watched[0].name, sizeof watched[0].name, "sokod");
        watched[0].value = sokod.pid;
        nwatched = 1;
    }
    if (nplaces == 0) {
        snprintf(places[0].name, sizeof places[0].name, "sokod");
        places[0].value = port;
        nplaces = 1;
    }

    char path[128], json[128];
    struct bench_http_client player = bench_http_client(port);
    json_t *doc = player_request(&player, "POST", "/api/v1/rooms", "{\"level\":\"random\"}", 201);
    long room = bench_json_long(doc, "room.id", -1);
    long user = bench_json_long(doc, "you.user_id", -1);
    json_decref(doc);
    read_usages(IDLE);

    /* The spectators, in turn at each place, one after another so the
     * listen queues never overflow. */
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
    uint64_t connecting = bench_env_now_us();
    for (unsigned i = 0; i < nspec; i++) {
        const struct named *at = &places[i % nplaces];
        specs[i].fd = connect_to((unsigned)at->value);
        if (write(specs[i].fd, get, (size_t)glen) != glen)
            fail("cannot ask for a stream");
        while (!specs[i].ready) {
            if (!spectator_read(i, 0)) {
                char why[160];
                snprintf(why, sizeof why,
                         "stream %u of %u (at %s) closed or was refused before it was ready", i + 1,
                         nspec, at->name);
                fail(why);
            }
        }
        if (!specs[i].named)
            specs[i].node = node_index(at->name, strlen(at->name));
    }
    connecting = bench_env_now_us() - connecting;
    /* That may have taken longer than sokod keeps an idle connection. */
    bench_http_close(&player);
    read_usages(WITH);

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
    read_usages(START);
    struct rusage self_start, self_end;
    getrusage(RUSAGE_SELF, &self_start);
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
        if (status != 200) {
            char why[512];
            snprintf(why, sizeof why, "step %u of %u: %s", s + 1, nsteps,
                     status < 0 ? "the connection closed" : body);
            fail(why);
        }
        free(body);
    }
    uint64_t wall = bench_env_now_us() - t0;
    read_usages(END);
    getrusage(RUSAGE_SELF, &self_end);
    usleep(500000); /* the last events' way to the last spectators */
    watching = false;
    pthread_join(watcher, NULL);

    uint64_t *answer = malloc(nsteps * sizeof *answer);
    if (answer == NULL)
        fail("out of memory");
    for (unsigned s = 0; s < nsteps; s++)
        answer[s] = acked[s] - sent[s];
    qsort(answer, nsteps, sizeof *answer, by_value);
    struct delays d = delays_of(-1);
    printf("spectators: %u (connected in %.1f s), steps: %u at %u a second, deliveries: %zu of "
           "%zu (%zu before the answer)\n",
           nspec, (double)connecting / 1e6, nsteps, rate, d.got, (size_t)nsteps * nspec, d.early);
    if (d.got > 0)
        printf("ack -> spectator, every delivery: median %.2f ms, p99 %.2f ms, max %.2f ms\n",
               at_ms(d.all, d.got, 0.5), at_ms(d.all, d.got, 0.99), at_ms(d.all, d.got, 1));
    if (d.got > 0)
        printf("step sent -> spectator: median %.2f ms, p99 %.2f ms; step sent -> answer: median "
               "%.2f ms, p99 %.2f ms\n",
               at_ms(d.from_send, d.got, 0.5), at_ms(d.from_send, d.got, 0.99),
               at_ms(answer, nsteps, 0.5), at_ms(answer, nsteps, 0.99));
    if (d.complete > 0)
        printf("ack -> last spectator of a step: median %.2f ms, p99 %.2f ms (%u complete steps)\n",
               at_ms(d.last, d.complete, 0.5), at_ms(d.last, d.complete, 0.99), d.complete);
    delays_free(&d);
    for (unsigned k = 0; nnodes > 1 && k < nnodes; k++) {
        d = delays_of((int)k);
        printf("node %s, %u spectators: every delivery median %.2f ms, p99 %.2f ms; last of a "
               "step median %.2f ms, p99 %.2f ms (%u complete steps); deliveries %zu of %zu\n",
               nodes[k], d.spectators, d.got > 0 ? at_ms(d.all, d.got, 0.5) : -1,
               d.got > 0 ? at_ms(d.all, d.got, 0.99) : -1,
               d.complete > 0 ? at_ms(d.last, d.complete, 0.5) : -1,
               d.complete > 0 ? at_ms(d.last, d.complete, 0.99) : -1, d.complete, d.got,
               (size_t)nsteps * d.spectators);
        delays_free(&d);
    }
    long hz = sysconf(_SC_CLK_TCK);
    for (unsigned k = 0; k < nwatched; k++) {
        const struct bench_sokod_usage *u = usages[k];
        unsigned n = spectators_of(watched[k].name);
        double ticks = (double)(u[END].utime + u[END].stime - u[START].utime - u[START].stime);
        double cpu_s = ticks / (double)hz;
        printf("%s (%u spectators): RSS %ld kB idle, %ld kB with the spectators (%.1f kB a "
               "spectator), %ld kB after stepping; CPU while stepping %.1f%% of one core, %.2f us "
               "a step per spectator\n",
               watched[k].name, n, u[IDLE].rss_kb, u[WITH].rss_kb,
               (double)(u[WITH].rss_kb - u[IDLE].rss_kb) / n, u[END].rss_kb,
               cpu_s / ((double)wall / 1e6) * 100.0, cpu_s * 1e6 / nsteps / n);
    }
    /* This program reads every event on the same machine: when it is
     * busy, so are the delays it measures. */
    double self_s = (double)(self_end.ru_utime.tv_sec + self_end.ru_stime.tv_sec -
                             self_start.ru_utime.tv_sec - self_start.ru_stime.tv_sec) +
                    (double)(self_end.ru_utime.tv_usec + self_end.ru_stime.tv_usec -
                             self_start.ru_utime.tv_usec - self_start.ru_stime.tv_usec) /
                        1e6;
    printf("this client: CPU while stepping %.1f%% of one core\n",
           self_s / ((double)wall / 1e6) * 100.0);
    /* Figures taken on a busy machine say little: say how busy it was. */
    char avg[128];
    bench_env_load(avg, sizeof avg);
    printf("load average: %s\n", avg);
    free(answer);
    for (unsigned i = 0; i < nspec; i++)
        close(specs[i].fd);
    bench_http_close(&player);
    return 0;
}
