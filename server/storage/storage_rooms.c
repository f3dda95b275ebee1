/* Storage: race rooms and the race games of their rounds. */
#include "storage/storage_rooms.h"

#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <stdio.h>
#include <string.h>

static const char SQL_ROOM_INSERT[] =
    "INSERT INTO rooms (host_id, level_id, source, round, created_at) VALUES (?, ?, ?, 1, ?)";

int storage_room_create(struct storage_room *r)
{
    sqlite3_stmt *st = storage_stmt(SQL_ROOM_INSERT);
    if (st == NULL)
        return STORAGE_ERROR;
    sqlite3_bind_int64(st, 1, r->host_id);
    sqlite3_bind_int64(st, 2, r->level_id);
    sqlite3_bind_text(st, 3, r->source, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, r->created_at);
    int status = storage_exec_insert(st, &r->id, "creating a room");
    if (status == STORAGE_OK)
        r->round = 1;
    return status;
}

static const char SQL_ROOM_GET[] =
    "SELECT id, host_id, level_id, source, round, created_at FROM rooms WHERE id = ?";

int storage_room_get(int64_t id, struct storage_room *r)
{
    sqlite3_stmt *st = storage_stmt(SQL_ROOM_GET);
    if (st == NULL)
        return STORAGE_ERROR;
    sqlite3_bind_int64(st, 1, id);
    int status = storage_first_row(st, "reading a room");
    if (status == STORAGE_OK) {
        r->id = sqlite3_column_int64(st, 0);
        r->host_id = sqlite3_column_int64(st, 1);
        r->level_id = sqlite3_column_int64(st, 2);
        snprintf(r->source, sizeof r->source, "%s", storage_column_text(st, 3));
        r->round = (uint32_t)sqlite3_column_int64(st, 4);
        r->created_at = sqlite3_column_int64(st, 5);
    }
    sqlite3_reset(st);
    return status;
}

static const char SQL_ROOM_ROUND[] = "UPDATE rooms SET round = ? WHERE id = ?";

int storage_room_set_round(int64_t id, uint32_t round)
{
    sqlite3_stmt *st = storage_stmt(SQL_ROOM_ROUND);
    if (st == NULL)
        return STORAGE_ERROR;
    sqlite3_bind_int64(st, 1, round);
    sqlite3_bind_int64(st, 2, id);
    return storage_exec_stmt(st, "starting a room's round");
}

static const char SQL_RACE_FIND[] =
    "SELECT id FROM games WHERE room_id = ? AND round = ? AND user_id = ?";
static const char SQL_RACE_INSERT[] = "INSERT INTO games (user_id, level_id, room_id, round, "
                                      "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)";

int storage_race_game(int64_t room, uint32_t round, int64_t user, int64_t level, int64_t now,
                      int64_t *game_id)
{
    sqlite3_stmt *st = storage_stmt(SQL_RACE_FIND);
    if (st == NULL)
        return STORAGE_ERROR;
    sqlite3_bind_int64(st, 1, room);
    sqlite3_bind_int64(st, 2, round);
    sqlite3_bind_int64(st, 3, user);
    int status = storage_first_int64(st, game_id, "finding a race game");
    if (status != STORAGE_NOT_FOUND)
        return status;
    st = storage_stmt(SQL_RACE_INSERT);
    if (st == NULL)
        return STORAGE_ERROR;
    sqlite3_bind_int64(st, 1, user);
    sqlite3_bind_int64(st, 2, level);
    sqlite3_bind_int64(st, 3, room);
    sqlite3_bind_int64(st, 4, round);
    sqlite3_bind_int64(st, 5, now);
    sqlite3_bind_int64(st, 6, now);
    status = storage_exec_insert(st, game_id, "creating a race game");
    return status;
}

static const char SQL_LEVEL_RANDOM[] =
    "SELECT l.id FROM levels l JOIN collections c ON c.id = l.collection_id "
    "WHERE l.hidden = 0 AND l.deleted_at IS NULL AND c.hidden = 0 AND c.deleted_at IS NULL "
    "ORDER BY random() LIMIT 1";

int storage_level_random(int64_t *level_id)
{
    sqlite3_stmt *st = storage_stmt(SQL_LEVEL_RANDOM);
    if (st == NULL)
        return STORAGE_ERROR;
    int status = storage_first_int64(st, level_id, "choosing a level");
    return status;
}
