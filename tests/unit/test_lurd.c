/* LURD notation: decoding with counts and groups, its errors, playing and
 * encoding, checked on hand-made cases and on the specification's examples. */
#include "check.h"
#include "level_util.h"
#include "lurd.h"
#include "reader.h"

#include <stdlib.h>

/* The steps of plain LURD letters, mapped here independently of the decoder. */
static size_t expand_plain(const char *letters, uint8_t *out, size_t cap)
{
    size_t n = 0;
    for (const char *p = letters; *p != '\0' && n < cap; p++) {
        const char *lower = "urdl", *upper = "URDL";
        const char *hit = strchr(lower, *p);
        if (hit != NULL)
            out[n++] = (uint8_t)(hit - lower);
        hit = strchr(upper, *p);
        if (hit != NULL)
            out[n++] = (uint8_t)((hit - upper) | SOKO_LURD_PUSH);
    }
    return n;
}

/* Decodes `text` and checks the steps equal the plain letters `expected`. */
static void check_decodes_to(const char *text, const char *expected)
{
    uint8_t got[4096], want[4096];
    soko_error err = {0};
    note("decoding \"%s\"", text);
    int32_t n = soko_lurd_decode(text, (uint32_t)strlen(text), 1, got, sizeof got, &err);
    size_t m = expand_plain(expected, want, sizeof want);
    if (n < 0) {
        check_fail(__FILE__, __LINE__, "\"%s\" refused: %s at %u:%u: %s", text, soko_error_name(n),
                   err.line, err.col, err.message);
        return;
    }
    CHECK_INT(n, m);
    if ((size_t)n == m && memcmp(got, want, m) != 0) {
        char letters[4097];
        for (int32_t i = 0; i < n; i++)
            letters[i] = soko_lurd_letter(got[i] & 3, (got[i] & SOKO_LURD_PUSH) != 0);
        letters[n] = '\0';
        CHECK_STR(letters, expected);
    }
}

/* Decodes `text` (starting at line `first_line`) and checks that it fails
 * with `code` at line:col. */
static void check_refused(const char *text, uint32_t first_line, uint32_t cap, int code,
                          uint32_t line, uint32_t col)
{
    uint8_t *steps = malloc(cap + 1);
    soko_error err = {0};
    note("decoding \"%s\" with room for %u steps", text, cap);
    int32_t n = soko_lurd_decode(text, (uint32_t)strlen(text), first_line, steps, cap, &err);
    CHECK_INT(n, code);
    CHECK_INT(err.code, code);
    if (line != 0) {
        CHECK_INT(err.line, line);
        CHECK_INT(err.col, col);
    }
    CHECK(err.message[0] != '\0');
    note("message: %s", err.message);
    free(steps);
}

static void spec_examples_decode_as_the_spec_says(void)
{
    size_t len = 0;
    char *text = read_file(shared_path("levels/rle_spec_examples.txt"), &len);
    if (text == NULL)
        return;
    int checked = 0;
    bool in_moves = false;
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        if (strncmp(line, "# moves", 7) == 0) {
            in_moves = true;
            continue;
        }
        char *tab = strchr(line, '\t');
        if (!in_moves || line[0] == '#' || tab == NULL)
            continue;
        *tab = '\0';
        char *expected = tab + 1;
        expected[strcspn(expected, " \t\r")] = '\0';
        check_decodes_to(line, expected);
        checked++;
    }
    CHECK_INT(checked, 3);
    free(text);
}

static void counts_may_have_several_digits(void)
{
    check_decodes_to("12r", "rrrrrrrrrrrr");
    check_decodes_to("10(lR)u", "lRlRlRlRlRlRlRlRlRlRu");
    check_decodes_to("1d01U", "dU");
}

static void groups_nest_and_groups_without_count_just_group(void)
{
    check_decodes_to("(ul)r", "ulr");
    check_decodes_to("2(2(2(u)))", "uuuuuuuu");
    check_decodes_to("2(r3(d)2(L))u", "rdddLLrdddLLu");
    check_decodes_to("()3()r", "r");
}

