/* Path finding: walks are shortest and take the documented tie-break; box
 * reach and push paths agree with a slow search over (box, player) states;
 * every path, played with soko_game_step, does what it says. */
#include "check.h"
#include "level_util.h"
#include "path.h"
#include "reader.h"
#include "test_rand.h"

#include <stdlib.h>

static soko_path_scratch scratch;
static soko_entry_t history[1 << 12];
static soko_entry_t play_history[1 << 16];
static uint8_t dirs[1 << 16];

/* ---- helpers ---------------------------------------------------------- */

static uint32_t rng = 0x9E3779B9u;

static const char *steps_text(const uint8_t *d, int32_t n)
{
    static char out[2048];
    int k = 0;
    for (int32_t i = 0; i < n && k < (int)sizeof out - 4; i++)
        out[k++] = "urdl"[d[i] & 3];
    if (n > k)
        out[k++] = '.', out[k++] = '.', out[k++] = '.';
    out[k] = '\0';
    return out;
}

/* A copy of src that records its steps in play_history, so that playing on
 * it leaves src as it was. */
static void fork_game(soko_game *dst, const soko_game *src)
{
    *dst = *src;
    dst->history = play_history;
    dst->history_cap = sizeof play_history / sizeof play_history[0];
    dst->history_len = 0;
    dst->cursor = 0;
}

/* Plays n directions on a fork of g; returns the number of pushes, or -1
 * when a step is refused. */
static int play(const soko_game *g, const uint8_t *d, int32_t n, soko_game *out)
{
    fork_game(out, g);
    int pushes = 0;
    for (int32_t i = 0; i < n; i++) {
        int r = soko_game_step(out, d[i]);
        if (r < 0) {
            note("step %d (%c) refused: %s", (int)i, "urdl"[d[i] & 3], soko_error_name(r));
            return -1;
        }
        pushes += r == SOKO_PUSHED;
    }
    return pushes;
}

/* Distances of the player's walk from `from` to every square, boxes and
 * walls in the way; -1 where it cannot go. */
static void ref_walk(const soko_game *g, int from, int *dist, int *queue)
{
    int n = g->level->width * g->level->height, head = 0, tail = 0;
    for (int c = 0; c < n; c++)
        dist[c] = -1;
    dist[from] = 0;
    queue[tail++] = from;
    while (head < tail) {
        int c = queue[head++];
        for (int d = 0; d < 4; d++) {
            int nb = ref_step(g->level, c, d);
            if (nb < 0 || dist[nb] >= 0 || (g->cell[nb] & (SOKO_WALL | SOKO_OUTSIDE | SOKO_BOX)))
                continue;
            dist[nb] = dist[c] + 1;
            queue[tail++] = nb;
        }
    }
}

/* The slow oracle for one box: Dijkstra over every (box, player) pair, a
 * move costing (0 pushes, 1 move) and a push (1, 1), compared pushes first.
 * best[c] gets pushes << 20 | moves of the best way to bring the box to c,
 * UINT32_MAX where it never gets. */
#define KEY_PUSH (1u << 20)

typedef struct heap {
    uint64_t *item; /* key << 32 | state */
    size_t len, cap;
} heap;

