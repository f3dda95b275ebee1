/* Reading a board: characters, run-length encoding, layout, validation
 * errors with their places, normalisation, writing and the canonical hash. */
#include "check.h"
#include "soko.h"

#include <stdlib.h>

static soko_level lvl, lvl2;

static int parse(soko_level *out, const char *text, soko_error *err)
{
    note("board:\n%s", text);
    return soko_level_parse(out, text, (uint32_t)strlen(text), 1, err);
}

/* The flags of the square at column x, row y. */
static int at(const soko_level *l, int x, int y)
{
    return l->cell[y * l->width + x];
}

/* Parses text that must be valid; reports the error otherwise. */
static bool parse_ok(soko_level *out, const char *text)
{
    soko_error err = {0};
    int rc = parse(out, text, &err);
    if (rc != SOKO_OK)
        check_fail(__FILE__, __LINE__, "parse failed: %d at %u:%u: %s", rc, err.line, err.col,
                   err.message);
    return rc == SOKO_OK;
}

/* Checks that texts a and b parse to the same level, left in lvl and lvl2.
 * Returns false when either does not parse (a failure already recorded). */
static bool same_level(const char *a, const char *b)
{
    if (!parse_ok(&lvl, a) || !parse_ok(&lvl2, b))
        return false;
    CHECK(memcmp(&lvl, &lvl2, sizeof lvl) == 0);
    return true;
}

/* Parses text that must fail with `code` at (line, col). */
static void expect_error(const char *text, int code, uint32_t line, uint32_t col, const char *words)
{
    soko_error err = {0};
    int rc = parse(&lvl, text, &err);
    note("error %d at %u:%u: %s", err.code, err.line, err.col, err.message);
    CHECK_INT(rc, code);
    CHECK_INT(err.code, code);
    CHECK_INT(err.line, line);
    CHECK_INT(err.col, col);
    if (words != NULL && strstr(err.message, words) == NULL)
        check_fail(__FILE__, __LINE__, "message \"%s\" does not say \"%s\"", err.message, words);
}

static void standard_characters_give_their_flags(void)
{
    const char *text = "#######\n"
                       "#@ $. #\n"
                       "#  *  #\n"
                       "#######\n";
    if (!parse_ok(&lvl, text))
        return;
    CHECK_INT(lvl.width, 7);
    CHECK_INT(lvl.height, 4);
    CHECK_INT(lvl.player, 1 * 7 + 1);
    CHECK_INT(lvl.boxes, 2);
    CHECK_INT(at(&lvl, 0, 0), SOKO_WALL);
    CHECK_INT(at(&lvl, 1, 1), 0);
    CHECK_INT(at(&lvl, 2, 1), 0);
    CHECK_INT(at(&lvl, 3, 1), SOKO_BOX);
    CHECK_INT(at(&lvl, 4, 1), SOKO_GOAL);
    CHECK_INT(at(&lvl, 3, 2), SOKO_BOX | SOKO_GOAL);
    CHECK(!soko_level_solved(&lvl));
}

static void alternative_characters_mean_the_same(void)
{
    /* p b o B with - and _ floor against @ $ . * with spaces. */
    if (!same_level("#######\n#p-b_o#\n#__B--#\n#######", "#######\n#@ $ .#\n#  *  #\n#######"))
        return;
    if (!same_level("#####\n#m$.#\n#####", "#####\n#@$.#\n#####"))
        return;
    const char *on_goal[] = {"#####\n#+$ #\n#####", "#####\n#P$ #\n#####", "#####\n#M$ #\n#####"};
    for (int i = 0; i < 3; i++) {
        if (!parse_ok(&lvl, on_goal[i]))
            continue;
        CHECK_INT(lvl.player, 6);
        CHECK_INT(at(&lvl, 1, 1), SOKO_GOAL);
    }
}

