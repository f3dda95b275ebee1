/* Deadlock patterns learnt during a search. When the small search of
 * subsearch.c proves that a few boxes cannot all reach goals on their own,
 * the player starting in a given area around them, that set of boxes is a
 * pattern: any position holding those boxes, with the player in the same
 * area around them (other boxes ignored), is lost too, because whatever
 * solved it would also solve the boxes alone (the others only stand in the
 * way). A pattern is a fact about the level, not about one search's bound.
 *
 * The player's area around the pattern's boxes changes only when one of
 * them moves, and a position matches a pattern only once its last box is
 * in place, so a push needs to be checked only against the patterns
 * holding the square its box lands on: each square lists those. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

int solver_patterns_init(solver_patterns *p, const solver_board *b, uint64_t budget)
{
    memset(p, 0, sizeof *p);
    p->words = (b->nsq + 63) / 64;
    uint64_t each = SOLVER_SUB_BOXES * (sizeof *p->box + 2 * sizeof(uint32_t)) + 1 +
                    (uint64_t)p->words * sizeof *p->area;
    uint64_t cap = budget / each;
    p->cap = (uint32_t)(cap > SOLVER_PATTERNS_MAX ? SOLVER_PATTERNS_MAX : cap);
    p->box = malloc((size_t)p->cap * SOLVER_SUB_BOXES * sizeof *p->box + 1);
    p->count = malloc((size_t)p->cap + 1);
    p->area = malloc((size_t)p->cap * p->words * sizeof *p->area + 1);
    p->next = malloc((size_t)p->cap * SOLVER_SUB_BOXES * sizeof *p->next + 1);
    p->head = malloc(((size_t)b->nsq + 1) * sizeof *p->head);
    p->occ = calloc(b->nsq + 1, sizeof *p->occ);
    if (!p->box || !p->count || !p->area || !p->next || !p->head || !p->occ ||
        solver_fill_init(&p->fill, b->nsq) < 0)
        return -1;
    memset(p->head, 0xFF, ((size_t)b->nsq + 1) * sizeof *p->head);
    p->bytes = p->cap * each + ((uint64_t)b->nsq + 1) * (sizeof *p->head + sizeof *p->occ);
    return 0;
}

void solver_patterns_free(solver_patterns *p)
{
    free(p->box);
    free(p->count);
    free(p->area);
    free(p->next);
    free(p->head);
    free(p->occ);
    solver_fill_free(&p->fill);
    memset(p, 0, sizeof *p);
}

void solver_patterns_learn(solver_patterns *p, const solver_board *b, const uint16_t *box,
                           uint32_t n, uint16_t player)
{
    if (p->n == p->cap || n == 0 || n > SOLVER_SUB_BOXES)
        return;
    uint32_t k = p->n++;
    uint64_t *area = &p->area[(size_t)k * p->words];
    memset(area, 0, p->words * sizeof *area);
    for (uint32_t i = 0; i < n; i++)
        p->occ[box[i]] = 1;
    solver_reach(b, p->occ, player, &p->fill);
    for (uint32_t s = 0; s < b->nsq; s++)
        if (p->fill.mark[s] == p->fill.stamp)
            area[s / 64] |= (uint64_t)1 << (s % 64);
    /* each box's link k * SOLVER_SUB_BOXES + i chains the patterns on its square */
    for (uint32_t i = 0; i < n; i++) {
        p->occ[box[i]] = 0;
        uint32_t link = k * SOLVER_SUB_BOXES + i;
        p->box[link] = box[i];
        p->next[link] = p->head[box[i]];
        p->head[box[i]] = link;
    }
    p->count[k] = (uint8_t)n;
}

/* Whether pattern k is in the position. */
static bool holds(const solver_patterns *p, uint32_t k, const uint16_t *occ, uint16_t player)
{
    const uint16_t *box = &p->box[(size_t)k * SOLVER_SUB_BOXES];
    if (!(p->area[(size_t)k * p->words + player / 64] >> (player % 64) & 1))
        return false;
    for (uint32_t i = 0; i < p->count[k]; i++)
        if (occ[box[i]] == 0)
            return false;
    return true;
}

bool solver_patterns_match(solver_patterns *p, const uint16_t *occ, uint16_t to, uint16_t player)
{
    for (uint32_t link = p->head[to]; link != SOLVER_NIL; link = p->next[link]) {
        if (holds(p, link / SOLVER_SUB_BOXES, occ, player)) {
            p->hits++;
            return true;
        }
    }
    return false;
}

bool solver_patterns_any(const solver_patterns *p, const uint16_t *occ, uint16_t player)
{
    for (uint32_t k = 0; k < p->n; k++)
        if (holds(p, k, occ, player))
            return true;
    return false;
}