static void heap_push(heap *h, uint64_t v)
{
    if (h->len == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 1024;
        h->item = realloc(h->item, h->cap * sizeof *h->item);
    }
    size_t i = h->len++;
    while (i > 0 && h->item[(i - 1) / 2] > v) {
        h->item[i] = h->item[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->item[i] = v;
}

static uint64_t heap_pop(heap *h)
{
    uint64_t top = h->item[0], v = h->item[--h->len];
    size_t i = 0;
    for (;;) {
        size_t k = 2 * i + 1;
        if (k >= h->len)
            break;
        if (k + 1 < h->len && h->item[k + 1] < h->item[k])
            k++;
        if (h->item[k] >= v)
            break;
        h->item[i] = h->item[k];
        i = k;
    }
    if (h->len > 0)
        h->item[i] = v;
    return top;
}

static void ref_box(const soko_game *g, int box, uint32_t *best)
{
    const soko_level *l = g->level;
    int n = l->width * l->height;
    uint32_t *key = malloc((size_t)n * n * sizeof *key);
    for (size_t i = 0; i < (size_t)n * n; i++)
        key[i] = UINT32_MAX;
    for (int c = 0; c < n; c++)
        best[c] = UINT32_MAX;
    heap h = {0};
    uint32_t start = (uint32_t)(box * n + g->player);
    key[start] = 0;
    heap_push(&h, start);
    while (h.len > 0) {
        uint64_t top = heap_pop(&h);
        uint32_t k = (uint32_t)(top >> 32), st = (uint32_t)top;
        if (k != key[st])
            continue;
        int b = (int)st / n, p = (int)st % n;
        if (k < best[b])
            best[b] = k;
        for (int d = 0; d < 4; d++) {
            int q = ref_step(l, p, d);
            if (q < 0 || (l->cell[q] & (SOKO_WALL | SOKO_OUTSIDE)) ||
                ((g->cell[q] & SOKO_BOX) && q != box))
                continue;
            uint32_t nk = k + 1, ns = (uint32_t)(b * n + q);
            if (q == b) {
                int b2 = ref_step(l, b, d);
                if (b2 < 0 || (l->cell[b2] & (SOKO_WALL | SOKO_OUTSIDE)) ||
                    ((g->cell[b2] & SOKO_BOX) && b2 != box))
                    continue;
                nk += KEY_PUSH;
                ns = (uint32_t)(b2 * n + q);
            }
            if (nk < key[ns]) {
                key[ns] = nk;
                heap_push(&h, (uint64_t)nk << 32 | ns);
            }
        }
    }
    free(h.item);
    free(key);
}

/* A random closed board: walls round a w x h room, scattered walls, a few
 * boxes and goals. NULL when the parser refuses it (a box out of reach). */
static soko_level *random_level(int w, int h, int wall_percent, int boxes, char *text)
{
    char grid[16][16];
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            bool edge = x == 0 || y == 0 || x == w - 1 || y == h - 1;
            grid[y][x] = edge || (int)test_rand(&rng, 100) < wall_percent ? '#' : ' ';
        }
    }
    int placed = 0;
    for (int tries = 0; tries < 200 && placed < 1 + 2 * boxes; tries++) {
        int x = 1 + (int)test_rand(&rng, (uint32_t)w - 2),
            y = 1 + (int)test_rand(&rng, (uint32_t)h - 2);
        char ch = grid[y][x];
        if (placed == 0 && ch == ' ') {
            grid[y][x] = '@';
        } else if (placed > 0 && placed <= boxes && (ch == ' ' || ch == '.')) {
            grid[y][x] = ch == '.' ? '*' : '$';
        } else if (placed > boxes && (ch == ' ' || ch == '$')) {
            grid[y][x] = ch == '$' ? '*' : '.';
        } else {
            continue;
        }
        placed++;
    }
    if (placed < 1 + 2 * boxes)
        return NULL;
    int k = 0;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++)
            text[k++] = grid[y][x];
        text[k++] = '\n';
    }
    text[k] = '\0';
    soko_level *lvl = malloc(sizeof *lvl);
    soko_error err;
    if (soko_level_parse(lvl, text, (uint32_t)k, 1, &err) != SOKO_OK) {
        free(lvl);
        return NULL;
    }
    return lvl;
}

/* Steps the game at random (pushes included) to reach other positions. */
static void wander(soko_game *g, int steps)
{
    for (int i = 0; i < steps; i++)
        soko_game_step(g, (int)test_rand(&rng, 4));
}

typedef struct level_list {
    soko_level **lvl;
    int n;
} level_list;

static level_list load_levels(const char *file)
{
    level_list list = {0};
    size_t len;
    char *text = read_file(shared_path(file), &len);
    if (text == NULL)
        return list;
    soko_reader r;
    static soko_entry e;
    soko_reader_init(&r, text, (uint32_t)len);
    while (soko_reader_next(&r, &e) == 1) {
        soko_level *lvl = malloc(sizeof *lvl);
        soko_error err;
        if (soko_level_parse(lvl, text + e.board.off, e.board.len, e.board_line, &err) != SOKO_OK) {
            free(lvl);
            continue;
        }
        list.lvl = realloc(list.lvl, (size_t)(list.n + 1) * sizeof *list.lvl);
        list.lvl[list.n++] = lvl;
    }
    free(text);
    return list;
}

