/* The solver on a real collection: every level (or a range of them) solved
 * under a time limit on one core, each solution replayed on the core.
 * Prints per level its number, whether it was solved, pushes, moves, time
 * and nodes; then the solved count and the median and 90th percentile of
 * the time per level (unsolved levels count with the time they used), and
 * the machine's load averages at the start and the end.
 *
 *   bench_solver [FILE [SECONDS [FIRST [LAST [NODES [WITHOUT [MEMORY]]]]]]]
 *
 * FILE is a path, or a name under the shared levels folder; by default
 * Microban_155.xsb at 10 seconds per level. NODES, when given and not 0,
 * bounds the positions per level too: a bound that does not depend on how
 * busy the machine is, for comparing versions of the solver. WITHOUT names
 * techniques the solver does without, separated by commas (advice,
 * features, goal-cuts, order, packing, patterns, plan, pull, push-order), and
 * techniques on trial it uses with a leading "+" (+held, +links,
 * +relevance, +replan), to measure what each one buys with the same
 * binary ("-" for none). MEMORY is the MiB each level's search may hold,
 * by default the solver's own limit (SOLVER_DEFAULT_MEMORY). */
#include "bench_env.h"
#include "soko.h"
#include "solver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prints the machine's load averages (Linux), so that times measured on a
 * shared machine can be read for what they are. */
