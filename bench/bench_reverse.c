/* Reverse games: what a pull costs, what starting a game costs (it works
 * out the squares its end may find the player on), what the end test and
 * a search for the walk home cost, and what turning a finished line into
 * its forward solution costs, on a 128x128 board cut in two by a wall
 * whose one door is the goal. Prints medians and 99th
 * percentiles in microseconds; never fails on a time. */
#include "bench_env.h"
#include "soko.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 128
#define SAMPLES 2000
#define HISTORY (1u << 20)

static soko_level level;
static soko_game game;
static soko_entry_t history[HISTORY];
static soko_path_scratch scratch;
static uint8_t dirs[HISTORY + SOKO_MAX_CELLS];
static double us[SAMPLES];

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint32_t rnd(uint32_t n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 33) % n;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *what, int n)
{
    qsort(us, (size_t)n, sizeof *us, by_value);
    printf("%-48s median %9.3f us   p99 %9.3f us   (%d calls)\n", what, us[n / 2],
           us[(int)((double)n * 0.99)], n);
}

/* The board: walls round it and down column SIZE / 2, whose one door is
 * the goal; the box starts at (10, 10), the player at (5, 5). */
static void make_level(void)
{
    static char text[SIZE * (SIZE + 1) + 1];
    size_t n = 0;
    for (int y = 0; y < SIZE; y++) {
        for (int x = 0; x < SIZE; x++) {
            char ch = ' ';
            if (x == 0 || y == 0 || x == SIZE - 1 || y == SIZE - 1 || x == SIZE / 2)
                ch = '#';
            if (x == SIZE / 2 && y == SIZE / 2)
                ch = '.';
            if (x == 10 && y == 10)
                ch = '$';
            if (x == 5 && y == 5)
                ch = '@';
            text[n++] = ch;
        }
        text[n++] = '\n';
    }
    soko_error err;
    if (soko_level_parse(&level, text, (uint32_t)n, 1, &err) != SOKO_OK) {
        fprintf(stderr, "bench_reverse: the board does not parse: %s\n", err.message);
        exit(1);
    }
}

int main(void)
{
    make_level();
    soko_cell door = (soko_cell)(SIZE / 2 * SIZE + SIZE / 2);

    /* Steps and pulls, at random, from beside the door. */
    soko_game_init(&game, &level, SOKO_RULE_REVERSE, history, HISTORY);
    soko_game_set_start(&game, (soko_cell)(door - 1));
    uint64_t t0 = bench_env_now_us();
    uint32_t played = 0, pulls = 0;
    for (uint32_t i = 0; i < 500000; i++) {
        int rc = soko_game_play(&game, rnd(8));
        played += rc >= 0;
        pulls += rc == SOKO_PUSHED;
        if (game.cursor > HISTORY - 16)
            break;
    }
    double per = (double)(bench_env_now_us() - t0) / 500000.0;
    printf("%-48s %9.3f us a call (%u played, %u pulls)\n", "random reverse steps (soko_game_play)",
           per, played, pulls);

    /* Starting a reverse game works out the squares its end may find the
     * player on: one search of the level. */
    for (int i = 0; i < SAMPLES; i++) {
        uint64_t a = bench_env_now_us();
        soko_game_init(&game, &level, SOKO_RULE_REVERSE, history, HISTORY);
        us[i] = (double)(bench_env_now_us() - a);
    }
    report("reverse game start (soko_game_init)", SAMPLES);

    /* The walk home searched for: the player shut in the right half by the box
     * on the door, the whole half searched for a way home each time. */
    soko_game_init(&game, &level, SOKO_RULE_REVERSE, history, HISTORY);
    soko_game_set_start(&game, (soko_cell)(100 * SIZE + 100));
    bool home = true;
    for (int i = 0; i < SAMPLES; i++) {
        uint64_t a = bench_env_now_us();
        home = soko_reverse_player_home(&game);
        us[i] = (double)(bench_env_now_us() - a);
    }
    report(home ? "walk home found (unexpected)" : "walk home, none (half the board searched)",
           SAMPLES);

    /* A finished line: the box pulled from the door to its start the long
     * way round, then turned into its forward solution. */
    soko_game_init(&game, &level, SOKO_RULE_REVERSE, history, HISTORY);
    soko_game_set_start(&game, (soko_cell)(door - 1));
    /* Left along the door's row until the box stands in column 10, round
     * it, and up until it stands on its start square (10, 10). */
    for (int i = 0; i < SIZE && game.player % SIZE > 9; i++)
        soko_game_pull(&game, SOKO_LEFT);
    soko_game_step(&game, SOKO_UP);
    soko_game_step(&game, SOKO_RIGHT);
    for (int i = 0; i < SIZE && game.player / SIZE > 9; i++)
        soko_game_pull(&game, SOKO_UP);
    if (!soko_game_solved(&game)) {
        printf("the reverse line did not reach the start: no conversion figure\n");
        return 0;
    }
    bool solved = false;
    for (int i = 0; i < SAMPLES; i++) {
        uint64_t a = bench_env_now_us();
        solved = soko_game_solved(&game);
        us[i] = (double)(bench_env_now_us() - a);
    }
    report(solved ? "end test, the box on its start (soko_game_solved)" : "end test: not solved?",
           SAMPLES);
    int32_t n = 0;
    for (int i = 0; i < SAMPLES / 10; i++) {
        uint64_t a = bench_env_now_us();
        n = soko_reverse_forward(&game, history, game.cursor, &scratch, dirs, sizeof dirs);
        us[i] = (double)(bench_env_now_us() - a);
    }
    char what[96];
    snprintf(what, sizeof what, "forward solution of a %u-step line (%d steps)", game.cursor, n);
    report(what, SAMPLES / 10);
    return 0;
}