static void free_levels(level_list *list)
{
    for (int i = 0; i < list->n; i++)
        free(list->lvl[i]);
    free(list->lvl);
}

/* ---- walks ------------------------------------------------------------ */

/* Checks soko_path_walk to every square of g against the reference. */
static void check_walks(const soko_game *g, const char *what)
{
    int n = g->level->width * g->level->height;
    int *dist = malloc((size_t)n * sizeof *dist), *queue = malloc((size_t)n * sizeof *queue);
    for (int target = 0; target < n; target++) {
        int32_t got = soko_path_walk(g, (soko_cell)target, &scratch, dirs, sizeof dirs);
        ref_walk(g, target, dist, queue);
        bool open = !(g->cell[target] & (SOKO_WALL | SOKO_OUTSIDE | SOKO_BOX));
        int want = open ? dist[g->player] : -1;
        if (want < 0) {
            if (got != SOKO_E_NO_PATH) {
                note_game(what, g);
                note("target %d", target);
            }
            CHECK_INT(got, SOKO_E_NO_PATH);
            continue;
        }
        if (got != want) {
            note_game(what, g);
            note("target %d, walk %s", target, got > 0 ? steps_text(dirs, got) : "");
            CHECK_INT(got, want);
            continue;
        }
        /* The tie-break: at each square the first direction (u, r, d, l)
         * that gets one step closer. */
        int c = g->player;
        for (int i = 0; i < got; i++) {
            int expect = 0;
            while (expect < 4) {
                int nb = ref_step(g->level, c, expect);
                if (nb >= 0 && dist[nb] == dist[c] - 1)
                    break;
                expect++;
            }
            if (dirs[i] != expect) {
                note_game(what, g);
                note("target %d, walk %s, step %d", target, steps_text(dirs, got), i);
                CHECK_INT(dirs[i], expect);
                break;
            }
            c = ref_step(g->level, c, expect);
        }
        soko_game played;
        int pushes = play(g, dirs, got, &played);
        if (pushes != 0 || played.player != target) {
            note_game(what, g);
            note("target %d, walk %s", target, steps_text(dirs, got));
            CHECK_INT(pushes, 0);
            CHECK_INT(played.player, target);
        }
    }
    free(dist);
    free(queue);
}

static void walks_are_shortest_on_microban(void)
{
    level_list list = load_levels("levels/Microban_155.xsb");
    CHECK(list.n >= 150);
    for (int i = 0; i < list.n; i++) {
        soko_game g;
        soko_game_init(&g, list.lvl[i], SOKO_RULE_STANDARD, history, 1 << 12);
        char what[64];
        snprintf(what, sizeof what, "Microban %d, start", i + 1);
        check_walks(&g, what);
        wander(&g, 300);
        snprintf(what, sizeof what, "Microban %d, after random steps", i + 1);
        check_walks(&g, what);
    }
    free_levels(&list);
}

static void walks_are_shortest_on_random_boards(void)
{
    char text[512];
    int tested = 0;
    for (int i = 0; i < 300; i++) {
        soko_level *lvl = random_level(5 + (int)test_rand(&rng, 10), 5 + (int)test_rand(&rng, 10),
                                       25, 1 + (int)test_rand(&rng, 6), text);
        if (lvl == NULL)
            continue;
        soko_game g;
        soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, 1 << 12);
        check_walks(&g, "random board");
        tested++;
        free(lvl);
    }
    note("%d boards", tested);
    CHECK(tested >= 100);
}

