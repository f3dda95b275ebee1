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
#include "bench_env.h"
#include "bench_http.h"
#include "bench_json.h"
#include "bench_sokod.h"
#include "reader.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------------------
 * Settings and the level of this benchmark
 * ------------------------------------------------------------------------- */

/* An open floor: the player walks anywhere in columns 1 to 8 of rows 1 to 4
 * without touching the box, which stands on row 5 beside its goal. */
static const char WALK_FILE[] = "Collection: Soak\n\n; Open floor\n##########\n#@       #\n"
                                "#        #\n#        #\n#        #\n#   $.   #\n##########\n";
enum { WALK_X0 = 1, WALK_X1 = 8, WALK_Y0 = 1, WALK_Y1 = 4 };

#define THINK_MIN_MS 100
#define THINK_MAX_MS 500
#define ANSWER_TIMEOUT_US 10000000u
#define STREAM_SILENCE_US 40000000u /* three heartbeats missed */
#define RAMP_MAX_S 30
#define PROGRESS_EVERY_US 30000000u
#define RSS_EVERY_US 10000000u
#define WAL_EVERY_US 1000000u
#define WARMUP_US 60000000u
/* What sokod says once its game cache holds all the games it keeps: from
 * then on its memory has no reason to grow with new games. */
#define CACHE_FULL "sokod: the game cache is full"
#define PERCENT_RACERS 5
#define PERCENT_TWO_TABS 5
#define PERCENT_SPECTATORS 2
#define PERCENT_SIGNERS 10
#define MAX_TUTORIAL 32
#define MAX_LOBBIES 512

static unsigned nplayers, run_seconds, session_seconds, seed;

/* ---------------------------------------------------------------------------
 * The server: started here, stopped and its folder removed on every exit
 * ------------------------------------------------------------------------- */

static struct bench_sokod sokod = {.pid = -1};
static unsigned port;
static volatile sig_atomic_t interrupted;

static void stop_server(void)
{
    bench_sokod_stop(&sokod);
}

static void cleanup(void)
{
    bench_sokod_remove(&sokod);
}

static void fail(const char *fmt, ...)
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

/* The levels folder: the checkout's bundled files (linked, not copied) and
 * the open floor of this benchmark. */
static void make_levels(const char *levels)
{
    DIR *d = opendir(SOKOD_SOURCE_DIR "/levels");
    if (d == NULL)
        fail("cannot read %s/levels", SOKOD_SOURCE_DIR);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".sok") != 0)
            continue;
        char from[PATH_MAX + 512], to[2 * PATH_MAX];
        snprintf(from, sizeof from, "%s/levels/%s", SOKOD_SOURCE_DIR, e->d_name);
        snprintf(to, sizeof to, "%s/%s", levels, e->d_name);
        if (symlink(from, to) != 0)
            fail("cannot link %s", to);
    }
    closedir(d);
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/soak.sok", levels);
    FILE *f = fopen(path, "w");
    if (f == NULL || fputs(WALK_FILE, f) < 0 || fclose(f) != 0)
        fail("cannot write %s", path);
}

static void start_server(void)
{
    char why[PATH_MAX + 128];
    if (!bench_sokod_prepare(&sokod, "soak", why, sizeof why))
        fail("%s", why);
    make_levels(sokod.levels);
    if (!bench_sokod_run(&sokod, why, sizeof why))
        fail("%s (the folder is removed)", why);
    port = sokod.port;
}

/* ---------------------------------------------------------------------------
 * Figures: latencies per route, errors by kind, counters
 * ------------------------------------------------------------------------- */

enum route {
    RT_ACCOUNT,
    RT_SIGNUP,
    RT_LOGIN,
    RT_LOGOUT,
    RT_COLLECTIONS,
    RT_COLLECTION,
    RT_LEVEL,
    RT_OPEN,
    RT_GAME,
    RT_LOG,
    RT_WALK,
    RT_PROGRESS,
    RT_LEADERBOARD,
    RT_ROOMS,
    RT_ROOM_CREATE,
    RT_ROOM,
    RT_ROOM_JOIN,
    RT_ROOM_LEAVE,
    RT_ROOM_START,
    RT_EVENTS,
    RT_COUNT
};

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

static void record_latency(enum route r, uint64_t us)
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
static unsigned long errors_total, errors_other_kinds;

static void count_error(enum route r, const char *what, const char *example)
{
    errors_total++;
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

static struct {
    unsigned long requests, answered, resent, closed_idle;
    unsigned long entries, moves, pushes, undos, redos, restarts, walks, duplicates;
    unsigned long solved, sessions, signups, logins;
    unsigned long rooms, races_started, race_seats, race_finishes;
    unsigned long streams, stream_ready, events[6], heartbeats;
    unsigned long watched_steps_sent, watched_steps_seen, watched_steps_twice;
    unsigned long long bytes_in;
} fig;

enum { EV_READY, EV_STEP, EV_ROOM, EV_RACE_STEP, EV_SNAPSHOT, EV_OTHER };
static const char *const event_name[] = {"ready", "step", "room", "race_step", "snapshot", "other"};

/* ---------------------------------------------------------------------------
 * Connections: non-blocking sockets on one epoll, HTTP/1.1 kept alive
 * ------------------------------------------------------------------------- */

enum phase { C_CLOSED, C_CONNECTING, C_SENDING, C_WAITING, C_IDLE, C_STREAMING };

struct player;

struct conn {
    int fd;
    enum phase phase;
    bool feed; /* an event stream rather than the player's API connection */
    bool used; /* has answered a request: the server may have closed it idle */
    bool resent;
    struct player *p;
    char out[1024];
    size_t out_len, out_off;
    /* The API connection's answer: its bytes, its head once whole, where
     * its chunks stand. */
    char *in;
    size_t in_len, in_cap;
    struct bench_http_head head;
    struct bench_http_chunks chunks;
    struct bench_http_stream stream; /* an event stream's head and events */
    enum route route;
    uint64_t sent_at, deadline, last_byte;
};

static int epfd;
static char *scratch; /* a decoded chunked body */
static size_t scratch_cap;

static void conn_watch(struct conn *c, uint32_t events, int op)
{
    struct epoll_event ev = {.events = events, .data.ptr = c};
    epoll_ctl(epfd, op, c->fd, &ev);
}

static void conn_close(struct conn *c)
{
    if (c->fd >= 0) {
        epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
    }
    c->fd = -1;
    c->phase = C_CLOSED;
    c->used = false;
    c->in_len = c->head.size = 0;
    bench_http_stream_reset(&c->stream);
    if (c->in_cap > 65536) {
        free(c->in);
        c->in = NULL;
        c->in_cap = 0;
    }
}

/* The loopback address of player number `serial`: 127.B.C.D, never 127.0.0.x. */
static struct in_addr player_address(unsigned long serial)
{
    unsigned long a = serial;
    unsigned d = (unsigned)(a % 250) + 2;
    a /= 250;
    unsigned c = (unsigned)(a % 250) + 1;
    a /= 250;
    unsigned b = (unsigned)(a % 200) + 10;
    struct in_addr in;
    in.s_addr = htonl((127u << 24) | (b << 16) | (c << 8) | d);
    return in;
}

/* Starts a connection from the player's address; the request in c->out
 * goes once it is up. False when no socket could be made. */
static bool conn_open(struct conn *c, unsigned long serial)
{
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->fd < 0)
        return false;
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in from = {.sin_family = AF_INET, .sin_addr = player_address(serial)};
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(c->fd, (struct sockaddr *)&from, sizeof from) != 0 ||
        (connect(c->fd, (struct sockaddr *)&to, sizeof to) != 0 && errno != EINPROGRESS)) {
        close(c->fd);
        c->fd = -1;
        return false;
    }
    c->phase = C_CONNECTING;
    conn_watch(c, EPOLLOUT, EPOLL_CTL_ADD);
    return true;
}

/* Writes what is left of the request; false when the connection failed. */
static bool conn_flush(struct conn *c)
{
    while (c->out_off < c->out_len) {
        ssize_t w = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
        if (w < 0 && errno == EAGAIN) {
            conn_watch(c, EPOLLIN | EPOLLOUT, EPOLL_CTL_MOD);
            return true;
        }
        if (w <= 0)
            return false;
        c->out_off += (size_t)w;
    }
    c->phase = C_WAITING;
    conn_watch(c, EPOLLIN, EPOLL_CTL_MOD);
    return true;
}

/* ---------------------------------------------------------------------------
 * Players
 * ------------------------------------------------------------------------- */

