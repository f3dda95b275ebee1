/* SokoPy binary level packs: a header, an offset table and levels coded in
 * nibbles (see pack.h for the layout). */
#include "pack.h"

enum {
    CODE_END_ROW = 0,
    CODE_OUTSIDE = 1,
    CODE_FLOOR = 2,
    CODE_PLAYER = 3,
    CODE_WALL = 4,
    CODE_BOX = 5,
    CODE_GOAL = 6,
    CODE_BOX_GOAL = 7,
    CODE_PLAYER_GOAL = 8,
    CODE_LAST_SQUARE = 8,
    CODE_REPEAT = 13,
    CODE_END = 15,
};

/* The text character of each square code. */
static const char code_char[CODE_LAST_SQUARE + 1] = {0, ' ', '-', '@', '#', '$', '.', '*', '+'};

/* Runs shorter than this are written square by square. */
#define REPEAT_MIN 4
#define REPEAT_MAX 18

/* Reads a text line from *pos up to its '\n'; false when there is none. */
static bool read_line(const uint8_t *data, uint32_t len, uint32_t *pos, soko_span *out)
{
    for (uint32_t i = *pos; i < len; i++) {
        if (data[i] == '\n') {
            out->off = *pos;
            out->len = i - *pos;
            *pos = i + 1;
            return true;
        }
    }
    return false;
}

static uint32_t offset_at(const uint8_t *data, uint32_t table, uint32_t index, bool big_endian)
{
    const uint8_t *b = data + table + 2u * index;
    return big_endian ? (uint32_t)b[0] << 8 | b[1] : (uint32_t)b[1] << 8 | b[0];
}

/* Decodes the level starting at byte `start` (1-based `number` for
 * messages). With out NULL, only checks the stream and returns 0. Returns
 * the text length or a negative code with *err set. */
static int32_t decode(const uint8_t *data, uint32_t len, uint32_t start, uint32_t number, char *out,
                      uint32_t cap, soko_error *err)
{
    uint32_t n = 0;       /* text length */
    uint32_t row_len = 0; /* squares in the current row */
    uint32_t nib = 2 * start;
    uint32_t end = 2 * len;
    for (;;) {
        if (nib >= end)
            return soko_error_set(err, SOKO_E_SYNTAX, 0, 0,
                                  "level %u: the pack ends before the level's end code (15)",
                                  number);
        uint32_t at = nib / 2;
        unsigned code = (data[nib / 2] >> (nib % 2 == 0 ? 4 : 0)) & 15u;
        nib++;
        uint32_t copies = 1;
        if (code == CODE_REPEAT) {
            if (nib + 2 > end)
                return soko_error_set(err, SOKO_E_SYNTAX, 0, 0,
                                      "level %u: a repeat at byte %u is cut off by the end of "
                                      "the pack",
                                      number, at);
            copies = ((data[nib / 2] >> (nib % 2 == 0 ? 4 : 0)) & 15u) + 3u;
            nib++;
            code = (data[nib / 2] >> (nib % 2 == 0 ? 4 : 0)) & 15u;
            nib++;
            if (code == CODE_END_ROW || code > CODE_LAST_SQUARE)
                return soko_error_set(err, SOKO_E_SYNTAX, 0, 0,
                                      "level %u: a repeat at byte %u repeats code %u; only "
                                      "squares (codes 1 to 8) repeat",
                                      number, at, code);
        }
        if (code == CODE_END) {
            if (row_len > 0) {
                if (out != NULL && n + 1 > cap)
                    break;
                if (out != NULL)
                    out[n] = '\n';
                n++;
            }
            return out != NULL ? (int32_t)n : 0;
        }
        if (code > CODE_LAST_SQUARE)
            return soko_error_set(err, SOKO_E_SYNTAX, 0, 0,
                                  "level %u: unknown code %u at byte %u (codes are 0 to 8, "
                                  "13 repeat and 15 end)",
                                  number, code, at);
        if (code == CODE_END_ROW) {
            if (out != NULL && n + 1 > cap)
                break;
            if (out != NULL)
                out[n] = '\n';
            n++;
            row_len = 0;
            continue;
        }
        if (out != NULL && n + copies > cap)
            break;
        for (uint32_t k = 0; k < copies; k++) {
            if (out != NULL)
                out[n] = code_char[code];
            n++;
        }
        row_len += copies;
    }
    return soko_error_set(err, SOKO_E_TOO_BIG, 0, 0,
                          "level %u is larger than the largest board (%ux%u)", number,
                          SOKO_MAX_WIDTH, SOKO_MAX_HEIGHT);
}

/* Checks every offset of the table in one byte order (setting *fit when
 * they all point into the levels' part of the file), then decodes every
 * level. Returns SOKO_OK or the first problem, in *err. */
