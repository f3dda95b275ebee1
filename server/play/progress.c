/* Progress endpoints: what the caller solved and is playing, and an export
 * of its solutions as a level file. */
#include "play/progress.h"

#include "accounts/auth.h"
#include "http/streamed.h"
#include "storage/storage_games.h"

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

/* The export is written as the client reads it (streamed.h): a page of
 * solutions at a time after the last one written whole, and the moves of a
 * long one in slices, each a short query of its own, so that no statement
 * stays open while the client is slow and the connection holds one buffer
 * whatever the solutions' size. */

/* Solutions read per query; those not written before the buffer is full
 * are read again with the next page. */
#define EXPORT_PAGE 16

/* One solution of a page, copied out of its statement. */
struct export_row {
    struct storage_solution_key key;
    int64_t level_id;
    char *collection_name, *title, *board;
    int rule;
};

struct export_page {
    struct export_row rows[EXPORT_PAGE];
    unsigned n;
    bool oom;
};

struct export_stream {
    int64_t user;
    bool started;
    int64_t last_level;                /* the level whose board was written last */
    struct storage_solution_key after; /* the last solution written whole */
    struct storage_solution_key open;  /* the one whose moves are being written (id 0: none) */
    size_t open_at;                    /* bytes of its moves written */
};

static int take_row(void *arg, const struct storage_solution *s)
{
    struct export_page *p = arg;
    if (p->n == EXPORT_PAGE)
        return 1;
    struct export_row *r = &p->rows[p->n++];
    r->key =
        (struct storage_solution_key){s->collection_id, s->position, s->moves, s->pushes, s->id};
    r->level_id = s->level_id;
    r->rule = s->rule;
    r->collection_name = strdup(s->collection_name);
    r->title = strdup(s->title);
    r->board = strdup(s->board);
    p->oom = p->oom || r->collection_name == NULL || r->title == NULL || r->board == NULL;
    return p->oom;
}

static void page_free(struct export_page *p)
{
    for (unsigned i = 0; i < p->n; i++) {
        free(p->rows[i].collection_name);
        free(p->rows[i].title);
        free(p->rows[i].board);
    }
}

/* Writes what comes before a solution's moves, with its level's board
 * before the level's first one; false (nothing written) when it does not
 * fit. */
static bool write_head(struct export_stream *x, const struct export_row *r,
                       struct streamed_out *out)
{
    size_t mark = out->len;
    bool fits = true;
    if (r->level_id != x->last_level) {
        size_t blen = strlen(r->board);
        fits = streamed_printf(out, "\n%s%s", r->board,
                               blen > 0 && r->board[blen - 1] == '\n' ? "" : "\n");
        if (fits && r->title[0] != '\0')
            fits = streamed_printf(out, "Title: %s\n", r->title);
        else if (fits)
            fits = streamed_printf(out, "Title: %s %u\n", r->collection_name, r->key.position);
        fits = fits && streamed_printf(out, "Comment: level %u of %s\n", r->key.position,
                                       r->collection_name);
    }
    /* A multi-push line replays only under that rule (sokod replay
     * --multipush): its title says so. */
    fits = fits && streamed_printf(out, "\nSolution %u/%u%s\n", r->key.moves, r->key.pushes,
                                   r->rule == 1 ? " (multi-push)" : "");
    if (!fits) {
        out->len = mark;
        return false;
    }
    x->last_level = r->level_id;
    x->open = r->key;
    x->open_at = 0;
    return true;
}

/* Writes as much of the open solution's moves as fits, and its line's end
 * after the last: then the solution is closed (x->open.id is 0). */
static int write_moves(struct export_stream *x, struct streamed_out *out)
{
    for (;;) {
        size_t room = out->cap - out->len;
        if (room < 2)
            return STORAGE_OK;
        size_t got = 0, total = 0;
        int status = storage_solution_moves(x->open.id, x->open_at, out->data + out->len, room - 1,
                                            &got, &total);
        if (status != STORAGE_OK)
            return status;
        out->len += got;
        x->open_at += got;
        if (x->open_at >= total) {
            out->data[out->len++] = '\n';
            x->after = x->open;
            x->open.id = 0;
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
        int status = STORAGE_OK;
        if (x->open.id != 0) {
            status = write_moves(x, out);
            if (status != STORAGE_OK || x->open.id != 0)
                return status;
        }
        struct export_page page = {0};
        status = storage_solutions_page(x->user, &x->after, EXPORT_PAGE, take_row, &page);
        if (page.oom)
            status = STORAGE_ERROR;
        bool full = false;
        for (unsigned i = 0; status == STORAGE_OK && !full && i < page.n; i++) {
            if (!write_head(x, &page.rows[i], out))
                full = true;
            else
                status = write_moves(x, out);
            full = full || x->open.id != 0;
        }
        unsigned n = page.n;
        page_free(&page);
        if (status != STORAGE_OK)
            return status;
        if (full)
            return out->len > 0 ? STORAGE_OK : STORAGE_ERROR;
        if (n < EXPORT_PAGE) {
            out->end = true;
            return STORAGE_OK;
        }
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
