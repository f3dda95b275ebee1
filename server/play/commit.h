/* Group commit: one thread runs the writes of many requests in one
 * transaction, and tells each of them how it ended only after the commit.
 * A commit costs the same whether it holds one request or hundreds, and
 * the thread's own database connection keeps its page cache warm. */
#ifndef SOKOD_COMMIT_H
#define SOKOD_COMMIT_H

#include "storage/storage.h"

#include <stdbool.h>
#include <stdint.h>

/* The most jobs in one transaction. */
#define COMMIT_MAX_BATCH 512
/* How many times a job runs again after a serialization failure or a
 * deadlock undid it (STORAGE_RETRY), each in a later batch after
 * storage_retry_pause; past that, finish gets STORAGE_RETRY. */
#define COMMIT_RETRIES STORAGE_RETRIES

/* One request's share of a batch. The job's memory belongs to its submitter
 * and must stay valid until finish has been called. */
struct commit_job {
    /* Jobs with the same non-zero key never share a batch, and run in the
     * order they were submitted (for a game: its id). */
    int64_t key;
    /* Runs on the committer thread inside the batch's transaction, under a
     * savepoint of its own: STORAGE_OK keeps what it wrote, any other code
     * undoes it (the rest of the batch still commits). */
    int (*run)(struct commit_job *j);
    /* Runs once the transaction has ended: `status` is STORAGE_OK when what
     * run kept is committed, or the STORAGE_* code of the failure. `ran`
     * is false when the transaction could not start and run was never
     * called. The job may be freed from here on. */
    void (*finish)(struct commit_job *j, int status, bool ran);
    /* Optional: undoes what run did to the job and to memory, after a
     * serialization failure or a deadlock undid its writes, so that run
     * may run again. Without it such a job is finished with STORAGE_RETRY. */
    void (*reset)(struct commit_job *j);
    /* Optional: names the rows run will lock (storage_game_lock_ahead),
     * before the batch begins. On PostgreSQL a batch whose jobs all have
     * it and reset runs in a few round trips whatever its size: BEGIN
     * and every named row locked and read in one, the jobs' writes sent
     * with the COMMIT in another, and no savepoint. A failure in it undoes
     * the batch, which then runs again at once, each job under a savepoint
     * of its own, so that the failing job fails alone. */
    void (*ahead)(struct commit_job *j);
    /* The committer's own: when the job's wait for a locked database ends
     * (STORAGE_BUSY_MS after its submission), the runs it had, and the
     * queue's link. */
    int64_t deadline_ms;
    unsigned runs;
    struct commit_job *next;
};

/* Starts the committer thread. Returns 0, or -1 (not started). */
int commit_start(void);

/* Queues j for the next batch. When the committer is not running (never
 * started, or stopping), runs j in a transaction of its own on the calling
 * thread before returning. A database locked by another process is waited
 * for up to STORAGE_BUSY_MS from this call, however many batches go
 * before j; past that, finish gets STORAGE_BUSY. A job undone by a
 * serialization failure or a deadlock runs again (COMMIT_RETRIES). */
void commit_submit(struct commit_job *j);

/* Runs every queued job, then stops the thread (its connection closes). */
void commit_stop(void);

#endif
