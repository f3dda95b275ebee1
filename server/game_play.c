/* Live games: replaying logs through the core, applying new entries. */
#include "game_play.h"

#include "board.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIRST_HISTORY 256

/* Doubles the history buffer; false at PLAY_MAX_HISTORY or out of memory. */
static bool grow(struct live_game *g)
{
    uint32_t cap = g->game.history_cap;
    if (cap >= PLAY_MAX_HISTORY)
        return false;
    uint32_t bigger = cap * 2 > PLAY_MAX_HISTORY ? PLAY_MAX_HISTORY : cap * 2;
    soko_entry_t *h = realloc(g->game.history, (size_t)bigger * sizeof *h);
    if (h == NULL)
        return false;
    g->game.history = h;
    g->game.history_cap = bigger;
    return true;
}

static void note_solution(struct live_game *g, struct play_result *res)
{
    if (res->nsolutions == PLAY_MAX_SOLUTIONS || g->game.moves == 0)
        return;
    size_t cap = (size_t)g->game.cursor + 1;
    char *lurd = malloc(cap);
    if (lurd == NULL)
        return;
    int32_t len = soko_lurd_encode(&g->game, lurd, (uint32_t)cap);
    if (len < 0) {
        free(lurd);
        return;
    }
    lurd[len] = '\0';
    struct play_solution *s = &res->solution[res->nsolutions++];
    s->moves = g->game.moves;
    s->pushes = g->game.pushes;
    s->lurd = lurd;
}

/* Runs one primitive operation of an entry, growing the history when the
 * core asks for room. */
static int one_step(struct live_game *g, int kind, int dir)
{
    for (;;) {
        int rc;
        switch (kind) {
        case STORAGE_LOG_STEPS:
            rc = soko_game_step(&g->game, dir);
            break;
        case STORAGE_LOG_UNDO:
            rc = soko_game_undo(&g->game);
            break;
        case STORAGE_LOG_REDO:
            rc = soko_game_redo(&g->game);
            break;
        default:
            rc = soko_game_restart(&g->game);
            break;
        }
        if (rc != SOKO_E_FULL)
            return rc < 0 ? rc : SOKO_OK;
        if (!grow(g))
            return SOKO_E_FULL;
    }
}

int play_apply(struct live_game *g, const struct play_entry *e, bool record,
               struct play_result *res)
{
    memset(res, 0, sizeof *res);
    uint32_t n = e->kind == STORAGE_LOG_STEPS     ? e->ndirs
                 : e->kind == STORAGE_LOG_RESTART ? 1
                                                  : e->count;
    if (e->kind == STORAGE_LOG_UNDO && g->game.cursor < n) {
        res->code = SOKO_E_NOTHING;
        return res->code;
    }
    if (e->kind == STORAGE_LOG_REDO && soko_game_redo_count(&g->game) < n) {
        res->code = SOKO_E_NOTHING;
        return res->code;
    }
    for (uint32_t i = 0; i < n; i++) {
        bool was_solved = soko_game_solved(&g->game);
        int rc = one_step(g, e->kind, e->kind == STORAGE_LOG_STEPS ? e->dirs[i] : 0);
        if (rc != SOKO_OK) {
            res->code = rc;
            res->failed = i;
            return rc;
        }
        res->changed = true;
        if (record && !was_solved && soko_game_solved(&g->game))
            note_solution(g, res);
    }
    return SOKO_OK;
}

void play_result_clear(struct play_result *res)
{
    for (unsigned i = 0; i < res->nsolutions; i++)
        free(res->solution[i].lurd);
    res->nsolutions = 0;
}

int32_t play_decode(const char *text, uint8_t *dirs, uint32_t cap, uint32_t *bad)
{
    uint32_t n = 0;
    for (const char *p = text; *p != '\0'; p++) {
        int d;
        switch (*p) {
        case 'u':
        case 'U':
            d = SOKO_UP;
            break;
        case 'r':
        case 'R':
            d = SOKO_RIGHT;
            break;
        case 'd':
        case 'D':
            d = SOKO_DOWN;
            break;
        case 'l':
        case 'L':
            d = SOKO_LEFT;
            break;
        default:
            *bad = (uint32_t)(p - text);
            return -1;
        }
        if (n == cap) {
            *bad = (uint32_t)(p - text);
            return -1;
        }
        dirs[n++] = (uint8_t)d;
    }
    return (int32_t)n;
}

