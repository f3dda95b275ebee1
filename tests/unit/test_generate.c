/* The level generator: the same options give the same bytes (in any thread),
 * different seeds give different levels, and every level it makes is valid,
 * within the asked size, holds the asked boxes, and is solved by its own
 * solution on the core, with the fewest pushes. */
#include "check.h"
#include "generate.h"
#include "level_util.h"
#include "solver.h"

#include <pthread.h>
#include <stdlib.h>

static gen_options options(uint64_t seed, uint16_t w, uint16_t h, uint16_t boxes, int shape)
{
    gen_options o;
    gen_options_default(&o);
    o.seed = seed;
    o.width = w;
    o.height = h;
    o.boxes = boxes;
    o.shape = (uint8_t)shape;
    o.candidates = 2;
    o.node_limit = 60000;
    return o;
}

/* Checks one generated level against what was asked and replays its
 * solution; notes the level so that a failure shows it. */
static void check_level(const gen_options *o, const gen_level *l)
{
    note("seed %llu, %ux%u area, %u boxes, shape %s:\n%s\nsolution %s", (unsigned long long)o->seed,
         o->width, o->height, o->boxes, gen_shape_name(o->shape), l->board, l->solution);
    CHECK(l->width <= o->width);
    CHECK(l->height <= o->height);
    CHECK_INT(l->boxes, o->boxes);
    CHECK(l->pushes > 0);
    soko_level *lvl = level_from_text(l->board);
    if (lvl == NULL)
        return;
    CHECK_INT(lvl->boxes, o->boxes);
    CHECK(lvl->width <= o->width && lvl->height <= o->height);
    CHECK(!soko_level_solved(lvl));
    static soko_entry_t history[1 << 16];
    static soko_game g;
    soko_game_init(&g, lvl, SOKO_RULE_STANDARD, history, sizeof history / sizeof history[0]);
    uint32_t failed = 0;
    int rc = play_lurd(&g, l->solution, &failed);
    if (rc != SOKO_OK)
        check_fail(__FILE__, __LINE__, "step %u of the solution was refused: %s", failed,
                   soko_error_name(rc));
    CHECK(soko_game_solved(&g));
    CHECK_INT(g.pushes, l->pushes);
    CHECK_INT(g.moves, l->moves);
    free(lvl);
}

static void same_seed_gives_same_bytes(void)
{
    gen_options o = options(42, 12, 12, 3, GEN_SHAPE_ANY);
    gen_level a, b;
    CHECK_INT(gen_generate(&o, &a), GEN_OK);
    CHECK_INT(gen_generate(&o, &b), GEN_OK);
    if (a.board != NULL && b.board != NULL) {
        CHECK_STR(a.board, b.board);
        CHECK_STR(a.solution, b.solution);
        CHECK_INT(a.score, b.score);
    }
    gen_level_free(&a);
    gen_level_free(&b);
}

typedef struct job {
    gen_options o;
    gen_level l;
    int rc;
} job;

static void *run_job(void *arg)
{
    job *j = arg;
    j->rc = gen_generate(&j->o, &j->l);
    return NULL;
}

static void threads_give_the_levels_of_one_thread(void)
{
    enum { N = 4 };
    job jobs[N];
    pthread_t t[N];
    for (int i = 0; i < N; i++) {
        jobs[i].o = options(100 + (uint64_t)(i % 2), 11, 10, 3, GEN_SHAPE_ANY);
        pthread_create(&t[i], NULL, run_job, &jobs[i]);
    }
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < N; i++) {
        gen_level alone;
        CHECK_INT(jobs[i].rc, GEN_OK);
        CHECK_INT(gen_generate(&jobs[i].o, &alone), GEN_OK);
        note("seed %llu", (unsigned long long)jobs[i].o.seed);
        if (jobs[i].l.board != NULL && alone.board != NULL) {
            CHECK_STR(jobs[i].l.board, alone.board);
            CHECK_STR(jobs[i].l.solution, alone.solution);
        }
        gen_level_free(&alone);
        gen_level_free(&jobs[i].l);
    }
}

static void different_seeds_give_different_levels(void)
{
    enum { N = 16 };
    gen_level l[N];
    for (int i = 0; i < N; i++) {
        gen_options o = options(1000 + (uint64_t)i, 10, 10, 2, GEN_SHAPE_ANY);
        CHECK_INT(gen_generate(&o, &l[i]), GEN_OK);
    }
    for (int i = 0; i < N; i++) {
        for (int j = i + 1; j < N; j++) {
            if (l[i].board != NULL && l[j].board != NULL && strcmp(l[i].board, l[j].board) == 0)
                check_fail(__FILE__, __LINE__, "seeds %d and %d gave the same level:\n%s", 1000 + i,
                           1000 + j, l[i].board);
        }
    }
    for (int i = 0; i < N; i++)
        gen_level_free(&l[i]);
}

