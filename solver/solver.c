/* The solver's public calls: a level or a game's position in, a verified
 * LURD solution (or the reason there is none) out. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* How much the bound outweighs the pushes made: above 1 the search finds
 * solutions much sooner, at the price of pushes beyond the fewest. */
const char SOLVER_REASON_MACROS[] = "no solution with goal rooms filled in their packing order";
const char SOLVER_REASON_CAP[] = "the search gave up its turn";

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

/* The packing list's weight of each box off a goal: more than the bound
 * of most single boxes, so that the list takes the positions with the most
 * boxes home first (packing progress, as Festival's FESS search weighs
 * it). In a storage level the next box home leaves the others more room,
 * where the bound sees no difference between bringing one box home and
 * bringing all of them halfway. */
#define PACKING 255

/* The searches of one call, each with its own table, taking turns: a
 * careful order, a hasty one, a packing one and a feature-space one
 * sharing a table, with goal-room macros (the best on most levels; the
 * feature-space list wins levels whose way runs through positions the
 * bound ranks low); a greedy order (for levels where the careful one keeps
 * the hasty one from diving); and a plain A* without macros (for small
 * tight levels, and the proof when there is no solution), which gives its
 * turns up once it holds 300000 positions. A search whose macros cut every
 * solution off starts again without them. Beside them, a search from the
 * solved position (pull.c) looks for a position one of them stored. A
 * push-optimal call runs the A* alone, uncapped. */
typedef struct member {
    uint8_t share;     /* of turns */
    uint8_t memory;    /* share of memory, in eighths */
    uint32_t node_cap; /* positions it may store before giving its turns up, or 0 */
    uint8_t queues;
    uint8_t g[SOLVER_MAX_QUEUES], h[SOLVER_MAX_QUEUES], r[SOLVER_MAX_QUEUES];
    uint8_t p[SOLVER_MAX_QUEUES];
    bool cells[SOLVER_MAX_QUEUES]; /* feature-space lists */
    bool macros;
} member;

static const member portfolio[] = {
    {3, 5, 0, 4, {1, 1, 1, 1}, {1, 5, 1, 1}, {0, 5, 2, 0}, {0, 0, PACKING, 0}, {0, 0, 0, 1}, true},
    {2, 2, 0, 1, {1}, {20}, {5}, {0}, {0}, true},
    {1, 1, 300000, 1, {1}, {1}, {0}, {0}, {0}, false},
};

static const member optimal_search = {1, 8, 0, 1, {1}, {1}, {0}, {0}, {0}, false};

#define NMEMBERS (sizeof portfolio / sizeof portfolio[0])

/* Copies a member's open lists into its search's arguments, leaving out
 * the packing list when the call does without it. */
static void set_queues(solver_search_args *a, const member *m, uint32_t without)
{
    a->queues = 0;
    for (uint32_t q = 0; q < m->queues; q++) {
        if (m->p[q] != 0 && (without & SOLVER_WITHOUT_PACKING))
            continue;
        if (m->cells[q] && (without & SOLVER_WITHOUT_FEATURES))
            continue;
        a->g_weight[a->queues] = m->g[q];
        a->h_weight[a->queues] = m->h[q];
        a->r_weight[a->queues] = m->r[q];
        a->p_weight[a->queues] = m->p[q];
        a->cells[a->queues] = m->cells[q];
        a->queues++;
    }
}

/* Expansions per turn and share. */
#define SLICE 256

/* The search from the solved position (pull.c): its share of turns, and
 * of the memory, in eighths, which the others give up. */
#define PULL_SHARE 2
#define PULL_MEMORY 1

/* Runs the searches in turn until one settles the question or all stop.
 * Fills out's status, reason and solution moves. */
