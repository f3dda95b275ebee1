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
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *game = sqlite3_column_int64(st, 0);
        *level = sqlite3_column_int64(st, 1);
    }
    int status = rc == SQLITE_ROW    ? STORAGE_OK
                 : rc == SQLITE_DONE ? STORAGE_NOT_FOUND
                                     : storage_status(rc, "finding a player's last game");
    sqlite3_reset(st);
    return status;
}
