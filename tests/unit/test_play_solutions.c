/* The solutions a live game records (server/play/game_play.c): a line
 * (since its last restart, undone steps removed) is recorded when it
 * reaches the solved position for the first time, and never when it comes
 * back to it after stepping off, nor on an undo. A seeded random walk of
 * steps, undos, redos and restarts, long enough to move the game's history
 * window and to undo restarts below it, is played at once on a live game
 * and on a plain core game with the whole history; after every entry the
 * solutions the live game noted must be those the plain game says. And a
 * batch of steps is tried before it is applied, saying what applying it
 * would. */
#include "check.h"
#include "play/game_play.h"
#include "storage/storage_games.h"
#include "storage/storage_levels.h"

#include <stdlib.h>

/* game_play.c rebuilds games from the database; these tests build them in
 * memory and never call it. */
int storage_game_get(int64_t id, struct storage_game *out)
{
    (void)id;
    (void)out;
    return STORAGE_ERROR;
}

int storage_game_start(int64_t id, int32_t *start)
{
    (void)id;
    *start = -1;
    return STORAGE_ERROR;
}

int storage_level_get(int64_t id, int64_t viewer, int (*fn)(void *, const struct storage_level *),
                      void *arg)
{
    (void)id;
    (void)viewer;
    (void)fn;
    (void)arg;
    return STORAGE_ERROR;
}

int storage_log_each(int64_t game, int (*fn)(void *, const struct storage_log_entry *), void *arg)
{
    (void)game;
    (void)fn;
    (void)arg;
    return STORAGE_ERROR;
}

int storage_log_each_after(int64_t game, uint32_t after,
                           int (*fn)(void *, const struct storage_log_entry *), void *arg)
{
    (void)game;
    (void)after;
    (void)fn;
    (void)arg;
    return STORAGE_ERROR;
}

/* A box above its goal, room all around: "D" solves it, and the box can be
 * pushed off the goal and back in many ways. */
static const char WELL[] = "######\n#    #\n# @  #\n# $  #\n# .  #\n#    #\n######\n";

static void start_live(struct live_game *g)
{
    soko_error err;
    CHECK_INT(soko_level_parse(&g->level, WELL, (uint32_t)strlen(WELL), 1, &err), SOKO_OK);
    soko_entry_t *h = malloc(256 * sizeof *h);
    soko_game_init(&g->game, &g->level, 0, h, 256);
    g->first_solved = PLAY_NOT_SOLVED;
}

/* The plain game and, for each cursor c, the first c' in (line start, c]
 * whose position is solved, or 0: what the live game must follow. */
struct model {
    soko_game game;
    uint32_t *first; /* indexed by cursor */
    char *letters;
};

/* Notes what the model expects after one operation took the plain game to
 * cursor c: a new solution when a step or a redo reached the solved
 * position and the line had not been there before. */
static void expect(struct model *m, int kind, bool was_solved, char (*out)[64], unsigned *n)
{
    soko_game *s = &m->game;
    uint32_t c = s->cursor;
    bool solved = soko_game_solved(s);
    if (kind == STORAGE_LOG_STEPS || kind == STORAGE_LOG_RESTART) {
        /* A new entry at c - 1: its first solved position is known now. */
        if (s->moves == 0)
            m->first[c] = 0;
        else
            m->first[c] = m->first[c - 1] != 0 ? m->first[c - 1] : solved ? c : 0;
    }
    if (kind == STORAGE_LOG_UNDO || was_solved || !solved || m->first[c] != c)
        return;
    if (*n < PLAY_MAX_SOLUTIONS) {
        uint32_t from = c - s->moves;
        char *w = out[*n];
        if (s->moves < 63) {
            for (uint32_t i = from; i < c; i++)
                *w++ = soko_lurd_letter(SOKO_ENTRY_DIR(s->history[i]),
                                        SOKO_ENTRY_PUSHED(s->history[i]) > 0);
        }
        *w = '\0';
    }
    (*n)++;
}

static uint32_t rnd(uint32_t *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return *seed >> 8;
}

