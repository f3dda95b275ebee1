/* The rules of a step, undo, redo, restart and the counts and hash a game keeps. */
#include "check.h"
#include "game.h"
#include "level_util.h"

#include <stdlib.h>

#define HISTORY 256

/* A game with its level and history, so that a test needs one line to start. */
typedef struct fixture {
    soko_level *lvl;
    soko_entry_t history[HISTORY];
    soko_game g;
} fixture;

static fixture *start(const char *board, int rule)
{
    fixture *f = calloc(1, sizeof *f);
    f->lvl = level_from_text(board);
    if (f->lvl == NULL) {
        free(f);
        return NULL;
    }
    soko_game_init(&f->g, f->lvl, rule, f->history, HISTORY);
    note("level (%s rule):\n%s", rule == SOKO_RULE_MULTIPUSH ? "multi-push" : "standard", board);
    return f;
}

static void finish(fixture *f)
{
    if (f == NULL)
        return;
    if (check_failures_in_test > 0) {
        char board[4096];
        fprintf(stderr, "  position at the end:\n%s", game_text(&f->g, board, sizeof board));
    }
    free(f->lvl);
    free(f);
}

/* The square at column x, row y of the game's level. */
static soko_cell at(const soko_game *g, unsigned x, unsigned y)
{
    return (soko_cell)(y * g->level->width + x);
}

static bool box_at(const soko_game *g, unsigned x, unsigned y)
{
    return (g->cell[at(g, x, y)] & SOKO_BOX) != 0;
}

/* The hash of the position worked out from scratch, with keys built here
 * from soko_mix64 rather than from the game's own bookkeeping. */
static uint64_t recomputed_hash(const soko_game *g)
{
    uint64_t h = soko_zobrist(g->player, 1);
    for (uint32_t c = 0; c < (uint32_t)g->level->width * g->level->height; c++)
        if (g->cell[c] & SOKO_BOX)
            h ^= soko_zobrist((soko_cell)c, 0);
    return h;
}

static unsigned count_boxes_on_goals(const soko_game *g)
{
    unsigned n = 0;
    for (uint32_t c = 0; c < (uint32_t)g->level->width * g->level->height; c++)
        if ((g->cell[c] & (SOKO_BOX | SOKO_GOAL)) == (SOKO_BOX | SOKO_GOAL))
            n++;
    return n;
}

static void check_bookkeeping(const soko_game *g)
{
    CHECK(g->hash == recomputed_hash(g));
    CHECK_INT(g->boxes_on_goal, count_boxes_on_goals(g));
}

/* Plays LURD text and checks that every step was accepted. */
static void play(soko_game *g, const char *lurd)
{
    uint32_t failed = 0;
    int rc = play_lurd(g, lurd, &failed);
    note("played %s", lurd);
    if (rc != SOKO_OK)
        check_fail(__FILE__, __LINE__, "step %u of \"%s\" refused: %s", failed, lurd,
                   soko_error_name(rc));
}

/* A refused step must leave every byte of the game as it was. */
static void check_refused(soko_game *g, int d, int expected)
{
    soko_game *before = malloc(sizeof *before);
    memcpy(before, g, sizeof *g);
    uint32_t len = g->history_len;
    soko_entry_t *saved = malloc((len + 1) * sizeof *saved);
    if (len > 0)
        memcpy(saved, g->history, len * sizeof *saved);
    CHECK_INT(soko_game_step(g, d), expected);
    CHECK(memcmp(before, g, sizeof *g) == 0);
    CHECK(len == 0 || memcmp(saved, g->history, len * sizeof *saved) == 0);
    free(saved);
    free(before);
}

