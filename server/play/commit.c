/* Group commit: a FIFO of jobs and the thread that runs them in batches. */
#include "play/commit.h"

#include "base/clock.h"
#include "base/metrics.h"
#include "storage/storage.h"
#include "storage/storage_games.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Open addressing for the keys of the batch being formed: twice its size. */
#define KEY_BITS 10
#define KEY_SLOTS (1u << KEY_BITS)
/* How far down the queue a batch looks for jobs whose key is free. */
#define SCAN_LIMIT (COMMIT_MAX_BATCH * 4)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static struct commit_job *head, *tail;
static bool running, stopping;
/* The committer waits on `wake` with an empty queue: only then does a
 * submission signal it. */
static bool idle;
static pthread_t committer;

/* Keys taken by the batch being formed: a slot counts when its stamp is
 * the batch's, so nothing needs clearing between batches. */
static int64_t key_of[KEY_SLOTS];
static uint32_t key_stamp[KEY_SLOTS];
static uint32_t batch_stamp;

/* Marks key as taken by this batch; false when it was already. */
static bool take_key(int64_t key)
{
    unsigned i = (unsigned)((uint64_t)key * 0x9E3779B97F4A7C15ull >> (64 - KEY_BITS));
    while (key_stamp[i] == batch_stamp) {
        if (key_of[i] == key)
            return false;
        i = (i + 1) & (KEY_SLOTS - 1);
    }
    key_stamp[i] = batch_stamp;
    key_of[i] = key;
    return true;
}

/* Moves up to COMMIT_MAX_BATCH jobs from the queue into batch, oldest
 * first, leaving in place any job whose key the batch holds already.
 * Called with the lock held. */
static unsigned take_batch(struct commit_job **batch)
{
    batch_stamp++;
    if (batch_stamp == 0) {
        memset(key_stamp, 0, sizeof key_stamp);
        batch_stamp = 1;
    }
    unsigned n = 0, scanned = 0;
    struct commit_job *prev = NULL, *j = head;
    while (j != NULL && n < COMMIT_MAX_BATCH && scanned < SCAN_LIMIT) {
        struct commit_job *next = j->next;
        scanned++;
        if (j->key != 0 && !take_key(j->key)) {
            prev = j;
        } else {
            if (prev != NULL)
                prev->next = next;
            else
                head = next;
            if (tail == j)
                tail = prev;
            batch[n++] = j;
        }
        j = next;
    }
    metrics_commit_queued(-(int)n);
    return n;
}

/* Puts jobs back at the head of the queue, in their order: they were the
 * oldest of their keys, so each key's order holds. */
static void requeue(struct commit_job **jobs, unsigned n)
{
    if (n == 0)
        return;
    pthread_mutex_lock(&lock);
    for (unsigned i = n; i-- > 0;) {
        jobs[i]->next = head;
        head = jobs[i];
        if (tail == NULL)
            tail = jobs[i];
    }
    metrics_commit_queued((int)n);
    pthread_mutex_unlock(&lock);
}

/* The transaction could not start. A busy database was waited for until
 * the earliest deadline of the batch (`until`): the jobs at their deadline
 * get STORAGE_BUSY, the others wait again, each up to its own deadline,
 * unless SQLite gave up before `until` (it would again). */
static void refuse_batch(struct commit_job **batch, unsigned n, int status, int64_t until)
{
    struct commit_job *later[COMMIT_MAX_BATCH];
    unsigned nlater = 0;
    int64_t now = clock_mono_ms();
    bool waited = status == STORAGE_BUSY && now >= until;
    for (unsigned i = 0; i < n; i++) {
        if (waited && batch[i]->deadline_ms > now)
            later[nlater++] = batch[i];
        else
            batch[i]->finish(batch[i], status, false);
    }
    requeue(later, nlater);
}

static int by_key(const void *a, const void *b)
{
    int64_t x = (*(struct commit_job *const *)a)->key, y = (*(struct commit_job *const *)b)->key;
    return (x > y) - (x < y);
}

