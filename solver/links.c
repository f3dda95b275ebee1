/* Room links (after the room-connectivity feature of Festival's FESS
 * search). The floor falls into rooms joined by passages: a passage is a
 * run of squares one square wide (walls on both sides across it, as in a
 * corridor or a doorway), a room what is left. A passage that opens onto
 * the floor at two ends or more links rooms; a box standing in it stops
 * the player from going through, whatever else the position holds. The
 * number of linked passages holding a box measures how much the boxes
 * stand in the player's way between rooms, where the areas cut off count
 * only the empty squares the player cannot reach at all: a box in a
 * doorway of a loop cuts nothing off, yet the player must go round.
 *
 * On trial (SOLVER_WITH_LINKS): as a split of the feature-space cells it
 * solved 53 XSokoban levels at 500,000 positions where the solver without
 * it solves 56 (none won), and 23 Sasquatch levels at 200,000 against 24;
 * added to the areas cut off in the open lists' mixes, or to a cell's
 * order, it lost one and two XSokoban levels. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Whether square s is one square wide across some direction: walls (or
 * the level's edge) on both sides. */
static bool narrow(const solver_board *b, uint32_t s)
{
    const uint16_t *nb = &b->nb[s * 4];
    return (nb[0] == SOLVER_NONE && nb[2] == SOLVER_NONE) ||
           (nb[1] == SOLVER_NONE && nb[3] == SOLVER_NONE);
}

int solver_links_init(solver_links *l, const solver_board *b)
{
    memset(l, 0, sizeof *l);
    l->link_of = malloc((b->nsq + 1) * sizeof *l->link_of);
    uint16_t *queue = malloc((b->nsq + 1) * sizeof *queue);
    uint16_t *passage = malloc((b->nsq + 1) * sizeof *passage);
    if (l->link_of == NULL || queue == NULL || passage == NULL) {
        free(queue);
        free(passage);
        solver_links_free(l);
        return -1;
    }
    for (uint32_t s = 0; s < b->nsq; s++)
        passage[s] = narrow(b, s) ? 0 : SOLVER_NONE;
    uint32_t npassages = 0;
    for (uint32_t s = 0; s < b->nsq; s++)
        l->link_of[s] = SOLVER_NONE;
    /* each passage filled in turn; one that opens onto the floor at two
     * squares or more is a link, named by its number among links */
    for (uint32_t s = 0; s < b->nsq; s++) {
        if (passage[s] != 0)
            continue;
        uint16_t id = (uint16_t)(++npassages);
        uint32_t head = 0, tail = 0, mouths = 0;
        passage[s] = id;
        queue[tail++] = (uint16_t)s;
        while (head < tail) {
            uint16_t q = queue[head++];
            for (int d = 0; d < 4; d++) {
                uint16_t t = b->nb[q * 4 + d];
                if (t == SOLVER_NONE)
                    continue;
                if (passage[t] == SOLVER_NONE) {
                    mouths++;
                } else if (passage[t] == 0) {
                    passage[t] = id;
                    queue[tail++] = t;
                }
            }
        }
        if (mouths < 2 || l->nlinks == SOLVER_NONE - 1)
            continue;
        for (uint32_t k = 0; k < tail; k++)
            l->link_of[queue[k]] = (uint16_t)l->nlinks;
        l->nlinks++;
    }
    free(queue);
    free(passage);
    l->seen = calloc(l->nlinks + 1, sizeof *l->seen);
    if (l->seen == NULL) {
        solver_links_free(l);
        return -1;
    }
    l->bytes = (uint64_t)(b->nsq + 1) * sizeof *l->link_of + l->nlinks + 1;
    return 0;
}

void solver_links_free(solver_links *l)
{
    free(l->link_of);
    free(l->seen);
    memset(l, 0, sizeof *l);
}

uint32_t solver_links_blocked(solver_links *l, const uint16_t *box, uint32_t n)
{
    uint32_t blocked = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint16_t link = l->link_of[box[k]];
        if (link != SOLVER_NONE && !l->seen[link]) {
            l->seen[link] = 1;
            blocked++;
        }
    }
    for (uint32_t k = 0; k < n; k++) {
        uint16_t link = l->link_of[box[k]];
        if (link != SOLVER_NONE)
            l->seen[link] = 0;
    }
    return blocked;
}
