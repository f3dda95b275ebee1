/* The progress line of the long commands (cli_progress.h). */
#include "cli/cli_progress.h"

#include "base/clock.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Between two redraws: ten a second are enough for a person to read. */
enum { REDRAW_US = 100000 };

/* Writes seconds as "m:ss", or "h:mm:ss" past an hour. */
static void format_duration(char *out, size_t cap, uint64_t seconds)
{
    if (seconds >= 3600)
        snprintf(out, cap, "%llu:%02llu:%02llu", (unsigned long long)(seconds / 3600),
                 (unsigned long long)(seconds / 60 % 60), (unsigned long long)(seconds % 60));
    else
        snprintf(out, cap, "%llu:%02llu", (unsigned long long)(seconds / 60),
                 (unsigned long long)(seconds % 60));
}

void cli_progress_format(char *out, size_t cap, const char *unit, uint64_t done, uint64_t total,
                         uint64_t elapsed_us)
{
    double seconds = (double)elapsed_us / 1e6;
    double rate = seconds > 0 ? (double)done / seconds : 0;
    char rate_text[32];
    snprintf(rate_text, sizeof rate_text, rate >= 10 ? "%.0f/s" : "%.1f/s", rate);
    if (total == 0) {
        snprintf(out, cap, "%llu %s, %s", (unsigned long long)done, unit, rate_text);
        return;
    }
    unsigned percent = (unsigned)(done >= total ? 100 : done * 100 / total);
    char left[32] = "";
    if (done > 0 && done < total) {
        char d[24];
        format_duration(d, sizeof d, (uint64_t)((double)(total - done) / rate + 0.5));
        snprintf(left, sizeof left, ", %s left", d);
    }
    snprintf(out, cap, "%llu/%llu %s (%u%%), %s%s", (unsigned long long)done,
             (unsigned long long)total, unit, percent, rate_text, left);
}

void cli_progress_begin(struct cli_progress *p, const char *command, const char *unit,
                        uint64_t total, bool json)
{
    memset(p, 0, sizeof *p);
    p->command = command;
    p->unit = unit;
    p->total = total;
    p->start_us = clock_mono_us();
    p->on = !json && isatty(STDERR_FILENO);
}

void cli_progress_update(struct cli_progress *p, uint64_t done)
{
    if (!p->on)
        return;
    uint64_t now = clock_mono_us();
    bool last = p->total > 0 && done >= p->total;
    if (p->shown && !last && now - p->drawn_us < REDRAW_US)
        return;
    char line[160];
    cli_progress_format(line, sizeof line, p->unit, done, p->total, now - p->start_us);
    /* Standard output may share the terminal: what it holds goes first. */
    fflush(stdout);
    fprintf(stderr, "\r%s: %s\033[K", p->command, line);
    fflush(stderr);
    p->shown = true;
    p->drawn_us = now;
}

void cli_progress_hide(struct cli_progress *p)
{
    if (!p->on || !p->shown)
        return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    p->shown = false;
}

void cli_progress_end(struct cli_progress *p)
{
    cli_progress_hide(p);
    p->on = false;
}
