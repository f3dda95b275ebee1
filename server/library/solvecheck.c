/* The jobs' thread: upload checks left by other nodes, and the solver's
 * searches of uploaded levels, one at a time. */
#include "library/solvecheck.h"

#include "http/worker.h"
#include "library/staging.h"

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
    staging_job_done(job, status, r.moves, r.pushes, r.seconds);
    solver_result_free(&r);
}

static void *main_loop(void *unused)
{
    (void)unused;
    pthread_setname_np(pthread_self(), "sokod-solve"); /* as top -H shows it */
    worker_lower_priority(); /* a search may use a core for long: requests come first */
    soko_level *lvl = malloc(sizeof *lvl);
    struct staging_job job;
    memset(&job, 0, sizeof job);
    while (lvl != NULL && staging_next_job(&job))
        solve(&job, lvl, job.seconds);
    free(lvl);
    return NULL;
}

int solvecheck_start(void)
{
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
