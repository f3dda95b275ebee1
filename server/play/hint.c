/* POST /api/v1/games/{id}/hint: the solver, run on a copy of the game on
 * the worker pool while the request is suspended, then a group commit that
 * counts the hint and answers with the game. */
#include "base/clock.h"
#include "play/hint.h"
#include "play/hint_plan.h"

#include "http/body.h"
#include "http/worker.h"
#include "play/commit.h"
#include "play/game_cache.h"
#include "play/games.h"
#include "solver.h"
#include "storage/storage_games.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* What a hint concluded, named in the answer's "kind". */
enum hint_kind { HINT_PUSH, HINT_SOLVED, HINT_LOST, HINT_UNKNOWN };

static const char *const kind_names[] = {"push", "solved", "lost", "unknown"};

/* Set once by hint_setup, before any request. */
static double limit_seconds = 3;
static uint64_t limit_memory = (uint64_t)256 << 20;
static unsigned max_jobs = 2;

/* The solver reads this flag while it searches. */
static volatile int cancel_all;

/* The games whose hint is being computed: as many as max_jobs. */
static pthread_mutex_t busy_lock = PTHREAD_MUTEX_INITIALIZER;
static int64_t busy_game[HINT_MAX_JOBS];
static unsigned busy_count;

void hint_setup(const struct config *cfg)
{
    limit_seconds = cfg->hint_seconds;
    limit_memory = (uint64_t)cfg->hint_memory << 20;
    max_jobs = cfg->hint_jobs < 1               ? 1
               : cfg->hint_jobs > HINT_MAX_JOBS ? HINT_MAX_JOBS
                                                : cfg->hint_jobs;
}

void hint_cancel_all(void)
{
    cancel_all = 1;
}

/* Why a game's hint cannot start now. */
enum busy { BUSY_NONE, BUSY_GAME, BUSY_SERVER };

/* Takes a place for game `id`, or says why there is none. */
static enum busy reserve(int64_t id)
{
    enum busy why = BUSY_NONE;
    pthread_mutex_lock(&busy_lock);
    for (unsigned i = 0; i < busy_count && why == BUSY_NONE; i++) {
        if (busy_game[i] == id)
            why = BUSY_GAME;
    }
    if (why == BUSY_NONE && busy_count >= max_jobs)
        why = BUSY_SERVER;
    if (why == BUSY_NONE)
        busy_game[busy_count++] = id;
    pthread_mutex_unlock(&busy_lock);
    return why;
}

static void unreserve(int64_t id)
{
    pthread_mutex_lock(&busy_lock);
    for (unsigned i = 0; i < busy_count; i++) {
        if (busy_game[i] == id) {
            busy_game[i] = busy_game[--busy_count];
            break;
        }
    }
    pthread_mutex_unlock(&busy_lock);
}

/* One hint, from the request to its answer. */
struct hint_job {
    struct commit_job job; /* first: the committer hands this back */
    int64_t game_id, user_id;
    uint32_t seq; /* the game's last entry when the hint was asked */
    soko_level level;
    soko_game game; /* a copy of the position, its history without the redo stack */
    /* What the search found. */
    enum hint_kind kind;
    char *steps; /* HINT_PUSH: the walk and the push, LURD */
    uint32_t moves;
    int box_x, box_y, to_x, to_y;
    int64_t undo; /* HINT_LOST: entries to undo, or -1 when none was found */
    char reason[160];
    double seconds;
    /* The answer, worked out on the committer thread. */
    struct live_game *g;
    bool wrote;
    struct games_answer answer;
    struct hint_pool_hold hold;
};

static double now_seconds(void)
{
    return (double)clock_mono_us() / 1e6;
}

static int delta(const soko_level *lvl, int d)
{
    switch (d) {
    case SOKO_UP:
        return -(int)lvl->width;
    case SOKO_DOWN:
        return (int)lvl->width;
    case SOKO_LEFT:
        return -1;
    default:
        return 1;
    }
}

/* Reads the solver's walk and push: where the pushed box stands and where it
 * goes. False when the steps hold no push (they always do when solved). */
static bool read_push(struct hint_job *j, const char *lurd)
{
    uint32_t n = (uint32_t)strlen(lurd);
    uint8_t *dirs = malloc(n + 1);
    uint32_t bad = 0;
    int32_t got = dirs != NULL ? play_decode(lurd, dirs, n + 1, &bad) : -1;
    bool pushed = false;
    int at = (int)j->game.player, w = (int)j->level.width;
    for (int32_t i = 0; i < got; i++) {
        int next = at + delta(&j->level, dirs[i]);
        if (lurd[i] >= 'A' && lurd[i] <= 'Z') {
            int to = next + delta(&j->level, dirs[i]);
            j->box_x = next % w;
            j->box_y = next / w;
            j->to_x = to % w;
            j->to_y = to / w;
            pushed = true;
        }
        at = next;
    }
    free(dirs);
    if (!pushed)
        return false;
    j->steps = strdup(lurd);
    j->moves = (uint32_t)got;
    return j->steps != NULL;
}

