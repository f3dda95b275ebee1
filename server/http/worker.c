/* The worker pools: each a few threads and the jobs waiting for them,
 * queued by owner (a client's address; "" for work of no client's).
 *
 * An owner with jobs waiting is on one of two lists of its pool:
 * - fresh: owners with one job waiting, that were waiting for nothing when
 *   it came, in the order they came;
 * - served: owners with more, in turn.
 * A job of an owner with nothing waiting puts that owner at the end of
 * `fresh`; a second job moves it to the end of `served`; any job joins its
 * owner's own queue. A free thread takes the first job of the first owner
 * of `fresh`, else of `served`, and puts that owner, if it has more jobs
 * waiting, at the end of `served`. So owners that flood take turns, one
 * job each, and a client that asks for one job at a time waits only for
 * the jobs running and for other such clients, not for the flood (as
 * fq_codel's new flows go before its old ones). A pool may cap the jobs
 * waiting in all and per owner (worker_cap): past a cap a job is refused,
 * never queued. */
#include "http/worker.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define MAX_WORKERS 16
#define OWNER_MAX 64

/* The nice value of upload work: the scheduler then gives a thread of
 * normal priority about nine tenths of a contended core. Players' work
 * (generated levels) keeps the normal priority: it is capped instead. */
#define LOW_PRIORITY 10

struct job {
    void (*fn)(void *arg);
    void *arg;
    struct job *next;
};

/* An owner with jobs waiting, on its pool's fresh or served list. */
struct owner {
    char name[OWNER_MAX];
    struct job *head, *tail;
    unsigned waiting;
    struct owner *next;
};

struct owner_list {
    struct owner *head, *tail;
};

struct pool {
    const char *thread_name; /* as top -H shows it */
    bool low_priority;
    struct owner_list fresh, served;
    unsigned waiting;            /* jobs waiting, of every owner */
    unsigned cap, cap_per_owner; /* 0: none */
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

static void list_append(struct owner_list *l, struct owner *o)
{
    o->next = NULL;
    if (l->tail != NULL)
        l->tail->next = o;
    else
        l->head = o;
    l->tail = o;
}

static struct owner *list_pop(struct owner_list *l)
{
    struct owner *o = l->head;
    if (o != NULL) {
        l->head = o->next;
        if (l->head == NULL)
            l->tail = NULL;
    }
    return o;
}

static struct owner *list_find(const struct owner_list *l, const char *name)
{
    for (struct owner *o = l->head; o != NULL; o = o->next)
        if (strcmp(o->name, name) == 0)
            return o;
    return NULL;
}

static void list_remove(struct owner_list *l, struct owner *o)
{
    struct owner *prev = NULL;
    for (struct owner *at = l->head; at != NULL; prev = at, at = at->next) {
        if (at != o)
            continue;
        if (prev != NULL)
            prev->next = o->next;
        else
            l->head = o->next;
        if (l->tail == o)
            l->tail = prev;
        return;
    }
}

/* The next job of p in turn, or NULL when none waits. Called with the lock held. */
static struct job *next_job(struct pool *p)
{
    struct owner *o = list_pop(&p->fresh);
    if (o == NULL)
        o = list_pop(&p->served);
    if (o == NULL)
        return NULL;
    struct job *j = o->head;
    o->head = j->next;
    if (o->head == NULL)
        o->tail = NULL;
    o->waiting--;
    p->waiting--;
    if (o->waiting > 0)
        list_append(&p->served, o);
    else
        free(o);
    return j;
}

static void *worker_main(void *arg)
{
    struct pool *p = arg;
    pthread_setname_np(pthread_self(), p->thread_name);
    if (p->low_priority)
        worker_lower_priority();
    pthread_mutex_lock(&lock);
    for (;;) {
        while (p->waiting == 0 && running)
            pthread_cond_wait(&p->wake, &lock);
        struct job *j = next_job(p);
        if (j == NULL)
            break;
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

void worker_cap(enum worker_pool pool, unsigned waiting, unsigned per_owner)
{
    pthread_mutex_lock(&lock);
    pools[pool].cap = waiting;
    pools[pool].cap_per_owner = per_owner;
    pthread_mutex_unlock(&lock);
}

/* Queues fn(arg) for owner, within the pool's caps when `capped`. */
static enum worker_queued submit(enum worker_pool pool, const char *owner, void (*fn)(void *arg),
                                 void *arg, bool capped)
{
    char name[OWNER_MAX];
    snprintf(name, sizeof name, "%s", owner != NULL ? owner : "");
    struct job *j = malloc(sizeof *j);
    if (j == NULL)
        return WORKER_FULL;
    j->fn = fn;
    j->arg = arg;
    j->next = NULL;
    struct pool *p = &pools[pool];
    pthread_mutex_lock(&lock);
    enum worker_queued result = WORKER_QUEUED;
    struct owner *o = NULL;
    if (!running) {
        result = WORKER_STOPPED;
    } else if (capped && p->cap > 0 && p->waiting >= p->cap) {
        result = WORKER_FULL;
    } else {
        bool fresh = true;
        o = list_find(&p->fresh, name);
        if (o == NULL) {
            o = list_find(&p->served, name);
            fresh = false;
        }
        if (o != NULL && capped && p->cap_per_owner > 0 && o->waiting >= p->cap_per_owner) {
            result = WORKER_FULL;
        } else if (o != NULL && fresh) {
            /* A second job waiting: the owner floods, and waits its turn. */
            list_remove(&p->fresh, o);
            list_append(&p->served, o);
        } else if (o == NULL) {
            o = calloc(1, sizeof *o);
            if (o == NULL) {
                result = WORKER_FULL;
            } else {
                memcpy(o->name, name, sizeof o->name);
                list_append(&p->fresh, o);
            }
        }
    }
    if (result != WORKER_QUEUED) {
        pthread_mutex_unlock(&lock);
        free(j);
        return result;
    }
    if (o->tail != NULL)
        o->tail->next = j;
    else
        o->head = j;
    o->tail = j;
    o->waiting++;
    p->waiting++;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&lock);
    return WORKER_QUEUED;
}

enum worker_queued worker_submit_from(enum worker_pool pool, const char *owner,
                                      void (*fn)(void *arg), void *arg)
{
    return submit(pool, owner, fn, arg, true);
}

bool worker_submit(enum worker_pool pool, void (*fn)(void *arg), void *arg)
{
    return submit(pool, "", fn, arg, false) == WORKER_QUEUED;
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
