/* Race rooms in memory, under one lock: the rooms, their seats and
 * followers, the phase machine, and what race games tell their room.
 * The phase machine is documented above its events, further down. */
#include "live/room_state.h"

#include "base/clock.h"
#include "base/textbuf.h"
#include "http/ratelimit.h"
#include "live/entry_event.h"
#include "live/events.h"
#include "play/game_play.h"
#include "play/games.h"
#include "storage/storage.h"
#include "storage/storage_games.h"
#include "storage/storage_levels.h"
#include "storage/storage_rooms.h"
#include "storage/storage_users.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROOM_SEATS ROOM_STATE_SEATS
#define ROOM_COUNTDOWN_MS 3000
/* Rooms listed as being played: touched within this long (milliseconds). */
#define ROOM_LISTED_MS (60ll * 60 * 1000)
#define ROOM_LIST_MAX 100
/* Signed-in followers told apart (for "connected"); beyond, they count as
 * anonymous spectators. */
#define ROOM_FOLLOWERS 64

/* Fair play: rooms a user (an address) may open, and race entries: a
 * burst, then one more every interval (milliseconds). */
#define ROOMS_USER_BURST 6
#define ROOMS_USER_MS 10000
#define ROOMS_ADDRESS_BURST 30
#define ROOMS_ADDRESS_MS 2000
#define STEPS_USER_BURST 300
#define STEPS_USER_MS 33
#define STEPS_ADDRESS_BURST 1000
#define STEPS_ADDRESS_MS 10

enum { LIMIT_ROOM_USER, LIMIT_ROOM_ADDRESS, LIMIT_STEP_USER, LIMIT_STEP_ADDRESS, LIMITS };
static struct ratelimit *limits[LIMITS];
static pthread_once_t limits_once = PTHREAD_ONCE_INIT;

static void make_limits(void)
{
    limits[LIMIT_ROOM_USER] = ratelimit_new(ROOMS_USER_BURST, ROOMS_USER_MS);
    limits[LIMIT_ROOM_ADDRESS] = ratelimit_new(ROOMS_ADDRESS_BURST, ROOMS_ADDRESS_MS);
    limits[LIMIT_STEP_USER] = ratelimit_new(STEPS_USER_BURST, STEPS_USER_MS);
    limits[LIMIT_STEP_ADDRESS] = ratelimit_new(STEPS_ADDRESS_BURST, STEPS_ADDRESS_MS);
}

/* Counts one event of `which` for key; false (with *retry) when over. A
 * limiter that could not be made limits nothing. */
static bool limit(int which, const char *key, unsigned *retry)
{
    pthread_once(&limits_once, make_limits);
    return limits[which] == NULL ||
           ratelimit_take(limits[which], key, clock_mono_us() / 1000u, retry);
}

enum phase { PHASE_LOBBY, PHASE_STARTED, PHASE_FINISHED };

struct seat {
    int64_t user_id;
    char name[64];   /* "" for a guest */
    int64_t game_id; /* this round's race game, 0 before the start */
    bool left;
    uint32_t seq, moves, pushes, boxes_on_goal;
    bool finished;
    int64_t time_ms; /* from the start to the solving step's commit */
    unsigned place;
};

struct room {
    int64_t id, host_id, level_id;
    char source[16];
    char title[128];
    uint32_t round, boxes;
    enum phase phase;
    bool starting;     /* a start is creating the games */
    unsigned storing;  /* rematches storing the next round, lock released */
    int64_t starts_at; /* wall clock, milliseconds */
    unsigned nseats, finished;
    struct seat seats[ROOM_SEATS];
    struct {
        int64_t user;
        unsigned streams;
    } followers[ROOM_FOLLOWERS]; /* users with live streams on the room */
    unsigned nfollowers;
    unsigned anonymous;       /* streams of nobody, or past ROOM_FOLLOWERS */
    int64_t touched;          /* wall clock, milliseconds */
    struct room *next, *prev; /* the rooms in memory, newest first */
    struct room *chain;       /* the next room of its bucket */
};

