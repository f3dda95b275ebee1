/* Storage: ratings of players and levels (storage_ratings.h). */
#include "storage/storage_ratings.h"

#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <stddef.h>

/* Levels and collections players see (as storage_levels.c lists them). */
#define LISTED "c.hidden = 0 AND c.deleted_at IS NULL AND l.hidden = 0 AND l.deleted_at IS NULL"

#define FACTS_COLUMNS                                                                              \
    "SELECT l.id, l.boxes, l.comment, l.solver_status, coalesce(l.solver_pushes, 0) "

static const char SQL_UNRATED[] = FACTS_COLUMNS
    "FROM levels l WHERE NOT EXISTS (SELECT 1 FROM level_ratings r WHERE r.level_id = l.id) "
    "ORDER BY l.id LIMIT ?1";
static const char SQL_FACTS[] = FACTS_COLUMNS "FROM levels l WHERE l.id = ?1";
static const char SQL_STALE[] =
    FACTS_COLUMNS "FROM levels l JOIN level_ratings r ON r.level_id = l.id "
                  "WHERE r.prior = 'none' AND r.attempts = 0 AND l.solver_status <> 'none' "
                  "ORDER BY l.id LIMIT ?1";

static int read_facts(struct sql_stmt *st, void *fn, void *arg)
{
    struct storage_level_facts f = {
        .id = sql_column_int64(st, 0),
        .boxes = (uint32_t)sql_column_int64(st, 1),
        .comment = sql_column_text(st, 2),
        .solver_status = sql_column_text(st, 3),
        .solver_pushes = (uint32_t)sql_column_int64(st, 4),
    };
    return ((int (*)(void *, const struct storage_level_facts *))fn)(arg, &f);
}

int storage_ratings_unrated(uint32_t limit,
                            int (*fn)(void *arg, const struct storage_level_facts *f), void *arg)
{
    return storage_list_by_id(SQL_UNRATED, limit, read_facts, (void *)fn, arg,
                              "listing unrated levels");
}

int storage_ratings_stale(uint32_t limit, int (*fn)(void *arg, const struct storage_level_facts *f),
                          void *arg)
{
    return storage_list_by_id(SQL_STALE, limit, read_facts, (void *)fn, arg,
                              "listing levels the solver checked since they were rated");
}

int storage_ratings_level_facts(int64_t id,
                                int (*fn)(void *arg, const struct storage_level_facts *f),
                                void *arg)
{
    return storage_rows_by_id(SQL_FACTS, id, read_facts, (void *)fn, arg, "reading a level");
}

static const char SQL_SEED[] =
    "INSERT INTO level_ratings (level_id, rating_milli, deviation_milli, volatility_micro, prior, "
    "updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (level_id) DO NOTHING";

int storage_ratings_seed(int64_t id, const struct storage_rating *r, const char *prior)
{
    struct sql_stmt *st = storage_stmt(SQL_SEED);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_int64(st, 2, r->rating_milli);
    sql_bind_int64(st, 3, r->deviation_milli);
    sql_bind_int64(st, 4, r->volatility_micro);
    sql_bind_text(st, 5, prior);
    sql_bind_int64(st, 6, r->updated_at);
    return storage_exec_stmt(st, "giving a level its first rating");
}

static const char SQL_RESEED[] =
    "UPDATE level_ratings SET rating_milli = ?2, deviation_milli = ?3, volatility_micro = ?4, "
    "prior = ?5, updated_at = ?6 WHERE level_id = ?1 AND attempts = 0";

int storage_ratings_reseed(int64_t id, const struct storage_rating *r, const char *prior)
{
    struct sql_stmt *st = storage_stmt(SQL_RESEED);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_int64(st, 2, r->rating_milli);
    sql_bind_int64(st, 3, r->deviation_milli);
    sql_bind_int64(st, 4, r->volatility_micro);
    sql_bind_text(st, 5, prior);
    sql_bind_int64(st, 6, r->updated_at);
    return storage_exec_stmt(st, "giving a level its solver's prior");
}

static const char SQL_SOLUTIONS[] =
    "SELECT s.id, s.user_id, s.level_id, coalesce(g.id, 0), coalesce(g.created_at, 0), "
    "s.solved_at, CASE WHEN s.hints > 0 THEN 1 ELSE 0 END, "
    "CASE WHEN g.id IS NOT NULL AND s.rule = 0 AND g.rule = 0 AND g.room_id IS NULL "
    "THEN 1 ELSE 0 END "
    "FROM solutions s LEFT JOIN games g ON g.id = s.game_id WHERE s.id > ?1 ORDER BY s.id LIMIT ?2";

