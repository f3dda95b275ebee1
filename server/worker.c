/* The worker pool: a mutex-protected FIFO of jobs and a few threads. */
#include "worker.h"

#include <pthread.h>
#include <stdlib.h>

#define MAX_WORKERS 16

struct job {
    void (*fn)(void *arg);
    void *arg;
    struct job *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static struct job *head, *tail;
static bool running;
static pthread_t threads[MAX_WORKERS];
static unsigned nthreads;

static void *worker_main(void *unused)
{
    (void)unused;
    pthread_setname_np(pthread_self(), "sokod-work"); /* as top -H shows it */
    pthread_mutex_lock(&lock);
    for (;;) {
        while (head == NULL && running)
            pthread_cond_wait(&wake, &lock);
        if (head == NULL)
            break;
        struct job *j = head;
        head = j->next;
        if (head == NULL)
            tail = NULL;
        pthread_mutex_unlock(&lock);
        j->fn(j->arg);
        free(j);
        pthread_mutex_lock(&lock);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

int worker_start(unsigned n)
{
    if (n == 0 || n > MAX_WORKERS)
        n = n == 0 ? 1 : MAX_WORKERS;
    pthread_mutex_lock(&lock);
    running = true;
    pthread_mutex_unlock(&lock);
    for (nthreads = 0; nthreads < n; nthreads++) {
        if (pthread_create(&threads[nthreads], NULL, worker_main, NULL) != 0) {
            worker_stop();
            return -1;
        }
    }
    return 0;
}

bool worker_submit(void (*fn)(void *arg), void *arg)
{
    struct job *j = malloc(sizeof *j);
    if (j == NULL)
        return false;
    j->fn = fn;
    j->arg = arg;
    j->next = NULL;
    pthread_mutex_lock(&lock);
    if (!running) {
        pthread_mutex_unlock(&lock);
        free(j);
        return false;
    }
    if (tail != NULL)
        tail->next = j;
    else
        head = j;
    tail = j;
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&lock);
    return true;
}

void worker_stop(void)
{
    pthread_mutex_lock(&lock);
    running = false;
    pthread_cond_broadcast(&wake);
    pthread_mutex_unlock(&lock);
    for (unsigned i = 0; i < nthreads; i++)
        pthread_join(threads[i], NULL);
    nthreads = 0;
}
