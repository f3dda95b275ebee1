/* Deadlocks: dead squares agree with a forward search from each square and
 * never call a square dead from which a lone box can still reach a goal;
 * frozen boxes agree with the usual recursive freeze test, on hand-made
 * positions and on random ones. */
#include "check.h"
#include "deadlock.h"
#include "level_util.h"
#include "reader.h"
#include "test_rand.h"

#include <stdlib.h>

static soko_entry_t history[1 << 12];

static uint32_t rng = 0x2545F491u;

/* ---- dead squares ------------------------------------------------------ */

/* Forward search from one square: the box moves x -> x + d when x - d and
 * x + d are floor; true when it gets to a goal. */
static bool ref_live(const soko_level *l, int from, int *queue, uint8_t *seen)
{
    int n = l->width * l->height, head = 0, tail = 0;
    memset(seen, 0, (size_t)n);
    seen[from] = 1;
    queue[tail++] = from;
    while (head < tail) {
        int c = queue[head++];
        if (l->cell[c] & SOKO_GOAL)
            return true;
        for (int d = 0; d < 4; d++) {
            int to = ref_step(l, c, d), behind = ref_step(l, c, d ^ 2);
            if (!ref_floor(l, to) || !ref_floor(l, behind) || seen[to])
                continue;
            seen[to] = 1;
            queue[tail++] = to;
        }
    }
    return false;
}

/* True when a box alone on the board at `box`, with the player on `player`,
 * can be pushed to a goal, the player walking round it: the exact answer
 * for one box, which a dead square must never contradict. */
static bool lone_box_reaches_goal(const soko_level *l, int box, int player, int *queue,
                                  uint8_t *seen)
{
    int n = l->width * l->height, head = 0, tail = 0;
    memset(seen, 0, (size_t)n * n);
    seen[box * n + player] = 1;
    queue[tail++] = box * n + player;
    while (head < tail) {
        int st = queue[head++], b = st / n, p = st % n;
        if (l->cell[b] & SOKO_GOAL)
            return true;
        for (int d = 0; d < 4; d++) {
            int q = ref_step(l, p, d), b2 = b;
            if (!ref_floor(l, q))
                continue;
            if (q == b) {
                b2 = ref_step(l, b, d);
                if (!ref_floor(l, b2))
                    continue;
            }
            int ns = b2 * n + q;
            if (!seen[ns]) {
                seen[ns] = 1;
                queue[tail++] = ns;
            }
        }
    }
    return false;
}

static void check_dead_squares(const soko_level *l, const char *what, bool exact_check)
{
    int n = l->width * l->height;
    uint8_t *dead = malloc((size_t)n), *seen = malloc((size_t)n * n);
    int *queue = malloc((size_t)n * n * sizeof *queue);
    int32_t count = soko_deadlock_dead_squares(l, dead), want_count = 0;
    char board[SOKO_MAX_CELLS + SOKO_MAX_HEIGHT + 1];
    for (int c = 0; c < n; c++) {
        int want = ref_floor(l, c) && !ref_live(l, c, queue, seen);
        want_count += want;
        if (dead[c] != want) {
            note("%s:\n%s", what, position_text(l, l->cell, l->player, board, sizeof board));
            note("square %d (x %d, y %d)", c, c % l->width, c / l->width);
            CHECK_INT(dead[c], want);
            break;
        }
        if (!dead[c] || !exact_check)
            continue;
        for (int p = 0; p < n; p++) {
            if (p != c && ref_floor(l, p) && lone_box_reaches_goal(l, c, p, queue, seen)) {
                note("%s:\n%s", what, position_text(l, l->cell, l->player, board, sizeof board));
                note("square %d is called dead, but a box there reaches a goal (player on %d)", c,
                     p);
                CHECK(false);
                break;
            }
        }
    }
    CHECK_INT(count, want_count);
    free(dead);
    free(seen);
    free(queue);
}

static void dead_squares_of_a_room_are_its_edges(void)
{
    soko_level *l = level_from_text("#######\n"
                                    "#     #\n"
                                    "# $ . #\n"
                                    "#@    #\n"
                                    "#######\n");
    if (l == NULL)
        return;
    uint8_t dead[64];
    /* A box against a wall stays against it, and no wall has a goal. */
    CHECK_INT(soko_deadlock_dead_squares(l, dead), 12);
    int w = l->width;
    CHECK_INT(dead[1 * w + 1], 1);
    CHECK_INT(dead[2 * w + 1], 1);
    CHECK_INT(dead[2 * w + 2], 0);
    CHECK_INT(dead[2 * w + 4], 0);
    CHECK_INT(dead[0], 0); /* walls are not dead squares */
    check_dead_squares(l, "room", true);
    free(l);
}