/* The rooms in memory: a list, newest first (the order of the rooms
 * list), and buckets by id. A room comes into memory when it is opened or
 * first asked for, so any client can bring the rooms of the database into
 * memory: there are at most max_rooms at once, which room_space keeps. */
#define ROOM_BUCKETS 4096u

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct room *rooms;
static struct room *buckets[ROOM_BUCKETS];
static unsigned nrooms;
static unsigned max_rooms = 10000; /* --max-rooms, through room_state_set_limit */

static struct room **bucket_of(int64_t id)
{
    return &buckets[(uint64_t)id * 0x9E3779B97F4A7C15ull >> 52];
}

static struct room *find(int64_t id)
{
    for (struct room *r = *bucket_of(id); r != NULL; r = r->chain) {
        if (r->id == id)
            return r;
    }
    return NULL;
}

/* Puts r in memory, first in the list. Lock held. */
static void insert(struct room *r)
{
    r->prev = NULL;
    r->next = rooms;
    if (rooms != NULL)
        rooms->prev = r;
    rooms = r;
    struct room **b = bucket_of(r->id);
    r->chain = *b;
    *b = r;
    nrooms++;
}

/* Takes r out of memory and frees it. Lock held. */
static void forget(struct room *r)
{
    if (r->prev != NULL)
        r->prev->next = r->next;
    else
        rooms = r->next;
    if (r->next != NULL)
        r->next->prev = r->prev;
    struct room **p = bucket_of(r->id);
    while (*p != r)
        p = &(*p)->chain;
    *p = r->chain;
    nrooms--;
    free(r);
}

static struct seat *seat_of(struct room *r, int64_t user)
{
    for (unsigned i = 0; i < r->nseats; i++) {
        if (r->seats[i].user_id == user)
            return &r->seats[i];
    }
    return NULL;
}

/* Live streams of `user` following the room. */
static unsigned streams_of(const struct room *r, int64_t user)
{
    for (unsigned i = 0; i < r->nfollowers; i++) {
        if (r->followers[i].user == user)
            return r->followers[i].streams;
    }
    return 0;
}

/* Streams of people without a seat. */
static unsigned spectators(const struct room *r)
{
    unsigned n = r->anonymous;
    for (unsigned i = 0; i < r->nfollowers; i++) {
        if (seat_of((struct room *)r, r->followers[i].user) == NULL)
            n += r->followers[i].streams;
    }
    return n;
}

struct level_facts {
    char title[128];
    uint32_t boxes;
    bool found;
};

static int take_level(void *arg, const struct storage_level *l)
{
    struct level_facts *f = arg;
    snprintf(f->title, sizeof f->title, "%s", l->title);
    f->boxes = l->boxes;
    f->found = true;
    return 0;
}

/* Whether r may leave memory: nobody follows it and no race of it is under
 * way (it comes back from the database in the lobby, so its seats go). */
static bool forgettable(const struct room *r)
{
    return r->nfollowers == 0 && r->anonymous == 0 && !r->starting && r->storing == 0 &&
           r->phase != PHASE_STARTED;
}

/* Makes room in memory for one more room: forgets the rooms nobody touched
 * for an hour, then, at max_rooms, the one touched longest ago of those
 * that may go. False when every room in memory is in use. Lock held. */
static bool room_space(int64_t now)
{
    struct room *oldest = NULL;
    for (struct room *r = rooms, *next; r != NULL; r = next) {
        next = r->next;
        if (!forgettable(r))
            continue;
        if (now - r->touched > ROOM_LISTED_MS)
            forget(r);
        else if (oldest == NULL || r->touched < oldest->touched)
            oldest = r;
    }
    if (nrooms < max_rooms)
        return true;
    if (oldest == NULL)
        return false;
    forget(oldest);
    return true;
}

void room_state_set_limit(unsigned n)
{
    pthread_mutex_lock(&lock);
    max_rooms = n > 0 ? n : 1;
    pthread_mutex_unlock(&lock);
}

/* Finds a room, loading it from the database into the lobby when this
 * process has not seen it. Returns it with the lock held, or NULL (lock not
 * held) with *status STORAGE_NOT_FOUND, ROOM_STATE_NO_SPACE or a failure. */
