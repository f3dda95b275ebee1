/* The soak benchmark's parts (bench_soak.c runs them): the players
 * (soak_player.c) act on a schedule and send requests on connections
 * (soak_net.c); the answers and events that come back (soak_answers.c)
 * move them on; the library (soak_library.c) is what they play; the
 * figures (soak_figures.c) count it all. One thread runs everything. */
#ifndef SOKOD_BENCH_SOAK_H
#define SOKOD_BENCH_SOAK_H

#include "bench_env.h"
#include "bench_http.h"
#include "bench_json.h"
#include "bench_sokod.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------------------
 * Settings
 * ------------------------------------------------------------------------- */

/* The open floor's walkable squares (soak_library.c writes the level). */
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

/* The run's settings and its sokod (bench_soak.c). */
extern unsigned soak_nplayers, soak_session_seconds, soak_seed;
extern struct bench_sokod soak_sokod;
extern unsigned soak_port;

/* Prints why the run cannot be made, removes sokod's folder and exits 1. */
void soak_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* ---------------------------------------------------------------------------
 * Figures (soak_figures.c)
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

enum { EV_READY, EV_STEP, EV_ROOM, EV_RACE_STEP, EV_SNAPSHOT, EV_OTHER };

/* The event types counted, by EV_ number. */
extern const char *const figures_event_name[];

/* What the run counted. */
struct soak_counts {
    unsigned long requests, answered, resent, closed_idle;
    unsigned long entries, moves, pushes, undos, redos, restarts, walks, duplicates;
    unsigned long solved, sessions, signups, logins;
    unsigned long rooms, races_started, race_seats, race_finishes;
    unsigned long streams, stream_ready, events[6], heartbeats;
    unsigned long watched_steps_sent, watched_steps_seen, watched_steps_twice;
    unsigned long long bytes_in;
};
extern struct soak_counts figures;

/* Every error so far. */
extern unsigned long figures_errors;

/* Records the time a request on route r took to be answered. */
void figures_latency(enum route r, uint64_t us);

/* Counts an error of kind `what` on route r, keeping the first example. */
void figures_error(enum route r, const char *what, const char *example);

/* The median and 99th percentile (ms) of the latencies since the last call
 * (0 when there were none), and forgets them. */
void figures_window(double *p50, double *p99);

/* Prints the requests, errors, latencies per route, entries, players and
 * event streams of a run of `secs` seconds. */
void figures_print_run(double secs);

/* Mebibytes of `bytes`. */
double figures_mib(long long bytes);

/* A sample of sokod's resident memory. */
struct rss_sample {
    uint64_t at; /* since the run started, us */
    long kb;
};

/* Notes, at `at` us since the run started, whether sokod's log says its
 * game cache is full. */
void figures_watch_cache(uint64_t at);

/* Prints the memory samples with a verdict on their growth. */
void figures_print_memory(const struct rss_sample *s, size_t n);

/* Prints what sokod said in its log besides requests and its start. */
void figures_print_sokod_log(void);

/* ---------------------------------------------------------------------------
 * Connections (soak_net.c)
 * ------------------------------------------------------------------------- */

enum level_kind { LV_NONE, LV_WALK, LV_TUTORIAL, LV_BROWSE };
enum feed_kind { FEED_NONE, FEED_GAME, FEED_LINGER, FEED_ROOM, FEED_RACE };
enum race_state { RACE_NONE, RACE_LOBBY, RACE_COUNTDOWN, RACE_RUN, RACE_DONE };
enum entry_kind { EK_STEPS, EK_UNDO, EK_REDO, EK_RESTART, EK_WALK, EK_RACE };

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

/* The epoll every connection is on. */
extern int net_epfd;

/* Closes a connection (a closed one stays closed). */
void net_close(struct conn *c);

/* Sends a request on the player's API connection (connecting first when it
 * is closed). `body` NULL sends no body (a GET). */
void net_send(struct player *p, enum route r, const char *method, const char *path,
              const char *body);

/* Opens the player's event stream on `query` (with its cookie when
 * `with_cookie`). */
void net_open_feed(struct player *p, enum feed_kind kind, const char *query, bool with_cookie);

/* Closes the event stream; a second tab that leaves its game (`linger`)
 * stays open 2 s more, then counts what it saw. */
void net_close_feed(struct player *p, bool linger);

/* Handles what epoll says of a connection: connected, writable, readable. */
void net_event(struct conn *c, uint32_t events);

/* Ends requests that got no answer in time, and streams gone silent. */
void net_check_timeouts(uint64_t now);

/* ---------------------------------------------------------------------------
 * Players (soak_player.c)
 * ------------------------------------------------------------------------- */

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

/* The players, and the heap of those due to act, soonest first. */
extern struct player *player_list;
extern struct player **player_heap;
extern size_t player_heap_len;

/* Starts a new person's session in the player's place at `at`: a new
 * address, a new guest, new choices. */
void player_start_session(struct player *p, uint64_t at);

/* Puts the player's next action at `at` (rescheduling it if it had one). */
void player_schedule(struct player *p, uint64_t at);

/* Takes the player due soonest off the heap (player_heap_len > 0). */
struct player *player_next_due(void);

/* The player's next action, due at `now`. */
void player_act(struct player *p, uint64_t now);

/* A random number below n (0 when n is 0), from the player's own sequence. */
unsigned player_rnd_below(struct player *p, unsigned n);

/* True `percent` times in a hundred. */
bool player_chance(struct player *p, unsigned percent);

/* A pause between two actions, as a person takes: 100 to 500 ms. */
uint64_t player_think_us(struct player *p);

/* The race game is known and the countdown runs: plays from its end. */
void player_race_go(struct player *p, long game, long starts_in_ms);

/* Leaves the player's race room. */
void player_race_leave(struct player *p);

/* The player is out of its lobby: the lobby goes with its last member. */
void player_lobby_release(struct player *p);

/* ---------------------------------------------------------------------------
 * Answers and events (soak_answers.c)
 * ------------------------------------------------------------------------- */

/* The error code of an error answer, or "". */
const char *answers_error_code(const json_t *doc);

/* Handles an answer on the player's API connection and plans what follows. */
void answers_take(struct player *p, enum route r, int status, const char *body);

/* An event of the player's stream (arg is the player): counts it, and
 * drives a racer waiting for its race. */
void answers_event(void *arg, const struct bench_http_event *e);

/* ---------------------------------------------------------------------------
 * The library (soak_library.c)
 * ------------------------------------------------------------------------- */

/* What the players know of the library, read once at the start. */
extern long library_walk_level;
extern long library_tutorial_level[MAX_TUTORIAL];
extern char *library_tutorial_line[MAX_TUTORIAL];
extern unsigned library_ntutorial;
extern long *library_browse;
extern unsigned library_nbrowse;
extern long library_collections[32];
extern unsigned library_ncollections;

/* Fills sokod's levels folder: the checkout's bundled files (linked, not
 * copied) and the open floor. Exits when it cannot. */
void library_make_levels(const char *levels);

/* Finds the open floor, the tutorial's levels and every level to browse,
 * through sokod's API. Exits when the library lacks any. */
void library_read(void);

#endif
