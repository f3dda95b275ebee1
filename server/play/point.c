/* Point mode: walk to a square, push a box to a square, and where a box can go. */
#include "play/point.h"

#include "http/body.h"
#include "play/game_cache.h"
#include "play/games.h"
#include "play/path_scratch.h"
#include "storage/storage_games.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The longest path point mode returns, in steps. */
#define PATH_CAP (1u << 20)

/* The calling thread's path-finding memory, or NULL. */
static soko_path_scratch *scratch(void)
{
    return path_scratch();
}

/* A square of the request, checked against the board. */
struct square {
    int64_t x, y;
};

static bool on_board(const struct live_game *g, struct square q)
{
    return q.x >= 0 && q.y >= 0 && q.x < g->level.width && q.y < g->level.height;
}

static soko_cell cell_of(const struct live_game *g, struct square q)
{
    return (soko_cell)(q.y * g->level.width + q.x);
}

/* Fills *a for a path that the core could not find, with the game. */
static bool refuse(struct games_answer *a, struct live_game *g, int code)
{
    if (code == SOKO_E_RANGE)
        games_refuse(a, API_E_NO_BOX, g, "there is no box on that square");
    else if (code == SOKO_E_FULL)
        games_refuse(a, API_E_NO_PATH, g, "that path is longer than %u steps", PATH_CAP);
    else
        games_refuse(a, API_E_NO_PATH, g, "there is no way there");
    return false;
}

static bool off_board(struct games_answer *a, struct live_game *g)
{
    games_refuse(a, API_E_OFF_BOARD, g, "that square is not on the %ux%u board", g->level.width,
                 g->level.height);
    return false;
}

struct point_request {
    struct square box, to;
    bool push;
};

static bool prepare_path(struct live_game *g, struct games_entry *e, struct games_answer *a)
{
    const struct point_request *p = e->arg;
    if (p->push && g->game.rule == SOKO_RULE_REVERSE) {
        games_refuse(a, API_E_REVERSE_GAME, g, "boxes are pulled in a reverse game, not pushed");
        return false;
    }
    if (!on_board(g, p->to) || (p->push && !on_board(g, p->box)))
        return off_board(a, g);
    soko_path_scratch *s = scratch();
    e->dirs = malloc(PATH_CAP);
    if (s == NULL || e->dirs == NULL) {
        games_refuse(a, API_E_INTERNAL, NULL, "out of memory");
        return false;
    }
    int32_t n = p->push ? soko_path_box_push(&g->game, cell_of(g, p->box), cell_of(g, p->to), s,
                                             e->dirs, PATH_CAP)
                        : soko_path_walk(&g->game, cell_of(g, p->to), s, e->dirs, PATH_CAP);
    if (n < 0)
        return refuse(a, g, n);
    e->ndirs = (uint32_t)n;
    return true;
}

/* Reads the square {"x": ..., "y": ...} obj into q; false after answering
 * 400. */
static bool read_square(struct http_conn *c, json_t *obj, const char *where, struct square *q,
                        int *result)
{
    json_int_t x = 0, y = 0;
    struct body_field spec[] = {body_integer("x", &x), body_integer("y", &y), body_end()};
    if (!body_check(c, obj, where, spec, result))
        return false;
    q->x = x;
    q->y = y;
    return true;
}

int point_walk(struct http_conn *c)
{
    int result = MHD_NO;
    json_int_t seq = 0, x = 0, y = 0;
    struct body_field spec[] = {
        games_seq_field(&seq),
        body_integer("x", &x),
        body_integer("y", &y),
        body_end(),
    };
    json_t *body = body_parse(c, spec, &result);
    if (body == NULL)
        return result;
    json_decref(body);
    struct games_entry e = {
        .seq = (uint32_t)seq, .kind = STORAGE_LOG_STEPS, .prepare = prepare_path};
    struct point_request p = {.push = false, .to = {x, y}};
    e.arg = &p;
    e.arg_size = sizeof p;
    snprintf(e.request, sizeof e.request, "walk %lld %lld", (long long)p.to.x, (long long)p.to.y);
    return games_submit(c, c->param[0], &e);
}

int point_push(struct http_conn *c)
{
    int result = MHD_NO;
    json_int_t seq = 0;
    json_t *box = NULL, *to = NULL;
    struct body_field spec[] = {
        games_seq_field(&seq),
        body_object("box", &box),
        body_object("to", &to),
        body_end(),
    };
    json_t *body = body_parse(c, spec, &result);
    if (body == NULL)
        return result;
    struct games_entry e = {
        .seq = (uint32_t)seq, .kind = STORAGE_LOG_STEPS, .prepare = prepare_path};
    struct point_request p = {.push = true};
    bool ok =
        read_square(c, box, "'box'", &p.box, &result) && read_square(c, to, "'to'", &p.to, &result);
    json_decref(body);
    if (!ok)
        return result;
    e.arg = &p;
    e.arg_size = sizeof p;
    snprintf(e.request, sizeof e.request, "push %lld %lld %lld %lld", (long long)p.box.x,
             (long long)p.box.y, (long long)p.to.x, (long long)p.to.y);
    return games_submit(c, c->param[0], &e);
}

/* Reads a query argument as a small integer; false when absent or not one. */
static bool query_int(struct http_conn *c, const char *name, int64_t *out)
{
    const char *v = http_query(c, name);
    if (v == NULL || v[0] == '\0')
        return false;
    char *end = NULL;
    errno = 0;
    long long n = strtoll(v, &end, 10);
    if (errno != 0 || *end != '\0' || n < -1000000 || n > 1000000)
        return false;
    *out = n;
    return true;
}

int point_reach(struct http_conn *c)
{
    int result = MHD_NO;
    struct square box;
    if (!query_int(c, "x", &box.x) || !query_int(c, "y", &box.y))
        return reply_error(c, API_E_INVALID_VALUE,
                           "give the box's square as ?x=...&y=... (integers)");
    struct live_game *g = games_take_requested(c, &result);
    if (g == NULL)
        return result;
    uint8_t *reach = malloc(SOKO_MAX_CELLS);
    soko_path_scratch *s = scratch();
    struct games_answer a = {0};
    if (reach == NULL || s == NULL) {
        result = reply_error(c, API_E_INTERNAL, "out of memory");
    } else if (g->game.rule == SOKO_RULE_REVERSE) {
        games_refuse(&a, API_E_REVERSE_GAME, g, "boxes are pulled in a reverse game, not pushed");
        result = games_reply(c, &a);
    } else if (!on_board(g, box)) {
        off_board(&a, g);
        result = games_reply(c, &a);
    } else {
        int32_t n = soko_path_box_reach(&g->game, cell_of(g, box), s, reach);
        if (n < 0) {
            refuse(&a, g, n);
            result = games_reply(c, &a);
        } else {
            json_t *squares = json_array();
            unsigned w = g->level.width, cells = w * g->level.height;
            for (unsigned i = 0; i < cells; i++) {
                if (reach[i])
                    json_array_append_new(squares, json_pack("[i,i]", (int)(i % w), (int)(i / w)));
            }
            result =
                reply_json(c, 200,
                           json_pack("{s:{s:I,s:I},s:o,s:i}", "box", "x", (json_int_t)box.x, "y",
                                     (json_int_t)box.y, "squares", squares, "seq", (int)g->seq));
        }
    }
    free(reach);
    game_cache_release(g);
    return result;
}
