/* Game endpoints: open a game on a level, read it, and extend its log. */
#include "play/games.h"

#include "accounts/auth.h"
#include "base/clock.h"
#include "base/metrics.h"
#include "base/textbuf.h"
#include "http/body.h"
#include "http/gzip_cache.h"
#include "play/commit.h"
#include "play/game_answers.h"
#include "play/game_cache.h"
#include "play/reverse_start.h"
#include "play/solutions.h"
#include "storage/storage_notify.h"
#include "storage/storage.h"
#include "storage/storage_games.h"
#include "storage/storage_levels.h"
#include "storage/storage_users.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int level_exists(void *arg, const struct storage_level *l)
{
    (void)arg;
    (void)l;
    return 0;
}

bool games_level_found(struct http_conn *c, int64_t level, int *result)
{
    int status = storage_level_get(level, 0, level_exists, NULL);
    if (status == STORAGE_OK)
        return true;
    if (status == STORAGE_NOT_FOUND)
        *result = reply_error(c, API_E_LEVEL_NOT_FOUND, "there is no level %lld", (long long)level);
    else
        *result = reply_storage_failure(c, status);
    return false;
}

struct live_game *games_take(struct http_conn *c, int64_t user, int64_t id, int *result)
{
    struct storage_game row;
    int status = storage_game_get(id, &row);
    if (status == STORAGE_NOT_FOUND || (status == STORAGE_OK && row.user_id != user)) {
        *result = reply_error(c, API_E_GAME_NOT_FOUND, "you have no game %lld", (long long)id);
        return NULL;
    }
    struct live_game *g = NULL;
    if (status == STORAGE_OK)
        status = game_cache_acquire(id, &g);
    /* Another process may have written to the game since it was cached,
     * and a log-in may have moved it from a guest to an account. */
    /* A reverse game's start may have moved while its log was empty. */
    if (status == STORAGE_OK &&
        (g->seq != row.seq || (row.rule == SOKO_RULE_REVERSE && row.seq == 0)))
        status = play_rebuild(g);
    if (status == STORAGE_OK) {
        g->user_id = row.user_id;
        g->hints = row.hints;
    }
    if (status != STORAGE_OK) {
        if (g != NULL)
            game_cache_release(g);
        *result = reply_storage_failure(c, status);
        return NULL;
    }
    return g;
}

struct live_game *games_take_requested(struct http_conn *c, int *result)
{
    int64_t user;
    if (!auth_user(c, AUTH_EXISTING, &user, result))
        return NULL;
    return games_take(c, user, c->param[0], result);
}

/* Answers with the game's state under "game", plus `extra` members. */
static int reply_game(struct http_conn *c, unsigned status, struct live_game *g, json_t *extra)
{
    json_t *state = play_state(g);
    if (state == NULL) {
        json_decref(extra);
        return reply_error(c, API_E_INTERNAL, "out of memory");
    }
    json_t *body = extra != NULL ? extra : json_object();
    json_object_set_new(body, "game", state);
    return reply_json(c, status, body);
}

void games_refuse(struct games_answer *a, enum api_error code, const struct live_game *g,
                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->message, sizeof a->message, fmt, ap);
    va_end(ap);
    json_decref(a->body);
    free(a->text);
    a->text = NULL;
    a->status = api_error_status(code);
    a->error = true;
    a->code = code;
    a->body = NULL;
    if (g != NULL) {
        /* As text: the game may be megabytes, and this may run on the
         * committer, which every player's step waits for. */
        struct textbuf b = {0};
        play_state_write(g, &b);
        a->text = textbuf_take(&b, &a->text_len);
    }
}

/* Fills *a with a success: {"duplicate": ..., "steps": ..., "game": ...},
 * written as text, with the game's summary (the answer to every step). */
