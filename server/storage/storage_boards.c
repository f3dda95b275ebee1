/* Storage: witnessed solutions and the leaderboards over them. The
 * board_entries table (migration 0007) keeps each user's best per board,
 * maintained by triggers on solutions and users. */
#include "storage/storage_boards.h"

#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

/* The insert reads the game's hint count inside the same statement, so the
 * count is the one of the transaction that solved the game. */
static const char SQL_SOLUTION_INSERT[] =
    "INSERT OR IGNORE INTO solutions (user_id, level_id, game_id, moves, pushes, lurd, "
    "solved_at, hints, rule) "
    "SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, CASE WHEN ?8 >= 0 THEN ?8 "
    "ELSE coalesce((SELECT hints FROM games WHERE id = ?3), 0) END, ?9";

int storage_solution_insert(const struct storage_new_solution *s, int64_t *id)
{
    *id = 0;
    sqlite3_stmt *st = storage_stmt(SQL_SOLUTION_INSERT);
    if (st == NULL)
        return STORAGE_ERROR;
    sqlite3_bind_int64(st, 1, s->user_id);
    sqlite3_bind_int64(st, 2, s->level_id);
    if (s->game_id != 0)
        sqlite3_bind_int64(st, 3, s->game_id);
    else
        sqlite3_bind_null(st, 3);
    sqlite3_bind_int64(st, 4, s->moves);
    sqlite3_bind_int64(st, 5, s->pushes);
    storage_bind_text(st, 6, s->lurd);
    sqlite3_bind_int64(st, 7, s->at);
    sqlite3_bind_int64(st, 8, s->hints);
    sqlite3_bind_int(st, 9, s->rule);
    int status = storage_exec_stmt(st, "recording a solution");
    if (status == STORAGE_OK && sqlite3_changes(storage_db()) > 0)
        *id = sqlite3_last_insert_rowid(storage_db());
    return status;
}

#define ENTRY_COLUMNS                                                                              \
    "SELECT b.user_id, CASE WHEN u.guest THEN NULL ELSE u.username END, s.moves, s.pushes, "       \
    "s.hints, b.solved_at, b.solution_id, b.listed, b.first, b.second FROM board_entries b "       \
    "JOIN users u ON u.id = b.user_id JOIN solutions s ON s.id = b.solution_id "

static void read_entry(sqlite3_stmt *st, struct storage_board_entry *e)
{
    e->user_id = sqlite3_column_int64(st, 0);
    e->username = (const char *)sqlite3_column_text(st, 1);
    e->moves = (uint32_t)sqlite3_column_int64(st, 2);
    e->pushes = (uint32_t)sqlite3_column_int64(st, 3);
    e->hints = (uint32_t)sqlite3_column_int64(st, 4);
    e->solved_at = sqlite3_column_int64(st, 5);
    e->solution_id = sqlite3_column_int64(st, 6);
    e->listed = sqlite3_column_int(st, 7) != 0;
}

static int read_ranked(sqlite3_stmt *st, void *fn, void *arg)
{
    struct storage_board_entry e;
    read_entry(st, &e);
    return ((int (*)(void *, const struct storage_board_entry *))fn)(arg, &e);
}

static const char SQL_BOARD_TOP[] =
    ENTRY_COLUMNS "WHERE b.level_id = ?1 AND b.board = ?2 AND b.hinted = ?3 AND b.listed = 1 "
                  "ORDER BY b.first, b.second, b.solved_at, b.solution_id LIMIT ?4";

int storage_board_top(int64_t level, int board, bool hinted, uint32_t limit,
                      int (*fn)(void *arg, const struct storage_board_entry *e), void *arg)
{
    sqlite3_stmt *st = storage_stmt(SQL_BOARD_TOP);
    if (st == NULL)
        return STORAGE_ERROR;
    sqlite3_bind_int64(st, 1, level);
    sqlite3_bind_int(st, 2, board);
    sqlite3_bind_int(st, 3, hinted ? 1 : 0);
    sqlite3_bind_int64(st, 4, limit);
    int status = storage_each_row(st, read_ranked, (void *)fn, arg, "reading a leaderboard");
    return status == STORAGE_NOT_FOUND ? STORAGE_OK : status;
}

static const char SQL_BOARD_USER[] =
    ENTRY_COLUMNS "WHERE b.level_id = ?1 AND b.board = ?2 AND b.hinted = ?3 AND b.user_id = ?4";

/* The players of the buckets before the entry's first count, plus those
 * with the same first count that come before it; both read an index range. */
static const char SQL_BOARD_AHEAD[] =
    "SELECT (SELECT coalesce(sum(players), 0) FROM board_buckets WHERE level_id = ?1 "
    "AND board = ?2 AND hinted = ?3 AND first < ?4) + (SELECT count(*) FROM board_entries "
    "WHERE level_id = ?1 AND board = ?2 AND hinted = ?3 AND listed = 1 AND first = ?4 "
    "AND (second, solved_at, solution_id) < (?5, ?6, ?7))";

