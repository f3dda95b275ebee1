/* Path finding speed: soko_path_walk, soko_path_box_reach and
 * soko_path_box_push on the largest level of the shared collections and on a
 * generated 100x100 board. Prints the median and the 99th percentile of each
 * call in microseconds; never fails on a time. */
#include "bench_env.h"
#include "soko.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SAMPLES 4000

static soko_path_scratch scratch;
static soko_entry_t history[16];
static uint8_t dirs[1 << 16];
static uint8_t reach[SOKO_MAX_CELLS];
static double walk_us[SAMPLES], reach_us[SAMPLES], push_us[SAMPLES], both_us[SAMPLES],
    cold_us[SAMPLES];

static uint64_t rng = 0x853C49E6748FEA9Bull;

static uint32_t rnd(uint32_t n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 33) % n;
}

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *board, const char *what, double *us, int n)
{
    if (n == 0) {
        printf("%-28s %-22s no samples\n", board, what);
        return;
    }
    qsort(us, (size_t)n, sizeof *us, by_value);
    printf("%-28s %-22s median %8.2f us   p99 %8.2f us   (%d calls)\n", board, what, us[n / 2],
           us[(int)((double)n * 0.99)], n);
}

static bool has_suffix(const char *name, const char *suffix)
{
    size_t n = strlen(name), k = strlen(suffix);
    return n >= k && strcmp(name + n - k, suffix) == 0;
}

/* Keeps in *best the level with the most cells among the .xsb and .sok files
 * of one folder. */
static void scan_folder(const char *dir, soko_level *best, char *best_name, size_t cap)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    static soko_level lvl;
    static soko_entry e;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        if (!has_suffix(ent->d_name, ".xsb") && !has_suffix(ent->d_name, ".sok"))
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
        uint32_t len;
        char *text = bench_env_read_file(path, &len);
        if (text == NULL)
            continue;
        soko_reader r;
        soko_reader_init(&r, text, len);
        while (soko_reader_next(&r, &e) == 1) {
            soko_error err;
            if (soko_level_parse(&lvl, text + e.board.off, e.board.len, e.board_line, &err) !=
                SOKO_OK)
                continue;
            if ((uint32_t)lvl.width * lvl.height > (uint32_t)best->width * best->height) {
                *best = lvl;
                snprintf(best_name, cap, "%s #%u (%ux%u)", ent->d_name, e.number, lvl.width,
                         lvl.height);
            }
        }
        free(text);
    }
    closedir(d);
}

/* A 100x100 board: walls round it, scattered walls (wall_percent of the
 * squares), `boxes` boxes and as many goals in the player's area, from the
 * fixed seed. */
static void generate(soko_level *out, uint32_t wall_percent, int boxes)
{
    enum { W = 100, H = 100 };
    static char grid[H][W];
    static int queue[W * H];
    static uint8_t seen[W * H];
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            bool edge = x == 0 || y == 0 || x == W - 1 || y == H - 1;
            grid[y][x] = edge || rnd(100) < wall_percent ? '#' : ' ';
        }
    }
    int player = 0;
    while (grid[player / W][player % W] != ' ')
        player = (int)rnd(W * H);
    grid[player / W][player % W] = '@';
    /* Only the player's area gets boxes and goals. */
    int head = 0, tail = 0;
    memset(seen, 0, sizeof seen);
    seen[player] = 1;
    queue[tail++] = player;
    while (head < tail) {
        int c = queue[head++];
        const int off[4] = {-W, 1, W, -1};
        for (int d = 0; d < 4; d++) {
            int nb = c + off[d];
            if (!seen[nb] && grid[nb / W][nb % W] != '#') {
                seen[nb] = 1;
                queue[tail++] = nb;
            }
        }
    }
    for (int placed = 0, goals = 0; placed < boxes || goals < boxes;) {
        int c = queue[rnd((uint32_t)tail)];
        char *sq = &grid[c / W][c % W];
        if (placed < boxes && *sq == ' ') {
            *sq = '$';
            placed++;
        } else if (placed == boxes && goals < boxes && *sq == ' ') {
            *sq = '.';
            goals++;
        }
    }
    static char text[(W + 1) * H + 1];
    int k = 0;
    for (int y = 0; y < H; y++) {
        memcpy(text + k, grid[y], W);
        k += W;
        text[k++] = '\n';
    }
    soko_error err;
    if (soko_level_parse(out, text, (uint32_t)k, 1, &err) != SOKO_OK) {
        fprintf(stderr, "bench_path: generated board refused: %s\n", err.message);
        exit(1);
    }
}