static void accept_answer(struct games_answer *a, const struct live_game *g, bool duplicate,
                          const char *steps)
{
    struct textbuf b = {0};
    textbuf_puts(&b,
                 duplicate ? "{\"duplicate\":true,\"steps\":" : "{\"duplicate\":false,\"steps\":");
    textbuf_json_string(&b, steps, strlen(steps));
    textbuf_puts(&b, ",\"game\":");
    play_summary_write(g, &b);
    textbuf_put(&b, "}", 1);
    json_decref(a->body);
    a->body = NULL;
    free(a->text);
    a->text = textbuf_take(&b, &a->text_len);
    if (a->text == NULL) {
        games_refuse(a, API_E_INTERNAL, NULL, "out of memory");
        return;
    }
    a->status = 200;
    a->error = false;
}

int games_reply(struct http_conn *c, struct games_answer *a)
{
    json_t *body = a->body;
    char *text = a->text;
    a->body = NULL;
    a->text = NULL;
    if (a->failure != STORAGE_OK) {
        json_decref(body);
        free(text);
        if (a->failure == STORAGE_QUOTA)
            return reply_quota_exceeded(c, a->user_id);
        return reply_storage_failure(c, a->failure);
    }
    if (text != NULL) {
        json_decref(body);
        if (a->error)
            return reply_error_text(c, a->code, a->message, "game", text, a->text_len);
        return reply_json_text(c, a->status, text, a->text_len);
    }
    if (!a->error)
        return reply_json(c, a->status, body);
    http_attach(c, "game", body);
    return reply_error(c, a->code, "%s", a->message);
}

/* Looking for an entry the log holds already. */
struct held {
    const struct games_entry *e;
    bool same;
    char *steps;
};

static int compare_held(void *arg, const struct storage_log_entry *h)
{
    struct held *held = arg;
    const struct games_entry *e = held->e;
    if (h->kind != e->kind)
        return 0;
    if (e->request[0] != '\0')
        held->same = strcmp(h->request, e->request) == 0;
    else if (h->request[0] != '\0')
        held->same = false;
    else if (e->kind == STORAGE_LOG_STEPS)
        held->same = strcasecmp(h->steps, e->steps) == 0;
    else if (e->kind == STORAGE_LOG_UNDO || e->kind == STORAGE_LOG_REDO)
        held->same = h->count == e->count;
    else
        held->same = true;
    if (held->same)
        held->steps = strdup(h->steps);
    return 0;
}

/* Fills *a for a refused entry: 422 with the game as it stands. */
static void refuse_entry(struct games_answer *a, struct live_game *g, const struct games_entry *e,
                         const struct play_result *res)
{
    if (res->code == SOKO_E_FULL) {
        games_refuse(a, API_E_GAME_TOO_LONG, g,
                     "the game's history reached its limit of %u entries; restart "
                     "cannot help, only a new game",
                     PLAY_MAX_HISTORY);
        return;
    }
    switch (e->kind) {
    case STORAGE_LOG_UNDO:
        games_refuse(a, API_E_NOTHING_TO_UNDO, g, "only %u entr%s can be undone", play_cursor(g),
                     play_cursor(g) == 1 ? "y" : "ies");
        return;
    case STORAGE_LOG_REDO:
        games_refuse(a, API_E_NOTHING_TO_REDO, g, "only %u entr%s can be redone",
                     play_redo_count(g), play_redo_count(g) == 1 ? "y" : "ies");
        return;
    default:
        break;
    }
    char letter = e->steps != NULL && e->request[0] == '\0' ? e->steps[res->failed] : '?';
    games_refuse(a, API_E_STEP_REFUSED, g,
                 "step %u ('%c') %s; nothing of this entry "
                 "was applied",
                 res->failed + 1, letter,
                 res->code == SOKO_E_WALL ? "runs into a wall" : "pushes a box that cannot move");
}

