/* Deadlock patterns learnt during a search: they never hold in a position
 * along a known solution, and they spare the search positions. */
#include "check.h"
#include "internal.h"
#include "level_util.h"
#include "reader.h"
#include "solver_boards.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs one search of the level with patterns learnt, storing at most
 * `cap` positions. Returns the search (the caller frees it), or NULL. */
static solver_search *learn(const soko_level *lvl, const solver_board *b, uint16_t *boxes,
                            const solver_options *opt, uint64_t cap, uint64_t *nodes)
{
    solver_start_boxes(lvl, b, boxes);
    static solver_search_args args;
    args = (solver_search_args){
        .board = b,
        .boxes = boxes,
        .player = b->square[lvl->player],
        .options = opt,
        .started = solver_clock(),
        .memory = (uint64_t)8 << 20,
        .nodes = nodes,
        .node_cap = cap,
        .queues = 1,
        .g_weight = {1},
        .h_weight = {1},
        .macros = true,
    };
    solver_search *s = solver_search_start(&args);
    CHECK(s != NULL);
    while (s != NULL && !solver_search_run(s, 1024))
        ;
    return s;
}

/* Plays the first solution written after level `e` and checks that no
 * pattern learnt by a search of `cap` positions holds in the start
 * position or after any push. Returns the patterns learnt. */
static uint32_t check_level(const char *text, const soko_entry *e, uint64_t cap)
{
    static soko_level lvl;
    static soko_game g;
    static soko_entry_t history[1 << 16];
    static uint8_t steps[1 << 16];
    soko_error err;
    if (e->solution_count == 0 ||
        soko_level_parse(&lvl, text + e->board.off, e->board.len, e->board_line, &err) < 0)
        return 0;
    solver_board b;
    if (solver_board_build(&b, &lvl) < 0)
        return 0;
    uint16_t *boxes = malloc((b.nboxes + 1) * sizeof *boxes);
    uint16_t *occ = calloc(b.nsq + 1, sizeof *occ);
    solver_options opt;
    solver_options_default(&opt);
    uint64_t nodes = 0;
    solver_search *s = learn(&lvl, &b, boxes, &opt, cap, &nodes);
    const solver_patterns *p = s != NULL ? solver_search_patterns(s) : NULL;
    CHECK(s == NULL || p != NULL);
    uint32_t learnt = p != NULL ? p->n : 0;
    const soko_solution_ref *sol = &e->solution[0];
    int32_t k = soko_lurd_decode(text + sol->moves.off, sol->moves.len, sol->line, steps,
                                 sizeof steps, &err);
    CHECK_MSG(k >= 0, "level %u: its solution does not decode", e->number);
    soko_game_init(&g, &lvl, SOKO_RULE_STANDARD, history, 1 << 16);
    for (int32_t i = -1; p != NULL && i < k; i++) {
        if (i >= 0 && soko_game_step(&g, steps[i] & 3) != SOKO_PUSHED)
            continue;
        for (uint32_t q = 0; q < b.nsq; q++)
            occ[q] = (g.cell[b.cell[q]] & SOKO_BOX) != 0;
        if (solver_patterns_any(p, occ, b.square[g.player])) {
            char board[4096];
            CHECK_MSG(false, "level %u: a learnt pattern holds after step %d of a solution:\n%s",
                      e->number, i + 1, game_text(&g, board, sizeof board));
            break;
        }
    }
    solver_search_free(s);
    free(boxes);
    free(occ);
    solver_board_free(&b);
    return learnt;
}

/* A pattern is a fact about the level: whatever a search learnt, no
 * position along a known solution holds one. Checked on Microban and
 * XSokoban, whose searches learn hundreds of patterns. */
static void no_pattern_holds_along_a_known_solution(void)
{
    static const struct {
        const char *path;
        uint64_t cap;
    } files[] = {{"levels/solutions/Microban_155.with-solutions.sok", 1000},
                 {"levels/solutions/XSokoban_90.with-solutions.sok", 800}};
    static soko_reader reader;
    static soko_entry entry;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        size_t len = 0;
        char *text = read_file(shared_path(files[f].path), &len);
        CHECK_MSG(text != NULL, "cannot read %s", files[f].path);
        if (text == NULL)
            continue;
        uint32_t learnt = 0, levels = 0;
        soko_reader_init(&reader, text, (uint32_t)len);
        while (soko_reader_next(&reader, &entry) == 1) {
            learnt += check_level(text, &entry, files[f].cap);
            levels += entry.solution_count > 0;
        }
        printf("%s: %u levels with solutions, %u patterns learnt\n", files[f].path, levels, learnt);
        CHECK_MSG(learnt >= 20, "%s: only %u patterns learnt: the check proves little",
                  files[f].path, learnt);
        free(text);
    }
}

/* Six boxes brought down through gaps in two walls: many pushes strand a
 * few boxes in a corral behind a wall, and the search meets such a set
 * again with the other boxes anywhere. Learnt once, it is never stored
 * again. A level of this test's own. */
static const char *const STRANDED = "##########\n"
                                    "#   #    #\n"
                                    "# $   $  #\n"
                                    "## ## ## #\n"
                                    "#  $  $  #\n"
                                    "# #   ## #\n"
                                    "#  .... ##\n"
                                    "#### @ ##\n"
                                    "   #####\n";

static void patterns_store_fewer_positions(void)
{
    soko_level *lvl = level_from_text(STRANDED);
    if (lvl == NULL)
        return;
    uint64_t nodes[2];
    for (uint32_t k = 0; k < 2; k++) {
        solver_options opt;
        solver_options_default(&opt);
        opt.node_limit = 100000;
        /* patterns on their own: a meeting with the search from the solved
         * position ends this one long before they tell */
        opt.without = SOLVER_WITHOUT_PULL | (k == 1 ? 0 : SOLVER_WITHOUT_PATTERNS);
        solver_result r;
        solver_solve_level(lvl, &opt, &r);
        CHECK_MSG(r.status == SOLVER_SOLVED, "%s patterns: %s (%s)", k ? "with" : "without",
                  solver_status_name(r.status), r.reason);
        nodes[k] = r.nodes;
        solver_result_free(&r);
    }
    printf("stranded boxes: %llu positions without patterns, %llu with\n",
           (unsigned long long)nodes[0], (unsigned long long)nodes[1]);
    CHECK_MSG(nodes[1] * 10 < nodes[0] * 9,
              "stranded boxes: %llu positions without patterns, %llu with: not 10%% fewer",
              (unsigned long long)nodes[0], (unsigned long long)nodes[1]);
    free(lvl);
}

int main(void)
{
    RUN(no_pattern_holds_along_a_known_solution);
    RUN(patterns_store_fewer_positions);
    return check_finish();
}
