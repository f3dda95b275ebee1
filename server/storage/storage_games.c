/* Storage: games, their logs, solutions and progress. */
#include "storage/storage_games.h"

#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {"steps", "undo", "redo", "restart"};

static int kind_from_name(const char *name)
{
    for (int i = 0; i < 4; i++) {
        if (strcmp(name, kind_names[i]) == 0)
            return i;
    }
    return -1;
}

#define GAME_COLUMNS                                                                               \
    "SELECT id, user_id, level_id, rule, seq, moves, pushes, solved, created_at, updated_at, "     \
    "hints, coalesce(room_id, 0), round "                                                          \
    "FROM games "

/* Reads a game from the columns of GAME_COLUMNS in the current row. */
static void read_game(struct sql_stmt *st, struct storage_game *g)
{
    g->id = sql_column_int64(st, 0);
    g->user_id = sql_column_int64(st, 1);
    g->level_id = sql_column_int64(st, 2);
    g->rule = sql_column_int(st, 3);
    g->seq = (uint32_t)sql_column_int64(st, 4);
    g->moves = (uint32_t)sql_column_int64(st, 5);
    g->pushes = (uint32_t)sql_column_int64(st, 6);
    g->solved = sql_column_int(st, 7) != 0;
    g->created_at = sql_column_int64(st, 8);
    g->updated_at = sql_column_int64(st, 9);
    g->hints = (uint32_t)sql_column_int64(st, 10);
    g->room_id = sql_column_int64(st, 11);
    g->round = (uint32_t)sql_column_int64(st, 12);
}

static int one_game(struct sql_stmt *st, struct storage_game *g, const char *what)
{
    int status = storage_first_row(st, what);
    if (status == STORAGE_OK)
        read_game(st, g);
    sql_reset(st);
    return status;
}

/* The games a batch locked and read ahead (storage_games_read_ahead), on
 * the committer's thread: each named game, its row when it exists, the
 * user of the session it was named with, and the log entries after the
 * one memory holds (`after`), when memory holds one. */
struct ahead_game {
    int64_t id;
    uint8_t token_hash[32];
    bool has_token; /* named with a session */
    bool read;      /* the statement ran: `found` and the row tell */
    bool found;
    int64_t session_user;     /* 0: no such session, or expired */
    int64_t after;            /* -1: no entries asked for */
    unsigned first, nentries; /* its entries in the set's `entries` */
    struct storage_game row;
};

/* An entry read ahead; its texts are its own (malloc'd). */
struct ahead_entry {
    uint32_t seq;
    int kind;
    uint32_t count;
    char *steps, *request;
};

struct ahead_set {
    unsigned n;
    struct ahead_game games[STORAGE_AHEAD_MAX];
    struct ahead_entry *entries;
    unsigned nentries, cap;
};

/* Allocated by a batch's first name, freed when it ends. */
static _Thread_local struct ahead_set *ahead;

void storage_game_lock_ahead(int64_t id, const uint8_t token_hash[32], int64_t after)
{
    if (sql_backend() != SQL_POSTGRES)
        return;
    if (ahead == NULL) {
        ahead = malloc(sizeof *ahead);
        if (ahead == NULL)
            return;
        ahead->n = 0;
        ahead->entries = NULL;
        ahead->nentries = ahead->cap = 0;
    }
    if (ahead->n == STORAGE_AHEAD_MAX)
        return;
    struct ahead_game *a = &ahead->games[ahead->n++];
    memset(a, 0, sizeof *a);
    a->id = id;
    a->after = after;
    a->has_token = token_hash != NULL;
    if (token_hash != NULL)
        memcpy(a->token_hash, token_hash, 32);
}

/* Keeps an entry of the current row (columns 14 on) for game a. */
static int keep_entry(struct sql_stmt *st, struct ahead_game *a)
{
    if (ahead->nentries == ahead->cap) {
        unsigned cap = ahead->cap > 0 ? ahead->cap * 2 : 64;
        struct ahead_entry *bigger = realloc(ahead->entries, cap * sizeof *bigger);
        if (bigger == NULL)
            return STORAGE_ERROR;
        ahead->entries = bigger;
        ahead->cap = cap;
    }
    struct ahead_entry *e = &ahead->entries[ahead->nentries];
    e->seq = (uint32_t)sql_column_int64(st, 14);
    e->kind = kind_from_name(sql_column_text(st, 15));
    e->steps = strdup(sql_column_text(st, 16));
    e->count = (uint32_t)sql_column_int64(st, 17);
    e->request = strdup(sql_column_text(st, 18));
    if (e->steps == NULL || e->request == NULL) {
        free(e->steps);
        free(e->request);
        return STORAGE_ERROR;
    }
    if (a->nentries == 0)
        a->first = ahead->nentries;
    ahead->nentries++;
    a->nentries++;
    return STORAGE_OK;
}

