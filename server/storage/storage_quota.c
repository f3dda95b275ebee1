/* Storage: the storage quota's limits and counts. */
#include "storage/storage_quota.h"

#include "storage/storage.h"
#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

static const char SQL_QUOTA_SET[] =
    "UPDATE storage_quota SET user_bytes = ?1, guest_bytes = ?2 WHERE id = 1";
static const char SQL_HAS_QUOTA_LITE[] =
    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'storage_quota'";
static const char SQL_HAS_QUOTA_PG[] =
    "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() "
    "AND table_name = 'storage_quota'";

int storage_quota_set(int64_t user_bytes, int64_t guest_bytes)
{
    /* A database kept at an older schema (--migrations of fewer files) has
     * no quota to set. */
    int64_t has = 0;
    struct sql_stmt *st =
        storage_stmt(sql_backend() == SQL_POSTGRES ? SQL_HAS_QUOTA_PG : SQL_HAS_QUOTA_LITE);
    int status =
        st != NULL ? storage_first_int64(st, &has, "looking for the storage quota") : STORAGE_ERROR;
    if (status != STORAGE_OK || has == 0)
        return status == STORAGE_OK ? STORAGE_NOT_FOUND : status;
    status = storage_begin();
    st = status == STORAGE_OK ? storage_stmt(SQL_QUOTA_SET) : NULL;
    if (status == STORAGE_OK && st == NULL)
        status = STORAGE_ERROR;
    if (status == STORAGE_OK) {
        sql_bind_int64(st, 1, user_bytes);
        sql_bind_int64(st, 2, guest_bytes);
        status = storage_exec_changed(st, "setting the storage quota");
    }
    return storage_finish(status);
}

static const char SQL_GUESTS_STORED[] =
    "SELECT coalesce(sum(storage_bytes), 0) FROM users WHERE guest = 1";
static const char SQL_GUESTS_SET[] =
    "UPDATE storage_quota SET guest_bytes = ?1 WHERE id = 1 AND guest_bytes <> ?1";

int storage_quota_guests_stored(int64_t *bytes)
{
    *bytes = 0;
    struct sql_stmt *st = storage_stmt(SQL_GUESTS_STORED);
    return st != NULL ? storage_first_int64(st, bytes, "counting what guests store")
                      : STORAGE_ERROR;
}

int storage_quota_set_guests(int64_t guest_bytes, bool *changed)
{
    *changed = false;
    int status = storage_begin();
    struct sql_stmt *st = status == STORAGE_OK ? storage_stmt(SQL_GUESTS_SET) : NULL;
    if (status == STORAGE_OK && st == NULL)
        status = STORAGE_ERROR;
    if (status == STORAGE_OK) {
        sql_bind_int64(st, 1, guest_bytes);
        status = storage_exec_changed(st, "setting the guests' storage limit");
        *changed = status == STORAGE_OK;
        if (status == STORAGE_NOT_FOUND)
            status = STORAGE_OK; /* it stood there already */
    }
    status = storage_finish(status);
    if (status != STORAGE_OK)
        *changed = false;
    return status;
}

/* As the quota's migration counts. */
static const char SQL_RECOUNT[] =
    "UPDATE games SET bytes = "
    "coalesce((SELECT sum(length(l.steps) + length(l.request) + 32) FROM game_log l "
    "WHERE l.game_id = games.id), 0) + "
    "coalesce((SELECT sum(length(s.lurd) + length(s.name) + 32) FROM snapshots s "
    "WHERE s.game_id = games.id), 0); "
    "UPDATE users SET storage_bytes = "
    "coalesce((SELECT sum(g.bytes) FROM games g WHERE g.user_id = users.id), 0) + "
    "coalesce((SELECT sum(length(s.lurd) + 32) FROM solutions s WHERE s.user_id = users.id), 0) + "
    "coalesce((SELECT sum(length(s.lurd) + 32) FROM submitted_solutions s "
    "WHERE s.user_id = users.id), 0) + "
    "coalesce((SELECT sum(c.bytes) FROM community_levels c WHERE c.author_id = users.id), 0) + "
    "coalesce((SELECT length(t.settings) + 32 FROM user_settings t "
    "WHERE t.user_id = users.id), 0)";

int storage_quota_recount(void)
{
    int status = storage_begin();
    if (status == STORAGE_OK)
        status = storage_conn_exec(SQL_RECOUNT, "counting the players' storage");
    return storage_finish(status);
}

static const char SQL_QUOTA_OF[] = "SELECT used, allowed FROM storage_limits WHERE user_id = ?";

int storage_quota_of(int64_t user, int64_t *used, int64_t *allowed)
{
    struct sql_stmt *st = storage_stmt(SQL_QUOTA_OF);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, user);
    int status = storage_first_row(st, "reading a player's storage");
    if (status == STORAGE_OK) {
        *used = sql_column_int64(st, 0);
        *allowed = sql_column_int64(st, 1);
        sql_reset(st);
    }
    return status;
}