static struct room *lock_room(int64_t id, int *status)
{
    pthread_mutex_lock(&lock);
    struct room *r = find(id);
    if (r != NULL)
        return r;
    pthread_mutex_unlock(&lock);
    struct storage_room row;
    *status = storage_room_get(id, &row);
    struct level_facts facts = {0};
    if (*status == STORAGE_OK)
        *status = storage_level_get(row.level_id, 0, take_level, &facts);
    if (*status != STORAGE_OK)
        return NULL;
    struct room *fresh = calloc(1, sizeof *fresh);
    if (fresh == NULL) {
        *status = STORAGE_ERROR;
        return NULL;
    }
    fresh->id = row.id;
    fresh->host_id = row.host_id;
    fresh->level_id = row.level_id;
    snprintf(fresh->source, sizeof fresh->source, "%s", row.source);
    snprintf(fresh->title, sizeof fresh->title, "%s", facts.title);
    fresh->boxes = facts.boxes;
    /* A round that was under way when the process stopped is over: its
     * games stay in the database, the room starts a new round. */
    fresh->round = row.round;
    fresh->phase = PHASE_LOBBY;
    fresh->touched = clock_now_ms();
    pthread_mutex_lock(&lock);
    r = find(id);
    if (r != NULL) {
        free(fresh);
        return r;
    }
    if (!room_space(fresh->touched)) {
        pthread_mutex_unlock(&lock);
        free(fresh);
        *status = ROOM_STATE_NO_SPACE;
        return NULL;
    }
    insert(fresh);
    return fresh;
}

static const char *phase_name(const struct room *r, int64_t now)
{
    switch (r->phase) {
    case PHASE_LOBBY:
        return "lobby";
    case PHASE_STARTED:
        return now < r->starts_at ? "countdown" : "racing";
    case PHASE_FINISHED:
        break;
    }
    return "finished";
}

/* Writes the room's public state (no boards) as a JSON object. Lock held. */
static void write_room(struct textbuf *b, const struct room *r)
{
    int64_t now = clock_now_ms();
    textbuf_puts(b, "{\"id\":");
    textbuf_int(b, r->id);
    textbuf_puts(b, ",\"host_id\":");
    textbuf_int(b, r->host_id);
    textbuf_puts(b, ",\"level_id\":");
    textbuf_int(b, r->level_id);
    textbuf_puts(b, ",\"title\":");
    textbuf_json_string(b, r->title, strlen(r->title));
    textbuf_puts(b, ",\"boxes\":");
    textbuf_int(b, r->boxes);
    textbuf_puts(b, ",\"source\":\"");
    textbuf_puts(b, r->source);
    textbuf_puts(b, "\",\"round\":");
    textbuf_int(b, r->round);
    textbuf_puts(b, ",\"state\":\"");
    textbuf_puts(b, phase_name(r, now));
    textbuf_puts(b, "\",\"starts_in_ms\":");
    if (r->phase == PHASE_STARTED)
        textbuf_int(b, r->starts_at > now ? r->starts_at - now : 0);
    else
        textbuf_puts(b, "null");
    textbuf_puts(b, ",\"spectators\":");
    textbuf_int(b, spectators(r));
    textbuf_puts(b, ",\"players\":[");
    for (unsigned i = 0; i < r->nseats; i++) {
        const struct seat *s = &r->seats[i];
        textbuf_puts(b, i > 0 ? ",{\"user_id\":" : "{\"user_id\":");
        textbuf_int(b, s->user_id);
        textbuf_puts(b, ",\"name\":");
        textbuf_json_string(b, s->name, strlen(s->name));
        textbuf_puts(b, s->user_id == r->host_id ? ",\"host\":true" : ",\"host\":false");
        textbuf_puts(b, streams_of(r, s->user_id) > 0 ? ",\"connected\":true"
                                                      : ",\"connected\":false");
        textbuf_puts(b, s->left ? ",\"left\":true" : ",\"left\":false");
        textbuf_puts(b, ",\"game_id\":");
        if (s->game_id != 0)
            textbuf_int(b, s->game_id);
        else
            textbuf_puts(b, "null");
        textbuf_puts(b, ",\"seq\":");
        textbuf_int(b, s->seq);
        textbuf_puts(b, ",\"moves\":");
        textbuf_int(b, s->moves);
        textbuf_puts(b, ",\"pushes\":");
        textbuf_int(b, s->pushes);
        textbuf_puts(b, ",\"boxes_on_goal\":");
        textbuf_int(b, s->boxes_on_goal);
        textbuf_puts(b, s->finished ? ",\"finished\":true,\"time_ms\":"
                                    : ",\"finished\":false,\"time_ms\":");
        if (s->finished)
            textbuf_int(b, s->time_ms);
        else
            textbuf_puts(b, "null");
        textbuf_puts(b, ",\"place\":");
        if (s->finished)
            textbuf_int(b, s->place);
        else
            textbuf_puts(b, "null");
        textbuf_puts(b, "}");
    }
    textbuf_puts(b, "]}");
}