enum level_kind { LV_NONE, LV_WALK, LV_TUTORIAL, LV_BROWSE };
enum feed_kind { FEED_NONE, FEED_GAME, FEED_LINGER, FEED_ROOM, FEED_RACE };
enum race_state { RACE_NONE, RACE_LOBBY, RACE_COUNTDOWN, RACE_RUN, RACE_DONE };

/* A race room waiting for players, racing, or done: what the players of
 * this program know of it (as people in a lobby talk to each other). */
struct lobby {
    bool used, closed; /* closed: no more joiners, the host has started it */
    long room;
    int tutorial;
    unsigned target, claimed, ready, members;
    uint64_t created;
    bool racing;
};
static struct lobby lobbies[MAX_LOBBIES];

struct player {
    unsigned slot;
    unsigned long serial;
    uint64_t rng;
    struct conn api, feed;
    char cookie[160];
    /* The schedule: due at `wake` unless a request is in flight. */
    uint64_t wake;
    size_t heap_at;
    bool busy, in_heap;
    enum route pending;
    int pending_kind; /* what a log entry in flight is: a step, an undo ... */
    bool pending_watched;
    unsigned pending_moves;
    /* The session. */
    bool live, racer, two_tabs, spectator, signer;
    uint64_t started, ends;
    unsigned actions;
    unsigned signup_after;
    int account; /* 0 guest, 1 signed up, 2 logged out to log in again */
    uint64_t relogin_at;
    long user_id;
    /* The game in hand. */
    long game, level_id, seq, undo_avail, redo_avail;
    enum level_kind kind;
    int tutorial, x, y;
    size_t lurd_len;
    bool on_line; /* the LURD since the last restart is a prefix of the solution */
    bool solved, resync;
    /* The event stream. */
    enum feed_kind feed_kind;
    uint64_t feed_until;
    long feed_game, feed_room;
    bool feed_ready;
    unsigned long feed_sent;
    /* A race. */
    enum race_state race;
    struct lobby *lobby;
    bool hosting;
    long race_game, race_seq;
    size_t race_pos;
    uint64_t race_at;
    bool race_poll;             /* its stream broke in the lobby: it may have missed the start */
    long feed_first, feed_last; /* the seqs of the entries a second tab counts */
    long *seen;                 /* the seqs of the step events it saw */
    size_t nseen, seen_cap;
};

static struct player *players;
static struct player **heap;
static size_t heap_len;

static uint64_t rnd(struct player *p)
{
    /* xorshift64*: fast, and the same seed gives the same run of choices. */
    p->rng ^= p->rng >> 12;
    p->rng ^= p->rng << 25;
    p->rng ^= p->rng >> 27;
    return p->rng * 2685821657736338717ull;
}

static unsigned rnd_below(struct player *p, unsigned n)
{
    return n > 0 ? (unsigned)(rnd(p) >> 33) % n : 0;
}

static bool chance(struct player *p, unsigned percent)
{
    return rnd_below(p, 100) < percent;
}

static uint64_t think_us(struct player *p)
{
    return (uint64_t)(THINK_MIN_MS + rnd_below(p, THINK_MAX_MS - THINK_MIN_MS + 1)) * 1000u;
}

static void heap_swap(size_t a, size_t b)
{
    struct player *t = heap[a];
    heap[a] = heap[b];
    heap[b] = t;
    heap[a]->heap_at = a;
    heap[b]->heap_at = b;
}

