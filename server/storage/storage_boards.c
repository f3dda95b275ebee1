/* Storage: witnessed solutions and the leaderboards over them. The
 * board_entries table (migration 0007) keeps each user's best per board,
 * maintained by triggers on solutions and users. */
#include "storage/storage_boards.h"

#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <sodium.h>
#include <string.h>

/* The insert reads the game's hint count inside the same statement, so the
 * count is the one of the transaction that solved the game. A line the user
 * has already (the same hash) inserts nothing. */
static const char SQL_SOLUTION_INSERT[] =
    "INSERT INTO solutions (user_id, level_id, game_id, moves, pushes, lurd, "
    "solved_at, hints, rule, lurd_hash, reverse) "
    "SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, CASE WHEN ?8 >= 0 THEN ?8 "
    "ELSE coalesce((SELECT hints FROM games WHERE id = ?3), 0) END, ?9, ?10, ?11 "
    "ON CONFLICT DO NOTHING RETURNING id";

/* The bound: of the user's solutions of the level under the rule, those
 * written since solutions were bounded go unless a board holds them or
 * they are the one just written. The insert's triggers have moved the
 * boards already, so a solution a new one beats is on no board by now. */
static const char SQL_SOLUTION_PRUNE[] =
    "DELETE FROM solutions WHERE user_id = ?1 AND level_id = ?2 AND rule = ?3 AND id <> ?4 "
    "AND legacy = 0 AND NOT EXISTS (SELECT 1 FROM board_entries b "
    "WHERE b.solution_id = solutions.id)";

void storage_lurd_hash(const char *lurd, uint8_t out[STORAGE_LURD_HASH_BYTES])
{
    crypto_hash_sha256(out, (const unsigned char *)lurd, strlen(lurd));
}

static int prune(const struct storage_new_solution *s, int64_t kept)
{
    struct sql_stmt *st = storage_stmt(SQL_SOLUTION_PRUNE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, s->user_id);
    sql_bind_int64(st, 2, s->level_id);
    sql_bind_int64(st, 3, s->rule);
    sql_bind_int64(st, 4, kept);
    return storage_exec_stmt(st, "replacing a user's solutions");
}

int storage_solution_insert(const struct storage_new_solution *s, int64_t *id)
{
    *id = 0;
    struct sql_stmt *st = storage_stmt(SQL_SOLUTION_INSERT);
    if (st == NULL)
        return STORAGE_ERROR;
    uint8_t hash[STORAGE_LURD_HASH_BYTES];
    storage_lurd_hash(s->lurd, hash);
    sql_bind_int64(st, 1, s->user_id);
    sql_bind_int64(st, 2, s->level_id);
    if (s->game_id != 0)
        sql_bind_int64(st, 3, s->game_id);
    else
        sql_bind_null(st, 3);
    sql_bind_int64(st, 4, s->moves);
    sql_bind_int64(st, 5, s->pushes);
    sql_bind_text(st, 6, s->lurd);
    sql_bind_int64(st, 7, s->at);
    sql_bind_int64(st, 8, s->hints);
    sql_bind_int64(st, 9, s->rule);
    sql_bind_blob(st, 10, hash, sizeof hash);
    sql_bind_int64(st, 11, s->reverse ? 1 : 0);
    int64_t made = 0;
    int status = storage_exec_insert(st, &made, "recording a solution");
    /* A solution the user had already found inserts nothing: not an error. */
    if (status == STORAGE_NOT_FOUND)
        return STORAGE_OK;
    if (status == STORAGE_OK)
        status = prune(s, made);
    if (status == STORAGE_OK)
        *id = made;
    return status;
}

/* Rows read at a time by storage_solutions_hash_lines. */
#define HASH_BATCH 256

static const char SQL_UNHASHED[] =
    "SELECT id, lurd FROM solutions WHERE lurd_hash IS NULL ORDER BY id LIMIT ?1";
static const char SQL_SET_HASH[] = "UPDATE solutions SET lurd_hash = ?2 WHERE id = ?1";

