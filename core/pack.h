/* SokoPy binary level packs: reading and writing.
 *
 * A pack is the four bytes "SKBN", the pack's title and its description,
 * each ending with '\n', one byte with the number of levels (at most 255),
 * then one 2-byte offset per level: where in the file the level starts.
 * sokod writes offsets little-endian (low byte first) and reads either byte
 * order: only one of them puts every level inside the file and decodes it,
 * or, when both do, little-endian wins.
 *
 * A level is a stream of 4-bit codes, high nibble first: 0 end of row,
 * 1 outside, 2 floor, 3 player, 4 wall, 5 box, 6 goal, 7 box on goal,
 * 8 player on goal, 13 repeat, 15 end of level. A repeat is 13, a count
 * nibble n, and the code to repeat n + 3 times (sokod writes it for runs of
 * 4 to 18). The level ends with 15, padded with a zero nibble to a whole
 * byte. sokod ends every row, the last one included, with 0 before the 15;
 * it reads a last row ended by the 15 alone as well. */
#ifndef SOKO_PACK_H
#define SOKO_PACK_H

#include "level.h"

#define SOKO_PACK_MAX_LEVELS 255
/* Offsets have two bytes: every level must start within the first 64 KiB. */
#define SOKO_PACK_MAX_OFFSET 0xFFFFu
/* Enough text for any level a pack can hold that the core could accept. */
#define SOKO_PACK_TEXT_CAP (4u * (SOKO_MAX_WIDTH + 1u) * SOKO_MAX_HEIGHT)

/* A pack being read. Its fields are the reader's; the bytes must outlive it. */
typedef struct soko_pack {
    const uint8_t *data;
    uint32_t len;
    soko_span title;       /* without its '\n' */
    soko_span description; /* without its '\n' */
    uint32_t count;        /* levels */
    uint32_t table;        /* where the offsets start */
    bool big_endian;       /* the byte order its offsets were found in */
} soko_pack;

/* Opens the pack in data[0..len): checks the magic, the two text lines, the
 * count and every offset, and decodes each level once to settle the byte
 * order. Returns SOKO_OK, or SOKO_E_SYNTAX with *err saying what is wrong
 * and at which byte (line and col are 0: a pack has no lines). */
int soko_pack_open(soko_pack *p, const uint8_t *data, uint32_t len, soko_error *err);

/* The byte where level `index` (0-based) starts. */
uint32_t soko_pack_offset(const soko_pack *p, uint32_t index);

/* Decodes level `index` (0-based) into text rows ending in '\n' with the
 * standard characters ('-' for floor, ' ' for outside), ready for
 * soko_level_parse. Returns the length written (no NUL), SOKO_E_SYNTAX for a
 * malformed stream (an unknown code, a bad repeat, no end code), SOKO_E_TOO_BIG
 * when the text does not fit cap (use SOKO_PACK_TEXT_CAP), or SOKO_E_RANGE
 * for an index past the count; *err names the level and the byte. */
int32_t soko_pack_level(const soko_pack *p, uint32_t index, char *out, uint32_t cap,
                        soko_error *err);

/* A pack being written into a caller's buffer. Its fields are the writer's. */
typedef struct soko_pack_writer {
    uint8_t *out;
    uint32_t cap;
    uint32_t len;
    uint32_t count;    /* levels written so far */
    uint32_t expected; /* levels announced by soko_pack_write_begin */
    uint32_t table;    /* where the offsets go */
} soko_pack_writer;

/* Starts a pack of `count` levels (1 to 255) with a title and a description
 * (neither may hold '\n' or '\r'). Returns SOKO_OK, SOKO_E_RANGE for a bad
 * count, SOKO_E_SYNTAX for a line break in the texts, or SOKO_E_FULL when
 * cap is too small; *err says which. */
int soko_pack_write_begin(soko_pack_writer *w, uint8_t *out, uint32_t cap, const char *title,
                          uint32_t title_len, const char *description, uint32_t description_len,
                          uint32_t count, soko_error *err);

/* Appends one level and its offset. Returns SOKO_OK, SOKO_E_RANGE when all
 * announced levels are written already, or SOKO_E_FULL when the buffer is
 * full or the level would start beyond SOKO_PACK_MAX_OFFSET. */
int soko_pack_write_level(soko_pack_writer *w, const soko_level *lvl, soko_error *err);

/* Finishes the pack. Returns its length in bytes, or SOKO_E_RANGE when
 * fewer levels were written than announced. */
int32_t soko_pack_write_end(soko_pack_writer *w, soko_error *err);

/* Accessors for JavaScript. */
uint32_t soko_sizeof_pack(void);
uint32_t soko_pack_count(const soko_pack *p);

#endif
