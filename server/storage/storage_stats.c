/* Storage: a player's statistics (storage_stats.h). */
#include "storage/storage_stats.h"

#include "storage/storage_sql.h"

#define STR_(x) #x
#define STR(x) STR_(x)

/* A time's day in the window that starts at ?2, or -1 before it. */
#define DAY_OF(t) "CASE WHEN " t " >= ?2 THEN (" t " - ?2) / 86400 ELSE -1 END"

/* Two kinds of rows, summed per day: a level at its oldest kept solution,
 * and a gap between two entries of a game's log (from the game's opening
 * for the first), capped. The sums are cast, as PostgreSQL's sum of
 * bigints is a numeric. */
static const char SQL_STATS_DAYS[] =
    "SELECT t.d, CAST(sum(t.solved) AS BIGINT), CAST(sum(t.seconds) AS BIGINT) FROM ("
    "SELECT " DAY_OF(
        "f.first_at") " AS d, 1 AS solved, 0 AS seconds "
                      "FROM (SELECT min(solved_at) AS first_at FROM solutions WHERE user_id = ?1 "
                      "GROUP BY level_id) f "
                      "UNION ALL SELECT " DAY_OF(
                          "e.at") ", 0, "
                                  "CASE WHEN e.gap > " STR(STORAGE_STATS_GAP_CAP) " THEN " STR(
                                      STORAGE_STATS_GAP_CAP) " ELSE "
                                                             "e.gap END FROM (SELECT l.created_at "
                                                             "AS at, l.created_at - "
                                                             "lag(l.created_at, 1, g.created_at) "
                                                             "OVER (PARTITION BY l.game_id ORDER "
                                                             "BY l.seq) AS gap FROM games g "
                                                             "JOIN game_log l ON l.game_id = g.id "
                                                             "WHERE g.user_id = ?1) e WHERE e.gap "
                                                             "> 0"
                                                             ") t GROUP BY t.d ORDER BY t.d";

static int read_day(struct sql_stmt *st, void *fn, void *arg)
{
    struct storage_stats_day d = {
        .day = sql_column_int64(st, 0),
        .solved = (uint32_t)sql_column_int64(st, 1),
        .seconds = sql_column_int64(st, 2),
    };
    return ((int (*)(void *, const struct storage_stats_day *))fn)(arg, &d);
}

int storage_stats_days(int64_t user, int64_t start,
                       int (*fn)(void *arg, const struct storage_stats_day *d), void *arg)
{
    return storage_list_by_ids(SQL_STATS_DAYS, user, start, read_day, (void *)fn, arg,
                               "reading a player's days");
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