static int read_solution(struct sql_stmt *st, void *fn, void *arg)
{
    struct storage_rated_solution s = {
        .id = sql_column_int64(st, 0),
        .user_id = sql_column_int64(st, 1),
        .level_id = sql_column_int64(st, 2),
        .game_id = sql_column_int64(st, 3),
        .game_created_at = sql_column_int64(st, 4),
        .solved_at = sql_column_int64(st, 5),
        .hinted = sql_column_int64(st, 6) != 0,
        .rated_kind = sql_column_int64(st, 7) != 0,
    };
    return ((int (*)(void *, const struct storage_rated_solution *))fn)(arg, &s);
}

int storage_ratings_solutions(int64_t after, uint32_t limit,
                              int (*fn)(void *arg, const struct storage_rated_solution *s),
                              void *arg)
{
    return storage_list_by_ids(SQL_SOLUTIONS, after, limit, read_solution, (void *)fn, arg,
                               "reading new solutions");
}

static const char SQL_IDLE[] =
    "SELECT g.id, g.user_id, g.level_id, g.created_at, g.updated_at FROM games g "
    "WHERE (g.updated_at > ?1 OR (g.updated_at = ?1 AND g.id > ?2)) AND g.updated_at < ?3 "
    "AND g.rule = 0 AND g.room_id IS NULL AND g.seq >= ?4 "
    "AND NOT EXISTS (SELECT 1 FROM solutions s WHERE s.game_id = g.id) "
    "AND NOT EXISTS (SELECT 1 FROM rated_games r WHERE r.game_id = g.id) "
    "ORDER BY g.updated_at, g.id LIMIT ?5";

int storage_ratings_idle_games(int64_t at, int64_t id, int64_t before, uint32_t entries,
                               uint32_t limit,
                               int (*fn)(void *arg, const struct storage_idle_game *g), void *arg)
{
    struct sql_stmt *st = storage_stmt(SQL_IDLE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, at);
    sql_bind_int64(st, 2, id);
    sql_bind_int64(st, 3, before);
    sql_bind_int64(st, 4, entries);
    sql_bind_int64(st, 5, limit);
    int status;
    while ((status = sql_step(st, "reading idle games")) == SQL_ROW) {
        struct storage_idle_game g = {
            .id = sql_column_int64(st, 0),
            .user_id = sql_column_int64(st, 1),
            .level_id = sql_column_int64(st, 2),
            .created_at = sql_column_int64(st, 3),
            .updated_at = sql_column_int64(st, 4),
        };
        if (fn(arg, &g) != 0) {
            status = STORAGE_STOP;
            break;
        }
    }
    sql_reset(st);
    return status;
}

static const char SQL_LOG_TIMES[] = "SELECT created_at FROM game_log WHERE game_id = ?1 "
                                    "AND created_at <= ?2 ORDER BY seq LIMIT ?3";

int storage_ratings_game_seconds(int64_t id, int64_t from, int64_t until, int64_t gap_cap,
                                 uint32_t budget, int64_t *seconds)
{
    *seconds = 0;
    struct sql_stmt *st = storage_stmt(SQL_LOG_TIMES);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_int64(st, 2, until);
    sql_bind_int64(st, 3, budget);
    int64_t earlier = from;
    int status;
    while ((status = sql_step(st, "reading a game's times")) == SQL_ROW) {
        int64_t at = sql_column_int64(st, 0), gap = at - earlier;
        *seconds += gap < 0 ? 0 : gap > gap_cap ? gap_cap : gap;
        earlier = at;
    }
    sql_reset(st);
    return status;
}

static const char SQL_CURSOR[] =
    "SELECT solution_id, idle_at, idle_game FROM rating_cursor WHERE id = 1";
static const char SQL_SET_CURSOR[] =
    "UPDATE rating_cursor SET solution_id = ?1, idle_at = ?2, idle_game = ?3 WHERE id = 1";

int storage_ratings_cursor(struct storage_rating_cursor *c)
{
    struct sql_stmt *st = storage_stmt(SQL_CURSOR);
    if (st == NULL)
        return STORAGE_ERROR;
    int status = storage_first_row(st, "reading the rating cursor");
    if (status == STORAGE_OK) {
        c->solution_id = sql_column_int64(st, 0);
        c->idle_at = sql_column_int64(st, 1);
        c->idle_game = sql_column_int64(st, 2);
    }
    sql_reset(st);
    return status;
}