static void blanks_and_line_ends_are_ignored(void)
{
    check_decodes_to(" ru\n  lD\r\n\t2u\n", "rulDuu");
    check_decodes_to("2( r\nd )", "rdrd");
    check_decodes_to("", "");
}

static void unknown_letter_is_named_with_its_line_and_column(void)
{
    check_refused("rr\nuxd", 10, 100, SOKO_E_SYNTAX, 11, 2);
    check_refused("rrn", 1, 100, SOKO_E_SYNTAX, 1, 3);
    check_refused("r*", 1, 100, SOKO_E_SYNTAX, 1, 2);
    check_refused("\r\n\r\n  [", 1, 100, SOKO_E_SYNTAX, 3, 3);
}

static void count_with_nothing_after_it_is_refused(void)
{
    check_refused("rr3", 1, 100, SOKO_E_SYNTAX, 1, 3);
    check_refused("ll\n 12", 1, 100, SOKO_E_SYNTAX, 2, 2);
    check_refused("(r3)", 1, 100, SOKO_E_SYNTAX, 1, 3);
    check_refused("3 r", 1, 100, SOKO_E_SYNTAX, 1, 1);
    check_refused("0r", 1, 100, SOKO_E_SYNTAX, 1, 1);
}

static void unbalanced_parentheses_are_refused(void)
{
    check_refused("(rr", 1, 100, SOKO_E_SYNTAX, 1, 1);
    check_refused("rr)", 1, 100, SOKO_E_SYNTAX, 1, 3);
    check_refused("2(r(u)", 1, 100, SOKO_E_SYNTAX, 1, 2);
    check_refused("(u))(", 1, 100, SOKO_E_SYNTAX, 1, 4);
}

static void deep_nesting_is_refused_not_overflowed(void)
{
    char text[400];
    size_t n = 0;
    for (int i = 0; i < 100; i++)
        text[n++] = '(';
    text[n++] = 'r';
    for (int i = 0; i < 100; i++)
        text[n++] = ')';
    text[n] = '\0';
    check_refused(text, 1, 100, SOKO_E_SYNTAX, 0, 0);
    /* Moderate nesting, as a person would write it, is fine: 2^8 steps. */
    char expected[300];
    memset(expected, 'u', 256);
    expected[256] = 'r';
    expected[257] = '\0';
    check_decodes_to("2(2(2(2(2(2(2(2(u))))))))r", expected);
}

static void output_beyond_cap_is_full(void)
{
    uint8_t steps[8];
    soko_error err = {0};
    CHECK_INT(soko_lurd_decode("3r", 2, 1, steps, 3, &err), 3);
    CHECK_INT(soko_lurd_decode("3r", 2, 1, steps, 2, &err), SOKO_E_FULL);
    CHECK_INT(soko_lurd_decode("2(rr)", 5, 1, steps, 4, &err), 4);
    check_refused("2(rr)", 1, 3, SOKO_E_FULL, 1, 5);
    check_refused("rrrr", 1, 3, SOKO_E_FULL, 1, 4);
    check_refused("r", 1, 0, SOKO_E_FULL, 1, 1);
    /* No buffer at all: nothing fits, and nothing is written. */
    CHECK_INT(soko_lurd_decode("r", 1, 1, NULL, 100, &err), SOKO_E_FULL);
    CHECK_INT(soko_lurd_decode(" ", 1, 1, NULL, 0, NULL), 0);
}

/* A decoder that multiplies counts, or loops once per repetition, takes
 * hours or overflows here; a test timeout is what catches the first. */
