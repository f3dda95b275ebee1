/* Progress endpoints: what the caller solved and is playing, and an export
 * of its solutions as a level file. */
#include "play/progress.h"

#include "accounts/auth.h"
#include "storage/storage_games.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static int add_solved(void *arg, const struct storage_progress *p)
{
    json_t *o =
        json_pack("{s:I,s:I,s:o,s:i,s:o,s:i,s:i,s:o,s:o}", "level_id", (json_int_t)p->level_id,
                  "collection_id", (json_int_t)p->collection_id, "collection",
                  http_json_text(p->collection_name), "position", (int)p->position, "title",
                  http_json_text(p->title), "best_moves", (int)p->moves, "best_pushes",
                  (int)p->pushes, "first_solved_at", http_json_time(p->at), "game_id",
                  p->game_id != 0 ? json_integer(p->game_id) : json_null());
    json_object_set_new(o, "hinted", json_boolean(p->hinted));
    return json_array_append_new(arg, o) != 0;
}

static int add_game(void *arg, const struct storage_progress *p)
{
    json_t *o =
        json_pack("{s:I,s:I,s:I,s:o,s:i,s:o,s:i,s:i,s:o}", "game_id", (json_int_t)p->game_id,
                  "level_id", (json_int_t)p->level_id, "collection_id",
                  (json_int_t)p->collection_id, "collection", http_json_text(p->collection_name),
                  "position", (int)p->position, "title", http_json_text(p->title), "moves",
                  (int)p->moves, "pushes", (int)p->pushes, "updated_at", http_json_time(p->at));
    json_object_set_new(o, "hints", json_integer(p->hints));
    json_object_set_new(o, "rule", json_integer(p->rule));
    return json_array_append_new(arg, o) != 0;
}

int progress_get(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user;
    if (!auth_user(c, AUTH_OPTIONAL, &user, &result))
        return result;
    json_t *solved = json_array(), *playing = json_array();
    int status = STORAGE_OK;
    if (user != 0) {
        status = storage_progress_solved(user, add_solved, solved);
        if (status == STORAGE_OK)
            status = storage_progress_games(user, add_game, playing);
    }
    if (status != STORAGE_OK) {
        json_decref(solved);
        json_decref(playing);
        return reply_storage_failure(c, status);
    }
    return reply_json(c, 200, json_pack("{s:o,s:o}", "solved", solved, "in_progress", playing));
}

/* A growing text buffer. */
struct text {
    char *data;
    size_t len, cap;
    bool failed;
    int64_t last_level;
};

static void add_text(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_text(struct text *t, const char *fmt, ...)
{
    if (t->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->data + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    if (n < 0) {
        t->failed = true;
        return;
    }
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = t->cap * 2;
        while (cap < t->len + (size_t)n + 1)
            cap *= 2;
        char *bigger = realloc(t->data, cap);
        if (bigger == NULL) {
            t->failed = true;
            return;
        }
        t->data = bigger;
        t->cap = cap;
        va_start(ap, fmt);
        vsnprintf(t->data + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
    }
    t->len += (size_t)n;
}

/* Writes one solution, with its level's board before the level's first one. */
static int add_solution(void *arg, const struct storage_solution *s)
{
    struct text *t = arg;
    if (s->level_id != t->last_level) {
        size_t blen = strlen(s->board);
        add_text(t, "\n%s%s", s->board, blen > 0 && s->board[blen - 1] == '\n' ? "" : "\n");
        if (s->title[0] != '\0')
            add_text(t, "Title: %s\n", s->title);
        else
            add_text(t, "Title: %s %u\n", s->collection_name, s->position);
        add_text(t, "Comment: level %u of %s\n", s->position, s->collection_name);
        t->last_level = s->level_id;
    }
    /* A multi-push line replays only under that rule (sokod replay
     * --multipush): its title says so. */
    add_text(t, "\nSolution %u/%u%s\n%s\n", s->moves, s->pushes,
             s->rule == 1 ? " (multi-push)" : "", s->lurd);
    return t->failed;
}

int progress_export(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user;
    if (!auth_user(c, AUTH_OPTIONAL, &user, &result))
        return result;
    struct text t = {.cap = 4096, .last_level = -1};
    t.data = malloc(t.cap);
    if (t.data == NULL)
        return reply_error(c, API_E_INTERNAL, "out of memory");
    t.data[0] = '\0';
    add_text(&t, "Collection: sokod solutions\n");
    int status = user != 0 ? storage_solutions_each(user, add_solution, &t) : STORAGE_OK;
    if (status != STORAGE_OK || t.failed) {
        free(t.data);
        return t.failed ? reply_error(c, API_E_INTERNAL, "out of memory")
                        : reply_storage_failure(c, status);
    }
    struct MHD_Response *r = MHD_create_response_from_buffer(t.len, t.data, MHD_RESPMEM_MUST_FREE);
    if (r == NULL) {
        free(t.data);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_DISPOSITION,
                            "attachment; filename=\"sokod-solutions.sok\"");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    return http_queue(c, 200, r, t.len);
}
