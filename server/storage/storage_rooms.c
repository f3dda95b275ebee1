/* Storage: race rooms and the race games of their rounds. */
#include "storage/storage_rooms.h"

#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <stdio.h>
#include <string.h>

static const char SQL_ROOM_INSERT[] = "INSERT INTO rooms (host_id, level_id, source, round, "
                                      "created_at) VALUES (?, ?, ?, 1, ?) RETURNING id";

int storage_room_create(struct storage_room *r)
{
    struct sql_stmt *st = storage_stmt(SQL_ROOM_INSERT);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, r->host_id);
    sql_bind_int64(st, 2, r->level_id);
    sql_bind_text(st, 3, r->source);
    sql_bind_int64(st, 4, r->created_at);
    int status = storage_exec_insert(st, &r->id, "creating a room");
    if (status == STORAGE_OK)
        r->round = 1;
    return status;
}

static const char SQL_RACE_FIND[] =
    "SELECT id FROM games WHERE room_id = ? AND round = ? AND user_id = ?";
static const char SQL_RACE_INSERT[] =
    "INSERT INTO games (user_id, level_id, room_id, round, "
    "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id";

int storage_race_game(int64_t room, uint32_t round, int64_t user, int64_t level, int64_t now,
                      int64_t *game_id)
{
    struct sql_stmt *st = storage_stmt(SQL_RACE_FIND);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, room);
    sql_bind_int64(st, 2, round);
    sql_bind_int64(st, 3, user);
    int status = storage_first_int64(st, game_id, "finding a race game");
    if (status != STORAGE_NOT_FOUND)
        return status;
    st = storage_stmt(SQL_RACE_INSERT);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, user);
    sql_bind_int64(st, 2, level);
    sql_bind_int64(st, 3, room);
    sql_bind_int64(st, 4, round);
    sql_bind_int64(st, 5, now);
    sql_bind_int64(st, 6, now);
    status = storage_exec_insert(st, game_id, "creating a race game");
    return status;
}

static const char SQL_LEVEL_RANDOM[] =
    "SELECT l.id FROM levels l JOIN collections c ON c.id = l.collection_id "
    "WHERE l.hidden = 0 AND l.deleted_at IS NULL AND c.hidden = 0 AND c.deleted_at IS NULL "
    "ORDER BY random() LIMIT 1";

int storage_level_random(int64_t *level_id)
{
    struct sql_stmt *st = storage_stmt(SQL_LEVEL_RANDOM);
    if (st == NULL)
        return STORAGE_ERROR;
    int status = storage_first_int64(st, level_id, "choosing a level");
    return status;
}
