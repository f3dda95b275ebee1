/* Helpers for tests of the solver's parts: what a level's start position
 * is on the solver's board. */
#ifndef SOKO_SOLVER_UTIL_H
#define SOKO_SOLVER_UTIL_H

#include "internal.h"

/* The squares of lvl's boxes at the start on board b, in ascending order,
 * into boxes (room for b->nboxes). A check fails when their number is not
 * the board's. */
void solver_start_boxes(const soko_level *lvl, const solver_board *b, uint16_t *boxes);

#endif