static void a_goal_on_a_wall_keeps_that_wall_alive(void)
{
    soko_level *l = level_from_text("#######\n"
                                    "#   . #\n"
                                    "# $   #\n"
                                    "#@    #\n"
                                    "#######\n");
    if (l == NULL)
        return;
    uint8_t dead[64];
    int w = l->width;
    /* The top row leads to its goal; its corners do not. */
    CHECK_INT(soko_deadlock_dead_squares(l, dead), 9);
    CHECK_INT(dead[1 * w + 2], 0);
    CHECK_INT(dead[1 * w + 1], 1);
    CHECK_INT(dead[1 * w + 5], 1);
    check_dead_squares(l, "goal on a wall", true);
    free(l);
}

static soko_level *parse_quiet(const char *text, uint32_t len, uint32_t line)
{
    soko_level *l = malloc(sizeof *l);
    soko_error err;
    if (soko_level_parse(l, text, len, line, &err) != SOKO_OK) {
        free(l);
        return NULL;
    }
    return l;
}

static void dead_squares_match_a_forward_search_on_real_levels(void)
{
    static const char *files[] = {"levels/Microban_155.xsb", "levels/XSokoban_90.xsb",
                                  "levels/Sasquatch_50.xsb"};
    int tested = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        size_t len;
        char *text = read_file(shared_path(files[f]), &len);
        if (text == NULL)
            continue;
        soko_reader r;
        static soko_entry e;
        soko_reader_init(&r, text, (uint32_t)len);
        while (soko_reader_next(&r, &e) == 1 && check_failures_in_test == 0) {
            soko_level *l = parse_quiet(text + e.board.off, e.board.len, e.board_line);
            if (l == NULL)
                continue;
            char what[96];
            snprintf(what, sizeof what, "%s level %u", files[f], e.number);
            /* The exact one-box check is slow: Microban's small boards only. */
            check_dead_squares(l, what, f == 0 && l->width * l->height < 120);
            tested++;
            free(l);
        }
        free(text);
    }
    CHECK(tested > 250);
}

/* ---- frozen boxes ------------------------------------------------------ */

/* The usual recursive freeze test: the box under test counts as a wall
 * while its neighbours are tested. */
static bool ref_frozen(const soko_game *g, const uint8_t *dead, uint8_t *walled, int box);

static bool ref_axis(const soko_game *g, const uint8_t *dead, uint8_t *walled, int box, int d)
{
    const soko_level *l = g->level;
    int a = ref_step(l, box, d), b = ref_step(l, box, d ^ 2);
    if (!ref_floor(l, a) || !ref_floor(l, b) || walled[a] || walled[b])
        return true;
    if (dead[a] && dead[b])
        return true;
    return ((g->cell[a] & SOKO_BOX) && ref_frozen(g, dead, walled, a)) ||
           ((g->cell[b] & SOKO_BOX) && ref_frozen(g, dead, walled, b));
}

static bool ref_frozen(const soko_game *g, const uint8_t *dead, uint8_t *walled, int box)
{
    walled[box] = 1;
    bool held =
        ref_axis(g, dead, walled, box, SOKO_UP) && ref_axis(g, dead, walled, box, SOKO_RIGHT);
    walled[box] = 0;
    return held;
}

/* Compares soko_deadlock_frozen (given `dead`) with the recursive test
 * (given `ref_dead`, the same squares as an array). */
static void check_frozen(const soko_game *g, const uint8_t *dead, const uint8_t *ref_dead,
                         const char *what)
{
    int n = g->level->width * g->level->height;
    uint8_t *frozen = malloc((size_t)n), *walled = calloc((size_t)n, 1);
    int32_t count = soko_deadlock_frozen(g, dead, frozen), want_count = 0;
    for (int c = 0; c < n; c++) {
        int want = (g->cell[c] & SOKO_BOX) && !(g->cell[c] & SOKO_GOAL) &&
                   ref_frozen(g, ref_dead, walled, c);
        want_count += want;
        if (frozen[c] != want) {
            note_game(what, g);
            note("box %d (x %d, y %d)", c, c % g->level->width, c / g->level->width);
            CHECK_INT(frozen[c], want);
            break;
        }
    }
    CHECK_INT(count, want_count);
    free(frozen);
    free(walled);
}

