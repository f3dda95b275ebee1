/* The compact history of server/play/history.c: every kind of entry (moves,
 * pushes of 1 to 8191 boxes, restarts) packs and comes back the same,
 * bytes that are not a packing are refused, and chunks stored, loaded,
 * dropped and cut keep their entries and count their bytes. */
#include "check.h"
#include "play/history.h"

#include <stdlib.h>

/* A pseudo-random entry of every kind, mostly short pushes and moves. */
static soko_entry_t some_entry(uint32_t *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    uint32_t r = *seed >> 8;
    switch (r % 16) {
    case 0:
        return SOKO_ENTRY_RESTART;
    case 1:
        return (soko_entry_t)((((r >> 4) % 0x1FFFu + 1) << 2) | (r & 3));
    default:
        return (soko_entry_t)((((r >> 4) % 3) << 2) | (r & 3));
    }
}

static void every_kind_of_entry_survives_a_pack(void)
{
    static soko_entry_t in[4 * 8192 + 1], out[4 * 8192 + 1];
    static uint8_t packed[HISTORY_PACKED_MAX(4 * 8192 + 1)];
    uint32_t n = 0;
    /* Each direction with each push count, then a restart. */
    for (unsigned pushed = 0; pushed <= 0x1FFF; pushed++) {
        for (unsigned d = 0; d < 4; d++)
            in[n++] = (soko_entry_t)(pushed << 2 | d);
    }
    in[n++] = SOKO_ENTRY_RESTART;
    size_t len = history_pack(in, n, packed);
    note("%u entries packed to %zu bytes", n, len);
    CHECK(len <= HISTORY_PACKED_MAX(n));
    /* Pushes of up to 62 boxes take one byte, longer ones three. */
    CHECK_INT(len, 4 * 63 + 4 * (0x1FFF - 62) * 3 + 1);
    CHECK_INT(history_unpack(packed, len, out, n), n);
    CHECK(memcmp(in, out, n * sizeof *in) == 0);
    CHECK_INT(history_unpack(packed, len, out, n - 1), -1);
}

static void bytes_that_are_not_a_packing_are_refused(void)
{
    soko_entry_t out[4];
    static const uint8_t cut_escape[] = {0x01, 0xFE, 0x00};
    static const uint8_t short_escaped[] = {0xFE, 0x05, 0x00};
    static const uint8_t restart_escaped[] = {0xFE, 0xFF, 0xFF};
    CHECK_INT(history_unpack(cut_escape, sizeof cut_escape, out, 4), -1);
    CHECK_INT(history_unpack(short_escaped, sizeof short_escaped, out, 4), -1);
    CHECK_INT(history_unpack(restart_escaped, sizeof restart_escaped, out, 4), -1);
    static const uint8_t fine[] = {0xFF, 0x05, 0xFE, 0x00, 0x01};
    CHECK_INT(history_unpack(fine, sizeof fine, out, 4), 3);
    CHECK_INT(out[0], SOKO_ENTRY_RESTART);
    CHECK_INT(out[1], 0x05);
    CHECK_INT(out[2], 0x100);
}

static void stored_chunks_come_back_the_same(void)
{
    enum { CHUNKS = 6 };
    static soko_entry_t in[CHUNKS][HISTORY_CHUNK], out[HISTORY_CHUNK];
    uint32_t seed = 7;
    struct history h = {0};
    for (uint32_t k = 0; k < CHUNKS; k++) {
        for (uint32_t i = 0; i < HISTORY_CHUNK; i++)
            in[k][i] = some_entry(&seed);
        /* The last chunk of a history is shorter. */
        uint32_t n = k == CHUNKS - 1 ? 1000 : HISTORY_CHUNK;
        CHECK_INT(history_store(&h, k, in[k], n), 0);
    }
    CHECK_INT(h.nchunks, CHUNKS);
    for (uint32_t k = 0; k < CHUNKS; k++) {
        note("chunk %u", k);
        uint32_t n = k == CHUNKS - 1 ? 1000 : HISTORY_CHUNK;
        CHECK_INT(history_load(&h, k, out), n);
        CHECK(memcmp(in[k], out, n * sizeof *out) == 0);
    }
    /* Storing again replaces; a dropped chunk is gone but its slot stays. */
    CHECK_INT(history_store(&h, 2, in[3], HISTORY_CHUNK), 0);
    CHECK_INT(history_load(&h, 2, out), HISTORY_CHUNK);
    CHECK(memcmp(in[3], out, sizeof out) == 0);
    history_drop(&h, 1);
    CHECK_INT(history_load(&h, 1, out), -1);
    CHECK_INT(h.nchunks, CHUNKS);
    history_cut(&h, 3);
    CHECK_INT(h.nchunks, 3);
    CHECK_INT(history_load(&h, 4, out), -1);
    CHECK_INT(history_load(&h, 0, out), HISTORY_CHUNK);
    /* A chunk far above the others leaves empty slots below it. */
    CHECK_INT(history_store(&h, 40, in[0], 10), 0);
    CHECK_INT(history_load(&h, 39, out), -1);
    CHECK_INT(history_load(&h, 40, out), 10);
    history_free(&h);
    CHECK_INT(h.bytes, 0);
    CHECK_INT(h.nchunks, 0);
}

static void repetitive_play_takes_little_room(void)
{
    static soko_entry_t back_and_forth[HISTORY_CHUNK];
    for (uint32_t i = 0; i < HISTORY_CHUNK; i++)
        back_and_forth[i] = (soko_entry_t)(i % 2 == 0 ? SOKO_RIGHT : SOKO_LEFT);
    struct history h = {0};
    CHECK_INT(history_store(&h, 0, back_and_forth, HISTORY_CHUNK), 0);
    note("%u entries of back and forth take %u bytes", HISTORY_CHUNK, h.chunk[0].zlen);
    CHECK(h.chunk[0].zlen < HISTORY_CHUNK / 64);
    CHECK(h.bytes >= h.chunk[0].zlen);
    history_free(&h);
}

int main(void)
{
    RUN(every_kind_of_entry_survives_a_pack);
    RUN(bytes_that_are_not_a_packing_are_refused);
    RUN(stored_chunks_come_back_the_same);
    RUN(repetitive_play_takes_little_room);
    return check_finish();
}