int storage_board_user(int64_t level, int board, bool hinted, int64_t user, uint32_t *rank,
                       int (*fn)(void *arg, const struct storage_board_entry *e), void *arg)
{
    sqlite3_stmt *st = storage_stmt(SQL_BOARD_USER);
    if (st == NULL)
        return STORAGE_ERROR;
    sqlite3_bind_int64(st, 1, level);
    sqlite3_bind_int(st, 2, board);
    sqlite3_bind_int(st, 3, hinted ? 1 : 0);
    sqlite3_bind_int64(st, 4, user);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        int status = rc == SQLITE_DONE ? STORAGE_NOT_FOUND : storage_status(rc, "reading a rank");
        sqlite3_reset(st);
        return status;
    }
    struct storage_board_entry e;
    read_entry(st, &e);
    int64_t first = sqlite3_column_int64(st, 8), second = sqlite3_column_int64(st, 9);
    sqlite3_stmt *ahead = storage_stmt(SQL_BOARD_AHEAD);
    if (ahead == NULL) {
        sqlite3_reset(st);
        return STORAGE_ERROR;
    }
    sqlite3_bind_int64(ahead, 1, level);
    sqlite3_bind_int(ahead, 2, board);
    sqlite3_bind_int(ahead, 3, hinted ? 1 : 0);
    sqlite3_bind_int64(ahead, 4, first);
    sqlite3_bind_int64(ahead, 5, second);
    sqlite3_bind_int64(ahead, 6, e.solved_at);
    sqlite3_bind_int64(ahead, 7, e.solution_id);
    rc = sqlite3_step(ahead);
    int status = STORAGE_OK;
    if (rc == SQLITE_ROW)
        *rank = (uint32_t)sqlite3_column_int64(ahead, 0) + 1;
    else
        status = storage_status(rc, "counting a rank");
    sqlite3_reset(ahead);
    if (status == STORAGE_OK && fn(arg, &e) != 0)
        status = STORAGE_STOP;
    sqlite3_reset(st);
    return status;
}

static const char SQL_BOARD_COUNT[] =
    "SELECT coalesce(sum(players), 0) FROM board_buckets WHERE level_id = ?1 AND board = ?2 "
    "AND hinted = ?3";

int storage_board_count(int64_t level, int board, bool hinted, uint32_t *count)
{
    sqlite3_stmt *st = storage_stmt(SQL_BOARD_COUNT);
    if (st == NULL)
        return STORAGE_ERROR;
    sqlite3_bind_int64(st, 1, level);
    sqlite3_bind_int(st, 2, board);
    sqlite3_bind_int(st, 3, hinted ? 1 : 0);
    int64_t n = 0;
    int status = storage_first_int64(st, &n, "counting a leaderboard");
    *count = (uint32_t)n;
    return status == STORAGE_NOT_FOUND ? STORAGE_OK : status;
}

/* Days whose puzzle the user solved that day, hinted or not, walked back
 * from today (or yesterday) while each day before is solved too. */
static const char SQL_DAILY_STREAK[] =
    "WITH RECURSIVE solved(day) AS (SELECT d.day FROM daily d WHERE EXISTS (SELECT 1 FROM "
    "board_entries b WHERE b.level_id = d.level_id AND b.board = 2 AND b.hinted IN (0, 1) "
    "AND b.user_id = ?1)), "
    "run(day, n) AS (SELECT day, 1 FROM solved WHERE day = ?2 OR (day = date(?2, '-1 day') "
    "AND NOT EXISTS (SELECT 1 FROM solved WHERE day = ?2)) "
    "UNION ALL SELECT date(run.day, '-1 day'), n + 1 FROM run "
    "WHERE date(run.day, '-1 day') IN (SELECT day FROM solved)) "
    "SELECT coalesce(max(n), 0), EXISTS (SELECT 1 FROM solved WHERE day = ?2) FROM run";

int storage_daily_streak(int64_t user, const char *today, uint32_t *streak, bool *solved_today)
{
    sqlite3_stmt *st = storage_stmt(SQL_DAILY_STREAK);
    if (st == NULL)
        return STORAGE_ERROR;
    sqlite3_bind_int64(st, 1, user);
    storage_bind_text(st, 2, today);
    int rc = sqlite3_step(st);
    int status = STORAGE_OK;
    if (rc == SQLITE_ROW) {
        *streak = (uint32_t)sqlite3_column_int64(st, 0);
        *solved_today = sqlite3_column_int(st, 1) != 0;
    } else {
        status = storage_status(rc, "reading a streak");
    }
    sqlite3_reset(st);
    return status;
}

static const char SQL_SOLUTION_GET[] =
    "SELECT s.id, s.user_id, CASE WHEN u.guest THEN NULL ELSE u.username END, s.level_id, "
    "s.game_id, s.moves, s.pushes, s.hints, s.rule, s.lurd, s.solved_at "
    "FROM solutions s JOIN users u ON u.id = s.user_id WHERE s.id = ?1";

int storage_solution_get(int64_t id, int (*fn)(void *arg, const struct storage_solution_row *s),
                         void *arg)
{
    sqlite3_stmt *st = storage_stmt(SQL_SOLUTION_GET);
    if (st == NULL)
        return STORAGE_ERROR;
    sqlite3_bind_int64(st, 1, id);
    int status = storage_first_row(st, "reading a solution");
    if (status == STORAGE_OK) {
        struct storage_solution_row s = {
            .id = sqlite3_column_int64(st, 0),
            .user_id = sqlite3_column_int64(st, 1),
            .username = (const char *)sqlite3_column_text(st, 2),
            .level_id = sqlite3_column_int64(st, 3),
            .game_id = sqlite3_column_int64(st, 4),
            .moves = (uint32_t)sqlite3_column_int64(st, 5),
            .pushes = (uint32_t)sqlite3_column_int64(st, 6),
            .hints = (uint32_t)sqlite3_column_int64(st, 7),
            .rule = sqlite3_column_int(st, 8),
            .lurd = storage_column_text(st, 9),
            .solved_at = sqlite3_column_int64(st, 10),
        };
        if (fn(arg, &s) != 0)
            status = STORAGE_STOP;
    }
    sqlite3_reset(st);
    return status;
}
