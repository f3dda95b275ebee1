/* Live games: replaying logs through the core, applying new entries. */
#include "play/game_play.h"

#include "base/board.h"
#include "play/path_scratch.h"
#include "storage/storage_games.h"
#include "storage/storage_levels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIRST_HISTORY 256
/* The raw window: two chunks, so that the cursor moves a whole chunk
 * between two slides whichever way it goes. */
#define WINDOW (2 * HISTORY_CHUNK)
#define C HISTORY_CHUNK

/* Why old history stays in memory, deflated, rather than read back from
 * the database when an undo reaches it: the database holds the log of
 * entries (steps, undo, redo, restart), not the history by position, so
 * reading it back means replaying the log, which a client could make
 * sokod do again and again with two cheap undos. Deflated chunks cost
 * about 2.2 bits an entry for the least compressible play (a random walk
 * of legal steps: some 1.1 MiB at SOKO_MAX_HISTORY) and far less for
 * ordinary play; moving the window costs an inflate, and a deflate when
 * the chunk left behind was written to, once per HISTORY_CHUNK entries. */

void play_init_core(const struct live_game *g, soko_game *s, soko_entry_t *history, uint32_t cap)
{
    soko_cell start = g->game.start;
    int rule = g->game.rule;
    soko_game_init(s, &g->level, rule, history, cap);
    if (rule == SOKO_RULE_REVERSE)
        soko_game_set_start(s, start);
}

void play_mark_pulls(const char *steps, uint8_t *dirs, uint32_t n)
{
    for (uint32_t i = 0; i < n && steps[i] != '\0'; i++) {
        if (steps[i] >= 'A' && steps[i] <= 'Z')
            dirs[i] |= SOKO_STEP_PULL;
    }
}

uint32_t play_cursor(const struct live_game *g)
{
    return g->base + g->game.cursor;
}

uint32_t play_redo_count(const struct live_game *g)
{
    return g->length - play_cursor(g);
}

/* Doubles the raw window up to WINDOW; only while it holds the whole
 * history. False out of memory. */
static bool grow(struct live_game *g)
{
    uint32_t bigger = g->game.history_cap * 2 > WINDOW ? WINDOW : g->game.history_cap * 2;
    soko_entry_t *h = realloc(g->game.history, (size_t)bigger * sizeof *h);
    if (h == NULL)
        return false;
    g->game.history = h;
    g->game.history_cap = bigger;
    return true;
}

/* A chunk in the window keeps its deflated copy until an entry is written
 * in it, so that undo and redo, which write nothing, move the window at
 * the cost of an inflate alone. */

/* Deflates window entries [at, at + n) as chunk k unless its copy is kept. */
static bool keep_chunk(struct live_game *g, uint32_t k, uint32_t at, uint32_t n)
{
    return history_has(&g->store, k) || history_store(&g->store, k, g->game.history + at, n) == 0;
}

/* Moves the window one chunk up: its lower chunk goes to the store and the
 * chunk above it, if any, comes in. The cursor must be in the upper chunk. */
static bool slide_up(struct live_game *g)
{
    soko_game *s = &g->game;
    soko_entry_t *win = s->history;
    if (s->history_cap < WINDOW || s->cursor < C || !keep_chunk(g, g->base / C, 0, C))
        return false;
    memmove(win, win + C, (size_t)(s->history_len - C) * sizeof *win);
    s->history_len -= C;
    s->cursor -= C;
    g->base += C;
    if (g->length > g->base + s->history_len) {
        int32_t n = history_load(&g->store, g->base / C + 1, win + C);
        if (n < 0) {
            g->valid = false; /* half moved: rebuilt before its next use */
            return false;
        }
        s->history_len = C + (uint32_t)n;
    }
    return true;
}

/* Moves the window one chunk down: its upper chunk goes to the store and
 * the chunk below comes in. The cursor must be at the window's start. */
static bool slide_down(struct live_game *g)
{
    soko_game *s = &g->game;
    soko_entry_t *win = s->history;
    if (g->base == 0 || s->history_cap < WINDOW)
        return false;
    soko_entry_t *below = malloc(C * sizeof *below);
    if (below == NULL)
        return false;
    int32_t n = history_load(&g->store, g->base / C - 1, below);
    uint32_t keep = s->history_len < C ? s->history_len : C;
    if (n != (int32_t)C ||
        (s->history_len > C && !keep_chunk(g, g->base / C + 1, C, s->history_len - C))) {
        free(below);
        return false;
    }
    memmove(win + C, win, (size_t)keep * sizeof *win);
    memcpy(win, below, C * sizeof *win);
    free(below);
    g->base -= C;
    s->cursor += C;
    s->history_len = C + keep;
    return true;
}

