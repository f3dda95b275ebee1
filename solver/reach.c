/* The player's area after one push, derived from the area before it. A
 * push moves a box from `from` to `to` and leaves the player on `from`.
 * When `to` lay outside the old area, or taking it out leaves the squares
 * around it joined through the eight squares that ring it, the old area
 * survives whole (less `to`) and the new one is that plus whatever `from`
 * opens: only those new squares need a fill, where a full fill covers the
 * whole area again for every child of a node. */
#include "internal.h"

/* Whether the free squares next to `to` (occ marking the boxes after the
 * push) all lie in one run of free squares around the ring of its eight
 * neighbours, so that the squares next to it stay joined without it. A
 * diagonal square is found through either of its two orthogonal ones; when
 * both are walls it joins nothing and counts as blocked. */
static bool ring_joined(const solver_board *b, const uint16_t *occ, uint16_t to)
{
    bool free[8];
    for (int d = 0; d < 4; d++) {
        int e = (d + 1) & 3;
        uint16_t o = b->nb[to * 4 + d], p = b->nb[to * 4 + e];
        uint16_t diag = SOLVER_NONE;
        if (o != SOLVER_NONE)
            diag = b->nb[o * 4 + e];
        else if (p != SOLVER_NONE)
            diag = b->nb[p * 4 + d];
        free[2 * d] = o != SOLVER_NONE && occ[o] == 0;
        free[2 * d + 1] = diag != SOLVER_NONE && occ[diag] == 0;
    }
    int start = -1;
    for (int k = 0; k < 8 && start < 0; k++)
        if (!free[k])
            start = k;
    if (start < 0)
        return true;
    /* walk the ring once from a blocked square, counting the runs that
     * hold an orthogonal neighbour */
    int runs = 0;
    bool in_run = false, counted = false;
    for (int step = 1; step <= 8; step++) {
        int k = (start + step) & 7;
        if (!free[k]) {
            in_run = false;
            continue;
        }
        if (!in_run) {
            in_run = true;
            counted = false;
        }
        if ((k & 1) == 0 && !counted) {
            counted = true;
            runs++;
        }
    }
    return runs <= 1;
}

/* Squares the fill of near_joined may take before it gives up. */
#define JOIN_SQUARES 32

/* Whether the free squares next to `to` that lay in the area before the
 * push still join without it, through a way longer than the ring (round
 * another box, most often): a fill from one of them over free squares
 * meets the others within JOIN_SQUARES squares. Any way through `to` in
 * the old area then goes round it, so the old area survives whole (less
 * `to`). The fill uses probe's marks and queue. */
static bool near_joined(const solver_board *b, const uint16_t *occ, const solver_fill *before,
                        uint16_t to, solver_fill *probe)
{
    uint16_t want[4];
    uint32_t wanted = 0;
    for (int d = 0; d < 4; d++) {
        uint16_t t = b->nb[to * 4 + d];
        if (t != SOLVER_NONE && occ[t] == 0 && before->mark[t] == before->stamp)
            want[wanted++] = t;
    }
    if (wanted <= 1)
        return true;
    solver_fill_begin(probe);
    uint32_t head = 0, tail = 0, met = 1;
    probe->mark[want[0]] = probe->stamp;
    probe->queue[tail++] = want[0];
    while (head < tail && tail < JOIN_SQUARES) {
        uint16_t s = probe->queue[head++];
        for (int d = 0; d < 4; d++) {
            uint16_t t = b->nb[s * 4 + d];
            if (t == SOLVER_NONE || occ[t] != 0 || probe->mark[t] == probe->stamp)
                continue;
            probe->mark[t] = probe->stamp;
            probe->queue[tail++] = t;
            for (uint32_t k = 1; k < wanted; k++)
                met += want[k] == t;
            if (met == wanted)
                return true;
        }
    }
    return false;
}

uint16_t solver_reach_push(const solver_board *b, const uint16_t *occ, const solver_fill *before,
                           uint16_t least, uint16_t from, uint16_t to, solver_fill *after,
                           bool *grown)
{
    bool to_inside = before->mark[to] == before->stamp;
    if (to_inside &&
        (to == least || (!ring_joined(b, occ, to) && !near_joined(b, occ, before, to, after)))) {
        *grown = false;
        return solver_reach(b, occ, from, after);
    }
    *grown = true;
    solver_fill_begin(after);
    uint32_t head = 0, tail = 0;
    after->mark[from] = after->stamp;
    after->queue[tail++] = from;
    if (from < least)
        least = from;
    while (head < tail) {
        uint16_t s = after->queue[head++];
        const uint16_t *nb = &b->nb[s * 4];
        for (int d = 0; d < 4; d++) {
            uint16_t t = nb[d];
            if (t == SOLVER_NONE || occ[t] != 0 || after->mark[t] == after->stamp ||
                before->mark[t] == before->stamp)
                continue;
            after->mark[t] = after->stamp;
            after->queue[tail++] = t;
            if (t < least)
                least = t;
        }
    }
    after->size = before->size - (to_inside ? 1u : 0u) + tail;
    return least;
}
