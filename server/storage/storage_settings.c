/* Storage: each user's settings, one JSON object per user. */
#include "storage/storage_settings.h"

#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <stdlib.h>
#include <string.h>

static const char SQL_SETTINGS_GET[] = "SELECT settings FROM user_settings WHERE user_id = ?";

int storage_settings_get(int64_t user, char **json)
{
    *json = NULL;
    sqlite3_stmt *st = storage_stmt(SQL_SETTINGS_GET);
    if (st == NULL)
        return STORAGE_ERROR;
    sqlite3_bind_int64(st, 1, user);
    int status = storage_first_row(st, "reading settings");
    if (status == STORAGE_OK) {
        *json = strdup(storage_column_text(st, 0));
        if (*json == NULL)
            status = STORAGE_ERROR;
    }
    sqlite3_reset(st);
    return status;
}

static const char SQL_SETTINGS_PUT[] =
    "INSERT INTO user_settings (user_id, settings, updated_at) VALUES (?1, ?2, ?3) "
    "ON CONFLICT (user_id) DO UPDATE SET settings = excluded.settings, "
    "updated_at = excluded.updated_at";

int storage_settings_put(int64_t user, const char *json, int64_t now)
{
    sqlite3_stmt *st = storage_stmt(SQL_SETTINGS_PUT);
    if (st == NULL)
        return STORAGE_ERROR;
    sqlite3_bind_int64(st, 1, user);
    storage_bind_text(st, 2, json);
    sqlite3_bind_int64(st, 3, now);
    return storage_exec_stmt(st, "saving settings");
}