static void a_line_is_recorded_once_when_it_first_solves(void)
{
    enum { OPS = 300000 };
    static struct live_game g;
    static struct model m;
    memset(&g, 0, sizeof g);
    start_live(&g);
    soko_entry_t *all = malloc((OPS + 1) * sizeof *all);
    m.first = calloc(OPS + 1, sizeof *m.first);
    soko_game_init(&m.game, &g.level, 0, all, OPS + 1);
    uint32_t seed = 26, recorded = 0, far_undos = 0, restarts = 0, longest = 0, highest_base = 0;
    for (uint32_t op = 0; op < OPS && check_failures_in_test == 0; op++) {
        uint32_t r = rnd(&seed) % 1000, cursor = m.game.cursor;
        uint32_t redo = m.game.history_len - cursor;
        struct play_entry e = {.kind = STORAGE_LOG_STEPS};
        uint8_t dir = (uint8_t)(rnd(&seed) % 4);
        if (r < 10 && cursor > 0) {
            e.kind = STORAGE_LOG_UNDO;
            /* Late in the walk, once the history is long, now and then far
             * back: across restarts and below the window. */
            bool far = r == 0 && op > OPS / 3 * 2;
            uint32_t most = far || cursor < 40 ? cursor : 40;
            e.count = 1 + rnd(&seed) % most;
            far_undos += far;
        } else if (r < 20 && redo > 0) {
            e.kind = STORAGE_LOG_REDO;
            e.count = 1 + rnd(&seed) % (redo < 60 ? redo : 60);
        } else if (r < 25) {
            e.kind = STORAGE_LOG_RESTART;
        } else {
            e.dirs = &dir;
            e.ndirs = 1;
        }
        /* The plain game, operation by operation. */
        char want[PLAY_MAX_SOLUTIONS][64];
        unsigned nwant = 0;
        uint32_t n = e.kind == STORAGE_LOG_STEPS ? 1 : e.kind == STORAGE_LOG_RESTART ? 1 : e.count;
        bool refused = false;
        for (uint32_t i = 0; i < n; i++) {
            bool was = soko_game_solved(&m.game);
            int rc = e.kind == STORAGE_LOG_STEPS  ? soko_game_step(&m.game, dir)
                     : e.kind == STORAGE_LOG_UNDO ? soko_game_undo(&m.game)
                     : e.kind == STORAGE_LOG_REDO ? soko_game_redo(&m.game)
                                                  : soko_game_restart(&m.game);
            if (rc < 0) {
                refused = true;
                break;
            }
            expect(&m, e.kind, was, want, &nwant);
        }
        struct play_result res;
        int code = play_apply(&g, &e, true, &res);
        CHECK_MSG((code == SOKO_OK) == !refused, "op %u (kind %d): live %d, plain refused %d", op,
                  e.kind, code, refused);
        if (refused) {
            play_result_clear(&res);
            continue;
        }
        unsigned got = res.nsolutions;
        CHECK_MSG(got == (nwant < PLAY_MAX_SOLUTIONS ? nwant : PLAY_MAX_SOLUTIONS),
                  "op %u (kind %d, count %u) at cursor %u, moves %u: %u solutions noted, %u "
                  "expected",
                  op, e.kind, e.count, m.game.cursor, m.game.moves, got, nwant);
        for (unsigned i = 0; i < got && i < nwant; i++) {
            if (want[i][0] != '\0')
                CHECK_STR(res.solution[i].lurd, want[i]);
            CHECK_INT(strlen(res.solution[i].lurd), res.solution[i].moves);
        }
        recorded += got;
        restarts += e.kind == STORAGE_LOG_RESTART;
        if (m.game.history_len > longest)
            longest = m.game.history_len;
        if (g.base > highest_base)
            highest_base = g.base;
        CHECK_INT(play_cursor(&g), m.game.cursor);
        CHECK_INT(g.game.moves, m.game.moves);
        play_result_clear(&res);
    }
    note("%d operations (seed 26): %u solutions recorded, %u restarts, %u far undos, history "
         "up to %u entries, window up to %u",
         OPS, recorded, restarts, far_undos, longest, highest_base);
    printf("%d operations: %u solutions recorded, %u restarts, %u far undos, history up to %u "
           "entries, window up to %u\n",
           OPS, recorded, restarts, far_undos, longest, highest_base);
    CHECK(recorded > 50);
    CHECK(far_undos > 0);
    /* The window moved: lines were undone and replayed from stored chunks. */
    CHECK(highest_base >= 2 * HISTORY_CHUNK);
    free(all);
    free(m.first);
    play_free(&g);
}

