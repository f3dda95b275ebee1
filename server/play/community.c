/* Players' own levels: publishing, listings, likes, reports and the
 * admins' view (community.h). */
#include "play/community.h"

#include "accounts/auth.h"
#include "base/clock.h"
#include "http/body.h"
#include "library/admin.h"
#include "library/audit.h"
#include "library/catalog.h"
#include "play/hint.h"
#include "storage/storage.h"
#include "storage/storage_community.h"
#include "storage/storage_users.h"

#include "soko.h"
#include "solver.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DAY_SECONDS 86400
#define BOARD_TEXT_CAP (SOKO_MAX_CELLS + SOKO_MAX_HEIGHT + 1)
/* The longest board text read, before it is parsed: a 40 by 40 board
 * with room for decoration and a line's end of two bytes per row. */
#define MAX_BOARD_TEXT 8192
/* Rows a listing gives at most. */
#define MAX_LISTED 200

static unsigned per_day = 5;

void community_setup(const struct config *cfg)
{
    per_day = cfg->community_per_day;
}

/* The caller's account: false after answering 401 for nobody or a guest.
 * Copies the account's name into name[STORAGE_USERNAME_CAP]. */
static bool account_of(struct http_conn *c, const char *what, int64_t *user, char *name,
                       int *result)
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
        *result = reply_error(c, API_E_SIGN_IN_REQUIRED, "sign up to %s", what);
        return false;
    }
    if (name != NULL)
        memcpy(name, u.username, sizeof u.username);
    return true;
}

/* Whether the author may publish now: false after answering 403 for a
 * blocked author, 429 past the levels of a day. */
static bool may_publish(struct http_conn *c, int64_t user, int *result)
{
    uint32_t published = 0;
    bool blocked = false;
    int status = storage_community_author(user, clock_now() - DAY_SECONDS, &published, &blocked);
    if (status != STORAGE_OK) {
        *result = reply_storage_failure(c, status);
        return false;
    }
    if (blocked) {
        *result = reply_error(c, API_E_AUTHOR_BLOCKED,
                              "an admin blocked your account from publishing levels");
        return false;
    }
    if (published >= per_day) {
        http_retry_after(c, 3600);
        *result = reply_error(c, API_E_RATE_LIMITED,
                              "you published %u levels in the last day, as many as this server "
                              "takes; try again tomorrow",
                              published);
        return false;
    }
    return true;
}

/* One publish, from the request to its answer. */
struct publish_job {
    int64_t user_id;
    char author[STORAGE_USERNAME_CAP];
    char *title;
    char board[BOARD_TEXT_CAP];
    char hash[17];
    soko_level level;
    solver_result r;
    struct hint_pool_hold hold;
};

/* The hints' pool holds one search per key: an author publishes one level
 * at a time. Games' keys are positive and the optimiser's are minus a
 * solution's id: these lie below both. */
static int64_t place_key(const struct publish_job *j)
{
    return INT64_MIN / 2 - j->user_id;
}

static void run_publish(void *arg)
{
    struct publish_job *j = arg;
    solver_options opt;
    solver_options_default(&opt);
    hint_limits(&opt.time_limit, &opt.memory_limit, &opt.cancel);
    solver_solve_level(&j->level, &opt, &j->r);
    hint_pool_done(&j->hold);
}

static void free_publish(void *arg)
{
    struct publish_job *j = arg;
    hint_pool_drop(&j->hold);
    solver_result_free(&j->r);
    free(j->title);
    free(j);
}

static int take_level(void *arg, const struct storage_community_level *l)
{
    *(json_t **)arg = catalog_community_json(l);
    return 0;
}

/* The writes of a publish, in its transaction: STORAGE_CONFLICT when the
 * hash was taken meanwhile (*id then names that level). */
