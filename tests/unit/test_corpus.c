/* The real collections in ../shared/levels: every level is found (the counts
 * are those of the collections' README), valid, titled as its file says,
 * written and read back unchanged, hashed the same whatever its symmetry,
 * and every solution written after a level replays to solved. */
#include "check.h"
#include "level_util.h"
#include "soko.h"
#include "solver.h"

#include <stdlib.h>

/* Level counts and solution counts from the table in shared/levels/README.md. */
static const struct collection {
    const char *path;
    int levels;
    int solutions;        /* -1: not given */
    int levels_with_sols; /* -1: not given */
} collections[] = {
    {"levels/Microban_155.xsb", 155, 0, 0},
    {"levels/Microban_155.rle.sok", 155, -1, -1},
    {"levels/solutions/Microban_155.with-solutions.sok", 155, 282, 152},
    {"levels/XSokoban_90.xsb", 90, 0, 0},
    {"levels/solutions/XSokoban_90.with-solutions.sok", 90, -1, 74},
    {"levels/solutions/Monster_Sokoban.with-solutions.sok", 56, 55, -1},
    {"levels/solutions/MicroCosmos.txt", 40, 0, 0},
    {"levels/solutions/MicroCosmos.sol", 40, 40, 40},
    {"levels/Sasquatch_50.xsb", 50, 0, 0},
    {"levels/boxoban-medium-000.txt", 1000, 0, 0},
};
#define NCOLL (sizeof collections / sizeof collections[0])

/* Every level of a file, parsed. */
typedef struct file_levels {
    char *text;
    size_t len;
    int count;
    soko_reader reader;
    soko_entry *entry;
    soko_level *level;
    bool *valid;
} file_levels;

static file_levels files[NCOLL];

/* Reads and parses every level of collection i once; later tests use it. */
static file_levels *load(size_t i)
{
    file_levels *f = &files[i];
    if (f->text != NULL)
        return f;
    f->text = read_file(shared_path(collections[i].path), &f->len);
    if (f->text == NULL)
        return NULL;
    f->entry = calloc(2000, sizeof *f->entry);
    f->level = calloc(2000, sizeof *f->level);
    f->valid = calloc(2000, sizeof *f->valid);
    soko_reader_init(&f->reader, f->text, (uint32_t)f->len);
    while (f->count < 2000 && soko_reader_next(&f->reader, &f->entry[f->count]) == 1) {
        soko_entry *e = &f->entry[f->count];
        soko_error err = {0};
        int rc = soko_level_parse(&f->level[f->count], f->text + e->board.off, e->board.len,
                                  e->board_line, &err);
        f->valid[f->count] = rc == SOKO_OK;
        if (rc != SOKO_OK)
            note("%s:%u:%u: level %u \"%s\": %s", collections[i].path, err.line, err.col, e->number,
                 span_text(f->text, e->title), err.message);
        f->count++;
    }
    return f;
}

static file_levels *load_path(const char *path)
{
    for (size_t i = 0; i < NCOLL; i++) {
        if (strcmp(collections[i].path, path) == 0)
            return load(i);
    }
    check_fail(__FILE__, __LINE__, "no collection %s", path);
    return NULL;
}

static void every_collection_has_its_levels_all_valid(void)
{
    for (size_t i = 0; i < NCOLL; i++) {
        file_levels *f = load(i);
        if (f == NULL)
            continue;
        note("%s", collections[i].path);
        CHECK_INT(f->count, collections[i].levels);
        int valid = 0, sols = 0, with = 0;
        for (int k = 0; k < f->count; k++) {
            valid += f->valid[k];
            sols += (int)f->entry[k].solution_total;
            with += f->entry[k].solution_total > 0;
            CHECK_INT(f->entry[k].number, k + 1);
        }
        CHECK_INT(valid, collections[i].levels);
        if (collections[i].solutions >= 0)
            CHECK_INT(sols, collections[i].solutions);
        if (collections[i].levels_with_sols >= 0)
            CHECK_INT(with, collections[i].levels_with_sols);
    }
}

