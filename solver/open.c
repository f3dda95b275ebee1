/* The open list: a binary heap of 64-bit items, the priority in the high
 * bits and the node in the low ones, smallest first. */
#include "internal.h"

#include <stdlib.h>

int solver_open_push(solver_open *o, uint64_t item)
{
    if (o->count == o->cap) {
        uint32_t cap = o->cap ? o->cap * 2 : 1024;
        uint64_t *grown = realloc(o->item, (size_t)cap * sizeof *grown);
        if (grown == NULL)
            return -1;
        o->item = grown;
        o->cap = cap;
    }
    uint32_t i = o->count++;
    while (i > 0) {
        uint32_t up = (i - 1) / 2;
        if (o->item[up] <= item)
            break;
        o->item[i] = o->item[up];
        i = up;
    }
    o->item[i] = item;
    return 0;
}

uint64_t solver_open_pop(solver_open *o)
{
    uint64_t top = o->item[0];
    uint64_t last = o->item[--o->count];
    uint32_t i = 0, n = o->count;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && o->item[c + 1] < o->item[c])
            c++;
        if (last <= o->item[c])
            break;
        o->item[i] = o->item[c];
        i = c;
    }
    if (n > 0)
        o->item[i] = last;
    return top;
}

void solver_open_free(solver_open *o)
{
    free(o->item);
    o->item = NULL;
    o->count = o->cap = 0;
}
