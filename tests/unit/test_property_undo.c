/* Random games on real levels, under each rule (standard, multi-push, and
 * reverse, with its pulls): every step agrees with a
 * plain model of the rules, undo restores exactly the position saved before
 * the entry it takes back, redo the one saved after it, and the incremental
 * hash and counts always equal a computation from scratch.
 *
 * The seed is fixed (SOKOD_SEED overrides it) and printed on failure with
 * the level and the sequence of actions that led there. */
#include "check.h"
#include "level_util.h"
#include "reader.h"

#include <stdlib.h>

#define DEFAULT_SEED 0x50C0BA11u
#define ACTIONS_PER_GAME 2500
#define LARGE_HISTORY 4000
#define SMALL_HISTORY 40

static const int dx[4] = {0, 1, 0, -1};
static const int dy[4] = {-1, 0, 1, 0};

/* The part of a game that undo and redo must restore exactly. */
typedef struct position {
    uint8_t *cell; /* width * height flags */
    soko_cell player;
    uint64_t hash;
    uint32_t moves;
    uint32_t pushes;
    uint16_t boxes_on_goal;
} position;

/* What the random games did, printed so that a reader can see the mix. */
static struct {
    unsigned long steps, pushes, line_pushes, refused, full, undos, redos, restarts, restart_undos;
} seen;

typedef struct rng {
    uint64_t state;
} rng;

static uint32_t rng_below(rng *r, uint32_t n)
{
    r->state += 1;
    return (uint32_t)(soko_mix64(r->state) % n);
}

/* One random game, with what a failure report needs. */
typedef struct run {
    const soko_level *lvl;
    const char *name;
    int rule;
    uint64_t base_seed; /* SOKOD_SEED */
    uint64_t seed;      /* this game's, from the base seed, the level and the rule */
    uint32_t cells;
    char *actions; /* one letter per action: step letters, '<' undo, '>' redo, '!' restart */
    uint32_t n_actions;
    bool reported;
} run;

static void report(run *r, const soko_game *g, const char *what, const position *want)
{
    if (r->reported)
        return;
    r->reported = true;
    static char board[SOKO_MAX_CELLS + SOKO_MAX_HEIGHT + 1];
    r->actions[r->n_actions] = '\0';
    fprintf(stderr,
            "  %s\n  level %s, %s rule, game seed %#" PRIx64 " (SOKOD_SEED=%#" PRIx64
            "), after %u actions\n"
            "  (steps in LURD, '<' undo, '>' redo, '!' restart):\n  %s\n  start:\n%s",
            what, r->name,
            r->rule == SOKO_RULE_MULTIPUSH ? "multi-push"
            : r->rule == SOKO_RULE_REVERSE ? "reverse"
                                           : "standard",
            r->seed, r->base_seed, r->n_actions, r->actions,
            position_text(r->lvl, r->lvl->cell, r->lvl->player, board, sizeof board));
    fprintf(stderr, "  now (player %u, moves %u, pushes %u, cursor %u/%u):\n%s", g->player,
            g->moves, g->pushes, g->cursor, g->history_len, game_text(g, board, sizeof board));
    if (want != NULL)
        fprintf(stderr, "  expected (player %u, moves %u, pushes %u):\n%s", want->player,
                want->moves, want->pushes,
                position_text(r->lvl, want->cell, want->player, board, sizeof board));
}

static void save(const run *r, const soko_game *g, position *p)
{
    memcpy(p->cell, g->cell, r->cells);
    p->player = g->player;
    p->hash = g->hash;
    p->moves = g->moves;
    p->pushes = g->pushes;
    p->boxes_on_goal = g->boxes_on_goal;
}

static bool same(const run *r, const soko_game *g, const position *p)
{
    return memcmp(p->cell, g->cell, r->cells) == 0 && p->player == g->player &&
           p->hash == g->hash && p->moves == g->moves && p->pushes == g->pushes &&
           p->boxes_on_goal == g->boxes_on_goal;
}

static void finish_position(const run *r, position *p)
{
    p->hash = soko_zobrist(p->player, 1);
    p->boxes_on_goal = 0;
    for (uint32_t c = 0; c < r->cells; c++) {
        if (p->cell[c] & SOKO_BOX) {
            p->hash ^= soko_zobrist((soko_cell)c, 0);
            if (p->cell[c] & SOKO_GOAL)
                p->boxes_on_goal++;
        }
    }
}

