/* Goals walled off by frozen boxes. A box frozen on a goal stays there for
 * good: it is a wall from then on, and may cut other goals off from every
 * box (a goal room whose entrance it blocks). Checked by pulling from each
 * goal that is left, with the frozen boxes as walls and the other boxes
 * ignored, then matching boxes to goals they can reach. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Beyond this many boxes the matrix of the check costs more than it saves. */
#define MAX_CHECKED_BOXES 400

int solver_fixed_init(solver_fixed *fx, const solver_board *b)
{
    memset(fx, 0, sizeof *fx);
    uint32_t n = b->nboxes;
    if (n > MAX_CHECKED_BOXES)
        return 0;
    fx->wall = calloc(b->nsq + 1, 1);
    fx->mark = calloc(b->nsq + 1, 1);
    fx->queue = malloc((b->nsq + 1) * sizeof *fx->queue);
    fx->edge = malloc((size_t)n * n + 1);
    fx->boxes = malloc((n + 1) * sizeof *fx->boxes);
    fx->goals = malloc((n + 1) * sizeof *fx->goals);
    fx->owner = malloc((n + 1) * sizeof *fx->owner);
    fx->visited = malloc(n + 1);
    if (!fx->wall || !fx->mark || !fx->queue || !fx->edge || !fx->boxes || !fx->goals ||
        !fx->owner || !fx->visited)
        return -1;
    fx->n = n;
    return 0;
}

void solver_fixed_free(solver_fixed *fx)
{
    free(fx->wall);
    free(fx->mark);
    free(fx->queue);
    free(fx->edge);
    free(fx->boxes);
    free(fx->goals);
    free(fx->owner);
    free(fx->visited);
    memset(fx, 0, sizeof *fx);
}

/* Marks the squares a box could be pushed to `goal` from, with the frozen
 * boxes as walls and the player anywhere it is not walled off. */
static void pull_from(solver_fixed *fx, const solver_board *b, uint16_t goal)
{
    memset(fx->mark, 0, b->nsq);
    uint32_t head = 0, tail = 0;
    fx->mark[goal] = 1;
    fx->queue[tail++] = goal;
    while (head < tail) {
        uint16_t y = fx->queue[head++];
        for (int d = 0; d < 4; d++) {
            uint16_t x = b->nb[y * 4 + (d ^ 2)];
            if (x == SOLVER_NONE || fx->wall[x] || fx->mark[x])
                continue;
            uint16_t p = b->nb[x * 4 + (d ^ 2)];
            if (p == SOLVER_NONE || fx->wall[p])
                continue;
            fx->mark[x] = 1;
            fx->queue[tail++] = x;
        }
    }
}

/* Kuhn's augmenting path from box i. */
static bool augment(solver_fixed *fx, uint32_t m, uint32_t i)
{
    for (uint32_t j = 0; j < m; j++) {
        if (!fx->edge[i * m + j] || fx->visited[j])
            continue;
        fx->visited[j] = 1;
        if (fx->owner[j] == SOLVER_NONE || augment(fx, m, fx->owner[j])) {
            fx->owner[j] = (uint16_t)i;
            return true;
        }
    }
    return false;
}

bool solver_fixed_deadlock(solver_fixed *fx, const solver_board *b, const uint16_t *occ,
                           const uint16_t *box, uint8_t *work)
{
    if (fx->n == 0)
        return false;
    uint32_t m = 0, fixed = 0;
    for (uint32_t k = 0; k < b->nboxes; k++) {
        uint16_t s = box[k];
        bool frozen = b->goal[s] && solver_freeze_check(b, occ, s, work) == SOLVER_FROZEN_ON_GOALS;
        fx->wall[s] = frozen;
        fixed += frozen;
        if (!frozen)
            fx->boxes[m++] = s;
    }
    uint32_t g = 0;
    for (uint32_t k = 0; k < b->nboxes; k++)
        if (!fx->wall[b->goals[k]])
            fx->goals[g++] = b->goals[k];
    bool lost = false;
    if (g == m && m > 0 && fixed > 0) {
        for (uint32_t j = 0; j < m && !lost; j++) {
            pull_from(fx, b, fx->goals[j]);
            bool any = false;
            for (uint32_t i = 0; i < m; i++) {
                fx->edge[i * m + j] = fx->mark[fx->boxes[i]];
                any = any || fx->edge[i * m + j];
            }
            lost = !any;
        }
        for (uint32_t j = 0; j < m; j++)
            fx->owner[j] = SOLVER_NONE;
        for (uint32_t i = 0; i < m && !lost; i++) {
            memset(fx->visited, 0, m);
            lost = !augment(fx, m, i);
        }
    }
    for (uint32_t k = 0; k < b->nboxes; k++)
        fx->wall[box[k]] = 0;
    return lost;
}