static void heap_up(size_t i)
{
    while (i > 0 && heap[(i - 1) / 2]->wake > heap[i]->wake) {
        heap_swap(i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static void heap_down(size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < heap_len && heap[l]->wake < heap[m]->wake)
            m = l;
        if (r < heap_len && heap[r]->wake < heap[m]->wake)
            m = r;
        if (m == i)
            return;
        heap_swap(i, m);
        i = m;
    }
}

/* Puts the player's next action at `at` (rescheduling it if it had one). */
static void schedule(struct player *p, uint64_t at)
{
    p->wake = at;
    if (!p->in_heap) {
        p->in_heap = true;
        p->heap_at = heap_len;
        heap[heap_len++] = p;
        heap_up(p->heap_at);
        return;
    }
    heap_up(p->heap_at);
    heap_down(p->heap_at);
}

static struct player *heap_pop(void)
{
    struct player *p = heap[0];
    heap_swap(0, --heap_len);
    heap_down(0);
    p->in_heap = false;
    return p;
}

/* What the players know of the library, read once at the start. */
static long walk_level;
static long tutorial_level[MAX_TUTORIAL];
static char *tutorial_line[MAX_TUTORIAL];
static unsigned ntutorial;
static long *browse_levels;
static unsigned nbrowse;
static long collection_ids[32];
static unsigned ncollections;

/* Sends a request on the player's API connection (connecting first when it
 * is closed). `body` NULL sends no body (a GET). */
static void send_api(struct player *p, enum route r, const char *method, const char *path,
                     const char *body)
{
    struct conn *c = &p->api;
    int n = snprintf(c->out, sizeof c->out, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s%s%s%s", method,
                     path, body != NULL ? "Content-Type: application/json\r\n" : "",
                     p->cookie[0] ? "Cookie: " : "", p->cookie, p->cookie[0] ? "\r\n" : "");
    if (body != NULL)
        n += snprintf(c->out + n, sizeof c->out - (size_t)n, "Content-Length: %zu\r\n\r\n%s",
                      strlen(body), body);
    else
        n += snprintf(c->out + n, sizeof c->out - (size_t)n, "\r\n");
    c->out_len = (size_t)n;
    c->out_off = 0;
    c->route = r;
    c->resent = false;
    c->sent_at = bench_env_now_us();
    c->deadline = c->sent_at + ANSWER_TIMEOUT_US;
    c->in_len = c->head.size = 0;
    p->busy = true;
    p->pending = r;
    fig.requests++;
    if (c->phase == C_CLOSED) {
        if (!conn_open(c, p->serial)) {
            count_error(r, "connection error (no socket)", strerror(errno));
            p->busy = false;
            schedule(p, bench_env_now_us() + 1000000u);
        }
        return;
    }
    c->phase = C_SENDING;
    if (!conn_flush(c)) {
        /* The server closed the kept-alive connection: a new one. */
        conn_close(c);
        fig.resent++;
        c->resent = true;
        if (!conn_open(c, p->serial)) {
            count_error(r, "connection error (no socket)", strerror(errno));
            p->busy = false;
            schedule(p, bench_env_now_us() + 1000000u);
        }
    }
}

/* Opens the player's event stream on `query` (with its cookie when
 * `with_cookie`). */
static void open_feed(struct player *p, enum feed_kind kind, const char *query, bool with_cookie)
{
    struct conn *c = &p->feed;
    if (c->phase != C_CLOSED)
        conn_close(c);
    int n = snprintf(c->out, sizeof c->out,
                     "GET /api/v1/events?%s HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     "Accept: text/event-stream\r\n%s%s%s\r\n",
                     query, with_cookie && p->cookie[0] ? "Cookie: " : "",
                     with_cookie ? p->cookie : "", with_cookie && p->cookie[0] ? "\r\n" : "");
    c->out_len = (size_t)n;
    c->out_off = 0;
    c->route = RT_EVENTS;
    c->sent_at = bench_env_now_us();
    c->deadline = c->sent_at + ANSWER_TIMEOUT_US;
    c->in_len = c->head.size = 0;
    bench_http_stream_reset(&c->stream);
    p->feed_kind = kind;
    p->feed_ready = false;
    p->feed_sent = 0;
    p->feed_first = 1; /* an empty range until it counts an entry */
    p->feed_last = 0;
    p->nseen = 0;
    fig.streams++;
    fig.requests++;
    if (!conn_open(c, p->serial)) {
        count_error(RT_EVENTS, "connection error (no socket)", strerror(errno));
        p->feed_kind = FEED_NONE;
    }
}

static int by_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* Closes the event stream. A second tab that leaves its game (`linger`)
 * stays open 2 s more, for the events of the last entries to arrive, and is
 * then counted: how many of its game's entries it saw. */
static void close_feed(struct player *p, bool linger)
{
    if (linger && p->feed_kind == FEED_GAME && p->feed_ready) {
        p->feed_kind = FEED_LINGER;
        p->feed_until = bench_env_now_us() + 2000000u;
        return;
    }
    if (p->feed_kind == FEED_LINGER) {
        /* The entries it committed have the seqs first..last; events of
         * others (sent before the stream was ready, or while it lingered)
         * are not counted. */
        if (p->nseen > 0) /* seen is NULL until the first event */
            qsort(p->seen, p->nseen, sizeof *p->seen, by_long);
        for (size_t i = 0; i < p->nseen; i++) {
            if (p->seen[i] < p->feed_first || p->seen[i] > p->feed_last)
                continue;
            if (i > 0 && p->seen[i] == p->seen[i - 1])
                fig.watched_steps_twice++;
            else
                fig.watched_steps_seen++;
        }
        fig.watched_steps_sent += p->feed_sent;
    }
    p->nseen = 0;
    conn_close(&p->feed);
    p->feed_kind = FEED_NONE;
    p->feed_ready = false;
}

/* ---------------------------------------------------------------------------
 * Reading answers: the few members a player needs, read with jansson
 * ------------------------------------------------------------------------- */

/* The error code of an error answer, or "" */
static const char *error_code(const json_t *doc)
{
    const char *code = bench_json_text(doc, "error.code");
    return code != NULL ? code : "";
}

/* Adopts the game of an answer (its member "game", as the log, the game and
 * the opening answer hold it). False when the answer holds none. A step's
 * answer holds the game's summary, without `lurd`: the player only ever
 * plays the solution's letters, so its LURD since the last restart is then
 * the solution's first `moves` letters. */
static bool adopt_game(struct player *p, const json_t *doc)
{
    const json_t *g = bench_json_at(doc, "game");
    if (!json_is_object(g))
        return false;
    p->game = bench_json_long(g, "id", p->game);
    p->level_id = bench_json_long(g, "level_id", p->level_id);
    p->seq = bench_json_long(g, "seq", p->seq);
    p->solved = bench_json_true(g, "solved");
    p->x = (int)bench_json_long(g, "player.x", p->x);
    p->y = (int)bench_json_long(g, "player.y", p->y);
    p->undo_avail = bench_json_long(g, "undo_available", 0);
    p->redo_avail = bench_json_long(g, "redo_available", 0);
    long moves = bench_json_long(g, "moves", 0);
    const char *lurd = bench_json_text(g, "lurd");
    if (lurd == NULL) {
        p->lurd_len = (size_t)moves;
    } else {
        p->lurd_len = strlen(lurd);
        if (p->kind == LV_TUTORIAL) {
            const char *line = tutorial_line[p->tutorial];
            p->on_line = p->lurd_len <= strlen(line) && strncasecmp(lurd, line, p->lurd_len) == 0;
        }
    }
    return true;
}

/* The race game of the player `user` in a room (an answer holding "room",
 * or a room event, which is the room itself), or 0 before the start. */
static long seat_game(const json_t *room, long user)
{
    return bench_json_long(bench_json_find(room, "players", "user_id", user), "game_id", 0);
}

/* The pushes (upper-case letters) among the steps of a log answer. */
static unsigned long pushes_of(const json_t *doc)
{
    const char *s = bench_json_text(doc, "steps");
    unsigned long n = 0;
    for (; s != NULL && *s != '\0'; s++)
        n += *s >= 'A' && *s <= 'Z';
    return n;
}

/* ---------------------------------------------------------------------------
 * What a player does
 * ------------------------------------------------------------------------- */

enum entry_kind { EK_STEPS, EK_UNDO, EK_REDO, EK_RESTART, EK_WALK, EK_RACE };

static void open_level(struct player *p)
{
    unsigned roll = rnd_below(p, 100);
    if (p->feed_kind == FEED_GAME)
        close_feed(p, true);
    if (roll < 45) {
        p->kind = LV_WALK;
        p->level_id = walk_level;
    } else if (roll < 85) {
        p->kind = LV_TUTORIAL;
        p->tutorial = (int)rnd_below(p, ntutorial);
        p->level_id = tutorial_level[p->tutorial];
    } else {
        p->kind = LV_BROWSE;
        p->level_id = browse_levels[rnd_below(p, nbrowse)];
    }
    p->game = 0;
    char path[96];
    snprintf(path, sizeof path, "/api/v1/levels/%ld/game", p->level_id);
    send_api(p, RT_OPEN, "POST", path, "{}");
}

static void send_entry(struct player *p, enum route r, int kind, const char *fields)
{
    char path[96], body[256];
    snprintf(path, sizeof path, "/api/v1/games/%ld/%s", p->game, r == RT_WALK ? "walk" : "log");
    snprintf(body, sizeof body, "{\"seq\":%ld,%s}", p->seq + 1, fields);
    p->pending_kind = kind;
    /* Counted for the second tab only when sent once it followed the game:
     * an entry already on its way may be committed before. */
    p->pending_watched = p->feed_kind == FEED_GAME && p->feed_ready && p->feed_game == p->game;
    send_api(p, r, "POST", path, body);
}

/* Steps on the open floor: one to three, never leaving the room's top. */
static void walk_steps(struct player *p)
{
    static const struct {
        char c;
        int dx, dy;
    } dirs[4] = {{'l', -1, 0}, {'r', 1, 0}, {'u', 0, -1}, {'d', 0, 1}};
    char steps[8], fields[48];
    unsigned n = 1 + rnd_below(p, 3), k = 0;
    int x = p->x, y = p->y;
    while (k < n) {
        unsigned d = rnd_below(p, 4);
        int nx = x + dirs[d].dx, ny = y + dirs[d].dy;
        if (nx < WALK_X0 || nx > WALK_X1 || ny < WALK_Y0 || ny > WALK_Y1)
            continue;
        steps[k++] = dirs[d].c;
        x = nx;
        y = ny;
    }
    steps[k] = '\0';
    p->pending_moves = k;
    snprintf(fields, sizeof fields, "\"steps\":\"%s\"", steps);
    send_entry(p, RT_LOG, EK_STEPS, fields);
}

/* The next one to three steps of the tutorial level's solution. */
static void solution_steps(struct player *p)
{
    const char *line = tutorial_line[p->tutorial];
    size_t left = strlen(line) - p->lurd_len;
    unsigned n = 1 + rnd_below(p, 3);
    if (n > left)
        n = (unsigned)left;
    char fields[48];
    snprintf(fields, sizeof fields, "\"steps\":\"%.*s\"", (int)n, line + p->lurd_len);
    p->pending_moves = n;
    send_entry(p, RT_LOG, EK_STEPS, fields);
}

static void point_walk(struct player *p)
{
    int x, y;
    do {
        x = WALK_X0 + (int)rnd_below(p, WALK_X1 - WALK_X0 + 1);
        y = WALK_Y0 + (int)rnd_below(p, WALK_Y1 - WALK_Y0 + 1);
    } while (x == p->x && y == p->y); /* a walk to where it stands adds nothing */
    char fields[48];
    snprintf(fields, sizeof fields, "\"x\":%d,\"y\":%d", x, y);
    send_entry(p, RT_WALK, EK_WALK, fields);
}

/* A step, or what stands for one where the player cannot step. */
static void play(struct player *p)
{
    if (p->kind == LV_WALK) {
        walk_steps(p);
    } else if (p->kind == LV_TUTORIAL && p->on_line && !p->solved &&
               p->lurd_len < strlen(tutorial_line[p->tutorial])) {
        solution_steps(p);
    } else if (p->kind == LV_TUTORIAL && p->lurd_len > 0 && chance(p, 50)) {
        send_entry(p, RT_LOG, EK_RESTART, "\"restart\":true");
    } else {
        open_level(p);
    }
}

static void get(struct player *p, enum route r, const char *fmt, long id)
{
    char path[128];
    snprintf(path, sizeof path, fmt, id);
    send_api(p, r, "GET", path, NULL);
}

static void lobby_release(struct player *p)
{
    struct lobby *l = p->lobby;
    p->lobby = NULL;
    if (l != NULL && --l->members == 0)
        memset(l, 0, sizeof *l);
}

/* A racer goes racing: joins a room waiting for players, or opens one. */
static void race_begin(struct player *p)
{
    if (p->feed_kind != FEED_NONE)
        close_feed(p, false);
    p->race = RACE_LOBBY;
    p->race_poll = false;
    p->race_game = 0;
    p->race_seq = 0;
    p->race_pos = 0;
    p->race_at = bench_env_now_us();
    unsigned start = rnd_below(p, MAX_LOBBIES);
    bool join = chance(p, 60);
    for (unsigned i = 0; i < MAX_LOBBIES && join; i++) {
        struct lobby *l = &lobbies[(start + i) % MAX_LOBBIES];
        if (!l->used || l->closed || l->room == 0 || l->claimed >= l->target)
            continue;
        l->claimed++;
        l->members++;
        p->lobby = l;
        p->hosting = false;
        char path[96];
        snprintf(path, sizeof path, "/api/v1/rooms/%ld/join", l->room);
        send_api(p, RT_ROOM_JOIN, "POST", path, "{}");
        return;
    }
    struct lobby *l = NULL;
    for (unsigned i = 0; i < MAX_LOBBIES && l == NULL; i++) {
        if (!lobbies[i].used)
            l = &lobbies[i];
    }
    if (l == NULL) {
        p->race = RACE_NONE;
        schedule(p, bench_env_now_us() + think_us(p));
        return;
    }
    memset(l, 0, sizeof *l);
    l->used = true;
    l->tutorial = (int)rnd_below(p, ntutorial);
    l->target = 2 + rnd_below(p, 3);
    l->claimed = 1;
    l->members = 1;
    l->created = bench_env_now_us();
    p->lobby = l;
    p->hosting = true;
    char body[96];
    snprintf(body, sizeof body, "{\"level\":\"chosen\",\"level_id\":%ld}",
             tutorial_level[l->tutorial]);
    send_api(p, RT_ROOM_CREATE, "POST", "/api/v1/rooms", body);
}

/* The race game is known and the countdown runs: play from its end. */
static void race_go(struct player *p, long game, long starts_in_ms)
{
    p->race = RACE_COUNTDOWN;
    p->race_game = game;
    p->race_seq = 0;
    p->race_pos = 0;
    schedule(p, bench_env_now_us() + (uint64_t)(starts_in_ms > 0 ? starts_in_ms : 0) * 1000u +
                    100000u + think_us(p));
}

static void race_leave(struct player *p)
{
    char path[96];
    snprintf(path, sizeof path, "/api/v1/rooms/%ld/leave", p->lobby->room);
    send_api(p, RT_ROOM_LEAVE, "POST", path, "{}");
}

static void race_act(struct player *p, uint64_t now)
{
    struct lobby *l = p->lobby;
    switch (p->race) {
    case RACE_LOBBY:
        /* The host starts once the seats it waits for are taken and every
         * player hears the room (or a joiner is lost: after 15 s). */
        if (p->hosting && p->feed_ready &&
            ((l->ready >= l->claimed && (l->claimed >= l->target || now - l->created > 8000000u)) ||
             now - l->created > 15000000u)) {
            l->closed = true;
            char path[96];
            snprintf(path, sizeof path, "/api/v1/rooms/%ld/start", l->room);
            send_api(p, RT_ROOM_START, "POST", path, "{}");
            return;
        }
        /* A stream that broke is opened again, as a browser does; a joiner
         * who may have missed the start asks for the room meanwhile. */
        if (p->feed_kind == FEED_NONE && l->room > 0) {
            char q[64];
            snprintf(q, sizeof q, "room=%ld", l->room);
            open_feed(p, FEED_RACE, q, true);
        }
        if (p->race_poll && !p->hosting && l->room > 0) {
            p->race_poll = false;
            get(p, RT_ROOM, "/api/v1/rooms/%ld", l->room);
            return;
        }
        if (now - p->race_at > 30000000u) {
            /* Nobody started the race: give up as a person would. */
            count_error(RT_ROOM_START, "race never started (30 s in the lobby)", "");
            race_leave(p);
            return;
        }
        schedule(p, now + think_us(p));
        return;
    case RACE_COUNTDOWN:
    case RACE_RUN: {
        p->race = RACE_RUN;
        const char *line = tutorial_line[l->tutorial];
        char path[96], body[96];
        snprintf(path, sizeof path, "/api/v1/games/%ld/log", p->race_game);
        snprintf(body, sizeof body, "{\"seq\":%ld,\"steps\":\"%c\"}", p->race_seq + 1,
                 line[p->race_pos]);
        p->pending_kind = EK_RACE;
        p->pending_moves = 1;
        send_api(p, RT_LOG, "POST", path, body);
        return;
    }
    case RACE_DONE:
        race_leave(p);
        return;
    case RACE_NONE:
        break;
    }
}

static void start_session(struct player *p, uint64_t at);

static void end_session(struct player *p, uint64_t now)
{
    if (p->feed_kind != FEED_NONE)
        close_feed(p, false);
    conn_close(&p->api);
    p->live = false;
    /* The next player takes the place after a moment. */
    start_session(p, now + think_us(p) * 4);
}

static void act(struct player *p, uint64_t now)
{
    p->actions++;
    if (p->race != RACE_NONE) {
        race_act(p, now);
        return;
    }
    if (now >= p->ends) {
        end_session(p, now);
        return;
    }
    if (p->resync && p->game > 0) {
        p->resync = false;
        get(p, RT_GAME, "/api/v1/games/%ld", p->game);
        return;
    }
    if (p->feed_kind == FEED_ROOM) {
        if (now < p->feed_until) {
            schedule(p, p->feed_until);
            return;
        }
        close_feed(p, false);
    }
    if (p->feed_kind == FEED_LINGER && now >= p->feed_until)
        close_feed(p, false);
    if (p->feed_kind == FEED_GAME && p->feed_game != p->game)
        close_feed(p, true);
    if (p->actions == 1) {
        send_api(p, RT_COLLECTIONS, "GET", "/api/v1/collections", NULL);
        return;
    }
    if (p->game == 0) {
        open_level(p);
        return;
    }
    if (p->signer && p->account == 0 && p->actions > p->signup_after) {
        char body[160];
        snprintf(body, sizeof body,
                 "{\"username\":\"soak%lu_%u\",\"password\":\"soak-password-%lu\"}", p->serial,
                 seed, p->serial);
        send_api(p, RT_SIGNUP, "POST", "/api/v1/account/signup", body);
        return;
    }
    if (p->account == 1 && p->relogin_at != 0 && now >= p->relogin_at) {
        p->relogin_at = 0;
        send_api(p, RT_LOGOUT, "POST", "/api/v1/account/logout", "{}");
        return;
    }
    if (p->account == 2) {
        char body[160];
        snprintf(body, sizeof body,
                 "{\"username\":\"soak%lu_%u\",\"password\":\"soak-password-%lu\"}", p->serial,
                 seed, p->serial);
        send_api(p, RT_LOGIN, "POST", "/api/v1/account/login", body);
        return;
    }
    if (p->two_tabs && p->feed_kind == FEED_NONE && p->kind != LV_BROWSE) {
        char q[64];
        snprintf(q, sizeof q, "game=%ld", p->game);
        p->feed_game = p->game;
        open_feed(p, FEED_GAME, q, true);
    }
    if (p->racer && chance(p, 8)) {
        race_begin(p);
        return;
    }
    if (p->spectator && chance(p, 5)) {
        unsigned start = rnd_below(p, MAX_LOBBIES);
        for (unsigned i = 0; i < MAX_LOBBIES; i++) {
            struct lobby *l = &lobbies[(start + i) % MAX_LOBBIES];
            if (!l->used || !l->racing)
                continue;
            char q[64];
            snprintf(q, sizeof q, "room=%ld", l->room);
            p->feed_room = l->room;
            p->feed_until = now + (20 + rnd_below(p, 41)) * 1000000ull;
            open_feed(p, FEED_ROOM, q, false);
            schedule(p, p->feed_until);
            return;
        }
    }
    /* The mix of a person playing: mostly steps, now and then the rest. */
    unsigned roll = rnd_below(p, 1000);
    if (roll < 560)
        play(p);
    else if (roll < 620)
        p->undo_avail > 0 ? send_entry(p, RT_LOG, EK_UNDO, "\"undo\":1") : play(p);
    else if (roll < 670)
        p->redo_avail > 0 ? send_entry(p, RT_LOG, EK_REDO, "\"redo\":1") : play(p);
    else if (roll < 690)
        p->kind != LV_BROWSE && p->lurd_len > 0
            ? send_entry(p, RT_LOG, EK_RESTART, "\"restart\":true")
            : play(p);
    else if (roll < 730)
        p->kind == LV_WALK ? point_walk(p) : play(p);
    else if (roll < 800)
        open_level(p);
    else if (roll < 830)
        get(p, RT_LEVEL, "/api/v1/levels/%ld", p->level_id);
    else if (roll < 850)
        send_api(p, RT_COLLECTIONS, "GET", "/api/v1/collections", NULL);
    else if (roll < 875)
        get(p, RT_COLLECTION, "/api/v1/collections/%ld",
            collection_ids[rnd_below(p, ncollections)]);
    else if (roll < 905)
        send_api(p, RT_PROGRESS, "GET", "/api/v1/progress", NULL);
    else if (roll < 930)
        get(p, RT_GAME, "/api/v1/games/%ld", p->game);
    else if (roll < 945)
        send_api(p, RT_ACCOUNT, "GET", "/api/v1/account", NULL);
    else if (roll < 975)
        get(p, RT_LEADERBOARD, "/api/v1/levels/%ld/leaderboard", p->level_id);
    else
        send_api(p, RT_ROOMS, "GET", "/api/v1/rooms", NULL);
}

static void start_session(struct player *p, uint64_t at)
{
    conn_close(&p->api);
    conn_close(&p->feed);
    p->serial += nplayers; /* a new person: a new address, a new guest */
    p->rng = ((uint64_t)seed << 32) ^ (p->serial * 0x9E3779B97F4A7C15ull) ^ 0x5DEECE66Dull;
    for (int i = 0; i < 4; i++)
        rnd(p);
    p->cookie[0] = '\0';
    p->live = true;
    p->racer = chance(p, PERCENT_RACERS);
    p->two_tabs = !p->racer && chance(p, PERCENT_TWO_TABS);
    p->spectator = !p->racer && !p->two_tabs && chance(p, PERCENT_SPECTATORS);
    p->signer = chance(p, PERCENT_SIGNERS);
    /* People sign up after playing a while, not all at once. */
    p->signup_after = 6 + rnd_below(p, 600);
    p->started = at;
    uint64_t mean = (uint64_t)session_seconds * 1000000u;
    p->ends = at + mean * 4 / 10 + (rnd(p) >> 11) % (mean * 12 / 10 + 1);
    p->actions = 0;
    p->account = 0;
    p->relogin_at = 0;
    p->user_id = 0;
    p->game = p->level_id = p->seq = p->undo_avail = p->redo_avail = 0;
    p->kind = LV_NONE;
    p->lurd_len = 0;
    p->on_line = false;
    p->solved = p->resync = false;
    p->feed_kind = FEED_NONE;
    p->race = RACE_NONE;
    p->lobby = NULL;
    p->busy = false;
    fig.sessions++;
    schedule(p, at);
}

/* ---------------------------------------------------------------------------
 * Answers
 * ------------------------------------------------------------------------- */

static void race_answer(struct player *p, enum route r, int status, const json_t *doc,
                        const char *body)
{
    struct lobby *l = p->lobby;
    uint64_t now = bench_env_now_us();
    if (r == RT_ROOM_CREATE || r == RT_ROOM_JOIN) {
        if (status != (r == RT_ROOM_CREATE ? 201 : 200)) {
            if (!p->hosting)
                l->claimed--;
            lobby_release(p);
            p->race = RACE_NONE;
            return;
        }
        p->user_id = bench_json_long(doc, "you.user_id", 0);
        if (r == RT_ROOM_CREATE) {
            l->room = bench_json_long(doc, "room.id", 0);
            fig.rooms++;
        }
        char q[64];
        snprintf(q, sizeof q, "room=%ld", l->room);
        open_feed(p, FEED_RACE, q, true);
        return;
    }
    if (r == RT_ROOM_START) {
        if (status != 200) {
            race_leave(p);
            return;
        }
        fig.races_started++;
        l->racing = true;
        long game = seat_game(bench_json_at(doc, "room"), p->user_id);
        if (game <= 0) {
            count_error(RT_ROOM_START, "race gave the host no game", body);
            race_leave(p);
            return;
        }
        fig.race_seats += l->claimed;
        race_go(p, game, bench_json_long(doc, "room.starts_in_ms", 0));
        return;
    }
    if (r == RT_ROOM) {
        const json_t *room = bench_json_at(doc, "room");
        const char *state = bench_json_text(room, "state");
        if (status == 200 && p->race == RACE_LOBBY && state != NULL &&
            (strcmp(state, "countdown") == 0 || strcmp(state, "racing") == 0)) {
            long game = seat_game(room, p->user_id);
            if (game > 0)
                race_go(p, game, bench_json_long(room, "starts_in_ms", 0));
        }
        return;
    }
    if (r == RT_ROOM_LEAVE) {
        close_feed(p, false);
        lobby_release(p);
        p->race = RACE_NONE;
        p->hosting = false;
        return;
    }
    if (r == RT_LOG && p->pending_kind == EK_RACE) {
        if (status != 200) {
            /* Out of step with the race: leave it. */
            race_leave(p);
            return;
        }
        fig.entries++;
        fig.moves++;
        fig.pushes += pushes_of(doc) > 0;
        p->race_seq = bench_json_long(doc, "game.seq", p->race_seq + 1);
        p->race_pos++;
        bool solved = bench_json_true(doc, "game.solved");
        if (solved || p->race_pos >= strlen(tutorial_line[l->tutorial])) {
            fig.race_finishes++;
            fig.solved += solved;
            p->race = RACE_DONE;
            schedule(p, now + 1000000u + think_us(p) * 4);
        }
        return;
    }
}

/* Counts a committed log entry (or a point-mode walk) by its kind. */
static void count_entry(const struct player *p, const json_t *doc)
{
    fig.entries++;
    switch (p->pending_kind) {
    case EK_STEPS:
        fig.moves += p->pending_moves;
        fig.pushes += pushes_of(doc);
        break;
    case EK_UNDO:
        fig.undos++;
        break;
    case EK_REDO:
        fig.redos++;
        break;
    case EK_RESTART:
        fig.restarts++;
        break;
    case EK_WALK: {
        fig.walks++;
        const char *s = bench_json_text(doc, "steps");
        fig.moves += s != NULL ? strlen(s) : 0;
        break;
    }
    default:
        break;
    }
}

/* The answer to a log entry or a walk: counted when committed; the game
 * adopted either way, or caught up with when the answer holds none. */
static void entry_answer(struct player *p, bool ok, const json_t *doc)
{
    if (ok && bench_json_true(doc, "duplicate")) {
        fig.duplicates++;
    } else if (ok) {
        count_entry(p, doc);
        bool was_solved = p->solved;
        if (p->pending_watched && p->feed_game == p->game &&
            (p->feed_kind == FEED_GAME || p->feed_kind == FEED_LINGER)) {
            long seq = bench_json_long(doc, "game.seq", 0);
            if (p->feed_sent++ == 0)
                p->feed_first = seq;
            p->feed_last = seq;
        }
        adopt_game(p, doc);
        fig.solved += p->solved && !was_solved;
    }
    if (!ok && !adopt_game(p, doc))
        p->resync = true;
}

/* The answers to signing up, logging out and logging in. */
static void account_answer(struct player *p, enum route r, bool ok, uint64_t now)
{
    if (r == RT_SIGNUP && ok) {
        p->account = 1;
        fig.signups++;
        /* A third of those who sign up log in again later, as on
         * another device. */
        if (chance(p, 33))
            p->relogin_at = now + (30 + rnd_below(p, 120)) * 1000000ull;
    } else if (r == RT_SIGNUP) {
        p->signer = false;
    } else if (r == RT_LOGOUT) {
        p->account = ok ? 2 : 1;
    } else if (r == RT_LOGIN) {
        p->account = 1;
        if (ok)
            fig.logins++;
        else
            p->signer = false;
        p->resync = true;
    }
}

/* True for the routes whose successful answers a player reads: the others
 * are parsed only when they fail, for their error code. */
static bool reads_answer(enum route r)
{
    return r == RT_OPEN || r == RT_LOG || r == RT_WALK || r == RT_GAME || r == RT_ROOM_CREATE ||
           r == RT_ROOM_JOIN || r == RT_ROOM_START || r == RT_ROOM;
}

/* Handles an answer on the player's API connection and plans what follows. */
static void answer(struct player *p, enum route r, int status, const char *body)
{
    uint64_t now = bench_env_now_us();
    p->busy = false;
    int want = (r == RT_SIGNUP || r == RT_ROOM_CREATE) ? 201 : 200;
    bool ok = status == want || (r == RT_OPEN && status == 201);
    json_t *doc = !ok || reads_answer(r) ? bench_json_parse(body) : NULL;
    if (!ok) {
        const char *code = error_code(doc);
        char what[96];
        snprintf(what, sizeof what, "%d %.63s", status, code[0] ? code : "(no code)");
        count_error(r, what, body);
    }
    if (p->race != RACE_NONE) {
        race_answer(p, r, status, doc, body);
        json_decref(doc);
        if (!p->busy && (p->race == RACE_NONE || !p->in_heap || p->wake < now))
            schedule(p, now + think_us(p));
        return;
    }
    switch (r) {
    case RT_OPEN:
        if (!ok || !adopt_game(p, doc)) {
            p->game = 0;
            p->kind = LV_NONE;
        }
        break;
    case RT_LOG:
    case RT_WALK:
        entry_answer(p, ok, doc);
        break;
    case RT_GAME:
        if (ok)
            adopt_game(p, doc);
        else
            p->game = 0;
        break;
    case RT_SIGNUP:
    case RT_LOGOUT:
    case RT_LOGIN:
        account_answer(p, r, ok, now);
        break;
    default:
        break;
    }
    json_decref(doc);
    schedule(p, now + think_us(p));
}

/* Notes the seq of a step event that a second tab saw. */
static void saw_step(struct player *p, const char *data)
{
    if (p->nseen == p->seen_cap) {
        size_t cap = p->seen_cap > 0 ? p->seen_cap * 2 : 64;
        long *v = realloc(p->seen, cap * sizeof *v);
        if (v == NULL)
            return;
        p->seen = v;
        p->seen_cap = cap;
    }
    json_t *doc = bench_json_parse(data);
    p->seen[p->nseen++] = bench_json_long(doc, "seq", 0);
    json_decref(doc);
}

/* A room event to a joiner in the lobby: the countdown names its game. */
static void room_changed(struct player *p, const char *data)
{
    json_t *room = bench_json_parse(data);
    const char *state = bench_json_text(room, "state");
    long game = state != NULL && strcmp(state, "countdown") == 0 ? seat_game(room, p->user_id) : 0;
    if (game > 0)
        race_go(p, game, bench_json_long(room, "starts_in_ms", 0));
    json_decref(room);
}

/* An SSE event: counts it, and drives a racer waiting for its race. */
static void feed_event(void *arg, const struct bench_http_event *e)
{
    struct player *p = arg;
    if (e->type == NULL) {
        fig.heartbeats++;
        return;
    }
    int kind = EV_OTHER;
    for (int k = 0; k < EV_OTHER; k++) {
        if (strcmp(e->type, event_name[k]) == 0)
            kind = k;
    }
    fig.events[kind]++;
    if (kind == EV_READY && !p->feed_ready) {
        p->feed_ready = true;
        fig.stream_ready++;
        record_latency(RT_EVENTS, bench_env_now_us() - p->feed.sent_at);
        if (p->feed_kind == FEED_RACE && p->lobby != NULL)
            p->lobby->ready++;
    } else if (kind == EV_STEP && (p->feed_kind == FEED_GAME || p->feed_kind == FEED_LINGER)) {
        saw_step(p, e->data);
    } else if (kind == EV_ROOM && p->feed_kind == FEED_RACE && p->race == RACE_LOBBY &&
               !p->hosting) {
        room_changed(p, e->data);
    }
}

/* ---------------------------------------------------------------------------
 * The event loop
 * ------------------------------------------------------------------------- */

/* A connection broke. The API connection sends its request again once when
 * the server had closed it while idle (nothing of an answer came); any other
 * break is an error and the player catches up with its game. */
static void conn_broken(struct conn *c, const char *why)
{
    struct player *p = c->p;
    bool nothing = c->in_len == 0;
    if (!c->feed && c->phase == C_IDLE) {
        fig.closed_idle++;
        conn_close(c);
        return;
    }
    if (!c->feed && nothing && c->used && !c->resent) {
        size_t keep = c->out_len;
        conn_close(c);
        c->out_len = keep;
        c->out_off = 0;
        c->resent = true;
        fig.resent++;
        if (conn_open(c, p->serial))
            return;
    }
    char what[96];
    snprintf(what, sizeof what, "connection error (%s)", why);
    count_error(c->route, what, "");
    conn_close(c);
    if (c->feed) {
        p->race_poll = p->feed_kind == FEED_RACE;
        p->feed_kind = FEED_NONE;
        return;
    }
    p->busy = false;
    p->resync = true;
    if (p->race == RACE_RUN || p->race == RACE_COUNTDOWN)
        p->race = RACE_DONE;
    schedule(p, bench_env_now_us() + think_us(p));
}

/* Reads what arrived on an API connection; handles a complete answer. */
static void api_readable(struct conn *c)
{
    struct player *p = c->p;
    for (;;) {
        bench_http_grow(&c->in, &c->in_cap, c->in_len + 16385);
        ssize_t r = recv(c->fd, c->in + c->in_len, c->in_cap - c->in_len - 1, 0);
        if (r < 0 && errno == EAGAIN)
            break;
        if (r <= 0) {
            conn_broken(c, r == 0 ? "closed" : strerror(errno));
            return;
        }
        c->in_len += (size_t)r;
        fig.bytes_in += (unsigned long long)r;
    }
    if (c->phase != C_WAITING)
        return;
    if (c->head.size == 0 &&
        !bench_http_head_read(c->in, c->in_len, &c->head, p->cookie, sizeof p->cookie))
        return;
    size_t len = 0;
    if (c->head.chunked) {
        c->chunks = (struct bench_http_chunks){c->head.size, -1};
        int d = bench_http_dechunk(&c->chunks, c->in, c->in_len, &scratch, &len, &scratch_cap);
        if (d == 0)
            return;
        if (d < 0) {
            count_error(c->route, "malformed chunked answer", "");
            conn_close(c);
            answer(p, c->route, 0, "");
            return;
        }
    } else {
        len = c->head.length > 0 ? (size_t)c->head.length : 0;
        if (c->in_len < c->head.size + len)
            return;
        /* A copy: the answer may close or reuse this connection. */
        bench_http_grow(&scratch, &scratch_cap, len + 1);
        memcpy(scratch, c->in + c->head.size, len);
    }
    bench_http_grow(&scratch, &scratch_cap, len + 1);
    scratch[len] = '\0';
    fig.answered++;
    record_latency(c->route, bench_env_now_us() - c->sent_at);
    c->used = true;
    c->phase = C_IDLE;
    int status = c->head.status;
    bool closing = c->head.closing;
    c->head.size = 0;
    c->in_len = 0;
    if (closing)
        conn_close(c);
    answer(p, c->route, status, scratch);
}

/* Ends an event stream that the server refused or garbled. */
static void feed_refused(struct conn *c, const char *what, const char *example)
{
    count_error(RT_EVENTS, what, example);
    conn_close(c);
    c->p->feed_kind = FEED_NONE;
}

/* Hands bytes of an event stream on; false once the stream is closed. */
static bool feed_take(struct conn *c, const char *bytes, size_t n)
{
    struct bench_http_stream *s = &c->stream;
    int taken = bench_http_stream_take(s, bytes, n, feed_event, c->p);
    if (taken < 0) {
        feed_refused(c, "malformed chunk in a stream", "");
        return false;
    }
    if (taken > 0 && s->head.status != 200) {
        const char *body = s->in + s->head.size;
        json_t *doc = bench_json_parse(body);
        const char *code = error_code(doc);
        char what[96];
        snprintf(what, sizeof what, "%d %.63s", s->head.status, code[0] ? code : "(no code)");
        feed_refused(c, what, body);
        json_decref(doc);
        return false;
    }
    if (taken > 0)
        c->phase = C_STREAMING;
    return true;
}

/* Reads what arrived on an event stream: its head, then its events. */
static void feed_readable(struct conn *c)
{
    char buf[16384];
    for (;;) {
        ssize_t r = recv(c->fd, buf, sizeof buf, 0);
        if (r < 0 && errno == EAGAIN)
            return;
        if (r <= 0) {
            conn_broken(c, r == 0 ? "stream closed" : strerror(errno));
            return;
        }
        c->last_byte = bench_env_now_us();
        fig.bytes_in += (unsigned long long)r;
        if (!feed_take(c, buf, (size_t)r))
            return;
    }
}

static void on_event(struct conn *c, uint32_t events)
{
    /* Closed by an earlier event of the same batch. */
    if (c->fd < 0)
        return;
    if (c->phase == C_CONNECTING) {
        int err = 0;
        socklen_t len = sizeof err;
        getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
        if (err != 0) {
            errno = err;
            c->phase = C_SENDING;
            conn_broken(c, strerror(err));
            return;
        }
        c->phase = C_SENDING;
        if (!conn_flush(c))
            conn_broken(c, "cannot send");
        return;
    }
    if ((events & EPOLLOUT) && c->phase == C_SENDING) {
        if (!conn_flush(c)) {
            conn_broken(c, "cannot send");
            return;
        }
    }
    if (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
        if (c->feed)
            feed_readable(c);
        else
            api_readable(c);
    }
}

/* Requests that got no answer in time, and streams gone silent. */
static void check_timeouts(uint64_t now)
{
    for (unsigned i = 0; i < nplayers; i++) {
        struct player *p = &players[i];
        struct conn *a = &p->api;
        if (a->phase >= C_CONNECTING && a->phase <= C_WAITING && now > a->deadline) {
            count_error(a->route, "timeout (no answer in 10 s)", "");
            conn_close(a);
            p->busy = false;
            p->resync = true;
            if (p->race == RACE_RUN || p->race == RACE_COUNTDOWN)
                p->race = RACE_DONE;
            schedule(p, now + think_us(p));
        }
        struct conn *f = &p->feed;
        bool waiting = f->phase != C_CLOSED && !p->feed_ready && now > f->deadline;
        bool silent =
            f->phase == C_STREAMING && p->feed_ready && now - f->last_byte > STREAM_SILENCE_US;
        if (waiting || silent) {
            count_error(RT_EVENTS,
                        waiting ? "timeout (no ready event in 10 s)"
                                : "stream silent for 40 s (no heartbeat)",
                        "");
            conn_close(f);
            p->race_poll = p->feed_kind == FEED_RACE;
            p->feed_kind = FEED_NONE;
        }
    }
}

/* ---------------------------------------------------------------------------
 * Setting up: the library as the players see it, with blocking requests
 * ------------------------------------------------------------------------- */

/* One blocking GET of the setting up, which must answer 200 with JSON:
 * returns the answer parsed (json_decref); exits with the answer when it is
 * anything else. */
static json_t *setup_get(struct bench_http_client *client, const char *path)
{
    char *body;
    int status = bench_http_request(client, "GET", path, NULL, &body);
    json_t *doc = status == 200 ? bench_json_parse(body) : NULL;
    if (status < 0)
        fail("cannot reach sokod for GET %s", path);
    if (doc == NULL)
        fail("GET %s: %d %s", path, status, body);
    free(body);
    return doc;
}

/* The tutorial's solutions, by level number, from the checkout's file. */
static void read_tutorial(char *lines[MAX_TUTORIAL], unsigned *count)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/levels/tutorial.sok", SOKOD_SOURCE_DIR);
    uint32_t len;
    char *text = bench_env_read_file(path, &len);
    if (text == NULL)
        fail("cannot read %s", path);
    soko_reader r;
    soko_entry e;
    soko_reader_init(&r, text, len);
    *count = 0;
    while (soko_reader_next(&r, &e) && *count < MAX_TUTORIAL) {
        if (e.solution_count == 0)
            fail("tutorial level %u has no solution", e.number);
        soko_span s = e.solution[0].moves;
        char *line = malloc(s.len + 1);
        size_t n = 0;
        for (uint32_t i = 0; i < s.len; i++) {
            char ch = text[s.off + i];
            if (strchr("lurdLURD", ch) != NULL)
                line[n++] = ch;
        }
        line[n] = '\0';
        lines[(*count)++] = line;
    }
    free(text);
    if (*count == 0)
        fail("no level in %s", path);
}

