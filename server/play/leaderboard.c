/* Leaderboard endpoints: a level's boards of witnessed solutions, and one
 * solution for a replay.
 *
 * A level has two orderings (fewest moves, then pushes; fewest pushes, then
 * moves; ties go to the earlier solution) and, for each, two lists: the
 * solutions found without hints, ranked against each other, and those
 * found with hints, ranked apart. A hint changes what a solution proves, so
 * no helped solution ever pushes an unhelped one down. Guests are ranked
 * for themselves but shown to nobody else: a guest has no name to show,
 * and a board anyone can fill with throw-away guests would be worth little.
 * Signing up puts a guest's solutions on the boards. Solutions played under
 * the multi-push rule, where one push may move a line of boxes, have the
 * same two orderings on boards of their own (?rule=1). */
#include "play/leaderboard.h"

#include "accounts/auth.h"
#include "http/streamed.h"
#include "play/daily.h"
#include "play/games.h"
#include "storage/storage_boards.h"
#include "storage/storage_daily.h"
#include "storage/storage_games.h"

#include <stdlib.h>
#include <string.h>

#define BOARD_DEFAULT_LIMIT 10
#define BOARD_MAX_LIMIT 100

/* Building one list's JSON. */
struct list_ctx {
    json_t *entries;
    int64_t user;
    uint32_t rank;
    json_t *one; /* storage_board_user's entry */
};

static json_t *entry_json(const struct storage_board_entry *e, uint32_t rank, int64_t user)
{
    char link[64];
    snprintf(link, sizeof link, "/api/v1/solutions/%lld", (long long)e->solution_id);
    /* An account's id lets a page link its name to watching the player. */
    return json_pack("{s:i,s:o,s:o,s:b,s:i,s:i,s:i,s:b,s:o,s:I,s:s,s:b}", "rank", (int)rank, "user",
                     e->username != NULL ? http_json_text(e->username) : json_null(), "user_id",
                     e->username != NULL ? json_integer(e->user_id) : json_null(), "listed",
                     e->listed, "moves", (int)e->moves, "pushes", (int)e->pushes, "hints",
                     (int)e->hints, "hinted", e->hints > 0, "solved_at",
                     http_json_time(e->solved_at), "solution_id", (json_int_t)e->solution_id,
                     "solution", link, "you", user != 0 && e->user_id == user);
}

static int add_entry(void *arg, const struct storage_board_entry *e)
{
    struct list_ctx *l = arg;
    l->rank++;
    json_t *o = entry_json(e, l->rank, l->user);
    return o == NULL || json_array_append_new(l->entries, o) != 0;
}

static int take_own(void *arg, const struct storage_board_entry *e)
{
    struct list_ctx *l = arg;
    l->one = entry_json(e, l->rank, l->user);
    return l->one == NULL;
}

/* Fills *out with {"total", "entries", "you"} for one list. */
static int board_list(int64_t level, int board, bool hinted, uint32_t limit, int64_t user,
                      json_t **out)
{
    struct list_ctx l = {.entries = json_array(), .user = user};
    uint32_t total = 0;
    int status = storage_board_count(level, board, hinted, &total);
    if (status == STORAGE_OK)
        status = storage_board_top(level, board, hinted, limit, add_entry, &l);
    if (status == STORAGE_OK && user != 0) {
        status = storage_board_user(level, board, hinted, user, &l.rank, take_own, &l);
        if (status == STORAGE_NOT_FOUND)
            status = STORAGE_OK;
    }
    if (status != STORAGE_OK) {
        json_decref(l.entries);
        json_decref(l.one);
        return status == STORAGE_STOP ? STORAGE_ERROR : status;
    }
    *out = json_pack("{s:i,s:o,s:o}", "total", (int)total, "entries", l.entries, "you",
                     l.one != NULL ? l.one : json_null());
    return *out != NULL ? STORAGE_OK : STORAGE_ERROR;
}

/* Reads ?limit=: 1 to BOARD_MAX_LIMIT. */
static bool read_limit(const char *text, uint32_t *limit)
{
    if (text == NULL) {
        *limit = BOARD_DEFAULT_LIMIT;
        return true;
    }
    char *end = NULL;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < 1 || v > BOARD_MAX_LIMIT)
        return false;
    *limit = (uint32_t)v;
    return true;
}

/* Reads ?by=: moves (the default) or pushes. */
static bool read_by(const char *text, int *board)
{
    if (text == NULL || strcmp(text, "moves") == 0)
        *board = STORAGE_BOARD_MOVES;
    else if (strcmp(text, "pushes") == 0)
        *board = STORAGE_BOARD_PUSHES;
    else
        return false;
    return true;
}

/* Reads ?rule=: 0 (standard, the default) or 1 (multi-push). */
static bool read_rule(const char *text, int *rule)
{
    if (text == NULL || strcmp(text, "0") == 0)
        *rule = 0;
    else if (strcmp(text, "1") == 0)
        *rule = 1;
    else
        return false;
    return true;
}

