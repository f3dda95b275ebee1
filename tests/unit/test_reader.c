/* Finding levels in level files: titles before and after boards, metadata,
 * comments, file headers, byte-order marks, line ends and solutions. */
#include "check.h"
#include "level_util.h"
#include "soko.h"

static const char *text;
static soko_reader rd;
static soko_entry entry;

static void start(const char *t)
{
    text = t;
    note("file:\n%s", t);
    soko_reader_init(&rd, t, (uint32_t)strlen(t));
}

/* A span of the current text as a NUL-terminated string. */
static const char *str(soko_span s)
{
    return span_text(text, s);
}

/* Reads the next level, which must exist and be valid. */
static bool next_level(void)
{
    int rc = soko_reader_next(&rd, &entry);
    CHECK_INT(rc, 1);
    if (rc != 1)
        return false;
    note("level %u at line %u, title \"%s\"", entry.number, entry.board_line, str(entry.title));
    soko_level lvl;
    soko_error err;
    int prc =
        soko_level_parse(&lvl, text + entry.board.off, entry.board.len, entry.board_line, &err);
    if (prc != SOKO_OK)
        check_fail(__FILE__, __LINE__, "level %u: %u:%u: %s", entry.number, err.line, err.col,
                   err.message);
    return prc == SOKO_OK;
}

static void no_more_levels(void)
{
    CHECK_INT(soko_reader_next(&rd, &entry), 0);
    CHECK_INT(soko_reader_next(&rd, &entry), 0);
}

static void span_trim_drops_blanks_at_both_ends(void)
{
    const char *t = "  \t abc d \r\n";
    soko_span s = soko_span_trim(t, (soko_span){0, (uint32_t)strlen(t)});
    CHECK_INT(s.off, 4);
    CHECK_INT(s.len, 5);
    s = soko_span_trim(t, (soko_span){0, 3});
    CHECK_INT(s.len, 0);
}

static void xsb_titles_come_from_semicolon_lines(void)
{
    start("; My set\n"
          "; made by me\n"
          "\n"
          "; 1\n"
          "\n"
          "#####\n"
          "#@$.#\n"
          "#####\n"
          "\n"
          "\n"
          ";screen.02\n"
          "#####\n"
          "#.$@#\n"
          "#####\n");
    CHECK_STR(str(rd.header), "; My set\n; made by me");
    if (next_level()) {
        CHECK_INT(entry.number, 1);
        CHECK_STR(str(entry.title), "1");
        CHECK_INT(entry.board_line, 6);
        CHECK_STR(str(entry.board), "#####\n#@$.#\n#####");
    }
    if (next_level()) {
        CHECK_INT(entry.number, 2);
        CHECK_STR(str(entry.title), "screen.02");
        CHECK_INT(entry.board_line, 12);
    }
    no_more_levels();
}

static void quoted_name_under_a_title_goes_to_notes(void)
{
    start("; 44\n'Duh!'\n\n#####\n#@$.#\n#####\n\n; 45\n\n#####\n#.$@#\n#####\n");
    if (next_level()) {
        CHECK_STR(str(entry.title), "44");
        CHECK_STR(str(entry.notes), "'Duh!'");
    }
    if (next_level()) {
        CHECK_STR(str(entry.title), "45");
        CHECK_INT(entry.notes.len, 0);
    }
    no_more_levels();
}

static void titles_after_boards_when_the_file_starts_with_a_board(void)
{
    start("#####\n#@$.#\n#####\n; First\n\n#####\n#.$@#\n#####\n; Second\n");
    CHECK_INT(rd.header.len, 0);
    if (next_level())
        CHECK_STR(str(entry.title), "First");
    if (next_level())
        CHECK_STR(str(entry.title), "Second");
    no_more_levels();
    /* A header before the first board does not hide the style. */
    start("; A set\n\n#####\n#@$.#\n#####\n; First\n\n#####\n#.$@#\n#####\n; Second\n");
    CHECK_STR(str(rd.header), "; A set");
    if (next_level())
        CHECK_STR(str(entry.title), "First");
    if (next_level())
        CHECK_STR(str(entry.title), "Second");
    no_more_levels();
    /* A note after a board, with titles before the boards. */
    start("; 1\n\n#####\n#@$.#\n#####\nA note.\n\n; 2\n\n#####\n#.$@#\n#####\n");
    if (next_level()) {
        CHECK_STR(str(entry.title), "1");
        CHECK_STR(str(entry.notes), "A note.");
    }
    if (next_level())
        CHECK_STR(str(entry.title), "2");
    no_more_levels();
    /* The same text after a title line is read the other way. */
    start("; Zero\n#####\n#@$.#\n#####\n; First\n#####\n#.$@#\n#####\n");
    if (next_level())
        CHECK_STR(str(entry.title), "Zero");
    if (next_level())
        CHECK_STR(str(entry.title), "First");
    no_more_levels();
}