/* The games named ahead, locked in the order of their ids (as the
 * committer's sorted batches lock them one by one), with the user of each
 * one's session, and after each game's row the log entries after `after`
 * up to its seq, all in one statement. The ids, the sessions' hashes and
 * the seqs go as three arrays, in text. An entry another node committed
 * while the statement waited for its game's lock is not in the statement's
 * snapshot: the game's seq then runs past its entries, and its reader
 * reads them again (play_catch_up).
 *
 * The statement must cost what the batch holds, whatever the tables'
 * sizes and statistics say. Each game is found and locked on its own, by
 * its primary key (the LATERAL subquery with its own FOR UPDATE), in the
 * arrays' order, which is the ids' (storage_games_read_ahead sorts them);
 * each game's entries are read by a LATERAL subquery the planner may not
 * merge into a join (OFFSET 0), so by the log's key. As plain joins, the
 * planner chose to read the whole of games, and of game_log (a table
 * never analysed), for every batch. */
static const char SQL_GAMES_AHEAD_PG[] =
    "WITH locked AS MATERIALIZED (SELECT g.id, g.user_id, g.level_id, g.rule, g.seq, g.moves, "
    "g.pushes, g.solved, g.created_at, g.updated_at, g.hints, coalesce(g.room_id, 0) AS room, "
    "g.round, (SELECT s.user_id FROM sessions s JOIN users u ON u.id = s.user_id "
    "WHERE s.token_hash = decode(w.token, 'hex') AND s.expires_at > ?3) AS owner, "
    "w.after FROM unnest(CAST(?1 AS bigint[]), CAST(?2 AS text[]), CAST(?4 AS bigint[])) "
    "AS w(id, token, after) CROSS JOIN LATERAL (SELECT * FROM games WHERE id = w.id "
    "FOR UPDATE) g) "
    "SELECT id, user_id, level_id, rule, seq, moves, pushes, solved, created_at, updated_at, "
    "hints, room, round, owner, 0 AS log_seq, NULL AS kind, NULL AS steps, 0 AS count, "
    "NULL AS request FROM locked UNION ALL "
    "SELECT l.id, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, e.seq, e.kind, e.steps, e.count, "
    "e.request FROM locked l CROSS JOIN LATERAL (SELECT seq, kind, steps, count, request "
    "FROM game_log WHERE game_id = l.id AND seq > l.after AND seq <= l.seq OFFSET 0) e "
    "WHERE l.after >= 0 ORDER BY 1, 15";

static struct ahead_game *ahead_find(int64_t id)
{
    if (ahead == NULL)
        return NULL;
    for (unsigned i = 0; i < ahead->n; i++) {
        if (ahead->games[i].id == id && ahead->games[i].read)
            return &ahead->games[i];
    }
    return NULL;
}

static int ahead_by_id(const void *a, const void *b)
{
    int64_t x = ((const struct ahead_game *)a)->id, y = ((const struct ahead_game *)b)->id;
    return (x > y) - (x < y);
}

