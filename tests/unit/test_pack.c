/* SokoPy binary level packs: every Microban and XSokoban level goes through
 * a pack and comes back the same level; packs in either byte order read;
 * the nibble coding is the one ORIGINS.md describes; malformed packs are
 * refused with a message that says what is wrong. */
#include "check.h"
#include "soko.h"
#include "pack.h"

#include <stdlib.h>

#define PACK_CAP (1u << 20)

/* Every valid level of a shared file. */
typedef struct levels {
    soko_level *level;
    uint32_t count;
} levels;

static levels load(const char *relative)
{
    levels out = {calloc(256, sizeof(soko_level)), 0};
    size_t len = 0;
    char *text = read_file(shared_path(relative), &len);
    if (text == NULL || out.level == NULL)
        return out;
    soko_reader r;
    static soko_entry e;
    soko_reader_init(&r, text, (uint32_t)len);
    while (out.count < 256 && soko_reader_next(&r, &e) == 1) {
        soko_error err = {0};
        int rc = soko_level_parse(&out.level[out.count], text + e.board.off, e.board.len,
                                  e.board_line, &err);
        if (rc != SOKO_OK)
            check_fail(__FILE__, __LINE__, "%s:%u:%u: %s", relative, err.line, err.col,
                       err.message);
        else
            out.count++;
    }
    free(text);
    return out;
}

/* Writes levels into a pack; returns its length or a negative code. */
static int32_t write_pack(const soko_level *lv, uint32_t n, const char *title, const char *desc,
                          uint8_t *out, uint32_t cap)
{
    soko_pack_writer w;
    soko_error err = {0};
    int rc = soko_pack_write_begin(&w, out, cap, title, (uint32_t)strlen(title), desc,
                                   (uint32_t)strlen(desc), n, &err);
    for (uint32_t i = 0; rc == SOKO_OK && i < n; i++)
        rc = soko_pack_write_level(&w, &lv[i], &err);
    if (rc != SOKO_OK) {
        note("writing the pack: %s", err.message);
        return rc;
    }
    return soko_pack_write_end(&w, &err);
}

static bool same_level(const soko_level *a, const soko_level *b)
{
    return a->width == b->width && a->height == b->height && a->player == b->player &&
           a->boxes == b->boxes && memcmp(a->cell, b->cell, (size_t)a->width * a->height) == 0 &&
           soko_level_canonical_hash(a) == soko_level_canonical_hash(b);
}

/* Reads level i of an open pack back into *lvl; false after a check failure. */
static bool read_level(const soko_pack *p, uint32_t i, soko_level *lvl)
{
    static char text[SOKO_PACK_TEXT_CAP];
    soko_error err = {0};
    int32_t n = soko_pack_level(p, i, text, sizeof text, &err);
    if (n < 0) {
        check_fail(__FILE__, __LINE__, "level %u of the pack: %s", i + 1, err.message);
        return false;
    }
    int rc = soko_level_parse(lvl, text, (uint32_t)n, 1, &err);
    if (rc != SOKO_OK) {
        check_fail(__FILE__, __LINE__, "level %u of the pack reads as\n%.*s\nwhich fails: %s",
                   i + 1, (int)n, text, err.message);
        return false;
    }
    return true;
}

static void round_trip(const char *relative, uint32_t expected)
{
    levels lv = load(relative);
    CHECK_INT(lv.count, expected);
    uint8_t *pack = malloc(PACK_CAP), *again = malloc(PACK_CAP);
    soko_level *back = calloc(lv.count + 1, sizeof *back);
    int32_t len =
        write_pack(lv.level, lv.count, "A title", "One line of description", pack, PACK_CAP);
    note("%s: %u levels in a pack of %d bytes", relative, lv.count, len);
    CHECK(len > 0);
    soko_pack p;
    soko_error err = {0};
    int rc = len > 0 ? soko_pack_open(&p, pack, (uint32_t)len, &err) : len;
    if (rc != SOKO_OK)
        check_fail(__FILE__, __LINE__, "opening the pack: %s", err.message);
    if (rc == SOKO_OK) {
        CHECK_INT(p.count, lv.count);
        CHECK(!p.big_endian);
        CHECK_INT(p.title.len, 7);
        CHECK(memcmp(pack + p.title.off, "A title", 7) == 0);
        CHECK(memcmp(pack + p.description.off, "One line of description", 23) == 0);
        for (uint32_t i = 0; i < p.count; i++) {
            if (!read_level(&p, i, &back[i]))
                continue;
            if (!same_level(&lv.level[i], &back[i]))
                check_fail(__FILE__, __LINE__, "%s level %u differs after the pack", relative,
                           i + 1);
        }
        /* The levels read back write the same bytes again. */
        int32_t len2 =
            write_pack(back, p.count, "A title", "One line of description", again, PACK_CAP);
        CHECK_INT(len2, len);
        CHECK(len2 == len && memcmp(pack, again, (size_t)len) == 0);
    }
    free(pack);
    free(again);
    free(back);
    free(lv.level);
}