static void check_title(const char *path, int number, const char *title)
{
    file_levels *f = load_path(path);
    if (f == NULL || number > f->count) {
        check_fail(__FILE__, __LINE__, "%s has no level %d", path, number);
        return;
    }
    const char *got = span_text(f->text, f->entry[number - 1].title);
    if (strcmp(got, title) != 0)
        check_fail(__FILE__, __LINE__, "%s level %d: title \"%s\", expected \"%s\"", path, number,
                   got, title);
}

static void titles_come_out_as_the_files_write_them(void)
{
    check_title("levels/Microban_155.xsb", 1, "1");
    check_title("levels/Microban_155.xsb", 44, "44");
    check_title("levels/Microban_155.xsb", 155, "155");
    check_title("levels/Microban_155.rle.sok", 1, "1");
    check_title("levels/Microban_155.rle.sok", 155, "155");
    check_title("levels/solutions/Microban_155.with-solutions.sok", 2, "2");
    check_title("levels/XSokoban_90.xsb", 1, "screen.01");
    check_title("levels/XSokoban_90.xsb", 53, "screen.53");
    check_title("levels/XSokoban_90.xsb", 90, "screen.90");
    check_title("levels/solutions/XSokoban_90.with-solutions.sok", 2, "screen.02");
    check_title("levels/solutions/Monster_Sokoban.with-solutions.sok", 1, "Monster Sokoban 1-1");
    check_title("levels/solutions/Monster_Sokoban.with-solutions.sok", 56, "Monster Sokoban 8-7");
    check_title("levels/solutions/MicroCosmos.txt", 1, "MICROCOSMOS 01");
    check_title("levels/solutions/MicroCosmos.txt", 2, "MICROCOSMOS 02");
    check_title("levels/solutions/MicroCosmos.txt", 40, "MICROCOSMOS 40");
    check_title("levels/solutions/MicroCosmos.sol", 1, "MICROCOSMOS 01");
    check_title("levels/solutions/MicroCosmos.sol", 40, "MICROCOSMOS 40");
    check_title("levels/Sasquatch_50.xsb", 1, "1");
    check_title("levels/Sasquatch_50.xsb", 50, "50");
    check_title("levels/boxoban-medium-000.txt", 1, "0");
    check_title("levels/boxoban-medium-000.txt", 1000, "999");

    file_levels *f = load_path("levels/Microban_155.xsb");
    if (f != NULL && f->count == 155) {
        CHECK_STR(span_text(f->text, f->entry[154].notes), "'The Dungeon'");
        CHECK(strncmp(span_text(f->text, f->reader.header), "; Microban (155 puzzles", 23) == 0);
    }
    f = load_path("levels/Microban_155.rle.sok");
    if (f != NULL)
        CHECK_STR(span_text(f->text, f->reader.collection), "Microban (RLE test copy)");
    f = load_path("levels/solutions/MicroCosmos.sol");
    if (f != NULL)
        CHECK_STR(span_text(f->text, f->reader.collection), "data/MicroCosmos.txt");
}

/* Levels k of files a and b are the same puzzles, square for square. */
static void same_boards(const char *a, const char *b, bool cells)
{
    file_levels *fa = load_path(a), *fb = load_path(b);
    if (fa == NULL || fb == NULL)
        return;
    CHECK_INT(fa->count, fb->count);
    for (int k = 0; k < fa->count && k < fb->count; k++) {
        if (!fa->valid[k] || !fb->valid[k])
            continue;
        if (soko_level_canonical_hash(&fa->level[k]) != soko_level_canonical_hash(&fb->level[k]))
            check_fail(__FILE__, __LINE__, "level %d differs between %s and %s", k + 1, a, b);
        if (cells && memcmp(&fa->level[k], &fb->level[k], sizeof fa->level[k]) != 0)
            check_fail(__FILE__, __LINE__, "level %d: squares differ between %s and %s", k + 1, a,
                       b);
    }
}

static void copies_of_a_collection_hold_the_same_boards(void)
{
    same_boards("levels/Microban_155.xsb", "levels/Microban_155.rle.sok", true);
    same_boards("levels/Microban_155.xsb", "levels/solutions/Microban_155.with-solutions.sok",
                false);
    same_boards("levels/XSokoban_90.xsb", "levels/solutions/XSokoban_90.with-solutions.sok", false);
    same_boards("levels/solutions/MicroCosmos.txt", "levels/solutions/MicroCosmos.sol", false);
}