/* Answers a board of `level` (board is one of STORAGE_BOARD_*): the
 * unhelped list at the top level, the helped one beside it, plus `day`
 * for a daily board. */
static int reply_board(struct http_conn *c, int64_t level, int board, uint32_t limit, int64_t user,
                       const char *day)
{
    json_t *plain = NULL, *hinted = NULL;
    int status = board_list(level, board, false, limit, user, &plain);
    if (status == STORAGE_OK)
        status = board_list(level, board, true, limit, user, &hinted);
    if (status != STORAGE_OK) {
        json_decref(plain);
        return reply_storage_failure(c, status);
    }
    json_object_set_new(plain, "level_id", json_integer(level));
    json_object_set_new(plain, "by", json_string(board % 2 == 0 ? "moves" : "pushes"));
    json_object_set_new(plain, "rule", json_integer(board >= STORAGE_BOARD_MULTIPUSH_MOVES));
    if (day != NULL)
        json_object_set_new(plain, "day", json_string(day));
    json_object_set_new(plain, "hinted", hinted);
    return reply_json(c, 200, plain);
}

/* Reads ?by= and ?limit=; false after answering 400. */
static bool read_board_query(struct http_conn *c, int *board, uint32_t *limit, int *result)
{
    if (!read_by(http_query(c, "by"), board)) {
        *result = reply_error(c, API_E_INVALID_VALUE, "by must be moves or pushes");
        return false;
    }
    if (!read_limit(http_query(c, "limit"), limit)) {
        *result = reply_error(c, API_E_INVALID_VALUE, "limit must be a whole number from 1 to %d",
                              BOARD_MAX_LIMIT);
        return false;
    }
    return true;
}

bool leaderboard_query(struct http_conn *c, bool *by_pushes, int *rule, uint32_t *limit,
                       int *result)
{
    int board;
    if (!read_board_query(c, &board, limit, result))
        return false;
    if (!read_rule(http_query(c, "rule"), rule)) {
        *result =
            reply_error(c, API_E_INVALID_VALUE, "rule must be 0 (standard) or 1 (multi-push)");
        return false;
    }
    *by_pushes = board == STORAGE_BOARD_PUSHES;
    return true;
}

int leaderboard_level(struct http_conn *c)
{
    int board;
    uint32_t limit;
    int result = MHD_NO;
    int64_t user;
    if (!read_board_query(c, &board, &limit, &result) ||
        !auth_user(c, AUTH_OPTIONAL, &user, &result))
        return result;
    int rule;
    if (!read_rule(http_query(c, "rule"), &rule))
        return reply_error(c, API_E_INVALID_VALUE, "rule must be 0 (standard) or 1 (multi-push)");
    int64_t level = c->param[0];
    if (!games_level_found(c, level, &result))
        return result;
    if (rule == 1)
        board = board == STORAGE_BOARD_MOVES ? STORAGE_BOARD_MULTIPUSH_MOVES
                                             : STORAGE_BOARD_MULTIPUSH_PUSHES;
    return reply_board(c, level, board, limit, user, NULL);
}

int leaderboard_daily(struct http_conn *c)
{
    int board;
    uint32_t limit;
    int result = MHD_NO;
    if (!read_board_query(c, &board, &limit, &result))
        return result;
    char day[11];
    int y, m, d;
    const char *asked = http_query(c, "day");
    if (asked == NULL)
        daily_today(day);
    else if (daily_parse_day(asked, &y, &m, &d))
        memcpy(day, asked, sizeof day);
    else
        return reply_error(c, API_E_INVALID_VALUE, "day must be a date written YYYY-MM-DD");
    int64_t user;
    if (!auth_user(c, AUTH_OPTIONAL, &user, &result))
        return result;
    int64_t level;
    int status = storage_daily_get(day, &level);
    if (status == STORAGE_NOT_FOUND)
        return reply_error(c, API_E_LEVEL_NOT_FOUND,
                           "the daily puzzle of %s has not been made yet (GET /api/v1/daily?day=%s "
                           "makes it)",
                           day, day);
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    int daily =
        board == STORAGE_BOARD_MOVES ? STORAGE_BOARD_DAILY_MOVES : STORAGE_BOARD_DAILY_PUSHES;
    return reply_board(c, level, daily, limit, user, day);
}

int leaderboard_streak(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user;
    if (!auth_user(c, AUTH_OPTIONAL, &user, &result))
        return result;
    char day[11];
    daily_today(day);
    uint32_t streak = 0;
    bool solved_today = false;
    if (user != 0) {
        int status = storage_daily_streak(user, day, &streak, &solved_today);
        if (status != STORAGE_OK)
            return reply_storage_failure(c, status);
    }
    return reply_json(c, 200,
                      json_pack("{s:s,s:i,s:b}", "today", day, "streak", (int)streak,
                                "solved_today", solved_today));
}

