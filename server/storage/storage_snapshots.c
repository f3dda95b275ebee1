/* Storage: the snapshots table (migrations/0014_snapshots.sql). */
#include "storage/storage_snapshots.h"

#include "storage/storage.h"
#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

static const char SQL_COUNT[] = "SELECT count(*) FROM snapshots WHERE game_id = ?";
static const char SQL_INSERT[] =
    "INSERT INTO snapshots (game_id, name, lurd, moves, pushes, solved, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id";

/* The insert of s, inside the caller's transaction. */
static int insert(const struct storage_snapshot *s, int64_t *id)
{
    struct sql_stmt *st = storage_stmt(SQL_INSERT);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, s->game_id);
    sql_bind_text(st, 2, s->name);
    sql_bind_text(st, 3, s->lurd);
    sql_bind_int64(st, 4, s->moves);
    sql_bind_int64(st, 5, s->pushes);
    sql_bind_int64(st, 6, s->solved ? 1 : 0);
    sql_bind_int64(st, 7, s->created_at);
    return storage_first_int64(st, id, "saving a position");
}

/* The count and the insert of storage_snapshot_add, in its transaction. */
static int add_once(const struct storage_snapshot *s, uint32_t max, int64_t *id)
{
    int64_t count = 0;
    struct sql_stmt *st = storage_stmt(SQL_COUNT);
    int status = st != NULL ? STORAGE_OK : STORAGE_ERROR;
    if (status == STORAGE_OK) {
        sql_bind_int64(st, 1, s->game_id);
        status = storage_first_int64(st, &count, "counting saved positions");
    }
    if (status == STORAGE_OK && count >= (int64_t)max)
        status = STORAGE_CONFLICT;
    if (status == STORAGE_OK)
        status = insert(s, id);
    return status;
}

int storage_snapshot_add(const struct storage_snapshot *s, uint32_t max, int64_t *id)
{
    int status;
    unsigned runs = 0;
    do {
        status = storage_begin();
        if (status == STORAGE_OK)
            status = add_once(s, max, id);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    return status;
}

/* Reads a row of id, game_id, name, moves, pushes, solved, created_at and
 * lurd (empty in a listing); hands it to fn. */
static int read_row(struct sql_stmt *st, void *fn, void *arg)
{
    struct storage_snapshot s = {
        .id = sql_column_int64(st, 0),
        .game_id = sql_column_int64(st, 1),
        .name = sql_column_text(st, 2),
        .moves = (uint32_t)sql_column_int64(st, 3),
        .pushes = (uint32_t)sql_column_int64(st, 4),
        .solved = sql_column_int(st, 5) != 0,
        .created_at = sql_column_int64(st, 6),
        .lurd = sql_column_text(st, 7),
    };
    ((void (*)(const struct storage_snapshot *, void *))fn)(&s, arg);
    return 0;
}

static const char SQL_LIST[] =
    "SELECT id, game_id, name, moves, pushes, solved, created_at, '' FROM snapshots "
    "WHERE game_id = ? ORDER BY id";

int storage_snapshot_list(int64_t game, void (*fn)(const struct storage_snapshot *s, void *arg),
                          void *arg)
{
    return storage_list_by_id(SQL_LIST, game, read_row, (void *)fn, arg, "listing saved positions");
}

static const char SQL_GET[] =
    "SELECT id, game_id, name, moves, pushes, solved, created_at, lurd FROM snapshots "
    "WHERE game_id = ?1 AND id = ?2";

int storage_snapshot_get(int64_t game, int64_t id,
                         void (*fn)(const struct storage_snapshot *s, void *arg), void *arg)
{
    return storage_rows_by_ids(SQL_GET, game, id, read_row, (void *)fn, arg,
                               "reading a saved position");
}

static const char SQL_DELETE[] = "DELETE FROM snapshots WHERE game_id = ? AND id = ?";

int storage_snapshot_delete(int64_t game, int64_t id)
{
    struct sql_stmt *st = storage_stmt(SQL_DELETE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, game);
    sql_bind_int64(st, 2, id);
    return storage_exec_changed(st, "deleting a saved position");
}
