/* The event bus of live play: topics ("game:12", "room:3") with a short
 * history each, and streams (one per browser tab) that follow a few topics
 * and read what was published to them as Server-Sent Events text.
 *
 * Every event has a position in its topic. A game topic's positions are
 * the game's own log numbers (seq), a room topic's the numbers of the
 * room's events as stored: they follow commit order and mean the same on
 * every node. Other topics (watchers) count on the node that publishes
 * them, from the process's start time in microseconds, and their
 * positions carry a tag of the process, so that a position from another
 * node or an earlier process is known as foreign. An event's SSE id names
 * the position the stream reached in each of its topics:
 * "game:12@34,room:3@7,watch:5@a1b2c3d4.1764111111000001" (see
 * events_parse_id). A
 * stream opened with the last id its client saw gets the events it missed
 * from each topic's history (for a game topic, also those the caller read
 * back from the database), or a "snapshot" event for a topic that cannot
 * say what was missed (the client then fetches the state again).
 *
 * The bus knows nothing of HTTP: a stream has two callbacks, suspend and
 * wake, which the HTTP layer maps to suspending and resuming the
 * connection. Both are called with the bus's lock held, so a wake can never
 * overtake the suspend it answers. */
#ifndef SOKOD_EVENTS_H
#define SOKOD_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Events kept per topic for replay to clients that reconnect, at most,
 * and their bytes at most: an event can be a batch of 64 KiB, and a topic
 * must not keep 256 of them. Past either, the oldest leave; an event
 * larger than the bytes allowed is sent but not kept. All topics together
 * keep at most the bytes given to events_start, the oldest leaving first. */
#define EVENTS_HISTORY 256
#define EVENTS_HISTORY_BYTES (256u * 1024)
/* Events waiting for one stream, and their bytes; a stream that falls
 * further behind is a client that does not read, and is closed (it
 * reconnects and catches up from the history, or gets a snapshot). The
 * replay of an opening stream may exceed the bytes: it is what the
 * client asked for. */
#define EVENTS_QUEUE 512
#define EVENTS_QUEUE_BYTES (256u * 1024)
/* The most topics one stream follows. */
#define EVENTS_MAX_TOPICS 4
/* Topic names: "game:ID", "room:ID". */
#define EVENTS_TOPIC_MAX 40
/* An id's text at most: a name, a tag and a position per topic. */
#define EVENTS_ID_MAX (EVENTS_MAX_TOPICS * (EVENTS_TOPIC_MAX + 32))

struct events_stream;

/* Starts the heartbeat thread: every `heartbeat_ms`, each idle stream gets
 * a comment line (which finds clients that went away), and topics nobody
 * followed for a while are forgotten. The histories of all topics keep at
 * most `history_bytes` together (0: no cap but each topic's). Returns 0,
 * or -1 (not started). */
int events_start(unsigned heartbeat_ms, size_t history_bytes);

/* Closes every stream (each ends once its reader is called; suspended ones
 * are woken), refuses new ones, and stops the heartbeat thread. Call before
 * the HTTP daemon stops: it must not stop with suspended connections. */
void events_stop(void);

/* True when some stream follows `topic` or did lately: only then is an
 * event worth building. A hint (it may change at once). */
bool events_wanted(const char *topic);

/* Publishes an event of `type` with `data` (one line of JSON, len bytes) to
 * a topic: appended to its history and queued for every stream that follows
 * it. `pos` is the event's position in a game or room topic (the entry's
 * seq, the room event's number), or 0 for a topic the node counts (the
 * next position is taken). `create`
 * makes the topic when it does not exist (a room); otherwise an event for
 * a topic nobody follows is dropped, and so is a game event whose position
 * the topic has already (published by the listener of another node's
 * commits, or by the commit here). Returns the event's position, or 0 when
 * it was dropped or out of memory. */
uint64_t events_publish(const char *topic, const char *type, const char *data, size_t len,
                        bool create, uint64_t pos);

/* The last position published to a game topic (0: none, or nobody follows
 * it), for a listener that reads what came after it. */
uint64_t events_position(const char *topic);

