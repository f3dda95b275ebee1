/* The solvability check thread. */
#include "solvecheck.h"

#include "staging.h"
#include "storage_admin.h"

#include "soko.h"
#include "solver.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Memory for one search: the server has other work to do. */
#define SEARCH_MEMORY ((uint64_t)256 << 20)

static pthread_t thread;
static bool running;

/* Writes a result into the library, for a level imported meanwhile. */
static void record(int64_t level, enum check_solver status, uint32_t moves, uint32_t pushes)
{
    int rc = storage_begin();
    if (rc == STORAGE_OK)
        rc = storage_level_set_solver(level, check_solver_name(status), moves, pushes);
    if (rc == STORAGE_OK)
        rc = storage_commit();
    else
        storage_rollback();
    if (rc != STORAGE_OK)
        fprintf(stderr, "sokod: could not record the solver's result for level %lld\n",
                (long long)level);
}

static void solve(struct staging_job *job, soko_level *lvl, unsigned seconds)
{
    soko_error err;
    enum check_solver status = CHECK_SOLVER_UNKNOWN;
    solver_result r;
    memset(&r, 0, sizeof r);
    if (soko_level_parse(lvl, job->board, (uint32_t)strlen(job->board), 1, &err) == SOKO_OK) {
        solver_options opt;
        solver_options_default(&opt);
        opt.time_limit = seconds;
        opt.memory_limit = SEARCH_MEMORY;
        opt.cancel = &job->cancel;
        solver_solve_level(lvl, &opt, &r);
        status = r.status == SOLVER_SOLVED       ? CHECK_SOLVER_SOLVABLE
                 : r.status == SOLVER_UNSOLVABLE ? CHECK_SOLVER_UNSOLVABLE
                                                 : CHECK_SOLVER_UNKNOWN;
    }
    int64_t imported = staging_job_done(job, status, r.moves, r.pushes, r.seconds);
    if (imported != 0 && job->cancel == 0)
        record(imported, status, r.moves, r.pushes);
    solver_result_free(&r);
}

static void *main_loop(void *unused)
{
    (void)unused;
    soko_level *lvl = malloc(sizeof *lvl);
    struct staging_job job;
    memset(&job, 0, sizeof job);
    while (lvl != NULL && staging_next_job(&job))
        solve(&job, lvl, staging_solver_seconds());
    free(lvl);
    return NULL;
}

int solvecheck_start(void)
{
    if (staging_solver_seconds() == 0)
        return 0;
    if (pthread_create(&thread, NULL, main_loop, NULL) != 0)
        return -1;
    running = true;
    return 0;
}

void solvecheck_stop(void)
{
    if (!running)
        return;
    pthread_join(thread, NULL);
    running = false;
}