/* Frozen boxes of a board written in the test, by (x, y). */
typedef struct spot {
    int x, y;
} spot;

static void expect_frozen(const char *text, const spot *want, int n_want)
{
    soko_level *l = level_from_text(text);
    if (l == NULL)
        return;
    soko_game g;
    soko_game_init(&g, l, SOKO_RULE_STANDARD, history, 1 << 12);
    int n = l->width * l->height;
    uint8_t *dead = malloc((size_t)n), *frozen = malloc((size_t)n);
    soko_deadlock_dead_squares(l, dead);
    int32_t count = soko_deadlock_frozen(&g, dead, frozen);
    bool same = count == n_want;
    for (int i = 0; i < n_want; i++)
        same = same && frozen[want[i].y * l->width + want[i].x];
    if (!same) {
        note("board:\n%s", text);
        for (int c = 0; c < n; c++) {
            if (frozen[c])
                note("frozen: x %d, y %d", c % l->width, c / l->width);
        }
        CHECK_INT(count, n_want);
        CHECK(same);
    }
    check_frozen(&g, dead, dead, "hand-made");
    free(dead);
    free(frozen);
    free(l);
}

static void a_box_in_a_corner_is_frozen(void)
{
    static const spot want[] = {{1, 1}};
    expect_frozen("######\n"
                  "#$   #\n"
                  "#  . #\n"
                  "#@   #\n"
                  "######\n",
                  want, 1);
}

static void a_box_in_a_corner_on_a_goal_is_not_reported(void)
{
    expect_frozen("######\n"
                  "#*   #\n"
                  "# $. #\n"
                  "#@   #\n"
                  "######\n",
                  NULL, 0);
}

static void a_two_by_two_block_is_frozen(void)
{
    static const spot want[] = {{3, 2}, {2, 3}, {3, 3}};
    expect_frozen("#######\n"
                  "#  .. #\n"
                  "# *$  #\n"
                  "# $$ .#\n"
                  "#@    #\n"
                  "#######\n",
                  want, 3);
}

static void two_boxes_side_by_side_against_a_wall_are_frozen(void)
{
    static const spot want[] = {{3, 1}, {4, 1}};
    /* The top row leads to the goal in its corner: only each other holds them. */
    expect_frozen("########\n"
                  "#. $$  #\n"
                  "#   .  #\n"
                  "#@     #\n"
                  "########\n",
                  want, 2);
}

static void a_frozen_box_on_a_goal_freezes_its_neighbours(void)
{
    /* The goal box in the corner never moves, so the box beside it is stuck
     * against the wall, and the one under that against the left wall. */
    static const spot want[] = {{2, 1}, {1, 2}};
    expect_frozen("#######\n"
                  "#*$   #\n"
                  "#$  ..#\n"
                  "#@    #\n"
                  "#######\n",
                  want, 2);
}

static void boxes_that_look_stuck_but_can_move_are_not_frozen(void)
{
    /* Side by side in the open; an L of three; a box against a wall with
     * room along it; a box between two boxes that can each step aside. */
    expect_frozen("#########\n"
                  "#       #\n"
                  "# $$  . #\n"
                  "#      .#\n"
                  "#@      #\n"
                  "#########\n",
                  NULL, 0);
    expect_frozen("#########\n"
                  "#       #\n"
                  "# $$ .. #\n"
                  "#  $  . #\n"
                  "#@      #\n"
                  "#########\n",
                  NULL, 0);
    expect_frozen("#########\n"
                  "#   $  .#\n"
                  "#       #\n"
                  "#@      #\n"
                  "#########\n",
                  NULL, 0);
    expect_frozen("#########\n"
                  "#       #\n"
                  "# $$$ ..#\n"
                  "#      .#\n"
                  "#@      #\n"
                  "#########\n",
                  NULL, 0);
}

static void a_box_held_by_dead_squares_along_a_wall_is_frozen(void)
{
    /* Against the top wall, with dead squares left and right of it: it can
     * only ever slide along the wall to squares that lead nowhere. */
    static const spot want[] = {{3, 1}};
    expect_frozen("#######\n"
                  "#  $  #\n"
                  "#  .  #\n"
                  "#@    #\n"
                  "#######\n",
                  want, 1);
}

