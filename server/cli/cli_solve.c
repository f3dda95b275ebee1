/* sokod solve: runs the solver on every level of level files. */
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "cli/cli_progress.h"
#include "soko.h"
#include "solver.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_SECONDS 10.0
#define DEFAULT_MEGABYTES 1024.0

struct solve_args {
    double seconds, megabytes;
    bool optimal, json;
};

/* A positive number, decimals allowed, into a double field. */
static int store_positive(void *field, const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno != 0 || end == s || *end != '\0' || !(v > 0))
        return OPTIONS_REFUSED;
    *(double *)field = v;
    return OPTIONS_STORED;
}

static const struct options_row solve_rows[] = {
    {"time-limit", NULL, 0, "S", "seconds per level (default 10)",
     OPTIONS_BY(struct solve_args, seconds, store_positive)},
    {"memory", NULL, 0, "MB", "memory per level for the search (default 1024)",
     OPTIONS_BY(struct solve_args, megabytes, store_positive)},
    {"optimal", NULL, 0, NULL, "find solutions with the fewest pushes (much slower)",
     OPTIONS_SWITCH(struct solve_args, optimal)},
    CLI_JSON_ROW(struct solve_args),
    CLI_HELP_ROW,
    OPTIONS_END,
};

static bool solve_complain(const struct options_result *r)
{
    if (r->status != OPTIONS_MISSING && r->status != OPTIONS_INVALID)
        return false;
    fprintf(stderr, "sokod solve: %s needs a positive number\n", r->arg);
    return true;
}

static const struct cli_command solve_command = {
    .name = "solve",
    .about = "usage: sokod solve [--time-limit S] [--memory MB] [--optimal] [--json] FILE...\n"
             "\n"
             "Solves every level of the files, one after another on one core. Prints for\n"
             "each level its solution in LURD with its moves, pushes, time and the\n"
             "positions searched (nodes); or that it has no solution; or that none was\n"
             "found within the limits. Then \"levels: N, solved: S\".\n"
             "\n",
    .rows = solve_rows,
    .pad = 14,
    .after = "Exit status: 0 when every level was solved, 1 when one was not or a file\n"
             "cannot be read, 2 on a usage error.\n",
    .files = true,
    .complain = solve_complain,
};

typedef struct solve_state {
    bool json;
    struct cli_progress progress;
    solver_options options;
    unsigned levels, solved, unsolvable;
    bool failed;
} solve_state;

/* Solves one level and reports it. */
static void solve_level(void *ctx, const struct cli_level *l)
{
    solve_state *st = ctx;
    const char *text = l->text;
    const soko_entry *e = l->entry;
    const soko_level *lvl = l->level;
    const soko_error *err = l->error;
    json_t *jlevels = l->levels;
    st->levels++;
    json_t *jl = st->json ? json_object() : NULL;
    char head[300];
    snprintf(head, sizeof head, "  %u%s%.*s%s", e->number, e->title.len ? " \"" : "",
             (int)(e->title.len > 200 ? 200 : e->title.len), text + e->title.off,
             e->title.len ? "\"" : "");
    if (jl != NULL) {
        json_object_set_new(jl, "number", json_integer(e->number));
        json_object_set_new(jl, "title", cli_json_text(text + e->title.off, e->title.len));
        json_array_append_new(jlevels, jl);
    }
    if (lvl == NULL) {
        st->failed = true;
        if (jl != NULL) {
            json_object_set_new(jl, "result", json_string("invalid_level"));
            json_object_set_new(jl, "message", cli_json_text(err->message, strlen(err->message)));
        } else {
            char where[64] = "";
            if (err->line > 0 && err->col > 0)
                snprintf(where, sizeof where, " (line %u, column %u)", err->line, err->col);
            else if (err->line > 0)
                snprintf(where, sizeof where, " (line %u)", err->line);
            printf("%s: invalid level%s: %s\n", head, where, err->message);
        }
        return;
    }
    solver_result r;
    cli_progress_update(&st->progress, st->levels - 1);
    solver_solve_level(lvl, &st->options, &r);
    cli_progress_hide(&st->progress);
    double ms = r.seconds * 1000;
    if (r.status == SOLVER_SOLVED)
        st->solved++;
    else
        st->failed = true;
    if (r.status == SOLVER_UNSOLVABLE)
        st->unsolvable++;
    if (jl != NULL) {
        json_object_set_new(jl, "result", json_string(solver_status_name(r.status)));
        if (r.status == SOLVER_SOLVED) {
            json_object_set_new(jl, "moves", json_integer(r.moves));
            json_object_set_new(jl, "pushes", json_integer(r.pushes));
            json_object_set_new(jl, "solution", json_string(r.lurd));
        } else {
            json_object_set_new(jl, "reason", json_string(r.reason));
        }
        json_object_set_new(jl, "ms", json_real(ms));
        json_object_set_new(jl, "nodes", json_integer((json_int_t)r.nodes));
    } else if (r.status == SOLVER_SOLVED) {
        printf("%s: solved, %u moves, %u pushes, %.1f ms, %llu nodes\n    %s\n", head, r.moves,
               r.pushes, ms, (unsigned long long)r.nodes, r.lurd);
    } else if (r.status == SOLVER_UNSOLVABLE) {
        printf("%s: unsolvable: %s (%.1f ms, %llu nodes)\n", head, r.reason, ms,
               (unsigned long long)r.nodes);
    } else {
        printf("%s: not solved within the limits: %s (%.1f ms, %llu nodes)\n", head, r.reason, ms,
               (unsigned long long)r.nodes);
    }
    fflush(stdout);
    solver_result_free(&r);
}

int cli_solve(int argc, char **argv)
{
    struct solve_args args = {.seconds = DEFAULT_SECONDS, .megabytes = DEFAULT_MEGABYTES};
    struct options_result r;
    int early = cli_options(&solve_command, &args, argc, argv, &r);
    if (early >= 0)
        return early;
    solve_state st = {.json = args.json};
    solver_options_default(&st.options);
    st.options.optimal = args.optimal;
    st.options.time_limit = args.seconds;
    st.options.memory_limit = (uint64_t)(args.megabytes * 1024 * 1024);
    json_t *files = st.json ? json_array() : NULL;
    cli_progress_begin(&st.progress, "solve", "levels", 0, st.json);
    if (st.progress.on)
        st.progress.total = cli_count_levels(r.args, r.nargs);
    st.failed = cli_each_file(r.args, r.nargs, files, 0, solve_level, &st);
    cli_progress_end(&st.progress);
    cli_print_summary(files, (struct cli_count[]){{"levels", st.levels, false},
                                                  {"solved", st.solved, false},
                                                  {"unsolvable", st.unsolvable, true},
                                                  {NULL, 0, false}});
    return st.failed ? 1 : 0;
}