int storage_ratings_set_cursor(const struct storage_rating_cursor *c)
{
    struct sql_stmt *st = storage_stmt(SQL_SET_CURSOR);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, c->solution_id);
    sql_bind_int64(st, 2, c->idle_at);
    sql_bind_int64(st, 3, c->idle_game);
    return storage_exec_stmt(st, "moving the rating cursor");
}

static const char SQL_ADD_SOLVER[] =
    "INSERT INTO level_solvers (level_id, user_id) VALUES (?1, ?2) "
    "ON CONFLICT (level_id, user_id) DO NOTHING";
static const char SQL_COUNT_SOLVER[] =
    "UPDATE level_ratings SET solvers = solvers + 1 WHERE level_id = ?1";

int storage_ratings_add_solver(int64_t level, int64_t user, bool *added)
{
    *added = false;
    struct sql_stmt *st = storage_stmt(SQL_ADD_SOLVER);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, level);
    sql_bind_int64(st, 2, user);
    int status = storage_exec_changed(st, "counting a level's solver");
    if (status == STORAGE_NOT_FOUND)
        return STORAGE_OK;
    if (status != STORAGE_OK)
        return status;
    *added = true;
    st = storage_stmt(SQL_COUNT_SOLVER);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, level);
    return storage_exec_stmt(st, "counting a level's solver");
}

static const char SQL_MARK[] =
    "INSERT INTO rated_games (game_id, score, seconds, rated_at) VALUES (?1, ?2, ?3, ?4) "
    "ON CONFLICT (game_id) DO NOTHING";

int storage_ratings_mark(int64_t id, int score, int64_t seconds, int64_t now)
{
    struct sql_stmt *st = storage_stmt(SQL_MARK);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_int64(st, 2, score);
    sql_bind_int64(st, 3, seconds);
    sql_bind_int64(st, 4, now);
    return storage_exec_changed(st, "marking a game rated");
}

static const char SQL_LEVEL_RATING[] =
    "SELECT rating_milli, deviation_milli, volatility_micro, attempts, solves, log_seconds_milli, "
    "updated_at FROM level_ratings WHERE level_id = ?1";
static const char SQL_PLAYER_RATING[] =
    "SELECT rating_milli, deviation_milli, volatility_micro, attempts, 0, 0, updated_at "
    "FROM player_ratings WHERE user_id = ?1";

static int read_rating(const char *sql, int64_t id, struct storage_rating *r)
{
    struct sql_stmt *st = storage_stmt(sql);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    int status = storage_first_row(st, "reading a rating");
    if (status == STORAGE_OK)
        *r = (struct storage_rating){
            .rating_milli = sql_column_int64(st, 0),
            .deviation_milli = sql_column_int64(st, 1),
            .volatility_micro = sql_column_int64(st, 2),
            .attempts = (uint32_t)sql_column_int64(st, 3),
            .solves = (uint32_t)sql_column_int64(st, 4),
            .log_seconds_milli = sql_column_int64(st, 5),
            .updated_at = sql_column_int64(st, 6),
        };
    sql_reset(st);
    return status;
}

int storage_ratings_level(int64_t level, struct storage_rating *r)
{
    return read_rating(SQL_LEVEL_RATING, level, r);
}

int storage_ratings_player(int64_t user, struct storage_rating *r)
{
    return read_rating(SQL_PLAYER_RATING, user, r);
}

static const char SQL_PUT_LEVEL[] =
    "UPDATE level_ratings SET rating_milli = ?2, deviation_milli = ?3, volatility_micro = ?4, "
    "attempts = ?5, solves = ?6, log_seconds_milli = ?7, updated_at = ?8 WHERE level_id = ?1";
static const char SQL_PUT_PLAYER[] =
    "INSERT INTO player_ratings (user_id, rating_milli, deviation_milli, volatility_micro, "
    "attempts, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (user_id) DO UPDATE SET "
    "rating_milli = excluded.rating_milli, deviation_milli = excluded.deviation_milli, "
    "volatility_micro = excluded.volatility_micro, attempts = excluded.attempts, "
    "updated_at = excluded.updated_at";
static const char SQL_PUT_HISTORY[] =
    "INSERT INTO rating_history (user_id, day, rating_milli, deviation_milli) "
    "VALUES (?1, ?2, ?3, ?4) ON CONFLICT (user_id, day) DO UPDATE SET "
    "rating_milli = excluded.rating_milli, deviation_milli = excluded.deviation_milli";