/* Writes the applied entry, the game's summary and its solutions. */
static int record(struct live_game *g, const struct games_entry *e, const char *steps,
                  const struct play_result *res)
{
    int64_t now = clock_now();
    struct storage_log_entry le = {
        .seq = e->seq,
        .kind = e->kind,
        .steps = steps,
        .count = e->count,
        .request = e->request,
    };
    struct storage_game row = {
        .id = g->id,
        .seq = e->seq,
        .moves = g->game.moves,
        .pushes = g->game.pushes,
        .solved = soko_game_solved(&g->game),
    };
    int status = storage_game_record(&row, &le, now);
    for (unsigned i = 0; i < res->nsolutions && status == STORAGE_OK; i++) {
        const struct play_solution *s = &res->solution[i];
        /* A reverse game's solution is the forward line it stands for,
         * replayed under the standard rule (play_note_solution). */
        bool reverse = g->game.rule == SOKO_RULE_REVERSE;
        struct solutions_new sn = {
            .user_id = g->user_id,
            .level_id = g->level_id,
            .game_id = g->id,
            .rule = reverse ? SOKO_RULE_STANDARD : g->game.rule,
            .reverse = reverse,
            .moves = s->moves,
            .pushes = s->pushes,
            .hints = SOLUTIONS_HINTS_OF_GAME,
            .lurd = s->lurd,
            .at = now,
        };
        status = solutions_record(&sn, NULL);
    }
    return status;
}

/* The hooks, registered at start-up (games_add_*). */
static games_guard guards[GAMES_HOOKS_MAX];
static games_listener listeners[GAMES_HOOKS_MAX];
static games_open_listener open_listeners[GAMES_HOOKS_MAX];
static unsigned nguards, nlisteners, nopen_listeners;

int games_add_guard(games_guard fn)
{
    for (unsigned i = 0; i < nguards; i++) {
        if (guards[i] == fn)
            return 0;
    }
    if (nguards == GAMES_HOOKS_MAX)
        return -1;
    guards[nguards++] = fn;
    return 0;
}

int games_add_listener(games_listener fn)
{
    for (unsigned i = 0; i < nlisteners; i++) {
        if (listeners[i] == fn)
            return 0;
    }
    if (nlisteners == GAMES_HOOKS_MAX)
        return -1;
    listeners[nlisteners++] = fn;
    return 0;
}

int games_add_open_listener(games_open_listener fn)
{
    for (unsigned i = 0; i < nopen_listeners; i++) {
        if (open_listeners[i] == fn)
            return 0;
    }
    if (nopen_listeners == GAMES_HOOKS_MAX)
        return -1;
    open_listeners[nopen_listeners++] = fn;
    return 0;
}

/* An entry on its way through the committer, and then its answer. */
struct entry_job {
    struct commit_job job; /* first: the committer hands this back */
    int64_t game_id;
    uint8_t session[32];
    struct games_entry e;
    char *steps;                     /* e.steps's copy */
    void *arg;                       /* e.arg's copy */
    struct live_game *g;             /* held from run to finish */
    bool wrote;                      /* run kept writes that the commit must carry */
    char *applied;                   /* the steps the entry added (malloc'd), for the listeners */
    char address[CLIENT_IP_KEY_MAX]; /* the client's, for the guards */
    struct games_answer answer;
    struct http_deferred *deferred;
};

/* Runs the guards on the entry's game. Returns true to go on applying;
 * false after filling the answer with the first refusal. */
static bool guards_allow(struct entry_job *j)
{
    for (unsigned i = 0; i < nguards; i++) {
        enum api_error refused;
        char why[160];
        if (!guards[i](j->g, j->address, &refused, why, sizeof why)) {
            games_refuse(&j->answer, refused, j->g, "%s", why);
            return false;
        }
    }
    return true;
}

/* Checks the seq. Returns true to go on applying; false after filling the
 * answer (duplicate, stale) or on a database failure (*status set). */
