/* Goal rooms (solver/macro.c): the areas of goals that boxes enter through
 * a few squares, each with the order its goals fill in; and the order of
 * all goals of a level without rooms (solver/order.c). */
#include "check.h"
#include "internal.h"
#include "level_util.h"
#include "solver_boards.h"

#include <stdlib.h>

/* A level's board and goal rooms, built from its start, and squares all
 * empty for the sets of goals a test holds. */
typedef struct rooms {
    soko_level *lvl;
    solver_board b;
    uint16_t *boxes, *occ;
    solver_macros m;
} rooms;

/* Builds the rooms of lvl (which r takes; held: goal rooms may hold boxes
 * at the start). Returns false when there is no level to test (lvl is
 * NULL); rooms_close releases r either way. */
static bool rooms_build(rooms *r, soko_level *lvl, bool held)
{
    *r = (rooms){.lvl = lvl};
    if (lvl == NULL)
        return false;
    CHECK_INT(solver_board_build(&r->b, lvl), 0);
    r->boxes = malloc((r->b.nboxes + 1) * sizeof *r->boxes);
    r->occ = calloc(r->b.nsq + 1, sizeof *r->occ);
    solver_start_boxes(lvl, &r->b, r->boxes);
    CHECK_INT(solver_macros_build(&r->m, &r->b, r->boxes, r->b.square[lvl->player], held), 0);
    return true;
}

/* Builds XSokoban `number`'s rooms, which must be one. Returns whether
 * there is that one room to test; rooms_close releases r either way. */
static bool rooms_open(rooms *r, uint32_t number)
{
    if (!rooms_build(r, shared_level("levels/XSokoban_90.xsb", number), false))
        return false;
    CHECK_MSG(r->m.nrooms == 1, "XSokoban %u: %u goal rooms, expected 1", number, r->m.nrooms);
    return r->m.nrooms == 1;
}

static void rooms_close(rooms *r)
{
    if (r->lvl == NULL)
        return;
    solver_macros_free(&r->m);
    free(r->occ);
    free(r->boxes);
    solver_board_free(&r->b);
    free(r->lvl);
}

/* XSokoban 22 keeps its 27 goals in one block with two empty squares among
 * them, entered through three squares that hold boxes at the start. The
 * empty squares join the room: were they entrances, the room would open
 * onto areas of its own and be no room. One room holds every goal, its
 * packing order all of them. */
static void squares_enclosed_by_goals_join_their_room(void)
{
    rooms r;
    if (rooms_open(&r, 22)) {
        const solver_room *room = &r.m.room[0];
        CHECK_INT(room->ngoals, r.b.nboxes);
        CHECK_INT(room->ngates, 3);
        uint32_t empty = 0;
        for (uint32_t k = 0; k < room->size; k++)
            empty += !r.b.goal[room->squares[k]];
        CHECK_INT(empty, 2);
    }
    rooms_close(&r);
}

/* XSokoban 24's room fills row 2 first, then row 1. With a box on the
 * first goal of row 1 and none in row 2, its order is broken: the room
 * has no next goal, unless the order is worked out again; then, filling
 * each next goal in turn, every goal of the room fills, each one once. */
static void a_broken_packing_order_is_worked_out_again(void)
{
    rooms r;
    if (rooms_open(&r, 24)) {
        const solver_room *room = &r.m.room[0];
        /* the first goal of the order on the upper row */
        uint16_t first_up = SOLVER_NONE;
        for (uint32_t k = 0; k < room->ngoals && first_up == SOLVER_NONE; k++)
            if (r.b.cell[room->order[k]] / r.b.width < r.b.cell[room->order[0]] / r.b.width)
                first_up = room->order[k];
        CHECK(first_up != SOLVER_NONE && first_up != room->order[0]);
        r.occ[first_up] = 1;
        CHECK_INT(solver_macros_next_goal(&r.m, r.occ, 0), SOLVER_NONE);
        r.m.replan = true;
        uint32_t filled = 1;
        for (uint16_t g = solver_macros_next_goal(&r.m, r.occ, 0); g != SOLVER_NONE;
             g = solver_macros_next_goal(&r.m, r.occ, 0)) {
            CHECK_MSG(r.m.room_of[g] == 0 && r.b.goal[g] && !r.occ[g],
                      "next goal %u is not an empty goal of the room", g);
            if (r.occ[g] || filled > room->ngoals)
                break;
            r.occ[g] = 1;
            filled++;
        }
        CHECK_INT(filled, room->ngoals);
    }
    rooms_close(&r);
}

