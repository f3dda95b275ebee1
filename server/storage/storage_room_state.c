/* Storage: what race rooms decide, their seats, presence and events. */
#include "storage/storage_room_state.h"

#include "storage/storage_conn.h"
#include "storage/storage_notify.h"
#include "storage/storage_sql.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define ROOM_COLUMNS                                                                               \
    "SELECT id, host_id, level_id, source, round, phase, starts_at, places, event_seq, "           \
    "touched_at FROM rooms WHERE id = ?"
static const char SQL_ROOM_READ[] = ROOM_COLUMNS;
static const char SQL_ROOM_LOCK_PG[] = ROOM_COLUMNS " FOR UPDATE";

/* The streams counted by every node, as one integer on both backends. */
#define STREAMS_SUM "CAST(coalesce(sum(p.streams), 0) AS BIGINT)"

static const char SQL_SEATS[] =
    "SELECT s.user_id, coalesce(u.username, ''), s.game_id, s.gone, s.seq, s.moves, s.pushes, "
    "s.boxes_on_goal, s.finished, s.time_ms, s.place, (SELECT " STREAMS_SUM
    " FROM room_presence p WHERE p.room_id = s.room_id AND p.user_id = s.user_id) "
    "FROM room_seats s JOIN users u ON u.id = s.user_id WHERE s.room_id = ? ORDER BY s.seat_no";
static const char SQL_SPECTATORS[] =
    "SELECT " STREAMS_SUM " FROM room_presence p WHERE p.room_id = ? AND NOT EXISTS "
    "(SELECT 1 FROM room_seats s WHERE s.room_id = p.room_id AND s.user_id = p.user_id)";

static void read_room_row(struct sql_stmt *st, struct storage_room_state *s)
{
    s->id = sql_column_int64(st, 0);
    s->host_id = sql_column_int64(st, 1);
    s->level_id = sql_column_int64(st, 2);
    snprintf(s->source, sizeof s->source, "%s", sql_column_text(st, 3));
    s->round = (uint32_t)sql_column_int64(st, 4);
    s->phase = sql_column_int(st, 5);
    s->starts_at = sql_column_int64(st, 6);
    s->places = (unsigned)sql_column_int64(st, 7);
    s->event_seq = sql_column_int64(st, 8);
    s->touched_at = sql_column_int64(st, 9);
}

static void read_seat(struct sql_stmt *st, struct storage_room_seat *seat)
{
    seat->user_id = sql_column_int64(st, 0);
    snprintf(seat->name, sizeof seat->name, "%s", sql_column_text(st, 1));
    seat->game_id = sql_column_int64(st, 2);
    seat->gone = sql_column_int64(st, 3) != 0;
    seat->seq = (uint32_t)sql_column_int64(st, 4);
    seat->moves = (uint32_t)sql_column_int64(st, 5);
    seat->pushes = (uint32_t)sql_column_int64(st, 6);
    seat->boxes_on_goal = (uint32_t)sql_column_int64(st, 7);
    seat->finished = sql_column_int64(st, 8) != 0;
    seat->time_ms = sql_column_int64(st, 9);
    seat->place = (unsigned)sql_column_int64(st, 10);
    seat->streams = (unsigned)sql_column_int64(st, 11);
}

static int read_seats(struct storage_room_state *s)
{
    struct sql_stmt *st = storage_stmt(SQL_SEATS);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, s->id);
    s->nseats = 0;
    int rc = sql_step(st, "reading a room's seats");
    while (rc == SQL_ROW) {
        if (s->nseats < STORAGE_ROOM_SEATS)
            read_seat(st, &s->seats[s->nseats++]);
        rc = sql_step(st, "reading a room's seats");
    }
    sql_reset(st);
    if (rc != STORAGE_OK)
        return rc;
    st = storage_stmt(SQL_SPECTATORS);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, s->id);
    int64_t n = 0;
    rc = storage_first_int64(st, &n, "counting a room's spectators");
    s->spectators = (unsigned)n;
    return rc == STORAGE_NOT_FOUND ? STORAGE_OK : rc;
}

int storage_room_state_read(int64_t id, bool lock, struct storage_room_state *s)
{
    memset(s, 0, sizeof *s);
    const char *sql = lock ? storage_dialect(SQL_ROOM_READ, SQL_ROOM_LOCK_PG) : SQL_ROOM_READ;
    struct sql_stmt *st = storage_stmt(sql);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    int status = storage_first_row(st, "reading a room");
    if (status == STORAGE_OK)
        read_room_row(st, s);
    sql_reset(st);
    return status == STORAGE_OK ? read_seats(s) : status;
}