/* Publishes the room's state to its followers. Lock held: the text is
 * built here and published after the caller unlocks, so it is returned. */
static char *room_event(const struct room *r, size_t *len)
{
    struct textbuf b = {0};
    write_room(&b, r);
    return textbuf_take(&b, len);
}

static void publish_room(int64_t id, char *text, size_t len)
{
    if (text == NULL)
        return;
    char topic[EVENTS_TOPIC_MAX];
    snprintf(topic, sizeof topic, "room:%lld", (long long)id);
    events_publish(topic, "room", text, len, true);
    free(text);
}

static void seat_init(struct seat *s, int64_t user)
{
    memset(s, 0, sizeof *s);
    s->user_id = user;
    if (storage_user_name(user, s->name, sizeof s->name) != STORAGE_OK)
        s->name[0] = '\0';
}

/* After a player left or finished: the race ends once everyone still in it
 * has finished. Lock held. */
static void maybe_finish(struct room *r)
{
    if (r->phase != PHASE_STARTED)
        return;
    for (unsigned i = 0; i < r->nseats; i++) {
        if (!r->seats[i].left && !r->seats[i].finished && r->seats[i].game_id != 0)
            return;
    }
    r->phase = PHASE_FINISHED;
}

/* Fills *v with r as `user` sees it. Lock held. */
static void view_of(const struct room *r, int64_t user, bool changed, struct room_view *v)
{
    struct textbuf b = {0};
    write_room(&b, r);
    v->id = r->id;
    v->room = textbuf_take(&b, &v->room_len);
    v->changed = changed;
    v->seated = user != 0 && seat_of((struct room *)r, user) != NULL;
    v->ngames = r->nseats;
    for (unsigned i = 0; i < r->nseats; i++)
        v->games[i] = r->seats[i].game_id;
}

void room_state_view_done(struct room_view *v)
{
    if (v->changed)
        publish_room(v->id, v->room, v->room_len);
    else
        free(v->room);
    v->room = NULL;
}

int room_state_level_check(int64_t level)
{
    struct level_facts facts = {0};
    return storage_level_get(level, 0, take_level, &facts);
}

int room_state_open(int64_t user, int64_t level, const char *source, struct room_view *v)
{
    memset(v, 0, sizeof *v);
    struct level_facts facts = {0};
    int status = storage_level_get(level, 0, take_level, &facts);
    if (status != STORAGE_OK)
        return status;
    struct storage_room row = {0};
    row.level_id = level;
    snprintf(row.source, sizeof row.source, "%s", source);
    row.host_id = user;
    row.created_at = clock_now();
    status = storage_begin();
    if (status == STORAGE_OK)
        status = storage_room_create(&row);
    status = storage_finish(status);
    if (status != STORAGE_OK)
        return status;
    struct room *r = calloc(1, sizeof *r);
    if (r == NULL)
        return ROOM_STATE_NO_MEMORY;
    r->id = row.id;
    r->host_id = user;
    r->level_id = row.level_id;
    snprintf(r->source, sizeof r->source, "%s", row.source);
    snprintf(r->title, sizeof r->title, "%s", facts.title);
    r->boxes = facts.boxes;
    r->round = 1;
    r->phase = PHASE_LOBBY;
    r->touched = clock_now_ms();
    r->nseats = 1;
    seat_init(&r->seats[0], user);
    pthread_mutex_lock(&lock);
    if (!room_space(r->touched)) {
        /* The room is stored: it opens once memory has space again. */
        pthread_mutex_unlock(&lock);
        free(r);
        return ROOM_STATE_NO_SPACE;
    }
    insert(r);
    view_of(r, user, false, v);
    pthread_mutex_unlock(&lock);
    return STORAGE_OK;
}