static bool check_seq(struct entry_job *j, int *status)
{
    struct live_game *g = j->g;
    const struct games_entry *e = &j->e;
    if (e->seq == g->seq + 1)
        return true;
    struct held held = {.e = e};
    int found = STORAGE_NOT_FOUND;
    if (e->seq >= 1 && e->seq <= g->seq)
        found = storage_log_get(g->id, e->seq, compare_held, &held);
    if (found != STORAGE_OK && found != STORAGE_NOT_FOUND) {
        free(held.steps);
        *status = found;
        return false;
    }
    if (held.same) {
        accept_answer(&j->answer, g, true, held.steps != NULL ? held.steps : "");
        free(held.steps);
        return false;
    }
    free(held.steps);
    games_refuse(&j->answer, API_E_STALE_SEQ, g,
                 "entry %u does not follow the game (at entry %u): send seq %u, from "
                 "the game below",
                 e->seq, g->seq, g->seq + 1);
    return false;
}

/* Takes the game whose row (locked) is `row` from the cache, brought up to
 * the row. Returns STORAGE_OK with *g set, or the code of a failure (*g
 * may be set then too: the caller releases it). */
static int take_row(const struct storage_game *row, struct live_game **g)
{
    int status = game_cache_acquire(row->id, g);
    /* Another process may have written to the game since it was cached,
     * and a log-in may have moved it from a guest to an account. A reverse
     * game with an empty log may have moved its start (on another node):
     * read again, which costs no replay. */
    if (status == STORAGE_OK && row->rule == SOKO_RULE_REVERSE && row->seq == 0)
        status = play_rebuild(*g);
    else if (status == STORAGE_OK && (*g)->seq != row->seq)
        status = play_catch_up(*g, row);
    if (status == STORAGE_OK) {
        (*g)->user_id = row->user_id;
        (*g)->hints = row->hints;
    }
    return status;
}

/* Finds the session's user and takes the game. Returns STORAGE_OK with
 * j->g set, STORAGE_OK with j->g NULL after filling the answer (401, 404),
 * or the code of a database failure. */
static int take_game(struct entry_job *j)
{
    struct storage_game row;
    /* The usual case in one statement; the others tell which answer. */
    int status = storage_game_get_locked_for(j->game_id, j->session, clock_now(), &row);
    if (status == STORAGE_OK)
        return take_row(&row, &j->g);
    if (status != STORAGE_NOT_FOUND)
        return status;
    struct storage_user u;
    status = storage_session_user(j->session, clock_now(), &u);
    if (status == STORAGE_NOT_FOUND) {
        games_refuse(&j->answer, API_E_NO_SESSION, NULL, AUTH_NO_SESSION_MESSAGE);
        return STORAGE_OK;
    }
    if (status != STORAGE_OK)
        return status;
    return games_take_for(j->game_id, u.id, &j->answer, &j->g);
}

int games_take_for(int64_t game_id, int64_t user_id, struct games_answer *a, struct live_game **g)
{
    *g = NULL;
    struct storage_game row;
    /* Locked: another node's entry for the game waits for this one. */
    int status = storage_game_get_locked(game_id, &row);
    if (status == STORAGE_NOT_FOUND || (status == STORAGE_OK && row.user_id != user_id)) {
        games_refuse(a, API_E_GAME_NOT_FOUND, NULL, "you have no game %lld", (long long)game_id);
        return STORAGE_OK;
    }
    if (status == STORAGE_OK)
        status = take_row(&row, g);
    return status;
}

/* Tells the other nodes sharing the database of entry `seq` of a game,
 * with the entry's own savepoint: only a committed entry is told, once. */
static int notify_entry(int64_t game, uint32_t seq)
{
    char payload[STORAGE_NOTIFY_MAX];
    snprintf(payload, sizeof payload, "game:%lld:%u", (long long)game, seq);
    return storage_notify(payload);
}

