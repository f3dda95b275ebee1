/* The search from the solved position: boxes pulled back from the goals
 * meet the positions a forward search stored, and the two halves join
 * into a solution that replays on the core. */
#include "check.h"
#include "internal.h"
#include "level_util.h"
#include "solver_boards.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Six boxes brought down past two walls to a row of goals: a forward
 * search needs a few hundred positions for it. A level of this test's
 * own. */
static const char *const DOWNHILL = " ##########\n"
                                    " #  #     #\n"
                                    "## $ $  $ #\n"
                                    "#   ## ## #\n"
                                    "# $ $  $  #\n"
                                    "#  ###### #\n"
                                    "# ......  #\n"
                                    "#####  @ ##\n"
                                    "    ######\n";

/* A forward A* search stores only its first positions around the start,
 * far from any solution; the search from the solved position then meets
 * one of them, and the forward moves to it followed by the pulls reversed
 * solve the level: the solver's own replay and a replay here both say so. */
static void the_two_ends_meet_on_a_solution_that_replays(void)
{
    soko_level *lvl = level_from_text(DOWNHILL);
    if (lvl == NULL)
        return;
    solver_board b;
    CHECK_INT(solver_board_build(&b, lvl), 0);
    uint16_t *boxes = malloc((b.nboxes + 1) * sizeof *boxes);
    solver_start_boxes(lvl, &b, boxes);
    solver_options opt;
    solver_options_default(&opt);
    uint64_t nodes = 0;
    solver_search_args args = {
        .board = &b,
        .boxes = boxes,
        .player = b.square[lvl->player],
        .options = &opt,
        .started = solver_clock(),
        .memory = (uint64_t)16 << 20,
        .nodes = &nodes,
        .node_cap = 40,
        .queues = 1,
        .g_weight = {1},
        .h_weight = {1},
    };
    solver_search *fore = solver_search_start(&args);
    CHECK(fore != NULL);
    while (fore != NULL && !solver_search_run(fore, 16))
        ;
    const char *reason = "";
    CHECK_MSG(fore != NULL && solver_search_status(fore, &reason) == SOLVER_UNKNOWN,
              "the forward search alone settled the level (%s): the test proves nothing", reason);
    uint64_t forward = nodes;
    solver_search_args back_args = args;
    back_args.node_cap = 0;
    solver_pull *pull = solver_pull_start(&back_args);
    CHECK(pull != NULL);
    solver_search *const peers[] = {fore};
    while (pull != NULL && !solver_pull_run(pull, peers, 1, 64))
        ;
    CHECK_MSG(pull != NULL && solver_pull_met(pull),
              "the search from the solved position never met the forward one (%llu positions)",
              (unsigned long long)(nodes - forward));
    solver_moves moves = {0};
    solver_result r;
    memset(&r, 0, sizeof r);
    if (pull != NULL && solver_pull_met(pull)) {
        CHECK_INT(solver_pull_moves(pull, &moves), 0);
        int rc = solver_solution_build(&b, lvl, moves.from, moves.to, moves.n, false, &r);
        CHECK_MSG(rc == 0, "the joined moves (%u of them) do not replay on the core", moves.n);
    }
    if (r.lurd != NULL) {
        soko_game g;
        static soko_entry_t history[4096];
        soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, 4096);
        uint32_t failed = 0;
        CHECK_INT(play_lurd(&g, r.lurd, &failed), SOKO_OK);
        CHECK_MSG(soko_game_solved(&g), "the joined solution %s leaves the level unsolved", r.lurd);
        printf("%u box moves, %u pushes, %llu forward and %llu backward positions\n", moves.n,
               r.pushes, (unsigned long long)forward, (unsigned long long)(nodes - forward));
    }
    solver_result_free(&r);
    free(moves.from);
    free(moves.to);
    solver_pull_free(pull);
    solver_search_free(fore);
    free(boxes);
    solver_board_free(&b);
    free(lvl);
}

/* Six boxes brought up through gaps in two walls to a row of goals by the
 * player's door: forward, many pushes strand boxes behind a wall, where
 * pulled back from the goals they come out in few tries. A level of this
 * test's own. */
static const char *const UPHILL = "   ######\n"
                                  "#### @  ##\n"
                                  "#  .... ##\n"
                                  "# #   ## #\n"
                                  "# $  $   #\n"
                                  "## ## ## #\n"
                                  "# $   $  #\n"
                                  "#   #    #\n"
                                  "##########\n";

/* The whole solver with the search from the solved position and without
 * it (SOLVER_WITHOUT_PULL): both solve the level, the first with fewer
 * positions stored, and its solution replays on the core. */
static void the_solved_end_spares_positions(void)
{
    soko_level *lvl = level_from_text(UPHILL);
    if (lvl == NULL)
        return;
    uint64_t nodes[2];
    for (uint32_t k = 0; k < 2; k++) {
        solver_options opt;
        solver_options_default(&opt);
        opt.node_limit = 50000;
        opt.without = k == 0 ? 0 : SOLVER_WITHOUT_PULL;
        solver_result r;
        solver_solve_level(lvl, &opt, &r);
        CHECK_MSG(r.status == SOLVER_SOLVED, "%s the pull: %s (%s)", k ? "without" : "with",
                  solver_status_name(r.status), r.reason);
        if (r.lurd != NULL) {
            soko_game g;
            static soko_entry_t history[4096];
            soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, 4096);
            CHECK_INT(play_lurd(&g, r.lurd, NULL), SOKO_OK);
            CHECK_MSG(soko_game_solved(&g), "%s the pull: %s leaves the level unsolved",
                      k ? "without" : "with", r.lurd);
        }
        nodes[k] = r.nodes;
        solver_result_free(&r);
    }
    printf("uphill: %llu positions with the pull, %llu without\n", (unsigned long long)nodes[0],
           (unsigned long long)nodes[1]);
    CHECK_MSG(nodes[0] * 10 < nodes[1] * 9,
              "uphill: %llu positions with the pull, %llu without: not 10%% fewer",
              (unsigned long long)nodes[0], (unsigned long long)nodes[1]);
    free(lvl);
}

int main(void)
{
    RUN(the_two_ends_meet_on_a_solution_that_replays);
    RUN(the_solved_end_spares_positions);
    return check_finish();
}