static void run_length_counts_and_groups_expand(void)
{
    /* The wiki's "Claire" in RLE and as plain text. */
    static const char claire[] = "#######\n"
                                 "#.@ # #\n"
                                 "#$* $ #\n"
                                 "#   $ #\n"
                                 "# ..  #\n"
                                 "#  *  #\n"
                                 "#######\n";
    if (!same_level("7#|#.@-#-#|#$*-$-#|#3-$-#|#-2.2-#|#2-*2-#|7#", claire))
        return;
    /* Nested groups: 2(3(#-)#) is #-#-#-##-#-#-#. */
    if (!parse_ok(&lvl, "16#|#2(3(#-)#)#|#@$.11-#|16#"))
        return;
    CHECK_INT(lvl.width, 16);
    const char *row = "##-#-#-##-#-#-##";
    for (int x = 0; x < 16; x++) {
        int want = row[x] == '#' ? SOKO_WALL : 0;
        CHECK_INT(at(&lvl, x, 1), want);
    }
    /* Multi-digit counts, a trailing '|', and CRLF. */
    if (!parse_ok(&lvl, "13#|#@$9.#|#$9-$#|#6$4-#|13#|"))
        return;
    CHECK_INT(lvl.width, 13);
    CHECK_INT(lvl.height, 5);
    CHECK_INT(at(&lvl, 12, 1), SOKO_WALL);
    CHECK_INT(at(&lvl, 12, 3), SOKO_OUTSIDE);
    same_level("#####\r\n#@$.#\r\n#####\r\n", "5#|#@$.#|5#");
}

static void layout_keeps_leading_spaces_and_strips_margins(void)
{
    /* A common margin of two spaces, trailing spaces, empty edge rows and
     * ragged rows give the same board as the tidy text. */
    if (!same_level("\n   \n    ####  \n  ###  #\n  #@$. #   \n  ######\n\n",
                    "  ####\n###  #\n#@$. #\n######"))
        return;
    CHECK_INT(lvl.width, 6);
    CHECK_INT(lvl.height, 4);
    CHECK_INT(at(&lvl, 0, 0), SOKO_OUTSIDE);
    CHECK_INT(at(&lvl, 1, 0), SOKO_OUTSIDE);
    CHECK_INT(at(&lvl, 2, 0), SOKO_WALL);
}

static void outside_and_unreachable_floor_are_marked_outside(void)
{
    /* A closed room to the right that the player cannot enter, and a
     * decorative box on a goal outside the walls. */
    if (!parse_ok(&lvl, "*  #######\n"
                        "   #@$.# #\n"
                        "   ##### #\n"
                        "       #*#\n"
                        "       ###\n"))
        return;
    CHECK_INT(at(&lvl, 0, 0), SOKO_OUTSIDE | SOKO_BOX | SOKO_GOAL);
    CHECK_INT(at(&lvl, 1, 0), SOKO_OUTSIDE);
    CHECK_INT(at(&lvl, 8, 1), SOKO_OUTSIDE);
    CHECK_INT(at(&lvl, 8, 2), SOKO_OUTSIDE);
    CHECK_INT(at(&lvl, 8, 3), SOKO_OUTSIDE | SOKO_GOAL | SOKO_BOX);
    CHECK_INT(at(&lvl, 5, 1), SOKO_BOX);
    CHECK_INT(lvl.boxes, 3);
    /* Floor behind a box is inside: boxes move. */
    if (!parse_ok(&lvl, "######\n#@$ .#\n######"))
        return;
    CHECK_INT(at(&lvl, 3, 1), 0);
}

static void a_level_may_start_solved(void)
{
    if (!parse_ok(&lvl, "#####\n#@ *#\n#####"))
        return;
    CHECK(soko_level_solved(&lvl));
}

static void neighbours_stop_at_the_edges(void)
{
    if (!parse_ok(&lvl, "#####\n#@$.#\n#####"))
        return;
    CHECK_INT(soko_level_neighbour(&lvl, 6, SOKO_UP), 1);
    CHECK_INT(soko_level_neighbour(&lvl, 6, SOKO_RIGHT), 7);
    CHECK_INT(soko_level_neighbour(&lvl, 6, SOKO_DOWN), 11);
    CHECK_INT(soko_level_neighbour(&lvl, 6, SOKO_LEFT), 5);
    CHECK_INT(soko_level_neighbour(&lvl, 0, SOKO_UP), SOKO_NO_CELL);
    CHECK_INT(soko_level_neighbour(&lvl, 0, SOKO_LEFT), SOKO_NO_CELL);
    CHECK_INT(soko_level_neighbour(&lvl, 14, SOKO_RIGHT), SOKO_NO_CELL);
    CHECK_INT(soko_level_neighbour(&lvl, 14, SOKO_DOWN), SOKO_NO_CELL);
    CHECK_INT(soko_level_neighbour(&lvl, 4, SOKO_RIGHT), SOKO_NO_CELL);
    CHECK_INT(soko_level_neighbour(&lvl, 5, SOKO_LEFT), SOKO_NO_CELL);
    CHECK_INT(soko_level_neighbour(&lvl, 15, SOKO_UP), SOKO_NO_CELL);
    CHECK_INT(soko_level_neighbour(&lvl, 6, 4), SOKO_NO_CELL);
}