/* Takes the first push of `solution` (a solution from the game's position)
 * as the hint, and remembers the rest for the position that push leads to.
 * False when the solution holds no push. */
static bool next_push(struct hint_job *j, const char *solution)
{
    size_t n = 0;
    while (solution[n] != '\0' && !(solution[n] >= 'A' && solution[n] <= 'Z'))
        n++;
    if (solution[n] == '\0')
        return false;
    char *first = strndup(solution, n + 1);
    if (first == NULL || !read_push(j, first)) {
        free(first);
        return false;
    }
    free(first);
    /* The hash of the position after the walk and the push. */
    uint64_t hash = j->game.hash;
    soko_cell from = j->game.player;
    soko_cell to = (soko_cell)(j->box_y * (int)j->level.width + j->box_x);
    soko_cell box_to = (soko_cell)(j->to_y * (int)j->level.width + j->to_x);
    hash ^= soko_zobrist(from, 1) ^ soko_zobrist(to, 1);
    hash ^= soko_zobrist(to, 0) ^ soko_zobrist(box_to, 0);
    hint_plan_put(j->game_id, hash, solution + n + 1);
    return true;
}

/* Whether the solver can solve the game at history position `to` (moved
 * there from *at by undo and redo), within `seconds`. Returns a SOLVER_*. */
static int probe(struct hint_job *j, uint32_t *at, uint32_t to, double seconds)
{
    while (*at > to && soko_game_undo(&j->game) == SOKO_OK)
        (*at)--;
    while (*at < to && soko_game_redo(&j->game) == SOKO_OK)
        (*at)++;
    if (*at != to)
        return SOLVER_UNKNOWN;
    solver_options opt;
    solver_options_default(&opt);
    opt.time_limit = seconds;
    opt.memory_limit = limit_memory;
    opt.cancel = &cancel_all;
    solver_result r;
    int status = solver_solve_game(&j->game, &opt, &r);
    solver_result_free(&r);
    return status;
}

/* For a lost position: the fewest undos that bring back a position the
 * solver solves, or -1. Along one line of play (since the last restart)
 * solvability only goes from solvable to lost, so the last solvable
 * position is found by halving: positions lo..hi of the history, lo
 * believed solvable (the start of the line) and hi lost. A search stopped
 * by its memory counts as lost; one stopped by time ends the search. */
static int64_t rescue(struct hint_job *j)
{
    double deadline = now_seconds() + limit_seconds;
    uint32_t cursor = j->game.cursor, start = cursor;
    while (start > 0 && j->game.history[start - 1] != SOKO_ENTRY_RESTART)
        start--;
    uint32_t at = cursor, lo = start, hi = cursor;
    int64_t best = -1;
    bool out_of_time = false;
    while (hi - lo > 1 && !out_of_time) {
        uint32_t mid = lo + (hi - lo) / 2;
        double left = deadline - now_seconds();
        int status = left > 0.001 ? probe(j, &at, mid, left) : SOLVER_UNKNOWN;
        if (status == SOLVER_SOLVED) {
            lo = mid;
            best = mid;
        } else if (status == SOLVER_UNKNOWN && (now_seconds() >= deadline || cancel_all)) {
            out_of_time = true;
        } else {
            hi = mid;
        }
    }
    if (best < 0 && lo == start && start < cursor && !out_of_time) {
        double left = deadline - now_seconds();
        if (left > 0.001 && probe(j, &at, start, left) == SOLVER_SOLVED)
            best = start;
    }
    return best < 0 ? -1 : (int64_t)(cursor - best);
}

static void copy_reason(struct hint_job *j, const char *reason)
{
    snprintf(j->reason, sizeof j->reason, "%s", reason != NULL ? reason : "");
}

/* The search, on a worker thread. */
static void search(struct hint_job *j)
{
    double start = now_seconds();
    j->undo = -1;
    if (soko_game_solved(&j->game)) {
        j->kind = HINT_SOLVED;
        return;
    }
    solver_options opt;
    solver_options_default(&opt);
    opt.time_limit = limit_seconds;
    opt.memory_limit = limit_memory;
    opt.cancel = &cancel_all;
    solver_result r = {0};
    char *plan = hint_plan_take(j->game_id, j->game.hash);
    int status = plan != NULL ? SOLVER_SOLVED : solver_solve_game(&j->game, &opt, &r);
    const char *solution = plan != NULL ? plan : r.lurd;
    if (status == SOLVER_SOLVED && solution != NULL && next_push(j, solution)) {
        j->kind = HINT_PUSH;
    } else if (status == SOLVER_SOLVED) {
        j->kind = HINT_UNKNOWN;
        copy_reason(j, "the solver's answer held no push");
    } else if (status == SOLVER_UNSOLVABLE) {
        j->kind = HINT_LOST;
        copy_reason(j, r.reason);
    } else {
        j->kind = HINT_UNKNOWN;
        copy_reason(j, r.reason);
    }
    solver_result_free(&r);
    free(plan);
    if (j->kind == HINT_LOST)
        j->undo = rescue(j);
    j->seconds = now_seconds() - start;
}

