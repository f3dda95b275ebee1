/* GET /api/v1/events: one Server-Sent Events stream per browser tab, and the
 * events of games. The connection is suspended while its stream has
 * nothing to send and resumed by the bus when an event or a heartbeat
 * arrives: libmicrohttpd's polling threads never spin on an idle stream. */
#include "live/live.h"

#include "accounts/auth.h"
#include "live/entry_event.h"
#include "live/events.h"
#include "live/nodes.h"
#include "live/room_reply.h"
#include "live/room_state.h"
#include "live/watch.h"
#include "play/games.h"
#include "storage/storage_games.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* What a stream's reader is handed each call, at most. */
#define LIVE_BLOCK 4096

struct live_stream {
    struct MHD_Connection *mhd;
    int fd; /* the connection's socket, owned by libmicrohttpd */
    struct events_stream *events;
    int64_t room, user;            /* the room followed (0: none) and by whom, for presence */
    struct http_stream_slot *slot; /* counted against the client's and the server's caps */
};

static void suspend_stream(void *arg)
{
    struct live_stream *ls = arg;
    MHD_suspend_connection(ls->mhd);
}

static void wake_stream(void *arg)
{
    struct live_stream *ls = arg;
    MHD_resume_connection(ls->mhd);
}

/* The client stopped reading: libmicrohttpd is stuck writing to it and
 * would not call the reader (to learn that the stream ended) before the
 * client reads or the timeout. Shutting the socket makes its next write
 * fail, so the connection ends now. The socket is still open: the bus
 * calls this before events_close, and libmicrohttpd frees the response
 * (events_close) before it closes the socket. */
static void drop_stream(void *arg)
{
    struct live_stream *ls = arg;
    if (ls->fd >= 0)
        shutdown(ls->fd, SHUT_RDWR);
}

/* libmicrohttpd's content reader. Returning 0 would make the polling thread
 * call again at once (a busy loop); the bus suspends the connection instead,
 * and the 0 then only means "called again once resumed". */
static ssize_t read_stream(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    struct live_stream *ls = cls;
    size_t len = 0;
    switch (events_read(ls->events, buf, max, &len)) {
    case EVENTS_DATA:
        return (ssize_t)len;
    case EVENTS_SUSPENDED:
        return 0;
    case EVENTS_END:
        break;
    }
    return MHD_CONTENT_READER_END_OF_STREAM;
}

static void free_stream(void *cls)
{
    struct live_stream *ls = cls;
    events_close(ls->events);
    if (ls->room != 0)
        room_state_presence(ls->room, ls->user, -1);
    http_stream_release(ls->slot);
    free(ls);
}

/* Reads a positive id from the query; 0 when absent, -1 when malformed. */
static int64_t query_id(struct http_conn *c, const char *name)
{
    const char *v = http_query(c, name);
    if (v == NULL)
        return 0;
    char *end = NULL;
    errno = 0;
    long long n = strtoll(v, &end, 10);
    if (errno != 0 || end == v || *end != '\0' || n < 1)
        return -1;
    return n;
}

/* The Last-Event-ID header (set by EventSource when it reconnects) or the
 * last_event_id argument (for a page that opens a new stream), read into
 * from[]. False when it is malformed. */
static bool last_event_id(struct http_conn *c, const char *const *topics, unsigned n,
                          struct events_from *from, bool *has)
{
    const char *v = http_header(c, "Last-Event-ID");
    if (v == NULL || v[0] == '\0')
        v = http_query(c, "last_event_id");
    *has = v != NULL && v[0] != '\0';
    return !*has || events_parse_id(v, topics, n, from) == 0;
}

/* For a stream resuming in game topic `from` (at position from->pos, the
 * game at seq `seq`): reads back what it missed from the database. Those
 * too far behind, or a failed read, get a snapshot (from->gap). */
static void read_missed(int64_t game, struct events_from *from, struct events_missed **missed)
{
    *missed = NULL;
    if (!from->known || from->pos >= from->seq)
        return;
    unsigned n = 0;
    if (entry_event_read(game, (uint32_t)from->pos, missed, &n) != STORAGE_OK) {
        from->gap = true;
        return;
    }
    from->missed = *missed;
    from->nmissed = n;
}

static int open_stream(struct http_conn *c, int64_t room, int64_t user, int64_t watch,
                       const char *const *topics, unsigned n, bool has_last,
                       const struct events_from *from);