static void syntax_errors_point_at_the_character(void)
{
    expect_error("#####\n#@$.#\n#x###", SOKO_E_SYNTAX, 3, 2, "'x'");
    /* Columns count source characters, even through RLE. */
    expect_error("5#|#@$.#|3#X#", SOKO_E_SYNTAX, 1, 12, "'X'");
    expect_error("5#|#@$.#|5", SOKO_E_SYNTAX, 1, 10, "nothing");
    expect_error("5#|#@$.#|12|5#", SOKO_E_SYNTAX, 1, 10, "nothing");
    expect_error("5#|#@$.#|2(#-#", SOKO_E_SYNTAX, 1, 11, "never closed");
    expect_error("5#|#@$.#|5#)", SOKO_E_SYNTAX, 1, 12, "'('");
    expect_error("#####\n#@$.#\n#\t###", SOKO_E_SYNTAX, 3, 2, "0x9");
    expect_error("", SOKO_E_SYNTAX, 1, 0, "empty");
}

static void validation_errors_name_the_place(void)
{
    expect_error("129#|#@$.125-#|129#", SOKO_E_TOO_BIG, 1, 4, "wider");
    soko_error err = {0};
    CHECK_INT(parse(&lvl, "128#|#@$.123-#|128#", &err), SOKO_OK);
    expect_error("5#|#-$.#|5#", SOKO_E_NO_PLAYER, 1, 0, "no player");
    expect_error("#####\n#@$.#\n#.$@#\n#####", SOKO_E_PLAYERS, 3, 4, "second player");
    expect_error("5#|#@-.#|5#", SOKO_E_NO_BOXES, 1, 0, "no boxes");
    expect_error("######\n#@$$.#\n##. .#\n######", SOKO_E_BOX_GOAL_COUNT, 1, 0,
                 "2 boxes but 3 goals");
    /* Boxes do not stop the walk off the board. */
    expect_error("#####\n#@$.#\n##$##\n#.  #\n## ##\n", SOKO_E_OPEN, 5, 3, "walk off");
    /* A square past a row's end is off the board too. */
    expect_error("#####\n#@$. \n#####\n", SOKO_E_OPEN, 2, 5, "walk off");
    expect_error("#######\n#@$.#$#\n#####.#\n", SOKO_E_UNREACHABLE_BOX, 2, 6, "never reach");
    /* Errors count lines from first_line. */
    soko_error e2 = {0};
    const char *text = "#####\n#@$.#\n#x###";
    CHECK_INT(soko_level_parse(&lvl, text, (uint32_t)strlen(text), 40, &e2), SOKO_E_SYNTAX);
    CHECK_INT(e2.line, 42);
    CHECK_INT(e2.col, 2);
}

/* Rewrites board text turned a quarter clockwise (t & 4), mirrored left to
 * right (t & 1) and upside down (t & 2), padding ragged rows with spaces and
 * adding `margin` spaces on the left. */
static void transform_text(const char *in, int t, int margin, char *out, size_t cap)
{
    char grid[64][64];
    int w = 0, h = 0, x = 0;
    memset(grid, ' ', sizeof grid);
    for (const char *p = in; *p; p++) {
        if (*p == '\n') {
            h++;
            x = 0;
            continue;
        }
        grid[h][x++] = *p;
        if (x > w)
            w = x;
    }
    if (x > 0)
        h++;
    int tw = (t & 4) ? h : w, th = (t & 4) ? w : h;
    size_t n = 0;
    for (int v = 0; v < th; v++) {
        for (int i = 0; i < margin && n + 1 < cap; i++)
            out[n++] = ' ';
        for (int u = 0; u < tw && n + 2 < cap; u++) {
            int a = (t & 1) ? tw - 1 - u : u, b = (t & 2) ? th - 1 - v : v;
            int sx = (t & 4) ? b : a, sy = (t & 4) ? (h - 1 - a) : b;
            out[n++] = grid[sy][sx];
        }
        out[n++] = '\n';
    }
    out[n] = '\0';
}

static const char *sample = "    #####\n"
                            "    #   #\n"
                            "    #$  #\n"
                            "  ###  $##\n"
                            "  #  $ $ #\n"
                            "### # ## #   ######\n"
                            "#   # ## #####  ..#\n"
                            "# $  $          ..#\n"
                            "##### ### #@##  ..#\n"
                            "    #     #########\n"
                            "    #######\n";