static void step_moves_player_onto_free_square(void)
{
    fixture *f = start("#####\n#@ .#\n#  $#\n#####", SOKO_RULE_STANDARD);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    CHECK_INT(soko_game_step(g, SOKO_RIGHT), SOKO_MOVED);
    CHECK_INT(g->player, at(g, 2, 1));
    CHECK_INT(g->moves, 1);
    CHECK_INT(g->pushes, 0);
    CHECK_INT(soko_game_step(g, SOKO_DOWN), SOKO_MOVED);
    CHECK_INT(g->player, at(g, 2, 2));
    CHECK_INT(soko_game_step(g, SOKO_LEFT), SOKO_MOVED);
    CHECK_INT(soko_game_step(g, SOKO_UP), SOKO_MOVED);
    CHECK_INT(g->player, at(g, 1, 1));
    CHECK_INT(g->moves, 4);
    CHECK_INT(g->history_len, 4);
    CHECK_INT(SOKO_ENTRY_DIR(g->history[1]), SOKO_DOWN);
    CHECK_INT(SOKO_ENTRY_PUSHED(g->history[1]), 0);
    check_bookkeeping(g);
    finish(f);
}

static void step_pushes_box_one_square(void)
{
    fixture *f = start("#######\n#@ $ .#\n#######", SOKO_RULE_STANDARD);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    CHECK_INT(soko_game_step(g, SOKO_RIGHT), SOKO_MOVED);
    CHECK_INT(soko_game_step(g, SOKO_RIGHT), SOKO_PUSHED);
    CHECK_INT(g->player, at(g, 3, 1));
    CHECK(!box_at(g, 3, 1));
    CHECK(box_at(g, 4, 1));
    CHECK_INT(g->moves, 2);
    CHECK_INT(g->pushes, 1);
    CHECK_INT(SOKO_ENTRY_DIR(g->history[1]), SOKO_RIGHT);
    CHECK_INT(SOKO_ENTRY_PUSHED(g->history[1]), 1);
    check_bookkeeping(g);
    finish(f);
}

static void walk_into_wall_is_refused_and_changes_nothing(void)
{
    fixture *f = start("#####\n#@$.#\n#####", SOKO_RULE_STANDARD);
    if (f == NULL)
        return;
    check_refused(&f->g, SOKO_UP, SOKO_E_WALL);
    check_refused(&f->g, SOKO_LEFT, SOKO_E_WALL);
    check_refused(&f->g, SOKO_DOWN, SOKO_E_WALL);
    finish(f);
}

static void step_in_no_direction_is_out_of_range(void)
{
    fixture *f = start("#####\n#@$.#\n#####", SOKO_RULE_STANDARD);
    if (f == NULL)
        return;
    check_refused(&f->g, 4, SOKO_E_RANGE);
    check_refused(&f->g, -1, SOKO_E_RANGE);
    finish(f);
}

static void push_against_wall_is_blocked(void)
{
    for (int rule = 0; rule <= 1; rule++) {
        fixture *f = start("#####\n#.@$#\n#####", rule);
        if (f == NULL)
            return;
        check_refused(&f->g, SOKO_RIGHT, SOKO_E_BLOCKED);
        finish(f);
    }
}

static void push_against_box_is_blocked_under_standard_rule(void)
{
    fixture *f = start("#######\n#@$$..#\n#######", SOKO_RULE_STANDARD);
    if (f == NULL)
        return;
    check_refused(&f->g, SOKO_RIGHT, SOKO_E_BLOCKED);
    finish(f);
}

static void multipush_moves_whole_line_of_boxes(void)
{
    fixture *f = start("#########\n#@$$$ ...#\n#########", SOKO_RULE_MULTIPUSH);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    uint64_t start_hash = g->hash;
    CHECK_INT(soko_game_step(g, SOKO_RIGHT), SOKO_PUSHED);
    CHECK_INT(g->player, at(g, 2, 1));
    CHECK(!box_at(g, 2, 1));
    CHECK(box_at(g, 3, 1) && box_at(g, 4, 1) && box_at(g, 5, 1));
    CHECK_INT(g->pushes, 1);
    CHECK_INT(g->moves, 1);
    CHECK_INT(SOKO_ENTRY_PUSHED(g->history[0]), 3);
    CHECK(g->hash != start_hash);
    check_bookkeeping(g);
    /* Over the goals: the line's two ends change goals, its middle does not. */
    CHECK_INT(soko_game_step(g, SOKO_RIGHT), SOKO_PUSHED);
    CHECK_INT(g->boxes_on_goal, 1);
    CHECK_INT(soko_game_step(g, SOKO_RIGHT), SOKO_PUSHED);
    CHECK_INT(g->boxes_on_goal, 2);
    CHECK_INT(soko_game_step(g, SOKO_RIGHT), SOKO_PUSHED);
    CHECK_INT(g->boxes_on_goal, 3);
    CHECK(soko_game_solved(g));
    CHECK_INT(g->pushes, 4);
    check_bookkeeping(g);
    check_refused(g, SOKO_RIGHT, SOKO_E_BLOCKED);
    finish(f);
}