static void walk_refuses_what_it_cannot_do(void)
{
    soko_level *lvl = level_from_text("#######\n"
                                      "#@ $ .#\n"
                                      "# ### #\n"
                                      "#     #\n"
                                      "#######\n");
    soko_level *shut = level_from_text("######\n"
                                       "#@$ .#\n"
                                       "######\n");
    if (lvl == NULL || shut == NULL)
        return;
    soko_game g;
    soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, 1 << 12);
    int w = lvl->width, n = w * lvl->height;
    CHECK_INT(soko_path_walk(&g, (soko_cell)(1 * w + 1), &scratch, dirs, 0), 0);
    CHECK_INT(soko_path_walk(&g, (soko_cell)n, &scratch, dirs, sizeof dirs), SOKO_E_RANGE);
    CHECK_INT(soko_path_walk(&g, SOKO_NO_CELL, &scratch, dirs, sizeof dirs), SOKO_E_RANGE);
    CHECK_INT(soko_path_walk(&g, 0, &scratch, dirs, sizeof dirs), SOKO_E_NO_PATH); /* wall */
    CHECK_INT(soko_path_walk(&g, (soko_cell)(1 * w + 3), &scratch, dirs, sizeof dirs),
              SOKO_E_NO_PATH); /* the box */
    /* (1,1) to (5,1) round the walls: 2 down, 4 right, 2 up. */
    soko_cell far = (soko_cell)(1 * w + 5);
    CHECK_INT(soko_path_walk(&g, far, &scratch, dirs, 7), SOKO_E_FULL);
    CHECK_INT(soko_path_walk(&g, far, &scratch, dirs, 8), 8);
    CHECK_STR(steps_text(dirs, 8), "ddrrrruu");
    /* Behind a box the player cannot get round. */
    soko_game_init(&g, shut, SOKO_RULE_STANDARD, history, 1 << 12);
    w = shut->width;
    CHECK_INT(soko_path_walk(&g, (soko_cell)(1 * w + 3), &scratch, dirs, sizeof dirs),
              SOKO_E_NO_PATH);
    CHECK_INT(soko_path_walk(&g, (soko_cell)(1 * w + 4), &scratch, dirs, sizeof dirs),
              SOKO_E_NO_PATH);
    free(lvl);
    free(shut);
}
/* ---- box reach and push paths ----------------------------------------- */

static void note_box(const char *what, const soko_game *g, int box, int target, int32_t n)
{
    note_game(what, g);
    note("box %d (x %d, y %d), target %d (x %d, y %d), steps %s", box, box % g->level->width,
         box / g->level->width, target, target % g->level->width, target / g->level->width,
         n > 0 ? steps_text(dirs, n) : "(none)");
}

/* Compares box reach and push paths of every box of g with the oracle; every
 * square is tried as a target when all_targets, else a few of them. */
static void check_boxes(const soko_game *g, const char *what, bool all_targets)
{
    int n = g->level->width * g->level->height;
    uint32_t *best = malloc((size_t)n * sizeof *best);
    uint8_t *reach = malloc((size_t)n);
    for (int box = 0; box < n; box++) {
        if (!(g->cell[box] & SOKO_BOX))
            continue;
        ref_box(g, box, best);
        int32_t count = soko_path_box_reach(g, (soko_cell)box, &scratch, reach);
        int32_t want_count = 0;
        for (int c = 0; c < n; c++) {
            bool want = best[c] != UINT32_MAX;
            want_count += want;
            if (reach[c] != want) {
                note_box(what, g, box, c, 0);
                CHECK_INT(reach[c], want);
                break;
            }
        }
        CHECK_INT(count, want_count);

        for (int target = 0; target < n; target++) {
            if (!all_targets && target != box && test_rand(&rng, 8) != 0)
                continue;
            int32_t got = soko_path_box_push(g, (soko_cell)box, (soko_cell)target, &scratch, dirs,
                                             sizeof dirs);
            if (best[target] == UINT32_MAX) {
                if (got != SOKO_E_NO_PATH)
                    note_box(what, g, box, target, got);
                CHECK_INT(got, SOKO_E_NO_PATH);
                continue;
            }
            int want_pushes = (int)(best[target] / KEY_PUSH),
                want_moves = (int)(best[target] % KEY_PUSH);
            if (got != want_moves) {
                note_box(what, g, box, target, got);
                note("the oracle wants %d pushes, %d moves", want_pushes, want_moves);
                CHECK_INT(got, want_moves);
                continue;
            }
            soko_game played;
            int pushes = play(g, dirs, got, &played);
            bool others_still = true;
            for (int c = 0; c < n; c++) {
                if (c != box && c != target &&
                    (played.cell[c] & SOKO_BOX) != (g->cell[c] & SOKO_BOX))
                    others_still = false;
            }
            if (pushes != want_pushes || !(played.cell[target] & SOKO_BOX) || !others_still) {
                note_box(what, g, box, target, got);
                note_game("after playing", &played);
                CHECK_INT(pushes, want_pushes);
                CHECK(played.cell[target] & SOKO_BOX);
                CHECK(others_still);
            }
        }
    }
    free(best);
    free(reach);
}