static void every_microban_level_survives_a_pack(void)
{
    round_trip("levels/Microban_155.xsb", 155);
}

static void every_xsokoban_level_survives_a_pack(void)
{
    round_trip("levels/XSokoban_90.xsb", 90);
}

/* The corridor "#####|#@$.#|#####" coded by hand from ORIGINS.md. */
static const uint8_t corridor[] = {
    'S',
    'K',
    'B',
    'N',
    'T',
    '\n',
    'D',
    'e',
    '\n',
    1,
    12,
    0,
    /* 13 2 4 (five walls) 0 | 4 3 5 6 | 4 0 13 2 | 4 0 15 pad */
    0xD2,
    0x40,
    0x43,
    0x56,
    0x40,
    0xD2,
    0x40,
    0xF0,
};

static soko_level *corridor_level(void)
{
    static soko_level lvl;
    soko_error err = {0};
    const char *text = "#####\n#@$.#\n#####\n";
    CHECK_INT(soko_level_parse(&lvl, text, (uint32_t)strlen(text), 1, &err), SOKO_OK);
    return &lvl;
}

static void the_writer_codes_nibbles_and_repeats_as_origins_says(void)
{
    uint8_t out[64];
    int32_t len = write_pack(corridor_level(), 1, "T", "De", out, sizeof out);
    CHECK_INT(len, (int32_t)sizeof corridor);
    for (size_t i = 0; len == (int32_t)sizeof corridor && i < sizeof corridor; i++) {
        if (out[i] != corridor[i])
            check_fail(__FILE__, __LINE__, "byte %zu is 0x%02x, expected 0x%02x", i, out[i],
                       corridor[i]);
    }
}

/* Runs of 3 (written square by square), 15 (one repeat) and 20 (a repeat of
 * 18 and two squares), coded by hand. */
static const char *const runs_text[2] = {
    "#####\n#.$@#\n#   #\n#####\n",
    "####################\n#@$.               #\n####################\n",
};
static const uint8_t runs[] = {
    'S',
    'K',
    'B',
    'N',
    '\n',
    '\n',
    2,
    11,
    0,
    22,
    0,
    /* D 2 4 0 | 4 6 5 3 4 0 | 4 2 2 2 4 0 | D 2 4 0 | F pad */
    0xD2,
    0x40,
    0x46,
    0x53,
    0x40,
    0x42,
    0x22,
    0x40,
    0xD2,
    0x40,
    0xF0,
    /* D F 4 4 4 0 | 4 3 5 6 D C 2 4 0 | D F 4 4 4 0 | F */
    0xDF,
    0x44,
    0x40,
    0x43,
    0x56,
    0xDC,
    0x24,
    0x0D,
    0xF4,
    0x44,
    0x0F,
};

static void runs_are_repeated_from_four_squares_to_eighteen(void)
{
    soko_level lv[2];
    soko_error err = {0};
    for (int i = 0; i < 2; i++)
        CHECK_INT(soko_level_parse(&lv[i], runs_text[i], (uint32_t)strlen(runs_text[i]), 1, &err),
                  SOKO_OK);
    uint8_t out[64];
    int32_t len = write_pack(lv, 2, "", "", out, sizeof out);
    CHECK_INT(len, (int32_t)sizeof runs);
    for (size_t i = 0; len == (int32_t)sizeof runs && i < sizeof runs; i++) {
        if (out[i] != runs[i])
            check_fail(__FILE__, __LINE__, "byte %zu is 0x%02x, expected 0x%02x", i, out[i],
                       runs[i]);
    }
    soko_pack p;
    CHECK_INT(soko_pack_open(&p, runs, sizeof runs, &err), SOKO_OK);
    char text[128];
    for (uint32_t i = 0; i < 2; i++) {
        int32_t n = soko_pack_level(&p, i, text, sizeof text, &err);
        size_t want = strlen(runs_text[i]);
        /* The reader writes floor as '-'. */
        for (int32_t k = 0; k < n; k++)
            text[k] = text[k] == '-' ? ' ' : text[k];
        if (n != (int32_t)want || memcmp(text, runs_text[i], want) != 0)
            check_fail(__FILE__, __LINE__, "level %u reads as\n%.*s\nexpected\n%s", i + 1,
                       n > 0 ? (int)n : 0, text, runs_text[i]);
    }
}