/* The hint as the answer shows it. */
static json_t *hint_json(const struct hint_job *j, bool counted)
{
    json_t *o = json_pack("{s:s,s:b,s:I}", "kind", kind_names[j->kind], "counted", counted, "ms",
                          (json_int_t)(j->seconds * 1000 + 0.5));
    if (o == NULL)
        return NULL;
    switch (j->kind) {
    case HINT_PUSH:
        json_object_set_new(o, "steps", json_string(j->steps));
        json_object_set_new(o, "moves", json_integer(j->moves));
        json_object_set_new(o, "box", json_pack("{s:i,s:i}", "x", j->box_x, "y", j->box_y));
        json_object_set_new(o, "to", json_pack("{s:i,s:i}", "x", j->to_x, "y", j->to_y));
        break;
    case HINT_LOST:
        json_object_set_new(o, "undo", j->undo >= 0 ? json_integer(j->undo) : json_null());
        break;
    case HINT_UNKNOWN:
        json_object_set_new(o, "reason", json_string(j->reason));
        break;
    default:
        break;
    }
    return o;
}

/* On the committer thread, inside the batch's transaction: counts the hint
 * when it still fits the game, and writes the answer. */
static int record_hint(struct commit_job *cj)
{
    struct hint_job *j = (struct hint_job *)cj;
    int status = games_take_for(j->game_id, j->user_id, &j->answer, &j->g);
    if (status != STORAGE_OK || j->g == NULL)
        return status;
    struct live_game *g = j->g;
    if (g->seq != j->seq) {
        games_refuse(&j->answer, API_E_STALE_SEQ, g,
                     "the game moved on to entry %u while the hint for entry %u was worked out; "
                     "ask again",
                     g->seq, j->seq);
        return STORAGE_OK;
    }
    /* A push and a lost position help the player; "solved" and "unknown" do not. */
    bool counted = j->kind == HINT_PUSH || j->kind == HINT_LOST;
    if (counted) {
        status = storage_game_hint_add(g->id);
        if (status != STORAGE_OK)
            return status;
        g->hints++;
        j->wrote = true;
    }
    json_t *hint = hint_json(j, counted);
    json_t *state = play_state(g);
    if (hint == NULL || state == NULL) {
        json_decref(hint);
        json_decref(state);
        games_refuse(&j->answer, API_E_INTERNAL, NULL, "out of memory");
        return STORAGE_OK;
    }
    j->answer.body = json_pack("{s:o,s:o}", "hint", hint, "game", state);
    j->answer.status = 200;
    j->answer.error = false;
    return STORAGE_OK;
}

/* After the batch's transaction: the answer stands once committed. */
static void finish_hint(struct commit_job *cj, int status, bool ran)
{
    struct hint_job *j = (struct hint_job *)cj;
    games_answer_lost(&j->answer, j->g, j->wrote, status, ran);
    if (j->g != NULL)
        game_cache_release(j->g);
    j->g = NULL;
    hint_pool_done(&j->hold);
}

/* Before the hint is recorded again, its batch undone by a conflict. */
static void reset_hint(struct commit_job *cj)
{
    struct hint_job *j = (struct hint_job *)cj;
    games_job_reset(&j->answer, &j->g, &j->wrote);
}

/* Before the batch begins: the game record_hint locks. */
static void name_hint_game(struct commit_job *cj)
{
    int64_t id = ((struct hint_job *)cj)->game_id;
    storage_game_lock_ahead(id, NULL, game_cache_seq(id));
}

/* On a worker thread: the search, then the commit. */
static void run_hint(void *arg)
{
    struct hint_job *j = arg;
    search(j);
    j->job.key = j->game_id;
    j->job.run = record_hint;
    j->job.finish = finish_hint;
    j->job.reset = reset_hint;
    j->job.ahead = name_hint_game;
    commit_submit(&j->job);
}

static int answer_hint(struct http_conn *c, void *arg)
{
    struct hint_job *j = arg;
    return games_reply(c, &j->answer);
}

static void free_hint(void *arg)
{
    struct hint_job *j = arg;
    hint_pool_drop(&j->hold);
    json_decref(j->answer.body);
    free(j->answer.text);
    free(j->game.history);
    free(j->steps);
    free(j);
}