/* On the committer thread, inside the batch's transaction. */
static int run_entry(struct commit_job *cj)
{
    struct entry_job *j = (struct entry_job *)cj;
    struct games_entry *e = &j->e;
    int status = take_game(j);
    if (status != STORAGE_OK || j->g == NULL)
        return status;
    struct live_game *g = j->g;
    if (!check_seq(j, &status))
        return status;
    if (!guards_allow(j))
        return STORAGE_OK;
    if (e->prepare != NULL && !e->prepare(g, e, &j->answer))
        return STORAGE_OK;
    if (e->kind == STORAGE_LOG_STEPS && e->ndirs == 0) {
        /* A point-mode request with nothing to do: no entry. */
        accept_answer(&j->answer, g, false, "");
        return STORAGE_OK;
    }
    struct play_entry pe = {.kind = e->kind, .dirs = e->dirs, .ndirs = e->ndirs, .count = e->count};
    uint32_t from = play_cursor(g);
    struct play_result res = {0};
    if (e->kind == STORAGE_LOG_STEPS &&
        (res.code = play_try_steps(g, e->dirs, e->ndirs, &res.failed)) != SOKO_OK) {
        refuse_entry(&j->answer, g, e, &res);
        return STORAGE_OK;
    }
    if (play_apply(g, &pe, true, &res) != SOKO_OK) {
        if (res.changed)
            play_rebuild(g);
        refuse_entry(&j->answer, g, e, &res);
        play_result_clear(&res);
        return STORAGE_OK;
    }
    char *steps = NULL;
    if (e->kind == STORAGE_LOG_STEPS) {
        size_t cap = (size_t)(play_cursor(g) - from) + 1;
        steps = malloc(cap);
        if (steps == NULL || play_letters(g, from, play_cursor(g), steps, cap) < 0)
            status = STORAGE_ERROR;
    }
    if (status == STORAGE_OK)
        status = record(g, e, steps != NULL ? steps : "", &res);
    if (status == STORAGE_OK)
        status = notify_entry(g->id, e->seq);
    play_result_clear(&res);
    if (status != STORAGE_OK) {
        /* The memory copy is ahead of the database: rebuild it next time. */
        g->valid = false;
        free(steps);
        return status;
    }
    g->seq = e->seq;
    j->wrote = true;
    accept_answer(&j->answer, g, false, steps != NULL ? steps : "");
    free(j->applied);
    j->applied = steps;
    return STORAGE_OK;
}

void games_job_reset(struct games_answer *a, struct live_game **g, bool *wrote)
{
    if (*g != NULL) {
        if (*wrote)
            (*g)->valid = false;
        game_cache_release(*g);
    }
    *g = NULL;
    *wrote = false;
    json_decref(a->body);
    free(a->text);
    memset(a, 0, sizeof *a);
}

bool games_answer_lost(struct games_answer *a, struct live_game *g, bool wrote, int status,
                       bool ran)
{
    if (status == STORAGE_OK || (!wrote && ran && a->status != 0))
        return false;
    /* The game in memory is ahead of the database: rebuild it next time. */
    if (g != NULL && wrote)
        g->valid = false;
    json_decref(a->body);
    a->body = NULL;
    free(a->text);
    a->text = NULL;
    a->failure = status;
    a->user_id = g != NULL ? g->user_id : 0;
    return true;
}

/* After the batch's transaction: the answer stands once committed. */
static void finish_entry(struct commit_job *cj, int status, bool ran)
{
    struct entry_job *j = (struct entry_job *)cj;
    bool lost = games_answer_lost(&j->answer, j->g, j->wrote, status, ran);
    if (!lost && j->wrote) {
        /* Committed: other devices may hear of it now, not before. */
        const char *applied = j->applied != NULL ? j->applied : "";
        for (unsigned i = 0; i < nlisteners; i++)
            listeners[i](j->g, j->e.kind, j->e.seq, applied, j->e.count);
    }
    if (j->g != NULL)
        game_cache_release(j->g);
    j->g = NULL;
    http_wake(j->deferred);
}