static void multipush_single_box_moves_like_standard(void)
{
    fixture *f = start("######\n#@$ .#\n######", SOKO_RULE_MULTIPUSH);
    if (f == NULL)
        return;
    CHECK_INT(soko_game_step(&f->g, SOKO_RIGHT), SOKO_PUSHED);
    CHECK_INT(SOKO_ENTRY_PUSHED(f->g.history[0]), 1);
    CHECK(box_at(&f->g, 3, 1));
    finish(f);
}

static void multipush_line_against_wall_is_blocked(void)
{
    fixture *f = start("#######\n#@$$..#\n#######", SOKO_RULE_MULTIPUSH);
    if (f == NULL)
        return;
    CHECK_INT(soko_game_step(&f->g, SOKO_RIGHT), SOKO_PUSHED);
    CHECK_INT(soko_game_step(&f->g, SOKO_RIGHT), SOKO_PUSHED);
    CHECK(soko_game_solved(&f->g));
    check_refused(&f->g, SOKO_RIGHT, SOKO_E_BLOCKED);
    finish(f);
}

static void multipush_line_is_blocked_by_a_wall_anywhere_past_it(void)
{
    /* Down the column: three boxes, then a wall right after the last one. */
    fixture *f = start("#####\n# @ #\n# $ #\n# $ #\n# * #\n#.#.#\n#####", SOKO_RULE_MULTIPUSH);
    if (f == NULL)
        return;
    check_refused(&f->g, SOKO_DOWN, SOKO_E_BLOCKED);
    finish(f);
}

/* A board built by hand, open at its edges, to reach squares the parser
 * never lets a player reach: the edge of the board and the outside. */
static soko_level *open_level(const char *rows, unsigned width, unsigned height)
{
    soko_level *lvl = calloc(1, sizeof *lvl);
    lvl->width = (uint16_t)width;
    lvl->height = (uint16_t)height;
    for (unsigned c = 0; c < width * height; c++) {
        switch (rows[c]) {
        case '#':
            lvl->cell[c] = SOKO_WALL;
            break;
        case 'x':
            lvl->cell[c] = SOKO_OUTSIDE;
            break;
        case '$':
            lvl->cell[c] = SOKO_BOX;
            lvl->boxes++;
            break;
        case '*':
            lvl->cell[c] = SOKO_BOX | SOKO_GOAL;
            lvl->boxes++;
            break;
        case '.':
            lvl->cell[c] = SOKO_GOAL;
            break;
        case '@':
            lvl->player = (soko_cell)c;
            break;
        default:
            break;
        }
    }
    return lvl;
}

