/* Storage of background jobs (the jobs table), shared by every node on
 * the database: a job is taken by leasing it to one node for a while; a
 * job whose lease ran out (its node stopped) is taken again by any node.
 * Times are Unix milliseconds. Writes run inside the caller's transaction
 * (storage_begin). */
#ifndef SOKOD_STORAGE_JOBS_H
#define SOKOD_STORAGE_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One job as it was taken. */
struct storage_job {
    int64_t id;
    char kind[16]; /* "upload_check" or "level_solver" */
    int64_t upload;
    int64_t index;    /* the level's place in the upload's report */
    int64_t attempts; /* counting the one just begun */
};

/* Adds a job of `kind` on the upload's level `index`. With node not NULL,
 * the job is leased to that node until lease_until (it runs at once,
 * there); else it waits. Sets *id. */
int storage_jobs_add(const char *kind, int64_t upload, int64_t index, const char *node,
                     int64_t lease_until, int64_t now, int64_t *id);

/* Takes the oldest job due (waiting past its pause, or running past its
 * lease) of the kinds allowed, leasing it to `node` until lease_until and
 * counting an attempt: one statement, which on PostgreSQL skips the jobs
 * other nodes are taking (FOR UPDATE SKIP LOCKED). Jobs due that were
 * tried max_attempts times already end failed instead, their reason
 * `stopped`. STORAGE_NOT_FOUND when no job is due. */
int storage_jobs_take(const char *node, bool solver, int64_t now, int64_t lease_until,
                      int64_t max_attempts, const char *stopped, struct storage_job *job);

/* Extends the leases that `node` holds on the jobs ids[0..n) to
 * lease_until. */
int storage_jobs_renew(const char *node, const int64_t *ids, size_t n, int64_t lease_until);

/* Deletes a job done. */
int storage_jobs_done(int64_t id);

/* A job that failed: back to waiting until retry_at, or failed with
 * `reason` once it was tried max_attempts times. */
int storage_jobs_failed(int64_t id, const char *reason, int64_t max_attempts, int64_t retry_at);

/* Whether a job is due (storage_jobs_take would take one), read
 * outside any transaction, so that idle nodes ask cheaply. */
int storage_jobs_due(int64_t now, bool solver, bool *due);

/* Renews the lease on job `id` if `node` still holds it; STORAGE_NOT_FOUND
 * when it does not (the job was deleted or taken over meanwhile). */
int storage_jobs_still_held(int64_t id, const char *node, int64_t lease_until);

/* Deletes the upload's jobs of `kind`, whatever their state. */
int storage_jobs_drop(int64_t upload, const char *kind);

/* Ends the leases of every job that `node` (NULL: any node) holds, so
 * that they are due at once: on SQLite, at start, the jobs of the process
 * that ran before; on a clean stop, this node's. */
int storage_jobs_release(const char *node);

#endif