/* After an entry was recorded before the cursor: the redo stack is gone,
 * in the window (the core cut it) and in the store, and the copy of the
 * chunk written to is stale. */
static void cut_redo(struct live_game *g)
{
    g->length = g->base + g->game.history_len;
    history_cut(&g->store, (g->length + C - 1) / C);
    history_drop(&g->store, (g->length - 1) / C);
}

/* The position after the last restart before abs index `at`, or 0. Reads
 * the window, then the stored chunks below it. */
static int64_t line_start(const struct live_game *g, uint32_t at)
{
    const soko_game *s = &g->game;
    for (uint32_t i = at; i > g->base; i--) {
        if (s->history[i - 1 - g->base] == SOKO_ENTRY_RESTART)
            return i;
    }
    if (g->base == 0)
        return 0;
    soko_entry_t *buf = malloc(C * sizeof *buf);
    if (buf == NULL)
        return -1;
    for (uint32_t k = g->base / C; k > 0; k--) {
        if (history_load(&g->store, k - 1, buf) != (int32_t)C) {
            free(buf);
            return -1;
        }
        for (uint32_t i = C; i > 0; i--) {
            if (buf[i - 1] == SOKO_ENTRY_RESTART) {
                free(buf);
                return (int64_t)(k - 1) * C + i;
            }
        }
    }
    free(buf);
    return 0;
}

/* Puts the window back where it covers abs index `at`, with the position
 * at the level's start and the cursor at `at`. */
static bool window_at_start(struct live_game *g, uint32_t at)
{
    soko_game *s = &g->game;
    soko_entry_t *win = s->history;
    uint32_t k = g->base / C;
    uint32_t low = s->history_len < C ? s->history_len : C;
    if (!keep_chunk(g, k, 0, low) ||
        (s->history_len > C && !keep_chunk(g, k + 1, C, s->history_len - C)))
        return false;
    g->base = at / C * C;
    int32_t n = history_load(&g->store, g->base / C, win);
    if (n < 0)
        return false;
    uint32_t len = (uint32_t)n;
    if (len == C && g->length > g->base + C) {
        int32_t more = history_load(&g->store, g->base / C + 1, win + C);
        if (more < 0)
            return false;
        len += (uint32_t)more;
    }
    play_init_core(g, s, win, WINDOW);
    s->history_len = len;
    s->cursor = at - g->base;
    return true;
}

/* Undoes the restart before the cursor when the line it ended started
 * below the window: the core would look for that start in the window
 * alone. Replays the line from its start, as the core does. */
static int undo_far_restart(struct live_game *g)
{
    uint32_t at = play_cursor(g) - 1;
    int64_t from = line_start(g, at);
    if (from < 0)
        return SOKO_E_FULL;
    /* Out of memory from here on, the game is half moved: rebuilt before
     * its next use. */
    if (!window_at_start(g, (uint32_t)from)) {
        g->valid = false;
        return SOKO_E_FULL;
    }
    for (uint32_t i = (uint32_t)from; i < at; i++) {
        soko_game *s = &g->game;
        if (s->cursor == s->history_len && !slide_up(g)) {
            g->valid = false;
            return SOKO_E_FULL;
        }
        int rc = soko_game_redo(s);
        if (rc < 0) {
            g->valid = false;
            return rc;
        }
    }
    return SOKO_OK;
}

static int undo(struct live_game *g)
{
    soko_game *s = &g->game;
    if (s->cursor == 0 && g->base > 0 && !slide_down(g))
        return SOKO_E_FULL;
    if (s->cursor > 0 && s->history[s->cursor - 1] == SOKO_ENTRY_RESTART && g->base > 0) {
        bool in_window = false;
        for (uint32_t i = s->cursor - 1; i > 0 && !in_window; i--)
            in_window = s->history[i - 1] == SOKO_ENTRY_RESTART;
        if (!in_window)
            return undo_far_restart(g);
    }
    return soko_game_undo(s);
}

static int redo(struct live_game *g)
{
    soko_game *s = &g->game;
    if (s->cursor == s->history_len && play_redo_count(g) > 0 && !slide_up(g))
        return SOKO_E_FULL;
    return soko_game_redo(s);
}