/* Sorts a batch by key. The jobs of a batch have different keys (but for
 * those of key 0, which have no order to keep), so no game's order
 * changes; the batches of every node then lock games' rows (PostgreSQL's
 * FOR UPDATE) in one order, and two nodes never wait for each other in a
 * circle. */
static void sort_by_key(struct commit_job **batch, unsigned n)
{
    qsort(batch, n, sizeof batch[0], by_key);
}

/* Whether a job that ended with status may run again: undone by a
 * serialization failure or a deadlock, with runs left and a way to undo
 * what its run did. */
static bool may_run_again(const struct commit_job *j, int status, bool ran)
{
    return status == STORAGE_RETRY && ran && j->reset != NULL && j->runs <= COMMIT_RETRIES;
}

/* Whether the batch may run ahead (see commit_job's `ahead`): on a
 * database server, every job naming its rows and able to run again. */
static bool may_run_ahead(struct commit_job **batch, unsigned n)
{
    if (!storage_is_server())
        return false;
    for (unsigned i = 0; i < n; i++) {
        if (batch[i]->ahead == NULL || batch[i]->reset == NULL)
            return false;
    }
    return true;
}

/* Runs n jobs in one transaction without savepoints, their rows locked
 * and read in one statement and their writes sent with the COMMIT.
 * Returns STORAGE_OK when it committed (the jobs are to be finished), or
 * the failure's code after undoing it all: *began is then false when the
 * transaction could not start (nothing ran), else every job that ran has
 * been reset and its run uncounted. */
static int run_ahead(struct commit_job **batch, unsigned n, int64_t until, bool *began)
{
    for (unsigned i = 0; i < n; i++)
        batch[i]->ahead(batch[i]);
    storage_defer_writes(true);
    int status = storage_begin_until(until);
    *began = status == STORAGE_OK;
    if (status == STORAGE_OK)
        status = storage_games_read_ahead(clock_now());
    unsigned ran = 0;
    while (status == STORAGE_OK && ran < n) {
        batch[ran]->runs++;
        status = batch[ran]->run(batch[ran]);
        ran++;
    }
    if (status == STORAGE_OK)
        status = storage_commit();
    else if (*began)
        storage_rollback();
    storage_defer_writes(false);
    storage_games_forget_ahead();
    if (status != STORAGE_OK) {
        for (unsigned i = 0; i < ran; i++) {
            batch[i]->reset(batch[i]);
            batch[i]->runs--;
        }
    }
    return status;
}

/* Runs n jobs in one transaction, each under its own savepoint, then
 * finishes every one of them but those a serialization failure or a
 * deadlock undid and that may run again: those are reset and put in again
 * (room for n), and their count returned. The transaction waits for a
 * locked database no later than the earliest deadline of its jobs. A
 * batch that may run ahead does so first (run_ahead), and only when that
 * fails, job by job. */
static unsigned run_batch(struct commit_job **batch, unsigned n, struct commit_job **again)
{
    sort_by_key(batch, n);
    int64_t until = INT64_MAX;
    for (unsigned i = 0; i < n; i++) {
        if (batch[i]->deadline_ms < until)
            until = batch[i]->deadline_ms;
    }
    uint64_t trips = storage_round_trips();
    if (may_run_ahead(batch, n)) {
        bool began;
        int status = run_ahead(batch, n, until, &began);
        if (status == STORAGE_OK) {
            metrics_commit_batch(n);
            metrics_commit_round_trips(storage_round_trips() - trips);
            for (unsigned i = 0; i < n; i++)
                batch[i]->finish(batch[i], STORAGE_OK, true);
            return 0;
        }
        if (!began) {
            refuse_batch(batch, n, status, until);
            return 0;
        }
    }
    int status = storage_begin_until(until);
    if (status != STORAGE_OK) {
        refuse_batch(batch, n, status, until);
        return 0;
    }
    int outcome[COMMIT_MAX_BATCH];
    bool ran[COMMIT_MAX_BATCH];
    bool broken = false; /* the transaction is lost: nothing of it commits */
    for (unsigned i = 0; i < n; i++) {
        ran[i] = false;
        outcome[i] = broken ? STORAGE_ERROR : storage_savepoint();
        if (outcome[i] != STORAGE_OK)
            continue;
        ran[i] = true;
        batch[i]->runs++;
        outcome[i] = batch[i]->run(batch[i]);
        if (outcome[i] == STORAGE_OK)
            outcome[i] = storage_release_savepoint();
        else if (storage_undo_to_savepoint() != STORAGE_OK)
            broken = true;
    }
    if (broken) {
        storage_rollback();
        status = STORAGE_ERROR;
    } else {
        status = storage_commit();
    }
    if (status == STORAGE_OK) {
        metrics_commit_batch(n);
        metrics_commit_round_trips(storage_round_trips() - trips);
    }
    unsigned nagain = 0;
    for (unsigned i = 0; i < n; i++) {
        int s = outcome[i] != STORAGE_OK ? outcome[i] : status;
        if (broken && s == STORAGE_OK)
            s = STORAGE_ERROR;
        if (may_run_again(batch[i], s, ran[i])) {
            batch[i]->reset(batch[i]);
            again[nagain++] = batch[i];
        } else {
            batch[i]->finish(batch[i], s, ran[i]);
        }
    }
    return nagain;
}