int storage_ratings_put_level(int64_t level, const struct storage_rating *r)
{
    struct sql_stmt *st = storage_stmt(SQL_PUT_LEVEL);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, level);
    sql_bind_int64(st, 2, r->rating_milli);
    sql_bind_int64(st, 3, r->deviation_milli);
    sql_bind_int64(st, 4, r->volatility_micro);
    sql_bind_int64(st, 5, r->attempts);
    sql_bind_int64(st, 6, r->solves);
    sql_bind_int64(st, 7, r->log_seconds_milli);
    sql_bind_int64(st, 8, r->updated_at);
    return storage_exec_stmt(st, "writing a level's rating");
}

int storage_ratings_put_player(int64_t user, const struct storage_rating *r, int64_t day)
{
    struct sql_stmt *st = storage_stmt(SQL_PUT_PLAYER);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, user);
    sql_bind_int64(st, 2, r->rating_milli);
    sql_bind_int64(st, 3, r->deviation_milli);
    sql_bind_int64(st, 4, r->volatility_micro);
    sql_bind_int64(st, 5, r->attempts);
    sql_bind_int64(st, 6, r->updated_at);
    int status = storage_exec_stmt(st, "writing a player's rating");
    if (status != STORAGE_OK)
        return status;
    st = storage_stmt(SQL_PUT_HISTORY);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, user);
    sql_bind_int64(st, 2, day);
    sql_bind_int64(st, 3, r->rating_milli);
    sql_bind_int64(st, 4, r->deviation_milli);
    return storage_exec_stmt(st, "writing a player's rating history");
}

static const char SQL_HISTORY[] = "SELECT day, rating_milli, deviation_milli FROM rating_history "
                                  "WHERE user_id = ?1 AND day >= ?2 ORDER BY day";

struct history_fn {
    int (*fn)(void *arg, int64_t day, int64_t rating_milli, int64_t deviation_milli);
};

static int read_history(struct sql_stmt *st, void *fn, void *arg)
{
    const struct history_fn *h = fn;
    return h->fn(arg, sql_column_int64(st, 0), sql_column_int64(st, 1), sql_column_int64(st, 2));
}

int storage_ratings_history(int64_t user, int64_t since,
                            int (*fn)(void *arg, int64_t day, int64_t rating_milli,
                                      int64_t deviation_milli),
                            void *arg)
{
    struct history_fn h = {fn};
    return storage_list_by_ids(SQL_HISTORY, user, since, read_history, &h, arg,
                               "reading a rating history");
}

/* The library's listing: one statement per filter, sort and direction,
 * each with static text (statements are cached by their text). ?1 the
 * user, ?2 the collection (0 for all), ?3 the limit, ?4 the offset. A
 * level is started when the player made a move there (a game opened and
 * left without one is not), as the collection's own listing says. */
#define SOLVED_BY "EXISTS (SELECT 1 FROM solutions s WHERE s.user_id = ?1 AND s.level_id = l.id)"
#define STARTED_BY                                                                                 \
    "EXISTS (SELECT 1 FROM games g WHERE g.user_id = ?1 AND g.level_id = l.id AND "                \
    "g.room_id IS NULL AND g.seq > 0)"
#define LIBRARY_FROM                                                                               \
    "FROM levels l JOIN collections c ON c.id = l.collection_id "                                  \
    "LEFT JOIN level_ratings r ON r.level_id = l.id WHERE " LISTED                                 \
    " AND (?2 = 0 OR l.collection_id = ?2) "
#define LIBRARY_SELECT                                                                             \
    "SELECT l.id, l.collection_id, c.name, l.position, l.title, l.width, l.height, l.boxes, "      \
    "CASE WHEN r.level_id IS NULL THEN 0 ELSE 1 END, coalesce(r.rating_milli, 0), "                \
    "coalesce(r.deviation_milli, 0), coalesce(r.solvers, 0), "                                     \
    "CASE WHEN " SOLVED_BY " THEN 1 ELSE 0 END, CASE WHEN " STARTED_BY                             \
    " THEN 1 ELSE 0 END " LIBRARY_FROM

#define F_ALL ""
#define F_UNSOLVED "AND NOT " SOLVED_BY " "
#define F_SOLVED "AND " SOLVED_BY " "
#define F_STARTED "AND NOT " SOLVED_BY " AND " STARTED_BY " "

/* Unrated levels come last either way; ties go by the library's order. */
#define O_ORDER(d) "c.position " d ", c.id " d ", l.position " d
#define O_DIFFICULTY(d) "r.level_id IS NULL, r.rating_milli " d ", " O_ORDER("ASC")
#define O_SIZE(d) "l.width * l.height " d ", " O_ORDER("ASC")
#define O_BOXES(d) "l.boxes " d ", " O_ORDER("ASC")
#define O_SOLVERS(d) "coalesce(r.solvers, 0) " d ", " O_ORDER("ASC")