/* A reverse game's step as plainly as it can be written: a box ahead
 * blocks; a pull takes the box behind the player onto its square. */
static int model_reverse_step(const run *r, const position *before, int d, bool pull, int x, int y,
                              position *after)
{
    int w = r->lvl->width, h = r->lvl->height;
    int px = before->player % w, py = before->player / w;
    int bx = px - dx[d], by = py - dy[d];
    if (before->cell[y * w + x] & SOKO_BOX)
        return SOKO_E_BLOCKED;
    if (pull && (bx < 0 || by < 0 || bx >= w || by >= h || !(before->cell[by * w + bx] & SOKO_BOX)))
        return SOKO_E_BLOCKED;
    memcpy(after->cell, before->cell, r->cells);
    if (pull) {
        after->cell[by * w + bx] &= (uint8_t)~SOKO_BOX;
        after->cell[before->player] |= SOKO_BOX;
    }
    after->player = (soko_cell)(y * w + x);
    after->moves = before->moves + 1;
    after->pushes = before->pushes + pull;
    finish_position(r, after);
    return pull ? SOKO_PUSHED : SOKO_MOVED;
}

/* The rules as plainly as they can be written, on x and y: the result code
 * of a step from `before` (a pull when `pull`, in a reverse game), and the
 * position it leads to in *after. */
static int model_step(const run *r, const position *before, int d, bool pull, position *after)
{
    int w = r->lvl->width, h = r->lvl->height;
    int x = before->player % w + dx[d], y = before->player / w + dy[d];
    if (x < 0 || y < 0 || x >= w || y >= h ||
        (before->cell[y * w + x] & (SOKO_WALL | SOKO_OUTSIDE)))
        return SOKO_E_WALL;
    if (r->rule == SOKO_RULE_REVERSE)
        return model_reverse_step(r, before, d, pull, x, y, after);
    memcpy(after->cell, before->cell, r->cells);
    int boxes = 0;
    int bx = x, by = y;
    while (bx >= 0 && by >= 0 && bx < w && by < h && (before->cell[by * w + bx] & SOKO_BOX)) {
        boxes++;
        bx += dx[d];
        by += dy[d];
        if (r->rule == SOKO_RULE_STANDARD)
            break;
    }
    if (boxes > 0) {
        if (bx < 0 || by < 0 || bx >= w || by >= h ||
            (before->cell[by * w + bx] & (SOKO_WALL | SOKO_OUTSIDE | SOKO_BOX)))
            return SOKO_E_BLOCKED;
        for (int i = boxes; i >= 1; i--) {
            int from = (y + dy[d] * (i - 1)) * w + x + dx[d] * (i - 1);
            int to = (y + dy[d] * i) * w + x + dx[d] * i;
            after->cell[from] &= (uint8_t)~SOKO_BOX;
            after->cell[to] |= SOKO_BOX;
        }
    }
    after->player = (soko_cell)(y * w + x);
    after->moves = before->moves + 1;
    after->pushes = before->pushes + (boxes > 0);
    finish_position(r, after);
    return boxes > 0 ? SOKO_PUSHED : SOKO_MOVED;
}

/* True when the player can walk to the level's player square: a plain
 * breadth-first search, the model of soko_reverse_player_home. */
static bool walks_home(const run *r, const soko_game *g)
{
    int w = r->lvl->width, h = r->lvl->height;
    static int queue[SOKO_MAX_CELLS];
    static uint8_t seen_cell[SOKO_MAX_CELLS];
    memset(seen_cell, 0, r->cells);
    int head = 0, tail = 0;
    queue[tail++] = g->player;
    seen_cell[g->player] = 1;
    while (head < tail) {
        int c = queue[head++];
        if (c == r->lvl->player)
            return true;
        for (int d = 0; d < 4; d++) {
            int x = c % w + dx[d], y = c / w + dy[d];
            if (x < 0 || y < 0 || x >= w || y >= h)
                continue;
            int n = y * w + x;
            if (!seen_cell[n] && !(g->cell[n] & (SOKO_WALL | SOKO_OUTSIDE | SOKO_BOX))) {
                seen_cell[n] = 1;
                queue[tail++] = n;
            }
        }
    }
    return false;
}