/* Reads the collections' ids, and which are the tutorial and the open
 * floor's. */
static void read_collections(struct bench_http_client *client, long *tutorial, long *soak)
{
    json_t *doc = setup_get(client, "/api/v1/collections");
    size_t i;
    json_t *c;
    *tutorial = *soak = 0;
    json_array_foreach(json_object_get(doc, "collections"), i, c)
    {
        long id = bench_json_long(c, "id", 0);
        const char *name = bench_json_text(c, "name");
        if (ncollections < sizeof collection_ids / sizeof collection_ids[0])
            collection_ids[ncollections++] = id;
        if (name != NULL && strcmp(name, "First Steps") == 0)
            *tutorial = id;
        if (name != NULL && strcmp(name, "Soak") == 0)
            *soak = id;
    }
    json_decref(doc);
    if (*tutorial == 0 || *soak == 0)
        fail("the library has no tutorial or no Soak collection");
}

/* Sorts the levels of collection `id` into the open floor, the tutorial's
 * levels (with their solutions) and the levels to browse. */
static void read_levels(struct bench_http_client *client, long id, long tutorial, long soak,
                        char *const *solutions, unsigned nsolutions)
{
    char path[96];
    snprintf(path, sizeof path, "/api/v1/collections/%ld", id);
    json_t *doc = setup_get(client, path);
    size_t i;
    json_t *level;
    json_array_foreach(json_object_get(doc, "levels"), i, level)
    {
        long level_id = bench_json_long(level, "id", 0);
        long position = bench_json_long(level, "position", 0);
        if (id == soak) {
            walk_level = level_id;
        } else if (id == tutorial) {
            if (position >= 1 && (unsigned)position <= nsolutions) {
                tutorial_level[ntutorial] = level_id;
                tutorial_line[ntutorial++] = solutions[position - 1];
            }
        } else {
            long *b = realloc(browse_levels, (nbrowse + 1) * sizeof *b);
            if (b == NULL)
                fail("out of memory");
            browse_levels = b;
            browse_levels[nbrowse++] = level_id;
        }
    }
    json_decref(doc);
}

