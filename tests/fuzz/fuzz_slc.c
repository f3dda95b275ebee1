/* libFuzzer target: any bytes as an SLC (XML) collection. The reader must
 * refuse or accept without touching memory it does not own; every place it
 * maps a level's line and column to must lie inside the file; and every
 * level the core accepts must write into an SLC document of its own and
 * read back as the same level, with the same name and author. */
#include "library/slc.h"
#include "soko.h"

#include <stdlib.h>
#include <string.h>

static soko_level level, again;
static char board[SOKO_MAX_WIDTH * (SOKO_MAX_HEIGHT + 1) + 1];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The number of lines of data[0..size), counting a last line without '\n'. */
static uint32_t count_lines(const uint8_t *data, size_t size)
{
    uint32_t n = 1;
    for (size_t i = 0; i < size; i++)
        n += data[i] == '\n';
    return n;
}

/* Writes one level as SLC and reads it back: same board, name and author. */
static void round_trip(const soko_level *lvl, const char *id, const char *copyright)
{
    int32_t n = soko_level_write(lvl, false, board, sizeof board);
    if (n < 0)
        abort(); /* the buffer holds the largest level */
    board[n] = '\0';
    struct slc_out_level out = {.id = id,
                                .copyright = copyright,
                                .board = board,
                                .width = lvl->width,
                                .height = lvl->height};
    size_t len = 0;
    char *doc = slc_write("t", "d", "c", &out, 1, &len);
    if (doc == NULL)
        abort(); /* names and authors that came out of the reader are UTF-8 */
    struct slc_file f;
    soko_error err;
    if (slc_read(doc, len, &f) != 0 || f.nlevels != 1 ||
        soko_level_parse(&again, f.levels[0].text, (uint32_t)f.levels[0].text_len, 1, &err) !=
            SOKO_OK)
        abort();
    if (again.width != lvl->width || again.height != lvl->height || again.player != lvl->player ||
        memcmp(again.cell, lvl->cell, (size_t)lvl->width * lvl->height) != 0)
        abort();
    if (strcmp(f.levels[0].id ? f.levels[0].id : "", id) != 0 ||
        strcmp(f.levels[0].copyright ? f.levels[0].copyright : "", copyright) != 0)
        abort();
    slc_free(&f);
    free(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 20)
        return 0;
    struct slc_file f;
    slc_read((const char *)data, size, &f);
    uint32_t lines = count_lines(data, size);
    for (size_t i = 0; i < f.nlevels; i++) {
        const struct slc_level *l = &f.levels[i];
        soko_error err = {0};
        if (soko_level_parse(&level, l->text, (uint32_t)l->text_len, 1, &err) == SOKO_OK) {
            round_trip(&level, l->id ? l->id : "", l->copyright ? l->copyright : "");
            continue;
        }
        uint32_t line = err.line, col = err.col;
        slc_locate(l, &line, &col);
        if (line > lines)
            abort(); /* an error placed after the end of the file */
    }
    slc_free(&f);
    return 0;
}