static void write_then_parse_gives_the_same_level(void)
{
    char text[20000];
    if (!parse_ok(&lvl, sample))
        return;
    for (int rle = 0; rle < 2; rle++) {
        int32_t n = soko_level_write(&lvl, rle, text, sizeof text);
        CHECK(n > 0);
        if (n <= 0)
            return;
        CHECK_INT(strlen(text), n);
        note("written:\n%s", text);
        if (!parse_ok(&lvl2, text))
            return;
        CHECK(memcmp(&lvl, &lvl2, sizeof lvl) == 0);
    }
    CHECK_INT(soko_level_write(&lvl, false, text, 10), SOKO_E_FULL);
    if (!parse_ok(&lvl, "7#|#.@-#-#|#$*-$-#|#3-$-#|#-2.2-#|#2-*2-#|7#"))
        return;
    CHECK_INT(soko_level_write(&lvl, true, text, sizeof text), 45);
    CHECK_STR(text, "7#|#.@-#-#|#$*-$-#|#3-$-#|#-2.2-#|#2-*2-#|7#\n");
    CHECK_INT(soko_level_write(&lvl, false, text, sizeof text), 56);
    CHECK_STR(text, "#######\n#.@ # #\n#$* $ #\n#   $ #\n# ..  #\n#  *  #\n#######\n");
    /* The outside is left out at the ends of rows and written as spaces
     * before them. */
    if (!parse_ok(&lvl, "*  ####\n  ##@ #\n  #$. #\n  #####"))
        return;
    CHECK_INT(soko_level_write(&lvl, false, text, sizeof text), 32);
    CHECK_STR(text, "*  ####\n  ##@ #\n  #$. #\n  #####\n");
    CHECK_INT(soko_level_write(&lvl, true, text, sizeof text), 27);
    CHECK_STR(text, "*2-4#|2-2#@-#|2-#$.-#|2-5#\n");
}

static void canonical_hash_ignores_symmetry_margin_and_player_start(void)
{
    char text[4000];
    if (!parse_ok(&lvl, sample))
        return;
    uint64_t h = soko_level_canonical_hash(&lvl);
    for (int t = 0; t < 8; t++) {
        transform_text(sample, t, t, text, sizeof text);
        if (!parse_ok(&lvl2, text))
            continue;
        note("transform %d:\n%s", t, text);
        CHECK(soko_level_canonical_hash(&lvl2) == h);
    }
    /* Decoration outside and another start in the same area. */
    if (!parse_ok(&lvl2, "*   #####\n"
                         "    #   #\n"
                         "    #$  #\n"
                         "  ###  $##\n"
                         "  #  $ $ #\n"
                         "### # ## #   ######\n"
                         "#   # ## #####  ..#\n"
                         "# $  $    @     ..#\n"
                         "##### ### # ##  ..#\n"
                         "    #     #########\n"
                         "    #######     *\n"))
        return;
    CHECK(soko_level_canonical_hash(&lvl2) == h);
    /* A start the boxes cut off from the first one is another puzzle. */
    if (!parse_ok(&lvl2, "    #####\n"
                         "    #@  #\n"
                         "    #$  #\n"
                         "  ###  $##\n"
                         "  #  $ $ #\n"
                         "### # ## #   ######\n"
                         "#   # ## #####  ..#\n"
                         "# $  $          ..#\n"
                         "##### ### # ##  ..#\n"
                         "    #     #########\n"
                         "    #######\n"))
        return;
    CHECK(soko_level_canonical_hash(&lvl2) != h);
    /* One box moved is another puzzle. */
    if (!parse_ok(&lvl2, "    #####\n"
                         "    #   #\n"
                         "    # $ #\n"
                         "  ###  $##\n"
                         "  #  $ $ #\n"
                         "### # ## #   ######\n"
                         "#   # ## #####  ..#\n"
                         "# $  $          ..#\n"
                         "##### ### #@##  ..#\n"
                         "    #     #########\n"
                         "    #######\n"))
        return;
    CHECK(soko_level_canonical_hash(&lvl2) != h);
}

int main(void)
{
    RUN(standard_characters_give_their_flags);
    RUN(alternative_characters_mean_the_same);
    RUN(run_length_counts_and_groups_expand);
    RUN(layout_keeps_leading_spaces_and_strips_margins);
    RUN(outside_and_unreachable_floor_are_marked_outside);
    RUN(a_level_may_start_solved);
    RUN(neighbours_stop_at_the_edges);
    RUN(syntax_errors_point_at_the_character);
    RUN(validation_errors_name_the_place);
    RUN(write_then_parse_gives_the_same_level);
    RUN(canonical_hash_ignores_symmetry_margin_and_player_start);
    return check_finish();
}