/* The names of the topics some stream follows whose names start with
 * `prefix`: a malloc'd array of *n names (NULL when none, or out of
 * memory), for a node that catches up on what it may have missed. */
char (*events_followed(const char *prefix, unsigned *n))[EVENTS_TOPIC_MAX];

/* Ends every stream following `topic` (each ends at its next read; the
 * sleeping ones are woken): what it showed may no longer be shown. The
 * topic's history stays. Does nothing when nobody follows it. */
void events_end_topic(const char *topic);

/* A game topic whose game went back to entry `pos` (a failover lost the
 * entries after it, and their seqs are taken again): its history is
 * dropped, its position set to pos, and its streams ended; a client that
 * comes back from a position past pos, up to where the topic stood, gets
 * a snapshot rather than entries told as if they followed the ones it was
 * shown. Does nothing to a counted topic, or one that does not exist. */
void events_rewind_topic(const char *topic, uint64_t pos);

/* Whether the event a game topic keeps at `pos` is the one given. */
enum events_kept { EVENTS_KEPT_SAME, EVENTS_KEPT_OTHER, EVENTS_KEPT_UNKNOWN };

/* Compares the event game topic `topic` keeps at position pos with an
 * event of type `type` and data `data` (len bytes): UNKNOWN when the topic
 * does not exist, is counted, or no longer keeps that position. */
enum events_kept events_kept_compare(const char *topic, uint64_t pos, const char *type,
                                     const char *data, size_t len);

/* What a stream's owner is told, always with the bus's lock held and never
 * after events_close: suspend (nothing to read), wake (something to read,
 * or the end), drop (the client fell EVENTS_QUEUE events behind: its queue
 * is freed and its connection should be cut now, since a client that does
 * not read would otherwise hold it until a timeout). drop may be NULL. */
struct events_owner {
    void (*suspend)(void *arg);
    void (*wake)(void *arg);
    void (*drop)(void *arg);
    void *arg;
};

/* One event read back from the database for a stream that resumes. */
struct events_missed {
    uint64_t pos;
    char *data; /* malloc'd by the caller, who frees it after events_open */
    size_t len;
};

/* Where a stream opens in one of its topics. */
struct events_from {
    bool known;   /* the client's last id named this topic (events_parse_id) */
    uint64_t pos; /* and the position it had reached */
    bool foreign; /* a counted position of another process */
    bool game;    /* a game or room topic: positions are numbered in the database */
    uint64_t seq; /* such a topic's last position (a game's seq, a room's last event),
                     read before the open */
    bool gap;     /* a game topic: the database could not say what was missed */
    const struct events_missed *missed; /* a game topic: the "step" events after pos, read
                                           back from the database, oldest first */
    unsigned nmissed;
};

/* Reads an SSE id (text) into from[0..n-1], one per topic of the stream
 * about to open: the topics the id names get known = true and the
 * position; names the stream does not follow are ignored. A bare number
 * (an id of an older sokod) names no topic. Returns 0, or -1 when the text
 * is malformed or longer than EVENTS_ID_MAX. */
int events_parse_id(const char *text, const char *const *topics, unsigned n,
                    struct events_from *from);

/* Opens a stream on `n` topics (from[i] says how each is followed). With
 * `has_last`, queues for each topic the events after its known position
 * (oldest first), or a snapshot event for a topic that cannot say what was
 * missed; then a "ready" event whose id names every topic's position.
 * Returns the stream, or NULL when the bus is stopping or out of memory. */
struct events_stream *events_open(const char *const *topics, unsigned n, bool has_last,
                                  const struct events_from *from, const struct events_owner *owner);

/* What events_read found. */
enum events_read_result {
    EVENTS_DATA,      /* bytes were copied */
    EVENTS_SUSPENDED, /* nothing to send: suspend(arg) was called; read again once woken */
    EVENTS_END,       /* the stream is closed (stopping, or it fell too far behind) */
};

/* Copies up to `cap` bytes of the stream's waiting text into buf and sets
 * *len. When nothing waits, calls suspend(arg) under the lock and says so. */
enum events_read_result events_read(struct events_stream *s, char *buf, size_t cap, size_t *len);

/* Stops following and frees the stream. */
void events_close(struct events_stream *s);

#endif