static const char SQL_ROOM_SAVE[] = "UPDATE rooms SET host_id = ?, round = ?, phase = ?, "
                                    "starts_at = ?, places = ?, touched_at = ? WHERE id = ?";
static const char SQL_SEATS_CLEAR[] = "DELETE FROM room_seats WHERE room_id = ?";
static const char SQL_SEAT_INSERT[] =
    "INSERT INTO room_seats (room_id, user_id, seat_no, game_id, gone, seq, moves, pushes, "
    "boxes_on_goal, finished, time_ms, place) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

static int save_seat(int64_t room, unsigned no, const struct storage_room_seat *seat)
{
    struct sql_stmt *st = storage_stmt(SQL_SEAT_INSERT);
    if (st == NULL)
        return STORAGE_ERROR;
    int64_t values[] = {room,           seat->user_id, no,
                        seat->game_id,  seat->gone,    seat->seq,
                        seat->moves,    seat->pushes,  seat->boxes_on_goal,
                        seat->finished, seat->time_ms, seat->place};
    for (int i = 0; i < (int)(sizeof values / sizeof values[0]); i++)
        sql_bind_int64(st, i + 1, values[i]);
    return storage_write_stmt(st, "storing a room's seat");
}

int storage_room_state_save(const struct storage_room_state *s)
{
    struct sql_stmt *st = storage_stmt(SQL_ROOM_SAVE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, s->host_id);
    sql_bind_int64(st, 2, s->round);
    sql_bind_int64(st, 3, s->phase);
    sql_bind_int64(st, 4, s->starts_at);
    sql_bind_int64(st, 5, s->places);
    sql_bind_int64(st, 6, s->touched_at);
    sql_bind_int64(st, 7, s->id);
    /* Deferred, the write cannot say whether the room was there: it was,
     * read locked in this transaction. */
    int status = storage_writes_deferred() ? storage_write_stmt(st, "storing a room")
                                           : storage_exec_changed(st, "storing a room");
    if (status != STORAGE_OK)
        return status;
    st = storage_stmt(SQL_SEATS_CLEAR);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, s->id);
    status = storage_write_stmt(st, "clearing a room's seats");
    for (unsigned i = 0; i < s->nseats && status == STORAGE_OK; i++)
        status = save_seat(s->id, i, &s->seats[i]);
    return status;
}

static const char SQL_SEAT_CHECK[] =
    "SELECT r.round, r.phase, r.starts_at, s.user_id, s.game_id, s.gone, s.finished "
    "FROM rooms r LEFT JOIN room_seats s ON s.room_id = r.id AND s.user_id = ? WHERE r.id = ?";

int storage_room_seat_check(int64_t id, int64_t user, struct storage_room_seat_check *c)
{
    memset(c, 0, sizeof *c);
    struct sql_stmt *st = storage_stmt(SQL_SEAT_CHECK);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, user);
    sql_bind_int64(st, 2, id);
    int status = storage_first_row(st, "checking a race entry");
    if (status == STORAGE_OK) {
        c->round = (uint32_t)sql_column_int64(st, 0);
        c->phase = sql_column_int(st, 1);
        c->starts_at = sql_column_int64(st, 2);
        c->seated = !sql_column_is_null(st, 3);
        c->game_id = sql_column_int64(st, 4);
        c->gone = sql_column_int64(st, 5) != 0;
        c->finished = sql_column_int64(st, 6) != 0;
    }
    sql_reset(st);
    return status;
}

static const char SQL_EVENT_NEXT[] =
    "UPDATE rooms SET event_seq = event_seq + 1 WHERE id = ? RETURNING event_seq";
static const char SQL_EVENT_INSERT[] =
    "INSERT INTO room_events (room_id, seq, type, data) VALUES (?, ?, ?, ?)";
static const char SQL_EVENT_FORGET[] = "DELETE FROM room_events WHERE room_id = ? AND seq <= ?";

/* Stores event `seq` of room `id`, forgets those past
 * STORAGE_ROOM_EVENTS_KEPT and notifies the other nodes: writes whose
 * answers nobody reads (storage_write_stmt). */
static int event_store(int64_t id, int64_t seq, const char *type, const char *data)
{
    struct sql_stmt *st = storage_stmt(SQL_EVENT_INSERT);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_int64(st, 2, seq);
    sql_bind_text(st, 3, type);
    sql_bind_text(st, 4, data);
    int status = storage_write_stmt(st, "storing a room's event");
    if (status == STORAGE_OK && seq > STORAGE_ROOM_EVENTS_KEPT) {
        st = storage_stmt(SQL_EVENT_FORGET);
        if (st == NULL)
            return STORAGE_ERROR;
        sql_bind_int64(st, 1, id);
        sql_bind_int64(st, 2, seq - STORAGE_ROOM_EVENTS_KEPT);
        status = storage_write_stmt(st, "forgetting a room's old events");
    }
    if (status == STORAGE_OK) {
        char payload[64];
        snprintf(payload, sizeof payload, "room:%" PRId64 ":%" PRId64, id, seq);
        status = storage_notify(payload);
    }
    return status;
}