static int check_order(const soko_pack *p, bool big_endian, bool *fit, soko_error *err)
{
    uint32_t table_end = p->table + 2u * p->count;
    *fit = false;
    for (uint32_t i = 0; i < p->count; i++) {
        uint32_t off = offset_at(p->data, p->table, i, big_endian);
        if (off < table_end || off >= p->len)
            return soko_error_set(err, SOKO_E_SYNTAX, 0, 0,
                                  "level %u starts at byte %u (read %s), outside the levels' "
                                  "part of the pack (bytes %u to %u)",
                                  i + 1, off, big_endian ? "big-endian" : "little-endian",
                                  table_end, p->len > 0 ? p->len - 1 : 0);
    }
    *fit = true;
    for (uint32_t i = 0; i < p->count; i++) {
        int32_t rc =
            decode(p->data, p->len, offset_at(p->data, p->table, i, big_endian), i + 1, 0, 0, err);
        if (rc < 0)
            return rc;
    }
    return SOKO_OK;
}

SOKO_EXPORT("soko_pack_open")
int soko_pack_open(soko_pack *p, const uint8_t *data, uint32_t len, soko_error *err)
{
    p->data = data;
    p->len = len;
    p->count = 0;
    p->big_endian = false;
    p->title.off = p->title.len = 0;
    p->description.off = p->description.len = 0;
    if (len < 4 || data[0] != 'S' || data[1] != 'K' || data[2] != 'B' || data[3] != 'N')
        return soko_error_set(err, SOKO_E_SYNTAX, 0, 0,
                              "not a SokoPy level pack: it does not start with SKBN");
    uint32_t pos = 4;
    if (!read_line(data, len, &pos, &p->title))
        return soko_error_set(err, SOKO_E_SYNTAX, 0, 0,
                              "the pack's title (from byte 4) does not end with a line break");
    if (!read_line(data, len, &pos, &p->description))
        return soko_error_set(err, SOKO_E_SYNTAX, 0, 0,
                              "the pack's description (from byte %u) does not end with a line "
                              "break",
                              pos);
    if (pos >= len)
        return soko_error_set(err, SOKO_E_SYNTAX, 0, 0,
                              "the pack ends before its level count (byte %u)", pos);
    p->count = data[pos];
    p->table = pos + 1;
    if (p->table + 2u * p->count > len)
        return soko_error_set(err, SOKO_E_SYNTAX, 0, 0,
                              "the pack announces %u levels but ends inside their offsets (%u "
                              "bytes, %u needed)",
                              p->count, len, p->table + 2u * p->count);
    bool le_fit, be_fit;
    soko_error be_err;
    if (check_order(p, false, &le_fit, err) == SOKO_OK)
        return SOKO_OK;
    if (check_order(p, true, &be_fit, &be_err) == SOKO_OK) {
        p->big_endian = true;
        return SOKO_OK;
    }
    /* Neither order works: report the one whose offsets at least fit. */
    if (!le_fit && be_fit && err != NULL)
        *err = be_err;
    return SOKO_E_SYNTAX;
}

uint32_t soko_pack_offset(const soko_pack *p, uint32_t index)
{
    return index < p->count ? offset_at(p->data, p->table, index, p->big_endian) : 0;
}

SOKO_EXPORT("soko_pack_level")
int32_t soko_pack_level(const soko_pack *p, uint32_t index, char *out, uint32_t cap,
                        soko_error *err)
{
    if (index >= p->count)
        return soko_error_set(err, SOKO_E_RANGE, 0, 0, "the pack has %u levels, not %u", p->count,
                              index + 1);
    return decode(p->data, p->len, soko_pack_offset(p, index), index + 1, out, cap, err);
}

SOKO_EXPORT("soko_sizeof_pack")
uint32_t soko_sizeof_pack(void)
{
    return sizeof(soko_pack);
}

SOKO_EXPORT("soko_pack_count")
uint32_t soko_pack_count(const soko_pack *p)
{
    return p->count;
}

/* ---- Writing ---------------------------------------------------------------------------- */

static bool has_line_break(const char *s, uint32_t len)
{
    for (uint32_t i = 0; i < len; i++) {
        if (s[i] == '\n' || s[i] == '\r')
            return true;
    }
    return false;
}