static void count_explosions_stop_at_cap(void)
{
    check_refused("99999999(99999999(l))", 1, 1000, SOKO_E_FULL, 0, 0);
    check_refused("99999999(99999999(99999999(99999999(l))))", 1, 1 << 20, SOKO_E_FULL, 0, 0);
    check_refused("99999999999999999999999999999999r", 1, 1000, SOKO_E_FULL, 0, 0);
    check_refused("4294967297r", 1, 1000, SOKO_E_FULL, 0, 0);
    check_refused("4294967296(r)", 1, 1000, SOKO_E_FULL, 0, 0);
    check_refused("2(3(99999999999(u)))", 1, 1000, SOKO_E_FULL, 0, 0);
    /* Groups that write nothing cost nothing, whatever their count. */
    uint8_t steps[4];
    CHECK_INT(soko_lurd_decode("99999999(99999999(99999999()))r", 31, 1, steps, 4, NULL), 1);
    CHECK_INT(soko_lurd_decode("99999999(99999999( \n ))", 23, 1, steps, 4, NULL), 0);
}

static void letters_name_directions_and_pushes(void)
{
    const char *expected = "urdlURDL";
    for (int push = 0; push <= 1; push++)
        for (int d = 0; d < 4; d++)
            CHECK_INT(soko_lurd_letter(d, push), expected[push * 4 + d]);
    CHECK_INT(soko_lurd_letter(4, false), '?');
    CHECK_INT(soko_lurd_letter(-1, true), '?');
}

#define BOARD "#######\n#@ $ .#\n#     #\n#######"

static void play_lets_the_board_decide_what_pushes(void)
{
    soko_level *lvl = level_from_text(BOARD);
    if (lvl == NULL)
        return;
    soko_entry_t history[32];
    soko_game g;
    soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, 32);
    note("level:\n%s", BOARD);
    uint32_t failed = 99;
    /* Written wrong on purpose: upper-case moves, lower-case pushes. */
    CHECK_INT(play_lurd(&g, "Rrr", &failed), SOKO_OK);
    CHECK_INT(failed, 3);
    CHECK(soko_game_solved(&g));
    CHECK_INT(g.pushes, 2);
    char out[16];
    int32_t n = soko_lurd_encode(&g, out, sizeof out);
    CHECK_INT(n, 3);
    if (n == 3) {
        out[n] = '\0';
        CHECK_STR(out, "rRR");
    }
    free(lvl);
}

static void play_stops_at_the_refused_step(void)
{
    soko_level *lvl = level_from_text(BOARD);
    if (lvl == NULL)
        return;
    soko_entry_t history[4];
    soko_game g;
    soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, 4);
    note("level:\n%s", BOARD);
    uint32_t failed = 99;
    CHECK_INT(play_lurd(&g,
                        "rdu"
                        "u",
                        &failed),
              SOKO_E_WALL);
    CHECK_INT(failed, 3);
    CHECK_INT(g.moves, 3);
    soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, 4);
    CHECK_INT(play_lurd(&g, "rRRR", &failed), SOKO_E_BLOCKED);
    CHECK_INT(failed, 3);
    CHECK_INT(g.pushes, 2);
    soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, 4);
    CHECK_INT(play_lurd(&g, "drlrl", &failed), SOKO_E_FULL);
    CHECK_INT(failed, 4);
    CHECK_INT(g.moves, 4);
    soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, 4);
    const uint8_t bad[] = {SOKO_RIGHT, 9};
    CHECK_INT(soko_lurd_play(&g, bad, 2, &failed), SOKO_E_RANGE);
    CHECK_INT(failed, 1);
    CHECK_INT(soko_lurd_play(&g, bad, 0, &failed), SOKO_OK);
    CHECK_INT(failed, 0);
    free(lvl);
}

