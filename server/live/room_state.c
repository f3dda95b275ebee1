/* Race rooms: the phase machine, decided in the database (each event in a
 * transaction that locks the room's row, so that whichever node runs it
 * decides it once), the rooms this node holds in memory (its followers
 * here, under one lock), and what race games tell their room. The phase
 * machine is documented above its events, further down. */
#include "live/room_state.h"

#include "base/clock.h"
#include "base/metrics.h"
#include "base/textbuf.h"
#include "http/ratelimit.h"
#include "live/entry_event.h"
#include "live/events.h"
#include "live/room_text.h"
#include "play/game_play.h"
#include "play/games.h"
#include "storage/storage.h"
#include "storage/storage_games.h"
#include "storage/storage_levels.h"
#include "storage/storage_room_state.h"
#include "storage/storage_rooms.h"
#include "storage/storage_users.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* A room this node holds: what it shows of the level, the live streams
 * following it here, and the last of its events (numbered in the
 * database) published to them. */
struct room {
    int64_t id;
    char title[128];
    uint32_t boxes;
    unsigned busy;     /* operations on the room under way, lock released */
    int64_t published; /* the room's last event published here */
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

/* The rooms in memory: a list, newest first, and buckets by id. A room
 * comes into memory when it is opened or first asked for, so any client
 * can bring the rooms of the database into memory: there are at most
 * max_rooms at once, which room_space keeps. */
#define ROOM_BUCKETS 4096u

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct room *rooms;
static struct room *buckets[ROOM_BUCKETS];
static unsigned nrooms;
static unsigned max_rooms = 10000; /* --max-rooms, through room_state_set_limit */

/* This process, as the room_presence rows of its streams name it. */
static char node[48];
static pthread_once_t node_once = PTHREAD_ONCE_INIT;

static void make_node(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    char host[24] = "";
    gethostname(host, sizeof host - 1);
    snprintf(node, sizeof node, "%s/%d.%lx", host, (int)getpid(), (unsigned long)t.tv_nsec);
}

static const char *node_name(void)
{
    pthread_once(&node_once, make_node);
    return node;
}

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

/* Whether r may leave memory: nobody follows it here and no operation on
 * it is under way (the room itself is in the database). */
static bool forgettable(const struct room *r)
{
    return r->nfollowers == 0 && r->anonymous == 0 && r->busy == 0;
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

/* Puts a room read from the database in memory (at most max_rooms).
 * Returns it with the lock held, or NULL (lock not held) with *status
 * ROOM_STATE_NO_SPACE or ROOM_STATE_NO_MEMORY. */
static struct room *hold(const struct storage_room_state *s, const struct level_facts *facts,
                         int *status)
{
    struct room *fresh = calloc(1, sizeof *fresh);
    if (fresh == NULL) {
        *status = ROOM_STATE_NO_MEMORY;
        return NULL;
    }
    fresh->id = s->id;
    snprintf(fresh->title, sizeof fresh->title, "%s", facts->title);
    fresh->boxes = facts->boxes;
    fresh->published = s->event_seq;
    fresh->touched = clock_now_ms();
    pthread_mutex_lock(&lock);
    struct room *r = find(s->id);
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

/* Finds a room in memory, reading it from the database when this process
 * does not hold it. Returns it with the lock held, or NULL (lock not
 * held) with *status STORAGE_NOT_FOUND, ROOM_STATE_NO_SPACE or a failure. */
static struct room *lock_room(int64_t id, int *status)
{
    pthread_mutex_lock(&lock);
    struct room *r = find(id);
    if (r != NULL)
        return r;
    pthread_mutex_unlock(&lock);
    struct storage_room_state s;
    *status = storage_room_state_read(id, false, &s);
    struct level_facts facts = {0};
    if (*status == STORAGE_OK)
        *status = storage_level_get(s.level_id, 0, take_level, &facts);
    if (*status != STORAGE_OK)
        return NULL;
    return hold(&s, &facts, status);
}

/* Keeps room `id` in memory while an operation runs with the lock
 * released, and copies what it shows of its level. */
static int pin(int64_t id, char *title, size_t cap, uint32_t *boxes)
{
    int status = STORAGE_OK;
    struct room *r = lock_room(id, &status);
    if (r == NULL)
        return status;
    r->busy++;
    r->touched = clock_now_ms();
    snprintf(title, cap, "%s", r->title);
    *boxes = r->boxes;
    pthread_mutex_unlock(&lock);
    return STORAGE_OK;
}

static void unpin(int64_t id)
{
    pthread_mutex_lock(&lock);
    struct room *r = find(id);
    if (r != NULL && r->busy > 0)
        r->busy--;
    pthread_mutex_unlock(&lock);
}

static char *room_text(const struct storage_room_state *s, const char *title, uint32_t boxes,
                       size_t *len)
{
    struct textbuf b = {0};
    room_text_write(&b, s, title, boxes, clock_now_ms());
    return textbuf_take(&b, len);
}

/* Events are published here one room at a time, in their order. */
static pthread_mutex_t publishing = PTHREAD_MUTEX_INITIALIZER;

/* Counts the changes to rooms this node made or heard of: the list of
 * rooms made before the last one is stale. */
static atomic_uint_fast64_t rooms_changed;

static void room_changed(void)
{
    atomic_fetch_add_explicit(&rooms_changed, 1, memory_order_relaxed);
}

struct delivery {
    char topic[EVENTS_TOPIC_MAX];
    int64_t last;
};

static int deliver_one(void *arg, int64_t seq, const char *type, const char *data)
{
    struct delivery *d = arg;
    events_publish(d->topic, type, data, strlen(data), true, (uint64_t)seq);
    d->last = seq;
    return 0;
}

/* Publishes to the streams following room `id` here the room's events
 * they were not given, up to `seq` at least (as the database numbers
 * them), read from the database: the events of this node's operations and
 * those another node notified. A room nobody follows here only moves its
 * mark; a room this node does not hold is none of its business. */
static void deliver(int64_t id, int64_t seq)
{
    room_changed();
    pthread_mutex_lock(&publishing);
    pthread_mutex_lock(&lock);
    struct room *r = find(id);
    int64_t after = r != NULL ? r->published : seq;
    pthread_mutex_unlock(&lock);
    struct delivery d = {.last = after};
    snprintf(d.topic, sizeof d.topic, "room:%" PRId64, id);
    if (r != NULL && after < seq && !events_wanted(d.topic))
        d.last = seq;
    else if (r != NULL && (after < seq || seq == 0))
        storage_room_events_after(id, after, deliver_one, &d);
    pthread_mutex_lock(&lock);
    r = find(id);
    if (r != NULL && d.last > r->published)
        r->published = d.last;
    pthread_mutex_unlock(&lock);
    pthread_mutex_unlock(&publishing);
}

static void seat_init(struct storage_room_seat *s, int64_t user)
{
    memset(s, 0, sizeof *s);
    s->user_id = user;
    if (storage_user_name(user, s->name, sizeof s->name) != STORAGE_OK)
        s->name[0] = '\0';
}

static struct storage_room_seat *seat_of(struct storage_room_state *s, int64_t user)
{
    for (unsigned i = 0; i < s->nseats; i++) {
        if (s->seats[i].user_id == user)
            return &s->seats[i];
    }
    return NULL;
}

/* After a player left or finished: the race ends once everyone still in it
 * has finished. */
static void maybe_finish(struct storage_room_state *s)
{
    if (s->phase != PHASE_STARTED)
        return;
    for (unsigned i = 0; i < s->nseats; i++) {
        if (!s->seats[i].gone && !s->seats[i].finished && s->seats[i].game_id != 0)
            return;
    }
    s->phase = PHASE_FINISHED;
}

/* Fills *v with room s as `user` sees it; text is its JSON (taken, or
 * NULL: made here). */
static void view_of(struct storage_room_state *s, int64_t user, const char *title, uint32_t boxes,
                    char *text, size_t len, struct room_view *v)
{
    v->id = s->id;
    if (text == NULL)
        text = room_text(s, title, boxes, &len);
    v->room = text;
    v->room_len = len;
    v->seated = user != 0 && seat_of(s, user) != NULL;
    v->ngames = s->nseats;
    for (unsigned i = 0; i < s->nseats; i++)
        v->games[i] = s->seats[i].game_id;
}

void room_state_view_done(struct room_view *v)
{
    free(v->room);
    v->room = NULL;
    if (v->changed)
        deliver(v->id, v->event);
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
    struct storage_room_state s = {0};
    unsigned runs = 0;
    do {
        status = storage_begin();
        if (status == STORAGE_OK)
            status = storage_room_create(&row);
        if (status == STORAGE_OK) {
            s.id = row.id;
            s.host_id = user;
            s.level_id = level;
            snprintf(s.source, sizeof s.source, "%s", row.source);
            s.round = 1;
            s.phase = PHASE_LOBBY;
            s.touched_at = clock_now_ms();
            s.nseats = 1;
            seat_init(&s.seats[0], user);
            status = storage_room_state_save(&s);
        }
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    if (status != STORAGE_OK)
        return status;
    room_changed();
    /* The room is stored: when memory is full, it opens once there is space. */
    struct room *r = hold(&s, &facts, &status);
    if (r == NULL)
        return status;
    pthread_mutex_unlock(&lock);
    view_of(&s, user, facts.title, facts.boxes, NULL, 0, v);
    return STORAGE_OK;
}

/* The phase machine of a room, kept in its row of rooms and its seats in
 * room_seats. A room is in one of four phases; `phase` holds three of
 * them, the countdown being PHASE_STARTED before starts_at (GET shows
 * "countdown", then "racing", read from the clock, which follows the
 * database's on every node).
 *
 *   LOBBY (PHASE_LOBBY): players take and leave seats; nobody races.
 *     - join: a seat for a newcomer (ROOM_SEATS at most). Stays.
 *     - leave: the seat goes; the host's role passes to the first seat.
 *     - start (the host, someone seated): every seat gets a race game of
 *       the round, stored in the same transaction -> COUNTDOWN.
 *     Arrived at by opening and by a rematch.
 *     Invariants: no seat has finished or left; places == 0; games are
 *     those of no round yet (0), until the start gives them.
 *   COUNTDOWN (PHASE_STARTED, now < starts_at): the games exist; their
 *     entries are refused (race_not_started).
 *     - the clock reaching starts_at -> RACING (nothing to store: every
 *       node reads the phase against starts_at).
 *     - leave: the seat is marked left; -> FINISHED when no seat races on.
 *     - join: a newcomer is refused (race_under_way); a seat that left is
 *       back in the race.
 *   RACING (PHASE_STARTED, now >= starts_at): each seat's entries are taken,
 *     within the step rate limits, until it finishes or leaves.
 *     - an entry that solves (committed, then told to the room): the seat
 *       finishes, with its time from starts_at and the next place;
 *       -> FINISHED when no seat races on.
 *     - leave, join: as in COUNTDOWN.
 *   FINISHED (PHASE_FINISHED): the results stand; entries are refused
 *     (race_over).
 *     - join: a newcomer takes a seat, with no game, for the next round.
 *     - leave: the seat goes, as in the lobby.
 *     - rematch (a seated player or the host): the round goes up, the
 *       seats that left go, the others are reset -> LOBBY.
 *
 * In COUNTDOWN and RACING: starts_at is set; a seat with no game came
 * after the start and waits for the next round; finished seats have places
 * 1..places. "No seat races on": every seat with a game has finished or
 * left (maybe_finish). Each event runs in one transaction that reads the
 * room with its row locked (FOR UPDATE on PostgreSQL; SQLite's write lock
 * serialises already), decides, stores the room and its event, and
 * notifies the other nodes: two nodes never both decide one event.
 *
 * The events are coded below (join, leave, start, rematch), in
 * step_allowed (an entry let through or refused) and in race_entry (an
 * entry committed). */

/* An event of the phase machine (above) on room s, by `user`, inside the
 * transaction that locked it. Returns STORAGE_OK with *changed when the
 * room is to be stored and its followers told, or a refusal (s as it was)
 * or a storage failure. */
typedef int (*room_transition)(struct storage_room_state *s, int64_t user, bool *changed);

/* Stores room s as an event left it, then reads it back (whom each seat's
 * streams show connected follows the seats) and adds a "room" event of
 * it, whose text is *text (malloc'd, *len bytes) and number v->event. */
static int store_changed(struct storage_room_state *s, const char *title, uint32_t boxes,
                         char **text, size_t *len, struct room_view *v)
{
    int status = storage_room_state_save(s);
    if (status == STORAGE_OK)
        status = storage_room_state_read(s->id, false, s);
    if (status != STORAGE_OK)
        return status;
    *text = room_text(s, title, boxes, len);
    if (*text == NULL)
        return STORAGE_ERROR;
    return storage_room_event_add(s->id, "room", *text, &v->event);
}

/* Runs event `fn` (NULL: none, a read) on room `id` and fills *v with the
 * room it leaves. */
static int run(int64_t id, int64_t user, room_transition fn, struct room_view *v)
{
    memset(v, 0, sizeof *v);
    char title[128];
    uint32_t boxes = 0;
    int status = pin(id, title, sizeof title, &boxes);
    if (status != STORAGE_OK)
        return status;
    struct storage_room_state s;
    char *text = NULL;
    size_t len = 0;
    bool changed = false;
    if (fn == NULL) {
        status = storage_room_state_read(id, false, &s);
    } else {
        unsigned runs = 0;
        do {
            free(text);
            text = NULL;
            len = 0;
            changed = false;
            v->event = 0;
            status = storage_begin();
            if (status == STORAGE_OK)
                status = storage_room_state_read(id, true, &s);
            if (status == STORAGE_OK)
                status = fn(&s, user, &changed);
            if (status == STORAGE_OK && changed) {
                s.touched_at = clock_now_ms();
                status = store_changed(&s, title, boxes, &text, &len, v);
            }
            status = storage_finish(status);
        } while (storage_again(status, &runs));
    }
    unpin(id);
    if (status != STORAGE_OK) {
        free(text);
        return status;
    }
    v->changed = changed;
    view_of(&s, user, title, boxes, text, len, v);
    return STORAGE_OK;
}

static int join(struct storage_room_state *s, int64_t user, bool *changed)
{
    struct storage_room_seat *seat = seat_of(s, user);
    if (seat == NULL && s->phase == PHASE_STARTED)
        return ROOM_STATE_RACING;
    if (seat == NULL && s->nseats == ROOM_SEATS)
        return ROOM_STATE_FULL;
    if (seat == NULL) {
        seat = &s->seats[s->nseats];
        seat_init(seat, user);
        s->nseats++;
        *changed = true;
    } else if (seat->gone) {
        seat->gone = false; /* back in the race */
        *changed = true;
    }
    return STORAGE_OK;
}

static int leave(struct storage_room_state *s, int64_t user, bool *changed)
{
    struct storage_room_seat *seat = seat_of(s, user);
    if (seat == NULL)
        return STORAGE_OK;
    if (s->phase == PHASE_STARTED) {
        seat->gone = true;
        maybe_finish(s);
    } else {
        *seat = s->seats[--s->nseats];
        if (user == s->host_id && s->nseats > 0)
            s->host_id = s->seats[0].user_id;
    }
    *changed = true;
    return STORAGE_OK;
}

static int start(struct storage_room_state *s, int64_t user, bool *changed)
{
    if (s->host_id != user)
        return ROOM_STATE_NOT_HOST;
    if (s->phase != PHASE_LOBBY || s->nseats == 0)
        return ROOM_STATE_RACING;
    /* A fresh game for every seat, committed with the start, before anyone
     * can step. */
    int status = STORAGE_OK;
    for (unsigned i = 0; i < s->nseats && status == STORAGE_OK; i++)
        status = storage_race_game(s->id, s->round, s->seats[i].user_id, s->level_id, clock_now(),
                                   &s->seats[i].game_id);
    if (status != STORAGE_OK)
        return status;
    s->phase = PHASE_STARTED;
    s->starts_at = clock_now_ms() + ROOM_COUNTDOWN_MS;
    *changed = true;
    return STORAGE_OK;
}

/* The seats of the next round: those that left go, the others keep their
 * place with nothing of the last round. */
static void next_round(struct storage_room_state *s)
{
    unsigned kept = 0;
    for (unsigned i = 0; i < s->nseats; i++) {
        struct storage_room_seat seat = s->seats[i];
        if (seat.gone)
            continue;
        struct storage_room_seat *fresh = &s->seats[kept++];
        *fresh = seat;
        fresh->game_id = 0;
        fresh->seq = fresh->moves = fresh->pushes = fresh->boxes_on_goal = 0;
        fresh->finished = false;
        fresh->time_ms = 0;
        fresh->place = 0;
    }
    s->nseats = kept;
    if (seat_of(s, s->host_id) == NULL && kept > 0)
        s->host_id = s->seats[0].user_id;
    s->round++;
    s->places = 0;
    s->starts_at = 0;
    s->phase = PHASE_LOBBY;
}

static int rematch(struct storage_room_state *s, int64_t user, bool *changed)
{
    if (seat_of(s, user) == NULL && user != s->host_id)
        return ROOM_STATE_NOT_HOST;
    /* Already called by another player: the lobby of the next round. */
    if (s->phase == PHASE_LOBBY)
        return STORAGE_OK;
    if (s->phase != PHASE_FINISHED)
        return ROOM_STATE_NOT_OVER;
    next_round(s);
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

/* Appends room `id` to the list when someone is in it; false when it
 * could not be read. */
static bool list_room(struct textbuf *b, int64_t id, unsigned *n)
{
    struct storage_room_state s;
    if (storage_room_state_read(id, false, &s) != STORAGE_OK)
        return false;
    unsigned present = 0;
    for (unsigned i = 0; i < s.nseats; i++)
        present += !s.seats[i].gone;
    if (present == 0)
        return true;
    struct level_facts facts = {0};
    pthread_mutex_lock(&lock);
    struct room *r = find(id);
    if (r != NULL) {
        snprintf(facts.title, sizeof facts.title, "%s", r->title);
        facts.boxes = r->boxes;
        facts.found = true;
    }
    pthread_mutex_unlock(&lock);
    if (!facts.found && storage_level_get(s.level_id, 0, take_level, &facts) != STORAGE_OK)
        return false;
    if ((*n)++ > 0)
        textbuf_puts(b, ",");
    room_text_write(b, &s, facts.title, facts.boxes, clock_now_ms());
    return true;
}

/* The list of rooms, as made last: reading it costs a few statements per
 * room listed (up to ROOM_LIST_MAX), so it is made once and given to
 * every request until a room changes (here or, as heard, on another node)
 * or it is LIST_KEPT_MS old (phases that move on with the clock, rooms
 * opened on another node). However often anyone asks, the database reads
 * it at most once per change, and once a second. */
#define LIST_KEPT_MS 1000
static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    char *text;
    size_t len;
    uint64_t changes; /* rooms_changed when it was made */
    int64_t made_ms;
} list;

static char *make_list(size_t *len)
{
    int64_t ids[ROOM_LIST_MAX];
    unsigned found = 0;
    if (storage_room_recent(clock_now_ms() - ROOM_LISTED_MS, ids, ROOM_LIST_MAX, &found) !=
        STORAGE_OK)
        found = 0;
    struct textbuf b = {0};
    textbuf_puts(&b, "{\"rooms\":[");
    unsigned n = 0;
    for (unsigned i = 0; i < found; i++)
        list_room(&b, ids[i], &n);
    textbuf_puts(&b, "]}");
    metrics_room_list_made();
    return textbuf_take(&b, len);
}

char *room_state_list(size_t *len)
{
    pthread_mutex_lock(&list_lock);
    uint64_t changes = atomic_load_explicit(&rooms_changed, memory_order_relaxed);
    int64_t now = clock_now_ms();
    if (list.text == NULL || list.changes != changes || now - list.made_ms >= LIST_KEPT_MS ||
        now < list.made_ms) {
        size_t made_len = 0;
        char *made = make_list(&made_len);
        if (made != NULL) {
            free(list.text);
            list.text = made;
            list.len = made_len;
            list.changes = changes;
            list.made_ms = now;
        }
    }
    char *copy = list.text != NULL ? malloc(list.len + 1) : NULL;
    if (copy != NULL) {
        memcpy(copy, list.text, list.len + 1);
        *len = list.len;
    }
    pthread_mutex_unlock(&list_lock);
    return copy;
}

bool room_state_may_open(int64_t user, const char *address, unsigned *retry)
{
    char who[32];
    snprintf(who, sizeof who, "%lld", (long long)user);
    return limit(LIMIT_ROOM_USER, who, retry) && limit(LIMIT_ROOM_ADDRESS, address, retry);
}

/* Whether the race game g may take an entry now, sent from `address`
 * (http_client_address); a game outside any room always may. The room is
 * read from the database, where whichever node holds its players decided
 * it. Returns true, or false with *code (rate_limited, race_not_started,
 * race_over) and a message in msg (cap bytes). */
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
    struct storage_room_seat_check c;
    int status = storage_room_seat_check(g->room_id, g->user_id, &c);
    int64_t now = clock_now_ms();
    if (status != STORAGE_OK && status != STORAGE_NOT_FOUND) {
        *code = API_E_UNAVAILABLE;
        snprintf(msg, cap, "the race cannot be read now: try again");
        return false;
    }
    if (status == STORAGE_NOT_FOUND || c.round != g->round || !c.seated || c.game_id != g->id) {
        *code = API_E_RACE_OVER;
        snprintf(msg, cap, "this race is over");
    } else if (c.phase == PHASE_STARTED && now < c.starts_at) {
        *code = API_E_RACE_NOT_STARTED;
        snprintf(msg, cap, "the race starts in %lld ms", (long long)(c.starts_at - now));
    } else if (c.phase != PHASE_STARTED || c.finished) {
        *code = API_E_RACE_OVER;
        snprintf(msg, cap, c.finished ? "you have finished this race" : "this race is over");
    } else if (c.gone) {
        *code = API_E_RACE_OVER;
        snprintf(msg, cap, "you left this race: join the room again to play on");
    } else {
        return true;
    }
    return false;
}

/* The "race_step" event of entry `seq` of race game g, by seat `seat`. */
static char *race_step_text(const struct live_game *g, const struct storage_room_state *s,
                            const struct storage_room_seat *seat, int kind, uint32_t seq,
                            const char *steps, uint32_t count)
{
    struct textbuf b = {0};
    textbuf_puts(&b, "{\"room\":");
    textbuf_int(&b, s->id);
    textbuf_puts(&b, ",\"round\":");
    textbuf_int(&b, s->round);
    textbuf_puts(&b, ",\"user_id\":");
    textbuf_int(&b, g->user_id);
    textbuf_puts(&b, ",\"game\":");
    textbuf_int(&b, g->id);
    entry_event_fields(&b, &g->game, kind, seq, steps, count);
    textbuf_puts(&b, ",\"boxes_on_goal\":");
    textbuf_int(&b, seat->boxes_on_goal);
    textbuf_puts(&b, soko_game_solved(&g->game) ? ",\"solved\":true}" : ",\"solved\":false}");
    size_t len = 0;
    return textbuf_take(&b, &len);
}

/* Records entry `seq` of race game g in its seat of room s (locked), and
 * the seat's finish and the race's end when it solves. Stores the room and
 * its events: the entry ("race_step") and, at a finish, the room. Returns
 * the last event's number, 0 when the entry is none of the room's (its
 * round or seat moved on), or -1 on a failure. */
static int64_t record_entry(struct storage_room_state *s, const struct live_game *g, int kind,
                            uint32_t seq, const char *steps, uint32_t count)
{
    struct storage_room_seat *seat = s->round == g->round ? seat_of(s, g->user_id) : NULL;
    if (seat == NULL || seat->game_id != g->id)
        return 0;
    int64_t now = clock_now_ms();
    seat->seq = seq;
    seat->moves = g->game.moves;
    seat->pushes = g->game.pushes;
    seat->boxes_on_goal = g->game.boxes_on_goal;
    bool finished_now = false;
    if (soko_game_solved(&g->game) && !seat->finished && s->phase == PHASE_STARTED) {
        seat->finished = true;
        seat->time_ms = now - s->starts_at;
        seat->place = ++s->places;
        finished_now = true;
        maybe_finish(s);
    }
    s->touched_at = now;
    char *step = race_step_text(g, s, seat, kind, seq, steps, count);
    int64_t event = 0;
    int status = step != NULL ? storage_room_state_save(s) : STORAGE_ERROR;
    if (status == STORAGE_OK)
        status = storage_room_event_put(s, "race_step", step, &event);
    free(step);
    if (status == STORAGE_OK && finished_now) {
        /* The room's event shows the results: its level's facts are this
         * node's memory of the room, held while its games are played. */
        char title[128] = "";
        uint32_t boxes = 0;
        pthread_mutex_lock(&lock);
        struct room *r = find(s->id);
        if (r != NULL) {
            snprintf(title, sizeof title, "%s", r->title);
            boxes = r->boxes;
        }
        pthread_mutex_unlock(&lock);
        struct level_facts facts = {0};
        if (r == NULL && storage_level_get(s->level_id, 0, take_level, &facts) == STORAGE_OK) {
            snprintf(title, sizeof title, "%s", facts.title);
            boxes = facts.boxes;
        }
        status = storage_room_state_read(s->id, false, s);
        size_t len = 0;
        char *text = status == STORAGE_OK ? room_text(s, title, boxes, &len) : NULL;
        status = text != NULL ? storage_room_event_put(s, "room", text, &event) : STORAGE_ERROR;
        free(text);
    }
    return status == STORAGE_OK ? event : -1;
}

/* Tells the room of race game g that entry `seq` was committed: the seat's
 * counts, its finish and the room's end are decided in the database, and
 * the room's followers on every node get the entry ("race_step") and any
 * change of the room ("room"). Call after the commit, with g held. */
static void race_entry(const struct live_game *g, int kind, uint32_t seq, const char *steps,
                       uint32_t count)
{
    if (g->room_id == 0 || kind < 0 || kind > STORAGE_LOG_RESTART)
        return;
    struct storage_room_state s;
    int64_t event = 0;
    int status;
    unsigned runs = 0;
    /* On the committer's thread, after every race entry: the writes go
     * with the commit, in one round trip (on PostgreSQL), after the reads
     * of the room locked. */
    storage_defer_writes(true);
    do {
        event = 0;
        status = storage_begin();
        if (status == STORAGE_OK)
            status = storage_room_state_read(g->room_id, true, &s);
        if (status == STORAGE_OK) {
            event = record_entry(&s, g, kind, seq, steps, count);
            status = event < 0 ? STORAGE_ERROR : STORAGE_OK;
        }
        status = storage_finish(event > 0 ? status : STORAGE_NOT_FOUND);
    } while (storage_again(status, &runs));
    storage_defer_writes(false);
    if (status == STORAGE_OK)
        deliver(g->room_id, event);
}

/* Counts the stream in this node's followers of r: the user it is counted
 * as in the database (0: anonymous). Lock held. */
static int64_t count_follower(struct room *r, int64_t user, int delta)
{
    unsigned i = 0;
    while (user != 0 && i < r->nfollowers && r->followers[i].user != user)
        i++;
    if (delta > 0) {
        if (user != 0 && i == r->nfollowers && i < ROOM_FOLLOWERS)
            r->followers[r->nfollowers++].user = user;
        if (user != 0 && i < r->nfollowers) {
            r->followers[i].streams++;
            return user;
        }
        r->anonymous++;
        return 0;
    }
    if (user != 0 && i < r->nfollowers && r->followers[i].streams > 0) {
        if (--r->followers[i].streams == 0)
            r->followers[i] = r->followers[--r->nfollowers];
        return user;
    }
    if (r->anonymous > 0)
        r->anonymous--;
    return 0;
}

int room_state_presence(int64_t id, int64_t user, int delta)
{
    int status = STORAGE_OK;
    struct room *r = lock_room(id, &status);
    if (r == NULL)
        return status;
    int64_t counted = count_follower(r, user, delta);
    r->busy++;
    char title[128];
    snprintf(title, sizeof title, "%s", r->title);
    uint32_t boxes = r->boxes;
    pthread_mutex_unlock(&lock);
    /* A seated player shows connected while one of their streams is open,
     * on any node: a change of that is the room's event. */
    struct storage_room_state s;
    struct room_view v = {0};
    unsigned runs = 0;
    do {
        char *text = NULL;
        size_t len = 0;
        v.event = 0;
        status = storage_begin();
        if (status == STORAGE_OK)
            status = storage_room_state_read(id, true, &s);
        struct storage_room_seat *seat = status == STORAGE_OK ? seat_of(&s, counted) : NULL;
        bool was = seat != NULL && seat->streams > 0;
        if (status == STORAGE_OK)
            status = storage_room_presence_add(id, node_name(), counted, delta);
        if (status == STORAGE_OK)
            status = storage_room_state_read(id, false, &s);
        seat = status == STORAGE_OK ? seat_of(&s, counted) : NULL;
        if (seat != NULL && was != (seat->streams > 0)) {
            text = room_text(&s, title, boxes, &len);
            status =
                text != NULL ? storage_room_event_add(id, "room", text, &v.event) : STORAGE_ERROR;
        }
        status = storage_finish(status);
        free(text);
    } while (storage_again(status, &runs));
    if (status != STORAGE_OK && delta > 0) {
        /* The stream does not open: it must not hold the room here. */
        pthread_mutex_lock(&lock);
        r = find(id);
        if (r != NULL)
            count_follower(r, counted, -delta);
        pthread_mutex_unlock(&lock);
    }
    unpin(id);
    if (status == STORAGE_OK && v.event > 0)
        deliver(id, v.event);
    return status;
}

int room_state_position(int64_t room, uint64_t *seq)
{
    int64_t last = 0;
    int status = storage_room_event_last(room, &last);
    *seq = (uint64_t)last;
    return status;
}

void room_state_heard(int64_t room, int64_t seq)
{
    deliver(room, seq);
}

void room_state_catch_up(void)
{
    int64_t ids[ROOM_LIST_MAX];
    unsigned n = 0;
    pthread_mutex_lock(&lock);
    for (struct room *r = rooms; r != NULL && n < ROOM_LIST_MAX; r = r->next) {
        if (r->nfollowers > 0 || r->anonymous > 0)
            ids[n++] = r->id;
    }
    pthread_mutex_unlock(&lock);
    for (unsigned i = 0; i < n; i++)
        deliver(ids[i], 0);
}

/* The streams a node counted that ended with it: on SQLite, every one (one
 * process); on PostgreSQL, those of the processes of this machine that no
 * longer run (a node of another machine is known alive or not there). */
#define DEAD_NODES_MAX 64

struct dead_nodes {
    char host[24];
    unsigned n;
    char names[DEAD_NODES_MAX][48];
};

static int find_dead(void *arg, const char *name)
{
    struct dead_nodes *d = arg;
    const char *slash = strrchr(name, '/');
    size_t host_len = strlen(d->host);
    if (slash == NULL || (size_t)(slash - name) != host_len ||
        strncmp(name, d->host, host_len) != 0 || strcmp(name, node_name()) == 0)
        return 0;
    long pid = strtol(slash + 1, NULL, 10);
    if (pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH)
        snprintf(d->names[d->n++], sizeof d->names[0], "%s", name);
    return d->n == DEAD_NODES_MAX;
}

static void forget_dead_nodes(void)
{
    storage_room_presence_reset();
    struct dead_nodes d = {0};
    gethostname(d.host, sizeof d.host - 1);
    storage_room_presence_nodes(find_dead, &d);
    for (unsigned i = 0; i < d.n; i++)
        storage_room_presence_forget(d.names[i]);
}

/* A node is taken for gone this many of its heartbeats after its last. */
#define NODE_HEARTBEATS_LOST 4

/* One node's streams on one room, of one user (0: anonymous). */
struct presence_row {
    int64_t room, user, streams;
};

/* Writes this node's streams again, as memory counts them: its rows were
 * forgotten by another node that took it for gone. A stream that opens or
 * closes meanwhile may be counted once too often or too few, until it
 * closes. */
static void count_streams_again(void)
{
    struct presence_row *rows = NULL;
    size_t n = 0, cap = 0;
    bool fits = true;
    pthread_mutex_lock(&lock);
    for (struct room *r = rooms; r != NULL && fits; r = r->next) {
        for (unsigned i = 0; i <= r->nfollowers && fits; i++) {
            int64_t user = i < r->nfollowers ? r->followers[i].user : 0;
            unsigned streams = i < r->nfollowers ? r->followers[i].streams : r->anonymous;
            if (streams == 0)
                continue;
            if (n == cap) {
                size_t more = cap > 0 ? cap * 2 : 64;
                struct presence_row *bigger = realloc(rows, more * sizeof *bigger);
                fits = bigger != NULL;
                if (!fits)
                    break;
                rows = bigger;
                cap = more;
            }
            rows[n++] = (struct presence_row){r->id, user, streams};
        }
    }
    pthread_mutex_unlock(&lock);
    int status = fits ? storage_begin() : STORAGE_ERROR;
    if (status == STORAGE_OK)
        status = storage_room_presence_forget(node_name());
    for (size_t i = 0; i < n && status == STORAGE_OK; i++)
        status =
            storage_room_presence_set(rows[i].room, node_name(), rows[i].user, rows[i].streams);
    status = storage_finish(status);
    free(rows);
    if (status != STORAGE_OK)
        fprintf(stderr, "sokod: cannot count this node's room streams again\n");
}

void room_state_heartbeat(unsigned period_ms, bool first)
{
    int64_t now = clock_now_ms();
    bool was_gone = false;
    int64_t forgotten = 0;
    int status = storage_begin();
    if (status == STORAGE_OK)
        status = storage_node_heartbeat(node_name(),
                                        now + (int64_t)period_ms * NODE_HEARTBEATS_LOST, &was_gone);
    if (status == STORAGE_OK)
        status = storage_nodes_expire(now, node_name(), &forgotten);
    status = storage_finish(status);
    if (status != STORAGE_OK)
        return;
    if (forgotten > 0)
        fprintf(stderr, "sokod: forgot %lld room presence rows of nodes gone\n",
                (long long)forgotten);
    if (was_gone && !first) {
        fprintf(stderr, "sokod: this node was taken for gone: counting its room streams again\n");
        count_streams_again();
    }
}

int room_state_listen(void)
{
    forget_dead_nodes();
    if (games_add_guard(step_allowed) != 0)
        return -1;
    return games_add_listener(race_entry);
}