int storage_games_read_ahead(int64_t now)
{
    if (ahead == NULL || ahead->n == 0)
        return STORAGE_OK;
    /* Locked in the order of their ids, as every node's batches lock them:
     * two nodes never wait for each other in a circle. */
    qsort(ahead->games, ahead->n, sizeof ahead->games[0], ahead_by_id);
    /* "{id,...}", "{hex,...}" (an empty string for no session), "{seq,...}". */
    size_t cap = (size_t)ahead->n * 68 + 3;
    char *ids = malloc(cap), *tokens = malloc(cap), *afters = malloc(cap);
    struct sql_stmt *st = storage_stmt(SQL_GAMES_AHEAD_PG);
    int status =
        ids != NULL && tokens != NULL && afters != NULL && st != NULL ? STORAGE_OK : STORAGE_ERROR;
    if (status == STORAGE_OK) {
        size_t i_len = 0, t_len = 0, a_len = 0;
        ids[i_len++] = '{';
        tokens[t_len++] = '{';
        afters[a_len++] = '{';
        for (unsigned i = 0; i < ahead->n; i++) {
            const struct ahead_game *a = &ahead->games[i];
            const char *comma = i > 0 ? "," : "";
            i_len += (size_t)snprintf(ids + i_len, cap - i_len, "%s%lld", comma, (long long)a->id);
            a_len +=
                (size_t)snprintf(afters + a_len, cap - a_len, "%s%lld", comma, (long long)a->after);
            t_len += (size_t)snprintf(tokens + t_len, cap - t_len, "%s%s", comma,
                                      a->has_token ? "" : "\"\"");
            for (unsigned b = 0; a->has_token && b < 32; b++)
                t_len += (size_t)snprintf(tokens + t_len, cap - t_len, "%02x", a->token_hash[b]);
        }
        snprintf(ids + i_len, cap - i_len, "}");
        snprintf(tokens + t_len, cap - t_len, "}");
        snprintf(afters + a_len, cap - a_len, "}");
        sql_bind_text(st, 1, ids);
        sql_bind_text(st, 2, tokens);
        sql_bind_int64(st, 3, now);
        sql_bind_text(st, 4, afters);
        for (unsigned i = 0; i < ahead->n; i++)
            ahead->games[i].read = true;
        while ((status = sql_step(st, "locking a batch's games")) == SQL_ROW) {
            struct ahead_game *a = ahead_find(sql_column_int64(st, 0));
            if (a == NULL)
                continue;
            if (sql_column_int64(st, 14) == 0) {
                read_game(st, &a->row);
                a->found = true;
                a->session_user = sql_column_int64(st, 13);
            } else if (keep_entry(st, a) != STORAGE_OK) {
                status = STORAGE_ERROR;
                break;
            }
        }
        sql_reset(st);
    }
    free(ids);
    free(tokens);
    free(afters);
    if (status != STORAGE_OK)
        storage_games_forget_ahead();
    return status;
}

void storage_games_forget_ahead(void)
{
    if (ahead == NULL)
        return;
    for (unsigned i = 0; i < ahead->nentries; i++) {
        free(ahead->entries[i].steps);
        free(ahead->entries[i].request);
    }
    free(ahead->entries);
    free(ahead);
    ahead = NULL;
}

/* After a write to game id, its row read ahead is no longer what the
 * database holds: it is forgotten (the game stays locked). */
static void ahead_wrote(int64_t id)
{
    struct ahead_game *a = ahead_find(id);
    if (a != NULL)
        a->read = false;
}

static const char SQL_GAME_FIND[] =
    GAME_COLUMNS "WHERE user_id = ? AND level_id = ? AND rule = ? AND room_id IS NULL";
static const char SQL_GAME_INSERT[] =
    "INSERT INTO games (user_id, level_id, rule, created_at, updated_at) VALUES (?, ?, ?, ?, ?) "
    "RETURNING id";
static const char SQL_GAME_SET_START[] =
    "UPDATE games SET start_cell = ?2 WHERE id = ?1 AND seq = 0";
/* Only reverse games read their start (a column of migration 0023), so
 * that the reads every game makes name no later column than they need. */
static const char SQL_GAME_START[] = "SELECT coalesce(start_cell, -1) FROM games WHERE id = ?1";

int storage_game_start(int64_t id, int32_t *start)
{
    *start = -1;
    struct sql_stmt *st = storage_stmt(SQL_GAME_START);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    int status = storage_first_row(st, "reading a reverse game's start");
    if (status == STORAGE_OK)
        *start = (int32_t)sql_column_int64(st, 0);
    sql_reset(st);
    return status;
}

/* Moves reverse game g, with an empty log, to start square `start`. */
static int set_start(const struct storage_game *g, int32_t start)
{
    if (g->rule != 2 || start < 0 || g->seq != 0)
        return STORAGE_OK;
    struct sql_stmt *st = storage_stmt(SQL_GAME_SET_START);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, g->id);
    sql_bind_int64(st, 2, start);
    return storage_exec_stmt(st, "choosing a reverse game's start");
}

int storage_game_open(int64_t user, int64_t level, int rule, int32_t start, int64_t now,
                      struct storage_game *g, bool *created)
{
    struct sql_stmt *st = storage_stmt(SQL_GAME_FIND);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, user);
    sql_bind_int64(st, 2, level);
    sql_bind_int64(st, 3, rule);
    int status = one_game(st, g, "finding a game");
    *created = false;
    if (status == STORAGE_OK)
        return set_start(g, start);
    if (status != STORAGE_NOT_FOUND)
        return status;
    st = storage_stmt(SQL_GAME_INSERT);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, user);
    sql_bind_int64(st, 2, level);
    sql_bind_int64(st, 3, rule);
    sql_bind_int64(st, 4, now);
    sql_bind_int64(st, 5, now);
    int64_t id = 0;
    status = storage_exec_insert(st, &id, "creating a game");
    if (status != STORAGE_OK)
        return status;
    *created = true;
    status = storage_game_get(id, g);
    return status == STORAGE_OK ? set_start(g, start) : status;
}

