/* The solver's public calls: a level or a game's position in, a verified
 * LURD solution (or the reason there is none) out. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <stdio.h>

/* How much the bound outweighs the pushes made: above 1 the search finds
 * solutions much sooner, at the price of pushes beyond the fewest. */
const char SOLVER_REASON_MACROS[] = "no solution with goal rooms filled in their packing order";

void solver_options_default(solver_options *opt)
{
    memset(opt, 0, sizeof *opt);
}

const char *solver_status_name(int status)
{
    switch (status) {
    case SOLVER_SOLVED:
        return "solved";
    case SOLVER_UNSOLVABLE:
        return "unsolvable";
    default:
        return "unknown";
    }
}

void solver_result_free(solver_result *r)
{
    free(r->lurd);
    memset(r, 0, sizeof *r);
    r->status = SOLVER_UNKNOWN;
    r->reason = "";
}

/* Solves from the position of `start` (its boxes and player). */
static int run(const soko_level *start, bool multipush, const solver_options *opt, bool hint,
               solver_result *out)
{
    double started = solver_clock();
    memset(out, 0, sizeof *out);
    out->status = SOLVER_UNKNOWN;
    out->reason = "out of memory";
    solver_options none;
    if (opt == NULL) {
        solver_options_default(&none);
        opt = &none;
    }
    solver_board b;
    if (solver_board_build(&b, start) < 0) {
        out->reason = "out of memory, or more boxes than the solver handles";
        out->seconds = solver_clock() - started;
        return out->status;
    }
    uint16_t *boxes = malloc((b.nboxes + 1) * sizeof *boxes);
    if (boxes != NULL) {
        uint32_t n = 0;
        for (uint32_t s = 0; s < b.nsq; s++) {
            if ((start->cell[b.cell[s]] & SOKO_BOX) && n++ < b.nboxes)
                boxes[n - 1] = (uint16_t)s;
        }
        uint8_t g_weight[SOLVER_MAX_QUEUES] = {1, 1}, h_weight[SOLVER_MAX_QUEUES] = {1, 5};
        if (opt->optimal) {
            g_weight[0] = h_weight[0] = 1;
        }
        solver_search_args args = {
            .board = &b,
            .boxes = boxes,
            .player = b.square[start->player],
            .options = opt,
            .started = started,
            .queues = opt->optimal ? 1 : 2,
            .macros = !opt->optimal && getenv("NOMACRO") == NULL,
            .g_weight = g_weight,
            .h_weight = h_weight,
        };
        solver_moves moves;
        if (getenv("SQ") && !opt->optimal) {
            const char *q = getenv("SQ");
            args.queues = 0;
            while (*q && args.queues < SOLVER_MAX_QUEUES) {
                int a, c, used;
                if (sscanf(q, "%d,%d%n", &a, &c, &used) != 2)
                    break;
                g_weight[args.queues] = (uint8_t)a;
                h_weight[args.queues++] = (uint8_t)c;
                q += used;
                if (*q == ';')
                    q++;
            }
        }
        if (args.player == SOLVER_NONE) {
            out->reason = "the player stands outside the level";
        } else if (n != b.nboxes) {
            /* goals walled off from the player's area, empty or not */
            out->status = SOLVER_UNSOLVABLE;
            out->reason = "some goals can never be reached by a box";
        } else {
            out->status = solver_search(&args, &moves, &out->nodes, &out->reason);
            if (out->status == SOLVER_UNKNOWN && out->reason == SOLVER_REASON_MACROS) {
                /* the macros may have cut every solution: search again without */
                uint64_t nodes = out->nodes;
                args.macros = false;
                out->status = solver_search(&args, &moves, &out->nodes, &out->reason);
                out->nodes += nodes;
            }
        }
        if (out->status == SOLVER_SOLVED) {
            if (solver_solution_build(&b, start, moves.from, moves.to, moves.n, hint, out) < 0) {
                out->status = SOLVER_UNKNOWN;
                out->reason = "internal error: the solution found did not replay";
            }
            free(moves.from);
            free(moves.to);
        }
    }
    if (out->status == SOLVER_UNSOLVABLE && multipush) {
        out->status = SOLVER_UNKNOWN;
        out->reason = "no solution under the standard rule; the multi-push rule may have one";
    }
    free(boxes);
    solver_board_free(&b);
    out->seconds = solver_clock() - started;
    return out->status;
}

int solver_solve_level(const soko_level *lvl, const solver_options *opt, solver_result *out)
{
    return run(lvl, false, opt, false, out);
}

/* A level whose start is the game's current position. NULL when memory runs out. */
static soko_level *position_of(const soko_game *g)
{
    soko_level *lvl = malloc(sizeof *lvl);
    if (lvl == NULL)
        return NULL;
    memcpy(lvl, g->level, sizeof *lvl);
    uint32_t n = (uint32_t)lvl->width * lvl->height;
    for (uint32_t c = 0; c < n; c++)
        lvl->cell[c] = (uint8_t)((lvl->cell[c] & ~SOKO_BOX) | (g->cell[c] & SOKO_BOX));
    lvl->player = g->player;
    return lvl;
}

static int solve_position(const soko_game *g, const solver_options *opt, bool hint,
                          solver_result *out)
{
    soko_level *lvl = position_of(g);
    if (lvl == NULL) {
        memset(out, 0, sizeof *out);
        out->status = SOLVER_UNKNOWN;
        out->reason = "out of memory";
        return out->status;
    }
    int status = run(lvl, g->rule == SOKO_RULE_MULTIPUSH, opt, hint, out);
    free(lvl);
    return status;
}

int solver_solve_game(const soko_game *g, const solver_options *opt, solver_result *out)
{
    return solve_position(g, opt, false, out);
}

int solver_hint(const soko_game *g, const solver_options *opt, solver_result *out)
{
    return solve_position(g, opt, true, out);
}