/* Makes room in the window for an entry at the cursor; false at
 * PLAY_MAX_HISTORY or out of memory. */
static bool make_room(struct live_game *g)
{
    if (play_cursor(g) >= PLAY_MAX_HISTORY)
        return false;
    if (g->game.history_cap < WINDOW)
        return grow(g);
    return slide_up(g);
}

/* Plays dirs forward from the level's start; true when they solve it. */
static bool replay_forward(const soko_level *lvl, const uint8_t *dirs, uint32_t n, uint32_t *moves,
                           uint32_t *pushes)
{
    soko_game *fw = malloc(sizeof *fw);
    soko_entry_t *history = malloc(((size_t)n + 1) * sizeof *history);
    bool solved = false;
    if (fw != NULL && history != NULL) {
        soko_game_init(fw, lvl, SOKO_RULE_STANDARD, history, n + 1);
        uint32_t failed = 0;
        solved = soko_lurd_play(fw, dirs, n, &failed) == SOKO_OK && soko_game_solved(fw);
        *moves = fw->moves;
        *pushes = fw->pushes;
    }
    free(history);
    free(fw);
    return solved;
}

/* The forward solution of g's line, which has just finished a reverse
 * game: turned round by the core, then replayed from the level's start
 * under the standard rule, which must solve it (the core would disagree
 * with itself otherwise: logged). Returns its LURD (malloc'd) with *moves
 * and *pushes as the replay counted them, or NULL. */
static char *reverse_forward_line(const struct live_game *g, uint32_t *moves, uint32_t *pushes)
{
    uint32_t n = 0;
    soko_entry_t *line = play_line(g, &n);
    /* The walk home is at most one step a square. */
    uint32_t cap = n + (uint32_t)g->level.width * g->level.height;
    uint8_t *dirs = malloc(cap);
    soko_path_scratch *s = path_scratch();
    char *lurd = NULL;
    int32_t got = SOKO_E_FULL;
    if (line != NULL && dirs != NULL && s != NULL)
        got = soko_reverse_forward(&g->game, line, n, s, dirs, cap);
    if (got > 0 && replay_forward(&g->level, dirs, (uint32_t)got, moves, pushes)) {
        lurd = malloc((size_t)got + 1);
        for (int32_t i = 0; lurd != NULL && i < got; i++)
            lurd[i] = soko_lurd_letter(dirs[i] & 3, (dirs[i] & SOKO_LURD_PUSH) != 0);
        if (lurd != NULL)
            lurd[got] = '\0';
    } else if (got != SOKO_E_FULL) {
        fprintf(stderr, "sokod: game %lld: its reverse line gives no forward solution (%s)\n",
                (long long)g->id, got < 0 ? soko_error_name(got) : "replay");
    }
    free(dirs);
    free(line);
    return lurd;
}

static void note_solution(struct live_game *g, struct play_result *res)
{
    if (res->nsolutions == PLAY_MAX_SOLUTIONS || g->game.moves == 0)
        return;
    if (g->game.rule == SOKO_RULE_REVERSE) {
        struct play_solution *s = &res->solution[res->nsolutions];
        s->lurd = reverse_forward_line(g, &s->moves, &s->pushes);
        if (s->lurd != NULL)
            res->nsolutions++;
        return;
    }
    int64_t from = line_start(g, play_cursor(g));
    if (from < 0)
        return;
    size_t cap = (size_t)(play_cursor(g) - (uint32_t)from) + 1;
    char *lurd = malloc(cap);
    if (lurd == NULL)
        return;
    if (play_letters(g, (uint32_t)from, play_cursor(g), lurd, cap) < 0) {
        free(lurd);
        return;
    }
    struct play_solution *s = &res->solution[res->nsolutions++];
    s->moves = g->game.moves;
    s->pushes = g->game.pushes;
    s->lurd = lurd;
}

/* The moves at which the line at the cursor first reached the solved
 * position, found by playing it again from its start; PLAY_NOT_SOLVED when
 * it never did, PLAY_SOLVED_UNKNOWN when memory ran out. */