/* The phase machine of a room. A room in memory is in one of four phases;
 * `phase` holds three of them, the countdown being PHASE_STARTED before
 * starts_at (GET shows "countdown", then "racing", read from the clock).
 *
 *   LOBBY (PHASE_LOBBY): players take and leave seats; nobody races.
 *     - join: a seat for a newcomer (ROOM_SEATS at most). Stays.
 *     - leave: the seat goes; the host's role passes to the first seat.
 *     - start (the host, someone seated): `starting` is set while the
 *       round's games are stored with the lock released; stored, every seat
 *       of the start gets its game -> COUNTDOWN; failed -> stays.
 *     Arrived at by opening, by loading from the database (with no seats,
 *     in the stored round: a round under way when the process stopped is
 *     over) and by a rematch.
 *     Invariants: no seat has finished or left; finished == 0; games are
 *     those of no round yet (0), until the start gives them.
 *   COUNTDOWN (PHASE_STARTED, now < starts_at): the games exist; their
 *     entries are refused (race_not_started).
 *     - the clock reaching starts_at -> RACING (no event: nothing to do).
 *     - leave: the seat is marked left; -> FINISHED when no seat races on.
 *     - join: a newcomer is refused (race_under_way); a seat that left is
 *       back in the race.
 *   RACING (PHASE_STARTED, now >= starts_at): each seat's entries are taken,
 *     within the step rate limits, until it finishes or leaves.
 *     - an entry that solves: the seat finishes, with its time from
 *       starts_at and the next place; -> FINISHED when no seat races on.
 *     - leave, join: as in COUNTDOWN.
 *   FINISHED (PHASE_FINISHED): the results stand; entries are refused
 *     (race_over).
 *     - join: a newcomer takes a seat, with no game, for the next round.
 *     - leave: the seat goes, as in the lobby.
 *     - rematch (a seated player or the host): the round goes up and is
 *       stored, the seats that left go, the others are reset -> LOBBY.
 *
 * In COUNTDOWN and RACING: starts_at is set; a seat with no game came while
 * the games were being stored and waits for the next round; `finished`
 * seats have places 1..finished. "No seat races on": every seat with a
 * game has finished or left (maybe_finish). A room leaves memory only when
 * nobody follows it, no start or rematch is storing what it needs (with
 * the lock released, r must stay), and it is not in PHASE_STARTED
 * (forgettable); it then comes back in the LOBBY.
 *
 * The events are coded below (join, leave, start, rematch), in
 * step_allowed (an entry let through or refused) and in race_entry (an
 * entry committed). */

/* An event of the phase machine (above) on room r, by `user`: called and
 * returning with the lock held (a start and a rematch release it while
 * they store what they need, r held in memory meanwhile). Returns STORAGE_OK with
 * *changed when the followers are to be told, or a refusal (r as it was)
 * or a storage failure. */
typedef int (*room_transition)(struct room *r, int64_t user, bool *changed);

/* Runs event `fn` (NULL: none) on room `id` and fills *v with the room
 * it leaves. */
static int run(int64_t id, int64_t user, room_transition fn, struct room_view *v)
{
    memset(v, 0, sizeof *v);
    int status = STORAGE_OK;
    struct room *r = lock_room(id, &status);
    if (r == NULL)
        return status;
    bool changed = false;
    status = fn != NULL ? fn(r, user, &changed) : STORAGE_OK;
    if (status == STORAGE_OK)
        view_of(r, user, changed, v);
    pthread_mutex_unlock(&lock);
    return status;
}

