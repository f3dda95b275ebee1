/* libFuzzer target: any bytes as a SokoPy pack. The reader must refuse or
 * accept without reading outside the bytes; every level it decodes that
 * the core accepts must write into a pack of its own and read back as the
 * same level. */
#include "pack.h"
#include "soko.h"

#include <stdlib.h>
#include <string.h>

static soko_level level, again;
static char text[SOKO_PACK_TEXT_CAP];
static uint8_t out[1 << 16];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Writes one level into a pack and reads it back into `again`. */
static void round_trip(const soko_level *lvl)
{
    soko_pack_writer w;
    soko_pack p;
    soko_error err;
    if (soko_pack_write_begin(&w, out, sizeof out, "t", 1, "d", 1, 1, &err) != SOKO_OK ||
        soko_pack_write_level(&w, lvl, &err) != SOKO_OK)
        abort(); /* one level of at most 128x128 always fits 64 KiB */
    int32_t len = soko_pack_write_end(&w, &err);
    if (len < 0 || soko_pack_open(&p, out, (uint32_t)len, &err) != SOKO_OK)
        abort();
    int32_t n = soko_pack_level(&p, 0, text, sizeof text, &err);
    if (n < 0 || soko_level_parse(&again, text, (uint32_t)n, 1, &err) != SOKO_OK)
        abort();
    if (again.width != lvl->width || again.height != lvl->height || again.player != lvl->player ||
        memcmp(again.cell, lvl->cell, (size_t)lvl->width * lvl->height) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 20)
        return 0;
    soko_pack p;
    soko_error err;
    if (soko_pack_open(&p, data, (uint32_t)size, &err) != SOKO_OK)
        return 0;
    for (uint32_t i = 0; i < p.count; i++) {
        int32_t n = soko_pack_level(&p, i, text, sizeof text, &err);
        if (n < 0)
            continue;
        if ((uint32_t)n > sizeof text)
            abort();
        if (soko_level_parse(&level, text, (uint32_t)n, 1, &err) == SOKO_OK)
            round_trip(&level);
    }
    return 0;
}