/* A solution read for an answer, and who may see it. */
struct solution_ctx {
    json_t *json;
    int64_t guest_owner; /* the guest that found it, or 0 for an account's */
};

/* The moves are left empty: they are streamed into their place. */
static int take_solution(void *arg, const struct storage_solution_row *s)
{
    struct solution_ctx *x = arg;
    x->guest_owner = s->username == NULL ? s->user_id : 0;
    x->json = json_pack("{s:I,s:I,s:o,s:i,s:i,s:i,s:b,s:i,s:b,s:s,s:o}", "id", (json_int_t)s->id,
                        "level_id", (json_int_t)s->level_id, "user",
                        s->username != NULL ? http_json_text(s->username) : json_null(), "moves",
                        (int)s->moves, "pushes", (int)s->pushes, "hints", (int)s->hints, "hinted",
                        s->hints > 0, "rule", s->rule, "reverse", s->reverse, "lurd", "",
                        "solved_at", http_json_time(s->solved_at));
    return x->json == NULL;
}

/* A solution's answer as it is written: the JSON before its moves, the
 * moves read in slices (a solution can hold millions), the JSON after. */
struct solution_stream {
    int64_t id;
    char *text; /* the answer with empty moves: head, then tail */
    size_t head_at, head_len, tail_at, len;
    size_t moves_at;
    bool moves_done;
};

static void solution_stream_free(void *arg)
{
    struct solution_stream *x = arg;
    free(x->text);
    free(x);
}

/* Copies what fits of text[*at..end) into out. */
static void put_part(struct streamed_out *out, const char *text, size_t *at, size_t end)
{
    size_t n = end - *at;
    if (n > out->cap - out->len)
        n = out->cap - out->len;
    streamed_put(out, text + *at, n);
    *at += n;
}

static int solution_fill(void *arg, struct streamed_out *out)
{
    struct solution_stream *x = arg;
    put_part(out, x->text, &x->head_at, x->head_len);
    while (x->head_at == x->head_len && !x->moves_done && out->len < out->cap) {
        size_t got = 0, total = 0;
        char *at = out->data + out->len;
        int status =
            storage_solution_moves(x->id, x->moves_at, at, out->cap - out->len, &got, &total);
        if (status != STORAGE_OK)
            return status;
        /* Moves are LURD letters, which JSON takes as they are; any other
         * byte would be a damaged row, and is sent as '?'. */
        for (size_t i = 0; i < got; i++) {
            unsigned char ch = (unsigned char)at[i];
            if (ch < 0x20 || ch >= 0x7F || ch == '"' || ch == '\\')
                at[i] = '?';
        }
        out->len += got;
        x->moves_at += got;
        x->moves_done = x->moves_at >= total;
        if (got == 0 && !x->moves_done)
            return STORAGE_ERROR;
    }
    if (x->moves_done)
        put_part(out, x->text, &x->tail_at, x->len);
    out->end = x->tail_at == x->len;
    return STORAGE_OK;
}

int leaderboard_solution(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user;
    if (!auth_user(c, AUTH_OPTIONAL, &user, &result))
        return result;
    struct solution_ctx x = {0};
    int status = storage_solution_get(c->param[0], take_solution, &x);
    if (status == STORAGE_STOP)
        return reply_error(c, API_E_INTERNAL, "out of memory");
    if (status != STORAGE_OK && status != STORAGE_NOT_FOUND)
        return reply_storage_failure(c, status);
    /* A guest's solutions are on no board: they are its own to see. */
    if (x.json == NULL || (x.guest_owner != 0 && x.guest_owner != user)) {
        json_decref(x.json);
        return reply_error(c, API_E_SOLUTION_NOT_FOUND, "there is no solution %lld",
                           (long long)c->param[0]);
    }
    json_t *body = json_pack("{s:o}", "solution", x.json);
    if (body != NULL && c->attach != NULL)
        json_object_update(body, c->attach);
    char *text = body != NULL ? json_dumps(body, JSON_COMPACT) : NULL;
    json_decref(body);
    /* The first "lurd":"" is the solution's: its object comes first, and
     * quotes inside strings are escaped. */
    static const char moves_key[] = "\"lurd\":\"";
    char *empty = text != NULL ? strstr(text, "\"lurd\":\"\"") : NULL;
    struct solution_stream *s = empty != NULL ? calloc(1, sizeof *s) : NULL;
    if (s == NULL) {
        free(text);
        return reply_error(c, API_E_INTERNAL, "out of memory");
    }
    s->id = c->param[0];
    s->text = text;
    s->len = strlen(text);
    s->head_len = (size_t)(empty - text) + strlen(moves_key);
    s->tail_at = s->head_len;
    static const struct streamed_answer answer = {
        .content_type = "application/json; charset=utf-8",
        .fill = solution_fill,
        .release = solution_stream_free,
    };
    return reply_streamed(c, &answer, s);
}
