/* Goal rooms (solver/macro.c): the areas of goals that boxes enter through
 * a few squares, each with the order its goals fill in. */
#include "check.h"
#include "internal.h"
#include "level_util.h"
#include "solver_boards.h"

#include <stdlib.h>

/* XSokoban 22 keeps its 27 goals in one block with two empty squares among
 * them, entered through three squares that hold boxes at the start. The
 * empty squares join the room: were they entrances, the room would open
 * onto areas of its own and be no room. One room holds every goal, its
 * packing order all of them. */
static void squares_enclosed_by_goals_join_their_room(void)
{
    soko_level *lvl = shared_level("levels/XSokoban_90.xsb", 22);
    if (lvl == NULL)
        return;
    solver_board b;
    CHECK_INT(solver_board_build(&b, lvl), 0);
    uint16_t *boxes = malloc((b.nboxes + 1) * sizeof *boxes);
    solver_start_boxes(lvl, &b, boxes);
    solver_macros m;
    CHECK_INT(solver_macros_build(&m, &b, boxes, b.square[lvl->player]), 0);
    CHECK_MSG(m.nrooms == 1, "XSokoban 22: %u goal rooms, expected 1", m.nrooms);
    if (m.nrooms == 1) {
        const solver_room *room = &m.room[0];
        CHECK_INT(room->ngoals, b.nboxes);
        CHECK_INT(room->ngates, 3);
        uint32_t empty = 0;
        for (uint32_t k = 0; k < room->size; k++)
            empty += !b.goal[room->squares[k]];
        CHECK_INT(empty, 2);
    }
    solver_macros_free(&m);
    free(boxes);
    solver_board_free(&b);
    free(lvl);
}

int main(void)
{
    RUN(squares_enclosed_by_goals_join_their_room);
    return check_finish();
}