static void write_then_parse_round_trips_every_level(void)
{
    static char text[40000];
    static soko_level again;
    const char *paths[] = {"levels/Microban_155.xsb", "levels/XSokoban_90.xsb",
                           "levels/Sasquatch_50.xsb"};
    for (size_t p = 0; p < 3; p++) {
        file_levels *f = load_path(paths[p]);
        if (f == NULL)
            continue;
        for (int k = 0; k < f->count; k++) {
            for (int rle = 0; rle < 2; rle++) {
                int32_t n = soko_level_write(&f->level[k], rle, text, sizeof text);
                soko_error err = {0};
                if (n < 0 || soko_level_parse(&again, text, (uint32_t)n, 1, &err) != SOKO_OK) {
                    check_fail(__FILE__, __LINE__, "%s level %d (rle %d): %d, %s:\n%s", paths[p],
                               k + 1, rle, n, err.message, text);
                    continue;
                }
                if (memcmp(&again, &f->level[k], sizeof again) != 0)
                    check_fail(__FILE__, __LINE__, "%s level %d (rle %d) reads back changed:\n%s",
                               paths[p], k + 1, rle, text);
            }
        }
    }
}

/* Board text turned and mirrored: the text rewritten as a grid (t & 4:
 * rows become columns, t & 1: mirrored left to right, t & 2: upside down),
 * with `margin` spaces before every row. */
static size_t transform_text(const char *in, size_t len, int t, int margin, char *out, size_t cap)
{
    static char grid[130][130];
    int w = 0, h = 0, x = 0;
    memset(grid, ' ', sizeof grid);
    for (size_t i = 0; i < len; i++) {
        if (in[i] == '\r')
            continue;
        if (in[i] == '\n') {
            h++;
            x = 0;
            continue;
        }
        if (x < 129 && h < 129)
            grid[h][x++] = in[i];
        if (x > w)
            w = x;
    }
    h++;
    int tw = (t & 4) ? h : w, th = (t & 4) ? w : h;
    size_t n = 0;
    for (int v = 0; v < th; v++) {
        for (int i = 0; i < margin && n + 1 < cap; i++)
            out[n++] = ' ';
        for (int u = 0; u < tw && n + 2 < cap; u++) {
            int a = (t & 1) ? tw - 1 - u : u, b = (t & 2) ? th - 1 - v : v;
            out[n++] = (t & 4) ? grid[a][b] : grid[b][a];
        }
        out[n++] = '\n';
    }
    out[n] = '\0';
    return n;
}

static void canonical_hash_is_the_same_for_turned_and_mirrored_copies(void)
{
    static char text[40000];
    static soko_level turned;
    const char *paths[] = {"levels/Microban_155.xsb", "levels/XSokoban_90.xsb"};
    for (size_t p = 0; p < 2; p++) {
        file_levels *f = load_path(paths[p]);
        if (f == NULL)
            continue;
        for (int k = 0; k < f->count; k++) {
            if (!f->valid[k])
                continue;
            uint64_t h = soko_level_canonical_hash(&f->level[k]);
            soko_span b = f->entry[k].board;
            for (int t = 1; t < 8; t++) {
                size_t n = transform_text(f->text + b.off, b.len, t, t % 3, text, sizeof text);
                soko_error err = {0};
                if (soko_level_parse(&turned, text, (uint32_t)n, 1, &err) != SOKO_OK) {
                    check_fail(__FILE__, __LINE__, "%s level %d turned %d: %s:\n%s", paths[p],
                               k + 1, t, err.message, text);
                    continue;
                }
                if (soko_level_canonical_hash(&turned) != h)
                    check_fail(__FILE__, __LINE__, "%s level %d turned %d hashes apart:\n%s",
                               paths[p], k + 1, t, text);
            }
        }
    }
}