int live_events(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t game = query_id(c, "game");
    int64_t room = query_id(c, "room");
    int64_t watch = query_id(c, "watch");
    if (game < 0 || room < 0 || watch < 0)
        return reply_error(c, API_E_INVALID_VALUE, "'%s' must be an id",
                           game < 0   ? "game"
                           : room < 0 ? "room"
                                      : "watch");
    if (game == 0 && room == 0 && watch == 0)
        return reply_error(c, API_E_MISSING_FIELD,
                           "say what to follow: events?game=ID (a game of yours), room=ID, "
                           "watch=USER_ID, or several");
    /* A game is private to its player; a room is open to anyone with its link. */
    char names[3][EVENTS_TOPIC_MAX];
    const char *topics[3];
    struct events_from from[3] = {0};
    unsigned n = 0;
    if (game != 0) {
        snprintf(names[n], sizeof names[n], "game:%lld", (long long)game);
        topics[n] = names[n];
        from[n].game = true;
        n++;
    }
    unsigned room_topic = n;
    if (room != 0) {
        snprintf(names[n], sizeof names[n], "room:%lld", (long long)room);
        topics[n] = names[n];
        from[n].game = true; /* positioned by the room's events, as stored */
        n++;
    }
    if (watch != 0) {
        watch_topic(watch, names[n]);
        topics[n] = names[n];
        n++;
    }
    bool has_last;
    if (!last_event_id(c, topics, n, from, &has_last))
        return reply_error(c, API_E_INVALID_VALUE,
                           "Last-Event-ID must be the id of an event this server sent");
    int64_t user;
    if (!auth_user(c, game != 0 ? AUTH_EXISTING : AUTH_OPTIONAL, &user, &result))
        return result;
    struct events_missed *missed = NULL;
    if (game != 0) {
        struct storage_game row;
        int status = storage_game_get(game, &row);
        if (status == STORAGE_NOT_FOUND || (status == STORAGE_OK && row.user_id != user))
            return reply_error(c, API_E_GAME_NOT_FOUND, "you have no game %lld", (long long)game);
        if (status != STORAGE_OK)
            return reply_storage_failure(c, status);
        from[0].seq = row.seq;
        if (has_last)
            read_missed(game, &from[0], &missed);
    }
    if (room != 0) {
        int status = room_state_position(room, &from[room_topic].seq);
        if (status != STORAGE_OK) {
            entry_event_free(missed, from[0].nmissed);
            return room_reply_failure(c, room, status);
        }
    }
    int result_open = open_stream(c, room, user, watch, topics, n, has_last, from);
    entry_event_free(missed, from[0].nmissed);
    return result_open;
}

/* Opens the stream on its topics, once the checks passed. */
static int open_stream(struct http_conn *c, int64_t room, int64_t user, int64_t watch,
                       const char *const *topics, unsigned n, bool has_last,
                       const struct events_from *from)
{
    int result = MHD_NO;
    int presence = room != 0 ? room_state_presence(room, user, 1) : STORAGE_OK;
    if (presence != STORAGE_OK)
        return room_reply_failure(c, room, presence);

    /* Each stream holds a connection for as long as its tab is open: the
     * caps keep connections for everything else. */
    struct http_stream_slot *slot = http_stream_take(c, &result);
    if (slot == NULL) {
        if (room != 0)
            room_state_presence(room, user, -1);
        return result;
    }
    struct live_stream *ls = calloc(1, sizeof *ls);
    if (ls == NULL) {
        if (room != 0)
            room_state_presence(room, user, -1);
        http_stream_release(slot);
        return reply_error(c, API_E_INTERNAL, "out of memory");
    }
    ls->slot = slot;
    ls->mhd = c->mhd;
    const union MHD_ConnectionInfo *fd =
        MHD_get_connection_info(c->mhd, MHD_CONNECTION_INFO_CONNECTION_FD);
    ls->fd = fd != NULL ? fd->connect_fd : -1;
    ls->room = room;
    ls->user = user;
    struct events_owner owner = {suspend_stream, wake_stream, drop_stream, ls};
    ls->events = events_open(topics, n, has_last, from, &owner);
    if (ls->events == NULL) {
        if (room != 0)
            room_state_presence(room, user, -1);
        http_stream_release(ls->slot);
        free(ls);
        return reply_error(c, API_E_UNAVAILABLE, "the server is stopping: try again");
    }
    /* Watching is checked once the stream follows its topics: a player who
     * opts out commits the setting and then ends the topic's streams, so a
     * check made before the opening could pass just before the commit and
     * the stream open just after the ending, and see entries it must not. */
    if (watch != 0 && !watch_allowed(c, watch, &result)) {
        free_stream(ls);
        return result;
    }
    struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, LIVE_BLOCK,
                                                               read_stream, ls, free_stream);
    if (r == NULL) {
        free_stream(ls);
        return reply_error(c, API_E_INTERNAL, "out of memory");
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream; charset=utf-8");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    /* A proxy in front must pass each event on at once. */
    MHD_add_response_header(r, "X-Accel-Buffering", "no");
    return http_queue(c, 200, r, 0);
}

/* Publishes, to the followers of the game's topic, the entry `seq` just
 * committed: its kind, the steps as the log holds them (pushes in upper
 * case) or its count, and the game's counts after it. Call only after the
 * commit, with g held. Does nothing when nobody follows the game. */
static void game_entry(const struct live_game *g, int kind, uint32_t seq, const char *steps,
                       uint32_t count)
{
    char topic[EVENTS_TOPIC_MAX];
    snprintf(topic, sizeof topic, "game:%lld", (long long)g->id);
    if (kind < 0 || kind > STORAGE_LOG_RESTART)
        return;
    /* Entries of another node that this one has not heard of yet would
     * come after this one, and be dropped as older: they go first. */
    if (seq > 1 && events_wanted(topic) && events_position(topic) + 1 < seq)
        live_nodes_catch_up(g->id);
    entry_event_publish_step(topic, g, kind, seq, steps, count, seq);
}

unsigned live_heartbeat_ms(unsigned heartbeat_s, unsigned timeout_s)
{
    unsigned ms = (heartbeat_s > 0 ? heartbeat_s : 15) * 1000u;
    unsigned limit = timeout_s * 1000u / 2;
    if (limit > 0 && ms > limit)
        ms = limit;
    return ms > 0 ? ms : 500;
}

int live_listen(void)
{
    return games_add_listener(game_entry);
}