static void box_paths_match_the_oracle_on_random_boards(void)
{
    char text[512];
    int tested = 0;
    for (int i = 0; i < 600; i++) {
        int w = 4 + (int)test_rand(&rng, 6), h = 4 + (int)test_rand(&rng, 6);
        soko_level *lvl =
            random_level(w, h, (int)test_rand(&rng, 30), 1 + (int)test_rand(&rng, 5), text);
        if (lvl == NULL)
            continue;
        soko_game g;
        soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, 1 << 12);
        check_boxes(&g, "random board", true);
        if (check_failures_in_test > 0) {
            free(lvl);
            break;
        }
        tested++;
        free(lvl);
    }
    note("%d boards", tested);
    CHECK(tested >= 300);
}

static void box_paths_match_the_oracle_on_microban(void)
{
    level_list list = load_levels("levels/Microban_155.xsb");
    CHECK(list.n >= 150);
    for (int i = 0; i < list.n && check_failures_in_test == 0; i++) {
        soko_game g;
        soko_game_init(&g, list.lvl[i], SOKO_RULE_STANDARD, history, 1 << 12);
        char what[64];
        snprintf(what, sizeof what, "Microban %d, start", i + 1);
        check_boxes(&g, what, i % 4 == 0);
        wander(&g, 200);
        snprintf(what, sizeof what, "Microban %d, after random steps", i + 1);
        check_boxes(&g, what, false);
    }
    free_levels(&list);
}

static void box_push_refuses_what_it_cannot_do(void)
{
    soko_level *lvl = level_from_text("#######\n"
                                      "#@ $ .#\n"
                                      "#  #  #\n"
                                      "#######\n");
    if (lvl == NULL)
        return;
    soko_game g;
    soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, 1 << 12);
    int w = lvl->width, n = w * lvl->height;
    soko_cell box = (soko_cell)(1 * w + 3), goal = (soko_cell)(1 * w + 5);
    uint8_t reach[64];
    CHECK_INT(soko_path_box_reach(&g, (soko_cell)(1 * w + 2), &scratch, reach), SOKO_E_RANGE);
    CHECK_INT(soko_path_box_reach(&g, (soko_cell)n, &scratch, reach), SOKO_E_RANGE);
    CHECK_INT(soko_path_box_push(&g, (soko_cell)(1 * w + 2), goal, &scratch, dirs, sizeof dirs),
              SOKO_E_RANGE);
    CHECK_INT(soko_path_box_push(&g, box, (soko_cell)n, &scratch, dirs, sizeof dirs), SOKO_E_RANGE);
    CHECK_INT(soko_path_box_push(&g, box, box, &scratch, dirs, 0), 0);
    CHECK_INT(soko_path_box_push(&g, box, 0, &scratch, dirs, sizeof dirs), SOKO_E_NO_PATH);
    /* Pushed right it sticks in the corridor's end; it never gets down a row. */
    CHECK_INT(soko_path_box_push(&g, box, (soko_cell)(2 * w + 4), &scratch, dirs, sizeof dirs),
              SOKO_E_NO_PATH);
    CHECK_INT(soko_path_box_push(&g, box, goal, &scratch, dirs, 2), SOKO_E_FULL);
    CHECK_INT(soko_path_box_push(&g, box, goal, &scratch, dirs, 3), 3);
    CHECK_STR(steps_text(dirs, 3), "rrr");
    /* Its own square and the two on its right. */
    CHECK_INT(soko_path_box_reach(&g, box, &scratch, reach), 3);
    free(lvl);
}

static void decoration_boxes_on_the_border_stay_put(void)
{
    soko_level *lvl = level_from_text("  *  \n"
                                      "#####\n"
                                      "#@$.#\n"
                                      "#####\n");
    if (lvl == NULL)
        return;
    soko_game g;
    soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, 1 << 12);
    uint8_t reach[64];
    CHECK_INT(soko_path_box_reach(&g, 2, &scratch, reach), 1);
    CHECK_INT(reach[2], 1);
    CHECK_INT(soko_path_box_push(&g, 2, 1, &scratch, dirs, sizeof dirs), SOKO_E_NO_PATH);
    free(lvl);
}

/* One scratch serves a whole game: the blocks it keeps from one call to the
 * next must never answer for another position, level or box. */