static void steps_off_the_board_or_outside_count_as_walls(void)
{
    for (int rule = 0; rule <= 1; rule++) {
        /* 4 x 3: row 0 "@ x$", row 1 "x.$$", row 2 "  ..". */
        soko_level *lvl = open_level("@ x$x.$$  ..", 4, 3);
        soko_entry_t history[8];
        soko_game g;
        soko_game_init(&g, lvl, rule, history, 8);
        note("hand-built open level, rule %d", rule);
        check_refused(&g, SOKO_UP, SOKO_E_WALL);
        check_refused(&g, SOKO_LEFT, SOKO_E_WALL);
        check_refused(&g, SOKO_DOWN, SOKO_E_WALL); /* outside */
        CHECK_INT(soko_game_step(&g, SOKO_RIGHT), SOKO_MOVED);
        check_refused(&g, SOKO_RIGHT, SOKO_E_WALL);
        CHECK_INT(soko_game_step(&g, SOKO_DOWN), SOKO_MOVED);
        /* Boxes at (2,1) and (3,1): the second is at the board's right edge. */
        check_refused(&g, SOKO_RIGHT, SOKO_E_BLOCKED);
        check_refused(&g, SOKO_LEFT, SOKO_E_WALL); /* outside */
        CHECK_INT(soko_game_step(&g, SOKO_DOWN), SOKO_MOVED);
        CHECK_INT(soko_game_step(&g, SOKO_RIGHT), SOKO_MOVED);
        /* Pushing the box at (2,1) up would put it outside. */
        check_refused(&g, SOKO_UP, SOKO_E_BLOCKED);
        free(lvl);
    }
}

static void undo_after_push_restores_box_player_counts_and_hash(void)
{
    fixture *f = start("#######\n#@ $ .#\n#######", SOKO_RULE_STANDARD);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    play(g, "r");
    soko_game before = *g;
    CHECK_INT(soko_game_step(g, SOKO_RIGHT), SOKO_PUSHED);
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK_INT(g->player, at(g, 2, 1));
    CHECK(box_at(g, 3, 1));
    CHECK(!box_at(g, 4, 1));
    CHECK_INT(g->moves, 1);
    CHECK_INT(g->pushes, 0);
    CHECK(g->hash == before.hash);
    CHECK(memcmp(g->cell, before.cell, sizeof g->cell) == 0);
    CHECK_INT(g->cursor, 1);
    CHECK_INT(soko_game_redo_count(g), 1);
    check_bookkeeping(g);
    finish(f);
}

static void undo_of_line_push_brings_every_box_back(void)
{
    fixture *f = start("##########\n#@$$$ ...#\n##########", SOKO_RULE_MULTIPUSH);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    soko_game before = *g;
    play(g, "RR");
    CHECK(box_at(g, 4, 1) && box_at(g, 5, 1) && box_at(g, 6, 1));
    CHECK_INT(g->boxes_on_goal, 1);
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK(memcmp(g->cell, before.cell, sizeof g->cell) == 0);
    CHECK_INT(g->player, before.player);
    CHECK(g->hash == before.hash);
    CHECK_INT(g->boxes_on_goal, 0);
    CHECK_INT(g->pushes, 0);
    CHECK_INT(g->moves, 0);
    finish(f);
}

static void redo_reapplies_the_undone_step(void)
{
    fixture *f = start("#######\n#@ $ .#\n#######", SOKO_RULE_STANDARD);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    play(g, "rR");
    soko_game after = *g;
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK_INT(soko_game_redo_count(g), 2);
    CHECK_INT(soko_game_redo(g), SOKO_OK);
    CHECK_INT(soko_game_redo(g), SOKO_OK);
    CHECK(memcmp(g, &after, sizeof after) == 0);
    CHECK_INT(soko_game_redo_count(g), 0);
    CHECK_INT(g->pushes, 1);
    finish(f);
}

static void new_step_clears_the_redo_stack(void)
{
    fixture *f = start("#####\n#@ .#\n#  $#\n#####", SOKO_RULE_STANDARD);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    play(g, "rdl");
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK_INT(soko_game_redo_count(g), 2);
    CHECK_INT(soko_game_step(g, SOKO_LEFT), SOKO_MOVED);
    CHECK_INT(soko_game_redo_count(g), 0);
    CHECK_INT(g->history_len, 2);
    CHECK_INT(soko_game_redo(g), SOKO_E_NOTHING);
    CHECK_INT(g->player, at(g, 1, 1));
    finish(f);
}