/* What must hold after every action, whatever it was. */
static void check_invariants(run *r, const soko_game *g)
{
    position fresh;
    uint8_t cell[SOKO_MAX_CELLS];
    fresh.cell = cell;
    memcpy(cell, g->cell, r->cells);
    fresh.player = g->player;
    finish_position(r, &fresh);
    uint32_t since = g->cursor, moves = 0, pushes = 0;
    while (since > 0 && g->history[since - 1] != SOKO_ENTRY_RESTART)
        since--;
    for (uint32_t i = since; i < g->cursor; i++) {
        moves++;
        pushes += SOKO_ENTRY_PUSHED(g->history[i]) > 0;
    }
    int before = check_failures_in_test;
    CHECK(g->hash == fresh.hash);
    CHECK_INT(g->boxes_on_goal, fresh.boxes_on_goal);
    CHECK_INT(g->moves, moves);
    CHECK_INT(g->pushes, pushes);
    CHECK_INT(soko_game_redo_count(g), g->history_len - g->cursor);
    if (r->rule == SOKO_RULE_REVERSE) {
        unsigned on_start = 0;
        for (uint32_t c = 0; c < r->cells; c++)
            on_start += (g->cell[c] & SOKO_BOX) && (r->lvl->cell[c] & SOKO_BOX);
        CHECK_INT(g->boxes_on_start, on_start);
        CHECK(soko_game_solved(g) == (on_start == r->lvl->boxes && walks_home(r, g)));
    } else {
        CHECK(soko_game_solved(g) == (g->boxes_on_goal == r->lvl->boxes));
    }
    if (check_failures_in_test != before)
        report(r, g, "bookkeeping differs from a computation from scratch", NULL);
}

/* The steps since the last restart, written as LURD and replayed on a new
 * game, reach the same position. */
static void check_encode_replays(run *r, const soko_game *g, soko_entry_t *spare, uint32_t cap)
{
    static char text[LARGE_HISTORY + 1];
    static uint8_t steps[LARGE_HISTORY + 1];
    int32_t n = soko_lurd_encode(g, text, sizeof text);
    CHECK(n >= 0);
    if (n < 0)
        return;
    int32_t m = soko_lurd_decode(text, (uint32_t)n, 1, steps, sizeof steps, NULL);
    CHECK_INT(m, n);
    soko_game *replay = malloc(sizeof *replay);
    soko_game_init(replay, r->lvl, r->rule, spare, cap);
    uint32_t failed = 0;
    CHECK_INT(soko_lurd_play(replay, steps, (uint32_t)(m > 0 ? m : 0), &failed), SOKO_OK);
    position now = {.cell = malloc(r->cells)};
    save(r, g, &now);
    if (!same(r, replay, &now))
        report(r, g, "the game's LURD replayed on a new game leads elsewhere", &now);
    CHECK(same(r, replay, &now));
    free(now.cell);
    free(replay);
}

/* Runs the action and checks that a refusal changed no byte of the game. */
static int refused_unchanged(run *r, soko_game *g, int rc, const soko_game *before,
                             const soko_entry_t *history_before)
{
    if (rc < 0) {
        bool unchanged =
            memcmp(before, g, sizeof *g) == 0 &&
            memcmp(history_before, g->history, g->history_len * sizeof(soko_entry_t)) == 0;
        if (!unchanged)
            report(r, g, "a refused action changed the game", NULL);
        CHECK(unchanged);
    }
    return rc;
}

enum action { STEP, UNDO, REDO, RESTART };

/* Mostly steps, walking on in the same direction after an accepted step half
 * the time (that makes pushes, and lines of boxes); now and then a burst of
 * undos or redos, to go deep into the history and back. */
static enum action pick_action(rng *rand, uint32_t *burst)
{
    uint32_t roll = rng_below(rand, 100);
    *burst = roll >= 95 ? 2 + rng_below(rand, 30) : 1;
    if (roll < 72)
        return STEP;
    if (roll < 82 || roll == 95 || roll == 96 || roll == 97)
        return UNDO;
    if (roll < 92 || roll >= 98)
        return REDO;
    return RESTART;
}

/* The state of one random game: the game, and saved[i], the position the
 * game must be in whenever its cursor is at i. */
typedef struct trial {
    run *r;
    soko_game *g;
    uint32_t cap;
    position *saved;
    position start;
    position expected;
    soko_game *before;
    soko_entry_t *history_before;
    int last_d;
    bool last_accepted;
} trial;