/* XSokoban 42's room holds 24 goals: the 1,022 sets of the first ten
 * of its order held (the others empty) that are no start of the order are
 * far more than the orders a room works out again in one search. Asked
 * for each set in turn, the room answers a next goal for some of them,
 * and stops working orders out at SOLVER_PLAN_PASSES: a big room must not
 * spend the search's time on passes (XSokoban 42 took 17.5 s at 500,000
 * positions with re-planning unbounded, 1.8 s without it). */
static void a_room_works_out_a_bounded_number_of_orders(void)
{
    rooms r;
    bool one = rooms_open(&r, 42);
    if (one && r.m.room[0].ngoals >= 10) {
        const solver_room *room = &r.m.room[0];
        r.m.replan = true;
        uint32_t answered = 0, most = 0;
        for (uint32_t set = 1; set < (1u << 10) - 1; set++) {
            for (uint32_t k = 0; k < 10; k++)
                r.occ[room->order[k]] = (uint16_t)(set >> k & 1);
            /* a start of the order is no broken order */
            bool start = (set & (set + 1)) == 0;
            answered += !start && solver_macros_next_goal(&r.m, r.occ, 0) != SOLVER_NONE;
            most = room->passes > most ? room->passes : most;
        }
        CHECK_MSG(answered > 0, "no set of goals held out of order got a next goal");
        CHECK_MSG(most == SOLVER_PLAN_PASSES, "%u orders worked out again, expected %u", most,
                  SOLVER_PLAN_PASSES);
    } else if (one) {
        CHECK_MSG(false, "the room holds %u goals, expected 24", r.m.room[0].ngoals);
    }
    rooms_close(&r);
}

/* Two rooms joined by two doorways, a loop, and a corridor that ends in
 * a wall: the doorways are the board's two room links, the corridor
 * none (a box in it stands in nobody's way). A box in a doorway blocks
 * its link. */
static void doorways_are_room_links_and_dead_ends_are_not(void)
{
    soko_level *lvl = level_from_text("##########\n"
                                      "#   #    #\n"
                                      "# @   $  #\n"
                                      "#   #  . #\n"
                                      "#   #    #\n"
                                      "# $   .  #\n"
                                      "## #######\n"
                                      "## #\n"
                                      "####\n");
    CHECK(lvl != NULL);
    if (lvl == NULL)
        return;
    solver_board b;
    CHECK_INT(solver_board_build(&b, lvl), 0);
    solver_links l;
    CHECK_INT(solver_links_init(&l, &b), 0);
    CHECK_MSG(l.nlinks == 2, "two doorways and a dead end: %u links, expected 2", l.nlinks);
    uint32_t w = lvl->width;
#define SQ(x, y) b.square[(y)*w + (x)]
    uint16_t start[] = {SQ(6, 2), SQ(2, 5)};
    uint16_t one_door[] = {SQ(4, 2), SQ(2, 5)};
    uint16_t both_doors[] = {SQ(4, 2), SQ(4, 5)};
    uint16_t dead_end[] = {SQ(6, 2), SQ(2, 6)};
#undef SQ
    CHECK_MSG(solver_links_blocked(&l, start, 2) == 0, "start: %u links blocked, expected 0",
              solver_links_blocked(&l, start, 2));
    CHECK_MSG(solver_links_blocked(&l, one_door, 2) == 1,
              "a box in the upper doorway: %u links blocked, expected 1",
              solver_links_blocked(&l, one_door, 2));
    CHECK_MSG(solver_links_blocked(&l, both_doors, 2) == 2,
              "boxes in both doorways: %u links blocked, expected 2",
              solver_links_blocked(&l, both_doors, 2));
    CHECK_MSG(solver_links_blocked(&l, dead_end, 2) == 0,
              "a box in the dead-end corridor: %u links blocked, expected 0",
              solver_links_blocked(&l, dead_end, 2));
    solver_links_free(&l);
    solver_board_free(&b);
    free(lvl);
}

