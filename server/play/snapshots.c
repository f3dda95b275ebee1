/* The saved positions' endpoints: /api/v1/games/{id}/snapshots. */
#include "play/snapshots.h"

#include "base/clock.h"
#include "base/utf8.h"
#include "http/body.h"
#include "play/game_cache.h"
#include "play/games.h"
#include "storage/storage_snapshots.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A position worked out for saving: its steps from the start, with the
 * case of what they did, and its counts. */
struct position {
    char *lurd; /* malloc'd */
    uint32_t moves, pushes;
    bool solved;
};

static json_t *snapshot_json(const struct storage_snapshot *s, bool with_lurd)
{
    json_t *o = json_pack("{s:I,s:s,s:i,s:i,s:b,s:o}", "id", (json_int_t)s->id, "name", s->name,
                          "moves", (int)s->moves, "pushes", (int)s->pushes, "solved", s->solved,
                          "created_at", http_json_time(s->created_at));
    if (o != NULL && with_lurd)
        json_object_set_new(o, "lurd", json_string(s->lurd));
    return o;
}

/* Characters of a UTF-8 string: the bytes that start one. */
static size_t utf8_chars(const char *s)
{
    size_t n = 0;
    for (; *s != '\0'; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* The name a player sent, on one line with blanks squeezed. Returns it
 * (malloc'd), or NULL after answering 400 and setting *result. */
static char *read_name(struct http_conn *c, const struct body_text *t, int *result)
{
    char *name = utf8_copy_line(t->text, t->len);
    if (name == NULL) {
        *result = reply_error(c, API_E_INTERNAL, "out of memory");
        return NULL;
    }
    if (name[0] != '\0' && utf8_chars(name) <= SNAPSHOTS_NAME_MAX)
        return name;
    if (name[0] == '\0')
        *result = reply_error(c, API_E_INVALID_VALUE, "'name' must not be empty");
    else
        *result = reply_error(c, API_E_INVALID_VALUE, "'name' is longer than %d characters",
                              SNAPSHOTS_NAME_MAX);
    free(name);
    return NULL;
}

/* Plays n directions from g's level start, under g's rule, into *p. Returns
 * SOKO_OK, or the core's refusal with *failed the index of the step. */
static int replay(const struct live_game *g, const uint8_t *dirs, uint32_t n, struct position *p,
                  uint32_t *failed)
{
    soko_game *game = malloc(sizeof *game);
    soko_entry_t *history = malloc(((size_t)n + 1) * sizeof *history);
    p->lurd = malloc((size_t)n + 1);
    int rc = SOKO_E_FULL;
    if (game != NULL && history != NULL && p->lurd != NULL) {
        play_init_core(g, game, history, n + 1);
        rc = soko_lurd_play(game, dirs, n, failed);
    }
    if (rc == SOKO_OK) {
        int32_t len = soko_lurd_encode(game, p->lurd, n + 1);
        p->lurd[len < 0 ? 0 : len] = '\0';
        p->moves = game->moves;
        p->pushes = game->pushes;
        p->solved = soko_game_solved(game);
    }
    free(history);
    free(game);
    return rc;
}

/* The position game g stands at: the steps since its last restart. */
static int current(const struct live_game *g, struct position *p)
{
    uint32_t n = 0;
    soko_entry_t *line = play_line(g, &n);
    if (line == NULL)
        return SOKO_E_FULL;
    p->lurd = malloc((size_t)n + 1);
    if (p->lurd == NULL) {
        free(line);
        return SOKO_E_FULL;
    }
    for (uint32_t i = 0; i < n; i++)
        p->lurd[i] = soko_lurd_letter(SOKO_ENTRY_DIR(line[i]), SOKO_ENTRY_PUSHED(line[i]) > 0);
    p->lurd[n] = '\0';
    free(line);
    p->moves = g->game.moves;
    p->pushes = g->game.pushes;
    p->solved = soko_game_solved(&g->game);
    return SOKO_OK;
}

/* Works out the position to save in game g: the steps sent (dirs, n of
 * them, when `sent`), else the game's own. Returns true, or false after
 * answering and setting *result. */
static bool position_of(struct http_conn *c, const struct live_game *g, bool sent,
                        const uint8_t *dirs, uint32_t n, struct position *p, int *result)
{
    uint32_t failed = 0;
    int rc = sent ? replay(g, dirs, n, p, &failed) : current(g, p);
    if (rc == SOKO_OK && strlen(p->lurd) <= SNAPSHOTS_STEPS_MAX)
        return true;
    if (rc == SOKO_OK)
        *result = reply_error(c, API_E_SNAPSHOT_TOO_LONG,
                              "the position is %zu steps from the start; a saved position holds "
                              "at most %u",
                              strlen(p->lurd), SNAPSHOTS_STEPS_MAX);
    else if (rc == SOKO_E_WALL)
        *result = reply_error(c, API_E_STEP_REFUSED, "step %u runs into a wall", failed + 1);
    else if (rc == SOKO_E_BLOCKED)
        *result =
            reply_error(c, API_E_STEP_REFUSED, "step %u pushes a box that cannot move", failed + 1);
    else
        *result = reply_error(c, API_E_INTERNAL, "out of memory");
    free(p->lurd);
    p->lurd = NULL;
    return false;
}

/* Decodes the steps sent into *dirs (malloc'd). Returns true, or false
 * after answering 400 or 422 and setting *result. */
static bool read_steps(struct http_conn *c, const struct body_text *t, uint8_t **dirs, uint32_t *n,
                       int *result)
{
    if (t->len > SNAPSHOTS_STEPS_MAX) {
        *result = reply_error(c, API_E_SNAPSHOT_TOO_LONG,
                              "'lurd' has %zu steps; a saved position holds at most %u", t->len,
                              SNAPSHOTS_STEPS_MAX);
        return false;
    }
    *dirs = malloc(t->len + 1);
    if (*dirs == NULL) {
        *result = reply_error(c, API_E_INTERNAL, "out of memory");
        return false;
    }
    uint32_t bad = 0;
    int32_t got = play_decode(t->text, *dirs, (uint32_t)t->len + 1, &bad);
    if (got >= 0) {
        /* A reverse game's position: upper case pulls. */
        play_mark_pulls(t->text, *dirs, (uint32_t)got);
        *n = (uint32_t)got;
        return true;
    }
    free(*dirs);
    *dirs = NULL;
    *result = reply_error(c, API_E_INVALID_STEPS, "'lurd' has '%c' at %u: not a step", t->text[bad],
                          bad + 1);
    return false;
}

/* Takes the requested game and gives back its id at once: the
 * endpoints below need only to know it is the caller's. Returns the id,
 * or 0 after answering and setting *result. */
static int64_t owned_game(struct http_conn *c, int *result)
{
    struct live_game *g = games_take_requested(c, result);
    if (g == NULL)
        return 0;
    int64_t id = g->id;
    game_cache_release(g);
    return id;
}

int snapshots_save(struct http_conn *c)
{
    int result = MHD_NO;
    struct body_text name_text = {0}, steps = {0};
    struct body_field spec[] = {
        body_text("name", &name_text),
        body_optional(body_text("lurd", &steps), NULL),
        body_end(),
    };
    json_t *body = body_parse(c, spec, &result);
    if (body == NULL)
        return result;
    uint8_t *dirs = NULL;
    uint32_t n = 0;
    char *name = read_name(c, &name_text, &result);
    bool ok = name != NULL && (steps.text == NULL || read_steps(c, &steps, &dirs, &n, &result));
    json_decref(body);
    struct live_game *g = ok ? games_take_requested(c, &result) : NULL;
    struct position p = {0};
    ok = g != NULL && position_of(c, g, steps.text != NULL, dirs, n, &p, &result);
    int64_t game = g != NULL ? g->id : 0;
    if (g != NULL)
        game_cache_release(g);
    free(dirs);
    if (!ok) {
        free(name);
        return result;
    }
    struct storage_snapshot s = {
        .game_id = game,
        .name = name,
        .lurd = p.lurd,
        .moves = p.moves,
        .pushes = p.pushes,
        .solved = p.solved,
        .created_at = clock_now(),
    };
    int status = storage_snapshot_add(&s, SNAPSHOTS_MAX, &s.id);
    if (status == STORAGE_OK)
        result = reply_json(c, 201, json_pack("{s:o}", "snapshot", snapshot_json(&s, true)));
    else if (status == STORAGE_CONFLICT)
        result =
            reply_error(c, API_E_TOO_MANY_SNAPSHOTS,
                        "a game holds at most %u saved positions: delete one first", SNAPSHOTS_MAX);
    else
        result = reply_storage_failure(c, status);
    free(name);
    free(p.lurd);
    return result;
}

static void add_to_list(const struct storage_snapshot *s, void *arg)
{
    json_array_append_new(arg, snapshot_json(s, false));
}

int snapshots_list(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t game = owned_game(c, &result);
    if (game == 0)
        return result;
    json_t *list = json_array();
    int status = list != NULL ? storage_snapshot_list(game, add_to_list, list) : STORAGE_ERROR;
    if (status != STORAGE_OK) {
        json_decref(list);
        return reply_storage_failure(c, status);
    }
    return reply_json(c, 200,
                      json_pack("{s:o,s:i,s:i,s:i}", "snapshots", list, "max", SNAPSHOTS_MAX,
                                "name_max", SNAPSHOTS_NAME_MAX, "steps_max", SNAPSHOTS_STEPS_MAX));
}

/* Answers 404 for the saved position the path names. */
static int no_snapshot(struct http_conn *c, int64_t game)
{
    return reply_error(c, API_E_SNAPSHOT_NOT_FOUND, "game %lld has no saved position %lld",
                       (long long)game, (long long)c->param[1]);
}

static void keep_one(const struct storage_snapshot *s, void *arg)
{
    *(json_t **)arg = snapshot_json(s, true);
}

int snapshots_get(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t game = owned_game(c, &result);
    if (game == 0)
        return result;
    json_t *one = NULL;
    int status = storage_snapshot_get(game, c->param[1], keep_one, &one);
    if (status == STORAGE_NOT_FOUND)
        return no_snapshot(c, game);
    if (status != STORAGE_OK || one == NULL) {
        json_decref(one);
        return reply_storage_failure(c, status != STORAGE_OK ? status : STORAGE_ERROR);
    }
    return reply_json(c, 200, json_pack("{s:o}", "snapshot", one));
}

int snapshots_delete(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t game = owned_game(c, &result);
    if (game == 0)
        return result;
    int status = storage_snapshot_delete(game, c->param[1]);
    if (status == STORAGE_NOT_FOUND)
        return no_snapshot(c, game);
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    return reply_json(c, 200, json_pack("{s:b}", "deleted", true));
}
