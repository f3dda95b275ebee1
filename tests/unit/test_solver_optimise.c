/* The optimiser (solver/optimise.c): a solution no longer than the one
 * given, replayed on the core, and on small levels the shortest there is,
 * as a brute-force search over every position finds it. */
#include "check.h"
#include "level_util.h"
#include "solver.h"
#include "test_rand.h"

#include <stdlib.h>
#include <string.h>

/* The brute force: Dijkstra over positions (the player's cell and the
 * boxes' cells, sorted, packed into one word), on levels of at most 255
 * cells and 7 boxes. A position's cost is moves * SCALE + pushes for the
 * moves metric, pushes * SCALE + moves for the pushes one. */
#define SCALE 100000u
#define MAX_BOXES 7

typedef struct brute {
    const soko_level *lvl;
    uint64_t *key; /* open addressing, 0 empty */
    uint32_t *cost;
    uint32_t mask, count, limit;
    uint64_t *heap; /* cost << 32 | slot */
    uint32_t nheap, cap;
} brute;

static uint64_t pack_position(uint8_t player, const uint8_t *box, uint32_t n)
{
    uint8_t sorted[MAX_BOXES];
    memcpy(sorted, box, n);
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            uint8_t t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    uint64_t k = (uint64_t)player + 1;
    for (uint32_t i = 0; i < n; i++)
        k |= (uint64_t)sorted[i] << (8 * (i + 1));
    return k;
}

static uint32_t slot_of(brute *bf, uint64_t key, bool *fresh)
{
    uint32_t i = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & bf->mask;
    while (bf->key[i] != 0 && bf->key[i] != key)
        i = (i + 1) & bf->mask;
    *fresh = bf->key[i] == 0;
    if (*fresh) {
        bf->key[i] = key;
        bf->cost[i] = UINT32_MAX;
        bf->count++;
    }
    return i;
}

static void heap_push(brute *bf, uint64_t item)
{
    if (bf->nheap == bf->cap) {
        bf->cap = bf->cap ? bf->cap * 2 : 1024;
        bf->heap = realloc(bf->heap, bf->cap * sizeof *bf->heap);
    }
    uint32_t i = bf->nheap++;
    while (i > 0 && bf->heap[(i - 1) / 2] > item) {
        bf->heap[i] = bf->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    bf->heap[i] = item;
}

static uint64_t heap_pop(brute *bf)
{
    uint64_t top = bf->heap[0], last = bf->heap[--bf->nheap];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= bf->nheap)
            break;
        if (c + 1 < bf->nheap && bf->heap[c + 1] < bf->heap[c])
            c++;
        if (last <= bf->heap[c])
            break;
        bf->heap[i] = bf->heap[c];
        i = c;
    }
    if (bf->nheap > 0)
        bf->heap[i] = last;
    return top;
}

static bool is_box(const uint8_t *box, uint32_t n, uint32_t c)
{
    for (uint32_t i = 0; i < n; i++)
        if (box[i] == c)
            return true;
    return false;
}

/* The cost of the best solution in the metric, split into moves and
 * pushes; false when the level is beyond the brute force or its limit of
 * positions. */
