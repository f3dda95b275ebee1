/* Relevance cuts, after Junghanns and Schaeffer's Rolling Stone: a solution
 * mostly works on one spot of the level at a time, and a search that jumps
 * between unrelated spots tries the same plans in every interleaving. A
 * push is near when its box stands within RELEVANCE_NEAR steps (walking the
 * level without boxes) of where one of the last RELEVANCE_MEMORY pushes
 * left its box; the search tries a push that is not near only after
 * RELEVANCE_RUN near ones in a row, after a macro took a box on, or when no
 * push is near. Cuts may lose solutions, so a search that made one proves
 * nothing by failing (the call then searches again without macros and
 * cuts). */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Boards beyond this many squares get no cuts: the table is quadratic. */
#define MAX_SQUARES 1024

int solver_relevance_init(solver_relevance *r, const solver_board *b)
{
    memset(r, 0, sizeof *r);
    if (b->nsq > MAX_SQUARES)
        return 0;
    r->nsq = b->nsq;
    r->dist = malloc((size_t)b->nsq * b->nsq);
    uint16_t *queue = malloc((b->nsq + 1) * sizeof *queue);
    if (r->dist == NULL || queue == NULL) {
        free(queue);
        solver_relevance_free(r);
        return -1;
    }
    memset(r->dist, 0xFF, (size_t)b->nsq * b->nsq);
    for (uint32_t s = 0; s < b->nsq; s++) {
        uint8_t *d = &r->dist[(size_t)s * b->nsq];
        uint32_t head = 0, tail = 0;
        d[s] = 0;
        queue[tail++] = (uint16_t)s;
        while (head < tail) {
            uint16_t q = queue[head++];
            if (d[q] >= RELEVANCE_NEAR)
                continue; /* farther squares all count as far */
            for (int k = 0; k < 4; k++) {
                uint16_t t = b->nb[q * 4 + k];
                if (t == SOLVER_NONE || d[t] != 0xFF)
                    continue;
                d[t] = (uint8_t)(d[q] + 1);
                queue[tail++] = t;
            }
        }
    }
    free(queue);
    r->bytes = (uint64_t)b->nsq * b->nsq;
    return 0;
}

void solver_relevance_free(solver_relevance *r)
{
    free(r->dist);
    memset(r, 0, sizeof *r);
}

bool solver_relevance_near(const solver_relevance *r, uint16_t a, uint16_t c)
{
    return r->dist[(size_t)a * r->nsq + c] <= RELEVANCE_NEAR;
}