static void canonical_hash_differs_when_one_box_moves(void)
{
    static soko_level moved;
    file_levels *f = load_path("levels/Microban_155.xsb");
    if (f == NULL)
        return;
    int tried = 0;
    for (int k = 0; k < f->count; k++) {
        if (!f->valid[k])
            continue;
        const soko_level *l = &f->level[k];
        uint64_t h = soko_level_canonical_hash(l);
        /* Move the first box that has free floor to its right. */
        uint32_t n = (uint32_t)l->width * l->height;
        for (uint32_t c = 0; c + 1 < n; c++) {
            uint8_t here = l->cell[c], right = l->cell[c + 1];
            if (!(here & SOKO_BOX) || (here & SOKO_OUTSIDE) || (right & 0x0F) != 0 ||
                c + 1 == l->player || (c + 1) % l->width == 0)
                continue;
            moved = *l;
            moved.cell[c] &= (uint8_t)~SOKO_BOX;
            moved.cell[c + 1] |= SOKO_BOX;
            if (soko_level_canonical_hash(&moved) == h)
                check_fail(__FILE__, __LINE__, "Microban %d: box %u moved right, same hash", k + 1,
                           c);
            tried++;
            break;
        }
    }
    CHECK(tried > 100);
}

static void different_levels_of_a_collection_hash_apart(void)
{
    const char *paths[] = {"levels/Microban_155.xsb", "levels/XSokoban_90.xsb",
                           "levels/Sasquatch_50.xsb", "levels/boxoban-medium-000.txt"};
    for (size_t p = 0; p < 4; p++) {
        file_levels *f = load_path(paths[p]);
        if (f == NULL)
            continue;
        uint64_t *h = calloc((size_t)f->count, sizeof *h);
        for (int k = 0; k < f->count; k++)
            h[k] = soko_level_canonical_hash(&f->level[k]);
        for (int a = 0; a < f->count; a++) {
            for (int b = a + 1; b < f->count; b++) {
                if (h[a] == h[b])
                    check_fail(__FILE__, __LINE__, "%s: levels %d and %d hash the same", paths[p],
                               a + 1, b + 1);
            }
        }
        free(h);
    }
}

static void every_solution_replays_to_solved(void)
{
    static uint8_t steps[1 << 16];
    static soko_entry_t history[1 << 16];
    static soko_game game;
    const char *paths[] = {"levels/solutions/Microban_155.with-solutions.sok",
                           "levels/solutions/XSokoban_90.with-solutions.sok",
                           "levels/solutions/Monster_Sokoban.with-solutions.sok",
                           "levels/solutions/MicroCosmos.sol", "levels/Microban_155.rle.sok"};
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++) {
        file_levels *f = load_path(paths[p]);
        if (f == NULL)
            continue;
        int replayed = 0;
        for (int k = 0; k < f->count; k++) {
            soko_entry *e = &f->entry[k];
            for (uint32_t s = 0; s < e->solution_count; s++) {
                soko_span m = e->solution[s].moves;
                soko_error err = {0};
                int32_t n = soko_lurd_decode(f->text + m.off, m.len, e->solution[s].line, steps,
                                             sizeof steps, &err);
                if (n < 0) {
                    check_fail(__FILE__, __LINE__, "%s:%u:%u: %s", paths[p], err.line, err.col,
                               err.message);
                    continue;
                }
                soko_game_init(&game, &f->level[k], SOKO_RULE_STANDARD, history, 1 << 16);
                uint32_t failed = 0;
                int rc = soko_lurd_play(&game, steps, (uint32_t)n, &failed);
                if (rc != SOKO_OK || !soko_game_solved(&game))
                    check_fail(__FILE__, __LINE__,
                               "%s level %d solution %u (line %u, \"%s\"): rc %d at step %u of "
                               "%d, solved %d",
                               paths[p], k + 1, s + 1, e->solution[s].line,
                               span_text(f->text, e->solution[s].title), rc, failed, n,
                               soko_game_solved(&game));
                replayed++;
            }
        }
        note("%s: %d solutions replayed", paths[p], replayed);
        CHECK(replayed > 0);
    }
}

