/* The worker pools (server/http/worker.c): owners' jobs take turns, an
 * owner with one job waiting goes before those that flood, and the caps
 * refuse jobs past them. One thread runs the pool; a first job holds it
 * while the others queue, then the order they ran in is compared. */
#include "http/worker.h"
#include "check.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
static bool gate_open, gate_entered;

/* Holds the pool's thread until the gate opens. */
static void hold(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&gate_lock);
    gate_entered = true;
    pthread_cond_broadcast(&gate_cond);
    while (!gate_open)
        pthread_cond_wait(&gate_cond, &gate_lock);
    pthread_mutex_unlock(&gate_lock);
}

/* The jobs in the order they ran: each job's arg is its name. */
static const char *ran[128];
static unsigned nran;

static void record(void *arg)
{
    ran[nran++] = arg;
}

static void jobs_take_turns_and_a_quiet_owner_goes_first(void)
{
    const unsigned threads[WORKER_POOLS] = {[WORKER_AUTH] = 1};
    worker_cap(WORKER_AUTH, 64, 4);
    CHECK_INT(worker_start(threads), 0);
    CHECK_INT(worker_submit_from(WORKER_AUTH, "holder", hold, NULL), WORKER_QUEUED);
    pthread_mutex_lock(&gate_lock);
    while (!gate_entered)
        pthread_cond_wait(&gate_cond, &gate_lock);
    pthread_mutex_unlock(&gate_lock);

    /* 8 owners flood, 6 jobs each: 4 wait, 2 are refused. */
    static char names[8][6][16];
    unsigned refused = 0;
    for (int j = 0; j < 6; j++) {
        for (int a = 0; a < 8; a++) {
            char owner[16];
            snprintf(owner, sizeof owner, "flood %d", a);
            snprintf(names[a][j], sizeof names[a][j], "flood %d.%d", a, j);
            if (worker_submit_from(WORKER_AUTH, owner, record, names[a][j]) == WORKER_FULL)
                refused++;
        }
    }
    CHECK_INT(refused, 16);
    CHECK_INT(worker_submit_from(WORKER_AUTH, "quiet", record, "quiet"), WORKER_QUEUED);

    pthread_mutex_lock(&gate_lock);
    gate_open = true;
    pthread_cond_broadcast(&gate_cond);
    pthread_mutex_unlock(&gate_lock);
    worker_stop();

    char order[2048] = "";
    for (unsigned i = 0; i < nran; i++) {
        strncat(order, ran[i], sizeof order - strlen(order) - 1);
        strncat(order, i + 1 < nran ? ", " : "", sizeof order - strlen(order) - 1);
    }
    note("ran: %s", order);
    CHECK_INT(nran, 33);
    /* The flooders' first jobs came while they had nothing waiting, but
     * their second made them flooders: the quiet owner goes first. */
    CHECK_STR(ran[0], "quiet");
    /* Then one job of each flooder in turn, in order. */
    for (unsigned i = 1; i < nran; i++) {
        char want[16];
        snprintf(want, sizeof want, "flood %u.%u", (i - 1) % 8, (i - 1) / 8);
        CHECK_MSG(strcmp(ran[i], want) == 0, "job %u is %s, expected %s", i, ran[i], want);
    }
}

static void the_cap_in_all_refuses_past_it(void)
{
    const unsigned threads[WORKER_POOLS] = {[WORKER_AUTH] = 1};
    worker_cap(WORKER_AUTH, 4, 0);
    gate_open = false;
    gate_entered = false;
    nran = 0;
    CHECK_INT(worker_start(threads), 0);
    CHECK_INT(worker_submit_from(WORKER_AUTH, "holder", hold, NULL), WORKER_QUEUED);
    pthread_mutex_lock(&gate_lock);
    while (!gate_entered)
        pthread_cond_wait(&gate_cond, &gate_lock);
    pthread_mutex_unlock(&gate_lock);
    static char names[6][16];
    unsigned queued = 0;
    for (int i = 0; i < 6; i++) {
        snprintf(names[i], sizeof names[i], "owner %d", i);
        queued += worker_submit_from(WORKER_AUTH, names[i], record, names[i]) == WORKER_QUEUED;
    }
    CHECK_INT(queued, 4);
    /* worker_submit knows no cap: its callers cannot take a refusal. */
    CHECK(worker_submit(WORKER_AUTH, record, "uncapped"));
    pthread_mutex_lock(&gate_lock);
    gate_open = true;
    pthread_cond_broadcast(&gate_cond);
    pthread_mutex_unlock(&gate_lock);
    worker_stop();
    CHECK_INT(nran, 5);
    CHECK_INT(worker_submit_from(WORKER_AUTH, "late", record, "late"), WORKER_STOPPED);
}

int main(void)
{
    RUN(jobs_take_turns_and_a_quiet_owner_goes_first);
    RUN(the_cap_in_all_refuses_past_it);
    return check_finish();
}
