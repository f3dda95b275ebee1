/* Submitted solutions and best known counts (storage_submitted.h). */
#include "storage/storage_submitted.h"

#include "storage/storage_boards.h"
#include "storage/storage_conn.h"
#include "storage/storage_sql.h"
#include "storage/sql.h"

static const char SQL_SUBMITTED_INSERT[] =
    "INSERT INTO submitted_solutions (user_id, level_id, rule, moves, pushes, lurd, lurd_hash, "
    "submitted_at, source) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
    "ON CONFLICT DO NOTHING RETURNING id";
static const char SQL_SUBMITTED_FIND[] =
    "SELECT id FROM submitted_solutions WHERE user_id = ?1 AND level_id = ?2 AND rule = ?3 "
    "AND lurd_hash = ?4";
/* The bound: the best by moves, the best by pushes and the one just made. */
static const char SQL_SUBMITTED_PRUNE[] =
    "DELETE FROM submitted_solutions WHERE user_id = ?1 AND level_id = ?2 AND rule = ?3 "
    "AND id <> ?4 "
    "AND id <> (SELECT t.id FROM submitted_solutions t WHERE t.user_id = ?1 AND t.level_id = ?2 "
    "AND t.rule = ?3 ORDER BY t.moves, t.pushes, t.id LIMIT 1) "
    "AND id <> (SELECT t.id FROM submitted_solutions t WHERE t.user_id = ?1 AND t.level_id = ?2 "
    "AND t.rule = ?3 ORDER BY t.pushes, t.moves, t.id LIMIT 1)";

static void bind_key(struct sql_stmt *st, const struct storage_submitted *s)
{
    sql_bind_int64(st, 1, s->user_id);
    sql_bind_int64(st, 2, s->level_id);
    sql_bind_int64(st, 3, s->rule);
}

int storage_submitted_add(const struct storage_submitted *s, int64_t *id, bool *created)
{
    *id = 0;
    *created = false;
    uint8_t hash[STORAGE_LURD_HASH_BYTES];
    storage_lurd_hash(s->lurd, hash);
    struct sql_stmt *st = storage_stmt(SQL_SUBMITTED_INSERT);
    if (st == NULL)
        return STORAGE_ERROR;
    bind_key(st, s);
    sql_bind_int64(st, 4, s->moves);
    sql_bind_int64(st, 5, s->pushes);
    sql_bind_text(st, 6, s->lurd);
    sql_bind_blob(st, 7, hash, sizeof hash);
    sql_bind_int64(st, 8, s->at);
    sql_bind_text(st, 9, s->source != NULL ? s->source : "pasted");
    int status = storage_exec_insert(st, id, "storing a submitted solution");
    if (status == STORAGE_NOT_FOUND) {
        /* The player has this line already: that row is the answer. */
        st = storage_stmt(SQL_SUBMITTED_FIND);
        if (st == NULL)
            return STORAGE_ERROR;
        bind_key(st, s);
        sql_bind_blob(st, 4, hash, sizeof hash);
        return storage_first_int64(st, id, "finding a submitted solution");
    }
    if (status != STORAGE_OK)
        return status;
    *created = true;
    st = storage_stmt(SQL_SUBMITTED_PRUNE);
    if (st == NULL)
        return STORAGE_ERROR;
    bind_key(st, s);
    sql_bind_int64(st, 4, *id);
    return storage_exec_stmt(st, "bounding a player's submitted solutions");
}

static const char SQL_BEST_KNOWN[] =
    "SELECT count(*), coalesce(min(moves), 0), coalesce(min(pushes), 0) FROM ("
    "SELECT moves, pushes FROM solutions WHERE level_id = ?1 AND rule = ?2 "
    "UNION ALL SELECT moves, pushes FROM submitted_solutions WHERE level_id = ?1 AND rule = ?2 "
    "UNION ALL SELECT moves, pushes FROM reference_solutions WHERE level_id = ?1 AND ?2 = 0"
    ") AS known";

int storage_level_best_known(int64_t level, int rule, uint32_t *moves, uint32_t *pushes,
                             bool *found)
{
    *found = false;
    *moves = *pushes = 0;
    struct sql_stmt *st = storage_stmt(SQL_BEST_KNOWN);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, level);
    sql_bind_int64(st, 2, rule);
    int status = storage_first_row(st, "reading a level's best known solution");
    if (status != STORAGE_OK)
        return status;
    *found = sql_column_int64(st, 0) > 0;
    *moves = (uint32_t)sql_column_int64(st, 1);
    *pushes = (uint32_t)sql_column_int64(st, 2);
    sql_reset(st);
    return STORAGE_OK;
}

/* Each player's best row under one order, from the index on the level. */
#define BOARD_SQL(FIRST, SECOND)                                                                   \
    "SELECT s.id, s.user_id, u.username, s.moves, s.pushes, s.submitted_at, s.source "             \
    "FROM submitted_solutions s JOIN users u ON u.id = s.user_id "                                 \
    "WHERE s.level_id = ?1 AND s.rule = ?2 AND s.id = (SELECT t.id FROM submitted_solutions t "    \
    "WHERE t.user_id = s.user_id AND t.level_id = ?1 AND t.rule = ?2 "                             \
    "ORDER BY t." FIRST ", t." SECOND ", t.id LIMIT 1) "                                           \
    "ORDER BY s." FIRST ", s." SECOND ", s.submitted_at, s.id LIMIT ?3"

static const char SQL_BOARD_MOVES[] = BOARD_SQL("moves", "pushes");
static const char SQL_BOARD_PUSHES[] = BOARD_SQL("pushes", "moves");

static int read_row(struct sql_stmt *st, void *fn, void *arg)
{
    struct storage_submitted s = {
        .id = sql_column_int64(st, 0),
        .user_id = sql_column_int64(st, 1),
        .user = sql_column_text(st, 2),
        .moves = (uint32_t)sql_column_int64(st, 3),
        .pushes = (uint32_t)sql_column_int64(st, 4),
        .at = sql_column_int64(st, 5),
        .source = sql_column_text(st, 6),
    };
    return ((int (*)(void *, const struct storage_submitted *))fn)(arg, &s);
}

int storage_submitted_board(int64_t level, int rule, bool by_pushes, uint32_t limit,
                            int (*fn)(void *arg, const struct storage_submitted *s), void *arg)
{
    struct sql_stmt *st = storage_stmt(by_pushes ? SQL_BOARD_PUSHES : SQL_BOARD_MOVES);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, level);
    sql_bind_int64(st, 2, rule);
    sql_bind_int64(st, 3, limit);
    int status = storage_each_row(st, read_row, (void *)fn, arg, "reading a submitted board");
    return status == STORAGE_NOT_FOUND ? STORAGE_OK : status;
}
