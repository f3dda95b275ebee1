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
    fx->words = (b->nsq + 63) / 64;
    uint64_t entry = (uint64_t)fx->words * (n + 1) * sizeof *fx->sets;
    uint32_t slots = 64;
    while (slots > 1 && entry * slots > SOLVER_FIXED_CACHE_BYTES)
        slots /= 2;
    fx->keys = calloc(slots, sizeof *fx->keys);
    fx->valid = calloc(slots, 1);
    fx->sets = malloc(entry * slots);
    if (!fx->keys || !fx->valid || !fx->sets)
        return -1;
    fx->slots = slots;
    fx->bytes = entry * slots + (uint64_t)n * n + (uint64_t)b->nsq * 4;
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
    free(fx->keys);
    free(fx->valid);
    free(fx->sets);
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

static bool has(const uint64_t *set, uint32_t x)
{
    return (set[x / 64] >> (x % 64)) & 1;
}

/* The squares each goal left is reached from, for the frozen boxes now
 * marked in fx->wall (key: their Zobrist hash): from the cache when this
 * set of frozen boxes was seen lately, else pulled from each goal and kept.
 * Goal j's squares are the words at the result + (j + 1) * words. */
static const uint64_t *reached_from_goals(solver_fixed *fx, const solver_board *b, uint64_t key,
                                          const uint16_t *frozen, uint32_t nfrozen, uint32_t g)
{
    uint32_t w = fx->words;
    uint32_t slot = (uint32_t)(key >> 32) & (fx->slots - 1);
    uint64_t *set = &fx->sets[(size_t)slot * w * (fx->n + 1)];
    if (fx->valid[slot] && fx->keys[slot] == key) {
        bool same = true;
        for (uint32_t k = 0; k < nfrozen && same; k++)
            same = has(set, frozen[k]);
        /* as many squares in the kept set as frozen boxes now */
        uint32_t count = 0;
        for (uint32_t k = 0; k < w && same; k++)
            count += (uint32_t)__builtin_popcountll(set[k]);
        if (same && count == nfrozen)
            return set;
    }
    memset(set, 0, (size_t)w * (g + 1) * sizeof *set);
    for (uint32_t k = 0; k < nfrozen; k++)
        set[frozen[k] / 64] |= (uint64_t)1 << (frozen[k] % 64);
    for (uint32_t j = 0; j < g; j++) {
        pull_from(fx, b, fx->goals[j]);
        uint64_t *from = &set[(size_t)(j + 1) * w];
        for (uint32_t x = 0; x < b->nsq; x++)
            if (fx->mark[x])
                from[x / 64] |= (uint64_t)1 << (x % 64);
    }
    fx->keys[slot] = key;
    fx->valid[slot] = 1;
    return set;
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
    uint64_t key = 0;
    for (uint32_t k = 0; k < b->nboxes; k++) {
        uint16_t s = box[k];
        bool frozen = b->goal[s] && solver_freeze_check(b, occ, s, work) == SOLVER_FROZEN_ON_GOALS;
        fx->wall[s] = frozen;
        if (frozen) {
            /* the frozen boxes gather at the back of `boxes` */
            fx->boxes[b->nboxes - 1 - fixed] = s;
            key ^= b->zbox[s];
            fixed++;
        } else {
            fx->boxes[m++] = s;
        }
    }
    uint32_t g = 0;
    for (uint32_t k = 0; k < b->nboxes; k++)
        if (!fx->wall[b->goals[k]])
            fx->goals[g++] = b->goals[k];
    bool lost = false;
    if (g == m && m > 0 && fixed > 0) {
        const uint64_t *sets =
            reached_from_goals(fx, b, key, &fx->boxes[b->nboxes - fixed], fixed, g);
        for (uint32_t j = 0; j < m && !lost; j++) {
            const uint64_t *from = &sets[(size_t)(j + 1) * fx->words];
            bool any = false;
            for (uint32_t i = 0; i < m; i++) {
                fx->edge[i * m + j] = has(from, fx->boxes[i]);
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
