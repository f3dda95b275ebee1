/* Storage of what race rooms decide (storage_room_state.c): a room's phase,
 * countdown and places, its seats with their results, the live streams
 * each node has on it, and its last events, numbered per room. Same rules
 * as storage.h: the calling thread's connection, STORAGE_* codes. The
 * phase machine that uses them is in live/room_state.c. */
#ifndef SOKOD_STORAGE_ROOM_STATE_H
#define SOKOD_STORAGE_ROOM_STATE_H

#include "storage/storage_codes.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STORAGE_ROOM_SEATS 8
/* Events each room keeps for the nodes that read them after a notification. */
#define STORAGE_ROOM_EVENTS_KEPT 64

struct storage_room_seat {
    int64_t user_id;
    char name[64]; /* "" for a guest */
    int64_t game_id;
    bool gone; /* left during the race */
    uint32_t seq, moves, pushes, boxes_on_goal;
    bool finished;
    int64_t time_ms;
    unsigned place;
    unsigned streams; /* live streams of this player on the room, on every node */
};

struct storage_room_state {
    int64_t id, host_id, level_id;
    char source[16];
    uint32_t round;
    int phase;         /* 0 lobby, 1 started, 2 finished */
    int64_t starts_at; /* milliseconds, the database's clock */
    unsigned places;   /* seats finished this round */
    int64_t event_seq; /* the room's last event */
    int64_t touched_at;
    unsigned nseats;
    struct storage_room_seat seats[STORAGE_ROOM_SEATS];
    unsigned spectators; /* streams of people without a seat, on every node */
};

/* Reads room `id` with its seats and presence into *s; with `lock`, inside
 * the caller's transaction, the room's row stays locked until it ends (FOR
 * UPDATE on PostgreSQL; SQLite's write lock serialises already). Returns
 * STORAGE_OK, STORAGE_NOT_FOUND or a failure. */
int storage_room_state_read(int64_t id, bool lock, struct storage_room_state *s);

/* Writes what *s decides (host, round, phase, start, places, touched_at and
 * the seats, replaced whole). Call in the transaction that read it locked.
 * Its writes wait for no answer while the thread defers its writes. */
int storage_room_state_save(const struct storage_room_state *s);

/* What an entry of a race game is checked against: the room's round and
 * phase, and the player's seat. */
struct storage_room_seat_check {
    uint32_t round;
    int phase;
    int64_t starts_at;
    bool seated;
    int64_t game_id;
    bool gone, finished;
};

/* Reads the check of `user` in room `id`. STORAGE_NOT_FOUND: no such room. */
int storage_room_seat_check(int64_t id, int64_t user, struct storage_room_seat_check *c);

/* Appends an event of `type` with `data` (JSON text) to the room's events,
 * in the caller's transaction, forgets those past STORAGE_ROOM_EVENTS_KEPT
 * and notifies the other nodes ("room:ID:SEQ"). Sets *seq. */
int storage_room_event_add(int64_t id, const char *type, const char *data, int64_t *seq);

/* As storage_room_event_add, for the room *s read locked in the caller's
 * transaction: the event follows s->event_seq, which it advances, and
 * nothing waits for an answer, so that while the thread defers its writes
 * (storage_defer_writes) all of them go with the commit. */
int storage_room_event_put(struct storage_room_state *s, const char *type, const char *data,
                           int64_t *seq);

/* Sets *seq to the number of room `id`'s last event (0: none yet).
 * STORAGE_NOT_FOUND: no such room. */
int storage_room_event_last(int64_t id, int64_t *seq);

/* Calls fn for each kept event of room `id` after `after`, oldest first,
 * until it returns nonzero. Returns STORAGE_OK (also when there are none),
 * STORAGE_STOP when fn stopped, or a failure. */
int storage_room_events_after(int64_t id, int64_t after,
                              int (*fn)(void *arg, int64_t seq, const char *type, const char *data),
                              void *arg);

/* Counts a live stream of `user` (0: nobody signed in) on room `id` held by
 * node `node`, up (delta > 0) or down. */
int storage_room_presence_add(int64_t id, const char *node, int64_t user, int delta);

/* At a start on SQLite (one process), forgets the streams an earlier
 * process counted: they ended with it. Does nothing on PostgreSQL, whose
 * other nodes' streams go on. */
int storage_room_presence_reset(void);

/* Calls fn with each node that counts streams, until it returns nonzero. */
int storage_room_presence_nodes(int (*fn)(void *arg, const char *node), void *arg);

/* Forgets the streams node `node` counted: it is gone. */
int storage_room_presence_forget(const char *node);

/* Writes node's heartbeat: it is to be taken for gone past expires_at (ms
 * since the epoch). *was_gone is true when the node had no heartbeat: its
 * first, or its presence was forgotten meanwhile (storage_nodes_expire of
 * another node), and it must count its streams again. */
int storage_node_heartbeat(const char *node, int64_t expires_at, bool *was_gone);

/* Forgets the streams of every node but `self` whose heartbeat expired
 * before `now`, and their heartbeats; sets *rows to the rows of streams
 * forgotten. A node without a heartbeat keeps its streams. */
int storage_nodes_expire(int64_t now, const char *self, int64_t *rows);

/* Sets the streams of `user` on room `id` held by node `node` to `streams`. */
int storage_room_presence_set(int64_t id, const char *node, int64_t user, int64_t streams);

/* Sets ids[0..*n) to the rooms not finished, with someone in them, and
 * touched since `since_ms`, most recently touched first, at most cap. */
int storage_room_recent(int64_t since_ms, int64_t *ids, unsigned cap, unsigned *n);

#endif
