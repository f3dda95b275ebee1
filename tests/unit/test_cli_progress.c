/* The progress line of the long commands (server/cli/cli_progress.c): the
 * words of the line for a count done, a total and the time it took. Each
 * failure names the count, the total and the time given. */
#include "check.h"
#include "cli/cli_progress.h"

#include <unistd.h>

static void expect_line(const char *unit, uint64_t done, uint64_t total, uint64_t elapsed_us,
                        const char *want)
{
    char line[160];
    note("%s: %llu of %llu after %llu us", unit, (unsigned long long)done,
         (unsigned long long)total, (unsigned long long)elapsed_us);
    cli_progress_format(line, sizeof line, unit, done, total, elapsed_us);
    CHECK_STR(line, want);
}

/* 12 levels in 3.75 s is 3.2 a second; the 143 left take 44.7 s. */
static void line_has_fraction_rate_and_time_left(void)
{
    expect_line("levels", 12, 155, 3750000, "12/155 levels (7%), 3.2/s, 0:45 left");
}

/* At 0.5 a second, 10,000 levels take 20,000 s: 5 h 33 min 20 s. */
static void hours_are_written_past_an_hour(void)
{
    expect_line("levels", 1, 10001, 2000000, "1/10001 levels (0%), 0.5/s, 5:33:20 left");
}

static void no_time_left_before_the_first_or_after_the_last(void)
{
    expect_line("levels", 0, 10, 1000000, "0/10 levels (0%), 0.0/s");
    expect_line("levels", 10, 10, 2000000, "10/10 levels (100%), 5.0/s");
}

/* Without a total: the count and the rate, whole past ten a second. */
static void unknown_total_gives_count_and_rate(void)
{
    expect_line("games checked", 1500, 0, 2000000, "1500 games checked, 750/s");
}

/* Under ctest standard error is a file, not a terminal: the line is off,
 * and so it is with --json whatever standard error is. */
static void off_unless_a_terminal_and_not_json(void)
{
    struct cli_progress p;
    cli_progress_begin(&p, "solve", "levels", 10, false);
    CHECK_INT(p.on, isatty(STDERR_FILENO));
    cli_progress_begin(&p, "solve", "levels", 10, true);
    CHECK_INT(p.on, false);
    cli_progress_update(&p, 5);
    CHECK_INT(p.shown, false);
}

int main(void)
{
    RUN(line_has_fraction_rate_and_time_left);
    RUN(hours_are_written_past_an_hour);
    RUN(no_time_left_before_the_first_or_after_the_last);
    RUN(unknown_total_gives_count_and_rate);
    RUN(off_unless_a_terminal_and_not_json);
    return check_finish();
}