static void encode_writes_steps_since_the_last_restart(void)
{
    soko_level *lvl = level_from_text(BOARD);
    if (lvl == NULL)
        return;
    soko_entry_t history[32];
    soko_game g;
    soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, 32);
    note("level:\n%s", BOARD);
    char out[32];
    CHECK_INT(soko_lurd_encode(&g, out, 0), 0);
    CHECK_INT(play_lurd(&g, "rRdl", NULL), SOKO_OK);
    CHECK_INT(soko_game_restart(&g), SOKO_OK);
    CHECK_INT(soko_lurd_encode(&g, out, sizeof out), 0);
    CHECK_INT(play_lurd(&g, "drrruLdl", NULL), SOKO_OK);
    CHECK_INT(soko_game_undo(&g), SOKO_OK);
    int32_t n = soko_lurd_encode(&g, out, sizeof out);
    CHECK_INT(n, 7);
    if (n == 7) {
        out[n] = '\0';
        CHECK_STR(out, "drrruLd");
    }
    CHECK_INT(soko_lurd_encode(&g, out, 6), SOKO_E_FULL);
    CHECK_INT(soko_lurd_encode(&g, out, 7), 7);
    /* Undoing the restart brings back the steps before it. */
    for (int i = 0; i < 7; i++)
        soko_game_undo(&g);
    CHECK_INT(soko_game_undo(&g), SOKO_OK);
    n = soko_lurd_encode(&g, out, sizeof out);
    CHECK_INT(n, 4);
    if (n == 4) {
        out[n] = '\0';
        CHECK_STR(out, "rRdl");
    }
    free(lvl);
}

/* What replaying the solutions of one file found. */
typedef struct replay_tally {
    unsigned solutions, solved, case_exact, solved_early;
} replay_tally;

/* Plays one solution on a new game: every step must be accepted and the
 * game must end solved; the encoded steps must spell the same letters. */
static void replay_solution(const char *file, const char *text, const soko_entry *e,
                            const soko_level *lvl, const soko_solution_ref *sol,
                            replay_tally *tally)
{
    static uint8_t steps[1 << 16];
    static soko_entry_t history[1 << 16];
    static char encoded[1 << 16], written[1 << 16];
    soko_error err = {0};
    int32_t n = soko_lurd_decode(text + sol->moves.off, sol->moves.len, sol->line, steps,
                                 sizeof steps, &err);
    tally->solutions++;
    if (n < 0) {
        check_fail(__FILE__, __LINE__,
                   "%s level %u (line %u): solution does not decode: %s at %u:%u: %s", file,
                   e->number, e->board_line, soko_error_name(n), err.line, err.col, err.message);
        return;
    }
    soko_game g;
    soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, sizeof history / sizeof history[0]);
    uint32_t failed = 0, first_solved = 0;
    int rc = SOKO_OK;
    for (uint32_t i = 0; i < (uint32_t)n && rc == SOKO_OK; i++) {
        rc = soko_lurd_play(&g, steps + i, 1, &failed);
        if (rc == SOKO_OK && first_solved == 0 && soko_game_solved(&g))
            first_solved = i + 1;
    }
    if (rc != SOKO_OK || !soko_game_solved(&g)) {
        char board[4096];
        check_fail(__FILE__, __LINE__,
                   "%s level %u (line %u): solution at line %u %s after %u of %d steps:\n%s", file,
                   e->number, e->board_line, sol->line,
                   rc != SOKO_OK ? soko_error_name(rc) : "ends unsolved", g.moves, n,
                   game_text(&g, board, sizeof board));
        return;
    }
    tally->solved++;
    tally->solved_early += first_solved < (uint32_t)n;
    int32_t m = soko_lurd_encode(&g, encoded, sizeof encoded);
    uint32_t k = 0;
    for (uint32_t i = 0; i < sol->moves.len; i++) {
        char c = text[sol->moves.off + i];
        if (strchr("lurdLURD", c) != NULL)
            written[k++] = c;
    }
    CHECK_INT(m, n);
    bool exact = m == (int32_t)k && memcmp(encoded, written, k) == 0;
    bool letters = m == (int32_t)k;
    for (uint32_t i = 0; letters && i < k; i++)
        letters = (encoded[i] | 0x20) == (written[i] | 0x20);
    if (!letters)
        check_fail(__FILE__, __LINE__,
                   "%s level %u: encoded steps differ from the solution's letters", file,
                   e->number);
    tally->case_exact += exact;
    /* Written all in lower case (as SokoSolve does), it plays the same. */
    for (int32_t i = 0; i < n; i++)
        steps[i] &= (uint8_t)~SOKO_LURD_PUSH;
    soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, sizeof history / sizeof history[0]);
    CHECK_INT(soko_lurd_play(&g, steps, (uint32_t)n, &failed), SOKO_OK);
    CHECK(soko_game_solved(&g));
    CHECK_INT(soko_lurd_encode(&g, written, sizeof written), m);
    CHECK(m < 0 || memcmp(written, encoded, (size_t)m) == 0);
}

