/* The event bus of live play: topics ("game:12", "room:3") with a short
 * history each, and streams (one per browser tab) that follow a few topics
 * and read what was published to them as Server-Sent Events text.
 *
 * Every event gets an id from one counter, which starts at the process's
 * start time in microseconds (clock_now_us): ids grow across restarts, so
 * an id a client kept from an earlier process is older than every topic of
 * this one (a test clock set back can break this: such an id, from the
 * future, is then taken as unknown, and the client gets a snapshot). A
 * stream opened with the last id its client saw gets the events it missed
 * from each topic's history, or a "snapshot" event for a topic whose
 * history no longer reaches back that far (the client then fetches the
 * state again).
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
 * it. `create` makes the topic when it does not exist (a room); otherwise
 * an event for a topic nobody follows is dropped. Returns the event's id,
 * or 0 when it was dropped or out of memory. */
uint64_t events_publish(const char *topic, const char *type, const char *data, size_t len,
                        bool create);

/* Ends every stream following `topic` (each ends at its next read; the
 * sleeping ones are woken): what it showed may no longer be shown. The
 * topic's history stays. Does nothing when nobody follows it. */
void events_end_topic(const char *topic);

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

/* Opens a stream on `n` topics. With `has_last`, queues the events after
 * `last_id` each topic still holds (oldest first), or a snapshot event for
 * a topic that cannot say what was missed; then a "ready" event carrying
 * the current id. Returns the stream, or NULL when the bus is stopping or
 * out of memory. */
struct events_stream *events_open(const char *const *topics, unsigned n, bool has_last,
                                  uint64_t last_id, const struct events_owner *owner);

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
