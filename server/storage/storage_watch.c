/* Storage: what a watcher of a player reads from the database. */
#include "storage/storage_watch.h"

#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <stddef.h>

static const char SQL_LAST_GAME[] =
    "SELECT id, level_id FROM games WHERE user_id = ? AND room_id IS NULL "
    "ORDER BY updated_at DESC, id DESC LIMIT 1";

int storage_watch_last_game(int64_t user, int64_t *game, int64_t *level)
{
    sqlite3_stmt *st = storage_stmt(SQL_LAST_GAME);
    if (st == NULL)
        return STORAGE_ERROR;
    sqlite3_bind_int64(st, 1, user);
    int status = storage_first_row(st, "finding a player's last game");
    if (status == STORAGE_OK) {
        *game = sqlite3_column_int64(st, 0);
        *level = sqlite3_column_int64(st, 1);
    }
    sqlite3_reset(st);
    return status;
}
