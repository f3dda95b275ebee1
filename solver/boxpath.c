/* Box paths: the fewest pushes that bring one box to a square, the other
 * boxes staying where they are, searched over (box square, player side)
 * states with the player's area recomputed around the box after each push. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

int solver_boxpath_init(solver_boxpath *bp, const solver_board *b)
{
    memset(bp, 0, sizeof *bp);
    size_t states = (size_t)b->nsq * 4 + 1;
    bp->prev = malloc(states * sizeof *bp->prev);
    bp->queue = malloc(states * sizeof *bp->queue);
    bp->path = malloc(states * sizeof *bp->path);
    bp->area = calloc(b->nsq + 1, 1); /* all zero between fills (see sides_reached) */
    bp->fill = malloc((b->nsq + 1) * sizeof *bp->fill);
    bp->near = malloc(b->nsq + 1);
    return bp->prev && bp->queue && bp->path && bp->area && bp->fill && bp->near ? 0 : -1;
}

void solver_boxpath_free(solver_boxpath *bp)
{
    free(bp->prev);
    free(bp->queue);
    free(bp->path);
    free(bp->area);
    free(bp->fill);
    free(bp->near);
    memset(bp, 0, sizeof *bp);
}

void solver_boxpath_area(solver_boxpath *bp, const solver_board *b, const uint16_t *occ,
                         uint16_t start, uint16_t box)
{
    memset(bp->area, 0, b->nsq);
    uint32_t head = 0, tail = 0;
    bp->area[start] = 1;
    bp->fill[tail++] = start;
    while (head < tail) {
        uint16_t s = bp->fill[head++];
        for (int d = 0; d < 4; d++) {
            uint16_t t = b->nb[s * 4 + d];
            if (t == SOLVER_NONE || t == box || occ[t] || bp->area[t])
                continue;
            bp->area[t] = 1;
            bp->fill[tail++] = t;
        }
    }
}

/* near[y] of a search: bit d set when the neighbour of y on side d was in
 * the player's area last worked out with the box on y; NEAR_KNOWN once one
 * was. The box comes onto y from up to four sides, but the player behind
 * it is most often in an area already worked out, whose sides then hold. */
#define NEAR_KNOWN 0x10u

/* The sides of y the player reaches from its side `side` (the square it
 * stands on after pushing the box onto y), the box on y. The fill stops
 * once it has found every free side: around a box in the open that takes
 * a few squares, where the whole area is most of the level. bp->area is
 * all zero before and after. */
static uint8_t sides_reached(solver_boxpath *bp, const solver_board *b, const uint16_t *occ,
                             uint16_t y, int side)
{
    uint8_t known = bp->near[y];
    if ((known & NEAR_KNOWN) && (known >> side & 1))
        return known;
    const uint16_t *around = &b->nb[y * 4];
    uint8_t sides = (uint8_t)(NEAR_KNOWN | 1u << side);
    int left = 0;
    for (int d = 0; d < 4; d++)
        left += d != side && around[d] != SOLVER_NONE && occ[around[d]] == 0;
    uint32_t head = 0, tail = 0;
    bp->area[around[side]] = 1;
    bp->fill[tail++] = around[side];
    while (head < tail && left > 0) {
        uint16_t s = bp->fill[head++];
        for (int d = 0; d < 4; d++) {
            uint16_t t = b->nb[s * 4 + d];
            if (t == SOLVER_NONE || t == y || occ[t] || bp->area[t])
                continue;
            bp->area[t] = 1;
            bp->fill[tail++] = t;
            for (int e = 0; e < 4; e++) {
                if (around[e] == t) {
                    sides |= (uint8_t)(1u << e);
                    left--;
                }
            }
        }
    }
    for (uint32_t k = 0; k < tail; k++)
        bp->area[bp->fill[k]] = 0;
    bp->near[y] = sides;
    return sides;
}

/* The push distances to `to` when it is a goal (a box on a square at
 * distance FAR never gets there), else NULL. */
static const uint16_t *distances_to(const solver_board *b, uint16_t to)
{
    if (!b->goal[to])
        return NULL;
    uint32_t g = 0;
    while (b->goals[g] != to)
        g++;
    return &b->dist[g];
}

/* The search of solver_boxpath_find and solver_boxpath_find_in, the
 * player starting on the sides of `from` set in `start` (bit d: side d). */
