/* PI-corral pruning. A corral here is a connected area of squares the player
 * cannot reach, boxes included. Until one of its boxes moves the player never
 * enters it, and only its barrier boxes (those touching the player's area)
 * can be pushed, always from the player's present area. When no push of a
 * barrier box can go anywhere but into the corral or onto a dead square, and
 * the corral must change (a box off goal, or an empty goal, in it), every
 * solution contains one of the pushes into the corral, and can be reordered
 * to make it first: pushes elsewhere never touch the corral. So only those
 * pushes need to be searched; when there are none, the position is lost. */
#include "internal.h"

#include <stdlib.h>

int solver_corral_init(solver_corral *c, const solver_board *b)
{
    c->comp = calloc(b->nsq + 1, sizeof *c->comp);
    c->queue = malloc((b->nsq + 1) * sizeof *c->queue);
    c->best = malloc(((size_t)b->nboxes * 4 + 4) * sizeof *c->best);
    c->cand = malloc(((size_t)b->nboxes * 4 + 4) * sizeof *c->cand);
    c->stamp = 0;
    return c->comp && c->queue && c->best && c->cand ? 0 : -1;
}

void solver_corral_free(solver_corral *c)
{
    free(c->comp);
    free(c->queue);
    free(c->best);
    free(c->cand);
    c->comp = NULL;
    c->queue = NULL;
    c->best = NULL;
    c->cand = NULL;
}

static bool reached(const solver_fill *reach, uint16_t s)
{
    return reach->mark[s] == reach->stamp;
}

/* Fills the corral holding `start` (stamped in c->comp). Returns the number
 * of pushes into it, with the pushes in c->cand, or -1 when the corral does
 * not qualify. */
static int examine(solver_corral *c, const solver_board *b, const uint16_t *occ,
                   const solver_fill *reach, uint16_t start)
{
    uint32_t head = 0, tail = 0;
    c->comp[start] = c->stamp;
    c->queue[tail++] = start;
    bool must_change = false;
    while (head < tail) {
        uint16_t s = c->queue[head++];
        if (b->goal[s] != (occ[s] != 0))
            must_change = true;
        for (int d = 0; d < 4; d++) {
            uint16_t t = b->nb[s * 4 + d];
            if (t == SOLVER_NONE || reached(reach, t) || c->comp[t] == c->stamp)
                continue;
            c->comp[t] = c->stamp;
            c->queue[tail++] = t;
        }
    }
    if (!must_change)
        return -1;
    int n = 0;
    bool qualifies = true;
    for (uint32_t k = 0; k < tail && qualifies; k++) {
        uint16_t s = c->queue[k];
        if (occ[s] == 0)
            continue;
        for (int d = 0; d < 4; d++) {
            uint16_t from = b->nb[s * 4 + (d ^ 2)], to = b->nb[s * 4 + d];
            if (from == SOLVER_NONE || to == SOLVER_NONE || !reached(reach, from) || occ[to])
                continue;
            if (reached(reach, to)) {
                if (!b->dead[to]) {
                    qualifies = false; /* the box could leave along the barrier */
                    break;
                }
                continue;
            }
            if (!b->dead[to])
                c->cand[n++] = (solver_push){s, (uint8_t)d};
        }
    }
    return qualifies ? n : -1;
}

int solver_corral_find(solver_corral *c, const solver_board *b, const uint16_t *occ,
                       const solver_fill *reach)
{
    int best = -1;
    c->stamp++;
    if (c->stamp == 0) {
        for (uint32_t s = 0; s < b->nsq; s++)
            c->comp[s] = 0;
        c->stamp = 1;
    }
    /* every corral touches the player's area through a box */
    for (uint32_t s = 0; s < b->nsq; s++) {
        if (occ[s] == 0 || c->comp[s] == c->stamp)
            continue;
        bool barrier = false;
        for (int d = 0; d < 4 && !barrier; d++) {
            uint16_t t = b->nb[s * 4 + d];
            barrier = t != SOLVER_NONE && reached(reach, t);
        }
        if (!barrier)
            continue;
        int n = examine(c, b, occ, reach, (uint16_t)s);
        if (n >= 0 && (best < 0 || n < best)) {
            best = n;
            solver_push *swap = c->best;
            c->best = c->cand;
            c->cand = swap;
            if (n == 0)
                break;
        }
    }
    return best;
}
