/* One search of the solver's portfolio, run on its own: what it is given
 * in memory goes to positions, not only to its caches. */
#include "check.h"
#include "internal.h"
#include "level_util.h"
#include "reader.h"
#include "solver_boards.h"

#include <stdlib.h>
#include <string.h>

/* The smallest hint memory (16 MiB) gives the portfolio's A* search an
 * eighth of it, its greedy search a quarter and its first search five
 * eighths: each must still find a solution of a small level, its caches
 * leaving room for positions. */
static void a_search_with_little_memory_still_stores_positions(void)
{
    soko_level *lvl = shared_level("levels/Microban_155.xsb", 2);
    if (lvl == NULL)
        return;
    solver_board b;
    CHECK_INT(solver_board_build(&b, lvl), 0);
    uint16_t *boxes = malloc((b.nboxes + 1) * sizeof *boxes);
    solver_start_boxes(lvl, &b, boxes);
    solver_options opt;
    solver_options_default(&opt);
    const uint64_t shares[] = {(uint64_t)2 << 20, (uint64_t)4 << 20, (uint64_t)10 << 20};
    for (uint32_t k = 0; k < sizeof shares / sizeof shares[0]; k++) {
        uint64_t nodes = 0;
        solver_search_args args = {
            .board = &b,
            .boxes = boxes,
            .player = b.square[lvl->player],
            .options = &opt,
            .started = solver_clock(),
            .memory = shares[k],
            .nodes = &nodes,
            .queues = 1,
            .g_weight = {1},
            .h_weight = {1},
        };
        solver_search *s = solver_search_start(&args);
        CHECK(s != NULL);
        if (s == NULL)
            continue;
        while (!solver_search_run(s, 1024))
            ;
        const char *reason;
        int status = solver_search_status(s, &reason);
        CHECK_MSG(status == SOLVER_SOLVED, "Microban 2 with %llu MiB: %s (%s), %llu positions",
                  (unsigned long long)(shares[k] >> 20), solver_status_name(status), reason,
                  (unsigned long long)nodes);
        solver_search_free(s);
    }
    free(boxes);
    solver_board_free(&b);
    free(lvl);
}

/* Solves XSokoban level 4 (20 boxes) under two memory limits, both ample,
 * and returns the positions stored with each and whether the solutions
 * were the same; `without` as in solver_options. */
static bool same_search_under_two_memories(uint32_t without, uint64_t nodes[2])
{
    soko_level *lvl = shared_level("levels/XSokoban_90.xsb", 4);
    if (lvl == NULL)
        return false;
    /* 32 MiB keeps half the assignments 256 MiB keeps */
    const uint64_t memory[] = {(uint64_t)32 << 20, (uint64_t)256 << 20};
    char *lurd[2] = {NULL, NULL};
    for (uint32_t k = 0; k < 2; k++) {
        solver_options opt;
        solver_options_default(&opt);
        opt.memory_limit = memory[k];
        opt.without = without;
        solver_result r;
        solver_solve_level(lvl, &opt, &r);
        CHECK_MSG(r.status == SOLVER_SOLVED, "XSokoban 4 with %llu MiB: %s (%s)",
                  (unsigned long long)(memory[k] >> 20), solver_status_name(r.status), r.reason);
        nodes[k] = r.nodes;
        lurd[k] = r.lurd;
        r.lurd = NULL;
        solver_result_free(&r);
    }
    bool same = lurd[0] != NULL && lurd[1] != NULL && strcmp(lurd[0], lurd[1]) == 0;
    free(lvl);
    free(lurd[0]);
    free(lurd[1]);
    return same;
}

/* The order a node's pushes are tried in is a rule of the search, not the
 * order its assignment's rows happen to have: those depend on whether the
 * assignment was still kept in the cache, whose size follows the memory. */
static void the_push_order_does_not_follow_the_cache(void)
{
    uint64_t nodes[2] = {0, 0};
    bool same = same_search_under_two_memories(0, nodes);
    CHECK_MSG(same && nodes[0] == nodes[1],
              "XSokoban 4: %llu positions with 32 MiB, %llu with 256 MiB, %s solutions",
              (unsigned long long)nodes[0], (unsigned long long)nodes[1],
              same ? "the same" : "different");
}

int main(void)
{
    RUN(a_search_with_little_memory_still_stores_positions);
    RUN(the_push_order_does_not_follow_the_cache);
    return check_finish();
}