static void one_scratch_follows_every_position(void)
{
    level_list list = load_levels("levels/Microban_155.xsb");
    if (list.n < 60)
        return;
    uint32_t best[SOKO_MAX_CELLS];
    uint8_t reach[SOKO_MAX_CELLS];
    soko_game games[3];
    static soko_entry_t hist[3][1 << 12];
    const int picks[3] = {40, 41, 58};
    for (int k = 0; k < 3; k++)
        soko_game_init(&games[k], list.lvl[picks[k]], SOKO_RULE_STANDARD, hist[k], 1 << 12);
    int box = 0;
    for (int round = 0; round < 3000 && check_failures_in_test == 0; round++) {
        /* Mostly the same box again while the game goes on around it. */
        soko_game *g = &games[test_rand(&rng, 8) == 0 ? test_rand(&rng, 3) : 0];
        int n = g->level->width * g->level->height;
        if (g->history_len + 1000 > g->history_cap)
            soko_game_init(g, g->level, SOKO_RULE_STANDARD, g->history, g->history_cap);
        if (test_rand(&rng, 2) == 0) {
            soko_game_step(g, (int)test_rand(&rng, 4));
        } else {
            /* Push some other box somewhere it can go. */
            int other = (int)test_rand(&rng, (uint32_t)n), to = (int)test_rand(&rng, (uint32_t)n);
            while (!(g->cell[other] & SOKO_BOX))
                other = (other + 1) % n;
            int32_t k =
                soko_path_box_push(g, (soko_cell)other, (soko_cell)to, &scratch, dirs, sizeof dirs);
            for (int32_t i = 0; i < k; i++)
                soko_game_step(g, dirs[i]);
        }
        if (box >= n || !(g->cell[box] & SOKO_BOX) || test_rand(&rng, 4) == 0)
            box = (int)test_rand(&rng, (uint32_t)n);
        while (!(g->cell[box] & SOKO_BOX))
            box = (box + 1) % n;
        ref_box(g, box, best);
        int32_t count = soko_path_box_reach(g, (soko_cell)box, &scratch, reach), want = 0;
        for (int c = 0; c < n; c++) {
            want += best[c] != UINT32_MAX;
            if (reach[c] != (best[c] != UINT32_MAX)) {
                note_box("one scratch for many games", g, box, c, 0);
                CHECK_INT(reach[c], best[c] != UINT32_MAX);
                break;
            }
        }
        CHECK_INT(count, want);
        int target = (int)test_rand(&rng, (uint32_t)n);
        int32_t got =
            soko_path_box_push(g, (soko_cell)box, (soko_cell)target, &scratch, dirs, sizeof dirs);
        int32_t expect = best[target] == UINT32_MAX ? SOKO_E_NO_PATH
                         : target == box            ? 0
                                                    : (int32_t)(best[target] % KEY_PUSH);
        if (got != expect) {
            note_box("one scratch for many games", g, box, target, got);
            CHECK_INT(got, expect);
        }
    }
    free_levels(&list);
}

/* Reach and push paths asked in any order, the player wandering between
 * them, on boards where boxes often cut the player's area in two: what one
 * call keeps for the next must never outlive the position it was made in. */