static void refused_step_keeps_the_redo_stack(void)
{
    fixture *f = start("#####\n#@ .#\n#  $#\n#####", SOKO_RULE_STANDARD);
    if (f == NULL)
        return;
    play(&f->g, "rd");
    CHECK_INT(soko_game_undo(&f->g), SOKO_OK);
    check_refused(&f->g, SOKO_UP, SOKO_E_WALL);
    CHECK_INT(soko_game_redo_count(&f->g), 1);
    finish(f);
}

static void undo_and_redo_at_the_ends_have_nothing_to_do(void)
{
    fixture *f = start("#####\n#@$.#\n#####", SOKO_RULE_STANDARD);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    soko_game fresh = *g;
    CHECK_INT(soko_game_undo(g), SOKO_E_NOTHING);
    CHECK_INT(soko_game_redo(g), SOKO_E_NOTHING);
    CHECK(memcmp(g, &fresh, sizeof fresh) == 0);
    play(g, "R");
    soko_game pushed = *g;
    CHECK_INT(soko_game_redo(g), SOKO_E_NOTHING);
    CHECK(memcmp(g, &pushed, sizeof pushed) == 0);
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK_INT(soko_game_undo(g), SOKO_E_NOTHING);
    CHECK_INT(g->cursor, 0);
    finish(f);
}

static void restart_puts_the_level_back_to_its_start(void)
{
    fixture *f = start("#######\n#@ $ .#\n#######", SOKO_RULE_STANDARD);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    soko_game fresh = *g;
    play(g, "rR");
    CHECK_INT(soko_game_restart(g), SOKO_OK);
    CHECK(memcmp(g->cell, fresh.cell, sizeof g->cell) == 0);
    CHECK_INT(g->player, fresh.player);
    CHECK(g->hash == fresh.hash);
    CHECK_INT(g->moves, 0);
    CHECK_INT(g->pushes, 0);
    CHECK_INT(g->history_len, 3);
    CHECK(g->history[2] == SOKO_ENTRY_RESTART);
    finish(f);
}

static void restart_then_undo_restores_position_and_counts(void)
{
    fixture *f = start("#######\n#@ $ .#\n#   $.#\n#######", SOKO_RULE_STANDARD);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    play(g, "rRl");
    soko_game first = *g;
    CHECK_INT(soko_game_restart(g), SOKO_OK);
    play(g, "drrRu");
    soko_game second = *g;
    CHECK_INT(second.moves, 5);
    CHECK_INT(second.pushes, 1);
    CHECK_INT(soko_game_restart(g), SOKO_OK);
    /* Undoing the second restart rebuilds from the first one, not the start. */
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK(memcmp(g->cell, second.cell, sizeof g->cell) == 0);
    CHECK_INT(g->player, second.player);
    CHECK_INT(g->moves, 5);
    CHECK_INT(g->pushes, 1);
    CHECK(g->hash == second.hash);
    CHECK_INT(g->boxes_on_goal, second.boxes_on_goal);
    CHECK_INT(soko_game_redo_count(g), 1);
    for (int i = 0; i < 5; i++)
        CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK(memcmp(g->cell, first.cell, sizeof g->cell) == 0);
    CHECK_INT(g->player, first.player);
    CHECK_INT(g->moves, 3);
    CHECK_INT(g->pushes, 1);
    CHECK(g->hash == first.hash);
    /* Redo all the way: the restarts apply again. */
    while (soko_game_redo(g) == SOKO_OK)
        ;
    CHECK_INT(g->moves, 0);
    CHECK_INT(g->cursor, 10);
    check_bookkeeping(g);
    finish(f);
}

static void restart_drops_the_redo_stack(void)
{
    fixture *f = start("#######\n#@ $ .#\n#######", SOKO_RULE_STANDARD);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    play(g, "rRR");
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK_INT(soko_game_restart(g), SOKO_OK);
    CHECK_INT(soko_game_redo_count(g), 0);
    CHECK_INT(g->history_len, 3);
    finish(f);
}