/* Finds the open floor, the tutorial's levels and every level to browse. */
static void read_library(void)
{
    struct bench_http_client client = bench_http_client(port);
    long tutorial, soak;
    read_collections(&client, &tutorial, &soak);
    char *solutions[MAX_TUTORIAL];
    unsigned nsolutions;
    read_tutorial(solutions, &nsolutions);
    for (unsigned i = 0; i < ncollections; i++)
        read_levels(&client, collection_ids[i], tutorial, soak, solutions, nsolutions);
    if (walk_level == 0 || ntutorial == 0 || nbrowse == 0)
        fail("the library lacks levels to play");
    /* The open floor must stand as written: a game on it starts at (1, 1). */
    char path[96];
    snprintf(path, sizeof path, "/api/v1/levels/%ld", walk_level);
    json_t *doc = setup_get(&client, path);
    const json_t *rows = bench_json_at(doc, "level.rows");
    const char *row0 = json_string_value(json_array_get(rows, 0));
    const char *row1 = json_string_value(json_array_get(rows, 1));
    if (row0 == NULL || row1 == NULL || strcmp(row0, "##########") != 0 ||
        strcmp(row1, "#@       #") != 0) {
        char *text = json_dumps(doc, JSON_COMPACT);
        fail("the open floor is not as written: %s", text != NULL ? text : "");
    }
    json_decref(doc);
    bench_http_close(&client);
}