/* Before the batch begins: the game run_entry locks, with its session. */
static void name_entry_game(struct commit_job *cj)
{
    struct entry_job *j = (struct entry_job *)cj;
    storage_game_lock_ahead(j->game_id, j->session, game_cache_seq(j->game_id));
}

/* Before the entry runs again, its batch undone by a conflict. */
static void reset_entry(struct commit_job *cj)
{
    struct entry_job *j = (struct entry_job *)cj;
    games_job_reset(&j->answer, &j->g, &j->wrote);
    free(j->applied);
    j->applied = NULL;
}

static int answer_entry(struct http_conn *c, void *arg)
{
    struct entry_job *j = arg;
    int result = games_reply(c, &j->answer);
    metrics_step_us(clock_mono_us() - c->start_us);
    return result;
}

static void free_entry(void *arg)
{
    struct entry_job *j = arg;
    json_decref(j->answer.body);
    free(j->answer.text);
    free(j->e.dirs);
    free(j->applied);
    free(j->steps);
    free(j->arg);
    free(j);
}

int games_submit(struct http_conn *c, int64_t game_id, struct games_entry *e)
{
    struct entry_job *j = calloc(1, sizeof *j);
    if (j == NULL) {
        free(e->dirs);
        e->dirs = NULL;
        return reply_error(c, API_E_INTERNAL, "out of memory");
    }
    j->e = *e;
    e->dirs = NULL;
    if (!auth_session_key(c, j->session)) {
        free_entry(j);
        return reply_error(c, API_E_NO_SESSION, AUTH_NO_SESSION_MESSAGE);
    }
    if (e->steps != NULL) {
        j->steps = strdup(e->steps);
        j->e.steps = j->steps;
    }
    if (e->arg_size > 0) {
        j->arg = malloc(e->arg_size);
        if (j->arg != NULL)
            memcpy(j->arg, e->arg, e->arg_size);
        j->e.arg = j->arg;
    }
    if ((e->steps != NULL && j->steps == NULL) || (e->arg_size > 0 && j->arg == NULL)) {
        free_entry(j);
        return reply_error(c, API_E_INTERNAL, "out of memory");
    }
    j->game_id = game_id;
    http_client_address(c, j->address, sizeof j->address);
    j->job.key = game_id;
    j->job.run = run_entry;
    j->job.finish = finish_entry;
    j->job.reset = reset_entry;
    j->job.ahead = name_entry_game;
    struct http_deferred *d = NULL;
    int result = http_suspend(c, answer_entry, free_entry, j, &d);
    if (d == NULL)
        return result; /* j is freed */
    j->deferred = d;
    commit_submit(&j->job);
    return result;
}