/* Where a known solution passes, the position is not lost: the core's
 * deadlock warnings (a box on a dead square, a box frozen off a goal) stay
 * silent at every push, and the solver, stopped early, never calls one of
 * a few positions along the way unsolvable. A wrong verdict here would
 * warn a player off a winning move, or tell an admin that a solvable level
 * is not. */
static void no_position_along_a_known_solution_is_called_lost(void)
{
    static uint8_t steps[1 << 16];
    static soko_entry_t history[1 << 16];
    static soko_game game;
    static uint8_t dead[SOKO_MAX_CELLS], frozen[SOKO_MAX_CELLS];
    enum { SOLVER_PROBES = 4 };
    const char *paths[] = {"levels/solutions/Microban_155.with-solutions.sok",
                           "levels/solutions/XSokoban_90.with-solutions.sok",
                           "levels/solutions/Monster_Sokoban.with-solutions.sok",
                           "levels/solutions/MicroCosmos.sol"};
    solver_options opt;
    solver_options_default(&opt);
    opt.node_limit = 2000;
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++) {
        file_levels *f = load_path(paths[p]);
        if (f == NULL)
            continue;
        int pushes = 0, probes = 0;
        for (int k = 0; k < f->count; k++) {
            soko_entry *e = &f->entry[k];
            if (e->solution_count == 0 || !f->valid[k])
                continue;
            soko_span m = e->solution[0].moves;
            soko_error err = {0};
            int32_t n = soko_lurd_decode(f->text + m.off, m.len, e->solution[0].line, steps,
                                         sizeof steps, &err);
            if (n <= 0)
                continue; /* every_solution_replays_to_solved reports it */
            soko_deadlock_dead_squares(&f->level[k], dead);
            soko_game_init(&game, &f->level[k], SOKO_RULE_STANDARD, history, 1 << 16);
            uint32_t cells = (uint32_t)f->level[k].width * f->level[k].height;
            for (int32_t i = 0; i <= n; i++) {
                if (i * SOLVER_PROBES / n != (i - 1) * SOLVER_PROBES / n || i == 0) {
                    solver_result r = {0};
                    solver_solve_game(&game, &opt, &r);
                    if (r.status == SOLVER_UNSOLVABLE) {
                        check_fail(__FILE__, __LINE__,
                                   "%s level %d: the solver calls the position after step %d of "
                                   "the known solution unsolvable (%s)",
                                   paths[p], k + 1, i, r.reason);
                        note_game("the position", &game);
                    }
                    solver_result_free(&r);
                    probes++;
                }
                if (i == n)
                    break;
                uint32_t before = game.pushes, failed = 0;
                if (soko_lurd_play(&game, &steps[i], 1, &failed) != SOKO_OK)
                    break; /* every_solution_replays_to_solved reports it */
                if (game.pushes == before)
                    continue;
                pushes++;
                uint32_t on_dead = 0;
                for (uint32_t c = 0; c < cells; c++)
                    on_dead += (game.cell[c] & SOKO_BOX) != 0 && dead[c];
                int32_t stuck = soko_deadlock_frozen(&game, dead, frozen);
                if (on_dead > 0 || stuck > 0) {
                    check_fail(__FILE__, __LINE__,
                               "%s level %d: after step %d of the known solution, %u box(es) on "
                               "dead squares and %d frozen off a goal",
                               paths[p], k + 1, i + 1, on_dead, stuck);
                    note_game("the position", &game);
                    break;
                }
            }
        }
        note("%s: %d pushes looked at, %d positions given to the solver", paths[p], pushes, probes);
        CHECK(pushes > 0);
    }
}

int main(void)
{
    RUN(every_collection_has_its_levels_all_valid);
    RUN(titles_come_out_as_the_files_write_them);
    RUN(copies_of_a_collection_hold_the_same_boards);
    RUN(write_then_parse_round_trips_every_level);
    RUN(canonical_hash_is_the_same_for_turned_and_mirrored_copies);
    RUN(canonical_hash_differs_when_one_box_moves);
    RUN(different_levels_of_a_collection_hash_apart);
    RUN(every_solution_replays_to_solved);
    RUN(no_position_along_a_known_solution_is_called_lost);
    return check_finish();
}