/* ---------------------------------------------------------------------------
 * The run and its figures
 * ------------------------------------------------------------------------- */

static int by_value(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static double mib(long long bytes)
{
    return (double)bytes / (1024.0 * 1024.0);
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

struct rss_sample {
    uint64_t at; /* since the run started, us */
    long kb;
};

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
        fail("out of memory");
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

static void watch_cache(uint64_t at)
{
    static long done;
    if (cache_full_at != 0)
        return;
    char path[PATH_MAX + 16], line[1024];
    snprintf(path, sizeof path, "%s/stderr.log", sokod.dir);
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
static void print_memory(const struct rss_sample *s, size_t n)
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

int main(void)
{
    nplayers = bench_env_unsigned("BENCH_SOAK_PLAYERS", 1000);
    run_seconds = bench_env_unsigned("BENCH_SOAK_SECONDS", 600);
    session_seconds = bench_env_unsigned("BENCH_SOAK_SESSION_SECONDS", 300);
    seed = bench_env_unsigned("BENCH_SOAK_SEED", 1);
    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    /* Two sockets per player at most, at both ends when the server is ours. */
    struct rlimit lim;
    rlim_t need = (rlim_t)nplayers * 2 + 256;
    if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < need) {
        lim.rlim_cur = lim.rlim_max < need ? lim.rlim_max : need;
        setrlimit(RLIMIT_NOFILE, &lim);
        if (lim.rlim_cur < need)
            printf("note: the open file limit is %llu, low for %u players\n",
                   (unsigned long long)lim.rlim_cur, nplayers);
    }
    atexit(cleanup);
    start_server();
    read_library();
    if (interrupted)
        fail("interrupted while starting");

    errno = 0;
    int niceness = getpriority(PRIO_PROCESS, (id_t)sokod.pid);
    printf("sokod soak: %u players for %u s (sessions of %u s on average, seed %u), %ld CPUs, "
           "sokod on 127.0.0.1:%u (nice %d) with a fresh database\n",
           nplayers, run_seconds, session_seconds, seed, sysconf(_SC_NPROCESSORS_ONLN), port,
           errno == 0 ? niceness : 0);
    printf("library: %u levels to browse, %u tutorial levels with solutions, the open floor "
           "(level %ld)\n",
           nbrowse + ntutorial + 1, ntutorial, walk_level);
    print_load("before");

    epfd = epoll_create1(EPOLL_CLOEXEC);
    players = calloc(nplayers, sizeof *players);
    heap = calloc(nplayers, sizeof *heap);
    size_t max_samples = run_seconds / 10 + 8;
    struct rss_sample *rss = calloc(max_samples, sizeof *rss);
    if (epfd < 0 || players == NULL || heap == NULL || rss == NULL)
        fail("out of memory");
    uint64_t t0 = bench_env_now_us(), end = t0 + (uint64_t)run_seconds * 1000000u;
    uint64_t ramp = (uint64_t)(run_seconds / 4 < RAMP_MAX_S ? run_seconds / 4 : RAMP_MAX_S);
    for (unsigned i = 0; i < nplayers; i++) {
        struct player *p = &players[i];
        p->slot = i;
        p->serial = i; /* start_session adds nplayers: every session its own number */
        p->api.fd = p->feed.fd = -1;
        p->api.p = p->feed.p = p;
        p->feed.feed = true;
        p->rng = seed * 7919u + i;
        start_session(p, t0 + (ramp * 1000000u * i) / (nplayers > 0 ? nplayers : 1));
    }

    /* The library alone: what the database holds before anyone plays. */
    long long db_start =
        bench_sokod_file_size(&sokod, "sokod.db") + bench_sokod_file_size(&sokod, "sokod.db-wal");
    size_t nrss = 0;
    struct bench_sokod_usage use0 = bench_sokod_usage(&sokod), use = use0;
    rss[nrss++] = (struct rss_sample){0, use0.rss_kb};
    long long wal_max = 0;
    uint64_t next_rss = t0 + RSS_EVERY_US, next_wal = t0, next_progress = t0 + PROGRESS_EVERY_US;
    uint64_t next_check = t0;
    unsigned long last_requests = 0;
    uint64_t last_progress = t0;
    struct epoll_event evs[512];
    bool draining = false;
    uint64_t drain_end = 0;

    for (;;) {
        uint64_t now = bench_env_now_us();
        if (!draining && (now >= end || interrupted)) {
            draining = true;
            drain_end = now + ANSWER_TIMEOUT_US;
        }
        if (draining) {
            bool any = false;
            for (unsigned i = 0; i < nplayers && !any; i++)
                any = players[i].busy;
            if (!any || now >= drain_end)
                break;
        }
        /* Due players act, unless a request of theirs is still out. */
        while (!draining && heap_len > 0 && heap[0]->wake <= now) {
            struct player *p = heap_pop();
            if (!p->busy)
                act(p, now);
        }
        if (now >= next_check) {
            check_timeouts(now);
            next_check = now + 250000u;
        }
        if (now >= next_wal) {
            long long w = bench_sokod_file_size(&sokod, "sokod.db-wal");
            wal_max = w > wal_max ? w : wal_max;
            next_wal = now + WAL_EVERY_US;
        }
        if (now >= next_rss) {
            use = bench_sokod_usage(&sokod);
            if (nrss < max_samples)
                rss[nrss++] = (struct rss_sample){now - t0, use.rss_kb};
            watch_cache(now - t0);
            next_rss += RSS_EVERY_US;
        }
        if (now >= next_progress) {
            use = bench_sokod_usage(&sokod);
            unsigned long open = 0;
            for (unsigned i = 0; i < nplayers; i++)
                open += players[i].feed_ready;
            double dt = (double)(now - last_progress) / 1e6;
            /* Latency of these 30 s alone: does the server slow down as it runs? */
            double p50 = 0, p99 = 0;
            if (window.n > 0) {
                qsort(window.v, window.n, sizeof *window.v, by_value);
                p50 = window.v[window.n / 2] / 1000.0;
                p99 = window.v[(size_t)((double)window.n * 0.99)] / 1000.0;
            }
            window.n = 0;
            printf("[%4.0f s] requests %lu (%.0f/s; p50 %.1f ms, p99 %.1f ms), errors %lu, entries "
                   "%lu, streams open %lu, sokod RSS %.1f MiB, CPU %.1f s, WAL %.1f MiB\n",
                   (double)(now - t0) / 1e6, fig.requests,
                   (double)(fig.requests - last_requests) / dt, p50, p99, errors_total, fig.entries,
                   open, use.rss_kb / 1024.0, cpu_seconds(&use0, &use),
                   mib(bench_sokod_file_size(&sokod, "sokod.db-wal")));
            last_requests = fig.requests;
            last_progress = now;
            next_progress += PROGRESS_EVERY_US;
        }
        int timeout = 100;
        if (!draining && heap_len > 0) {
            uint64_t due = heap[0]->wake > now ? heap[0]->wake - now : 0;
            timeout = due / 1000 < 100 ? (int)(due / 1000) : 100;
        }
        int n = epoll_wait(epfd, evs, 512, timeout);
        for (int i = 0; i < n; i++)
            on_event(evs[i].data.ptr, evs[i].events);
    }
    uint64_t wall = bench_env_now_us() - t0;
    if (interrupted)
        printf("interrupted after %.0f s: the figures so far\n", (double)wall / 1e6);

    /* Figures of the server while it still runs. */
    use = bench_sokod_usage(&sokod);
    if (nrss < max_samples)
        rss[nrss++] = (struct rss_sample){wall, use.rss_kb};
    long long db = bench_sokod_file_size(&sokod, "sokod.db"),
              wal = bench_sokod_file_size(&sokod, "sokod.db-wal");
    wal_max = wal > wal_max ? wal : wal_max;
    for (unsigned i = 0; i < nplayers; i++) {
        conn_close(&players[i].api);
        conn_close(&players[i].feed);
    }

    double secs = (double)wall / 1e6;
    printf("\nrequests: %lu in %.1f s, %.0f per second (%lu answers, %lu event streams; %lu sent "
           "again on a new connection after the server closed an idle one, %lu idle connections "
           "closed by the server)\n",
           fig.requests, secs, (double)fig.requests / secs, fig.answered, fig.streams, fig.resent,
           fig.closed_idle);
    printf("errors: %lu\n", errors_total);
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
           fig.entries, (double)fig.entries / secs, fig.moves, fig.pushes, fig.undos, fig.redos,
           fig.restarts, fig.walks, fig.duplicates, fig.solved);
    printf("players: %lu sessions, %lu sign-ups, %lu log-ins; races: %lu rooms, %lu started "
           "(%lu seats), %lu players finished\n",
           fig.sessions, fig.signups, fig.logins, fig.rooms, fig.races_started, fig.race_seats,
           fig.race_finishes);
    printf("event streams: %lu opened, %lu ready; events:", fig.streams, fig.stream_ready);
    for (int k = 0; k <= EV_OTHER; k++)
        printf(" %s %lu,", event_name[k], fig.events[k]);
    printf(" heartbeats %lu; second tabs saw %lu of the %lu entries their games committed while "
           "they watched (%lu events came twice)\n",
           fig.heartbeats, fig.watched_steps_seen, fig.watched_steps_sent, fig.watched_steps_twice);
    print_memory(rss, nrss);
    free(rss);
    long hz = sysconf(_SC_CLK_TCK);
    double cpu = cpu_seconds(&use0, &use);
    printf("sokod CPU: %.1f s user + %.1f s system = %.1f s over %.0f s (%.0f%% of one core); "
           "%.0f us per request\n",
           (double)(use.utime - use0.utime) / (double)hz,
           (double)(use.stime - use0.stime) / (double)hz, cpu, secs, cpu / secs * 100.0,
           fig.requests > 0 ? cpu * 1e6 / (double)fig.requests : 0.0);
    printf("database: sokod.db %.1f MiB + WAL %.1f MiB = %.1f MiB at the end; %.1f MiB per "
           "1,000,000 log entries (extrapolated from %lu); WAL at most %.1f MiB (sampled every "
           "second)\n",
           mib(db), mib(wal), mib(db + wal),
           fig.entries > 0 ? mib(db + wal) / (double)fig.entries * 1e6 : 0.0, fig.entries,
           mib(wal_max));
    stop_server();
    long long db_stopped =
        bench_sokod_file_size(&sokod, "sokod.db") + bench_sokod_file_size(&sokod, "sokod.db-wal");
    printf("after sokod stopped (WAL checkpointed): sokod.db %.1f MiB, WAL %.1f MiB; growth since "
           "the start (%.1f MiB of library): %.1f MiB, %.1f MiB per 1,000,000 log entries\n",
           mib(bench_sokod_file_size(&sokod, "sokod.db")),
           mib(bench_sokod_file_size(&sokod, "sokod.db-wal")), mib(db_start),
           mib(db_stopped - db_start),
           fig.entries > 0 ? mib(db_stopped - db_start) / (double)fig.entries * 1e6 : 0.0);

    /* Anything the server said besides its access log. */
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/stderr.log", sokod.dir);
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
    print_load("after");
    cleanup();
    return 0;
}