#define PAGE(f, o) LIBRARY_SELECT f "ORDER BY " o ", l.id LIMIT ?3 OFFSET ?4"
#define SORTS(f)                                                                                   \
    {                                                                                              \
        {PAGE(f, O_ORDER("ASC")), PAGE(f, O_ORDER("DESC"))},                                       \
            {PAGE(f, O_DIFFICULTY("ASC")), PAGE(f, O_DIFFICULTY("DESC"))},                         \
            {PAGE(f, O_SIZE("ASC")), PAGE(f, O_SIZE("DESC"))},                                     \
            {PAGE(f, O_BOXES("ASC")), PAGE(f, O_BOXES("DESC"))},                                   \
            {PAGE(f, O_SOLVERS("ASC")), PAGE(f, O_SOLVERS("DESC"))},                               \
    }

static const char *const SQL_LIBRARY[STORAGE_FILTERS][STORAGE_SORTS][2] = {
    SORTS(F_ALL),
    SORTS(F_UNSOLVED),
    SORTS(F_SOLVED),
    SORTS(F_STARTED),
};
static const char *const SQL_LIBRARY_COUNT[STORAGE_FILTERS] = {
    "SELECT count(*) " LIBRARY_FROM F_ALL,
    "SELECT count(*) " LIBRARY_FROM F_UNSOLVED,
    "SELECT count(*) " LIBRARY_FROM F_SOLVED,
    "SELECT count(*) " LIBRARY_FROM F_STARTED,
};

int storage_ratings_library(const struct storage_library_query *q,
                            int (*fn)(void *arg, const struct storage_library_level *l), void *arg,
                            uint32_t *total)
{
    *total = 0;
    if (q->filter >= STORAGE_FILTERS || q->sort >= STORAGE_SORTS)
        return STORAGE_ERROR;
    struct sql_stmt *st = storage_stmt(SQL_LIBRARY_COUNT[q->filter]);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, q->user);
    sql_bind_int64(st, 2, q->collection);
    int64_t n = 0;
    int status = storage_first_int64(st, &n, "counting the library's levels");
    if (status != STORAGE_OK)
        return status;
    *total = (uint32_t)n;
    st = storage_stmt(SQL_LIBRARY[q->filter][q->sort][q->descending ? 1 : 0]);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, q->user);
    sql_bind_int64(st, 2, q->collection);
    sql_bind_int64(st, 3, q->limit);
    sql_bind_int64(st, 4, q->offset);
    while ((status = sql_step(st, "listing the library")) == SQL_ROW) {
        struct storage_library_level l = {
            .id = sql_column_int64(st, 0),
            .collection_id = sql_column_int64(st, 1),
            .collection_name = sql_column_text(st, 2),
            .position = (uint32_t)sql_column_int64(st, 3),
            .title = sql_column_text(st, 4),
            .width = (uint32_t)sql_column_int64(st, 5),
            .height = (uint32_t)sql_column_int64(st, 6),
            .boxes = (uint32_t)sql_column_int64(st, 7),
            .rated = sql_column_int64(st, 8) != 0,
            .rating_milli = sql_column_int64(st, 9),
            .deviation_milli = sql_column_int64(st, 10),
            .solvers = (uint32_t)sql_column_int64(st, 11),
            .solved = sql_column_int64(st, 12) != 0,
            .started = sql_column_int64(st, 13) != 0,
        };
        if (fn(arg, &l) != 0) {
            status = STORAGE_STOP;
            break;
        }
    }
    sql_reset(st);
    return status;
}

static const char SQL_PICK[] =
    "SELECT l.id FROM level_ratings r JOIN levels l ON l.id = r.level_id "
    "JOIN collections c ON c.id = l.collection_id WHERE r.rating_milli BETWEEN ?2 AND ?3 "
    "AND l.id <> ?4 AND " LISTED " AND NOT " SOLVED_BY
    " ORDER BY (l.id * 2654435761 + ?5) % 1000003, l.id LIMIT 1";

int storage_ratings_pick(int64_t user, int64_t lo, int64_t hi, int64_t exclude, int64_t seed,
                         int64_t *level)
{
    struct sql_stmt *st = storage_stmt(SQL_PICK);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, user);
    sql_bind_int64(st, 2, lo);
    sql_bind_int64(st, 3, hi);
    sql_bind_int64(st, 4, exclude);
    sql_bind_int64(st, 5, seed);
    return storage_first_int64(st, level, "picking a level");
}
