/* The lower bound: a minimum-cost assignment of boxes to goals, the cost of
 * a pair being the pushes that box needs to reach that goal when the other
 * boxes are ignored. Solved with the Hungarian method in its shortest
 * augmenting path form, whose duals let a one-box change be re-solved with a
 * single augmentation. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* The cost of an impossible pair: more than any sum of real distances. */
#define IMPOSSIBLE ((int64_t)1 << 40)

int solver_match_init(solver_match *m, uint32_t n)
{
    memset(m, 0, sizeof *m);
    m->n = n;
    m->u = calloc(n + 1, sizeof *m->u);
    m->v = calloc(n + 1, sizeof *m->v);
    m->p = calloc(n + 1, sizeof *m->p);
    m->minv = calloc(n + 1, sizeof *m->minv);
    m->way = calloc(n + 1, sizeof *m->way);
    m->used = calloc(n + 1, 1);
    m->rows = calloc(n + 1, sizeof *m->rows);
    bool ok = m->u && m->v && m->p && m->minv && m->way && m->used && m->rows;
    return ok ? 0 : -1;
}

void solver_match_free(solver_match *m)
{
    free(m->u);
    free(m->v);
    free(m->p);
    free(m->minv);
    free(m->way);
    free(m->used);
    free(m->rows);
    memset(m, 0, sizeof *m);
}

void solver_match_copy(solver_match *dst, const solver_match *src)
{
    size_t n = src->n + 1;
    memcpy(dst->u, src->u, n * sizeof *dst->u);
    memcpy(dst->v, src->v, n * sizeof *dst->v);
    memcpy(dst->p, src->p, n * sizeof *dst->p);
    dst->cost = src->cost;
}

static int64_t pair_cost(const solver_board *b, const uint16_t *box, uint32_t row, uint32_t col)
{
    uint16_t d = b->dist[box[row - 1] * b->nboxes + col - 1];
    return d == SOLVER_FAR ? IMPOSSIBLE : d;
}

/* Matches row i (1-based, currently unmatched) along a shortest augmenting
 * path in reduced costs, keeping the duals feasible and tight. The duals
 * are moved once at the end rather than at every step of the path: the
 * distances of the columns not yet reached are kept plus `spent` (the sum
 * of the steps so far), and a column reached keeps in minv what had been
 * spent when it was, so that it owes the rest. The sums are the same, and
 * so are the comparisons, ties included. */
static void augment(solver_match *m, const solver_board *b, const uint16_t *box, uint32_t i)
{
    uint32_t n = m->n;
    int64_t *u = m->u, *v = m->v, *minv = m->minv;
    uint32_t *p = m->p, *way = m->way;
    uint8_t *used = m->used;
    for (uint32_t j = 0; j <= n; j++) {
        minv[j] = INT64_MAX;
        used[j] = 0;
    }
    p[0] = i;
    uint32_t j0 = 0;
    int64_t spent = 0;
    do {
        used[j0] = 1;
        minv[j0] = spent;
        uint32_t i0 = p[j0], j1 = 0;
        int64_t least = INT64_MAX, base = spent - u[i0];
        const uint16_t *row = &b->dist[box[i0 - 1] * b->nboxes];
        for (uint32_t j = 1; j <= n; j++) {
            if (used[j])
                continue;
            int64_t c = row[j - 1] == SOLVER_FAR ? IMPOSSIBLE : row[j - 1];
            int64_t cur = c + base - v[j];
            if (cur < minv[j]) {
                minv[j] = cur;
                way[j] = j0;
            }
            if (minv[j] < least) {
                least = minv[j];
                j1 = j;
            }
        }
        spent = least;
        j0 = j1;
    } while (p[j0] != 0);
    for (uint32_t j = 0; j <= n; j++) {
        if (used[j]) {
            int64_t owed = spent - minv[j];
            u[p[j]] += owed;
            v[j] -= owed;
        }
    }
    do {
        uint32_t j1 = way[j0];
        p[j0] = p[j1];
        j0 = j1;
    } while (j0 != 0);
}

static uint32_t total(solver_match *m, const solver_board *b, const uint16_t *box)
{
    int64_t sum = 0;
    for (uint32_t j = 1; j <= m->n; j++)
        sum += pair_cost(b, box, m->p[j], j);
    m->cost = sum;
    return sum >= IMPOSSIBLE || sum >= SOLVER_BOUND_DEAD ? SOLVER_BOUND_DEAD : (uint32_t)sum;
}

/* Any feasible duals with tight matched pairs will do as a start, so
 * columns take their cheapest cost, rows the least that is left, and each row
 * the first free goal it then reaches at no cost: most boxes are matched
 * before any augmenting path. */
uint32_t solver_match_solve(solver_match *m, const solver_board *b, const uint16_t *box)
{
    uint32_t n = m->n;
    m->u[0] = m->v[0] = 0;
    for (uint32_t j = 0; j <= n; j++)
        m->p[j] = 0;
    for (uint32_t j = 1; j <= n; j++)
        m->v[j] = IMPOSSIBLE;
    for (uint32_t i = 1; i <= n; i++) {
        const uint16_t *row = &b->dist[box[i - 1] * b->nboxes];
        for (uint32_t j = 1; j <= n; j++)
            if (row[j - 1] != SOLVER_FAR && row[j - 1] < m->v[j])
                m->v[j] = row[j - 1];
    }
    for (uint32_t i = 1; i <= n; i++) {
        const uint16_t *row = &b->dist[box[i - 1] * b->nboxes];
        int64_t least = INT64_MAX;
        for (uint32_t j = 1; j <= n; j++) {
            int64_t c = (row[j - 1] == SOLVER_FAR ? IMPOSSIBLE : row[j - 1]) - m->v[j];
            if (c < least)
                least = c;
        }
        m->u[i] = least;
        m->used[i] = 0; /* here: whether row i is matched */
        for (uint32_t j = 1; j <= n; j++) {
            int64_t c = row[j - 1] == SOLVER_FAR ? IMPOSSIBLE : row[j - 1];
            if (m->p[j] == 0 && c - m->v[j] == least) {
                m->p[j] = i;
                m->used[i] = 1;
                break;
            }
        }
    }
    /* augment() reuses `used`, so collect the rows left first */
    uint32_t left = 0;
    for (uint32_t i = 1; i <= n; i++)
        if (!m->used[i])
            m->rows[left++] = i;
    for (uint32_t k = 0; k < left; k++)
        augment(m, b, box, m->rows[k]);
    return total(m, b, box);
}

uint32_t solver_match_update(solver_match *m, const solver_board *b, const uint16_t *box,
                             uint32_t row)
{
    uint32_t i = row + 1;
    for (uint32_t j = 1; j <= m->n; j++) {
        if (m->p[j] == i) {
            m->p[j] = 0;
            break;
        }
    }
    /* the row's new potential: the largest that keeps its reduced costs
     * non-negative */
    int64_t least = INT64_MAX;
    for (uint32_t j = 1; j <= m->n; j++) {
        int64_t c = pair_cost(b, box, i, j) - m->v[j];
        if (c < least)
            least = c;
    }
    m->u[i] = least;
    augment(m, b, box, i);
    return total(m, b, box);
}