static void keys_give_title_author_and_comment(void)
{
    start("Collection: Tests\n"
          "Some words about the set.\n"
          ":: a note for people reading the file\n"
          "\n"
          "1\n"
          "#####\n"
          "#@$.#\n"
          "#####\n"
          "Title : The First\n"
          "author: Someone\n"
          "Difficulty: 3\n"
          "Comment:\n"
          "A long comment.\n"
          "\n"
          "Collection: not a key here\n"
          "Comment-End:\n"
          "\n"
          "2\n"
          "#####\n"
          "#.$@#\n"
          "#####\n"
          "Title: Two\n"
          "Comment: a short one\n");
    CHECK_STR(str(rd.collection), "Tests");
    CHECK_STR(str(rd.header), "Collection: Tests\nSome words about the set.");
    if (next_level()) {
        CHECK_STR(str(entry.title), "The First");
        CHECK_STR(str(entry.author), "Someone");
        CHECK_STR(str(entry.comment), "A long comment.\n\nCollection: not a key here");
        CHECK_STR(str(entry.notes), "Difficulty: 3");
    }
    if (next_level()) {
        CHECK_STR(str(entry.title), "Two");
        CHECK_STR(str(entry.comment), "a short one");
        CHECK_INT(entry.author.len, 0);
    }
    no_more_levels();
}

static void byte_order_marks_and_crlf_are_accepted(void)
{
    start("\xEF\xBB\xBF\xEF\xBB\xBF; 1\r\n\r\n#####\r\n#@$.#\r\n#####\r\n\r\n; 2\r\n#####\r\n"
          "#.$@#\r\n#####");
    if (next_level()) {
        CHECK_STR(str(entry.title), "1");
        CHECK_INT(entry.board_line, 3);
    }
    if (next_level()) {
        CHECK_STR(str(entry.title), "2");
        CHECK_INT(entry.board_line, 8);
    }
    no_more_levels();
    /* A byte-order mark encoded twice, and UTF-8 in a note. */
    start("\xC3\xAF\xC2\xBB\xC2\xBF#####\n#@$.#\n#####\nTitle: Caf\xC3\xA9\n");
    if (next_level())
        CHECK_STR(str(entry.title), "Caf\xC3\xA9");
    no_more_levels();
}

static void digit_lines_are_titles_not_boards(void)
{
    start("1\n\n#####\n#@$.#\n#####\n\n155\n\n#####\n#.$@#\n#####\n");
    if (next_level())
        CHECK_STR(str(entry.title), "1");
    if (next_level())
        CHECK_STR(str(entry.title), "155");
    no_more_levels();
}

static void rle_boards_are_found_on_one_line(void)
{
    start("Claire\n7#|#.@-#-#|#$*-$-#|#3-$-#|#-2.2-#|#2-*2-#|7#\n\nnext\n5#|#@$.#|5#|\n");
    if (next_level()) {
        CHECK_STR(str(entry.title), "Claire");
        CHECK_INT(entry.board_line, 2);
    }
    if (next_level())
        CHECK_STR(str(entry.title), "next");
    no_more_levels();
}

static void solutions_follow_their_board(void)
{
    start("1\n"
          "#####\n"
          "#@$.#\n"
          "#####\n"
          "\n"
          "Solution 1/1\n"
          "R\n"
          "\n"
          "Origin: a solver\n"
          "\n"
          "Tomo\n"
          "lr\n"
          "lrR\n"
          "\n"
          "rlR\n"
          "\n"
          "2\n"
          "#####\n"
          "#.$@#\n"
          "#####\n"
          "\n"
          "Solution\n"
          "2(lr)L\n");
    if (next_level()) {
        CHECK_STR(str(entry.title), "1");
        CHECK_INT(entry.solution_total, 3);
        CHECK_INT(entry.solution_count, 3);
        CHECK_STR(str(entry.solution[0].title), "Solution 1/1");
        CHECK_STR(str(entry.solution[0].moves), "R");
        CHECK_INT(entry.solution[0].line, 7);
        CHECK_STR(str(entry.solution[1].title), "Tomo");
        CHECK_STR(str(entry.solution[1].moves), "lr\nlrR");
        CHECK_INT(entry.solution[1].line, 12);
        CHECK_INT(entry.solution[2].title.len, 0);
        CHECK_STR(str(entry.solution[2].moves), "rlR");
        CHECK_INT(entry.notes.len, 0);
    }
    if (next_level()) {
        CHECK_STR(str(entry.title), "2");
        CHECK_INT(entry.solution_total, 1);
        CHECK_STR(str(entry.solution[0].moves), "2(lr)L");
    }
    no_more_levels();
}