int games_open(struct http_conn *c)
{
    int result = MHD_NO;
    json_int_t rule = 0;
    json_t *start_obj = NULL;
    struct body_field spec[] = {
        body_optional(body_integer_in("rule", &rule, 0, 2,
                                      "'rule' must be 0 (standard), 1 (multi-push) or 2 (reverse)"),
                      NULL),
        body_optional(body_object("start", &start_obj), NULL),
        body_end(),
    };
    json_t *body = body_parse(c, spec, &result);
    if (body == NULL)
        return result;
    int64_t user;
    int64_t level = c->param[0];
    int32_t start = -1;
    bool found =
        games_level_found(c, level, &result) &&
        (start_obj == NULL || reverse_read_start(c, level, (int)rule, start_obj, &start, &result));
    json_decref(body);
    if (!found)
        return result;
    if (!auth_user(c, AUTH_CREATE_GUEST, &user, &result))
        return result;
    struct storage_game row;
    bool created = false;
    int status;
    unsigned runs = 0;
    do {
        created = false;
        status = storage_begin();
        if (status == STORAGE_OK)
            status = storage_game_open(user, level, (int)rule, start, clock_now(), &row, &created);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    struct live_game *g = games_take(c, user, row.id, &result);
    if (g == NULL)
        return result;
    result = reply_game(c, created ? 201 : 200, g, json_pack("{s:b}", "created", created));
    game_cache_release(g);
    for (unsigned i = 0; i < nopen_listeners; i++)
        open_listeners[i](user, row.id, level);
    return result;
}

static void release_answer(void *cls)
{
    game_answers_release(cls);
}

/* A kept answer as it is sent to a client without gzip: inflated as the
 * connection takes it, so that a slow reader holds one z_stream, not the
 * whole text. */
struct plain_answer {
    const struct game_answer *a;
    void *stream;
};

static ssize_t read_plain(void *cls, uint64_t pos, char *buf, size_t max)
{
    struct plain_answer *p = cls;
    long n = game_answers_inflate(p->a, &p->stream, pos, buf, max);
    return n > 0 ? (ssize_t)n : MHD_CONTENT_READER_END_WITH_ERROR;
}

static void free_plain(void *cls)
{
    struct plain_answer *p = cls;
    game_answers_inflate_end(&p->stream);
    game_answers_release(p->a);
    free(p);
}

/* Sends kept answer a (a reference, given back when the answer is sent or
 * dropped): as it is to a client that accepts gzip, else inflated. */
static int send_kept(struct http_conn *c, const struct game_answer *a, bool gzip)
{
    struct MHD_Response *r = NULL;
    uint64_t bytes = gzip ? a->zlen : a->text_len;
    if (gzip) {
        r = MHD_create_response_from_buffer_with_free_callback_cls(
            a->zlen, (void *)(uintptr_t)a->z, release_answer, (void *)(uintptr_t)a);
        if (r == NULL)
            game_answers_release(a);
    } else {
        struct plain_answer *p = calloc(1, sizeof *p);
        if (p != NULL) {
            p->a = a;
            r = MHD_create_response_from_callback(a->text_len, 32 * 1024, read_plain, p,
                                                  free_plain);
        }
        if (r == NULL) {
            free(p);
            game_answers_release(a);
        }
    }
    if (r == NULL)
        return reply_error(c, API_E_INTERNAL, "out of memory");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json; charset=utf-8");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    if (gzip)
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
    MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, "Accept-Encoding");
    return http_queue(c, 200, r, bytes);
}

/* The game is written as text, never as a jansson tree: at the history cap
 * it is megabytes of letters. Long answers are kept compressed while the
 * game does not change, and every request for that version sends the kept
 * bytes (send_kept). */
int games_get(struct http_conn *c)
{
    int result = MHD_NO;
    struct live_game *g = games_take_requested(c, &result);
    if (g == NULL)
        return result;
    bool gzip = gzip_cache_accepted(http_header(c, MHD_HTTP_HEADER_ACCEPT_ENCODING));
    struct game_answers_key key = {
        .id = g->id, .user_id = g->user_id, .seq = g->seq, .hints = g->hints};
    const struct game_answer *kept = game_answers_find(&key);
    if (kept != NULL) {
        game_cache_release(g);
        return send_kept(c, kept, gzip);
    }
    struct textbuf b = {0};
    textbuf_puts(&b, "{\"game\":");
    play_state_write(g, &b);
    textbuf_put(&b, "}", 1);
    game_cache_release(g);
    if (b.failed) {
        textbuf_free(&b);
        return reply_error(c, API_E_INTERNAL, "out of memory");
    }
    if (b.len >= GAME_ANSWERS_MIN) {
        kept = game_answers_put(&key, b.data, b.len);
        if (kept != NULL) {
            textbuf_free(&b);
            return send_kept(c, kept, gzip);
        }
    }
    size_t len = 0;
    char *text = textbuf_take(&b, &len);
    if (text == NULL)
        return reply_error(c, API_E_INTERNAL, "out of memory");
    return reply_json_text(c, 200, text, len);
}

struct body_field games_seq_field(json_int_t *out)
{
    return body_integer_in("seq", out, 1, (json_int_t)UINT32_MAX - 1, "'seq' must be at least 1");
}