static void the_reader_decodes_a_hand_made_pack(void)
{
    soko_pack p;
    soko_error err = {0};
    CHECK_INT(soko_pack_open(&p, corridor, sizeof corridor, &err), SOKO_OK);
    CHECK_INT(p.count, 1);
    CHECK_INT(soko_pack_offset(&p, 0), 12);
    char text[256];
    int32_t n = soko_pack_level(&p, 0, text, sizeof text, &err);
    CHECK_INT(n, 18);
    CHECK(n == 18 && memcmp(text, "#####\n#@$.#\n#####\n", 18) == 0);
    soko_level lvl;
    CHECK(read_level(&p, 0, &lvl) && same_level(&lvl, corridor_level()));
}

static void a_big_endian_pack_reads_the_same(void)
{
    levels lv = load("levels/Microban_155.xsb");
    uint8_t *pack = malloc(PACK_CAP);
    int32_t len = write_pack(lv.level, 40, "Big", "endian", pack, PACK_CAP);
    soko_pack p;
    soko_error err = {0};
    CHECK_INT(soko_pack_open(&p, pack, (uint32_t)len, &err), SOKO_OK);
    uint32_t table = p.table;
    for (uint32_t i = 0; i < 40; i++) {
        uint8_t lo = pack[table + 2 * i];
        pack[table + 2 * i] = pack[table + 2 * i + 1];
        pack[table + 2 * i + 1] = lo;
    }
    int rc = soko_pack_open(&p, pack, (uint32_t)len, &err);
    if (rc != SOKO_OK)
        check_fail(__FILE__, __LINE__, "the swapped pack: %s", err.message);
    CHECK(p.big_endian);
    soko_level back;
    for (uint32_t i = 0; rc == SOKO_OK && i < 40; i++) {
        if (read_level(&p, i, &back) && !same_level(&back, &lv.level[i]))
            check_fail(__FILE__, __LINE__, "level %u differs when read big-endian", i + 1);
    }
    free(pack);
    free(lv.level);
}

static void a_last_row_ended_by_the_end_code_alone_reads(void)
{
    /* The corridor without the 0 before the 15: ... 13 2 4 15 */
    const uint8_t bytes[] = {'S', 'K',  'B',  'N',  '\n', '\n', 1,    9,
                             0,   0xD2, 0x40, 0x43, 0x56, 0x40, 0xD2, 0x4F};
    soko_pack p;
    soko_error err = {0};
    CHECK_INT(soko_pack_open(&p, bytes, sizeof bytes, &err), SOKO_OK);
    char text[64];
    int32_t n = soko_pack_level(&p, 0, text, sizeof text, &err);
    CHECK_INT(n, 18);
    CHECK(n == 18 && memcmp(text, "#####\n#@$.#\n#####\n", 18) == 0);
}

/* Opens a malformed pack: it must fail with a message containing `words`. */
static void refused(const char *what, const uint8_t *bytes, uint32_t len, const char *words)
{
    soko_pack p;
    soko_error err = {0};
    int rc = soko_pack_open(&p, bytes, len, &err);
    note("%s: code %d, \"%s\"", what, rc, err.message);
    CHECK_INT(rc, SOKO_E_SYNTAX);
    if (strstr(err.message, words) == NULL)
        check_fail(__FILE__, __LINE__, "%s: the message \"%s\" does not say \"%s\"", what,
                   err.message, words);
}

