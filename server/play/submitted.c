/* Submitted solutions and best known counts (submitted.h). */
#include "play/submitted.h"

#include "accounts/auth.h"
#include "base/clock.h"
#include "http/body.h"
#include "library/catalog.h"
#include "library/check.h"
#include "play/games.h"
#include "play/hint.h"
#include "play/leaderboard.h"
#include "storage/storage.h"
#include "storage/storage_boards.h"
#include "storage/storage_levels.h"
#include "storage/storage_sql.h"
#include "storage/storage_submitted.h"
#include "storage/storage_users.h"

#include "soko.h"
#include "solver.h"

#include <stdlib.h>
#include <string.h>

/* The level's board, parsed, for storage_level_get. */
static int take_board(void *arg, const struct storage_level *l)
{
    soko_error err;
    const char *board = l->board != NULL ? l->board : "";
    if (soko_level_parse(arg, board, (uint32_t)strlen(board), 1, &err) != SOKO_OK)
        return 1;
    return 0;
}

/* A line replayed on its level: the steps as played, and its counts. */
struct replayed {
    char *lurd; /* malloc'd */
    uint32_t moves, pushes;
};

/* Decodes and replays `text` on lvl under `rule`. True with *out filled;
 * false after answering why the line is no solution. */
static bool replay_line(struct http_conn *c, const soko_level *lvl, int rule,
                        const struct body_text *text, struct replayed *out, int *result)
{
    uint8_t *steps = malloc(SUBMITTED_MAX_STEPS);
    soko_entry_t *history = malloc((size_t)(SUBMITTED_MAX_STEPS + 1) * sizeof *history);
    soko_game *g = malloc(sizeof *g);
    bool ok = false;
    if (steps == NULL || history == NULL || g == NULL) {
        *result = reply_error(c, API_E_INTERNAL, "out of memory");
        goto done;
    }
    soko_error err = {0};
    int32_t n =
        soko_lurd_decode(text->text, (uint32_t)text->len, 1, steps, SUBMITTED_MAX_STEPS, &err);
    if (n == SOKO_E_FULL) {
        *result = reply_error(c, API_E_INVALID_VALUE, "a solution holds at most %u steps",
                              SUBMITTED_MAX_STEPS);
        goto done;
    }
    if (n < 0) {
        *result = reply_error(c, API_E_INVALID_STEPS, "line %u, column %u: %s", err.line, err.col,
                              err.message);
        goto done;
    }
    soko_game_init(g, lvl, rule, history, SUBMITTED_MAX_STEPS + 1);
    uint32_t failed = 0;
    int rc = soko_lurd_play(g, steps, (uint32_t)n, &failed);
    if (rc != SOKO_OK) {
        uint8_t step = steps[failed];
        *result = reply_error(c, API_E_STEP_REFUSED, "step %u of %d ('%c'): %s", failed + 1, n,
                              soko_lurd_letter(step & 3, (step & SOKO_LURD_PUSH) != 0),
                              check_step_words(rc));
        goto done;
    }
    if (!soko_game_solved(g) || g->moves == 0) {
        *result = reply_error(
            c, API_E_NOT_A_SOLUTION,
            "the line ends unsolved after %u move%s, %u push%s (%u of %u boxes on goals)", g->moves,
            g->moves == 1 ? "" : "s", g->pushes, g->pushes == 1 ? "" : "es", g->boxes_on_goal,
            lvl->boxes);
        goto done;
    }
    out->lurd = malloc((size_t)g->moves + 1);
    int32_t m = out->lurd != NULL ? soko_lurd_encode(g, out->lurd, g->moves + 1) : -1;
    if (m < 0) {
        free(out->lurd);
        out->lurd = NULL;
        *result = reply_error(c, API_E_INTERNAL, "out of memory");
        goto done;
    }
    out->lurd[m] = '\0';
    out->moves = g->moves;
    out->pushes = g->pushes;
    ok = true;
done:
    free(steps);
    free(history);
    free(g);
    return ok;
}

/* The caller's account: false after answering 401 for nobody or a guest,
 * whose solutions no board would show. */
static bool account_of(struct http_conn *c, int64_t *user, int *result)
{
    if (!auth_user(c, AUTH_EXISTING, user, result))
        return false;
    struct storage_user u;
    int status = storage_user_get(*user, &u);
    if (status != STORAGE_OK) {
        *result = reply_storage_failure(c, status);
        return false;
    }
    if (u.guest) {
        *result = reply_error(c, API_E_SIGN_IN_REQUIRED,
                              "sign up to submit solutions: a board names its players");
        return false;
    }
    return true;
}