static int publish_once(const struct publish_job *j, int64_t *id)
{
    int taken = storage_community_hash_taken(j->hash, id);
    int status = taken == STORAGE_NOT_FOUND ? STORAGE_OK
                 : taken == STORAGE_OK      ? STORAGE_CONFLICT
                                            : taken;
    if (status == STORAGE_OK) {
        struct storage_community_new n = {
            .author_id = j->user_id,
            .author = j->author,
            .title = j->title,
            .board = j->board,
            .width = j->level.width,
            .height = j->level.height,
            .boxes = j->level.boxes,
            .canonical_hash = j->hash,
            .solution = j->r.lurd,
            .moves = j->r.moves,
            .pushes = j->r.pushes,
            .at = clock_now(),
        };
        status = storage_community_publish(&n, id);
    }
    return status;
}

/* Stores the level the solver solved, checking again what may have changed
 * during the search. */
static int store_published(struct http_conn *c, struct publish_job *j)
{
    int result = MHD_NO;
    if (!may_publish(c, j->user_id, &result))
        return result;
    int64_t id = 0;
    int status;
    unsigned runs = 0;
    do {
        id = 0;
        status = storage_begin();
        if (status == STORAGE_OK)
            status = publish_once(j, &id);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    if (status == STORAGE_CONFLICT && id == 0) /* published meanwhile, on another node */
        return reply_error(c, API_E_DUPLICATE_LEVEL,
                           "the library holds this level already, or a rotation or mirror image "
                           "of it: it was published a moment ago");
    if (status == STORAGE_CONFLICT)
        return reply_error(c, API_E_DUPLICATE_LEVEL,
                           "the library holds this level already (level %lld), or a rotation or "
                           "mirror image of it",
                           (long long)id);
    if (status == STORAGE_QUOTA)
        return reply_quota_exceeded(c, j->user_id);
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    json_t *level = NULL;
    status = storage_community_get(id, j->user_id, take_level, &level);
    if (status != STORAGE_OK || level == NULL) {
        json_decref(level);
        return reply_storage_failure(c, status == STORAGE_OK ? STORAGE_ERROR : status);
    }
    return reply_json(c, 201, json_pack("{s:o}", "level", level));
}

static int answer_publish(struct http_conn *c, void *arg)
{
    struct publish_job *j = arg;
    if (j->r.status == SOLVER_UNSOLVABLE)
        return reply_error(c, API_E_LEVEL_UNSOLVABLE, "the solver proved this level unsolvable: %s",
                           j->r.reason);
    if (j->r.status != SOLVER_SOLVED || j->r.lurd == NULL)
        return reply_error(c, API_E_LEVEL_UNSOLVABLE,
                           "the solver found no solution within its limits (%s); only levels it "
                           "solves can be published",
                           j->r.reason);
    return store_published(c, j);
}

/* Reads, checks and normalises the board into j: false after answering
 * why it cannot be published. */
static bool read_board(struct http_conn *c, struct publish_job *j, const struct body_text *text,
                       int *result)
{
    if (text->len > MAX_BOARD_TEXT) {
        *result = reply_error(c, API_E_INVALID_LEVEL, "a board's text holds at most %d bytes",
                              MAX_BOARD_TEXT);
        return false;
    }
    soko_error err = {0};
    if (soko_level_parse(&j->level, text->text, (uint32_t)text->len, 1, &err) != SOKO_OK) {
        *result = reply_error(c, API_E_INVALID_LEVEL, "line %u, column %u: %s", err.line, err.col,
                              err.message);
        return false;
    }
    if (j->level.width > COMMUNITY_MAX_SIDE || j->level.height > COMMUNITY_MAX_SIDE ||
        j->level.boxes > COMMUNITY_MAX_BOXES) {
        *result = reply_error(c, API_E_INVALID_LEVEL,
                              "the board is %u by %u with %u boxes; a published level is at most "
                              "%d by %d with %d boxes",
                              j->level.width, j->level.height, j->level.boxes, COMMUNITY_MAX_SIDE,
                              COMMUNITY_MAX_SIDE, COMMUNITY_MAX_BOXES);
        return false;
    }
    int32_t n = soko_level_write(&j->level, false, j->board, sizeof j->board);
    if (n < 0) {
        *result = reply_error(c, API_E_INVALID_LEVEL, "the board cannot be written back");
        return false;
    }
    j->board[n] = '\0';
    snprintf(j->hash, sizeof j->hash, "%016" PRIx64, soko_level_canonical_hash(&j->level));
    return true;
}

/* The title, without spaces around it: false after answering when it is
 * too long or holds a line's end. */
static bool read_title(struct http_conn *c, struct publish_job *j, const struct body_text *text,
                       int *result)
{
    const char *s = text->text != NULL ? text->text : "";
    size_t len = text->text != NULL ? text->len : 0;
    while (len > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        len--;
    }
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
    if (len > COMMUNITY_MAX_TITLE || memchr(s, '\n', len) != NULL || memchr(s, '\r', len) != NULL ||
        memchr(s, '\0', len) != NULL) {
        *result = reply_error(c, API_E_INVALID_VALUE, "'title' is one line of at most %d bytes",
                              COMMUNITY_MAX_TITLE);
        return false;
    }
    j->title = strndup(s, len);
    if (j->title == NULL) {
        *result = reply_error(c, API_E_INTERNAL, "out of memory");
        return false;
    }
    return true;
}

int community_publish(struct http_conn *c)
{
    int result = MHD_NO;
    struct body_text board = {0}, title = {0};
    struct body_field spec[] = {
        body_text("board", &board),
        body_optional(body_text("title", &title), NULL),
        body_end(),
    };
    json_t *body = body_parse(c, spec, &result);
    if (body == NULL)
        return result;
    struct publish_job *j = calloc(1, sizeof *j);
    if (j == NULL) {
        json_decref(body);
        return reply_error(c, API_E_INTERNAL, "out of memory");
    }
    bool ok = account_of(c, "publish levels: a level is listed under its author's name",
                         &j->user_id, j->author, &result) &&
              may_publish(c, j->user_id, &result) && read_title(c, j, &title, &result) &&
              read_board(c, j, &board, &result);
    json_decref(body);
    if (!ok) {
        free_publish(j);
        return result;
    }
    int64_t taken_by = 0;
    int status = storage_community_hash_taken(j->hash, &taken_by);
    if (status == STORAGE_OK) {
        free_publish(j);
        return reply_error(c, API_E_DUPLICATE_LEVEL,
                           "the library holds this level already (level %lld), or a rotation or "
                           "mirror image of it",
                           (long long)taken_by);
    }
    if (status != STORAGE_NOT_FOUND) {
        free_publish(j);
        return reply_storage_failure(c, status);
    }
    return hint_pool_run(c, &j->hold, place_key(j), run_publish, answer_publish, free_publish, j);
}

/* A positive number from the query, or `fallback` when absent: false after
 * answering 400 for anything else or past `max`. */
static bool query_number(struct http_conn *c, const char *name, int64_t fallback, int64_t max,
                         int64_t *out, int *result)
{
    const char *v = http_query(c, name);
    *out = fallback;
    if (v == NULL)
        return true;
    char *end = NULL;
    long long n = strtoll(v, &end, 10);
    if (*v == '\0' || end == NULL || *end != '\0' || n < 1 || n > max) {
        *result = reply_error(c, API_E_INVALID_VALUE, "'%s' must be a number from 1 to %lld", name,
                              (long long)max);
        return false;
    }
    *out = n;
    return true;
}

static int add_level(void *arg, const struct storage_community_level *l)
{
    return json_array_append_new(arg, catalog_community_json(l)) != 0;
}

int community_list(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user, author, before, limit;
    if (!query_number(c, "author", 0, INT64_MAX, &author, &result) ||
        !query_number(c, "before", 0, INT64_MAX, &before, &result) ||
        !query_number(c, "limit", 50, MAX_LISTED, &limit, &result))
        return result;
    if (!auth_user(c, AUTH_OPTIONAL, &user, &result))
        return result;
    json_t *levels = json_array();
    int status = levels != NULL ? storage_community_each(author, user, false, (uint32_t)limit,
                                                         before, add_level, levels)
                                : STORAGE_ERROR;
    if (status != STORAGE_OK) {
        json_decref(levels);
        return reply_storage_failure(c, status);
    }
    return reply_json(c, 200, json_pack("{s:o,s:i}", "levels", levels, "per_day", (int)per_day));
}

/* The published level of the route that players see, into *out: false after
 * answering 404 when there is none. */
static bool visible_level(struct http_conn *c, int64_t user, json_t **out, int *result)
{
    *out = NULL;
    int status = storage_community_get(c->param[0], user, take_level, out);
    if (status == STORAGE_OK && *out != NULL)
        return true;
    json_decref(*out);
    *out = NULL;
    *result = status == STORAGE_NOT_FOUND
                  ? reply_error(c, API_E_LEVEL_NOT_FOUND, "there is no community level %lld",
                                (long long)c->param[0])
                  : reply_storage_failure(c, status == STORAGE_OK ? STORAGE_ERROR : status);
    return false;
}

int community_like(struct http_conn *c)
{
    int result = MHD_NO;
    bool liked = false;
    struct body_field spec[] = {body_boolean("liked", &liked), body_end()};
    json_t *body = body_parse(c, spec, &result);
    if (body == NULL)
        return result;
    json_decref(body);
    int64_t user;
    json_t *level = NULL;
    if (!account_of(c, "like levels", &user, NULL, &result) ||
        !visible_level(c, user, &level, &result))
        return result;
    json_decref(level);
    bool changed = false;
    int status;
    unsigned runs = 0;
    do {
        status = storage_begin();
        if (status == STORAGE_OK)
            status = storage_community_like(c->param[0], user, liked, clock_now(), &changed);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    if (!visible_level(c, user, &level, &result))
        return result;
    json_object_set_new(level, "changed", json_boolean(changed));
    return reply_json(c, 200, json_pack("{s:o}", "level", level));
}

int community_report(struct http_conn *c)
{
    int result = MHD_NO;
    struct body_text reason = {0};
    struct body_field spec[] = {body_text("reason", &reason), body_end()};
    json_t *body = body_parse(c, spec, &result);
    if (body == NULL)
        return result;
    int64_t user;
    json_t *level = NULL;
    if (reason.len == 0 || reason.len > COMMUNITY_MAX_REASON) {
        json_decref(body);
        return reply_error(c, API_E_INVALID_VALUE, "'reason' says why in 1 to %d bytes",
                           COMMUNITY_MAX_REASON);
    }
    if (!account_of(c, "report levels", &user, NULL, &result) ||
        !visible_level(c, user, &level, &result)) {
        json_decref(body);
        return result;
    }
    json_decref(level);
    uint32_t made = 0;
    int status = storage_community_reports_since(user, clock_now() - DAY_SECONDS, &made);
    if (status == STORAGE_OK && made >= COMMUNITY_REPORTS_PER_DAY) {
        json_decref(body);
        http_retry_after(c, 3600);
        return reply_error(c, API_E_RATE_LIMITED,
                           "you made %u reports in the last day, as many as a player may; an "
                           "admin reads them",
                           made);
    }
    bool created = false;
    unsigned runs = 0;
    while (status == STORAGE_OK) {
        status = storage_begin();
        if (status == STORAGE_OK)
            status =
                storage_community_report(c->param[0], user, reason.text, clock_now(), &created);
        status = storage_finish(status);
        if (!storage_again(status, &runs))
            break;
        status = STORAGE_OK;
    }
    json_decref(body);
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    return reply_json(
        c, created ? 201 : 200,
        json_pack("{s:I,s:b}", "level_id", (json_int_t)c->param[0], "created", created));
}

static int add_admin_level(void *arg, const struct storage_community_level *l)
{
    json_t *o = catalog_community_json(l);
    json_object_set_new(o, "hidden", json_boolean(l->hidden));
    json_object_set_new(o, "reports", json_integer(l->reports));
    return json_array_append_new(arg, o) != 0;
}

static int add_report(void *arg, const struct storage_community_report *r)
{
    return json_array_append_new(
               arg, json_pack("{s:I,s:I,s:o,s:I,s:o,s:I,s:o,s:o,s:b,s:o}", "id", (json_int_t)r->id,
                              "level_id", (json_int_t)r->level_id, "level_title",
                              http_json_text(r->level_title), "author_id", (json_int_t)r->author_id,
                              "author", http_json_text(r->author), "user_id",
                              (json_int_t)r->user_id, "reporter", http_json_text(r->reporter),
                              "reason", http_json_text(r->reason), "hidden", r->hidden,
                              "created_at", http_json_time(r->created_at))) != 0;
}

static int add_block(void *arg, const struct storage_community_block *b)
{
    return json_array_append_new(
               arg, json_pack("{s:I,s:o,s:o,s:o}", "user_id", (json_int_t)b->user_id, "username",
                              http_json_text(b->username), "reason", http_json_text(b->reason),
                              "blocked_at", http_json_time(b->blocked_at))) != 0;
}

int community_admin(struct http_conn *c)
{
    int result = MHD_NO;
    struct audit_actor who;
    if (!admin_require(c, &who, &result))
        return result;
    json_t *levels = json_array(), *reports = json_array(), *blocked = json_array();
    int status = levels != NULL && reports != NULL && blocked != NULL ? STORAGE_OK : STORAGE_ERROR;
    if (status == STORAGE_OK)
        status =
            storage_community_each(0, who.user_id, true, MAX_LISTED, 0, add_admin_level, levels);
    if (status == STORAGE_OK)
        status = storage_community_reports_each(MAX_LISTED, add_report, reports);
    if (status == STORAGE_OK)
        status = storage_community_blocks_each(MAX_LISTED, add_block, blocked);
    if (status != STORAGE_OK) {
        json_decref(levels);
        json_decref(reports);
        json_decref(blocked);
        return reply_storage_failure(c, status);
    }
    return reply_json(
        c, 200,
        json_pack("{s:o,s:o,s:o}", "levels", levels, "reports", reports, "blocked", blocked));
}

int community_admin_block(struct http_conn *c)
{
    int result = MHD_NO;
    struct audit_actor who;
    bool blocked = false;
    struct body_text reason = {0};
    struct body_field spec[] = {
        body_boolean("blocked", &blocked),
        body_optional(body_text("reason", &reason), NULL),
        body_end(),
    };
    json_t *body = admin_body(c, &who, spec, &result);
    if (body == NULL)
        return result;
    int64_t user = c->param[0];
    struct storage_user u;
    int status = storage_user_get(user, &u);
    if (status == STORAGE_NOT_FOUND || (status == STORAGE_OK && u.guest)) {
        json_decref(body);
        return reply_error(c, API_E_USER_NOT_FOUND, "there is no account %lld", (long long)user);
    }
    if (reason.len > COMMUNITY_MAX_REASON) {
        json_decref(body);
        return reply_error(c, API_E_INVALID_VALUE, "'reason' holds at most %d bytes",
                           COMMUNITY_MAX_REASON);
    }
    bool changed = false;
    unsigned runs = 0;
    while (status == STORAGE_OK) {
        status = storage_begin();
        if (status == STORAGE_OK)
            status = storage_community_block(user, blocked, reason.text != NULL ? reason.text : "",
                                             clock_now(), &changed);
        if (status == STORAGE_OK && changed) {
            char target[64];
            admin_target(target, sizeof target, "user", user);
            status = audit_record(&who, blocked ? "community.block" : "community.unblock", target,
                                  json_pack("{s:s}", "username", u.username));
        }
        status = storage_finish(status);
        if (!storage_again(status, &runs))
            break;
        status = STORAGE_OK;
    }
    json_decref(body);
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    return reply_json(c, 200,
                      json_pack("{s:I,s:s,s:b,s:b}", "user_id", (json_int_t)user, "username",
                                u.username, "blocked", blocked, "changed", changed));
}