/* Every solution of a file replays to a solved position. Returns the tally. */
static replay_tally replay_file(const char *file)
{
    replay_tally tally = {0};
    size_t len = 0;
    char *text = read_file(shared_path(file), &len);
    if (text == NULL)
        return tally;
    soko_reader reader;
    soko_entry *e = malloc(sizeof *e);
    soko_level *lvl = malloc(sizeof *lvl);
    soko_reader_init(&reader, text, (uint32_t)len);
    while (soko_reader_next(&reader, e)) {
        soko_error err = {0};
        int rc = soko_level_parse(lvl, text + e->board.off, e->board.len, e->board_line, &err);
        if (rc != SOKO_OK) {
            check_fail(__FILE__, __LINE__, "%s level %u does not parse: %s at %u:%u: %s", file,
                       e->number, soko_error_name(rc), err.line, err.col, err.message);
            continue;
        }
        for (uint32_t i = 0; i < e->solution_count; i++)
            replay_solution(file, text, e, lvl, &e->solution[i], &tally);
    }
    printf("     %s: %u solutions, %u replayed to solved (%u case-exact, %u solved before "
           "their last step)\n",
           file, tally.solutions, tally.solved, tally.case_exact, tally.solved_early);
    free(lvl);
    free(e);
    free(text);
    return tally;
}

static void real_solutions_replay_to_solved(void)
{
    static const struct {
        const char *file;
        unsigned solutions;
    } files[] = {
        {"levels/solutions/Microban_155.with-solutions.sok", 282},
        {"levels/solutions/XSokoban_90.with-solutions.sok", 88},
        {"levels/solutions/Monster_Sokoban.with-solutions.sok", 55},
        {"levels/solutions/MicroCosmos.sol", 40},
    };
    unsigned early = 0;
    note("solutions are played under the standard rule; a step after solved is allowed");
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        replay_tally t = replay_file(files[i].file);
        /* The counts of "Solution" blocks in the files, counted with grep. */
        CHECK_INT(t.solutions, files[i].solutions);
        CHECK_INT(t.solved, t.solutions);
        /* These files mark pushes exactly, so the encoder must re-case them the same. */
        CHECK_INT(t.case_exact, t.solved);
        early += t.solved_early;
    }
    /* MicroCosmos 01 and Monster Sokoban 7-5 and 8-2 pass through solved. */
    CHECK(early >= 3);
}

int main(void)
{
    RUN(spec_examples_decode_as_the_spec_says);
    RUN(counts_may_have_several_digits);
    RUN(groups_nest_and_groups_without_count_just_group);
    RUN(blanks_and_line_ends_are_ignored);
    RUN(unknown_letter_is_named_with_its_line_and_column);
    RUN(count_with_nothing_after_it_is_refused);
    RUN(unbalanced_parentheses_are_refused);
    RUN(deep_nesting_is_refused_not_overflowed);
    RUN(output_beyond_cap_is_full);
    RUN(count_explosions_stop_at_cap);
    RUN(letters_name_directions_and_pushes);
    RUN(play_lets_the_board_decide_what_pushes);
    RUN(play_stops_at_the_refused_step);
    RUN(encode_writes_steps_since_the_last_restart);
    RUN(real_solutions_replay_to_solved);
    return check_finish();
}