static const char SQL_GAME_GET[] = GAME_COLUMNS "WHERE id = ?";
static const char SQL_GAME_GET_LOCKED_PG[] = GAME_COLUMNS "WHERE id = ? FOR UPDATE";

int storage_game_get_locked(int64_t id, struct storage_game *g)
{
    const struct ahead_game *a = ahead_find(id);
    if (a != NULL && !a->found)
        return STORAGE_NOT_FOUND;
    if (a != NULL) {
        *g = a->row;
        return STORAGE_OK;
    }
    struct sql_stmt *st = storage_stmt(storage_dialect(SQL_GAME_GET, SQL_GAME_GET_LOCKED_PG));
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    return one_game(st, g, "reading a game to write it");
}

/* The session's user found in the same statement: one round trip. */
static const char SQL_GAME_OF_SESSION[] =
    GAME_COLUMNS "WHERE id = ?1 AND user_id = (SELECT s.user_id FROM sessions s "
                 "JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?2 AND s.expires_at > ?3)";
static const char SQL_GAME_OF_SESSION_PG[] =
    GAME_COLUMNS "WHERE id = ?1 AND user_id = (SELECT s.user_id FROM sessions s "
                 "JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?2 AND s.expires_at > ?3) "
                 "FOR UPDATE";

int storage_game_get_locked_for(int64_t id, const uint8_t token_hash[32], int64_t now,
                                struct storage_game *g)
{
    const struct ahead_game *a = ahead_find(id);
    if (a != NULL && a->has_token && memcmp(a->token_hash, token_hash, 32) == 0) {
        if (!a->found || a->session_user == 0 || a->session_user != a->row.user_id)
            return STORAGE_NOT_FOUND;
        *g = a->row;
        return STORAGE_OK;
    }
    struct sql_stmt *st =
        storage_stmt(storage_dialect(SQL_GAME_OF_SESSION, SQL_GAME_OF_SESSION_PG));
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_blob(st, 2, token_hash, 32);
    sql_bind_int64(st, 3, now);
    return one_game(st, g, "reading a session's game to write it");
}

int storage_game_get(int64_t id, struct storage_game *g)
{
    struct sql_stmt *st = storage_stmt(SQL_GAME_GET);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    return one_game(st, g, "reading a game");
}

static int read_entry(struct sql_stmt *st, void *fn, void *arg)
{
    struct storage_log_entry e = {
        .seq = (uint32_t)sql_column_int64(st, 0),
        .kind = kind_from_name(sql_column_text(st, 1)),
        .steps = sql_column_text(st, 2),
        .count = (uint32_t)sql_column_int64(st, 3),
        .request = sql_column_text(st, 4),
    };
    return ((int (*)(void *, const struct storage_log_entry *))fn)(arg, &e);
}

static const char SQL_LOG_ALL[] =
    "SELECT seq, kind, steps, count, request FROM game_log WHERE game_id = ? ORDER BY seq";

int storage_log_each(int64_t game, int (*fn)(void *arg, const struct storage_log_entry *e),
                     void *arg)
{
    return storage_list_by_id(SQL_LOG_ALL, game, read_entry, (void *)fn, arg, "reading a game log");
}

static const char SQL_LOG_AFTER[] = "SELECT seq, kind, steps, count, request FROM game_log "
                                    "WHERE game_id = ? AND seq > ? ORDER BY seq";

int storage_log_each_after(int64_t game, uint32_t after,
                           int (*fn)(void *arg, const struct storage_log_entry *e), void *arg)
{
    const struct ahead_game *a = ahead_find(game);
    if (a != NULL && a->after == (int64_t)after) {
        for (unsigned i = 0; i < a->nentries; i++) {
            const struct ahead_entry *x = &ahead->entries[a->first + i];
            struct storage_log_entry e = {.seq = x->seq,
                                          .kind = x->kind,
                                          .steps = x->steps,
                                          .count = x->count,
                                          .request = x->request};
            if (fn(arg, &e) != 0)
                return STORAGE_STOP;
        }
        return STORAGE_OK;
    }
    return storage_list_by_ids(SQL_LOG_AFTER, game, after, read_entry, (void *)fn, arg,
                               "reading a game log");
}