static void every_level_is_valid_and_solved_by_its_solution(void)
{
    static const uint16_t sizes[][2] = {{6, 7}, {8, 10}, {12, 12}, {16, 9}, {20, 14}};
    uint64_t seed = 7;
    for (int shape = GEN_SHAPE_OPEN; shape < GEN_SHAPE_COUNT; shape++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            for (uint16_t boxes = 1; boxes <= 4; boxes++) {
                /* A box needs room: about a dozen squares of the area each. */
                if ((sizes[s][0] - 2) * (sizes[s][1] - 2) < 12 * boxes)
                    continue;
                gen_options o = options(seed++, sizes[s][0], sizes[s][1], boxes, shape);
                o.candidates = 1;
                gen_level l;
                int rc = gen_generate(&o, &l);
                if (rc != GEN_OK) {
                    check_fail(__FILE__, __LINE__, "seed %llu, %ux%u, %u boxes, shape %s: %s",
                               (unsigned long long)o.seed, o.width, o.height, o.boxes,
                               gen_shape_name(shape), gen_error_name(rc));
                    continue;
                }
                check_level(&o, &l);
                gen_level_free(&l);
            }
        }
    }
}

/* The pull search finds each position at its fewest pushes: the solver's
 * push-optimal search must agree on small levels. */
static void solutions_have_the_fewest_pushes(void)
{
    for (uint64_t seed = 1; seed <= 12; seed++) {
        gen_options o = options(seed * 31, 9, 8, (uint16_t)(1 + seed % 2), GEN_SHAPE_ANY);
        gen_level l;
        if (gen_generate(&o, &l) != GEN_OK) {
            check_fail(__FILE__, __LINE__, "seed %llu gave no level", (unsigned long long)o.seed);
            continue;
        }
        soko_level *lvl = level_from_text(l.board);
        if (lvl != NULL) {
            solver_options so;
            solver_options_default(&so);
            so.optimal = true;
            so.node_limit = 2000000;
            solver_result r;
            solver_solve_level(lvl, &so, &r);
            note("seed %llu:\n%s", (unsigned long long)o.seed, l.board);
            CHECK_INT(r.status, SOLVER_SOLVED);
            if (r.status == SOLVER_SOLVED)
                CHECK_INT(l.pushes, r.pushes);
            solver_result_free(&r);
            free(lvl);
        }
        gen_level_free(&l);
    }
}

static void the_solver_check_solves_the_level(void)
{
    gen_options o = options(5, 12, 12, 3, GEN_SHAPE_ANY);
    o.verify_nodes = 1000000;
    gen_level l;
    CHECK_INT(gen_generate(&o, &l), GEN_OK);
    CHECK_INT(l.solver_status, SOLVER_SOLVED);
    gen_level_free(&l);
}

static void options_out_of_bounds_are_refused(void)
{
    gen_level l;
    gen_options o = options(1, GEN_MIN_SIDE - 1, 10, 2, GEN_SHAPE_ANY);
    CHECK_INT(gen_generate(&o, &l), GEN_E_OPTIONS);
    CHECK(l.board == NULL);
    o = options(1, 10, GEN_MAX_SIDE + 1, 2, GEN_SHAPE_ANY);
    CHECK_INT(gen_generate(&o, &l), GEN_E_OPTIONS);
    o = options(1, 10, 10, 0, GEN_SHAPE_ANY);
    CHECK_INT(gen_generate(&o, &l), GEN_E_OPTIONS);
    o = options(1, 10, 10, GEN_MAX_BOXES + 1, GEN_SHAPE_ANY);
    CHECK_INT(gen_generate(&o, &l), GEN_E_OPTIONS);
    o = options(1, 10, 10, 2, GEN_SHAPE_COUNT);
    CHECK_INT(gen_generate(&o, &l), GEN_E_OPTIONS);
}

static void an_unreachable_score_gives_no_level(void)
{
    gen_options o = options(3, 7, 7, 1, GEN_SHAPE_ANY);
    o.min_score = 100000;
    o.candidates = 1;
    gen_level l;
    CHECK_INT(gen_generate(&o, &l), GEN_E_NOT_FOUND);
    CHECK(l.board == NULL && l.solution == NULL);
}

int main(void)
{
    RUN(same_seed_gives_same_bytes);
    RUN(threads_give_the_levels_of_one_thread);
    RUN(different_seeds_give_different_levels);
    RUN(every_level_is_valid_and_solved_by_its_solution);
    RUN(solutions_have_the_fewest_pushes);
    RUN(the_solver_check_solves_the_level);
    RUN(options_out_of_bounds_are_refused);
    RUN(an_unreachable_score_gives_no_level);
    return check_finish();
}