static void do_step(trial *t, rng *rand)
{
    run *r = t->r;
    soko_game *g = t->g;
    uint32_t cursor = g->cursor;
    int d = t->last_accepted && rng_below(rand, 2) == 0 ? t->last_d : (int)rng_below(rand, 4);
    /* In a reverse game, a step asks for a pull half of the time. */
    bool pull = r->rule == SOKO_RULE_REVERSE && rng_below(rand, 2) == 0;
    int want = model_step(r, &t->saved[cursor], d, pull, &t->expected);
    if (want >= 0 && cursor == t->cap)
        want = SOKO_E_FULL;
    int rc = refused_unchanged(r, g, pull ? soko_game_pull(g, d) : soko_game_step(g, d), t->before,
                               t->history_before);
    r->actions[r->n_actions++] = soko_lurd_letter(d, rc == SOKO_PUSHED);
    t->last_d = d;
    t->last_accepted = rc >= 0;
    seen.steps++;
    seen.refused += rc < 0;
    seen.full += rc == SOKO_E_FULL;
    seen.pushes += rc == SOKO_PUSHED;
    CHECK_INT(rc, want);
    if (rc != want)
        report(r, g, "a step's result differs from the model of the rules", NULL);
    if (rc < 0)
        return;
    seen.line_pushes += SOKO_ENTRY_PUSHED(g->history[cursor]) > 1;
    if (!same(r, g, &t->expected))
        report(r, g, "a step led elsewhere than the model of the rules", &t->expected);
    CHECK(same(r, g, &t->expected));
    CHECK_INT(g->history_len, cursor + 1);
    save(r, g, &t->saved[g->cursor]);
}

static void do_undo(trial *t)
{
    soko_game *g = t->g;
    uint32_t cursor = g->cursor;
    int rc = refused_unchanged(t->r, g, soko_game_undo(g), t->before, t->history_before);
    t->r->actions[t->r->n_actions++] = '<';
    CHECK_INT(rc, cursor == 0 ? SOKO_E_NOTHING : SOKO_OK);
    if (rc != SOKO_OK)
        return;
    seen.undos++;
    seen.restart_undos += g->history[cursor - 1] == SOKO_ENTRY_RESTART;
    if (!same(t->r, g, &t->saved[cursor - 1]))
        report(t->r, g, "undo did not restore the position before the entry",
               &t->saved[cursor - 1]);
    CHECK(same(t->r, g, &t->saved[cursor - 1]));
}

static void do_redo(trial *t)
{
    soko_game *g = t->g;
    uint32_t cursor = g->cursor;
    int rc = refused_unchanged(t->r, g, soko_game_redo(g), t->before, t->history_before);
    t->r->actions[t->r->n_actions++] = '>';
    CHECK_INT(rc, cursor == g->history_len ? SOKO_E_NOTHING : SOKO_OK);
    if (rc != SOKO_OK)
        return;
    seen.redos++;
    if (!same(t->r, g, &t->saved[cursor + 1]))
        report(t->r, g, "redo did not restore the position after the entry", &t->saved[cursor + 1]);
    CHECK(same(t->r, g, &t->saved[cursor + 1]));
}

/* A restart with no step since the start or the last restart changes nothing. */
static void do_restart(trial *t)
{
    soko_game *g = t->g;
    uint32_t cursor = g->cursor;
    bool at_start = g->moves == 0;
    int rc = refused_unchanged(t->r, g, soko_game_restart(g), t->before, t->history_before);
    t->r->actions[t->r->n_actions++] = '!';
    CHECK_INT(rc, !at_start && cursor == t->cap ? SOKO_E_FULL : SOKO_OK);
    if (rc != SOKO_OK)
        return;
    if (at_start) {
        CHECK(memcmp(t->before, g, sizeof *g) == 0);
        return;
    }
    seen.restarts++;
    CHECK(same(t->r, g, &t->start));
    CHECK_INT(g->history_len, cursor + 1);
    save(t->r, g, &t->saved[g->cursor]);
}