static void bench(const char *name, const soko_level *lvl)
{
    soko_game g;
    soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, 16);
    uint32_t cells = (uint32_t)lvl->width * lvl->height;

    int n = 0;
    for (int tries = 0; n < SAMPLES && tries < SAMPLES * 50; tries++) {
        soko_cell target = (soko_cell)rnd(cells);
        double t0 = now_us();
        int32_t r = soko_path_walk(&g, target, &scratch, dirs, sizeof dirs);
        double t1 = now_us();
        if (r > 0)
            walk_us[n++] = t1 - t0;
    }
    report(name, "walk", walk_us, n);

    soko_cell boxes[SOKO_MAX_CELLS];
    int nboxes = 0;
    for (uint32_t c = 0; c < cells; c++) {
        if (g.cell[c] & SOKO_BOX)
            boxes[nboxes++] = (soko_cell)c;
    }
    int nr = 0, np = 0;
    double moves = 0, pushes_sq = 0;
    for (int tries = 0; np < SAMPLES && tries < SAMPLES * 20; tries++) {
        soko_cell box = boxes[rnd((uint32_t)nboxes)];
        double t0 = now_us();
        int32_t count = soko_path_box_reach(&g, box, &scratch, reach);
        double t1 = now_us();
        reach_us[nr++ % SAMPLES] = t1 - t0;
        if (count <= 1)
            continue;
        uint32_t pick = rnd((uint32_t)count - 1) + 1, target = box;
        for (uint32_t c = 0; c < cells; c++) {
            if (reach[c] && c != box && --pick == 0) {
                target = c;
                break;
            }
        }
        double t2 = now_us();
        int32_t steps = soko_path_box_push(&g, box, (soko_cell)target, &scratch, dirs, sizeof dirs);
        double t3 = now_us();
        if (steps <= 0)
            continue;

        moves += steps;
        pushes_sq += count;
        push_us[np] = t3 - t2;
        /* The same push path again with nothing kept from the reach: the
         * scratch last served another box. */
        soko_path_box_reach(&g, boxes[rnd((uint32_t)nboxes)], &scratch, reach);
        double t4 = now_us();
        soko_path_box_push(&g, box, (soko_cell)target, &scratch, dirs, sizeof dirs);
        cold_us[np] = now_us() - t4;
        both_us[np] = (t1 - t0) + (t3 - t2);
        np++;
    }
    if (nr > SAMPLES)
        nr = SAMPLES;
    report(name, "box reach", reach_us, nr);
    report(name, "box push after reach", push_us, np);
    report(name, "box push alone", cold_us, np);
    report(name, "box reach + push", both_us, np);
    static uint8_t dead[SOKO_MAX_CELLS], frozen[SOKO_MAX_CELLS];
    int nd = 0;
    for (; nd < 200; nd++) {
        double t0 = now_us();
        soko_deadlock_dead_squares(lvl, dead);
        double t1 = now_us();
        soko_deadlock_frozen(&g, dead, frozen);
        walk_us[nd] = t1 - t0;
        reach_us[nd] = now_us() - t1;
    }
    report(name, "dead squares", walk_us, nd);
    report(name, "frozen boxes", reach_us, nd);
    if (np > 0)
        printf("%-28s %-22s %.0f steps per push path, %.0f squares per reach\n", name, "",
               moves / np, pushes_sq / np);
}

int main(void)
{
    static soko_level largest, generated;
    char name[256] = "(none)";
    scan_folder(SOKOD_SHARED_DIR "/levels", &largest, name, sizeof name);
    scan_folder(SOKOD_SHARED_DIR "/levels/solutions", &largest, name, sizeof name);
    printf("largest level: %s\n", name);
    if (largest.width > 0)
        bench("largest level", &largest);
    generate(&generated, 18, 500);
    bench("100x100, 18% walls", &generated);
    generate(&generated, 6, 150);
    bench("100x100, 6% walls", &generated);
    return 0;
}