static uint32_t earliest_solved(const struct live_game *g)
{
    uint32_t n = 0;
    soko_entry_t *line = play_line(g, &n);
    soko_entry_t *history = malloc(((size_t)n + 1) * sizeof *history);
    soko_game *s = malloc(sizeof *s);
    uint32_t found = PLAY_SOLVED_UNKNOWN;
    if (line != NULL && history != NULL && s != NULL) {
        play_init_core(g, s, history, n + 1);
        found = PLAY_NOT_SOLVED;
        for (uint32_t i = 0; i < n && found == PLAY_NOT_SOLVED; i++) {
            unsigned pull = SOKO_ENTRY_PUSHED(line[i]) > 0 ? SOKO_STEP_PULL : 0;
            if (soko_game_play(s, (unsigned)SOKO_ENTRY_DIR(line[i]) | pull) < 0) {
                found = PLAY_SOLVED_UNKNOWN; /* not the line the game holds */
                break;
            }
            if (soko_game_solved(s))
                found = s->moves;
        }
    }
    free(s);
    free(history);
    free(line);
    return found;
}

/* Follows g->first_solved through one operation of an entry, which found
 * the game at `moves_before` and `was_solved`; returns true when the line
 * at the cursor has just reached the solved position for the first time.
 * Moves tell the operations apart: only a restart leaves a line at 0
 * moves, so an undo from 0 took one back, and a redo to 0 made one again.
 * The past of a line brought back by an undone restart is worked out only
 * when `resolve` asks for it (recording), as it means playing it again. */
static bool first_time_solved(struct live_game *g, int kind, uint32_t moves_before, bool was_solved,
                              bool resolve)
{
    const soko_game *s = &g->game;
    if (s->moves == 0) {
        g->first_solved = PLAY_NOT_SOLVED;
        return false;
    }
    if (kind == STORAGE_LOG_UNDO && moves_before == 0)
        g->first_solved = PLAY_SOLVED_UNKNOWN;
    else if (g->first_solved < PLAY_SOLVED_UNKNOWN && s->moves < g->first_solved)
        g->first_solved = PLAY_NOT_SOLVED;
    if (was_solved || !soko_game_solved(s))
        return false;
    if (g->first_solved == PLAY_SOLVED_UNKNOWN && resolve)
        g->first_solved = earliest_solved(g);
    if (g->first_solved == PLAY_NOT_SOLVED)
        g->first_solved = s->moves;
    else if (g->first_solved != s->moves || kind == STORAGE_LOG_UNDO)
        return false;
    return true;
}

/* Runs one primitive operation of an entry, making room in the window
 * when the core asks for it. */
static int one_step(struct live_game *g, int kind, int dir)
{
    for (;;) {
        int rc;
        uint32_t before = play_cursor(g);
        switch (kind) {
        case STORAGE_LOG_STEPS:
            rc = soko_game_play(&g->game, (unsigned)dir);
            break;
        case STORAGE_LOG_UNDO:
            rc = undo(g);
            break;
        case STORAGE_LOG_REDO:
            rc = redo(g);
            break;
        default:
            rc = soko_game_restart(&g->game);
            break;
        }
        if (rc >= 0 && (kind == STORAGE_LOG_STEPS || kind == STORAGE_LOG_RESTART) &&
            play_cursor(g) != before)
            cut_redo(g);
        if (rc != SOKO_E_FULL)
            return rc < 0 ? rc : SOKO_OK;
        if (kind == STORAGE_LOG_UNDO || kind == STORAGE_LOG_REDO || !make_room(g))
            return SOKO_E_FULL;
    }
}

int play_try_steps(const struct live_game *g, const uint8_t *dirs, uint32_t n, uint32_t *failed)
{
    soko_game *t = malloc(sizeof *t);
    if (t == NULL) {
        *failed = 0;
        return SOKO_E_FULL;
    }
    *t = g->game;
    /* One entry of history, written over at each step. */
    soko_entry_t entry;
    t->history = &entry;
    t->history_cap = 1;
    uint32_t room = PLAY_MAX_HISTORY - play_cursor(g);
    int rc = SOKO_OK;
    for (uint32_t i = 0; i < n && rc == SOKO_OK; i++) {
        t->cursor = t->history_len = 0;
        int step = soko_game_play(t, dirs[i]);
        rc = step < 0 ? step : i >= room ? SOKO_E_FULL : SOKO_OK;
        *failed = i;
    }
    free(t);
    return rc;
}