static void play_one_game(run *r, uint32_t cap)
{
    soko_entry_t *history = calloc(cap, sizeof *history);
    soko_entry_t *spare = calloc(LARGE_HISTORY, sizeof *spare);
    soko_game *g = malloc(sizeof *g);
    trial t = {
        .r = r,
        .g = g,
        .cap = cap,
        .saved = calloc(cap + 1, sizeof *t.saved),
        .start = {.cell = malloc(r->cells)},
        .expected = {.cell = malloc(r->cells)},
        .before = malloc(sizeof *g),
        .history_before = calloc(cap, sizeof *history),
    };
    uint8_t *cells = calloc((size_t)(cap + 1) * r->cells, 1);
    for (uint32_t i = 0; i <= cap; i++)
        t.saved[i].cell = cells + (size_t)i * r->cells;
    r->actions = malloc(ACTIONS_PER_GAME * 40 + 1);
    r->n_actions = 0;
    r->reported = false;

    soko_game_init(g, r->lvl, r->rule, history, cap);
    save(r, g, &t.saved[0]);
    save(r, g, &t.start);
    rng rand = {r->seed};
    for (uint32_t a = 0; a < ACTIONS_PER_GAME && !r->reported; a++) {
        uint32_t burst;
        enum action act = pick_action(&rand, &burst);
        for (uint32_t b = 0; b < burst && !r->reported; b++) {
            memcpy(t.before, g, sizeof *g);
            memcpy(t.history_before, history, g->history_len * sizeof *history);
            if (act == STEP)
                do_step(&t, &rand);
            else if (act == UNDO)
                do_undo(&t);
            else if (act == REDO)
                do_redo(&t);
            else
                do_restart(&t);
            check_invariants(r, g);
            if (check_failures_in_test > 0)
                report(r, g, "a check failed", NULL);
        }
        if (a % 250 == 0 || a + 1 == ACTIONS_PER_GAME)
            check_encode_replays(r, g, spare, LARGE_HISTORY);
    }
    free(r->actions);
    free(cells);
    free(t.history_before);
    free(t.before);
    free(t.expected.cell);
    free(t.start.cell);
    free(t.saved);
    free(g);
    free(spare);
    free(history);
}

static uint64_t base_seed(void)
{
    const char *env = getenv("SOKOD_SEED");
    return env != NULL ? strtoull(env, NULL, 0) : DEFAULT_SEED;
}

static void play_collection(const char *file, int rule)
{
    size_t len = 0;
    char *text = read_file(shared_path(file), &len);
    if (text == NULL)
        return;
    soko_reader reader;
    soko_entry *entry = malloc(sizeof *entry);
    soko_level *lvl = malloc(sizeof *lvl);
    soko_reader_init(&reader, text, (uint32_t)len);
    uint64_t seed = base_seed();
    int games = 0;
    while (soko_reader_next(&reader, entry) && check_failures_in_test == 0) {
        soko_error err = {0};
        int rc = soko_level_parse(lvl, text + entry->board.off, entry->board.len, entry->board_line,
                                  &err);
        if (rc != SOKO_OK) {
            check_fail(__FILE__, __LINE__, "%s level %u does not parse: %s at %u:%u: %s", file,
                       entry->number, soko_error_name(rc), err.line, err.col, err.message);
            continue;
        }
        char name[300];
        snprintf(name, sizeof name, "%s #%u", file, entry->number);
        run r = {
            .lvl = lvl,
            .name = name,
            .rule = rule,
            .base_seed = seed,
            .seed = seed + entry->number * 2u + (unsigned)rule,
            .cells = (uint32_t)lvl->width * lvl->height,
        };
        /* Every fifth game has a small history, to run into a full buffer. */
        play_one_game(&r, entry->number % 5 == 0 ? SMALL_HISTORY : LARGE_HISTORY);
        games++;
    }
    if (check_failures_in_test == 0)
        CHECK_INT(games, 155);
    printf("     %d games: %lu steps (%lu pushes, %lu line pushes, %lu refused, %lu on a full "
           "history), %lu undos (%lu of a restart), %lu redos, %lu restarts\n",
           games, seen.steps, seen.pushes, seen.line_pushes, seen.refused, seen.full, seen.undos,
           seen.restart_undos, seen.redos, seen.restarts);
    memset(&seen, 0, sizeof seen);
    free(lvl);
    free(entry);
    free(text);
}

static void undo_restores_exact_positions_in_random_standard_games(void)
{
    play_collection("levels/Microban_155.xsb", SOKO_RULE_STANDARD);
}

static void undo_restores_exact_positions_in_random_multipush_games(void)
{
    play_collection("levels/Microban_155.xsb", SOKO_RULE_MULTIPUSH);
}

static void undo_restores_exact_positions_in_random_reverse_games(void)
{
    play_collection("levels/Microban_155.xsb", SOKO_RULE_REVERSE);
}

int main(void)
{
    RUN(undo_restores_exact_positions_in_random_standard_games);
    RUN(undo_restores_exact_positions_in_random_multipush_games);
    RUN(undo_restores_exact_positions_in_random_reverse_games);
    return check_finish();
}