static void run_portfolio(const solver_board *b, const uint16_t *boxes, uint16_t player,
                          const solver_options *opt, double started, solver_moves *moves,
                          solver_result *out)
{
    const member *team = opt->optimal ? &optimal_search : portfolio;
    uint32_t count = opt->optimal ? 1 : NMEMBERS;
    uint64_t limit = opt->memory_limit ? opt->memory_limit : SOLVER_DEFAULT_MEMORY;
    uint64_t memory = limit > b->bytes ? limit - b->bytes : 0;
    solver_search_args args[NMEMBERS], pull_args;
    solver_search *search[NMEMBERS] = {0};
    bool running[NMEMBERS] = {0};
    uint32_t left = 0;
    out->status = SOLVER_UNKNOWN;
    out->reason = NULL;
    solver_pull *pull = NULL;
    if (!opt->optimal && !(opt->without & SOLVER_WITHOUT_PULL)) {
        pull_args = (solver_search_args){
            .board = b,
            .boxes = boxes,
            .player = player,
            .options = opt,
            .started = started,
            .memory = memory / 8 * PULL_MEMORY,
            .nodes = &out->nodes,
        };
        memory -= pull_args.memory;
        pull = solver_pull_start(&pull_args);
    }
    for (uint32_t k = 0; k < count; k++) {
        const member *m = &team[k];
        args[k] = (solver_search_args){
            .board = b,
            .boxes = boxes,
            .player = player,
            .options = opt,
            .started = started,
            .memory = memory / 8 * m->memory,
            .node_cap = m->node_cap,
            .nodes = &out->nodes,
            .macros = m->macros,
        };
        set_queues(&args[k], m, opt->without);
        search[k] = solver_search_start(&args[k]);
        running[k] = search[k] != NULL;
        left += running[k];
        if (search[k] == NULL)
            out->reason = "out of memory";
    }
    int winner = -1;
    while (left > 0 && winner < 0) {
        for (uint32_t k = 0; k < count && winner < 0; k++) {
            if (!running[k] || !solver_search_run(search[k], SLICE * team[k].share))
                continue;
            running[k] = false;
            left--;
            const char *reason;
            int status = solver_search_status(search[k], &reason);
            if (status != SOLVER_UNKNOWN) {
                winner = (int)k;
                continue;
            }
            if (reason == SOLVER_REASON_MACROS) {
                /* the macros cut every solution off: the same search goes on
                 * without them */
                solver_search_free(search[k]);
                args[k].macros = false;
                search[k] = solver_search_start(&args[k]);
                if (pull != NULL)
                    solver_pull_forget(pull, k);
                running[k] = search[k] != NULL;
                left += running[k];
                if (running[k])
                    continue;
                reason = "out of memory";
            }
            /* a limit shared by all stops all; a member's own end does not,
             * and the first member's says best why nothing was found */
            bool shared = reason != SOLVER_REASON_MACROS && reason != SOLVER_REASON_CAP &&
                          strcmp(reason, "memory limit") != 0;
            if (out->reason == NULL || shared || k == 0)
                out->reason = reason;
            if (shared) {
                for (uint32_t j = 0; j < count; j++)
                    running[j] = false;
                left = 0;
            }
        }
        /* its end without a meeting ends no other search */
        if (pull != NULL && winner < 0 && left > 0 &&
            solver_pull_run(pull, search, count, SLICE * PULL_SHARE)) {
            if (solver_pull_met(pull)) {
                winner = (int)count;
            } else {
                solver_pull_free(pull);
                pull = NULL;
            }
        }
    }
    if (winner == (int)count) {
        out->status = SOLVER_SOLVED;
        out->reason = "solved";
        if (solver_pull_moves(pull, moves) < 0) {
            out->status = SOLVER_UNKNOWN;
            out->reason = "out of memory";
        }
    } else if (winner >= 0) {
        out->status = solver_search_status(search[winner], &out->reason);
        if (out->status == SOLVER_SOLVED && solver_search_moves(search[winner], moves) < 0) {
            out->status = SOLVER_UNKNOWN;
            out->reason = "out of memory";
        }
    } else if (out->reason == NULL) {
        out->reason = "out of memory";
    }
    solver_pull_free(pull);
    for (uint32_t k = 0; k < count; k++)
        solver_search_free(search[k]);
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
    uint16_t player = b.square[start->player];
    if (boxes != NULL) {
        uint32_t n = 0;
        for (uint32_t s = 0; s < b.nsq; s++) {
            if ((start->cell[b.cell[s]] & SOKO_BOX) && n++ < b.nboxes)
                boxes[n - 1] = (uint16_t)s;
        }
        solver_moves moves = {0};
        if (player == SOLVER_NONE) {
            out->reason = "the player stands outside the level";
        } else if (n != b.nboxes) {
            /* goals walled off from the player's area, empty or not */
            out->status = SOLVER_UNSOLVABLE;
            out->reason = "some goals can never be reached by a box";
        } else {
            run_portfolio(&b, boxes, player, opt, started, &moves, out);
        }
        if (out->status == SOLVER_SOLVED) {
            if (solver_solution_build(&b, start, moves.from, moves.to, moves.n, hint, out) < 0) {
                out->status = SOLVER_UNKNOWN;
                out->reason = "internal error: the solution found did not replay";
            }
        }
        free(moves.from);
        free(moves.to);
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
