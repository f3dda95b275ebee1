/* Progress endpoints: what the caller solved and is playing, and an export
 * of its solutions as a level file. */
#include "play/progress.h"

#include "accounts/auth.h"
#include "http/streamed.h"
#include "storage/storage_games.h"
#include "storage/storage_levels.h"

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

/* The export is written as the client reads it (streamed.h): the keys of
 * 16 solutions at a time after the last one written whole, then for each
 * its level's text when it is the level's first, and its moves in slices
 * that fit the buffer. Each read is a short query of its own, so that no
 * statement stays open while the client is slow, and the connection holds
 * one buffer and a page of keys whatever the solutions' size. */

/* Solutions listed per query: the query sorts all the player's solutions,
 * so it runs once per page rather than once per solution. */
#define EXPORT_PAGE 16

struct export_stream {
    int64_t user;
    bool started;
    struct storage_solution page[EXPORT_PAGE];
    unsigned n, next;                  /* solutions in page, and the one to write */
    bool listed;                       /* the last page was read: it was not full */
    struct storage_solution_key after; /* the last solution written whole */
    int64_t last_level;                /* the level whose text was written last */
    bool open;                         /* page[next]'s moves are being written */
    size_t open_at;                    /* bytes of them written */
};

static int take_row(void *arg, const struct storage_solution *s)
{
    struct export_stream *x = arg;
    if (x->n == EXPORT_PAGE)
        return 1;
    x->page[x->n++] = *s;
    return 0;
}

struct level_text {
    struct streamed_out *out;
    bool fits;
};

/* A level's board, title and comment, before its first solution. */
static int write_level(void *arg, const struct storage_level *l)
{
    struct level_text *t = arg;
    size_t blen = strlen(l->board != NULL ? l->board : "");
    t->fits = streamed_printf(t->out, "\n%s%s", l->board != NULL ? l->board : "",
                              blen > 0 && l->board[blen - 1] == '\n' ? "" : "\n");
    if (t->fits && l->title[0] != '\0')
        t->fits = streamed_printf(t->out, "Title: %s\n", l->title);
    else if (t->fits)
        t->fits = streamed_printf(t->out, "Title: %s %u\n", l->collection_name, l->position);
    t->fits = t->fits &&
              streamed_printf(t->out, "Comment: level %u of %s\n", l->position, l->collection_name);
    return 0;
}

/* Writes what comes before a solution's moves, with its level's text
 * before the level's first one; sets *fits false (nothing written) when it
 * does not fit. */
static int write_head(struct export_stream *x, const struct storage_solution *s,
                      struct streamed_out *out, bool *fits)
{
    size_t mark = out->len;
    struct level_text t = {out, true};
    if (s->level_id != x->last_level) {
        int status = storage_level_get(s->level_id, 0, write_level, &t);
        if (status != STORAGE_OK)
            return status;
    }
    /* A multi-push line replays only under that rule (sokod replay
     * --multipush): its title says so. */
    t.fits = t.fits && streamed_printf(out, "\nSolution %u/%u%s\n", s->key.moves, s->key.pushes,
                                       s->rule == 1 ? " (multi-push)" : "");
    *fits = t.fits;
    if (!t.fits) {
        out->len = mark;
        return STORAGE_OK;
    }
    x->last_level = s->level_id;
    x->open = true;
    x->open_at = 0;
    return STORAGE_OK;
}

/* Writes as much of page[next]'s moves as fits, and its line's end after
 * the last: then the solution is written whole (x->open is false). */
static int write_moves(struct export_stream *x, struct streamed_out *out)
{
    const struct storage_solution *s = &x->page[x->next];
    for (;;) {
        size_t room = out->cap - out->len;
        if (room < 2)
            return STORAGE_OK;
        size_t got = 0, total = 0;
        int status = storage_solution_moves(s->key.id, x->open_at, out->data + out->len, room - 1,
                                            &got, &total);
        if (status != STORAGE_OK)
            return status;
        out->len += got;
        x->open_at += got;
        if (x->open_at >= total) {
            out->data[out->len++] = '\n';
            x->after = s->key;
            x->open = false;
            x->next++;
            return STORAGE_OK;
        }
        if (got == 0)
            return STORAGE_ERROR;
    }
}

static int export_fill(void *arg, struct streamed_out *out)
{
    struct export_stream *x = arg;
    if (!x->started) {
        x->started = true;
        streamed_printf(out, "Collection: sokod solutions\n");
        out->end = x->user == 0;
        return STORAGE_OK;
    }
    for (;;) {
        if (x->next == x->n) {
            if (x->listed) {
                out->end = true;
                return STORAGE_OK;
            }
            x->n = x->next = 0;
            int status = storage_solutions_page(x->user, &x->after, EXPORT_PAGE, take_row, x);
            if (status != STORAGE_OK)
                return status;
            x->listed = x->n < EXPORT_PAGE;
            continue;
        }
        if (!x->open) {
            bool fits = true;
            int status = write_head(x, &x->page[x->next], out, &fits);
            if (status != STORAGE_OK)
                return status;
            if (!fits)
                return out->len > 0 ? STORAGE_OK : STORAGE_ERROR;
        }
        int status = write_moves(x, out);
        if (status != STORAGE_OK || x->open)
            return status;
    }
}

int progress_export(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user;
    if (!auth_user(c, AUTH_OPTIONAL, &user, &result))
        return result;
    struct export_stream *x = calloc(1, sizeof *x);
    if (x == NULL)
        return reply_error(c, API_E_INTERNAL, "out of memory");
    x->user = user;
    x->last_level = -1;
    static const struct streamed_answer answer = {
        .content_type = "text/plain; charset=utf-8",
        .disposition = "attachment; filename=\"sokod-solutions.sok\"",
        .fill = export_fill,
    };
    return reply_streamed(c, &answer, x);
}