int play_apply(struct live_game *g, const struct play_entry *e, bool record,
               struct play_result *res)
{
    memset(res, 0, sizeof *res);
    uint32_t n = e->kind == STORAGE_LOG_STEPS     ? e->ndirs
                 : e->kind == STORAGE_LOG_RESTART ? 1
                                                  : e->count;
    if (e->kind == STORAGE_LOG_UNDO && play_cursor(g) < n) {
        res->code = SOKO_E_NOTHING;
        return res->code;
    }
    if (e->kind == STORAGE_LOG_REDO && play_redo_count(g) < n) {
        res->code = SOKO_E_NOTHING;
        return res->code;
    }
    for (uint32_t i = 0; i < n; i++) {
        bool was_solved = soko_game_solved(&g->game);
        uint32_t moves_before = g->game.moves;
        int rc = one_step(g, e->kind, e->kind == STORAGE_LOG_STEPS ? e->dirs[i] : 0);
        if (rc != SOKO_OK) {
            res->code = rc;
            res->failed = i;
            return rc;
        }
        res->changed = true;
        if (first_time_solved(g, e->kind, moves_before, was_solved, record) && record)
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

/* The entries of chunk k: in the window, or inflated into buf (room for C
 * entries). NULL when the chunk cannot be read; *n set to its length. */
static const soko_entry_t *chunk_entries(const struct live_game *g, uint32_t k, soko_entry_t *buf,
                                         uint32_t *n)
{
    const soko_game *s = &g->game;
    if (k * C >= g->base && k * C < g->base + s->history_len) {
        uint32_t at = k * C - g->base;
        uint32_t left = s->history_len - at;
        *n = left < C ? left : C;
        return s->history + at;
    }
    int32_t got = history_load(&g->store, k, buf);
    if (got < 0)
        return NULL;
    *n = (uint32_t)got;
    return buf;
}

int32_t play_letters(const struct live_game *g, uint32_t from, uint32_t to, char *out, size_t cap)
{
    if (to < from || to > g->length || (size_t)(to - from) + 1 > cap)
        return -1;
    soko_entry_t *buf = NULL;
    size_t n = 0;
    for (uint32_t i = from; i < to;) {
        uint32_t k = i / C, len = 0;
        bool in_window = k * C >= g->base && k * C < g->base + g->game.history_len;
        if (!in_window && buf == NULL) {
            buf = malloc(C * sizeof *buf);
            if (buf == NULL)
                return -1;
        }
        const soko_entry_t *e = chunk_entries(g, k, buf, &len);
        if (e == NULL || len <= i - k * C) {
            free(buf);
            return -1;
        }
        for (; i < to && i - k * C < len; i++) {
            soko_entry_t x = e[i - k * C];
            out[n++] = x == SOKO_ENTRY_RESTART
                           ? '*'
                           : soko_lurd_letter(SOKO_ENTRY_DIR(x), SOKO_ENTRY_PUSHED(x) > 0);
        }
    }
    free(buf);
    out[n] = '\0';
    return (int32_t)n;
}

soko_entry_t *play_line(const struct live_game *g, uint32_t *n)
{
    uint32_t to = play_cursor(g);
    int64_t from = line_start(g, to);
    if (from < 0)
        return NULL;
    *n = to - (uint32_t)from;
    soko_entry_t *line = malloc(((size_t)*n + 1) * sizeof *line);
    soko_entry_t *buf = malloc(C * sizeof *buf);
    bool ok = line != NULL && buf != NULL;
    for (uint32_t i = (uint32_t)from; i < to && ok;) {
        uint32_t k = i / C, len = 0;
        const soko_entry_t *e = chunk_entries(g, k, buf, &len);
        ok = e != NULL && len > i - k * C;
        for (; ok && i < to && i - k * C < len; i++)
            line[i - (uint32_t)from] = e[i - k * C];
    }
    free(buf);
    if (!ok) {
        free(line);
        return NULL;
    }
    return line;
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
    if (n < 0) {
        b->failed = true;
        return;
    }
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
    if (s->rule == SOKO_RULE_REVERSE) {
        textbuf_puts(b, ",\"boxes_on_start\":");
        textbuf_int(b, s->boxes_on_start);
        textbuf_puts(b, ",\"start\":{\"x\":");
        textbuf_int(b, s->start % g->level.width);
        textbuf_puts(b, ",\"y\":");
        textbuf_int(b, s->start / g->level.width);
        textbuf_puts(b, "}");
    }
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
    textbuf_int(b, play_cursor(g));
    textbuf_puts(b, ",\"redo_available\":");
    textbuf_int(b, play_redo_count(g));
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
    int64_t from = line_start(g, play_cursor(g));
    textbuf_puts(b, "}");
    if (from < 0) {
        b->failed = true;
        return;
    }
    write_letters(b, ",\"lurd\":", g, (uint32_t)from, play_cursor(g));
    write_letters(b, ",\"history\":", g, 0, play_cursor(g));
    write_letters(b, ",\"redo\":", g, play_cursor(g), g->length);
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
    int64_t moved; /* the cursor's move by the undos and redos not applied yet */
    /* play_replay's: called with the game after each entry past `after`. */
    play_each_fn each;
    void *each_arg;
    uint32_t after;
};

/* Undo and redo only move the cursor over a history they leave as it is,
 * so a run of them is applied as its net move: a log of many long undos
 * and redos, each paid for once when it was sent, is not paid for again
 * at every rebuild. False (logged) when the core refuses the move. */
static bool apply_moves(struct replay *r)
{
    if (r->moved == 0)
        return true;
    struct play_entry pe = {.kind = r->moved < 0 ? STORAGE_LOG_UNDO : STORAGE_LOG_REDO,
                            .count = (uint32_t)(r->moved < 0 ? -r->moved : r->moved)};
    r->moved = 0;
    struct play_result res;
    if (play_apply(r->g, &pe, false, &res) == SOKO_OK)
        return true;
    fprintf(stderr,
            "sokod: game %lld: the core refuses the undos and redos before log entry %u (%s)\n",
            (long long)r->g->id, r->g->seq + 1, soko_error_name(res.code));
    r->status = STORAGE_ERROR;
    return false;
}

/* Tells play_replay's caller of entry e, the game now after it. */
static int tell(struct replay *r, const struct storage_log_entry *e)
{
    if (r->each == NULL || e->seq <= r->after)
        return 0;
    if (!apply_moves(r))
        return 1;
    return r->each(r->each_arg, r->g, e);
}

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
    if (e->kind == STORAGE_LOG_UNDO || e->kind == STORAGE_LOG_REDO) {
        r->moved += e->kind == STORAGE_LOG_REDO ? (int64_t)e->count : -(int64_t)e->count;
        g->seq = e->seq;
        return tell(r, e);
    }
    if (!apply_moves(r))
        return 1;
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
        if (n >= 0)
            play_mark_pulls(e->steps, r->dirs, (uint32_t)n);
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
    return tell(r, e);
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

static int rebuild(struct live_game *g, play_each_fn each, void *arg, uint32_t after);

int play_rebuild(struct live_game *g)
{
    return rebuild(g, NULL, NULL, 0);
}

int play_replay(struct live_game *g, uint32_t after, play_each_fn each, void *arg)
{
    return rebuild(g, each, arg, after);
}

static int rebuild(struct live_game *g, play_each_fn each, void *arg, uint32_t after)
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
    struct replay r = {.g = g, .status = STORAGE_OK, .each = each, .each_arg = arg, .after = after};
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
    if (row.rule == SOKO_RULE_REVERSE) {
        int32_t start = -1;
        status = storage_game_start(g->id, &start);
        if (status != STORAGE_OK)
            return status;
        /* A start the level does not allow leaves the default one. */
        if (start >= 0)
            soko_game_set_start(&g->game, (soko_cell)start);
    }
    g->first_solved = PLAY_NOT_SOLVED;
    history_free(&g->store);
    g->base = 0;
    g->length = 0;
    g->seq = 0;
    status = storage_log_each(g->id, replay_entry, &r);
    free(r.dirs);
    if (status == STORAGE_OK && !apply_moves(&r))
        return STORAGE_ERROR;
    if (status == STORAGE_STOP || r.status != STORAGE_OK)
        return STORAGE_ERROR;
    if (status != STORAGE_OK)
        return status;
    g->valid = true;
    return STORAGE_OK;
}

int play_catch_up(struct live_game *g, const struct storage_game *row)
{
    uint32_t seq = row->seq;
    /* A room's new round starts the game again, on its level. */
    if (!g->valid || g->seq > seq || g->level_id != row->level_id || g->room_id != row->room_id ||
        g->round != row->round)
        return play_rebuild(g);
    struct replay r = {.g = g, .status = STORAGE_OK};
    int status = storage_log_each_after(g->id, g->seq, replay_entry, &r);
    free(r.dirs);
    if (status == STORAGE_OK && r.status == STORAGE_OK && apply_moves(&r) && g->seq == seq)
        return STORAGE_OK;
    return play_rebuild(g);
}

size_t play_bytes(const struct live_game *g)
{
    return (size_t)g->game.history_cap * sizeof *g->game.history + g->store.bytes;
}

void play_free(struct live_game *g)
{
    free(g->game.history);
    g->game.history = NULL;
    history_free(&g->store);
}
