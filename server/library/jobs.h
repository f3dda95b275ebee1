/* Background jobs in the database (storage_jobs.h), so that any node
 * finishes what a stopped node left: an upload's check and the solver's
 * verdicts on its levels. A job's life:
 *   waiting --a node takes it--> running (leased to that node, the lease
 *   renewed every JOBS_LEASE_SECONDS / 3 while it runs)
 *   running --done--> deleted
 *   running --failed--> waiting (a pause of JOBS_RETRY_SECONDS per
 *     attempt), or failed with its reason after JOBS_MAX_ATTEMPTS
 *   running --its node stops: the lease runs out--> taken again by any
 *     node, or failed ("its node stopped") after JOBS_MAX_ATTEMPTS
 * On SQLite (one process per database) the jobs that a killed process
 * held are due again as soon as the next one starts. */
#ifndef SOKOD_JOBS_H
#define SOKOD_JOBS_H

#include "storage/storage_jobs.h"

#include <stdbool.h>
#include <stdint.h>

#define JOBS_LEASE_SECONDS 15
#define JOBS_RETRY_SECONDS 2
#define JOBS_MAX_ATTEMPTS 3

/* This node's name in the jobs it holds: host, process and start. This
 * function can't fail. */
const char *jobs_node(void);

/* Starts the thread that renews this node's leases (on SQLite, after
 * handing back the jobs of the process that ran before). -1 when the
 * thread cannot start. */
int jobs_start(void);

/* Stops that thread and ends this node's leases, so that another node
 * (or the next start) takes its jobs at once. */
void jobs_stop(void);

/* In the open transaction: adds a job of `kind` on the upload's level
 * `index`, leased to this node when `now_here` (it runs at once, here;
 * jobs_hold it once committed), else waiting for any node. */
int jobs_add(const char *kind, int64_t upload, int64_t index, bool now_here, int64_t *id);

/* Takes a job due (level_solver jobs only when `solver`), in a
 * transaction of its own, and holds it. False when none is due or the
 * database failed. */
bool jobs_take(bool solver, struct storage_job *job);

/* Whether a job is due for this node (level_solver jobs only when
 * `solver`): one read, outside any transaction. */
bool jobs_due(bool solver);

/* In the open transaction: renews this node's lease on job `id`;
 * STORAGE_NOT_FOUND when this node no longer holds it. */
int jobs_still_held(int64_t id);

/* Renews the lease on job `id` while this node runs it (up to 16 at
 * once; beyond, a lease runs out and another node may run the job too). */
void jobs_hold(int64_t id);

/* In the open transaction: deletes job `id`, done. Let it go once
 * committed. */
int jobs_done_in(int64_t id);

/* Stops renewing job `id`'s lease. */
void jobs_let_go(int64_t id);

/* Notes that job `id` failed for `reason` (retried later, or failed for
 * good), in a transaction of its own, and lets it go. */
void jobs_fail(int64_t id, const char *reason);

#endif