static void print_load(const char *when)
{
    FILE *f = fopen("/proc/loadavg", "r");
    double one, five, fifteen;
    if (f != NULL && fscanf(f, "%lf %lf %lf", &one, &five, &fifteen) == 3)
        printf("load average %s: %.2f %.2f %.2f\n", when, one, five, fifteen);
    if (f != NULL)
        fclose(f);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Replays a solution on the level from its start: the benchmark's own check
 * that what the solver printed is a solution. */
static bool replays(const soko_level *lvl, const char *lurd)
{
    size_t n = strlen(lurd);
    uint8_t *steps = malloc(n + 1);
    soko_entry_t *history = malloc((n + 1) * sizeof *history);
    soko_game *g = malloc(sizeof *g);
    bool ok = false;
    if (steps != NULL && history != NULL && g != NULL) {
        soko_error err;
        int32_t k = soko_lurd_decode(lurd, (uint32_t)n, 1, steps, (uint32_t)n + 1, &err);
        uint32_t failed;
        soko_game_init(g, lvl, SOKO_RULE_STANDARD, history, (uint32_t)n + 1);
        ok = k >= 0 && soko_lurd_play(g, steps, (uint32_t)k, &failed) == SOKO_OK &&
             soko_game_solved(g);
    }
    free(steps);
    free(history);
    free(g);
    return ok;
}

/* The SOLVER_WITHOUT_* bits named in a comma-separated list, and in *with
 * the SOLVER_WITH_* bits of the names written with a leading "+"; -1 when
 * a name is unknown. */
static long without_bits(const char *list, uint32_t *with)
{
    static const struct {
        const char *name;
        uint32_t bit;
    } names[] = {{"goal-cuts", SOLVER_WITHOUT_GOAL_CUTS},
                 {"packing", SOLVER_WITHOUT_PACKING},
                 {"push-order", SOLVER_WITHOUT_PUSH_ORDER},
                 {"patterns", SOLVER_WITHOUT_PATTERNS},
                 {"features", SOLVER_WITHOUT_FEATURES},
                 {"pull", SOLVER_WITHOUT_PULL},
                 {"advice", SOLVER_WITHOUT_ADVICE},
                 {"plan", SOLVER_WITHOUT_PLAN},
                 {"+relevance", SOLVER_WITH_RELEVANCE},
                 {"+replan", SOLVER_WITH_REPLAN},
                 {"+links", SOLVER_WITH_LINKS},
                 {"order", SOLVER_WITHOUT_ORDER},
                 {"+held", SOLVER_WITH_HELD}};
    long bits = 0;
    while (*list != '\0') {
        size_t len = strcspn(list, ",");
        size_t k = 0;
        while (k < sizeof names / sizeof names[0] &&
               (strlen(names[k].name) != len || strncmp(names[k].name, list, len) != 0))
            k++;
        if (k == sizeof names / sizeof names[0])
            return len == 0 ? bits : -1;
        if (names[k].name[0] == '+')
            *with |= names[k].bit;
        else
            bits |= names[k].bit;
        list += len + (list[len] == ',');
    }
    return bits;
}

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "Microban_155.xsb";
    double seconds = argc > 2 ? atof(argv[2]) : 10.0;
    long first = argc > 3 ? atol(argv[3]) : 1;
    long last = argc > 4 ? atol(argv[4]) : 1000000;
    unsigned long long node_limit = argc > 5 ? strtoull(argv[5], NULL, 10) : 0;
    uint32_t with = 0;
    bool techniques = argc > 6 && strcmp(argv[6], "-") != 0;
    long without = techniques ? without_bits(argv[6], &with) : 0;
    unsigned long long memory_mib = argc > 7 ? strtoull(argv[7], NULL, 10) : 0;
    if (without < 0) {
        fprintf(stderr, "bench_solver: unknown technique in %s\n", argv[6]);
        return 2;
    }
    char path[1024];
    if (strchr(name, '/') != NULL)
        snprintf(path, sizeof path, "%s", name);
    else
        snprintf(path, sizeof path, "%s/levels/%s", SOKOD_SHARED_DIR, name);
    uint32_t len = 0;
    char *text = bench_env_read_file(path, &len);
    if (text == NULL) {
        fprintf(stderr, "bench_solver: cannot read %s\n", path);
        return 1;
    }
    printf("solver on %s, %.0f s per level, levels %ld..%ld", path, seconds, first, last);
    if (node_limit > 0)
        printf(", at most %llu nodes", node_limit);
    if (without != 0 || with != 0)
        printf(", techniques %s", argv[6]);
    if (memory_mib > 0)
        printf(", %llu MiB", memory_mib);
    printf("\n");
    print_load("at the start");
    printf("%5s %-10s %7s %7s %10s %10s\n", "level", "result", "pushes", "moves", "ms", "nodes");

    static soko_reader reader;
    static soko_entry entry;
    static soko_level level;
    soko_reader_init(&reader, text, len);
    double *times = malloc(sizeof(double) * 4096);
    uint32_t count = 0, solved = 0;
    double total = 0;
    uint64_t nodes = 0;
    while (soko_reader_next(&reader, &entry) == 1 && count < 4096) {
        if ((long)entry.number < first || (long)entry.number > last)
            continue;
        soko_error err;
        if (soko_level_parse(&level, text + entry.board.off, entry.board.len, entry.board_line,
                             &err) < 0) {
            printf("%5u %-10s %s\n", entry.number, "invalid", err.message);
            continue;
        }
        solver_options lim;
        solver_options_default(&lim);
        lim.time_limit = seconds;
        lim.node_limit = node_limit;
        lim.without = (uint32_t)without;
        lim.with = with;
        lim.memory_limit = memory_mib << 20;
        solver_result r;
        solver_solve_level(&level, &lim, &r);
        const char *what = solver_status_name(r.status);
        if (r.status == SOLVER_SOLVED && !replays(&level, r.lurd))
            what = "WRONG";
        else if (r.status == SOLVER_SOLVED)
            solved++;
        printf("%5u %-10s %7u %7u %10.1f %10llu%s%s\n", entry.number, what, r.pushes, r.moves,
               r.seconds * 1000, (unsigned long long)r.nodes, r.status == SOLVER_SOLVED ? "" : "  ",
               r.status == SOLVER_SOLVED ? "" : r.reason);
        fflush(stdout);
        times[count++] = r.seconds * 1000;
        total += r.seconds;
        nodes += r.nodes;
        solver_result_free(&r);
    }
    qsort(times, count, sizeof *times, cmp_double);
    double median = count ? times[count / 2] : 0;
    double p90 = count ? times[(count * 9) / 10 < count ? (count * 9) / 10 : count - 1] : 0;
    printf("levels: %u, solved: %u, total %.1f s, median %.1f ms, p90 %.1f ms, nodes %llu\n", count,
           solved, total, median, p90, (unsigned long long)nodes);
    print_load("at the end");
    free(times);
    free(text);
    return 0;
}