/* Copies g's position and its line of play (the history since the last
 * restart, without the redo stack) into j: what rescue undoes along. */
static bool copy_game(struct hint_job *j, const struct live_game *g)
{
    uint32_t cursor = 0;
    soko_entry_t *history = play_line(g, &cursor);
    if (history == NULL)
        return false;
    j->level = g->level;
    j->game = g->game;
    j->game.level = &j->level;
    j->game.history = history;
    j->game.history_cap = cursor + 1;
    j->game.history_len = cursor;
    j->game.cursor = cursor;
    j->seq = g->seq;
    j->game_id = g->id;
    j->user_id = g->user_id;
    return true;
}

/* A whole number of seconds to wait before asking again. */
static unsigned retry_seconds(void)
{
    unsigned s = (unsigned)limit_seconds;
    return (double)s < limit_seconds ? s + 1 : s < 1 ? 1 : s;
}

/* Takes the place `key`: MHD_YES with *taken set, or the refusal's answer
 * (429 hint_pending, 503 unavailable, both with Retry-After). */
static int place_take(struct http_conn *c, int64_t key, bool *taken)
{
    enum busy why = reserve(key);
    *taken = why == BUSY_NONE;
    if (*taken)
        return MHD_YES;
    c->retry_after = retry_seconds();
    if (why == BUSY_GAME)
        return reply_error(c, API_E_HINT_PENDING,
                           key > 0 ? "a hint for this game is being worked out; wait for its answer"
                                   : "this search is under way already; wait for its answer");
    return reply_error(c, API_E_UNAVAILABLE,
                       "the server is working out as many searches as it can; try again soon");
}

int hint_pool_run(struct http_conn *c, struct hint_pool_hold *h, int64_t key,
                  void (*work)(void *arg), int (*answer)(struct http_conn *c, void *arg),
                  void (*release)(void *arg), void *arg)
{
    bool taken = false;
    int result = place_take(c, key, &taken);
    if (!taken) {
        release(arg);
        return result;
    }
    h->key = key;
    h->held = true;
    struct http_deferred *d = NULL;
    result = http_suspend(c, answer, release, arg, &d);
    if (d == NULL)
        return result; /* arg is released, and its place with it */
    h->deferred = d;
    if (!worker_submit(WORKER_HINTS, work, arg))
        work(arg); /* no pool (stopping): answer rather than lose the request */
    return result;
}

void hint_pool_done(struct hint_pool_hold *h)
{
    struct http_deferred *d = h->deferred;
    unreserve(h->key);
    h->held = false;
    http_wake(d);
}

void hint_pool_drop(struct hint_pool_hold *h)
{
    if (h->held)
        unreserve(h->key);
    h->held = false;
}

void hint_limits(double *seconds, uint64_t *memory, const volatile int **cancel)
{
    *seconds = limit_seconds;
    *memory = limit_memory;
    *cancel = &cancel_all;
}

int hint_ask(struct http_conn *c)
{
    int result = MHD_NO;
    json_int_t want = -1;
    bool asked = false;
    struct body_field spec[] = {
        body_optional(body_integer_in("seq", &want, 0, (json_int_t)UINT32_MAX,
                                      "'seq' is the game's last entry: 0 or more"),
                      &asked),
        body_end(),
    };
    json_t *body = body_parse(c, spec, &result);
    if (body == NULL)
        return result;
    json_decref(body);
    struct live_game *g = games_take_requested(c, &result);
    if (g == NULL)
        return result;
    struct games_answer a = {0};
    if (asked && (uint32_t)want != g->seq) {
        games_refuse(&a, API_E_STALE_SEQ, g,
                     "the hint was asked for entry %lld but the game is at entry %u",
                     (long long)want, g->seq);
        game_cache_release(g);
        return games_reply(c, &a);
    }
    if (g->game.rule == SOKO_RULE_REVERSE) {
        /* The solver plans pushes, not pulls. */
        games_refuse(&a, API_E_REVERSE_GAME, g, "there are no hints in a reverse game");
        game_cache_release(g);
        return games_reply(c, &a);
    }
    if (g->room_id != 0) {
        /* Fair play: a race is each player's own work. */
        games_refuse(&a, API_E_RACE_UNDER_WAY, g, "there are no hints in a race");
        game_cache_release(g);
        return games_reply(c, &a);
    }
    struct hint_job *j = calloc(1, sizeof *j);
    if (j == NULL || !copy_game(j, g)) {
        game_cache_release(g);
        free(j);
        return reply_error(c, API_E_INTERNAL, "out of memory");
    }
    game_cache_release(g);
    return hint_pool_run(c, &j->hold, j->game_id, run_hint, answer_hint, free_hint, j);
}
