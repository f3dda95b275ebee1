/* Background jobs: this node's name, the leases it holds and the thread
 * that renews them. */
#include "library/jobs.h"

#include "base/clock.h"
#include "storage/storage.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_HELD 16

static pthread_once_t node_once = PTHREAD_ONCE_INIT;
static char node[64];

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static int64_t held[MAX_HELD]; /* 0: a free slot */
static bool stopping, running;
static pthread_t thread;

static void make_node(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    char host[24] = "";
    gethostname(host, sizeof host - 1);
    snprintf(node, sizeof node, "%s/%d.%lx", host, (int)getpid(), (unsigned long)t.tv_nsec);
}

const char *jobs_node(void)
{
    pthread_once(&node_once, make_node);
    return node;
}

static int64_t lease_until(void)
{
    return clock_now_ms() + (int64_t)JOBS_LEASE_SECONDS * 1000;
}

void jobs_hold(int64_t id)
{
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < MAX_HELD; i++) {
        if (held[i] == 0) {
            held[i] = id;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
}

void jobs_let_go(int64_t id)
{
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < MAX_HELD; i++)
        if (held[i] == id)
            held[i] = 0;
    pthread_mutex_unlock(&lock);
}

/* Renews the leases held, in one short transaction. */
static void renew(void)
{
    int64_t ids[MAX_HELD];
    size_t n = 0;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < MAX_HELD; i++)
        if (held[i] != 0)
            ids[n++] = held[i];
    pthread_mutex_unlock(&lock);
    if (n == 0)
        return;
    int status;
    unsigned runs = 0;
    do {
        status = storage_begin();
        if (status == STORAGE_OK)
            status = storage_jobs_renew(jobs_node(), ids, n, lease_until());
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    if (status != STORAGE_OK)
        fprintf(stderr, "sokod: could not renew the leases on this node's jobs\n");
}

static void *keeper(void *unused)
{
    (void)unused;
    pthread_setname_np(pthread_self(), "sokod-jobs");
    pthread_mutex_lock(&lock);
    while (!stopping) {
        struct timespec at;
        clock_gettime(CLOCK_REALTIME, &at);
        at.tv_sec += JOBS_LEASE_SECONDS / 3;
        pthread_cond_timedwait(&wake, &lock, &at);
        if (stopping)
            break;
        pthread_mutex_unlock(&lock);
        renew();
        pthread_mutex_lock(&lock);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

int jobs_start(void)
{
    if (!storage_is_server()) {
        int status;
        unsigned runs = 0;
        do {
            status = storage_begin();
            if (status == STORAGE_OK)
                status = storage_jobs_release(NULL);
            status = storage_finish(status);
        } while (storage_again(status, &runs));
        if (status != STORAGE_OK)
            fprintf(stderr, "sokod: could not hand back the jobs of the server that ran before\n");
    }
    pthread_mutex_lock(&lock);
    stopping = false;
    memset(held, 0, sizeof held);
    pthread_mutex_unlock(&lock);
    if (pthread_create(&thread, NULL, keeper, NULL) != 0)
        return -1;
    running = true;
    return 0;
}

void jobs_stop(void)
{
    if (!running)
        return;
    pthread_mutex_lock(&lock);
    stopping = true;
    pthread_cond_broadcast(&wake);
    pthread_mutex_unlock(&lock);
    pthread_join(thread, NULL);
    running = false;
    int status;
    unsigned runs = 0;
    do {
        status = storage_begin();
        if (status == STORAGE_OK)
            status = storage_jobs_release(jobs_node());
        status = storage_finish(status);
    } while (storage_again(status, &runs));
}

bool jobs_due(bool solver)
{
    bool due = false;
    return storage_jobs_due(clock_now_ms(), solver, &due) == STORAGE_OK && due;
}

int jobs_still_held(int64_t id)
{
    return storage_jobs_still_held(id, jobs_node(), lease_until());
}

int jobs_add(const char *kind, int64_t upload, int64_t index, bool now_here, int64_t *id)
{
    return storage_jobs_add(kind, upload, index, now_here ? jobs_node() : NULL, lease_until(),
                            clock_now_ms(), id);
}

bool jobs_take(bool solver, struct storage_job *job)
{
    int status;
    unsigned runs = 0;
    do {
        status = storage_begin();
        if (status == STORAGE_OK)
            status = storage_jobs_take(
                jobs_node(), solver, clock_now_ms(), lease_until(), JOBS_MAX_ATTEMPTS,
                "its node stopped before it was done, each time it ran", job);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    if (status != STORAGE_OK)
        return false;
    jobs_hold(job->id);
    return true;
}

int jobs_done_in(int64_t id)
{
    return storage_jobs_done(id);
}

void jobs_fail(int64_t id, const char *reason)
{
    int status;
    unsigned runs = 0;
    int64_t attempts_pause = (int64_t)JOBS_RETRY_SECONDS * 1000;
    do {
        status = storage_begin();
        if (status == STORAGE_OK)
            status =
                storage_jobs_failed(id, reason, JOBS_MAX_ATTEMPTS, clock_now_ms() + attempts_pause);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    jobs_let_go(id);
    fprintf(stderr, "sokod: job %lld failed: %s\n", (long long)id, reason);
}