static int join(struct room *r, int64_t user, bool *changed)
{
    struct seat *s = seat_of(r, user);
    if (s == NULL && r->phase == PHASE_STARTED)
        return ROOM_STATE_RACING;
    if (s == NULL && r->nseats == ROOM_SEATS)
        return ROOM_STATE_FULL;
    if (s == NULL) {
        /* The name is read under the lock: one quick indexed read. */
        s = &r->seats[r->nseats++];
        seat_init(s, user);
        *changed = true;
    } else if (s->left) {
        s->left = false; /* back in the race */
        *changed = true;
    }
    r->touched = clock_now_ms();
    return STORAGE_OK;
}

static int leave(struct room *r, int64_t user, bool *changed)
{
    struct seat *s = seat_of(r, user);
    if (s == NULL)
        return STORAGE_OK;
    if (r->phase == PHASE_STARTED) {
        s->left = true;
        maybe_finish(r);
    } else {
        *s = r->seats[--r->nseats];
        if (user == r->host_id && r->nseats > 0)
            r->host_id = r->seats[0].user_id;
    }
    r->touched = clock_now_ms();
    *changed = true;
    return STORAGE_OK;
}

static int start(struct room *r, int64_t user, bool *changed)
{
    if (r->host_id != user)
        return ROOM_STATE_NOT_HOST;
    if (r->phase != PHASE_LOBBY || r->starting || r->nseats == 0)
        return ROOM_STATE_RACING;
    r->starting = true;
    int64_t users[ROOM_SEATS], games[ROOM_SEATS] = {0};
    unsigned n = r->nseats;
    for (unsigned i = 0; i < n; i++)
        users[i] = r->seats[i].user_id;
    int64_t id = r->id, level = r->level_id;
    uint32_t round = r->round;
    pthread_mutex_unlock(&lock);
    /* A fresh game for every seat, committed before anyone can step. */
    int status = storage_begin();
    for (unsigned i = 0; i < n && status == STORAGE_OK; i++)
        status = storage_race_game(id, round, users[i], level, clock_now(), &games[i]);
    status = storage_finish(status);
    pthread_mutex_lock(&lock);
    r->starting = false;
    if (status != STORAGE_OK)
        return status;
    /* Seats that left the lobby meanwhile have a game they never play;
     * seats that came meanwhile wait for the next round. */
    for (unsigned i = 0; i < r->nseats; i++) {
        struct seat *s = &r->seats[i];
        for (unsigned k = 0; k < n; k++) {
            if (users[k] == s->user_id)
                s->game_id = games[k];
        }
    }
    r->phase = PHASE_STARTED;
    r->starts_at = clock_now_ms() + ROOM_COUNTDOWN_MS;
    r->touched = clock_now_ms();
    *changed = true;
    return STORAGE_OK;
}

/* The seats of the next round: those that left go, the others keep their
 * place with nothing of the last round. Lock held. */
static void next_round(struct room *r)
{
    unsigned kept = 0;
    for (unsigned i = 0; i < r->nseats; i++) {
        struct seat s = r->seats[i];
        if (s.left)
            continue;
        struct seat *fresh = &r->seats[kept++];
        *fresh = s;
        fresh->game_id = 0;
        fresh->seq = fresh->moves = fresh->pushes = fresh->boxes_on_goal = 0;
        fresh->finished = false;
        fresh->time_ms = 0;
        fresh->place = 0;
    }
    r->nseats = kept;
    if (seat_of(r, r->host_id) == NULL && kept > 0)
        r->host_id = r->seats[0].user_id;
    r->round++;
    r->finished = 0;
    r->phase = PHASE_LOBBY;
    r->touched = clock_now_ms();
}

