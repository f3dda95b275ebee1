/* The worker pools: each a mutex-protected FIFO of jobs and a few threads. */
#include "http/worker.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#define MAX_WORKERS 16

/* The nice value of upload work: the scheduler then gives a thread of
 * normal priority about nine tenths of a contended core. Players' work
 * (generated levels) keeps the normal priority: it is capped instead. */
#define LOW_PRIORITY 10

struct job {
    void (*fn)(void *arg);
    void *arg;
    struct job *next;
};

struct pool {
    const char *thread_name; /* as top -H shows it */
    bool low_priority;
    struct job *head, *tail;
    pthread_cond_t wake;
    pthread_t threads[MAX_WORKERS];
    unsigned nthreads;
};

/* One lock for every queue: taking a job is a few pointer moves. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bool running;
static struct pool pools[WORKER_POOLS] = {
    [WORKER_AUTH] = {.thread_name = "sokod-auth", .wake = PTHREAD_COND_INITIALIZER},
    [WORKER_HINTS] = {.thread_name = "sokod-hint", .wake = PTHREAD_COND_INITIALIZER},
    [WORKER_LEVELS] = {.thread_name = "sokod-levels", .wake = PTHREAD_COND_INITIALIZER},
    [WORKER_UPLOADS] = {.thread_name = "sokod-upload",
                        .low_priority = true,
                        .wake = PTHREAD_COND_INITIALIZER},
};

void worker_lower_priority(void)
{
    /* On Linux a thread id names one thread: only this one is lowered. */
    if (setpriority(PRIO_PROCESS, (id_t)gettid(), LOW_PRIORITY) != 0)
        perror("sokod: lowering a worker's priority");
}

static void *worker_main(void *arg)
{
    struct pool *p = arg;
    pthread_setname_np(pthread_self(), p->thread_name);
    if (p->low_priority)
        worker_lower_priority();
    pthread_mutex_lock(&lock);
    for (;;) {
        while (p->head == NULL && running)
            pthread_cond_wait(&p->wake, &lock);
        if (p->head == NULL)
            break;
        struct job *j = p->head;
        p->head = j->next;
        if (p->head == NULL)
            p->tail = NULL;
        pthread_mutex_unlock(&lock);
        j->fn(j->arg);
        free(j);
        pthread_mutex_lock(&lock);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

int worker_start(const unsigned threads[WORKER_POOLS])
{
    pthread_mutex_lock(&lock);
    running = true;
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < WORKER_POOLS; i++) {
        struct pool *p = &pools[i];
        unsigned n = threads[i] == 0 ? 1 : threads[i] > MAX_WORKERS ? MAX_WORKERS : threads[i];
        for (p->nthreads = 0; p->nthreads < n; p->nthreads++) {
            if (pthread_create(&p->threads[p->nthreads], NULL, worker_main, p) != 0) {
                worker_stop();
                return -1;
            }
        }
    }
    return 0;
}

bool worker_submit(enum worker_pool pool, void (*fn)(void *arg), void *arg)
{
    struct job *j = malloc(sizeof *j);
    if (j == NULL)
        return false;
    j->fn = fn;
    j->arg = arg;
    j->next = NULL;
    struct pool *p = &pools[pool];
    pthread_mutex_lock(&lock);
    if (!running) {
        pthread_mutex_unlock(&lock);
        free(j);
        return false;
    }
    if (p->tail != NULL)
        p->tail->next = j;
    else
        p->head = j;
    p->tail = j;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&lock);
    return true;
}

void worker_stop(void)
{
    pthread_mutex_lock(&lock);
    running = false;
    for (int i = 0; i < WORKER_POOLS; i++)
        pthread_cond_broadcast(&pools[i].wake);
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < WORKER_POOLS; i++) {
        for (unsigned t = 0; t < pools[i].nthreads; t++)
            pthread_join(pools[i].threads[t], NULL);
        pools[i].nthreads = 0;
    }
}