static void box_calls_in_any_order_follow_the_player(void)
{
    char text[512];
    uint32_t best[256];
    uint8_t reach[256];
    int tested = 0;
    for (int i = 0; i < 400 && check_failures_in_test == 0; i++) {
        soko_level *lvl =
            random_level(4 + (int)test_rand(&rng, 5), 4 + (int)test_rand(&rng, 5),
                         20 + (int)test_rand(&rng, 20), 2 + (int)test_rand(&rng, 4), text);
        if (lvl == NULL)
            continue;
        soko_game g;
        soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, 1 << 12);
        int n = lvl->width * lvl->height, box = 0;
        for (int op = 0; op < 80 && check_failures_in_test == 0; op++) {
            while (!(g.cell[box] & SOKO_BOX))
                box = (box + 1) % n;
            uint32_t r = test_rand(&rng, 8);
            if (r < 3) {
                soko_game_step(&g, (int)test_rand(&rng, 4));
                continue;
            }
            ref_box(&g, box, best);
            if (r < 5) {
                int32_t count = soko_path_box_reach(&g, (soko_cell)box, &scratch, reach);
                int32_t want = 0;
                bool same = true;
                for (int c = 0; c < n; c++) {
                    want += best[c] != UINT32_MAX;
                    same = same && reach[c] == (best[c] != UINT32_MAX);
                }
                if (count != want || !same)
                    note_box("reach after other calls", &g, box, 0, 0);
                CHECK_INT(count, want);
                CHECK(same);
                continue;
            }
            int target = (int)test_rand(&rng, (uint32_t)n);
            int32_t got = soko_path_box_push(&g, (soko_cell)box, (soko_cell)target, &scratch, dirs,
                                             sizeof dirs);
            int32_t expect = best[target] == UINT32_MAX ? SOKO_E_NO_PATH
                             : target == box            ? 0
                                                        : (int32_t)(best[target] % KEY_PUSH);
            if (got != expect)
                note_box("push after other calls", &g, box, target, got);
            CHECK_INT(got, expect);
            if (r == 7 && got > 0) {
                for (int32_t k = 0; k < got; k++)
                    soko_game_step(&g, dirs[k]);
                box = target;
            }
        }
        tested++;
        free(lvl);
    }
    CHECK(tested >= 200);
}

/* Two games with the same boxes but the player elsewhere (perhaps on the
 * other side of the box) share one scratch, calls alternating between them. */
static void two_games_with_the_same_boxes_share_a_scratch(void)
{
    char text[512];
    uint32_t best[2][256];
    uint8_t reach[256];
    int tested = 0;
    for (int i = 0; i < 1500 && check_failures_in_test == 0; i++) {
        soko_level *a =
            random_level(4 + (int)test_rand(&rng, 6), 4 + (int)test_rand(&rng, 6),
                         15 + (int)test_rand(&rng, 25), 1 + (int)test_rand(&rng, 4), text);
        if (a == NULL)
            continue;
        /* The same board with the player moved to another floor square. */
        int len = (int)strlen(text), at = (int)(strchr(text, '@') - text);
        int to = (int)test_rand(&rng, (uint32_t)len), tries = 0;
        while (text[to] != ' ' && tries++ < len)
            to = (to + 1) % len;
        if (text[to] != ' ') {
            free(a);
            continue;
        }
        text[at] = ' ';
        text[to] = '@';
        soko_level *b = malloc(sizeof *b);
        soko_error err;
        if (soko_level_parse(b, text, (uint32_t)len, 1, &err) != SOKO_OK) {
            free(a);
            free(b);
            continue;
        }
        soko_game games[2];
        static soko_entry_t hist[2][64];
        soko_game_init(&games[0], a, SOKO_RULE_STANDARD, hist[0], 64);
        soko_game_init(&games[1], b, SOKO_RULE_STANDARD, hist[1], 64);
        int n = a->width * a->height, box = (int)test_rand(&rng, (uint32_t)n);
        while (!(games[0].cell[box] & SOKO_BOX))
            box = (box + 1) % n;
        ref_box(&games[0], box, best[0]);
        ref_box(&games[1], box, best[1]);
        for (int op = 0; op < 12 && check_failures_in_test == 0; op++) {
            int k = (int)test_rand(&rng, 2);
            soko_game *g = &games[k];
            if (test_rand(&rng, 3) == 0) {
                int32_t count = soko_path_box_reach(g, (soko_cell)box, &scratch, reach);
                int32_t want = 0;
                for (int c = 0; c < n; c++)
                    want += best[k][c] != UINT32_MAX;
                if (count != want)
                    note_box("reach, two games", g, box, 0, 0);
                CHECK_INT(count, want);
                continue;
            }
            int target = (int)test_rand(&rng, (uint32_t)n);
            int32_t got = soko_path_box_push(g, (soko_cell)box, (soko_cell)target, &scratch, dirs,
                                             sizeof dirs);
            int32_t expect = best[k][target] == UINT32_MAX ? SOKO_E_NO_PATH
                             : target == box               ? 0
                                                           : (int32_t)(best[k][target] % KEY_PUSH);
            if (got != expect)
                note_box("push, two games", g, box, target, got);
            CHECK_INT(got, expect);
        }
        tested++;
        free(a);
        free(b);
    }
    CHECK(tested >= 500);
}