static int rematch(struct room *r, int64_t user, bool *changed)
{
    if (seat_of(r, user) == NULL && user != r->host_id)
        return ROOM_STATE_NOT_HOST;
    /* Already called by another player: the lobby of the next round. */
    if (r->phase == PHASE_LOBBY)
        return STORAGE_OK;
    if (r->phase != PHASE_FINISHED)
        return ROOM_STATE_NOT_OVER;
    uint32_t round = r->round + 1;
    r->storing++;
    pthread_mutex_unlock(&lock);
    int status = storage_room_set_round(r->id, round);
    pthread_mutex_lock(&lock);
    r->storing--;
    if (status != STORAGE_OK)
        return status;
    if (r->phase == PHASE_FINISHED && r->round + 1 == round)
        next_round(r);
    *changed = true;
    return STORAGE_OK;
}

int room_state_view(int64_t id, int64_t user, struct room_view *v)
{
    return run(id, user, NULL, v);
}

int room_state_join(int64_t id, int64_t user, struct room_view *v)
{
    return run(id, user, join, v);
}

int room_state_leave(int64_t id, int64_t user, struct room_view *v)
{
    return run(id, user, leave, v);
}

int room_state_start(int64_t id, int64_t user, struct room_view *v)
{
    return run(id, user, start, v);
}

int room_state_rematch(int64_t id, int64_t user, struct room_view *v)
{
    return run(id, user, rematch, v);
}

char *room_state_list(size_t *len)
{
    int64_t now = clock_now_ms();
    struct textbuf b = {0};
    textbuf_puts(&b, "{\"rooms\":[");
    unsigned n = 0;
    pthread_mutex_lock(&lock);
    for (struct room *r = rooms; r != NULL && n < ROOM_LIST_MAX; r = r->next) {
        unsigned present = 0;
        for (unsigned i = 0; i < r->nseats; i++)
            present += !r->seats[i].left;
        if (r->phase == PHASE_FINISHED || present == 0 || now - r->touched > ROOM_LISTED_MS)
            continue;
        if (n++ > 0)
            textbuf_puts(&b, ",");
        write_room(&b, r);
    }
    pthread_mutex_unlock(&lock);
    textbuf_puts(&b, "]}");
    return textbuf_take(&b, len);
}

bool room_state_may_open(int64_t user, const char *address, unsigned *retry)
{
    char who[32];
    snprintf(who, sizeof who, "%lld", (long long)user);
    return limit(LIMIT_ROOM_USER, who, retry) && limit(LIMIT_ROOM_ADDRESS, address, retry);
}

/* Whether the race game g may take an entry now, sent from `address`
 * (http_client_address); a game outside any room always may. Returns true, or false with *code
 * (rate_limited, race_not_started, race_over) and a message in msg (cap bytes). */
static bool step_allowed(const struct live_game *g, const char *address, enum api_error *code,
                         char *msg, size_t cap)
{
    if (g->room_id == 0)
        return true;
    unsigned retry = 0;
    char who[32];
    snprintf(who, sizeof who, "%lld", (long long)g->user_id);
    if (!limit(LIMIT_STEP_USER, who, &retry) || !limit(LIMIT_STEP_ADDRESS, address, &retry)) {
        *code = API_E_RATE_LIMITED;
        snprintf(msg, cap, "too many race steps: try again in %u s", retry);
        return false;
    }
    pthread_mutex_lock(&lock);
    struct room *r = find(g->room_id);
    struct seat *s = r != NULL ? seat_of(r, g->user_id) : NULL;
    bool ok = false;
    if (r == NULL || r->round != g->round || s == NULL || s->game_id != g->id) {
        *code = API_E_RACE_OVER;
        snprintf(msg, cap, "this race is over");
    } else if (r->phase == PHASE_STARTED && clock_now_ms() < r->starts_at) {
        *code = API_E_RACE_NOT_STARTED;
        snprintf(msg, cap, "the race starts in %lld ms",
                 (long long)(r->starts_at - clock_now_ms()));
    } else if (r->phase != PHASE_STARTED || s->finished) {
        *code = API_E_RACE_OVER;
        snprintf(msg, cap, s->finished ? "you have finished this race" : "this race is over");
    } else if (s->left) {
        *code = API_E_RACE_OVER;
        snprintf(msg, cap, "you left this race: join the room again to play on");
    } else {
        ok = true;
    }
    pthread_mutex_unlock(&lock);
    return ok;
}