int storage_room_event_add(int64_t id, const char *type, const char *data, int64_t *seq)
{
    struct sql_stmt *st = storage_stmt(SQL_EVENT_NEXT);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    int status = storage_first_int64(st, seq, "numbering a room's event");
    if (status != STORAGE_OK)
        return status;
    return event_store(id, *seq, type, data);
}

static const char SQL_EVENT_SEQ[] = "UPDATE rooms SET event_seq = ? WHERE id = ?";

int storage_room_event_put(struct storage_room_state *s, const char *type, const char *data,
                           int64_t *seq)
{
    struct sql_stmt *st = storage_stmt(SQL_EVENT_SEQ);
    if (st == NULL)
        return STORAGE_ERROR;
    *seq = s->event_seq + 1;
    sql_bind_int64(st, 1, *seq);
    sql_bind_int64(st, 2, s->id);
    int status = storage_write_stmt(st, "numbering a room's event");
    if (status == STORAGE_OK)
        status = event_store(s->id, *seq, type, data);
    if (status == STORAGE_OK)
        s->event_seq = *seq;
    return status;
}

static const char SQL_EVENT_LAST[] = "SELECT event_seq FROM rooms WHERE id = ?";

int storage_room_event_last(int64_t id, int64_t *seq)
{
    struct sql_stmt *st = storage_stmt(SQL_EVENT_LAST);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    return storage_first_int64(st, seq, "reading a room's last event");
}

static const char SQL_EVENTS_AFTER[] =
    "SELECT seq, type, data FROM room_events WHERE room_id = ? AND seq > ? ORDER BY seq";

int storage_room_events_after(int64_t id, int64_t after,
                              int (*fn)(void *arg, int64_t seq, const char *type, const char *data),
                              void *arg)
{
    struct sql_stmt *st = storage_stmt(SQL_EVENTS_AFTER);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_int64(st, 2, after);
    int status = STORAGE_OK;
    int rc = sql_step(st, "reading a room's events");
    while (rc == SQL_ROW) {
        if (fn(arg, sql_column_int64(st, 0), sql_column_text(st, 1), sql_column_text(st, 2)) != 0) {
            status = STORAGE_STOP;
            break;
        }
        rc = sql_step(st, "reading a room's events");
    }
    if (rc != SQL_ROW && rc != STORAGE_OK)
        status = rc;
    sql_reset(st);
    return status;
}

static const char SQL_PRESENCE_UP[] =
    "INSERT INTO room_presence (room_id, node, user_id, streams) VALUES (?, ?, ?, 1) "
    "ON CONFLICT (room_id, node, user_id) DO UPDATE SET streams = room_presence.streams + 1";
static const char SQL_PRESENCE_DOWN[] = "UPDATE room_presence SET streams = streams - 1 "
                                        "WHERE room_id = ? AND node = ? AND user_id = ?";
static const char SQL_PRESENCE_GONE[] =
    "DELETE FROM room_presence WHERE room_id = ? AND node = ? AND user_id = ? AND streams <= 0";

static int presence_stmt(const char *sql, int64_t id, const char *node, int64_t user)
{
    struct sql_stmt *st = storage_stmt(sql);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_text(st, 2, node);
    sql_bind_int64(st, 3, user);
    return storage_exec_stmt(st, "counting a room's streams");
}

int storage_room_presence_add(int64_t id, const char *node, int64_t user, int delta)
{
    if (delta > 0)
        return presence_stmt(SQL_PRESENCE_UP, id, node, user);
    int status = presence_stmt(SQL_PRESENCE_DOWN, id, node, user);
    return status == STORAGE_OK ? presence_stmt(SQL_PRESENCE_GONE, id, node, user) : status;
}

static const char SQL_PRESENCE_RESET[] = "DELETE FROM room_presence";

int storage_room_presence_reset(void)
{
    if (sql_backend() != SQL_SQLITE)
        return STORAGE_OK;
    struct sql_stmt *st = storage_stmt(SQL_PRESENCE_RESET);
    if (st == NULL)
        return STORAGE_ERROR;
    return storage_exec_stmt(st, "forgetting rooms' streams");
}

static const char SQL_PRESENCE_NODES[] = "SELECT DISTINCT node FROM room_presence";