/* Hashes up to HASH_BATCH rows; sets *done when none was left. */
static int hash_batch(bool *done)
{
    int64_t ids[HASH_BATCH];
    uint8_t hashes[HASH_BATCH][STORAGE_LURD_HASH_BYTES];
    unsigned n = 0;
    struct sql_stmt *st = storage_stmt(SQL_UNHASHED);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, HASH_BATCH);
    int rc = SQL_ROW;
    while (n < HASH_BATCH) {
        rc = sql_step(st, "reading unhashed solutions");
        if (rc != SQL_ROW)
            break;
        ids[n] = sql_column_int64(st, 0);
        storage_lurd_hash(sql_column_text(st, 1), hashes[n]);
        n++;
    }
    sql_reset(st);
    if (rc != SQL_ROW && rc != STORAGE_OK)
        return rc;
    int status = STORAGE_OK;
    for (unsigned i = 0; i < n && status == STORAGE_OK; i++) {
        struct sql_stmt *up = storage_stmt(SQL_SET_HASH);
        if (up == NULL) {
            status = STORAGE_ERROR;
            break;
        }
        sql_bind_int64(up, 1, ids[i]);
        sql_bind_blob(up, 2, hashes[i], STORAGE_LURD_HASH_BYTES);
        status = storage_exec_stmt(up, "hashing a solution's line");
    }
    *done = n < HASH_BATCH;
    return status;
}

int storage_solutions_hash_lines(void)
{
    if (sodium_init() < 0)
        return STORAGE_ERROR;
    bool done = false;
    int status = STORAGE_OK;
    while (!done && status == STORAGE_OK)
        status = hash_batch(&done);
    return status;
}

#define ENTRY_COLUMNS                                                                              \
    "SELECT b.user_id, CASE WHEN u.guest = 1 THEN NULL ELSE u.username END, s.moves, s.pushes, "   \
    "s.hints, b.solved_at, b.solution_id, b.listed, b.first, b.second FROM board_entries b "       \
    "JOIN users u ON u.id = b.user_id JOIN solutions s ON s.id = b.solution_id "

static void read_entry(struct sql_stmt *st, struct storage_board_entry *e)
{
    e->user_id = sql_column_int64(st, 0);
    e->username = storage_column_text_or_null(st, 1);
    e->moves = (uint32_t)sql_column_int64(st, 2);
    e->pushes = (uint32_t)sql_column_int64(st, 3);
    e->hints = (uint32_t)sql_column_int64(st, 4);
    e->solved_at = sql_column_int64(st, 5);
    e->solution_id = sql_column_int64(st, 6);
    e->listed = sql_column_int(st, 7) != 0;
}

static int read_ranked(struct sql_stmt *st, void *fn, void *arg)
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
    struct sql_stmt *st = storage_stmt(SQL_BOARD_TOP);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, level);
    sql_bind_int64(st, 2, board);
    sql_bind_int64(st, 3, hinted ? 1 : 0);
    sql_bind_int64(st, 4, limit);
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
    struct sql_stmt *st = storage_stmt(SQL_BOARD_USER);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, level);
    sql_bind_int64(st, 2, board);
    sql_bind_int64(st, 3, hinted ? 1 : 0);
    sql_bind_int64(st, 4, user);
    int status = storage_first_row(st, "reading a rank");
    if (status != STORAGE_OK) {
        sql_reset(st);
        return status;
    }
    struct storage_board_entry e;
    read_entry(st, &e);
    int64_t first = sql_column_int64(st, 8), second = sql_column_int64(st, 9);
    struct sql_stmt *ahead = storage_stmt(SQL_BOARD_AHEAD);
    if (ahead == NULL) {
        sql_reset(st);
        return STORAGE_ERROR;
    }
    sql_bind_int64(ahead, 1, level);
    sql_bind_int64(ahead, 2, board);
    sql_bind_int64(ahead, 3, hinted ? 1 : 0);
    sql_bind_int64(ahead, 4, first);
    sql_bind_int64(ahead, 5, second);
    sql_bind_int64(ahead, 6, e.solved_at);
    sql_bind_int64(ahead, 7, e.solution_id);
    int64_t before = 0;
    status = storage_first_int64(ahead, &before, "counting a rank");
    *rank = (uint32_t)before + 1;
    if (status == STORAGE_OK && fn(arg, &e) != 0)
        status = STORAGE_STOP;
    sql_reset(st);
    return status;
}

static const char SQL_BOARD_COUNT[] =
    "SELECT coalesce(sum(players), 0) FROM board_buckets WHERE level_id = ?1 AND board = ?2 "
    "AND hinted = ?3";