/* The most runs any of n jobs has had. */
static unsigned most_runs(struct commit_job **jobs, unsigned n)
{
    unsigned most = 0;
    for (unsigned i = 0; i < n; i++) {
        if (jobs[i]->runs > most)
            most = jobs[i]->runs;
    }
    return most;
}

static void *committer_main(void *unused)
{
    (void)unused;
    pthread_setname_np(pthread_self(), "sokod-commit"); /* as top -H shows it */
    static struct commit_job *batch[COMMIT_MAX_BATCH], *again[COMMIT_MAX_BATCH];
    pthread_mutex_lock(&lock);
    for (;;) {
        while (head == NULL && !stopping) {
            idle = true;
            pthread_cond_wait(&wake, &lock);
        }
        idle = false;
        if (head == NULL)
            break;
        unsigned n = take_batch(batch);
        pthread_mutex_unlock(&lock);
        unsigned nagain = run_batch(batch, n, again);
        if (nagain > 0) {
            /* They were the oldest of their keys: back at the head of the
             * queue, each key's order holds. */
            storage_retry_pause(most_runs(again, nagain));
            requeue(again, nagain);
        }
        pthread_mutex_lock(&lock);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

int commit_start(void)
{
    pthread_mutex_lock(&lock);
    stopping = false;
    running = pthread_create(&committer, NULL, committer_main, NULL) == 0;
    pthread_mutex_unlock(&lock);
    return running ? 0 : -1;
}

void commit_submit(struct commit_job *j)
{
    j->next = NULL;
    j->runs = 0;
    j->deadline_ms = clock_mono_ms() + STORAGE_BUSY_MS;
    pthread_mutex_lock(&lock);
    if (running && !stopping) {
        if (tail != NULL)
            tail->next = j;
        else
            head = j;
        tail = j;
        metrics_commit_queued(1);
        /* A busy committer finds the job when its batch ends. A sleeping
         * one is signalled once, after the unlock: woken under the lock,
         * it would wait for the lock again, two more system calls. */
        bool signal = idle;
        idle = false;
        pthread_mutex_unlock(&lock);
        if (signal)
            pthread_cond_signal(&wake);
        return;
    }
    pthread_mutex_unlock(&lock);
    struct commit_job *alone[1] = {j}, *again[1];
    while (run_batch(alone, 1, again) > 0)
        storage_retry_pause(j->runs);
}

void commit_stop(void)
{
    pthread_mutex_lock(&lock);
    if (!running) {
        pthread_mutex_unlock(&lock);
        return;
    }
    stopping = true;
    pthread_cond_broadcast(&wake);
    pthread_mutex_unlock(&lock);
    pthread_join(committer, NULL);
    pthread_mutex_lock(&lock);
    running = false;
    stopping = false;
    pthread_mutex_unlock(&lock);
}