static const char SQL_LOG_ONE[] =
    "SELECT seq, kind, steps, count, request FROM game_log WHERE game_id = ? AND seq = ?";

int storage_log_get(int64_t game, uint32_t seq,
                    int (*fn)(void *arg, const struct storage_log_entry *e), void *arg)
{
    return storage_rows_by_ids(SQL_LOG_ONE, game, seq, read_entry, (void *)fn, arg,
                               "reading a game log");
}

static const char SQL_LOG_APPEND[] =
    "INSERT INTO game_log (game_id, seq, kind, steps, count, request, created_at) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
static const char SQL_GAME_UPDATE[] =
    "UPDATE games SET seq = ?2, moves = ?8, pushes = ?9, solved = ?10, updated_at = ?7 "
    "WHERE id = ?1";
/* Both in one statement, so one round trip; SQLite writes in no WITH. */
static const char SQL_GAME_RECORD_PG[] =
    "WITH entry AS (INSERT INTO game_log (game_id, seq, kind, steps, count, request, created_at) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)) "
    "UPDATE games SET seq = ?2, moves = ?8, pushes = ?9, solved = ?10, updated_at = ?7 "
    "WHERE id = ?1";

/* Parts of an entry's record that a statement above writes. */
enum { RECORD_LOG = 1, RECORD_COUNTS = 2 };

/* Runs sql, which writes the `parts` of the record, binding their
 * parameters. */
static int run_record(const char *sql, unsigned parts, const struct storage_game *g,
                      const struct storage_log_entry *e, int64_t now, const char *what)
{
    struct sql_stmt *st = storage_stmt(sql);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, g->id);
    sql_bind_int64(st, 2, e->seq);
    if (parts & RECORD_LOG) {
        sql_bind_text(st, 3, kind_names[e->kind]);
        sql_bind_text(st, 4, e->steps);
        sql_bind_int64(st, 5, e->count);
        sql_bind_text(st, 6, e->request);
    }
    sql_bind_int64(st, 7, now);
    if (parts & RECORD_COUNTS) {
        sql_bind_int64(st, 8, g->moves);
        sql_bind_int64(st, 9, g->pushes);
        sql_bind_int64(st, 10, g->solved ? 1 : 0);
    }
    return storage_write_stmt(st, what);
}

int storage_game_record(const struct storage_game *g, const struct storage_log_entry *e,
                        int64_t now)
{
    if (e->kind < 0 || e->kind > 3 || e->seq != g->seq)
        return STORAGE_ERROR;
    ahead_wrote(g->id);
    if (sql_backend() == SQL_POSTGRES)
        return run_record(SQL_GAME_RECORD_PG, RECORD_LOG | RECORD_COUNTS, g, e, now,
                          "recording an entry of a game");
    int status = run_record(SQL_LOG_APPEND, RECORD_LOG, g, e, now, "appending to a game log");
    if (status == STORAGE_OK)
        status = run_record(SQL_GAME_UPDATE, RECORD_COUNTS, g, e, now, "updating a game");
    return status;
}

static const char SQL_GAME_HINT_ADD[] = "UPDATE games SET hints = hints + 1 WHERE id = ?";

int storage_game_hint_add(int64_t id)
{
    struct sql_stmt *st = storage_stmt(SQL_GAME_HINT_ADD);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    ahead_wrote(id);
    return storage_write_stmt(st, "counting a hint");
}

static int read_progress(struct sql_stmt *st, void *fn, void *arg)
{
    struct storage_progress p = {
        .level_id = sql_column_int64(st, 0),
        .collection_id = sql_column_int64(st, 1),
        .collection_name = sql_column_text(st, 2),
        .position = (uint32_t)sql_column_int64(st, 3),
        .title = sql_column_text(st, 4),
        .game_id = sql_column_int64(st, 5),
        .moves = (uint32_t)sql_column_int64(st, 6),
        .pushes = (uint32_t)sql_column_int64(st, 7),
        .at = sql_column_int64(st, 8),
    };
    /* Column 9: whether a solved level is hinted, or a game's hint count. */
    p.hinted = sql_column_int64(st, 9) != 0;
    p.hints = (uint32_t)sql_column_int64(st, 9);
    p.rule = sql_column_int(st, 10);
    return ((int (*)(void *, const struct storage_progress *))fn)(arg, &p);
}