static void solutions_beyond_the_maximum_are_counted(void)
{
    char buf[4096];
    size_t n = (size_t)snprintf(buf, sizeof buf, "#####\n#@$.#\n#####\n");
    for (int i = 0; i < SOKO_MAX_SOLUTIONS + 3; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "\nSolution %d\nR\n", i);
    start(buf);
    if (next_level()) {
        CHECK_INT(entry.solution_total, SOKO_MAX_SOLUTIONS + 3);
        CHECK_INT(entry.solution_count, SOKO_MAX_SOLUTIONS);
        CHECK_STR(str(entry.solution[SOKO_MAX_SOLUTIONS - 1].title), "Solution 15");
    }
    no_more_levels();
}

static void festival_solution_files_are_read(void)
{
    start("Festival 1.1 solution file\r\n"
          "===========================\r\n"
          "Collection: data/Set.txt\r\n"
          "\r\n"
          "SET 01\r\n"
          "\r\n"
          "#####  \r\n"
          "#@$.#  \r\n"
          "#####  \r\n"
          "\r\n"
          "Solution\r\n"
          "R\r\n"
          "\r\n"
          "Solver: Festival 1.1\r\n"
          "Solver time: 00:00:00\r\n"
          "\r\n"
          "\r\n"
          "SET 02\r\n"
          "\r\n"
          "#####\r\n"
          "#.$@#\r\n"
          "#####\r\n"
          "\r\n"
          "Solution\r\n"
          "L\r\n");
    CHECK_STR(str(rd.collection), "data/Set.txt");
    if (next_level()) {
        CHECK_STR(str(entry.title), "SET 01");
        CHECK_INT(entry.solution_total, 1);
        CHECK_STR(str(entry.solution[0].title), "Solution");
        CHECK_STR(str(entry.solution[0].moves), "R");
    }
    if (next_level()) {
        CHECK_STR(str(entry.title), "SET 02");
        CHECK_STR(str(entry.solution[0].moves), "L");
    }
    no_more_levels();
}

static void a_mistyped_row_stays_in_its_board(void)
{
    start("; 1\n#####\n#@$x#\n#####\n\n; 2\n######\n#@$.##\n#  ?  #\n######\n");
    soko_level lvl;
    soko_error err;
    for (int k = 0; k < 2; k++) {
        CHECK_INT(soko_reader_next(&rd, &entry), 1);
        int rc =
            soko_level_parse(&lvl, text + entry.board.off, entry.board.len, entry.board_line, &err);
        note("level %d: %s", k + 1, err.message);
        CHECK_INT(rc, SOKO_E_SYNTAX);
        CHECK_INT(err.line, k == 0 ? 3 : 9);
        CHECK_INT(err.col, 4);
    }
    no_more_levels();
}

static void banner_lines_separate_like_blank_lines(void)
{
    start("; Set\n\n#####\n#@$.#\n#####\n\n**********\n; Two\n**********\n#####\n#.$@#\n#####\n");
    if (next_level())
        CHECK_STR(str(entry.title), "Set");
    if (next_level()) {
        CHECK_STR(str(entry.title), "Two");
        CHECK_STR(str(entry.notes), "**********");
    }
    no_more_levels();
}

static void text_without_boards_has_no_levels(void)
{
    start("");
    no_more_levels();
    start("Just some words.\n\n12\n");
    CHECK_STR(str(rd.header), "Just some words.\n\n12");
    no_more_levels();
}

int main(void)
{
    RUN(span_trim_drops_blanks_at_both_ends);
    RUN(xsb_titles_come_from_semicolon_lines);
    RUN(quoted_name_under_a_title_goes_to_notes);
    RUN(titles_after_boards_when_the_file_starts_with_a_board);
    RUN(keys_give_title_author_and_comment);
    RUN(byte_order_marks_and_crlf_are_accepted);
    RUN(digit_lines_are_titles_not_boards);
    RUN(rle_boards_are_found_on_one_line);
    RUN(solutions_follow_their_board);
    RUN(solutions_beyond_the_maximum_are_counted);
    RUN(festival_solution_files_are_read);
    RUN(a_mistyped_row_stays_in_its_board);
    RUN(banner_lines_separate_like_blank_lines);
    RUN(text_without_boards_has_no_levels);
    return check_finish();
}