static void malformed_packs_are_refused_with_clear_messages(void)
{
    const uint8_t text[] = "#####\n#@$.#\n#####\n";
    refused("a text file", text, sizeof text - 1, "does not start with SKBN");
    const uint8_t no_title_end[] = {'S', 'K', 'B', 'N', 'T', 'i', 't'};
    refused("a title without its line break", no_title_end, sizeof no_title_end, "title");
    const uint8_t no_desc_end[] = {'S', 'K', 'B', 'N', 'T', '\n', 'D'};
    refused("a description without its line break", no_desc_end, sizeof no_desc_end, "description");
    const uint8_t no_count[] = {'S', 'K', 'B', 'N', '\n', '\n'};
    refused("no level count", no_count, sizeof no_count, "level count");
    const uint8_t short_table[] = {'S', 'K', 'B', 'N', '\n', '\n', 3, 9, 0};
    refused("a table cut short", short_table, sizeof short_table, "announces 3 levels");
    const uint8_t far_offset[] = {'S', 'K', 'B', 'N', '\n', '\n', 1, 0x00, 0x30, 0x4F};
    refused("an offset past the end", far_offset, sizeof far_offset, "starts at byte");
    const uint8_t unknown[] = {'S', 'K', 'B', 'N', '\n', '\n', 1, 9, 0, 0x49, 0xF0};
    refused("code 9", unknown, sizeof unknown, "unknown code 9");
    const uint8_t repeat_row_end[] = {'S', 'K', 'B', 'N', '\n', '\n', 1, 9, 0, 0xD2, 0x0F};
    refused("a repeat of code 0", repeat_row_end, sizeof repeat_row_end, "repeats code 0");
    const uint8_t no_end[] = {'S', 'K', 'B', 'N', '\n', '\n', 1, 9, 0, 0x44, 0x44};
    refused("no end code", no_end, sizeof no_end, "end code (15)");
    const uint8_t cut_repeat[] = {'S', 'K', 'B', 'N', '\n', '\n', 1, 9, 0, 0x4D};
    refused("a repeat cut off", cut_repeat, sizeof cut_repeat, "cut off");
}

static void a_level_larger_than_the_buffer_is_too_big(void)
{
    soko_pack p;
    soko_error err = {0};
    CHECK_INT(soko_pack_open(&p, corridor, sizeof corridor, &err), SOKO_OK);
    char small[8];
    CHECK_INT(soko_pack_level(&p, 0, small, sizeof small, &err), SOKO_E_TOO_BIG);
    CHECK(strstr(err.message, "larger than") != NULL);
    CHECK_INT(soko_pack_level(&p, 1, small, sizeof small, &err), SOKO_E_RANGE);
}

static void the_writer_refuses_what_a_pack_cannot_hold(void)
{
    static uint8_t out[70000];
    soko_pack_writer w;
    soko_error err = {0};
    CHECK_INT(soko_pack_write_begin(&w, out, sizeof out, "", 0, "", 0, 0, &err), SOKO_E_RANGE);
    CHECK_INT(soko_pack_write_begin(&w, out, sizeof out, "", 0, "", 0, 256, &err), SOKO_E_RANGE);
    CHECK_INT(soko_pack_write_begin(&w, out, sizeof out, "a\nb", 3, "", 0, 1, &err), SOKO_E_SYNTAX);
    CHECK_INT(soko_pack_write_begin(&w, out, 8, "", 0, "", 0, 1, &err), SOKO_E_FULL);
    /* A title so long that the level would start beyond 65,535. */
    static char title[65530];
    memset(title, 'x', sizeof title);
    CHECK_INT(soko_pack_write_begin(&w, out, sizeof out, title, sizeof title, "", 0, 1, &err),
              SOKO_OK);
    CHECK_INT(soko_pack_write_level(&w, corridor_level(), &err), SOKO_E_FULL);
    CHECK(strstr(err.message, "65,535") != NULL);
    CHECK_INT(soko_pack_write_end(&w, &err), SOKO_E_RANGE);
    /* More levels than announced. */
    CHECK_INT(soko_pack_write_begin(&w, out, sizeof out, "", 0, "", 0, 1, &err), SOKO_OK);
    CHECK_INT(soko_pack_write_level(&w, corridor_level(), &err), SOKO_OK);
    CHECK_INT(soko_pack_write_level(&w, corridor_level(), &err), SOKO_E_RANGE);
    CHECK_INT(soko_pack_write_end(&w, &err), (int32_t)sizeof corridor - 3);
}

int main(void)
{
    RUN(every_microban_level_survives_a_pack);
    RUN(every_xsokoban_level_survives_a_pack);
    RUN(the_writer_codes_nibbles_and_repeats_as_origins_says);
    RUN(the_reader_decodes_a_hand_made_pack);
    RUN(runs_are_repeated_from_four_squares_to_eighteen);
    RUN(a_big_endian_pack_reads_the_same);
    RUN(a_last_row_ended_by_the_end_code_alone_reads);
    RUN(malformed_packs_are_refused_with_clear_messages);
    RUN(a_level_larger_than_the_buffer_is_too_big);
    RUN(the_writer_refuses_what_a_pack_cannot_hold);
    return check_finish();
}
