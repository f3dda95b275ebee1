/* Storage: a player's statistics (storage_stats.h). */
#include "storage/storage_stats.h"

#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <stdlib.h>

static const char SQL_STATS_DAYS[] =
    "SELECT CASE WHEN f.first_at >= ?2 THEN (f.first_at - ?2) / 86400 ELSE -1 END AS d, count(*) "
    "FROM (SELECT min(solved_at) AS first_at FROM solutions WHERE user_id = ?1 "
    "GROUP BY level_id) f GROUP BY 1 ORDER BY 1";

static int read_day(struct sql_stmt *st, void *fn, void *arg)
{
    struct storage_stats_day d = {
        .day = sql_column_int64(st, 0),
        .solved = (uint32_t)sql_column_int64(st, 1),
    };
    return ((int (*)(void *, const struct storage_stats_day *))fn)(arg, &d);
}

int storage_stats_days(int64_t user, int64_t start,
                       int (*fn)(void *arg, const struct storage_stats_day *d), void *arg)
{
    return storage_list_by_ids(SQL_STATS_DAYS, user, start, read_day, (void *)fn, arg,
                               "reading a player's days");
}

/* The games are read whole first (two integers each), then each game's
 * log from its latest entry back, so that no statement stays open while
 * another runs: PostgreSQL's driver reads a statement's rows whole. */
static const char SQL_STATS_GAMES[] =
    "SELECT id, created_at FROM games WHERE user_id = ?1 ORDER BY updated_at DESC, id DESC";
static const char SQL_STATS_LOG[] =
    "SELECT created_at FROM game_log WHERE game_id = ?1 ORDER BY seq DESC LIMIT ?2";

struct games_list {
    int64_t (*rows)[2];
    size_t n, cap;
};

static int read_game(struct sql_stmt *st, void *fn, void *arg)
{
    (void)fn;
    struct games_list *g = arg;
    if (g->n == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 64;
        void *rows = realloc(g->rows, cap * sizeof *g->rows);
        if (rows == NULL)
            return 1;
        g->rows = rows;
        g->cap = cap;
    }
    g->rows[g->n][0] = sql_column_int64(st, 0);
    g->rows[g->n][1] = sql_column_int64(st, 1);
    g->n++;
    return 0;
}

static int64_t gap_of(int64_t later, int64_t earlier)
{
    int64_t gap = later - earlier;
    if (gap < 0)
        return 0; /* clocks of two nodes, or one set back */
    return gap > STORAGE_STATS_GAP_CAP ? STORAGE_STATS_GAP_CAP : gap;
}

/* Reads one game's latest `limit` entries; calls fn for each gap. Sets
 * *read to the entries read. */
static int game_played(const int64_t game[2], uint32_t limit, uint32_t *read,
                       int (*fn)(void *arg, int64_t at, int64_t seconds), void *arg)
{
    *read = 0;
    struct sql_stmt *st = storage_stmt(SQL_STATS_LOG);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, game[0]);
    sql_bind_int64(st, 2, limit);
    int64_t later = 0;
    int status;
    while ((status = sql_step(st, "reading a game's times")) == SQL_ROW) {
        int64_t at = sql_column_int64(st, 0);
        if (*read > 0 && fn(arg, later, gap_of(later, at)) != 0) {
            sql_reset(st);
            return STORAGE_STOP;
        }
        later = at;
        ++*read;
    }
    sql_reset(st);
    if (status != STORAGE_OK)
        return status;
    /* The whole log was read: its first entry counts from the opening. */
    if (*read > 0 && *read < limit)
        fn(arg, later, gap_of(later, game[1]));
    return STORAGE_OK;
}

int storage_stats_played(int64_t user, uint32_t budget,
                         int (*fn)(void *arg, int64_t at, int64_t seconds), void *arg,
                         bool *partial)
{
    *partial = false;
    struct games_list games = {0};
    int status = storage_list_by_id(SQL_STATS_GAMES, user, read_game, NULL, &games,
                                    "listing a player's games");
    if (status == STORAGE_STOP)
        status = STORAGE_ERROR; /* out of memory */
    for (size_t i = 0; status == STORAGE_OK && i < games.n; i++) {
        if (budget == 0) {
            *partial = true;
            break;
        }
        uint32_t read = 0;
        /* One more than the budget: the row past it says whether there was more. */
        status = game_played(games.rows[i], budget + 1, &read, fn, arg);
        if (read > budget) {
            *partial = true;
            break;
        }
        budget -= read;
    }
    free(games.rows);
    return status;
}

/* The player's levels with their fewest standard moves (NULL when solved
 * under the multi-push rule only), and whether those equal the level's
 * best known moves: the fewest of the witnessed boards by moves (board 0
 * holds each player's fewest), of the submitted solutions and of those an
 * admin's upload carried, each read from its index on the level. */
#define LISTED_C "c.hidden = 0 AND c.deleted_at IS NULL"
#define LISTED_L "l.hidden = 0 AND l.deleted_at IS NULL"
static const char SQL_STATS_COLLECTIONS[] =
    "SELECT c.id, c.name, "
    "(SELECT count(*) FROM levels l WHERE l.collection_id = c.id AND " LISTED_L "), "
    "coalesce(r.solved, 0), coalesce(r.at_best, 0) FROM collections c LEFT JOIN ("
    "SELECT l.collection_id, count(*) AS solved, sum(CASE WHEN m.moves IS NULL THEN 0 "
    "WHEN m.moves <= (SELECT min(k.moves) FROM ("
    "SELECT min(b.first) AS moves FROM board_entries b WHERE b.level_id = l.id AND b.board = 0 "
    "UNION ALL SELECT min(t.moves) FROM submitted_solutions t WHERE t.level_id = l.id "
    "AND t.rule = 0 "
    "UNION ALL SELECT min(x.moves) FROM reference_solutions x WHERE x.level_id = l.id) k) "
    "THEN 1 ELSE 0 END) AS at_best "
    "FROM (SELECT level_id, min(CASE WHEN rule = 0 THEN moves END) AS moves FROM solutions "
    "WHERE user_id = ?1 GROUP BY level_id) m JOIN levels l ON l.id = m.level_id "
    "WHERE " LISTED_L " GROUP BY l.collection_id) r ON r.collection_id = c.id "
    "WHERE " LISTED_C " ORDER BY c.position, c.id";

static int read_collection(struct sql_stmt *st, void *fn, void *arg)
{
    struct storage_stats_collection c = {
        .id = sql_column_int64(st, 0),
        .name = sql_column_text(st, 1),
        .levels = (uint32_t)sql_column_int64(st, 2),
        .solved = (uint32_t)sql_column_int64(st, 3),
        .at_best_known = (uint32_t)sql_column_int64(st, 4),
    };
    return ((int (*)(void *, const struct storage_stats_collection *))fn)(arg, &c);
}

int storage_stats_collections(int64_t user,
                              int (*fn)(void *arg, const struct storage_stats_collection *c),
                              void *arg)
{
    return storage_list_by_id(SQL_STATS_COLLECTIONS, user, read_collection, (void *)fn, arg,
                              "reading a player's collections");
}
