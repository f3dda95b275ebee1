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

/* XSokoban 24's room fills row 2 first, then row 1. With a box on the
 * first goal of row 1 and none in row 2, its order is broken: the room
 * has no next goal, unless the order is worked out again; then, filling
 * each next goal in turn, every goal of the room fills, each one once. */
static void a_broken_packing_order_is_worked_out_again(void)
{
    soko_level *lvl = shared_level("levels/XSokoban_90.xsb", 24);
    if (lvl == NULL)
        return;
    solver_board b;
    CHECK_INT(solver_board_build(&b, lvl), 0);
    uint16_t *boxes = malloc((b.nboxes + 1) * sizeof *boxes);
    uint16_t *occ = calloc(b.nsq + 1, sizeof *occ);
    solver_start_boxes(lvl, &b, boxes);
    solver_macros m;
    CHECK_INT(solver_macros_build(&m, &b, boxes, b.square[lvl->player]), 0);
    CHECK_MSG(m.nrooms == 1, "XSokoban 24: %u goal rooms, expected 1", m.nrooms);
    if (m.nrooms == 1) {
        const solver_room *room = &m.room[0];
        /* the first goal of the order on the upper row */
        uint16_t first_up = SOLVER_NONE;
        for (uint32_t k = 0; k < room->ngoals && first_up == SOLVER_NONE; k++)
            if (b.cell[room->order[k]] / b.width < b.cell[room->order[0]] / b.width)
                first_up = room->order[k];
        CHECK(first_up != SOLVER_NONE && first_up != room->order[0]);
        occ[first_up] = 1;
        CHECK_INT(solver_macros_next_goal(&m, occ, 0), SOLVER_NONE);
        m.replan = true;
        uint32_t filled = 1;
        for (uint16_t g = solver_macros_next_goal(&m, occ, 0); g != SOLVER_NONE;
             g = solver_macros_next_goal(&m, occ, 0)) {
            CHECK_MSG(m.room_of[g] == 0 && b.goal[g] && !occ[g],
                      "next goal %u is not an empty goal of the room", g);
            if (occ[g] || filled > room->ngoals)
                break;
            occ[g] = 1;
            filled++;
        }
        CHECK_INT(filled, room->ngoals);
    }
    solver_macros_free(&m);
    free(occ);
    free(boxes);
    solver_board_free(&b);
    free(lvl);
}

int main(void)
{
    RUN(squares_enclosed_by_goals_join_their_room);
    RUN(a_broken_packing_order_is_worked_out_again);
    return check_finish();
}