int32_t play_letters(const struct live_game *g, uint32_t from, uint32_t to, char *out, size_t cap)
{
    if (to < from || (size_t)(to - from) + 1 > cap)
        return -1;
    size_t n = 0;
    for (uint32_t i = from; i < to; i++) {
        soko_entry_t e = g->game.history[i];
        out[n++] = e == SOKO_ENTRY_RESTART
                       ? '*'
                       : soko_lurd_letter(SOKO_ENTRY_DIR(e), SOKO_ENTRY_PUSHED(e) > 0);
    }
    out[n] = '\0';
    return (int32_t)n;
}

/* Appends "key":"letters of history [from, to)" to b. */
static void write_letters(struct textbuf *b, const char *key, const struct live_game *g,
                          uint32_t from, uint32_t to)
{
    textbuf_puts(b, key);
    size_t cap = (size_t)(to - from) + 1;
    char *out = textbuf_room(b, cap + 1);
    if (out == NULL)
        return;
    *out = '"';
    int32_t n = play_letters(g, from, to, out + 1, cap);
    b->len += (size_t)n + 1;
    textbuf_put(b, "\"", 1);
}

/* Appends the members the summary and the whole state share, from "id" to
 * "boxes_on_goal", after an opening brace. */
static void write_counts(const struct live_game *g, struct textbuf *b)
{
    const soko_game *s = &g->game;
    textbuf_puts(b, "{\"id\":");
    textbuf_int(b, g->id);
    textbuf_puts(b, ",\"level_id\":");
    textbuf_int(b, g->level_id);
    textbuf_puts(b, ",\"rule\":");
    textbuf_int(b, s->rule);
    textbuf_puts(b, ",\"seq\":");
    textbuf_int(b, g->seq);
    textbuf_puts(b, ",\"moves\":");
    textbuf_int(b, s->moves);
    textbuf_puts(b, ",\"pushes\":");
    textbuf_int(b, s->pushes);
    textbuf_puts(b, soko_game_solved(s) ? ",\"solved\":true" : ",\"solved\":false");
    textbuf_puts(b, ",\"hints\":");
    textbuf_int(b, g->hints);
    textbuf_puts(b, ",\"boxes_on_goal\":");
    textbuf_int(b, s->boxes_on_goal);
}

/* Appends the player's square, the undo and redo depths, and the position's
 * Zobrist hash. */
static void write_player_and_depths(const struct live_game *g, struct textbuf *b)
{
    const soko_game *s = &g->game;
    unsigned w = g->level.width;
    textbuf_puts(b, ",\"player\":{\"x\":");
    textbuf_int(b, s->player % w);
    textbuf_puts(b, ",\"y\":");
    textbuf_int(b, s->player / w);
    textbuf_puts(b, "},\"undo_available\":");
    textbuf_int(b, s->cursor);
    textbuf_puts(b, ",\"redo_available\":");
    textbuf_int(b, soko_game_redo_count(s));
    char hash[32];
    snprintf(hash, sizeof hash, ",\"hash\":\"%016llx\"", (unsigned long long)s->hash);
    textbuf_puts(b, hash);
}

void play_summary_write(const struct live_game *g, struct textbuf *b)
{
    write_counts(g, b);
    write_player_and_depths(g, b);
    textbuf_put(b, "}", 1);
}

void play_state_write(const struct live_game *g, struct textbuf *b)
{
    const soko_game *s = &g->game;
    unsigned w = g->level.width, h = g->level.height;
    write_counts(g, b);
    textbuf_puts(b, ",\"rows\":");
    board_rows_json(s->cell, w, h, s->player, b);
    write_player_and_depths(g, b);
    textbuf_puts(b, ",\"level\":{\"id\":");
    textbuf_int(b, g->level_id);
    textbuf_puts(b, ",\"collection_id\":");
    textbuf_int(b, g->collection_id);
    textbuf_puts(b, ",\"position\":");
    textbuf_int(b, g->position);
    textbuf_puts(b, ",\"title\":");
    textbuf_json_string(b, g->title, strlen(g->title));
    textbuf_puts(b, ",\"width\":");
    textbuf_int(b, w);
    textbuf_puts(b, ",\"height\":");
    textbuf_int(b, h);
    textbuf_puts(b, ",\"boxes\":");
    textbuf_int(b, g->level.boxes);
    textbuf_puts(b, ",\"rows\":");
    board_rows_json(g->level.cell, w, h, g->level.player, b);
    /* The LURD since the last restart: what a solution would record. */
    textbuf_puts(b, "},\"lurd\":\"");
    char *out = textbuf_room(b, (size_t)s->cursor + 1);
    if (out != NULL) {
        int32_t n = soko_lurd_encode(s, out, s->cursor + 1);
        b->len += n > 0 ? (size_t)n : 0;
    }
    textbuf_put(b, "\"", 1);
    write_letters(b, ",\"history\":", g, 0, s->cursor);
    write_letters(b, ",\"redo\":", g, s->cursor, s->history_len);
    textbuf_put(b, "}", 1);
}