int storage_room_presence_nodes(int (*fn)(void *arg, const char *node), void *arg)
{
    struct sql_stmt *st = storage_stmt(SQL_PRESENCE_NODES);
    if (st == NULL)
        return STORAGE_ERROR;
    int status = STORAGE_OK;
    int rc = sql_step(st, "listing the nodes of rooms' streams");
    while (rc == SQL_ROW && fn(arg, sql_column_text(st, 0)) == 0)
        rc = sql_step(st, "listing the nodes of rooms' streams");
    if (rc == SQL_ROW)
        status = STORAGE_STOP;
    else if (rc != STORAGE_OK)
        status = rc;
    sql_reset(st);
    return status;
}

static const char SQL_PRESENCE_FORGET[] = "DELETE FROM room_presence WHERE node = ?";

int storage_room_presence_forget(const char *node)
{
    struct sql_stmt *st = storage_stmt(SQL_PRESENCE_FORGET);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_text(st, 1, node);
    return storage_exec_stmt(st, "forgetting a node's room streams");
}

static const char SQL_HEARTBEAT_UPDATE[] =
    "UPDATE node_heartbeats SET expires_at = ?2 WHERE node = ?1";
static const char SQL_HEARTBEAT_INSERT[] =
    "INSERT INTO node_heartbeats (node, expires_at) VALUES (?1, ?2) ON CONFLICT (node) DO NOTHING";

int storage_node_heartbeat(const char *node, int64_t expires_at, bool *was_gone)
{
    *was_gone = false;
    struct sql_stmt *st = storage_stmt(SQL_HEARTBEAT_UPDATE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_text(st, 1, node);
    sql_bind_int64(st, 2, expires_at);
    int status = storage_exec_changed(st, "saying the node still runs");
    if (status != STORAGE_NOT_FOUND)
        return status;
    *was_gone = true;
    st = storage_stmt(SQL_HEARTBEAT_INSERT);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_text(st, 1, node);
    sql_bind_int64(st, 2, expires_at);
    return storage_exec_stmt(st, "saying the node runs");
}

static const char SQL_NODES_EXPIRED_PRESENCE[] =
    "DELETE FROM room_presence WHERE node IN "
    "(SELECT node FROM node_heartbeats WHERE expires_at < ?1 AND node <> ?2)";
static const char SQL_NODES_EXPIRED[] =
    "DELETE FROM node_heartbeats WHERE expires_at < ?1 AND node <> ?2";

static int expire_stmt(const char *sql, int64_t now, const char *self, int64_t *changed)
{
    struct sql_stmt *st = storage_stmt(sql);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, now);
    sql_bind_text(st, 2, self);
    int status = sql_step(st, "forgetting the streams of nodes gone");
    *changed = sql_changes(st);
    sql_reset(st);
    return status == SQL_ROW ? STORAGE_OK : status;
}

int storage_nodes_expire(int64_t now, const char *self, int64_t *rows)
{
    int64_t nodes = 0;
    int status = expire_stmt(SQL_NODES_EXPIRED_PRESENCE, now, self, rows);
    if (status == STORAGE_OK)
        status = expire_stmt(SQL_NODES_EXPIRED, now, self, &nodes);
    return status;
}

static const char SQL_PRESENCE_SET[] =
    "INSERT INTO room_presence (room_id, node, user_id, streams) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (room_id, node, user_id) DO UPDATE SET streams = excluded.streams";

int storage_room_presence_set(int64_t id, const char *node, int64_t user, int64_t streams)
{
    struct sql_stmt *st = storage_stmt(SQL_PRESENCE_SET);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_text(st, 2, node);
    sql_bind_int64(st, 3, user);
    sql_bind_int64(st, 4, streams);
    return storage_exec_stmt(st, "counting a room's streams again");
}

static const char SQL_ROOMS_RECENT[] =
    "SELECT id FROM rooms r WHERE phase <> 2 AND touched_at >= ? AND EXISTS "
    "(SELECT 1 FROM room_seats s WHERE s.room_id = r.id AND s.gone = 0) "
    "ORDER BY touched_at DESC, id DESC LIMIT ?";

int storage_room_recent(int64_t since_ms, int64_t *ids, unsigned cap, unsigned *n)
{
    *n = 0;
    struct sql_stmt *st = storage_stmt(SQL_ROOMS_RECENT);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, since_ms);
    sql_bind_int64(st, 2, cap);
    int rc = sql_step(st, "listing rooms");
    while (rc == SQL_ROW) {
        if (*n < cap)
            ids[(*n)++] = sql_column_int64(st, 0);
        rc = sql_step(st, "listing rooms");
    }
    sql_reset(st);
    return rc;
}