static const char SQL_PROGRESS_SOLVED[] =
    "SELECT l.id, c.id, c.name, l.position, l.title, g.id, b.best_moves, b.best_pushes, "
    "b.first_at, b.hinted, 0 FROM " STORAGE_BEST_SOLUTIONS " b "
    "JOIN levels l ON l.id = b.level_id JOIN collections c ON c.id = l.collection_id "
    "LEFT JOIN games g ON g.level_id = l.id AND g.user_id = ?1 AND g.rule = 0 "
    "AND g.room_id IS NULL ORDER BY c.id, l.position";

int storage_progress_solved(int64_t user, int (*fn)(void *arg, const struct storage_progress *p),
                            void *arg)
{
    return storage_list_by_id(SQL_PROGRESS_SOLVED, user, read_progress, (void *)fn, arg,
                              "reading progress");
}

static const char SQL_PROGRESS_GAMES[] =
    "SELECT l.id, c.id, c.name, l.position, l.title, g.id, g.moves, g.pushes, g.updated_at, "
    "g.hints, g.rule FROM games g JOIN levels l ON l.id = g.level_id JOIN collections c ON c.id = "
    "l.collection_id WHERE g.user_id = ?1 AND g.solved = 0 AND g.seq > 0 AND g.room_id IS NULL "
    "ORDER BY g.updated_at DESC, g.id DESC";

int storage_progress_games(int64_t user, int (*fn)(void *arg, const struct storage_progress *p),
                           void *arg)
{
    return storage_list_by_id(SQL_PROGRESS_GAMES, user, read_progress, (void *)fn, arg,
                              "reading progress");
}

/* A page of solutions after a key. The moves stay out, and the columns
 * after them in the row: a solution's moves can be megabytes, and the
 * statement reads the rows of all the user's solutions to sort them. */
static const char SQL_SOLUTIONS_PAGE[] =
    "SELECT s.id, l.id, c.id, l.position, s.moves, s.pushes, s.rule "
    "FROM solutions s JOIN levels l ON l.id = s.level_id "
    "JOIN collections c ON c.id = l.collection_id WHERE s.user_id = ?1 "
    "AND (c.id, l.position, s.moves, s.pushes, s.id) > (?2, ?3, ?4, ?5, ?6) "
    "ORDER BY c.id, l.position, s.moves, s.pushes, s.id LIMIT ?7";

static int read_solution(struct sql_stmt *st, void *fn, void *arg)
{
    struct storage_solution s = {
        .key =
            {
                .id = sql_column_int64(st, 0),
                .collection_id = sql_column_int64(st, 2),
                .position = (uint32_t)sql_column_int64(st, 3),
                .moves = (uint32_t)sql_column_int64(st, 4),
                .pushes = (uint32_t)sql_column_int64(st, 5),
            },
        .level_id = sql_column_int64(st, 1),
        .rule = sql_column_int(st, 6),
    };
    return ((int (*)(void *, const struct storage_solution *))fn)(arg, &s);
}

int storage_solutions_page(int64_t user, const struct storage_solution_key *after, unsigned limit,
                           int (*fn)(void *arg, const struct storage_solution *s), void *arg)
{
    struct sql_stmt *st = storage_stmt(SQL_SOLUTIONS_PAGE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, user);
    sql_bind_int64(st, 2, after->collection_id);
    sql_bind_int64(st, 3, after->position);
    sql_bind_int64(st, 4, after->moves);
    sql_bind_int64(st, 5, after->pushes);
    sql_bind_int64(st, 6, after->id);
    sql_bind_int64(st, 7, limit);
    int status = storage_each_row(st, read_solution, (void *)fn, arg, "reading solutions");
    return status == STORAGE_NOT_FOUND ? STORAGE_OK : status;
}

/* PostgreSQL's half of storage_text_slice: substr of a TOASTed value
 * reads the slices it needs. The driver binds bigints, and substr takes
 * integers. */
static const char SQL_SOLUTION_MOVES[] =
    "SELECT length(lurd), substr(lurd, CAST(?2 AS integer), CAST(?3 AS integer)) "
    "FROM solutions WHERE id = ?1";

int storage_solution_moves(int64_t id, size_t offset, char *out, size_t cap, size_t *got,
                           size_t *total)
{
    return storage_text_slice("solutions", "lurd", SQL_SOLUTION_MOVES, id, offset, out, cap, got,
                              total, "reading a solution's moves");
}