/* The browser may ask for a box's reach before its push path and the server
 * not: the path must be the same step for step whatever came before. */
static void push_paths_do_not_depend_on_earlier_calls(void)
{
    level_list list = load_levels("levels/Microban_155.xsb");
    static soko_path_scratch other;
    static uint8_t after[1 << 16];
    uint8_t reach[SOKO_MAX_CELLS];
    int compared = 0;
    for (int i = 0; i < list.n && check_failures_in_test == 0; i++) {
        soko_game g;
        soko_game_init(&g, list.lvl[i], SOKO_RULE_STANDARD, history, 1 << 12);
        wander(&g, 100);
        int n = g.level->width * g.level->height;
        for (int box = 0; box < n; box++) {
            if (!(g.cell[box] & SOKO_BOX))
                continue;
            for (int target = 0; target < n; target++) {
                soko_path_box_reach(&g, (soko_cell)box, &scratch, reach);
                int32_t a = soko_path_box_push(&g, (soko_cell)box, (soko_cell)target, &scratch,
                                               after, sizeof after);
                soko_path_walk(&g, (soko_cell)target, &other, dirs, sizeof dirs);
                int32_t b = soko_path_box_push(&g, (soko_cell)box, (soko_cell)target, &other, dirs,
                                               sizeof dirs);
                if (a != b || (a > 0 && memcmp(after, dirs, (size_t)a) != 0)) {
                    note_box("push path after a reach", &g, box, target, a);
                    note("without the reach: %s", b > 0 ? steps_text(dirs, b) : "(none)");
                    CHECK(false);
                    break;
                }
                compared += a > 0;
            }
        }
    }
    note("%d paths compared", compared);
    CHECK(compared > 1000);
    free_levels(&list);
}

/* Old marks left in the scratch must not leak into a call once the stamp
 * counter wraps round. */
static void stamps_wrapping_round_leave_no_stale_marks(void)
{
    level_list list = load_levels("levels/Microban_155.xsb");
    if (list.n < 10)
        return;
    static soko_path_scratch fresh;
    static uint8_t want[1 << 16];
    soko_game g;
    soko_game_init(&g, list.lvl[9], SOKO_RULE_STANDARD, history, 1 << 12);
    int n = g.level->width * g.level->height;
    for (uint32_t back = 1; back < 40; back += 3) {
        for (size_t i = 0; i < sizeof scratch.state_mark / sizeof scratch.state_mark[0]; i++)
            scratch.state_mark[i] = (uint32_t)(i % 7);
        for (int i = 0; i < SOKO_MAX_CELLS; i++)
            scratch.cell_mark[i] = scratch.area_mark[i] = (uint32_t)(i % 5);
        scratch.stamp = UINT32_MAX - back;
        for (int box = 0; box < n; box++) {
            if (!(g.cell[box] & SOKO_BOX))
                continue;
            for (int target = 0; target < n; target += 3) {
                int32_t a = soko_path_box_push(&g, (soko_cell)box, (soko_cell)target, &fresh, want,
                                               sizeof want);
                int32_t b = soko_path_box_push(&g, (soko_cell)box, (soko_cell)target, &scratch,
                                               dirs, sizeof dirs);
                if (a != b || (a > 0 && memcmp(want, dirs, (size_t)a) != 0)) {
                    note("stamp started at UINT32_MAX - %u, box %d, target %d", back, box, target);
                    CHECK_INT(b, a);
                    free_levels(&list);
                    return;
                }
            }
        }
    }
    free_levels(&list);
}

int main(void)
{
    RUN(walk_refuses_what_it_cannot_do);
    RUN(walks_are_shortest_on_random_boards);
    RUN(walks_are_shortest_on_microban);
    RUN(box_push_refuses_what_it_cannot_do);
    RUN(decoration_boxes_on_the_border_stay_put);
    RUN(box_paths_match_the_oracle_on_random_boards);
    RUN(box_paths_match_the_oracle_on_microban);
    RUN(one_scratch_follows_every_position);
    RUN(box_calls_in_any_order_follow_the_player);
    RUN(two_games_with_the_same_boxes_share_a_scratch);
    RUN(push_paths_do_not_depend_on_earlier_calls);
    RUN(stamps_wrapping_round_leave_no_stale_marks);
    return check_finish();
}
