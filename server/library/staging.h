/* Uploads staged in the database (storage_staging.h), so that an upload's
 * parts, its check and its import may reach any node: its bytes as the
 * parts arrive, then its check report, until it is imported, discarded or
 * left alone for three hours. Its check and the solver's verdicts on its
 * levels are jobs in the database (jobs.h): any node runs them, and one
 * that stopped midway leaves them to the others. */
#ifndef SOKOD_STAGING_H
#define SOKOD_STAGING_H

#include "library/audit.h"
#include "library/check.h"
#include "library/library.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum staging_status {
    STAGING_OK,
    STAGING_NOT_FOUND,
    STAGING_TOO_LARGE,   /* beyond the upload cap */
    STAGING_BAD_OFFSET,  /* a part that does not continue the bytes received, or overruns */
    STAGING_WRONG_STATE, /* still receiving, being checked, or imported already */
    STAGING_FULL,        /* too many uploads waiting, or too many bytes arriving */
    STAGING_FAILED,      /* out of memory, or the database failed (logged) */
};

/* Sets the caps: the largest file (max_upload) and the largest request
 * body (which bounds the part size it advertises). With solver_seconds > 0,
 * each checked upload's valid levels wait for the background solvability
 * check (see solvecheck.h), up to that long each and solver_budget seconds
 * for all the levels of one upload (0: no budget); the levels whose turn
 * comes once it is spent are CHECK_SOLVER_OVER_BUDGET. The check of one
 * upload replays its solutions up to check_steps steps in all
 * (check_run_within). */
void staging_start(size_t max_upload, size_t max_body, unsigned solver_seconds,
                   uint64_t check_steps, unsigned solver_budget);

/* The upload cap, in bytes. */
size_t staging_max_upload(void);

/* Wakes the jobs' thread (solvecheck.c) up to stop. */
void staging_stop(void);

/* Starts an upload of `size` bytes (1 to the cap) for admin `owner`, with
 * its first n bytes (0 to size) stored in the same transaction; sets *id,
 * and *complete when those are all its bytes. STAGING_FULL past the caps:
 * uploads kept but not imported, or bytes arriving. */
enum staging_status staging_create(int64_t owner, const char *filename, enum check_format format,
                                   size_t size, const void *bytes, size_t n, int64_t *id,
                                   bool *complete);

/* Settles the uploads that a stopped node left: those being checked by a
 * node that is gone (with node_alone, every check: this process is the
 * database's only node; else the checks begun ten minutes ago) go back
 * to "complete". Lists in ids (up to max) the complete uploads, which
 * wait for a check nobody runs; returns their number (0 on failure,
 * logged). */
size_t staging_settle(bool node_alone, int64_t *ids, size_t max);

/* Adds n bytes at `offset`, which must be the number received so far.
 * Sets *complete when every byte is in. */
enum staging_status staging_append(int64_t id, size_t offset, const void *bytes, size_t n,
                                   size_t *received, bool *complete);

/* Checks a complete upload (slow: run it off the HTTP threads) and stores
 * its report; its bytes stay for the import. */
enum staging_status staging_check(int64_t id);

/* Imports a checked upload's levels in one transaction, which holds the
 * upload's row (slow too: the file is checked again first). The result is in *out, the library's
 * verdict in *lib (LIBRARY_STORAGE with the STORAGE_* code in *storage). Returns STAGING_OK when
 * the import ran, whatever its verdict. */
enum staging_status staging_import(int64_t id, const struct library_target *t,
                                   const struct audit_actor *who, struct library_result *out,
                                   enum library_status *lib, int *storage);

/* Forgets an upload (not while it is being checked, unless the check
 * began ten minutes ago, on a node that stopped since). */
enum staging_status staging_discard(int64_t id);

/* The upload as JSON, with its report's levels when `levels` is true.
 * NULL with *status set when there is no such upload or no memory. */
json_t *staging_json(int64_t id, bool levels, enum staging_status *status);

/* Every upload waiting, without levels. */
json_t *staging_list_json(void);

/* ---- For the solver thread ----------------------------------------------------------------- */

/* One level to solve. */
struct staging_job {
    int64_t upload;
    size_t index;
    int64_t job;         /* its row in the jobs table */
    char *board;         /* malloc'd copy of its normalised rows */
    unsigned seconds;    /* the solver's time limit on it */
    volatile int cancel; /* set when the upload goes away or sokod stops */
};

/* Runs the jobs due that are not a search (upload checks) and waits for
 * the next level to solve, taken from the jobs of every node; fills *job
 * (marking the level running). Returns false when sokod is stopping. */
bool staging_next_job(struct staging_job *job);

/* Records a job's result in its upload's report, and in the library when
 * the level was imported meanwhile; frees the job's board. */
void staging_job_done(struct staging_job *job, enum check_solver status, uint32_t moves,
                      uint32_t pushes, double seconds);

/* Seconds the solver gives each level (0 when off). */
unsigned staging_solver_seconds(void);

#endif