/* The attack's shape, small: a solved game stepping off and back again,
 * eight times an entry, records nothing past the first solve. */
static void stepping_off_and_on_records_nothing(void)
{
    static struct live_game g;
    memset(&g, 0, sizeof g);
    start_live(&g);
    const char *body = "lddrUluurDlddrUluurDlddrUluurDlddrUluurD";
    uint8_t dirs[64];
    uint32_t bad = 0;
    struct play_result res;
    uint8_t down = SOKO_DOWN;
    struct play_entry solve = {.kind = STORAGE_LOG_STEPS, .dirs = &down, .ndirs = 1};
    CHECK_INT(play_apply(&g, &solve, true, &res), SOKO_OK);
    CHECK_INT(res.nsolutions, 1);
    play_result_clear(&res);
    int32_t n = play_decode(body, dirs, sizeof dirs, &bad);
    struct play_entry loop = {.kind = STORAGE_LOG_STEPS, .dirs = dirs, .ndirs = (uint32_t)n};
    for (int i = 0; i < 8; i++) {
        CHECK_INT(play_apply(&g, &loop, true, &res), SOKO_OK);
        note("entry %d: %s", i, body);
        CHECK_INT(res.nsolutions, 0);
        play_result_clear(&res);
    }
    CHECK(soko_game_solved(&g.game));
    play_free(&g);
}

/* play_try_steps says of a batch what play_apply would, changing
 * nothing: random batches of 1 to 24 steps, many of them running into a
 * wall or a box halfway, checked against a plain core game playing the
 * steps one by one; the live game then takes the part the plain game
 * took. */
static void a_batch_is_tried_before_it_is_applied(void)
{
    enum { BATCHES = 20000 };
    static struct live_game g;
    memset(&g, 0, sizeof g);
    start_live(&g);
    soko_entry_t *all = malloc((BATCHES * 24 + 1) * sizeof *all);
    soko_game plain;
    soko_game_init(&plain, &g.level, 0, all, BATCHES * 24 + 1);
    uint32_t seed = 31, refused = 0, halfway = 0;
    for (uint32_t b = 0; b < BATCHES && check_failures_in_test == 0; b++) {
        uint8_t dirs[24];
        uint32_t n = 1 + rnd(&seed) % 24;
        for (uint32_t i = 0; i < n; i++)
            dirs[i] = (uint8_t)(rnd(&seed) % 4);
        uint32_t took = 0;
        int want = SOKO_OK;
        while (took < n && (want = soko_game_step(&plain, dirs[took])) >= 0)
            took++;
        if (want >= 0)
            want = SOKO_OK;
        uint64_t hash = g.game.hash;
        uint32_t cursor = play_cursor(&g), failed = UINT32_MAX;
        int got = play_try_steps(&g, dirs, n, &failed);
        CHECK_MSG(got == want, "batch %u of %u steps: tried %d, the plain game %d", b, n, got,
                  want);
        CHECK_MSG(g.game.hash == hash && play_cursor(&g) == cursor,
                  "batch %u: trying it changed the game", b);
        if (want != SOKO_OK) {
            CHECK_MSG(failed == took, "batch %u: refused at step %u, the plain game at %u", b,
                      failed, took);
            refused++;
            halfway += took > 0;
        }
        struct play_entry e = {.kind = STORAGE_LOG_STEPS, .dirs = dirs, .ndirs = took};
        struct play_result res;
        if (took > 0)
            CHECK_INT(play_apply(&g, &e, true, &res), SOKO_OK);
        else
            memset(&res, 0, sizeof res);
        play_result_clear(&res);
        CHECK_INT(play_cursor(&g), plain.cursor);
        CHECK(g.game.hash == plain.hash);
    }
    note("%d batches (seed 31): %u refused, %u of them halfway", BATCHES, refused, halfway);
    CHECK(halfway > 1000);
    free(all);
    play_free(&g);
}

int main(void)
{
    RUN(a_batch_is_tried_before_it_is_applied);
    RUN(stepping_off_and_on_records_nothing);
    RUN(a_line_is_recorded_once_when_it_first_solves);
    return check_finish();
}