static int find_path(solver_boxpath *bp, const solver_board *b, const uint16_t *occ, uint16_t from,
                     uint16_t to, uint8_t start, uint16_t *player_end)
{
    /* Squares the box cannot get to `to` from, the other boxes aside, are
     * never entered: a failing search (the packing advisor's, most often)
     * then stops at the squares that can still lead there. A box on a
     * dead square reaches no square that is not dead. */
    const uint16_t *dist = distances_to(b, to);
    bool prune_dead = !b->dead[to];
    uint32_t nstates = b->nsq * 4;
    for (uint32_t k = 0; k < nstates; k++)
        bp->prev[k] = SOLVER_NIL;
    memset(bp->near, 0, b->nsq);
    uint32_t head = 0, tail = 0, goal = SOLVER_NIL;
    for (int d = 0; d < 4; d++) {
        if (start >> d & 1) {
            uint32_t st = from * 4u + (uint32_t)d;
            bp->prev[st] = st; /* a start state is its own parent */
            bp->queue[tail++] = st;
        }
    }
    while (head < tail && goal == SOLVER_NIL) {
        uint32_t st = bp->queue[head++];
        uint16_t x = (uint16_t)(st / 4);
        int side = (int)(st % 4);
        uint16_t y = b->nb[x * 4 + (side ^ 2)];
        if (y == SOLVER_NONE || occ[y])
            continue;
        if (dist != NULL ? dist[(size_t)y * b->nboxes] == SOLVER_FAR : prune_dead && b->dead[y])
            continue;
        uint8_t sides = sides_reached(bp, b, occ, y, side);
        for (int d = 0; d < 4 && goal == SOLVER_NIL; d++) {
            uint32_t next = y * 4u + (uint32_t)d;
            if (!(sides >> d & 1) || bp->prev[next] != SOLVER_NIL)
                continue;
            bp->prev[next] = st;
            bp->queue[tail++] = next;
            if (y == to)
                goal = next;
        }
    }
    if (goal == SOLVER_NIL)
        return -1;
    uint32_t n = 0;
    for (uint32_t st = goal; bp->prev[st] != st; st = bp->prev[st])
        n++;
    uint32_t k = n;
    for (uint32_t st = goal; bp->prev[st] != st; st = bp->prev[st])
        bp->path[--k] = bp->prev[st];
    /* the player ends where the box stood before the last push */
    *player_end = (uint16_t)(bp->path[n - 1] / 4);
    return (int)n;
}

int solver_boxpath_find(solver_boxpath *bp, const solver_board *b, const uint16_t *occ,
                        uint16_t from, uint16_t to, uint16_t player, uint16_t *player_end)
{
    if (from == to) {
        *player_end = player;
        return 0;
    }
    solver_boxpath_area(bp, b, occ, player, from);
    uint8_t start = 0;
    for (int d = 0; d < 4; d++) {
        uint16_t q = b->nb[from * 4 + d];
        if (q != SOLVER_NONE && bp->area[q])
            start |= (uint8_t)(1u << d);
    }
    memset(bp->area, 0, b->nsq);
    return find_path(bp, b, occ, from, to, start, player_end);
}

int solver_boxpath_find_in(solver_boxpath *bp, const solver_board *b, const uint16_t *occ,
                           uint16_t from, uint16_t to, const solver_fill *area, uint16_t player,
                           uint16_t *player_end)
{
    if (from == to) {
        *player_end = player;
        return 0;
    }
    uint8_t start = 0;
    for (int d = 0; d < 4; d++) {
        uint16_t q = b->nb[from * 4 + d];
        if (q != SOLVER_NONE && area->mark[q] == area->stamp)
            start |= (uint8_t)(1u << d);
    }
    return find_path(bp, b, occ, from, to, start, player_end);
}

void solver_nearest_offer(uint16_t *near, uint32_t *dist, uint32_t *count, uint32_t cap, uint16_t x,
                          uint32_t d)
{
    /* an insertion among the nearest so far, the farthest falling off */
    uint32_t j = *count < cap ? (*count)++ : cap;
    for (; j > 0 && dist[j - 1] > d; j--) {
        if (j < cap) {
            near[j] = near[j - 1];
            dist[j] = dist[j - 1];
        }
    }
    if (j < cap) {
        near[j] = x;
        dist[j] = d;
    }
}