int storage_board_count(int64_t level, int board, bool hinted, uint32_t *count)
{
    struct sql_stmt *st = storage_stmt(SQL_BOARD_COUNT);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, level);
    sql_bind_int64(st, 2, board);
    sql_bind_int64(st, 3, hinted ? 1 : 0);
    int64_t n = 0;
    int status = storage_first_int64(st, &n, "counting a leaderboard");
    *count = (uint32_t)n;
    return status == STORAGE_NOT_FOUND ? STORAGE_OK : status;
}

/* Days whose puzzle the user solved that day, hinted or not, walked back
 * from today (or yesterday) while each day before is solved too. Days are
 * 'YYYY-MM-DD' text; DAY_BEFORE is the day before one, in each dialect. */
#define SQL_DAILY_STREAK(DAY_BEFORE)                                                               \
    "WITH RECURSIVE solved(day) AS (SELECT d.day FROM daily d WHERE EXISTS (SELECT 1 FROM "        \
    "board_entries b WHERE b.level_id = d.level_id AND b.board = 2 AND b.hinted IN (0, 1) "        \
    "AND b.user_id = ?1)), "                                                                       \
    "run(day, n) AS (SELECT day, 1 FROM solved WHERE day = ?2 OR (day = " DAY_BEFORE(              \
        "?2") " AND NOT EXISTS (SELECT 1 FROM solved WHERE day = ?2)) "                            \
              "UNION ALL SELECT " DAY_BEFORE(                                                      \
                  "run.day") ", n + 1 FROM run "                                                   \
                             "WHERE " DAY_BEFORE(                                                  \
                                 "run.day") " IN (SELECT day FROM solved)) "                       \
                                            "SELECT coalesce(max(n), 0), EXISTS (SELECT 1 FROM "   \
                                            "solved WHERE day = ?2) FROM run"
#define LITE_DAY_BEFORE(day) "date(" day ", '-1 day')"
#define PG_DAY_BEFORE(day) "to_char(CAST(" day " AS date) - 1, 'YYYY-MM-DD')"
static const char SQL_DAILY_STREAK_LITE[] = SQL_DAILY_STREAK(LITE_DAY_BEFORE);
static const char SQL_DAILY_STREAK_PG[] = SQL_DAILY_STREAK(PG_DAY_BEFORE);

int storage_daily_streak(int64_t user, const char *today, uint32_t *streak, bool *solved_today)
{
    struct sql_stmt *st = storage_stmt(storage_dialect(SQL_DAILY_STREAK_LITE, SQL_DAILY_STREAK_PG));
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, user);
    sql_bind_text(st, 2, today);
    int status = storage_first_row(st, "reading a streak");
    if (status == STORAGE_OK) {
        *streak = (uint32_t)sql_column_int64(st, 0);
        *solved_today = sql_column_int(st, 1) != 0;
    }
    sql_reset(st);
    return status;
}

static const char SQL_SOLUTION_GET[] =
    "SELECT s.id, s.user_id, CASE WHEN u.guest = 1 THEN NULL ELSE u.username END, s.level_id, "
    "s.game_id, s.moves, s.pushes, s.hints, s.rule, s.solved_at, s.reverse "
    "FROM solutions s JOIN users u ON u.id = s.user_id WHERE s.id = ?1";

int storage_solution_get(int64_t id, int (*fn)(void *arg, const struct storage_solution_row *s),
                         void *arg)
{
    struct sql_stmt *st = storage_stmt(SQL_SOLUTION_GET);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    int status = storage_first_row(st, "reading a solution");
    if (status == STORAGE_OK) {
        struct storage_solution_row s = {
            .id = sql_column_int64(st, 0),
            .user_id = sql_column_int64(st, 1),
            .username = storage_column_text_or_null(st, 2),
            .level_id = sql_column_int64(st, 3),
            .game_id = sql_column_int64(st, 4),
            .moves = (uint32_t)sql_column_int64(st, 5),
            .pushes = (uint32_t)sql_column_int64(st, 6),
            .hints = (uint32_t)sql_column_int64(st, 7),
            .rule = sql_column_int(st, 8),
            .solved_at = sql_column_int64(st, 9),
            .reverse = sql_column_int(st, 10) != 0,
        };
        if (fn(arg, &s) != 0)
            status = STORAGE_STOP;
    }
    sql_reset(st);
    return status;
}
