/* The feature-space list: one heap per cell of features, popped in turn
 * (see solver_cells in internal.h). */
#include "internal.h"

#include <stdlib.h>

int solver_cells_init(solver_cells *c, uint32_t ncells)
{
    c->cell = calloc(ncells, sizeof *c->cell);
    c->ncells = c->cell != NULL ? ncells : 0;
    c->cursor = 0;
    c->count = 0;
    return c->cell != NULL ? 0 : -1;
}

void solver_cells_free(solver_cells *c)
{
    for (uint32_t k = 0; k < c->ncells; k++)
        solver_open_free(&c->cell[k]);
    free(c->cell);
    c->cell = NULL;
    c->ncells = c->cursor = c->count = 0;
}

int solver_cells_push(solver_cells *c, uint32_t cell, uint64_t item)
{
    solver_open *o = &c->cell[cell < c->ncells ? cell : c->ncells - 1];
    uint32_t cap = o->cap;
    if (solver_open_push(o, item) < 0)
        return -1;
    c->count++;
    c->bytes += (uint64_t)(o->cap - cap) * sizeof *o->item;
    return 0;
}

uint64_t solver_cells_pop(solver_cells *c)
{
    uint32_t k = c->cursor;
    do {
        k = k + 1 < c->ncells ? k + 1 : 0;
    } while (c->cell[k].count == 0);
    c->cursor = k;
    c->count--;
    return solver_open_pop(&c->cell[k]);
}
