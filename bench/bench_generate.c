/* The level generator: levels of a size and box count generated from
 * consecutive seeds, each checked by the solver as `sokod generate` does.
 * Prints per level its seed, time, pushes and score, then the median and
 * 90th percentile of the wall-clock and CPU time per level.
 *
 *   bench_generate [BOXES [WIDTH [HEIGHT [LEVELS [FIRST_SEED]]]]]
 *
 * By default: 3 boxes, then 4 boxes, in a 12x12 area, 25 levels each. */
#include "generate.h"
#include "solver.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void run(unsigned boxes, unsigned width, unsigned height, unsigned levels, uint64_t seed)
{
    double *wall = calloc(levels, sizeof *wall), *cpu = calloc(levels, sizeof *cpu);
    if (wall == NULL || cpu == NULL)
        exit(1);
    unsigned made = 0, checked = 0;
    printf("%u boxes in a %ux%u area, %u levels from seed %llu\n", boxes, width, height, levels,
           (unsigned long long)seed);
    for (unsigned i = 0; i < levels; i++) {
        gen_options o;
        gen_options_default(&o);
        o.seed = seed + i;
        o.boxes = (uint16_t)boxes;
        o.width = (uint16_t)width;
        o.height = (uint16_t)height;
        o.verify_nodes = 2000000;
        gen_level l;
        double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_THREAD_CPUTIME_ID);
        int rc = gen_generate(&o, &l);
        wall[i] = now(CLOCK_MONOTONIC) - w0;
        cpu[i] = now(CLOCK_THREAD_CPUTIME_ID) - c0;
        if (rc == GEN_OK) {
            made++;
            checked += l.solver_status == SOLVER_SOLVED;
            printf("  seed %llu: %.1f ms (cpu %.1f ms), %ux%u, %u pushes, score %u, solver %s\n",
                   (unsigned long long)o.seed, wall[i] * 1000, cpu[i] * 1000, l.width, l.height,
                   l.pushes, l.score, solver_status_name(l.solver_status));
        } else {
            printf("  seed %llu: %s\n", (unsigned long long)o.seed, gen_error_name(rc));
        }
        gen_level_free(&l);
    }
    qsort(wall, levels, sizeof *wall, cmp_double);
    qsort(cpu, levels, sizeof *cpu, cmp_double);
    printf("%u boxes %ux%u: %u/%u generated, %u solved by the solver's check; "
           "median %.1f ms (cpu %.1f ms), p90 %.1f ms (cpu %.1f ms)\n\n",
           boxes, width, height, made, levels, checked, wall[levels / 2] * 1000,
           cpu[levels / 2] * 1000, wall[levels * 9 / 10] * 1000, cpu[levels * 9 / 10] * 1000);
    free(wall);
    free(cpu);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        unsigned boxes = (unsigned)atoi(argv[1]);
        unsigned width = argc > 2 ? (unsigned)atoi(argv[2]) : 12;
        unsigned height = argc > 3 ? (unsigned)atoi(argv[3]) : width;
        unsigned levels = argc > 4 ? (unsigned)atoi(argv[4]) : 25;
        uint64_t seed = argc > 5 ? strtoull(argv[5], NULL, 10) : 1;
        if (levels == 0)
            levels = 1;
        run(boxes, width, height, levels, seed);
        return 0;
    }
    run(3, 12, 12, 25, 1);
    run(4, 12, 12, 25, 1);
    return 0;
}