/* A pocket of three goals, one holding a box at the start: no goal room
 * without held goals (a room holds no box at the start); with them, one
 * room of the three goals whose order starts with the goal held. */
static void a_room_may_hold_boxes_on_goals_at_the_start(void)
{
    static const char board[] = "#######\n"
                                "#*.####\n"
                                "#.    #\n"
                                "##$   #\n"
                                "##  $@#\n"
                                "#######\n";
    for (int with_held = 0; with_held <= 1; with_held++) {
        rooms r;
        soko_level *lvl = level_from_text(board);
        CHECK(lvl != NULL);
        if (!rooms_build(&r, lvl, with_held))
            return;
        uint16_t held = r.b.square[1 * lvl->width + 1];
        CHECK_MSG(r.m.nrooms == (uint32_t)with_held, "held goals %s: %u goal rooms, expected %d",
                  with_held ? "on" : "off", r.m.nrooms, with_held);
        if (with_held && r.m.nrooms == 1) {
            CHECK_INT(r.m.room[0].ngoals, 3);
            CHECK_MSG(r.m.room[0].order[0] == held,
                      "the order starts on square %u, expected the goal held (%u)",
                      r.m.room[0].order[0], held);
        }
        rooms_close(&r);
    }
}

/* The packing order of all goals (solver/order.c): a hand-made hall whose
 * fifteen goals, around three pillars, have boxes among them, so that no
 * goal room is found. Its order holds every goal once and can be played:
 * with the goals before it full and no other box, a box from where one
 * stands at the start is pushed onto each goal in turn (the player from
 * its start square). A level with a goal room gets no such order. */
static void a_level_without_rooms_gets_an_order_of_all_goals(void)
{
    const char *boards[2] = {SOLVER_NO_ROOM_HALL, SOLVER_HALL_OVER_ROOM};
    for (int k = 0; k < 2; k++) {
        note("level:\n%s", boards[k]);
        rooms r;
        soko_level *lvl = level_from_text(boards[k]);
        CHECK(lvl != NULL);
        if (!rooms_build(&r, lvl, false))
            return;
        const solver_board *b = &r.b;
        uint16_t *occ = r.occ, *boxes = r.boxes, player = b->square[lvl->player];
        CHECK_INT(solver_order_build(&r.m, boxes, player), 0);
        CHECK_MSG(r.m.nrooms == (uint32_t)k, "%u goal rooms, expected %d", r.m.nrooms, k);
        CHECK_MSG(r.m.norder == (k == 0 ? b->nboxes : 0), "an order of %u goals, expected %u",
                  r.m.norder, k == 0 ? b->nboxes : 0);
        for (uint32_t i = 0; i < r.m.norder; i++) {
            uint16_t g = r.m.order[i];
            CHECK_MSG(b->goal[g] && occ[g] == 0, "goal %u of the order, square %u, is %s", i, g,
                      b->goal[g] ? "there twice" : "no goal");
            CHECK_INT(solver_order_filled(&r.m, occ), i);
            bool comes = false;
            for (uint32_t j = 0; j < b->nboxes && !comes; j++) {
                uint16_t end;
                comes = boxes[j] == g ||
                        (occ[boxes[j]] == 0 && occ[player] == 0 &&
                         solver_boxpath_find(&r.m.path, b, occ, boxes[j], g, player, &end) >= 0);
            }
            CHECK_MSG(comes,
                      "no box comes to goal %u of the order (square %u) with the %u "
                      "before it full",
                      i, g, i);
            occ[g] = 1;
        }
        rooms_close(&r);
    }
}

int main(void)
{
    RUN(squares_enclosed_by_goals_join_their_room);
    RUN(a_broken_packing_order_is_worked_out_again);
    RUN(a_room_works_out_a_bounded_number_of_orders);
    RUN(doorways_are_room_links_and_dead_ends_are_not);
    RUN(a_room_may_hold_boxes_on_goals_at_the_start);
    RUN(a_level_without_rooms_gets_an_order_of_all_goals);
    return check_finish();
}