static void restart_at_the_start_changes_nothing(void)
{
    fixture *f = start("#######\n#@ $ .#\n#######", SOKO_RULE_STANDARD);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    soko_game fresh = *g;
    CHECK_INT(soko_game_restart(g), SOKO_OK);
    CHECK(memcmp(g, &fresh, sizeof fresh) == 0);
    /* Undone back to the start: a restart must not throw the redo stack away. */
    play(g, "rR");
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK_INT(soko_game_restart(g), SOKO_OK);
    CHECK_INT(soko_game_redo_count(g), 2);
    /* Right after a restart: a second restart adds nothing, one undo takes the first back. */
    play(g, "rR");
    CHECK_INT(soko_game_restart(g), SOKO_OK);
    CHECK_INT(soko_game_restart(g), SOKO_OK);
    CHECK_INT(g->history_len, 3);
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK_INT(g->moves, 2);
    CHECK_INT(g->pushes, 1);
    finish(f);
}

static void full_history_refuses_steps_and_restart(void)
{
    soko_level *lvl = level_from_text("#######\n#@ $ .#\n#######");
    if (lvl == NULL)
        return;
    soko_entry_t history[3];
    soko_game g;
    soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, 3);
    play(&g, "rRR");
    check_refused(&g, SOKO_LEFT, SOKO_E_FULL);
    soko_game before = g;
    CHECK_INT(soko_game_restart(&g), SOKO_E_FULL);
    CHECK(memcmp(&g, &before, sizeof g) == 0);
    /* After an undo there is room again, and undo/redo never need any. */
    CHECK_INT(soko_game_undo(&g), SOKO_OK);
    CHECK_INT(soko_game_redo(&g), SOKO_OK);
    CHECK_INT(soko_game_undo(&g), SOKO_OK);
    CHECK_INT(soko_game_step(&g, SOKO_LEFT), SOKO_MOVED);
    check_refused(&g, SOKO_LEFT, SOKO_E_FULL);
    /* A game with no history buffer cannot record anything. */
    soko_game none;
    soko_game_init(&none, lvl, SOKO_RULE_STANDARD, NULL, 0);
    check_refused(&none, SOKO_RIGHT, SOKO_E_FULL);
    free(lvl);
}

static void level_that_starts_solved_is_solved(void)
{
    fixture *f = start("#####\n#@* #\n#####", SOKO_RULE_STANDARD);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    CHECK(soko_game_solved(g));
    CHECK_INT(g->boxes_on_goal, 1);
    CHECK_INT(soko_game_step(g, SOKO_RIGHT), SOKO_PUSHED);
    CHECK(!soko_game_solved(g));
    CHECK_INT(g->boxes_on_goal, 0);
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK(soko_game_solved(g));
    finish(f);
}

static void solution_passing_through_solved_then_leaving_it(void)
{
    fixture *f = start("########\n#@ $ . #\n########", SOKO_RULE_STANDARD);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    CHECK(!soko_game_solved(g));
    play(g, "rRR");
    CHECK(soko_game_solved(g));
    CHECK_INT(g->boxes_on_goal, 1);
    /* Steps are still allowed: walk back, then push the box off and on again. */
    play(g, "l");
    CHECK(soko_game_solved(g));
    play(g, "rR");
    CHECK(!soko_game_solved(g));
    CHECK_INT(g->boxes_on_goal, 0);
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK(soko_game_solved(g));
    check_bookkeeping(g);
    finish(f);
}

static void pushes_off_and_onto_goals_update_boxes_on_goal(void)
{
    /* Goals at x = 3 and 4; boxes at x = 2 and 3 pushed as a line. */
    fixture *f = start("########\n#@$*.  #\n########", SOKO_RULE_MULTIPUSH);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    CHECK_INT(g->boxes_on_goal, 1);
    static const unsigned expected[] = {2, 1, 0};
    for (int i = 0; i < 3; i++) {
        note("push %d", i + 1);
        CHECK_INT(soko_game_step(g, SOKO_RIGHT), SOKO_PUSHED);
        CHECK_INT(g->boxes_on_goal, expected[i]);
        check_bookkeeping(g);
    }
    check_refused(g, SOKO_RIGHT, SOKO_E_BLOCKED);
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK_INT(g->boxes_on_goal, 1);
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK_INT(g->boxes_on_goal, 2);
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK_INT(g->boxes_on_goal, 1);
    finish(f);
}