static bool brute_force(const soko_level *lvl, int metric, uint32_t limit, uint32_t *moves,
                        uint32_t *pushes)
{
    uint32_t ncells = (uint32_t)lvl->width * lvl->height;
    if (ncells > 255 || lvl->boxes > MAX_BOXES)
        return false;
    brute bf = {.lvl = lvl, .mask = (1u << 22) - 1, .limit = limit};
    bf.key = calloc(bf.mask + 1, sizeof *bf.key);
    bf.cost = malloc((bf.mask + 1) * sizeof *bf.cost);
    uint8_t box[MAX_BOXES];
    uint32_t n = 0;
    for (uint32_t c = 0; c < ncells; c++)
        if (lvl->cell[c] & SOKO_BOX)
            box[n++] = (uint8_t)c;
    bool fresh;
    uint32_t s = slot_of(&bf, pack_position((uint8_t)lvl->player, box, n), &fresh);
    bf.cost[s] = 0;
    heap_push(&bf, s);
    bool found = false;
    while (bf.nheap > 0 && bf.count < bf.limit) {
        uint64_t item = heap_pop(&bf);
        uint32_t at = (uint32_t)item, cost = (uint32_t)(item >> 32);
        if (cost != bf.cost[at])
            continue;
        uint64_t k = bf.key[at];
        uint32_t player = (uint32_t)(k & 0xFF) - 1;
        bool solved = true;
        for (uint32_t i = 0; i < n; i++) {
            box[i] = (uint8_t)(k >> (8 * (i + 1)));
            solved = solved && (lvl->cell[box[i]] & SOKO_GOAL);
        }
        if (solved) {
            uint32_t major = cost / SCALE, minor = cost % SCALE;
            *moves = metric == SOLVER_METRIC_MOVES ? major : minor;
            *pushes = metric == SOLVER_METRIC_MOVES ? minor : major;
            found = true;
            break;
        }
        for (int d = 0; d < 4; d++) {
            soko_cell t = soko_level_neighbour(lvl, (soko_cell)player, d);
            if (t == SOKO_NO_CELL || (lvl->cell[t] & (SOKO_WALL | SOKO_OUTSIDE)))
                continue;
            uint8_t next[MAX_BOXES];
            memcpy(next, box, n);
            bool push = is_box(box, n, t);
            if (push) {
                soko_cell u = soko_level_neighbour(lvl, t, d);
                if (u == SOKO_NO_CELL || (lvl->cell[u] & (SOKO_WALL | SOKO_OUTSIDE)) ||
                    is_box(box, n, u))
                    continue;
                for (uint32_t i = 0; i < n; i++)
                    if (next[i] == t)
                        next[i] = (uint8_t)u;
            }
            uint32_t step = metric == SOLVER_METRIC_MOVES ? SCALE + push : 1 + push * SCALE;
            uint32_t j = slot_of(&bf, pack_position((uint8_t)t, next, n), &fresh);
            if (cost + step < bf.cost[j]) {
                bf.cost[j] = cost + step;
                heap_push(&bf, (uint64_t)(cost + step) << 32 | j);
            }
        }
    }
    free(bf.key);
    free(bf.cost);
    free(bf.heap);
    return found;
}

/* A worse solution than the solver's: the player first walks to and fro
 * along its first free step, `detours` times. The caller frees it. */
static char *padded_solution(const soko_level *lvl, const char *lurd, int detours)
{
    int d = 0;
    for (; d < 4; d++) {
        soko_cell t = soko_level_neighbour(lvl, lvl->player, d);
        if (t != SOKO_NO_CELL && !(lvl->cell[t] & (SOKO_WALL | SOKO_OUTSIDE | SOKO_BOX)))
            break;
    }
    size_t len = strlen(lurd);
    char *out = malloc(len + 2 * (size_t)detours + 1);
    size_t k = 0;
    for (int i = 0; i < detours && d < 4; i++) {
        out[k++] = soko_lurd_letter(d, false);
        out[k++] = soko_lurd_letter(d ^ 2, false);
    }
    memcpy(out + k, lurd, len + 1);
    return out;
}

static const char *metric_name(int metric)
{
    return metric == SOLVER_METRIC_MOVES ? "moves" : "pushes";
}

/* Plays out->lurd on lvl: it must end solved with the counts it claims. */
static void check_replays(const soko_level *lvl, const solver_result *r)
{
    static soko_game g;
    static soko_entry_t history[1 << 16];
    soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, 1 << 16);
    uint32_t failed = 0;
    CHECK_INT(play_lurd(&g, r->lurd, &failed), SOKO_OK);
    CHECK(soko_game_solved(&g));
    CHECK_INT(g.moves, r->moves);
    CHECK_INT(g.pushes, r->pushes);
}

/* Optimises a padded solver's solution of lvl in both metrics; with
 * `exact`, the result must be the brute force's optimum, else no better
 * than it. Returns the levels checked (0 or 1). */
