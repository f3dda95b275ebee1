/* A progress line for the long commands (solve, generate, copy): on
 * standard error, redrawn in place, "solve: 12/155 levels (7%), 3.2/s,
 * 0:45 left". Drawn only when standard error is a terminal and the output
 * is not JSON, so that nothing changes for a script, a pipe or a log. */
#ifndef SOKOD_CLI_PROGRESS_H
#define SOKOD_CLI_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cli_progress {
    bool on;             /* the line is drawn at all */
    bool shown;          /* a line stands on the terminal now */
    const char *command; /* "solve" */
    const char *unit;    /* what is counted, "levels" */
    uint64_t total;      /* 0 when not known: no fraction, no time left */
    uint64_t start_us, drawn_us;
};

/* Starts p for `command` counting `unit` up to total (0: unknown). It is
 * off when json is true or standard error is not a terminal. Draws nothing
 * yet. This function can't fail. */
void cli_progress_begin(struct cli_progress *p, const char *command, const char *unit,
                        uint64_t total, bool json);

/* Shows that done of the total are done: redraws the line, at most ten
 * times a second unless done reaches the total. */
void cli_progress_update(struct cli_progress *p, uint64_t done);

/* Takes the line off the terminal, before the command writes there
 * (cli_progress_update draws it again). */
void cli_progress_hide(struct cli_progress *p);

/* Takes the line off for good. */
void cli_progress_end(struct cli_progress *p);

/* Formats the line for done of total after elapsed_us into out[cap]:
 * "12/155 levels (7%), 3.2/s, 0:45 left", or "12 levels, 3.2/s" when
 * total is 0. Exposed for its unit test. */
void cli_progress_format(char *out, size_t cap, const char *unit, uint64_t done, uint64_t total,
                         uint64_t elapsed_us);

#endif
