/* The native half of the agreement test between the native core and
 * core.wasm: plays the same pseudo-random games on every level of a file and
 * prints a transcript, line by line, that agree.mjs compares with the
 * transcript of the same games played through core.wasm. The scenario here
 * and in agree.mjs must stay the same step for step. */
#include "export.h"
#include "soko.h"

#include <stdio.h>
#include <stdlib.h>

enum { OPS_PER_LEVEL = 400, HISTORY_CAP = 65536, DIRS_CAP = 65536 };

static uint32_t rng_state;

static uint32_t rng_next(void)
{
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    rng_state = x;
    return x;
}

static uint32_t rng_below(uint32_t n)
{
    return rng_next() % n;
}

static char *slurp(const char *path, uint32_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(buf);
        return NULL;
    }
    fclose(f);
    *len = (uint32_t)n;
    return buf;
}

/* Plays steps that the core computed; every one must be accepted. */
static int play(soko_game *g, const uint8_t *dirs, int32_t n)
{
    for (int32_t i = 0; i < n; i++) {
        int r = soko_game_step(g, dirs[i]);
        if (r < 0)
            return r;
    }
    return 0;
}

static void print_state(const soko_game *g)
{
    printf("  %u %u %u %u %u %u %u %u %u %d\n", soko_game_player(g), soko_game_moves(g),
           soko_game_pushes(g), soko_game_boxes_on_goal(g), soko_game_cursor(g),
           soko_game_history_len(g), soko_game_hash_hi(g), soko_game_hash_lo(g),
           soko_game_boxes_on_start(g), soko_game_solved(g) ? 1 : 0);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: agree_native LEVELFILE\n");
        return 2;
    }
    uint32_t len = 0;
    char *text = slurp(argv[1], &len);
    if (text == NULL) {
        fprintf(stderr, "agree_native: cannot read %s\n", argv[1]);
        return 2;
    }
    static soko_reader reader;
    static soko_entry entry;
    static soko_level level;
    static soko_game game;
    static soko_path_scratch scratch;
    static soko_entry_t history[HISTORY_CAP];
    static uint8_t dead[SOKO_MAX_CELLS], frozen[SOKO_MAX_CELLS], reach[SOKO_MAX_CELLS];
    static uint8_t dirs[DIRS_CAP];
    soko_error err;

    soko_reader_init(&reader, text, len);
    for (uint32_t index = 0; soko_reader_next(&reader, &entry) == 1; index++) {
        rng_state = (index + 1) * 2654435761u;
        if (rng_state == 0)
            rng_state = 1;
        int rc = soko_level_parse(&level, text + entry.board.off, entry.board.len, entry.board_line,
                                  &err);
        if (rc != SOKO_OK) {
            printf("level %u error %d %u %u\n", index, rc, err.line, err.col);
            continue;
        }
        uint64_t canon = soko_level_canonical_hash(&level);
        uint32_t cells = (uint32_t)level.width * level.height;
        printf("level %u %u %u %u %u %u\n", index, level.width, level.height, level.boxes,
               (uint32_t)(canon >> 32), (uint32_t)canon);
        printf("dead %d\n", soko_deadlock_dead_squares(&level, dead));
        printf("pull dead %d\n", soko_deadlock_pull_dead_squares(&level, reach));
        /* The standard, multi-push and reverse rules in turn. */
        soko_game_init(&game, &level, (int)(index % 3), history, HISTORY_CAP);
        for (int op = 0; op < OPS_PER_LEVEL; op++) {
            uint32_t r = rng_below(100);
            if (r < 55) {
                /* A direction, and the bit that makes it a pull in reverse. */
                uint32_t d = rng_below(8);
                printf("step %u %d\n", d, soko_game_play(&game, d));
            } else if (r < 65) {
                printf("undo %d\n", soko_game_undo(&game));
            } else if (r < 71) {
                printf("redo %d\n", soko_game_redo(&game));
            } else if (r < 73) {
                printf("restart %d\n", soko_game_restart(&game));
            } else if (r < 85) {
                uint32_t target = rng_below(cells);
                int32_t n = soko_path_walk(&game, (soko_cell)target, &scratch, dirs, DIRS_CAP);
                printf("walk %u %d %d\n", target, n, n > 0 ? play(&game, dirs, n) : 0);
            } else if (r < 97) {
                uint32_t start = rng_below(cells), box = cells;
                for (uint32_t k = 0; k < cells && box == cells; k++) {
                    uint32_t c = (start + k) % cells;
                    if (game.cell[c] & SOKO_BOX)
                        box = c;
                }
                int32_t count = soko_path_box_reach(&game, (soko_cell)box, &scratch, reach);
                uint32_t pick = count > 0 ? rng_below((uint32_t)count) : 0, target = 0;
                for (uint32_t c = 0; c < cells; c++) {
                    if (reach[c] && pick-- == 0) {
                        target = c;
                        break;
                    }
                }
                int32_t n = soko_path_box_push(&game, (soko_cell)box, (soko_cell)target, &scratch,
                                               dirs, DIRS_CAP);
                printf("push %u %u %d %d %d\n", box, target, count, n,
                       n > 0 ? play(&game, dirs, n) : 0);
            } else {
                printf("frozen %d\n", soko_deadlock_frozen(&game, dead, frozen));
            }
            print_state(&game);
        }
    }
    free(text);
    return 0;
}