int submitted_post(struct http_conn *c)
{
    int result = MHD_NO;
    struct body_text text = {0};
    json_int_t rule = 0;
    struct body_field spec[] = {
        body_text("lurd", &text),
        body_optional(
            body_integer_in("rule", &rule, 0, 1, "'rule' must be 0 (standard) or 1 (multi-push)"),
            NULL),
        body_end(),
    };
    json_t *body = body_parse(c, spec, &result);
    if (body == NULL)
        return result;
    int64_t user, level = c->param[0];
    soko_level *lvl = NULL;
    struct replayed line = {0};
    if (!account_of(c, &user, &result))
        goto done;
    lvl = malloc(sizeof *lvl);
    if (lvl == NULL) {
        result = reply_error(c, API_E_INTERNAL, "out of memory");
        goto done;
    }
    int status = storage_level_get(level, 0, take_board, lvl);
    if (status != STORAGE_OK) {
        result =
            status == STORAGE_NOT_FOUND
                ? reply_error(c, API_E_LEVEL_NOT_FOUND, "there is no level %lld", (long long)level)
                : reply_storage_failure(c, status);
        goto done;
    }
    if (!replay_line(c, lvl, (int)rule, &text, &line, &result))
        goto done;
    struct storage_submitted s = {
        .user_id = user,
        .level_id = level,
        .rule = (int)rule,
        .moves = line.moves,
        .pushes = line.pushes,
        .lurd = line.lurd,
        .at = clock_now(),
    };
    bool created = false;
    unsigned runs = 0;
    do {
        status = storage_begin();
        if (status == STORAGE_OK)
            status = storage_submitted_add(&s, &s.id, &created);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    if (status != STORAGE_OK) {
        result = status == STORAGE_QUOTA ? reply_quota_exceeded(c, user)
                                         : reply_storage_failure(c, status);
        goto done;
    }
    json_t *best = catalog_best_known(level, (int)rule);
    /* Without its line, which the client sent: an answer of a few bytes. */
    json_t *solution = json_pack("{s:I,s:I,s:i,s:i,s:i,s:o}", "id", (json_int_t)s.id, "level_id",
                                 (json_int_t)level, "rule", (int)rule, "moves", (int)s.moves,
                                 "pushes", (int)s.pushes, "submitted_at", http_json_time(s.at));
    result = reply_json(c, created ? 201 : 200,
                        json_pack("{s:o,s:b,s:o}", "solution", solution, "created", created,
                                  "best_known", best != NULL ? best : json_null()));
done:
    json_decref(body);
    free(lvl);
    free(line.lurd);
    return result;
}

/* A board row, ranked in the order the rows come. */
struct board_rows {
    json_t *entries;
    int rank;
};

static int add_row(void *arg, const struct storage_submitted *s)
{
    struct board_rows *b = arg;
    json_t *row = json_pack(
        "{s:i,s:I,s:s,s:i,s:i,s:s,s:o}", "rank", ++b->rank, "user_id", (json_int_t)s->user_id,
        "user", s->user != NULL ? s->user : "", "moves", (int)s->moves, "pushes", (int)s->pushes,
        "source", s->source != NULL ? s->source : "pasted", "submitted_at", http_json_time(s->at));
    return json_array_append_new(b->entries, row) != 0;
}

int submitted_board(struct http_conn *c)
{
    int result = MHD_NO;
    bool by_pushes;
    int rule;
    uint32_t limit;
    if (!leaderboard_query(c, &by_pushes, &rule, &limit, &result))
        return result;
    int64_t level = c->param[0];
    if (!games_level_found(c, level, &result))
        return result;
    struct board_rows b = {.entries = json_array()};
    int status = b.entries != NULL
                     ? storage_submitted_board(level, rule, by_pushes, limit, add_row, &b)
                     : STORAGE_ERROR;
    json_t *best = status == STORAGE_OK ? catalog_best_known(level, rule) : NULL;
    if (best == NULL) {
        json_decref(b.entries);
        return reply_storage_failure(c, status == STORAGE_OK ? STORAGE_ERROR : status);
    }
    return reply_json(c, 200,
                      json_pack("{s:I,s:s,s:i,s:o,s:o}", "level_id", (json_int_t)level, "by",
                                by_pushes ? "pushes" : "moves", "rule", rule, "entries", b.entries,
                                "best_known", best));
}

/* ---- The optimiser: a shorter line near one of the player's solutions. */

/* One search, from the request to its answer. */
struct optimise_job {
    int64_t solution_id, user_id, level_id;
    int metric;             /* SOLVER_METRIC_* */
    uint32_t moves, pushes; /* the solution's */
    char *lurd;             /* the solution's line, malloc'd */
    soko_level level;
    solver_result r;
    struct hint_pool_hold hold;
};

static int64_t place_key(const struct optimise_job *j)
{
    return -j->solution_id;
}

static void run_optimise(void *arg)
{
    struct optimise_job *j = arg;
    solver_options opt;
    solver_options_default(&opt);
    hint_limits(&opt.time_limit, &opt.memory_limit, &opt.cancel);
    solver_optimise(&j->level, j->lurd, (uint32_t)strlen(j->lurd), j->metric, &opt, &j->r);
    hint_pool_done(&j->hold);
}

static void free_optimise(void *arg)
{
    struct optimise_job *j = arg;
    hint_pool_drop(&j->hold);
    solver_result_free(&j->r);
    free(j->lurd);
    free(j);
}

static bool shorter(const struct optimise_job *j)
{
    const solver_result *r = &j->r;
    if (j->metric == SOLVER_METRIC_PUSHES)
        return r->pushes < j->pushes || (r->pushes == j->pushes && r->moves < j->moves);
    return r->moves < j->moves || (r->moves == j->moves && r->pushes < j->pushes);
}

static int answer_optimise(struct http_conn *c, void *arg)
{
    struct optimise_job *j = arg;
    json_t *from = json_pack("{s:I,s:i,s:i}", "id", (json_int_t)j->solution_id, "moves",
                             (int)j->moves, "pushes", (int)j->pushes);
    if (j->r.status != SOLVER_SOLVED || j->r.lurd == NULL || !shorter(j)) {
        const char *why = j->r.status == SOLVER_SOLVED
                              ? "no shorter solution was found near this one within the limits"
                              : j->r.reason;
        return reply_json(
            c, 200, json_pack("{s:b,s:s,s:o}", "improved", false, "reason", why, "from", from));
    }
    struct storage_submitted s = {
        .user_id = j->user_id,
        .level_id = j->level_id,
        .moves = j->r.moves,
        .pushes = j->r.pushes,
        .lurd = j->r.lurd,
        .source = "optimised",
        .at = clock_now(),
    };
    bool created = false;
    int status;
    unsigned runs = 0;
    do {
        status = storage_begin();
        if (status == STORAGE_OK)
            status = storage_submitted_add(&s, &s.id, &created);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    if (status != STORAGE_OK) {
        json_decref(from);
        return status == STORAGE_QUOTA ? reply_quota_exceeded(c, j->user_id)
                                       : reply_storage_failure(c, status);
    }
    json_t *best = catalog_best_known(j->level_id, 0);
    json_t *solution = json_pack("{s:I,s:I,s:i,s:i,s:i,s:s,s:s,s:o}", "id", (json_int_t)s.id,
                                 "level_id", (json_int_t)j->level_id, "rule", 0, "moves",
                                 (int)s.moves, "pushes", (int)s.pushes, "source", "optimised",
                                 "lurd", s.lurd, "submitted_at", http_json_time(s.at));
    return reply_json(c, created ? 201 : 200,
                      json_pack("{s:b,s:o,s:o,s:o}", "improved", true, "solution", solution, "from",
                                from, "best_known", best != NULL ? best : json_null()));
}

/* The solution's row, for the optimiser. */
static int take_solution_row(void *arg, const struct storage_solution_row *s)
{
    *(struct storage_solution_row *)arg = *s;
    ((struct storage_solution_row *)arg)->username = NULL; /* valid during the call only */
    return 0;
}

static const char SQL_SOLUTION_LINE[] = "SELECT lurd FROM solutions WHERE id = ?";

int submitted_optimise(struct http_conn *c)
{
    int result = MHD_NO;
    struct body_text metric = {0};
    struct body_field spec[] = {
        body_optional(body_text("metric", &metric), NULL),
        body_end(),
    };
    json_t *body = body_parse(c, spec, &result);
    if (body == NULL)
        return result;
    int which = metric.text == NULL || strcmp(metric.text, "moves") == 0 ? SOLVER_METRIC_MOVES
                : strcmp(metric.text, "pushes") == 0                     ? SOLVER_METRIC_PUSHES
                                                                         : -1;
    json_decref(body);
    if (which < 0)
        return reply_error(c, API_E_INVALID_VALUE, "'metric' must be \"moves\" or \"pushes\"");
    int64_t user, id = c->param[0];
    if (!account_of(c, &user, &result))
        return result;
    struct storage_solution_row row = {0};
    int status = storage_solution_get(id, take_solution_row, &row);
    if (status == STORAGE_NOT_FOUND || (status == STORAGE_OK && row.user_id != user))
        return reply_error(c, API_E_SOLUTION_NOT_FOUND, "you have no solution %lld", (long long)id);
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    if (row.rule != 0)
        return reply_error(c, API_E_INVALID_VALUE,
                           "the optimiser shortens solutions of the standard rule only");
    if (row.moves > OPTIMISE_MAX_MOVES)
        return reply_error(c, API_E_INVALID_VALUE,
                           "a solution of more than %u moves is too long to optimise here",
                           OPTIMISE_MAX_MOVES);
    struct optimise_job *j = calloc(1, sizeof *j);
    char *line = malloc((size_t)row.moves + 1);
    if (j == NULL || line == NULL) {
        free(j);
        free(line);
        return reply_error(c, API_E_INTERNAL, "out of memory");
    }
    j->solution_id = id;
    j->user_id = user;
    j->level_id = row.level_id;
    j->metric = which;
    j->moves = row.moves;
    j->pushes = row.pushes;
    j->lurd = line;
    status = storage_text_by_id(SQL_SOLUTION_LINE, id, line, (size_t)row.moves + 1,
                                "reading a solution's line");
    if (status == STORAGE_OK)
        status = storage_level_get(row.level_id, 0, take_board, &j->level);
    if (status != STORAGE_OK) {
        free_optimise(j);
        return reply_storage_failure(c, status == STORAGE_NOT_FOUND ? STORAGE_ERROR : status);
    }
    return hint_pool_run(c, &j->hold, place_key(j), run_optimise, answer_optimise, free_optimise,
                         j);
}