static uint32_t check_level(const soko_level *lvl, const char *name, bool exact)
{
    solver_result sol;
    solver_options opt;
    solver_options_default(&opt);
    opt.time_limit = 10;
    if (solver_solve_level(lvl, &opt, &sol) != SOLVER_SOLVED) {
        solver_result_free(&sol);
        return 0;
    }
    char *given = padded_solution(lvl, sol.lurd, 3);
    uint32_t checked = 0;
    for (int metric = SOLVER_METRIC_MOVES; metric <= SOLVER_METRIC_PUSHES; metric++) {
        uint32_t bm, bp;
        if (!brute_force(lvl, metric, 3000000, &bm, &bp))
            continue;
        note("%s, metric %s: given %s; optimum %u moves, %u pushes", name, metric_name(metric),
             given, bm, bp);
        solver_result r;
        CHECK_INT(solver_optimise(lvl, given, (uint32_t)strlen(given), metric, NULL, &r),
                  SOLVER_SOLVED);
        if (r.status == SOLVER_SOLVED) {
            note("optimised: %s (%u moves, %u pushes, %s)", r.lurd, r.moves, r.pushes, r.reason);
            check_replays(lvl, &r);
            uint32_t got = metric == SOLVER_METRIC_MOVES ? r.moves : r.pushes;
            uint32_t got2 = metric == SOLVER_METRIC_MOVES ? r.pushes : r.moves;
            uint32_t best = metric == SOLVER_METRIC_MOVES ? bm : bp;
            uint32_t best2 = metric == SOLVER_METRIC_MOVES ? bp : bm;
            uint32_t given_cost = metric == SOLVER_METRIC_MOVES ? sol.moves + 6 : sol.pushes;
            CHECK_MSG(got > best || (got == best && got2 >= best2),
                      "%s: %u/%u beats the brute force's optimum %u/%u", name, got, got2, best,
                      best2);
            CHECK_MSG(got <= given_cost, "%s: %u is longer than the given %u", name, got,
                      given_cost);
            if (exact)
                CHECK_MSG(got == best && got2 == best2, "%s, metric %s: %u/%u, optimum %u/%u", name,
                          metric_name(metric), got, got2, best, best2);
            checked = 1;
        }
        solver_result_free(&r);
    }
    free(given);
    solver_result_free(&sol);
    return checked;
}

/* With two boxes the widest round takes in every position: the optimiser
 * finds the optimum itself, in both metrics, from a solution padded with
 * walks to and fro. */
static void finds_the_optimum_of_two_box_levels(void)
{
    static const char *const levels[] = {
        "#######\n"
        "#     #\n"
        "# $$  #\n"
        "#  #. #\n"
        "# @  .#\n"
        "#######\n",

        "########\n"
        "#..    #\n"
        "# ## $ #\n"
        "#    $@#\n"
        "#  #   #\n"
        "########\n",

        "  #####\n"
        "###   #\n"
        "# $ # ##\n"
        "# #  . #\n"
        "#    # #\n"
        "## #   #\n"
        " #@ $ .#\n"
        " #######\n",
    };
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        soko_level *lvl = level_from_text(levels[i]);
        if (lvl == NULL)
            continue;
        char name[32];
        snprintf(name, sizeof name, "hand-made level %zu", i + 1);
        CHECK_MSG(check_level(lvl, name, true) == 1, "%s was not checked", name);
        free(lvl);
    }
}

/* A solution that wanders: `steps` random steps from the start (a seeded
 * walk, the boxes pushed about on the way), then the solver's solution
 * from there. NULL when the walk lost the level. The caller frees it. */
static char *wandering_solution(const soko_level *lvl, uint32_t seed, uint32_t steps)
{
    static soko_game g;
    static soko_entry_t history[4096];
    soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, 4096);
    uint32_t state = seed;
    for (uint32_t k = 0; k < steps; k++)
        soko_game_step(&g, (int)test_rand(&state, 4));
    solver_result r;
    if (solver_solve_game(&g, NULL, &r) != SOLVER_SOLVED) {
        solver_result_free(&r);
        return NULL;
    }
    size_t rest = strlen(r.lurd);
    char *text = malloc(g.moves + rest + 1);
    int32_t len = soko_lurd_encode(&g, text, g.moves + 1);
    CHECK(len >= 0);
    memcpy(text + (len > 0 ? len : 0), r.lurd, rest + 1);
    solver_result_free(&r);
    return text;
}

/* With two boxes, a solution that first pushes the boxes about at random
 * still comes back as the optimum, in both metrics: the rounds widen
 * until two boxes may stand anywhere. Seeded walks on hand-made levels. */
