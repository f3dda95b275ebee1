/* Reverse games: pulls, their undo and redo, the start square, the end
 * test, dead squares for pulls, and the forward solution of a finished
 * reverse line, replayed forward. */
#include "check.h"
#include "deadlock.h"
#include "level_util.h"
#include "reverse.h"
#include "test_rand.h"

#include <stdlib.h>
#include <string.h>

#define HISTORY 4096

typedef struct fixture {
    soko_level *lvl;
    soko_entry_t history[HISTORY];
    soko_game g;
} fixture;

static fixture *start(const char *board)
{
    fixture *f = calloc(1, sizeof *f);
    f->lvl = level_from_text(board);
    if (f->lvl == NULL) {
        free(f);
        return NULL;
    }
    soko_game_init(&f->g, f->lvl, SOKO_RULE_REVERSE, f->history, HISTORY);
    note("level (reverse rule):\n%s", board);
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

static soko_cell at(const soko_game *g, unsigned x, unsigned y)
{
    return (soko_cell)(y * g->level->width + x);
}

static bool box_at(const soko_game *g, unsigned x, unsigned y)
{
    return (g->cell[at(g, x, y)] & SOKO_BOX) != 0;
}

/* Counts and hash worked out from scratch, against the game's own. */
static void check_bookkeeping(const soko_game *g)
{
    uint64_t h = soko_zobrist(g->player, 1);
    unsigned on_goal = 0, on_start = 0, boxes = 0;
    for (uint32_t c = 0; c < (uint32_t)g->level->width * g->level->height; c++) {
        if (!(g->cell[c] & SOKO_BOX))
            continue;
        boxes++;
        h ^= soko_zobrist((soko_cell)c, 0);
        on_goal += (g->cell[c] & SOKO_GOAL) != 0;
        on_start += (g->level->cell[c] & SOKO_BOX) != 0;
    }
    CHECK(g->hash == h);
    CHECK_INT(boxes, g->level->boxes);
    CHECK_INT(g->boxes_on_goal, on_goal);
    CHECK_INT(g->boxes_on_start, on_start);
}

/* Plays notation (upper case pulls) and checks every step was accepted. */
static void play(soko_game *g, const char *lurd)
{
    uint32_t failed = 0;
    int rc = play_lurd(g, lurd, &failed);
    note("played %s", lurd);
    if (rc != SOKO_OK)
        check_fail(__FILE__, __LINE__, "step %u of \"%s\" refused: %s", failed, lurd,
                   soko_error_name(rc));
}

/* A refused pull or step must leave every byte of the game as it was. */
static void check_refused(soko_game *g, int d, bool pull, int expected)
{
    soko_game *before = malloc(sizeof *before);
    memcpy(before, g, sizeof *g);
    CHECK_INT(pull ? soko_game_pull(g, d) : soko_game_step(g, d), expected);
    CHECK(memcmp(before, g, sizeof *g) == 0);
    free(before);
}

static const char CORRIDOR[] = "#######\n#@ $ .#\n#######";
static const char TWO_BOXES[] = "#######\n#     #\n#.$@$.#\n#     #\n#######";

static void reverse_game_starts_with_every_box_on_a_goal(void)
{
    fixture *f = start(TWO_BOXES);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    CHECK(box_at(g, 1, 2));
    CHECK(box_at(g, 5, 2));
    CHECK(!box_at(g, 2, 2));
    CHECK(!box_at(g, 4, 2));
    CHECK_INT(g->player, at(g, 3, 2));
    CHECK_INT(g->start, at(g, 3, 2));
    CHECK_INT(g->boxes_on_goal, 2);
    CHECK_INT(g->boxes_on_start, 0);
    CHECK(!soko_game_solved(g));
    check_bookkeeping(g);
    finish(f);
}

static void pull_brings_the_box_behind_the_player(void)
{
    fixture *f = start(CORRIDOR);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    play(g, "rrr");
    CHECK_INT(g->player, at(g, 4, 1));
    CHECK_INT(soko_game_pull(g, SOKO_LEFT), SOKO_PUSHED);
    CHECK_INT(g->player, at(g, 3, 1));
    CHECK(box_at(g, 4, 1));
    CHECK(!box_at(g, 5, 1));
    CHECK_INT(g->moves, 4);
    CHECK_INT(g->pushes, 1);
    CHECK_INT(SOKO_ENTRY_PUSHED(g->history[3]), 1);
    CHECK_INT(SOKO_ENTRY_DIR(g->history[3]), SOKO_LEFT);
    check_bookkeeping(g);
    finish(f);
}

static void step_away_from_a_box_without_pull_leaves_it(void)
{
    fixture *f = start(CORRIDOR);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    play(g, "rrrl");
    CHECK(box_at(g, 5, 1));
    CHECK_INT(g->player, at(g, 3, 1));
    CHECK_INT(g->pushes, 0);
    finish(f);
}

static void refused_pulls_and_steps_change_nothing(void)
{
    fixture *f = start(CORRIDOR);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    check_refused(g, SOKO_LEFT, true, SOKO_E_WALL);     /* a wall ahead */
    check_refused(g, SOKO_RIGHT, true, SOKO_E_BLOCKED); /* no box behind */
    play(g, "rrr");
    check_refused(g, SOKO_RIGHT, false, SOKO_E_BLOCKED); /* a box ahead: no push */
    check_refused(g, SOKO_RIGHT, true, SOKO_E_BLOCKED);
    check_refused(g, SOKO_UP, true, SOKO_E_WALL);
    check_refused(g, 7, true, SOKO_E_RANGE);
    finish(f);
}

static void pull_is_refused_outside_a_reverse_game(void)
{
    soko_level *lvl = level_from_text(CORRIDOR);
    if (lvl == NULL)
        return;
    soko_entry_t history[16];
    soko_game *g = malloc(sizeof *g);
    soko_game_init(g, lvl, SOKO_RULE_STANDARD, history, 16);
    CHECK_INT(soko_game_pull(g, SOKO_RIGHT), SOKO_E_RANGE);
    /* The notation's upper case means nothing to the forward rules. */
    CHECK_INT(soko_game_play(g, SOKO_RIGHT | SOKO_STEP_PULL), SOKO_MOVED);
    CHECK_INT(soko_game_play(g, SOKO_RIGHT), SOKO_PUSHED);
    free(g);
    free(lvl);
}

static void undo_of_pull_restores_box_player_counts_and_hash(void)
{
    fixture *f = start(CORRIDOR);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    play(g, "rrr");
    soko_game *before = malloc(sizeof *before);
    memcpy(before, g, sizeof *g);
    play(g, "L");
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK(memcmp(before->cell, g->cell, sizeof g->cell) == 0);
    CHECK_INT(g->player, before->player);
    CHECK(g->hash == before->hash);
    CHECK_INT(g->moves, 3);
    CHECK_INT(g->pushes, 0);
    CHECK_INT(soko_game_redo_count(g), 1);
    CHECK_INT(soko_game_redo(g), SOKO_OK);
    CHECK(box_at(g, 4, 1));
    CHECK_INT(g->pushes, 1);
    check_bookkeeping(g);
    free(before);
    finish(f);
}

static void restart_goes_back_to_the_start_square(void)
{
    fixture *f = start(CORRIDOR);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    CHECK_INT(soko_game_set_start(g, at(g, 2, 1)), SOKO_OK);
    play(g, "rrLL");
    CHECK_INT(soko_game_restart(g), SOKO_OK);
    CHECK_INT(g->player, at(g, 2, 1));
    CHECK(box_at(g, 5, 1));
    CHECK_INT(g->moves, 0);
    CHECK_INT(soko_game_undo(g), SOKO_OK);
    CHECK(box_at(g, 3, 1));
    CHECK_INT(g->player, at(g, 2, 1));
    CHECK_INT(g->pushes, 2);
    check_bookkeeping(g);
    finish(f);
}

static void start_square_must_be_inside_and_off_goals(void)
{
    fixture *f = start("#######\n#@ $ .#\n#######\n#     #\n#######");
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    CHECK_INT(soko_game_set_start(g, at(g, 0, 1)), SOKO_E_RANGE); /* a wall */
    CHECK_INT(soko_game_set_start(g, at(g, 5, 1)), SOKO_E_RANGE); /* a goal */
    CHECK_INT(soko_game_set_start(g, at(g, 2, 3)), SOKO_E_RANGE); /* outside */
    CHECK_INT(soko_game_set_start(g, 5000), SOKO_E_RANGE);        /* off the board */
    CHECK_INT(soko_game_set_start(g, at(g, 3, 1)), SOKO_OK);      /* a box square */
    CHECK_INT(g->player, at(g, 3, 1));
    play(g, "r");
    CHECK_INT(soko_game_set_start(g, at(g, 1, 1)), SOKO_E_RANGE); /* history not empty */
    CHECK_INT(g->start, at(g, 3, 1));
    finish(f);
}

static void default_start_avoids_a_player_on_a_goal(void)
{
    fixture *f = start("######\n#+$  #\n######");
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    /* The player's own square holds a goal, so a box: the first free one. */
    CHECK_INT(g->start, at(g, 2, 1));
    CHECK(box_at(g, 1, 1));
    CHECK(!box_at(g, 2, 1));
    finish(f);
}

static void solved_needs_boxes_on_start_and_the_player_home(void)
{
    /* The box starts on its goal: the end needs the player able to walk
     * to the level's player square, which a start past the box is not. */
    fixture *f = start("######\n#@*  #\n######");
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    CHECK_INT(g->boxes_on_start, 1);
    CHECK(soko_game_solved(g));
    CHECK_INT(soko_game_set_start(g, at(g, 3, 1)), SOKO_OK);
    CHECK_INT(g->boxes_on_start, 1);
    CHECK(!soko_reverse_player_home(g));
    CHECK(!soko_game_solved(g));
    /* The end squares: only the one left of the box, where it starts (18
     * squares: 3 bytes). */
    uint8_t bits[3] = {0xFF, 0xFF, 0xFF};
    soko_reverse_home_region(f->lvl, bits);
    CHECK_INT(bits[0], 1u << at(g, 1, 1));
    CHECK_INT(bits[1], 0);
    CHECK_INT(bits[2], 0);
    CHECK_INT(g->home[0], bits[0]);
    finish(f);
}

/* Finishes `line` on `board`, turns it into a forward solution and replays
 * that under the standard rule: it must solve the level with the pulls'
 * number of pushes, and read `expected`. */
static void check_forward(const char *board, const char *line, const char *expected)
{
    fixture *f = start(board);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    play(g, line);
    CHECK(soko_game_solved(g));
    soko_path_scratch *s = calloc(1, sizeof *s);
    uint8_t dirs[256];
    int32_t n = soko_reverse_forward(g, g->history, g->cursor, s, dirs, sizeof dirs);
    CHECK_MSG(n >= 0, "soko_reverse_forward of %s: %s", line, soko_error_name(n));
    char text[257] = {0};
    for (int32_t i = 0; i < n && i < 256; i++)
        text[i] = soko_lurd_letter(dirs[i] & 3, (dirs[i] & SOKO_LURD_PUSH) != 0);
    CHECK_STR(text, expected);
    soko_entry_t history[256];
    soko_game *fw = malloc(sizeof *fw);
    soko_game_init(fw, f->lvl, SOKO_RULE_STANDARD, history, 256);
    uint32_t failed = 0;
    CHECK_INT(soko_lurd_play(fw, dirs, n < 0 ? 0 : (uint32_t)n, &failed), SOKO_OK);
    CHECK(soko_game_solved(fw));
    CHECK_INT(fw->pushes, g->pushes);
    free(fw);
    free(s);
    finish(f);
}

static void finished_line_becomes_a_forward_solution(void)
{
    /* The first step, before any pull, is left out; the line is turned round. */
    check_forward(TWO_BOXES, "lRrL", "RlL");
    /* The walk from the level's player square to the end comes first. */
    check_forward(CORRIDOR, "rrrLL", "rRR");
}

static void forward_of_an_unfinished_or_pull_free_line_is_refused(void)
{
    fixture *f = start(CORRIDOR);
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    soko_path_scratch *s = calloc(1, sizeof *s);
    uint8_t dirs[64];
    play(g, "rrrL");
    CHECK_INT(soko_reverse_forward(g, g->history, g->cursor, s, dirs, sizeof dirs), SOKO_E_RANGE);
    play(g, "L");
    CHECK_INT(soko_reverse_forward(g, g->history, g->cursor, s, dirs, 2), SOKO_E_FULL);
    soko_entry_t moves_only[1] = {SOKO_RIGHT};
    CHECK_INT(soko_reverse_forward(g, moves_only, 1, s, dirs, sizeof dirs), SOKO_E_RANGE);
    free(s);
    finish(f);
}

static void pull_dead_squares_differ_from_push_dead_squares(void)
{
    soko_level *lvl = level_from_text("#######\n#@ $ .#\n### ###\n  ###");
    if (lvl == NULL)
        return;
    uint8_t dead[64], pull_dead[64];
    CHECK_INT(soko_deadlock_dead_squares(lvl, dead), 2);
    CHECK_INT(soko_deadlock_pull_dead_squares(lvl, pull_dead), 1);
    uint32_t w = lvl->width;
    /* The corner: no push gets a box out of it, a pull does. */
    CHECK_INT(dead[1 * w + 1], 1);
    CHECK_INT(pull_dead[1 * w + 1], 0);
    /* The pocket: the player can stand nowhere to pull a box out of it. */
    CHECK_INT(pull_dead[2 * w + 3], 1);
    CHECK_INT(pull_dead[1 * w + 3], 0); /* the box's start square */
    free(lvl);
}

/* Random play of steps, pulls, undo, redo and restart: each undo must give
 * back the exact position before the entry it takes back, and the counts
 * and hash must match a recount after every operation. */
static void random_reverse_play_undoes_exactly(void)
{
    fixture *f = start("########\n#  .   #\n# $#$  #\n#  . @ #\n########");
    if (f == NULL)
        return;
    soko_game *g = &f->g;
    uint32_t rng = 0x5EED1234u;
    soko_game *before = malloc(sizeof *before);
    for (int i = 0; i < 3000 && check_failures_in_test == 0; i++) {
        uint32_t op = test_rand(&rng, 10);
        memcpy(before, g, sizeof *g);
        if (op < 7) {
            int d = (int)test_rand(&rng, 4);
            int rc = op < 4 ? soko_game_pull(g, d) : soko_game_step(g, d);
            if (rc >= 0 && g->cursor < HISTORY - 8) {
                CHECK_INT(soko_game_undo(g), SOKO_OK);
                CHECK(memcmp(before->cell, g->cell, sizeof g->cell) == 0);
                CHECK_INT(g->player, before->player);
                CHECK(g->hash == before->hash);
                CHECK_INT(soko_game_redo(g), SOKO_OK);
            }
        } else if (op == 7) {
            soko_game_undo(g);
        } else if (op == 8) {
            soko_game_redo(g);
        } else if (g->cursor < HISTORY - 8) {
            soko_game_restart(g);
        }
        check_bookkeeping(g);
        if (g->cursor >= HISTORY - 8)
            break;
    }
    free(before);
    finish(f);
}

int main(void)
{
    RUN(reverse_game_starts_with_every_box_on_a_goal);
    RUN(pull_brings_the_box_behind_the_player);
    RUN(step_away_from_a_box_without_pull_leaves_it);
    RUN(refused_pulls_and_steps_change_nothing);
    RUN(pull_is_refused_outside_a_reverse_game);
    RUN(undo_of_pull_restores_box_player_counts_and_hash);
    RUN(restart_goes_back_to_the_start_square);
    RUN(start_square_must_be_inside_and_off_goals);
    RUN(default_start_avoids_a_player_on_a_goal);
    RUN(solved_needs_boxes_on_start_and_the_player_home);
    RUN(finished_line_becomes_a_forward_solution);
    RUN(forward_of_an_unfinished_or_pull_free_line_is_refused);
    RUN(pull_dead_squares_differ_from_push_dead_squares);
    RUN(random_reverse_play_undoes_exactly);
    return check_finish();
}
