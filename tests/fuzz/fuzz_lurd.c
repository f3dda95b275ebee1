/* libFuzzer target: any bytes as LURD text, played on a small level under
 * both rules with undo and redo; the position after undoing everything must
 * be the start. */
#include "soko.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char board[] = "#######\n"
                            "#.  $ #\n"
                            "#.$$@ #\n"
                            "#.  $ #\n"
                            "#*   .#\n"
                            "#######\n";
static soko_level level;
static soko_game game, start;
static soko_entry_t history[1 << 16];
static uint8_t steps[1 << 16];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    soko_error err;
    if (level.width == 0 && soko_level_parse(&level, board, sizeof board - 1, 1, &err) != SOKO_OK)
        abort();
    int32_t n = soko_lurd_decode((const char *)data, (uint32_t)size, 1, steps, sizeof steps, &err);
    if (n < 0)
        return 0;
    for (int rule = 0; rule < 2; rule++) {
        soko_game_init(&game, &level, rule, history, 1 << 16);
        start = game;
        uint32_t failed;
        soko_lurd_play(&game, steps, (uint32_t)n, &failed);
        while (soko_game_undo(&game) == SOKO_OK) {
        }
        if (game.player != start.player || game.hash != start.hash ||
            memcmp(game.cell, start.cell, sizeof game.cell) != 0)
            abort(); /* undoing everything must give back the start */
        while (soko_game_redo(&game) == SOKO_OK) {
        }
    }
    return 0;
}
