#include "solver_util.h"

#include "check.h"

void solver_start_boxes(const soko_level *lvl, const solver_board *b, uint16_t *boxes)
{
    uint32_t n = 0;
    for (uint32_t s = 0; s < b->nsq; s++)
        if ((lvl->cell[b->cell[s]] & SOKO_BOX) && n++ < b->nboxes)
            boxes[n - 1] = (uint16_t)s;
    CHECK_INT(n, b->nboxes);
}
