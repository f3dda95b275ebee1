/* A packing order over all the goals, for a level without goal rooms
 * (after the packing plan of Festival's FESS search): the goals in the
 * order boxes can come home, the goals filled before each one standing
 * full and the rest of the level empty of boxes but the one coming.
 *
 * A backward pass finds it: from all goals full, take as the goal filled
 * last one that a box standing where a box stands at the start (or on
 * that goal already) can be pushed onto with the others full, the player
 * starting where it starts; then the same with that goal empty, and so on.
 * Among those that can be filled last, the one nearest the boxes (the
 * fewest pushes to it) goes last: the deep goals fill first.
 * When no goal can be filled at some step there is no order.
 *
 * The packing advisor (search.c) then brings the box nearest the order's
 * next goal there in one move, while the boxes home are those of the
 * order's filled start. At 500,000 positions it solves XSokoban 13,
 * unsolved without it; docs/solver.md has the figures, and those of the
 * variants that did not pay (advice whatever boxes stood home, boxes home
 * out of order counted as boxes out of plan). SOLVER_WITHOUT_ORDER (or
 * SOLVER_WITHOUT_ADVICE) goes without it. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Boards beyond this many squares or goals get no order: the pass tries a
 * box path from each start box to each goal left at each step. */
#define ORDER_MAX_SQUARES 1200
#define ORDER_MAX_GOALS 48

/* The start boxes tried for each goal at each step of the pass, nearest
 * first: the pass is heuristic, and a box path costs a search. */
#define ORDER_TRIES 8

/* The pushes bringing a start box onto goal g, occ marking the goals
 * full: those of the nearest of the ORDER_TRIES start boxes nearest g (by
 * the board's push distances) that gets there; -1 when none does. */
static int fill_cost(solver_macros *m, const uint16_t *boxes, uint16_t player, uint16_t *occ,
                     uint16_t g)
{
    const solver_board *b = m->b;
    uint32_t gi = 0;
    while (b->goals[gi] != g)
        gi++;
    uint16_t near[ORDER_TRIES];
    uint32_t dist[ORDER_TRIES], count = 0;
    for (uint32_t k = 0; k < b->nboxes; k++) {
        uint16_t x = boxes[k];
        uint32_t d = b->dist[(size_t)x * b->nboxes + gi];
        if (x == g)
            return 0;
        if (occ[x] != 0 || d == SOLVER_FAR)
            continue;
        solver_nearest_offer(near, dist, &count, ORDER_TRIES, x, d);
    }
    /* a player standing on a goal full in the pass sees it empty */
    uint16_t under = occ[player];
    occ[player] = 0;
    int cost = -1;
    for (uint32_t k = 0; k < count && cost < 0; k++) {
        uint16_t end;
        cost = solver_boxpath_find(&m->path, b, occ, near[k], g, player, &end);
    }
    occ[player] = under;
    return cost;
}

int solver_order_build(solver_macros *m, const uint16_t *boxes, uint16_t player)
{
    const solver_board *b = m->b;
    m->norder = 0;
    if (m->nrooms > 0 || b->nsq > ORDER_MAX_SQUARES || b->nboxes > ORDER_MAX_GOALS)
        return 0;
    uint16_t *order = malloc((b->nboxes + 1) * sizeof *order);
    uint16_t *occ = calloc(b->nsq + 1, sizeof *occ);
    if (order == NULL || occ == NULL) {
        free(order);
        free(occ);
        return -1;
    }
    memcpy(order, b->goals, b->nboxes * sizeof *order);
    for (uint32_t k = 0; k < b->nboxes; k++)
        occ[order[k]] = 1;
    uint32_t left = b->nboxes;
    for (; left > 0; left--) {
        int best = -1, best_cost = -1;
        for (uint32_t i = 0; i < left; i++) {
            uint16_t g = order[i];
            occ[g] = 0;
            int cost = fill_cost(m, boxes, player, occ, g);
            occ[g] = 1;
            if (cost >= 0 && (best < 0 || cost < best_cost)) {
                best = (int)i;
                best_cost = cost;
            }
        }
        if (best < 0)
            break;
        uint16_t g = order[best];
        order[best] = order[left - 1];
        order[left - 1] = g;
        occ[g] = 0;
    }
    free(occ);
    if (left > 0) {
        free(order);
        return 0;
    }
    m->order_rank = malloc((b->nsq + 1) * sizeof *m->order_rank);
    if (m->order_rank == NULL) {
        free(order);
        return -1;
    }
    for (uint32_t x = 0; x < b->nsq; x++)
        m->order_rank[x] = SOLVER_NONE;
    for (uint32_t k = 0; k < b->nboxes; k++)
        m->order_rank[order[k]] = (uint16_t)k;
    m->order = order;
    m->norder = b->nboxes;
    return 0;
}

uint32_t solver_order_filled(const solver_macros *m, const uint16_t *occ)
{
    uint32_t k = 0;
    while (k < m->norder && occ[m->order[k]] != 0)
        k++;
    return k;
}
