/* Race rooms: each room's seats, phase, countdown, results and who is
 * connected, decided in the database (the phase machine is documented in
 * room_state.c) so that every node shows and decides one room; the rooms
 * this node holds in memory, with its own streams on them; and what race
 * games tell their room. Nothing here answers HTTP: each operation returns
 * a status, STORAGE_* or ROOM_STATE_*, and what the caller shows of the
 * room. */
#ifndef SOKOD_ROOM_STATE_H
#define SOKOD_ROOM_STATE_H

#include "storage/storage_room_state.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ROOM_STATE_SEATS STORAGE_ROOM_SEATS

/* Statuses beside the STORAGE_* ones. */
enum {
    /* Every room memory may hold is in use (--max-rooms), so no other can
     * come in; try again after ROOM_STATE_RETRY_S seconds. */
    ROOM_STATE_NO_SPACE = 100,
    ROOM_STATE_NO_MEMORY, /* out of memory */
    ROOM_STATE_FULL,      /* every seat is taken */
    ROOM_STATE_RACING,    /* a race is under way, or starting */
    ROOM_STATE_NOT_HOST,  /* the caller may not do this */
    ROOM_STATE_NOT_OVER,  /* a rematch before the race ended */
};
#define ROOM_STATE_RETRY_S 30u

/* A room as an operation leaves it, for the caller to answer with once the
 * lock is released. */
struct room_view {
    int64_t id;
    char *room; /* the room's public state as JSON (malloc'd), NULL when out of memory */
    size_t room_len;
    bool changed;    /* the room's followers are to be told of it (a "room" event) */
    int64_t event;   /* that event's number in the room */
    bool seated;     /* the caller has a seat */
    unsigned ngames; /* the players' race games, 0 for a seat without one */
    int64_t games[ROOM_STATE_SEATS];
};

/* Sets how many rooms memory holds at once (at least 1). Past it, rooms
 * nobody follows here are forgotten, oldest touched first (they come back
 * from the database); when all are in use, opening or loading another
 * gives ROOM_STATE_NO_SPACE. */
void room_state_set_limit(unsigned n);

/* Whether a room may open on `level`: STORAGE_OK, STORAGE_NOT_FOUND when
 * there is no such level, or a storage failure. */
int room_state_level_check(int64_t level);

/* Opens a room on `level` hosted (and seated) by `user`, `source` saying
 * how the level was chosen (chosen, random, daily, generated): stored,
 * in the lobby, then held in memory. Returns STORAGE_OK with *v set,
 * STORAGE_NOT_FOUND when the level is gone, ROOM_STATE_NO_SPACE (the room
 * is stored and comes in once memory has space), ROOM_STATE_NO_MEMORY or a
 * storage failure. */
int room_state_open(int64_t user, int64_t level, const char *source, struct room_view *v);

/* The room `id` as `user` (0: nobody) sees it, read from the database
 * (and held in memory). Returns STORAGE_OK with *v
 * set, STORAGE_NOT_FOUND, ROOM_STATE_NO_SPACE or a storage failure. The
 * operations below return the same, and the refusals each names. */
int room_state_view(int64_t id, int64_t user, struct room_view *v);

/* `user` takes a seat, or comes back to theirs after leaving a race.
 * Refusals: ROOM_STATE_RACING (a newcomer during a race), ROOM_STATE_FULL. */
int room_state_join(int64_t id, int64_t user, struct room_view *v);

/* `user` leaves: their seat goes in the lobby, and is marked left during a
 * race. Leaving a room one has no seat in changes nothing. */
int room_state_leave(int64_t id, int64_t user, struct room_view *v);

/* The host starts the race: a race game for every seat, committed, then
 * the countdown. Refusals: ROOM_STATE_NOT_HOST, ROOM_STATE_RACING (not in
 * the lobby, or nobody seated). */
int room_state_start(int64_t id, int64_t user, struct room_view *v);

/* A player (or the host) calls the next round once the race is over: the
 * seats that left go, the others come back to the lobby. Calling it again
 * in that lobby changes nothing. Refusals: ROOM_STATE_NOT_HOST (no seat
 * and not the host), ROOM_STATE_NOT_OVER. */
int room_state_rematch(int64_t id, int64_t user, struct room_view *v);

/* Publishes the view's room to its followers here when it changed (the
 * other nodes hear of it from the database), then frees what the view
 * holds. Call after answering. */
void room_state_view_done(struct room_view *v);

/* The rooms being played, as {"rooms":[...]}, newest first, as made at
 * most a second ago and since the last change to a room. Returns the
 * text (malloc'd, *len bytes), or NULL when out of memory. */
char *room_state_list(size_t *len);

/* Counts a new room of `user` opened from `address` against the fair-play
 * limits. Returns true, or false with *retry (seconds) when over. */
bool room_state_may_open(int64_t user, const char *address, unsigned *retry);

/* A live stream of `user` (0: nobody) started (delta 1) or stopped (-1)
 * following room `room`: a seated player shows as connected while one of
 * their streams is open. Returns STORAGE_OK, STORAGE_NOT_FOUND when there
 * is no such room, ROOM_STATE_NO_SPACE, or a storage failure. */
int room_state_presence(int64_t room, int64_t user, int delta);

/* Sets *seq to the number of room `room`'s last event: its topic's
 * position, the same on every node. Returns STORAGE_OK, STORAGE_NOT_FOUND
 * or a failure. */
int room_state_position(int64_t room, uint64_t *seq);

/* Another node notified event `seq` of room `room`: the streams following
 * it here get the events they lack, read from the database. */
void room_state_heard(int64_t room, int64_t seq);

/* After notifications were lost: every room followed here reads the
 * events it lacks. */
void room_state_catch_up(void);

/* Registers with play what races need of it: the checks of a race game's
 * entry before it is applied (the race's phase, the seat, the step rate
 * limits) and each committed entry, for the room. Call at start-up, before
 * the committer starts. Returns 0, or -1 when play has no room for them. */
int room_state_listen(void);

/* Says in the database that this node still runs, for NODE_HEARTBEATS_LOST
 * periods of period_ms, and forgets the room streams of the nodes whose
 * word ran out (a node of another machine that never came back). When
 * this node's own word had run out (not at its `first` call), its streams
 * are counted again. On the listener thread, every period. */
void room_state_heartbeat(unsigned period_ms, bool first);

#endif