json_t *play_state(const struct live_game *g)
{
    struct textbuf b = {0};
    play_state_write(g, &b);
    if (b.failed)
        return NULL;
    json_t *state = json_loadb(b.data, b.len, 0, NULL);
    textbuf_free(&b);
    return state;
}

/* Context of a rebuild: the game, and whether the log stayed consistent. */
struct replay {
    struct live_game *g;
    int status;
    uint8_t *dirs;
    uint32_t cap;
};

static int replay_entry(void *arg, const struct storage_log_entry *e)
{
    struct replay *r = arg;
    struct live_game *g = r->g;
    if (e->seq != g->seq + 1 || e->kind < 0) {
        fprintf(stderr, "sokod: game %lld: log entry %u out of order or of no known kind\n",
                (long long)g->id, e->seq);
        r->status = STORAGE_ERROR;
        return 1;
    }
    struct play_entry pe = {.kind = e->kind, .count = e->count};
    if (e->kind == STORAGE_LOG_STEPS) {
        size_t len = strlen(e->steps);
        if (len > r->cap) {
            uint8_t *bigger = realloc(r->dirs, len);
            if (bigger == NULL) {
                r->status = STORAGE_ERROR;
                return 1;
            }
            r->dirs = bigger;
            r->cap = (uint32_t)len;
        }
        uint32_t bad = 0;
        int32_t n = play_decode(e->steps, r->dirs, r->cap, &bad);
        if (n < 0) {
            fprintf(stderr, "sokod: game %lld: log entry %u holds '%c'\n", (long long)g->id, e->seq,
                    e->steps[bad]);
            r->status = STORAGE_ERROR;
            return 1;
        }
        pe.dirs = r->dirs;
        pe.ndirs = (uint32_t)n;
    }
    struct play_result res;
    if (play_apply(g, &pe, false, &res) != SOKO_OK) {
        fprintf(stderr, "sokod: game %lld: the core refuses log entry %u (%s)\n", (long long)g->id,
                e->seq, soko_error_name(res.code));
        r->status = STORAGE_ERROR;
        return 1;
    }
    g->seq = e->seq;
    return 0;
}

/* Reads the level of the game into g. */
static int take_level(void *arg, const struct storage_level *l)
{
    struct replay *r = arg;
    struct live_game *g = r->g;
    soko_error err;
    const char *board = l->board != NULL ? l->board : "";
    if (soko_level_parse(&g->level, board, (uint32_t)strlen(board), 1, &err) != SOKO_OK) {
        fprintf(stderr, "sokod: level %lld: stored board refused: %s\n", (long long)l->id,
                err.message);
        r->status = STORAGE_ERROR;
        return 1;
    }
    g->collection_id = l->collection_id;
    g->position = l->position;
    size_t n = strlen(l->title);
    if (n >= sizeof g->title) {
        /* Cut at a character boundary: the title is UTF-8. */
        n = sizeof g->title - 1;
        while (n > 0 && ((unsigned char)l->title[n] & 0xC0) == 0x80)
            n--;
    }
    memcpy(g->title, l->title, n);
    g->title[n] = '\0';
    return 0;
}

int play_rebuild(struct live_game *g)
{
    g->valid = false;
    struct storage_game row;
    int status = storage_game_get(g->id, &row);
    if (status != STORAGE_OK)
        return status;
    g->user_id = row.user_id;
    g->level_id = row.level_id;
    g->room_id = row.room_id;
    g->round = row.round;
    g->hints = row.hints;
    struct replay r = {.g = g, .status = STORAGE_OK};
    status = storage_level_get(row.level_id, 0, take_level, &r);
    if (status == STORAGE_STOP || r.status != STORAGE_OK)
        return STORAGE_ERROR;
    if (status != STORAGE_OK)
        return status;
    if (g->game.history == NULL) {
        g->game.history = malloc(FIRST_HISTORY * sizeof *g->game.history);
        if (g->game.history == NULL)
            return STORAGE_ERROR;
        g->game.history_cap = FIRST_HISTORY;
    }
    soko_entry_t *history = g->game.history;
    uint32_t cap = g->game.history_cap;
    soko_game_init(&g->game, &g->level, row.rule, history, cap);
    g->seq = 0;
    status = storage_log_each(g->id, replay_entry, &r);
    free(r.dirs);
    if (status == STORAGE_STOP || r.status != STORAGE_OK)
        return STORAGE_ERROR;
    if (status != STORAGE_OK)
        return status;
    g->valid = true;
    return STORAGE_OK;
}

void play_free(struct live_game *g)
{
    free(g->game.history);
    g->game.history = NULL;
}