/* Random rooms crowded with boxes, against the recursive test. */
static void frozen_boxes_match_the_recursive_test_on_random_positions(void)
{
    int tested = 0;
    for (int i = 0; i < 2000 && check_failures_in_test == 0; i++) {
        int w = 4 + (int)test_rand(&rng, 6), h = 4 + (int)test_rand(&rng, 6),
            boxes = 1 + (int)test_rand(&rng, 10);
        char grid[16][16], text[300];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                bool edge = x == 0 || y == 0 || x == w - 1 || y == h - 1;
                grid[y][x] = edge || test_rand(&rng, 100) < 12 ? '#' : ' ';
            }
        }
        int px = 1 + (int)test_rand(&rng, (uint32_t)w - 2),
            py = 1 + (int)test_rand(&rng, (uint32_t)h - 2);
        grid[py][px] = '@';
        for (int k = 0; k < boxes; k++) {
            int x = 1 + (int)test_rand(&rng, (uint32_t)w - 2),
                y = 1 + (int)test_rand(&rng, (uint32_t)h - 2);
            if (grid[y][x] == ' ' || grid[y][x] == '.')
                grid[y][x] = grid[y][x] == '.' ? '*' : '$';
            x = 1 + (int)test_rand(&rng, (uint32_t)w - 2);
            y = 1 + (int)test_rand(&rng, (uint32_t)h - 2);
            if (grid[y][x] == ' ' || grid[y][x] == '$')
                grid[y][x] = grid[y][x] == '$' ? '*' : '.';
        }
        int k = 0, nbox = 0, ngoal = 0;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                nbox += grid[y][x] == '$' || grid[y][x] == '*';
                ngoal += grid[y][x] == '.' || grid[y][x] == '*';
                text[k++] = grid[y][x];
            }
            text[k++] = '\n';
        }
        text[k] = '\0';
        if (nbox != ngoal)
            continue;
        soko_level *l = parse_quiet(text, (uint32_t)k, 1);
        if (l == NULL)
            continue;
        soko_game g;
        soko_game_init(&g, l, SOKO_RULE_STANDARD, history, 1 << 12);
        uint8_t dead[256];
        soko_deadlock_dead_squares(l, dead);
        static const uint8_t none[256];
        check_frozen(&g, dead, dead, "random position");
        check_frozen(&g, NULL, none, "random position, dead squares left out");
        tested++;
        free(l);
    }
    note("%d positions", tested);
    CHECK(tested >= 300);
}

/* Positions along real games: random steps on Microban levels. */
static void frozen_boxes_match_the_recursive_test_on_microban(void)
{
    size_t len;
    char *text = read_file(shared_path("levels/Microban_155.xsb"), &len);
    if (text == NULL)
        return;
    soko_reader r;
    static soko_entry e;
    soko_reader_init(&r, text, (uint32_t)len);
    int tested = 0;
    while (soko_reader_next(&r, &e) == 1 && check_failures_in_test == 0) {
        soko_level *l = parse_quiet(text + e.board.off, e.board.len, e.board_line);
        if (l == NULL)
            continue;
        soko_game g;
        soko_game_init(&g, l, SOKO_RULE_STANDARD, history, 1 << 12);
        uint8_t *dead = malloc((size_t)l->width * l->height);
        soko_deadlock_dead_squares(l, dead);
        for (int k = 0; k < 40; k++) {
            for (int s = 0; s < 25; s++)
                soko_game_step(&g, (int)test_rand(&rng, 4));
            check_frozen(&g, dead, dead, "Microban after random steps");
            tested++;
        }
        free(dead);
        free(l);
    }
    free(text);
    CHECK(tested > 5000);
}

int main(void)
{
    RUN(dead_squares_of_a_room_are_its_edges);
    RUN(a_goal_on_a_wall_keeps_that_wall_alive);
    RUN(dead_squares_match_a_forward_search_on_real_levels);
    RUN(a_box_in_a_corner_is_frozen);
    RUN(a_box_in_a_corner_on_a_goal_is_not_reported);
    RUN(a_two_by_two_block_is_frozen);
    RUN(two_boxes_side_by_side_against_a_wall_are_frozen);
    RUN(a_frozen_box_on_a_goal_freezes_its_neighbours);
    RUN(boxes_that_look_stuck_but_can_move_are_not_frozen);
    RUN(a_box_held_by_dead_squares_along_a_wall_is_frozen);
    RUN(frozen_boxes_match_the_recursive_test_on_random_positions);
    RUN(frozen_boxes_match_the_recursive_test_on_microban);
    return check_finish();
}