static void hash_matches_recomputation_after_play(void)
{
    fixture *f =
        start("  ####\n###  ####\n#     $ #\n# #  #$ #\n# . .#@ #\n#########", SOKO_RULE_STANDARD);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    CHECK(g->hash == recomputed_hash(g));
    static const int dirs[] = {SOKO_UP, SOKO_UP,   SOKO_LEFT, SOKO_DOWN, SOKO_LEFT, SOKO_LEFT,
                               SOKO_UP, SOKO_LEFT, SOKO_LEFT, SOKO_DOWN, SOKO_DOWN};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        soko_game_step(g, dirs[i]);
        CHECK(g->hash == recomputed_hash(g));
    }
    while (soko_game_undo(g) == SOKO_OK)
        CHECK(g->hash == recomputed_hash(g));
    finish(f);
}

static void zobrist_keys_differ_by_square_and_kind(void)
{
    /* Pairwise distinct over a board's worth of squares and both kinds. */
    enum { N = 4096 };
    uint64_t *keys = malloc(2 * N * sizeof *keys);
    for (int i = 0; i < N; i++) {
        keys[2 * i] = soko_zobrist((soko_cell)i, 0);
        keys[2 * i + 1] = soko_zobrist((soko_cell)i, 1);
    }
    int equal = 0;
    for (int i = 0; i < 2 * N; i++)
        for (int j = i + 1; j < 2 * N; j++)
            equal += keys[i] == keys[j];
    CHECK_INT(equal, 0);
    CHECK(soko_zobrist(7, 0) == soko_zobrist(7, 0));
    free(keys);
}

static void game_leaves_its_level_untouched(void)
{
    fixture *f = start("#######\n#@ $ .#\n#######", SOKO_RULE_STANDARD);
    if (f == NULL)
        return;
    soko_level *copy = malloc(sizeof *copy);
    memcpy(copy, f->lvl, sizeof *copy);
    play(&f->g, "rRR");
    CHECK(memcmp(copy, f->lvl, sizeof *copy) == 0);
    free(copy);
    finish(f);
}

int main(void)
{
    RUN(step_moves_player_onto_free_square);
    RUN(step_pushes_box_one_square);
    RUN(walk_into_wall_is_refused_and_changes_nothing);
    RUN(step_in_no_direction_is_out_of_range);
    RUN(push_against_wall_is_blocked);
    RUN(push_against_box_is_blocked_under_standard_rule);
    RUN(multipush_moves_whole_line_of_boxes);
    RUN(multipush_single_box_moves_like_standard);
    RUN(multipush_line_against_wall_is_blocked);
    RUN(multipush_line_is_blocked_by_a_wall_anywhere_past_it);
    RUN(steps_off_the_board_or_outside_count_as_walls);
    RUN(undo_after_push_restores_box_player_counts_and_hash);
    RUN(undo_of_line_push_brings_every_box_back);
    RUN(redo_reapplies_the_undone_step);
    RUN(new_step_clears_the_redo_stack);
    RUN(refused_step_keeps_the_redo_stack);
    RUN(undo_and_redo_at_the_ends_have_nothing_to_do);
    RUN(restart_puts_the_level_back_to_its_start);
    RUN(restart_then_undo_restores_position_and_counts);
    RUN(restart_drops_the_redo_stack);
    RUN(restart_at_the_start_changes_nothing);
    RUN(full_history_refuses_steps_and_restart);
    RUN(level_that_starts_solved_is_solved);
    RUN(solution_passing_through_solved_then_leaving_it);
    RUN(pushes_off_and_onto_goals_update_boxes_on_goal);
    RUN(hash_matches_recomputation_after_play);
    RUN(zobrist_keys_differ_by_square_and_kind);
    RUN(game_leaves_its_level_untouched);
    return check_finish();
}