/* A log request's body, as its spec stores it. */
struct log_body {
    json_int_t seq;
    struct body_text steps;
    json_int_t count[3]; /* undo and redo, at their STORAGE_LOG_* */
    bool restart;
    bool has[4]; /* whether each kind of entry is there, at its STORAGE_LOG_* */
};

/* Reads the entry of a log request into e; false after answering 400. */
static bool read_entry(struct http_conn *c, const struct log_body *b, struct games_entry *e,
                       int *result)
{
    e->seq = (uint32_t)b->seq;
    static const char *const kinds[] = {"steps", "undo", "redo", "restart"};
    int found = 0;
    for (int k = 0; k < 4; k++) {
        if (b->has[k]) {
            e->kind = k;
            found++;
        }
    }
    if (found != 1) {
        *result = reply_error(c, found == 0 ? API_E_MISSING_FIELD : API_E_INVALID_VALUE,
                              "an entry is exactly one of 'steps', 'undo', 'redo' or 'restart'");
        return false;
    }
    if (e->kind == STORAGE_LOG_UNDO || e->kind == STORAGE_LOG_REDO) {
        json_int_t n = b->count[e->kind];
        if (n < 1 || n > PLAY_MAX_HISTORY) {
            *result = reply_error(c, API_E_INVALID_VALUE, "'%s' counts entries: from 1 to %u",
                                  kinds[e->kind], PLAY_MAX_HISTORY);
            return false;
        }
        e->count = (uint32_t)n;
    } else if (e->kind == STORAGE_LOG_RESTART) {
        if (!b->restart) {
            *result = reply_error(c, API_E_INVALID_VALUE, "'restart' can only be true");
            return false;
        }
    } else {
        e->steps = b->steps.text;
        size_t len = strlen(e->steps);
        if (len == 0 || len > PLAY_MAX_HISTORY) {
            *result = reply_error(c, API_E_INVALID_STEPS, "'steps' holds from 1 to %u letters",
                                  PLAY_MAX_HISTORY);
            return false;
        }
        e->dirs = malloc(len);
        uint32_t bad = 0;
        int32_t n = e->dirs != NULL ? play_decode(e->steps, e->dirs, (uint32_t)len, &bad) : -1;
        if (n >= 0)
            play_mark_pulls(e->steps, e->dirs, (uint32_t)n);
        if (n < 0) {
            unsigned char ch = (unsigned char)e->steps[bad];
            *result = reply_error(c, API_E_INVALID_STEPS,
                                  "letter %u of 'steps' is '%c': only l u r d (moves) and "
                                  "L U R D (pushes) are steps",
                                  bad + 1, ch >= 0x20 && ch < 0x7F ? ch : '?');
            free(e->dirs);
            e->dirs = NULL;
            return false;
        }
        e->ndirs = (uint32_t)n;
    }
    return true;
}

int games_log(struct http_conn *c)
{
    int result = MHD_NO;
    struct log_body b = {0};
    struct body_field spec[] = {
        games_seq_field(&b.seq),
        body_optional(body_text("steps", &b.steps), &b.has[STORAGE_LOG_STEPS]),
        body_optional(body_integer("undo", &b.count[STORAGE_LOG_UNDO]), &b.has[STORAGE_LOG_UNDO]),
        body_optional(body_integer("redo", &b.count[STORAGE_LOG_REDO]), &b.has[STORAGE_LOG_REDO]),
        body_optional(body_boolean("restart", &b.restart), &b.has[STORAGE_LOG_RESTART]),
        body_end(),
    };
    json_t *body = body_parse(c, spec, &result);
    if (body == NULL)
        return result;
    struct games_entry e = {0};
    if (!read_entry(c, &b, &e, &result)) {
        json_decref(body);
        return result;
    }
    result = games_submit(c, c->param[0], &e);
    json_decref(body);
    return result;
}