/* Tells the room of race game g that entry `seq` was committed: the seat's
 * counts, its finish and the room's end follow, and the room's followers
 * get the entry ("race_step") and any change of the room ("room"). Call
 * after the commit, with g held. */
static void race_entry(const struct live_game *g, int kind, uint32_t seq, const char *steps,
                       uint32_t count)
{
    if (g->room_id == 0 || kind < 0 || kind > STORAGE_LOG_RESTART)
        return;
    int64_t now = clock_now_ms();
    pthread_mutex_lock(&lock);
    struct room *r = find(g->room_id);
    struct seat *s = r != NULL && r->round == g->round ? seat_of(r, g->user_id) : NULL;
    if (s == NULL || s->game_id != g->id) {
        pthread_mutex_unlock(&lock);
        return;
    }
    s->seq = seq;
    s->moves = g->game.moves;
    s->pushes = g->game.pushes;
    s->boxes_on_goal = g->game.boxes_on_goal;
    bool finished_now = false;
    if (soko_game_solved(&g->game) && !s->finished && r->phase == PHASE_STARTED) {
        s->finished = true;
        s->time_ms = now - r->starts_at;
        s->place = ++r->finished;
        finished_now = true;
        maybe_finish(r);
    }
    r->touched = now;
    struct textbuf b = {0};
    textbuf_puts(&b, "{\"room\":");
    textbuf_int(&b, r->id);
    textbuf_puts(&b, ",\"round\":");
    textbuf_int(&b, r->round);
    textbuf_puts(&b, ",\"user_id\":");
    textbuf_int(&b, g->user_id);
    textbuf_puts(&b, ",\"game\":");
    textbuf_int(&b, g->id);
    entry_event_fields(&b, &g->game, kind, seq, steps, count);
    textbuf_puts(&b, ",\"boxes_on_goal\":");
    textbuf_int(&b, s->boxes_on_goal);
    textbuf_puts(&b, soko_game_solved(&g->game) ? ",\"solved\":true}" : ",\"solved\":false}");
    size_t step_len = 0, room_len = 0;
    char *step = textbuf_take(&b, &step_len);
    char *room = finished_now ? room_event(r, &room_len) : NULL;
    int64_t id = r->id;
    pthread_mutex_unlock(&lock);
    if (step != NULL) {
        char topic[EVENTS_TOPIC_MAX];
        snprintf(topic, sizeof topic, "room:%lld", (long long)id);
        events_publish(topic, "race_step", step, step_len, true);
        free(step);
    }
    publish_room(id, room, room_len);
}

int room_state_presence(int64_t id, int64_t user, int delta)
{
    int status = STORAGE_OK;
    struct room *r = lock_room(id, &status);
    if (r == NULL)
        return status;
    bool seated = user != 0 && seat_of(r, user) != NULL;
    bool was = seated && streams_of(r, user) > 0;
    unsigned i = 0;
    while (user != 0 && i < r->nfollowers && r->followers[i].user != user)
        i++;
    if (delta > 0) {
        if (user != 0 && i == r->nfollowers && i < ROOM_FOLLOWERS)
            r->followers[r->nfollowers++].user = user;
        if (user != 0 && i < r->nfollowers)
            r->followers[i].streams++;
        else
            r->anonymous++;
    } else if (user != 0 && i < r->nfollowers && r->followers[i].streams > 0) {
        if (--r->followers[i].streams == 0)
            r->followers[i] = r->followers[--r->nfollowers];
    } else if (r->anonymous > 0) {
        r->anonymous--;
    }
    char *event = NULL;
    size_t len = 0;
    if (seated && was != (streams_of(r, user) > 0))
        event = room_event(r, &len);
    pthread_mutex_unlock(&lock);
    publish_room(id, event, len);
    return STORAGE_OK;
}

int room_state_listen(void)
{
    if (games_add_guard(step_allowed) != 0)
        return -1;
    return games_add_listener(race_entry);
}