SOKO_EXPORT("soko_pack_write_begin")
int soko_pack_write_begin(soko_pack_writer *w, uint8_t *out, uint32_t cap, const char *title,
                          uint32_t title_len, const char *description, uint32_t description_len,
                          uint32_t count, soko_error *err)
{
    w->out = out;
    w->cap = cap;
    w->len = 0;
    w->count = 0;
    w->expected = count;
    if (count == 0 || count > SOKO_PACK_MAX_LEVELS)
        return soko_error_set(err, SOKO_E_RANGE, 0, 0, "a pack holds 1 to %u levels, not %u",
                              SOKO_PACK_MAX_LEVELS, count);
    if (has_line_break(title, title_len) || has_line_break(description, description_len))
        return soko_error_set(err, SOKO_E_SYNTAX, 0, 0,
                              "a pack's title and description are one line each");
    uint32_t need = 4u + title_len + 1u + description_len + 1u + 1u + 2u * count;
    if (need > cap)
        return soko_error_set(err, SOKO_E_FULL, 0, 0, "the pack's header needs %u bytes", need);
    const char magic[4] = {'S', 'K', 'B', 'N'};
    for (uint32_t i = 0; i < 4; i++)
        out[w->len++] = (uint8_t)magic[i];
    for (uint32_t i = 0; i < title_len; i++)
        out[w->len++] = (uint8_t)title[i];
    out[w->len++] = '\n';
    for (uint32_t i = 0; i < description_len; i++)
        out[w->len++] = (uint8_t)description[i];
    out[w->len++] = '\n';
    out[w->len++] = (uint8_t)count;
    w->table = w->len;
    for (uint32_t i = 0; i < 2u * count; i++)
        out[w->len++] = 0;
    return SOKO_OK;
}

/* Nibbles going out, high nibble first. */
typedef struct nibble_out {
    soko_pack_writer *w;
    bool half; /* the last byte has its low nibble free */
    bool full;
} nibble_out;

static void put_nibble(nibble_out *o, unsigned v)
{
    soko_pack_writer *w = o->w;
    if (o->half) {
        w->out[w->len - 1] |= (uint8_t)v;
        o->half = false;
        return;
    }
    if (w->len >= w->cap) {
        o->full = true;
        return;
    }
    w->out[w->len++] = (uint8_t)(v << 4);
    o->half = true;
}

static void put_run(nibble_out *o, unsigned code, uint32_t n)
{
    while (n >= REPEAT_MIN) {
        uint32_t k = n < REPEAT_MAX ? n : REPEAT_MAX;
        put_nibble(o, CODE_REPEAT);
        put_nibble(o, k - 3u);
        put_nibble(o, code);
        n -= k;
    }
    while (n-- > 0)
        put_nibble(o, code);
}

static unsigned cell_code(const soko_level *lvl, soko_cell c)
{
    uint8_t f = lvl->cell[c];
    if (f & SOKO_WALL)
        return CODE_WALL;
    if (c == lvl->player)
        return (f & SOKO_GOAL) ? CODE_PLAYER_GOAL : CODE_PLAYER;
    if ((f & SOKO_BOX) && (f & SOKO_GOAL))
        return CODE_BOX_GOAL;
    if (f & SOKO_BOX)
        return CODE_BOX;
    if (f & SOKO_GOAL)
        return CODE_GOAL;
    return (f & SOKO_OUTSIDE) ? CODE_OUTSIDE : CODE_FLOOR;
}

SOKO_EXPORT("soko_pack_write_level")
int soko_pack_write_level(soko_pack_writer *w, const soko_level *lvl, soko_error *err)
{
    if (w->count >= w->expected)
        return soko_error_set(err, SOKO_E_RANGE, 0, 0, "the pack was announced with %u levels",
                              w->expected);
    if (w->len > SOKO_PACK_MAX_OFFSET)
        return soko_error_set(err, SOKO_E_FULL, 0, 0,
                              "level %u would start at byte %u, beyond the 65,535 that a "
                              "pack's 2-byte offsets reach",
                              w->count + 1, w->len);
    uint32_t start = w->len;
    nibble_out o = {.w = w, .half = false, .full = false};
    for (uint32_t y = 0; y < lvl->height; y++) {
        uint32_t row = y * lvl->width;
        uint32_t last = 0; /* squares up to the last one that is not outside */
        for (uint32_t x = 0; x < lvl->width; x++) {
            if (cell_code(lvl, (soko_cell)(row + x)) != CODE_OUTSIDE)
                last = x + 1;
        }
        uint32_t x = 0;
        while (x < last) {
            unsigned code = cell_code(lvl, (soko_cell)(row + x));
            uint32_t run = 1;
            while (x + run < last && cell_code(lvl, (soko_cell)(row + x + run)) == code)
                run++;
            put_run(&o, code, run);
            x += run;
        }
        put_nibble(&o, CODE_END_ROW);
    }
    put_nibble(&o, CODE_END);
    if (o.full) {
        w->len = start;
        return soko_error_set(err, SOKO_E_FULL, 0, 0, "the pack's buffer is full at level %u",
                              w->count + 1);
    }
    uint8_t *slot = w->out + w->table + 2u * w->count;
    slot[0] = (uint8_t)(start & 0xFF);
    slot[1] = (uint8_t)(start >> 8);
    w->count++;
    return SOKO_OK;
}

SOKO_EXPORT("soko_pack_write_end")
int32_t soko_pack_write_end(soko_pack_writer *w, soko_error *err)
{
    if (w->count != w->expected)
        return soko_error_set(err, SOKO_E_RANGE, 0, 0,
                              "the pack was announced with %u levels but holds %u", w->expected,
                              w->count);
    return (int32_t)w->len;
}
