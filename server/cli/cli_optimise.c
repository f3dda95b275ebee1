/* sokod optimise: makes the solutions written in level files shorter. */
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "soko.h"
#include "solver.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_SECONDS 10.0
#define DEFAULT_MEGABYTES 1024.0

/* The longest solution measured, in steps. */
#define OPTIMISE_MAX_STEPS SOKO_MAX_HISTORY

struct optimise_args {
    double seconds, megabytes;
    int metric;
    bool json;
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

static int store_metric(void *field, const char *s)
{
    if (strcmp(s, "moves") == 0)
        *(int *)field = SOLVER_METRIC_MOVES;
    else if (strcmp(s, "pushes") == 0)
        *(int *)field = SOLVER_METRIC_PUSHES;
    else
        return OPTIONS_REFUSED;
    return OPTIONS_STORED;
}

static const struct options_row optimise_rows[] = {
    {"time-limit", NULL, 0, "S", "seconds per level (default 10)",
     OPTIONS_BY(struct optimise_args, seconds, store_positive)},
    {"memory", NULL, 0, "MB", "memory per level for the search (default 1024)",
     OPTIONS_BY(struct optimise_args, megabytes, store_positive)},
    {"metric", NULL, 0, "M",
     "moves (default: fewest moves, then pushes) or pushes\n"
     "(fewest pushes, then moves)",
     OPTIONS_BY(struct optimise_args, metric, store_metric)},
    CLI_JSON_ROW(struct optimise_args),
    CLI_HELP_ROW,
    OPTIONS_END,
};

static bool optimise_complain(const struct options_result *r)
{
    if (r->status != OPTIONS_MISSING && r->status != OPTIONS_INVALID)
        return false;
    if (strcmp(r->arg, "--metric") == 0)
        fprintf(stderr, "sokod optimise: --metric needs moves or pushes\n");
    else
        fprintf(stderr, "sokod optimise: %s needs a positive number\n", r->arg);
    return true;
}

static const struct cli_command optimise_command = {
    .name = "optimise",
    .about = "usage: sokod optimise [--time-limit S] [--memory MB] [--metric M] [--json]\n"
             "                      FILE...\n"
             "\n"
             "For every level of the files with solutions written after its board, takes\n"
             "the shortest of them in the metric and looks for a shorter one among the\n"
             "positions near those it passes through. Prints for each level the given\n"
             "and the new moves and pushes, the time and the positions searched, and the\n"
             "new solution in LURD (replayed on the level); then \"levels: N, shorter: S,\n"
             "moves saved: M, pushes saved: P\".\n"
             "\n",
    .rows = optimise_rows,
    .pad = 14,
    .after = "Exit status: 0 when every level's solution was read and optimised, 1 when\n"
             "one does not solve its level or a file cannot be read, 2 on a usage error.\n",
    .files = true,
    .complain = optimise_complain,
};

typedef struct optimise_state {
    bool json;
    int metric;
    solver_options options;
    unsigned levels, shorter;
    unsigned moves_saved, pushes_saved;
    bool failed;
    uint8_t *steps;
    soko_entry_t *history;
    soko_game game;
} optimise_state;

/* The moves and pushes of solution s of e, or false when it does not
 * solve the level. */
static bool measure(optimise_state *st, const struct cli_level *l, uint32_t s, uint32_t *moves,
                    uint32_t *pushes)
{
    const soko_solution_ref *ref = &l->entry->solution[s];
    soko_error err;
    int32_t n = soko_lurd_decode(l->text + ref->moves.off, ref->moves.len, ref->line, st->steps,
                                 OPTIMISE_MAX_STEPS, &err);
    if (n < 0)
        return false;
    soko_game_init(&st->game, l->level, SOKO_RULE_STANDARD, st->history, OPTIMISE_MAX_STEPS);
    uint32_t failed_at;
    if (soko_lurd_play(&st->game, st->steps, (uint32_t)n, &failed_at) != SOKO_OK ||
        !soko_game_solved(&st->game))
        return false;
    *moves = st->game.moves;
    *pushes = st->game.pushes;
    return true;
}

/* Whether (m, p) is shorter than (bm, bp) in the metric. */
static bool shorter(int metric, uint32_t m, uint32_t p, uint32_t bm, uint32_t bp)
{
    if (metric == SOLVER_METRIC_PUSHES)
        return p < bp || (p == bp && m < bm);
    return m < bm || (m == bm && p < bp);
}

/* Optimises the shortest solution of one level and reports it. */
static void optimise_level(void *ctx, const struct cli_level *l)
{
    optimise_state *st = ctx;
    const soko_entry *e = l->entry;
    if (e->solution_count == 0)
        return;
    st->levels++;
    json_t *jl = st->json ? json_object() : NULL;
    char head[300];
    snprintf(head, sizeof head, "  %u%s%.*s%s", e->number, e->title.len ? " \"" : "",
             (int)(e->title.len > 200 ? 200 : e->title.len), l->text + e->title.off,
             e->title.len ? "\"" : "");
    if (jl != NULL) {
        json_object_set_new(jl, "number", json_integer(e->number));
        json_object_set_new(jl, "title", cli_json_text(l->text + e->title.off, e->title.len));
        json_array_append_new(l->levels, jl);
    }
    int chosen = -1;
    uint32_t bm = 0, bp = 0;
    for (uint32_t s = 0; s < e->solution_count && l->level != NULL; s++) {
        uint32_t m, p;
        if (measure(st, l, s, &m, &p) && (chosen < 0 || shorter(st->metric, m, p, bm, bp))) {
            chosen = (int)s;
            bm = m;
            bp = p;
        }
    }
    if (chosen < 0) {
        st->failed = true;
        const char *why =
            l->level == NULL ? "the level is invalid" : "no solution solves the level";
        if (jl != NULL) {
            json_object_set_new(jl, "result", json_string("failed"));
            json_object_set_new(jl, "reason", json_string(why));
        } else {
            printf("%s: not optimised: %s\n", head, why);
        }
        return;
    }
    const soko_solution_ref *ref = &e->solution[chosen];
    solver_result r;
    solver_optimise(l->level, l->text + ref->moves.off, ref->moves.len, st->metric, &st->options,
                    &r);
    double ms = r.seconds * 1000;
    bool better = r.status == SOLVER_SOLVED && shorter(st->metric, r.moves, r.pushes, bm, bp);
    if (r.status != SOLVER_SOLVED)
        st->failed = true;
    if (better) {
        st->shorter++;
        st->moves_saved += bm > r.moves ? bm - r.moves : 0;
        st->pushes_saved += bp > r.pushes ? bp - r.pushes : 0;
    }
    if (jl != NULL) {
        json_object_set_new(jl, "given_moves", json_integer(bm));
        json_object_set_new(jl, "given_pushes", json_integer(bp));
        json_object_set_new(jl, "result",
                            json_string(r.status != SOLVER_SOLVED ? "failed"
                                        : better                  ? "shorter"
                                                                  : "same"));
        json_object_set_new(jl, "reason", json_string(r.reason));
        if (r.status == SOLVER_SOLVED) {
            json_object_set_new(jl, "moves", json_integer(r.moves));
            json_object_set_new(jl, "pushes", json_integer(r.pushes));
            json_object_set_new(jl, "solution", json_string(r.lurd));
        }
        json_object_set_new(jl, "ms", json_real(ms));
        json_object_set_new(jl, "nodes", json_integer((json_int_t)r.nodes));
    } else if (r.status == SOLVER_SOLVED) {
        printf("%s: %u moves, %u pushes -> %u moves, %u pushes: %s (%.1f ms, %llu nodes)\n    %s\n",
               head, bm, bp, r.moves, r.pushes, r.reason, ms, (unsigned long long)r.nodes, r.lurd);
    } else {
        printf("%s: not optimised: %s (%.1f ms)\n", head, r.reason, ms);
    }
    fflush(stdout);
    solver_result_free(&r);
}

int cli_optimise(int argc, char **argv)
{
    struct optimise_args args = {.seconds = DEFAULT_SECONDS, .megabytes = DEFAULT_MEGABYTES};
    struct options_result r;
    int early = cli_options(&optimise_command, &args, argc, argv, &r);
    if (early >= 0)
        return early;
    optimise_state *st = calloc(1, sizeof *st);
    if (st != NULL) {
        st->steps = malloc(OPTIMISE_MAX_STEPS);
        st->history = malloc(OPTIMISE_MAX_STEPS * sizeof *st->history);
    }
    if (st == NULL || st->steps == NULL || st->history == NULL) {
        fprintf(stderr, "sokod optimise: out of memory\n");
        if (st != NULL) {
            free(st->steps);
            free(st->history);
        }
        free(st);
        return 1;
    }
    st->json = args.json;
    st->metric = args.metric;
    solver_options_default(&st->options);
    st->options.time_limit = args.seconds;
    st->options.memory_limit = (uint64_t)(args.megabytes * 1024 * 1024);
    json_t *files = st->json ? json_array() : NULL;
    bool file_failed = cli_each_file(r.args, r.nargs, files, 0, optimise_level, st);
    /* JSON keys without blanks, the text line in words */
    bool js = files != NULL;
    cli_print_summary(
        files, (struct cli_count[]){{"levels", st->levels, false},
                                    {"shorter", st->shorter, false},
                                    {js ? "moves_saved" : "moves saved", st->moves_saved, false},
                                    {js ? "pushes_saved" : "pushes saved", st->pushes_saved, false},
                                    {NULL, 0, false}});
    int status = st->failed || file_failed ? 1 : 0;
    free(st->steps);
    free(st->history);
    free(st);
    return status;
}
