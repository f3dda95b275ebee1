/* libFuzzer target: any bytes as a level file. Every level the reader finds
 * is parsed and, when valid, written back and parsed again (the round trip
 * must give the same level), and every solution is decoded and played. */
#include "soko.h"

#include <stdlib.h>
#include <string.h>

static soko_reader reader;
static soko_entry entry;
static soko_level level, again;
static soko_game game;
static soko_entry_t history[1 << 16];
static uint8_t steps[1 << 16];
static char text[1 << 17];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 20)
        return 0;
    const char *src = (const char *)data;
    soko_error err;
    soko_reader_init(&reader, src, (uint32_t)size);
    while (soko_reader_next(&reader, &entry) == 1) {
        if (entry.board.off > size || entry.board.len > size - entry.board.off)
            abort(); /* a span outside the text */
        if (soko_level_parse(&level, src + entry.board.off, entry.board.len, entry.board_line,
                             &err) != SOKO_OK)
            continue;
        for (int rle = 0; rle < 2; rle++) {
            int32_t n = soko_level_write(&level, rle, text, sizeof text);
            if (n < 0 || soko_level_parse(&again, text, (uint32_t)n, 1, &err) != SOKO_OK)
                abort(); /* a valid level must write out and read back */
            if (soko_level_canonical_hash(&again) != soko_level_canonical_hash(&level))
                abort();
        }
        for (uint32_t i = 0; i < entry.solution_count; i++) {
            soko_span m = entry.solution[i].moves;
            int32_t n = soko_lurd_decode(src + m.off, m.len, entry.solution[i].line, steps,
                                         sizeof steps, &err);
            if (n <= 0)
                continue;
            uint32_t failed;
            soko_game_init(&game, &level, SOKO_RULE_STANDARD, history, 1 << 16);
            soko_lurd_play(&game, steps, (uint32_t)n, &failed);
        }
    }
    return 0;
}