static void finds_the_optimum_from_a_wandering_solution(void)
{
    static const char *const levels[] = {
        "#######\n"
        "#     #\n"
        "# $$  #\n"
        "#  #. #\n"
        "# @  .#\n"
        "#######\n",

        "########\n"
        "#..    #\n"
        "# ## $ #\n"
        "#    $@#\n"
        "#  #   #\n"
        "########\n",
    };
    uint32_t checked = 0;
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        soko_level *lvl = level_from_text(levels[i]);
        if (lvl == NULL)
            continue;
        for (uint32_t seed = 1; seed <= 6; seed++) {
            char *given = wandering_solution(lvl, seed * 7919, 40);
            if (given == NULL)
                continue;
            for (int metric = SOLVER_METRIC_MOVES; metric <= SOLVER_METRIC_PUSHES; metric++) {
                uint32_t bm, bp;
                if (!brute_force(lvl, metric, 3000000, &bm, &bp))
                    continue;
                note("level %zu, seed %u, metric %s: given %s; optimum %u moves, %u pushes", i + 1,
                     seed, metric_name(metric), given, bm, bp);
                solver_result r;
                CHECK_INT(solver_optimise(lvl, given, (uint32_t)strlen(given), metric, NULL, &r),
                          SOLVER_SOLVED);
                if (r.status == SOLVER_SOLVED) {
                    check_replays(lvl, &r);
                    CHECK_MSG(r.moves == bm && r.pushes == bp,
                              "level %zu, seed %u, metric %s: %u moves, %u pushes", i + 1, seed,
                              metric_name(metric), r.moves, r.pushes);
                    checked++;
                }
                solver_result_free(&r);
            }
            free(given);
        }
        free(lvl);
    }
    CHECK_MSG(checked >= 8, "only %u wandering solutions checked", checked);
}

/* The Microban levels the brute force settles: never shorter than the
 * optimum (the brute force and the optimiser check each other), never
 * longer than the given solution, always replayed; with two boxes or
 * fewer, the optimum. */
static void never_beats_the_brute_force_on_microban(void)
{
    uint32_t checked = 0;
    for (uint32_t n = 1; n <= 155; n++) {
        soko_level *lvl = shared_level("levels/Microban_155.xsb", n);
        if (lvl == NULL)
            return;
        if (lvl->boxes <= 3 && (uint32_t)lvl->width * lvl->height <= 255) {
            char name[32];
            snprintf(name, sizeof name, "Microban %u", n);
            checked += check_level(lvl, name, lvl->boxes <= 2);
        }
        free(lvl);
    }
    CHECK_MSG(checked >= 10, "only %u Microban levels checked", checked);
}

/* A text that does not solve the level is refused, and one that cannot be
 * read. */
static void refuses_what_is_no_solution(void)
{
    soko_level *lvl = level_from_text("#####\n"
                                      "#@$.#\n"
                                      "#####\n");
    if (lvl == NULL)
        return;
    static const char *const texts[] = {"", "l", "R?", "Rl"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        solver_result r;
        int status = solver_optimise(lvl, texts[i], (uint32_t)strlen(texts[i]), SOLVER_METRIC_MOVES,
                                     NULL, &r);
        if (strcmp(texts[i], "Rl") == 0) {
            /* it ends solved: the walk after the push goes */
            CHECK_INT(status, SOLVER_SOLVED);
            CHECK_STR(r.lurd, "R");
        } else {
            CHECK_MSG(status == SOLVER_UNKNOWN, "\"%s\" was taken for a solution", texts[i]);
            CHECK(r.lurd == NULL);
        }
        solver_result_free(&r);
    }
    free(lvl);
}

/* A node limit of one stops the search: the given solution comes back,
 * written plainly, and the reason says a limit stopped it. */
static void a_limit_returns_the_given_solution(void)
{
    soko_level *lvl = level_from_text("#######\n"
                                      "#     #\n"
                                      "# $$  #\n"
                                      "#  #. #\n"
                                      "# @  .#\n"
                                      "#######\n");
    if (lvl == NULL)
        return;
    solver_result sol;
    CHECK_INT(solver_solve_level(lvl, NULL, &sol), SOLVER_SOLVED);
    char *given = padded_solution(lvl, sol.lurd, 2);
    solver_options opt;
    solver_options_default(&opt);
    opt.node_limit = 1;
    solver_result r;
    CHECK_INT(solver_optimise(lvl, given, (uint32_t)strlen(given), SOLVER_METRIC_MOVES, &opt, &r),
              SOLVER_SOLVED);
    CHECK_STR(r.lurd, given);
    CHECK_STR(r.reason, "the limits stopped the search");
    solver_result_free(&r);
    free(given);
    solver_result_free(&sol);
    free(lvl);
}

int main(void)
{
    RUN(finds_the_optimum_of_two_box_levels);
    RUN(finds_the_optimum_from_a_wandering_solution);
    RUN(never_beats_the_brute_force_on_microban);
    RUN(refuses_what_is_no_solution);
    RUN(a_limit_returns_the_given_solution);
    return check_finish();
}
