/* Storage: background jobs, leased to one node at a time. */
#include "storage/storage_jobs.h"

#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <stdio.h>
#include <string.h>

static const char SQL_ADD[] =
    "INSERT INTO jobs (kind, upload_id, level_index, state, node, lease_until, created_at) "
    "VALUES (?1, ?2, ?3, CASE WHEN CAST(?4 AS TEXT) IS NULL THEN 'waiting' ELSE 'running' END, ?4, "
    "?5, ?6) "
    "RETURNING id";

int storage_jobs_add(const char *kind, int64_t upload, int64_t index, const char *node,
                     int64_t lease_until, int64_t now, int64_t *id)
{
    struct sql_stmt *st = storage_stmt(SQL_ADD);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_text(st, 1, kind);
    sql_bind_int64(st, 2, upload);
    sql_bind_int64(st, 3, index);
    if (node != NULL)
        sql_bind_text(st, 4, node);
    else
        sql_bind_null(st, 4);
    sql_bind_int64(st, 5, node != NULL ? lease_until : 0);
    sql_bind_int64(st, 6, now);
    return storage_exec_insert(st, id, "adding a job");
}

/* Jobs due that were tried too often: their node stopped each time. */
static const char SQL_GIVE_UP[] = "UPDATE jobs SET state = 'failed', node = NULL, error = ?3 "
                                  "WHERE state = 'running' AND lease_until < ?1 AND attempts >= ?2";

/* The oldest job due, leased in the same statement. SQLite has one writer
 * at a time (this is inside BEGIN IMMEDIATE); PostgreSQL's nodes each take
 * another row, none waiting for the row another node is taking. */
#define TAKE_HEAD                                                                                  \
    "UPDATE jobs SET state = 'running', node = ?1, lease_until = ?2, attempts = attempts + 1 "     \
    "WHERE id = (SELECT id FROM jobs WHERE state IN ('waiting', 'running') AND lease_until < ?3 "  \
    "AND (?4 = 1 OR kind <> 'level_solver') ORDER BY id LIMIT 1"
#define TAKE_TAIL ") RETURNING id, kind, upload_id, level_index, attempts"
static const char SQL_TAKE_LITE[] = TAKE_HEAD TAKE_TAIL;
static const char SQL_TAKE_PG[] = TAKE_HEAD " FOR UPDATE SKIP LOCKED" TAKE_TAIL;

int storage_jobs_take(const char *node, bool solver, int64_t now, int64_t lease_until,
                      int64_t max_attempts, const char *stopped, struct storage_job *job)
{
    struct sql_stmt *st = storage_stmt(SQL_GIVE_UP);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, now);
    sql_bind_int64(st, 2, max_attempts);
    sql_bind_text(st, 3, stopped);
    int status = storage_exec_stmt(st, "giving up jobs whose nodes stopped");
    if (status != STORAGE_OK)
        return status;
    st = storage_stmt(storage_dialect(SQL_TAKE_LITE, SQL_TAKE_PG));
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_text(st, 1, node);
    sql_bind_int64(st, 2, lease_until);
    sql_bind_int64(st, 3, now);
    sql_bind_int64(st, 4, solver ? 1 : 0);
    status = storage_first_row(st, "taking a job");
    if (status != STORAGE_OK)
        return status;
    memset(job, 0, sizeof *job);
    job->id = sql_column_int64(st, 0);
    snprintf(job->kind, sizeof job->kind, "%s", sql_column_text(st, 1));
    job->upload = sql_column_int64(st, 2);
    job->index = sql_column_int64(st, 3);
    job->attempts = sql_column_int64(st, 4);
    sql_reset(st);
    return STORAGE_OK;
}

static const char SQL_RENEW[] = "UPDATE jobs SET lease_until = ?3 "
                                "WHERE id = ?1 AND node = ?2 AND state = 'running'";

int storage_jobs_renew(const char *node, const int64_t *ids, size_t n, int64_t lease_until)
{
    int status = STORAGE_OK;
    for (size_t i = 0; i < n && status == STORAGE_OK; i++) {
        struct sql_stmt *st = storage_stmt(SQL_RENEW);
        if (st == NULL)
            return STORAGE_ERROR;
        sql_bind_int64(st, 1, ids[i]);
        sql_bind_text(st, 2, node);
        sql_bind_int64(st, 3, lease_until);
        status = storage_exec_stmt(st, "renewing a job's lease");
    }
    return status;
}

static const char SQL_DONE[] = "DELETE FROM jobs WHERE id = ?";

int storage_jobs_done(int64_t id)
{
    struct sql_stmt *st = storage_stmt(SQL_DONE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    return storage_exec_stmt(st, "deleting a job done");
}

static const char SQL_FAILED[] =
    "UPDATE jobs SET state = CASE WHEN attempts >= ?3 THEN 'failed' ELSE 'waiting' END, "
    "node = NULL, lease_until = ?4, error = ?2 WHERE id = ?1";

int storage_jobs_failed(int64_t id, const char *reason, int64_t max_attempts, int64_t retry_at)
{
    struct sql_stmt *st = storage_stmt(SQL_FAILED);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_text(st, 2, reason);
    sql_bind_int64(st, 3, max_attempts);
    sql_bind_int64(st, 4, retry_at);
    return storage_exec_stmt(st, "noting a job's failure");
}

static const char SQL_RELEASE[] = "UPDATE jobs SET lease_until = 0 WHERE state = 'running' AND "
                                  "(CAST(?1 AS TEXT) IS NULL OR node = ?1)";

int storage_jobs_release(const char *node)
{
    struct sql_stmt *st = storage_stmt(SQL_RELEASE);
    if (st == NULL)
        return STORAGE_ERROR;
    if (node != NULL)
        sql_bind_text(st, 1, node);
    else
        sql_bind_null(st, 1);
    return storage_exec_stmt(st, "handing back the jobs of a stopped server");
}

static const char SQL_DUE[] =
    "SELECT count(*) FROM (SELECT 1 FROM jobs WHERE state IN ('waiting', 'running') "
    "AND lease_until < ?1 AND (?2 = 1 OR kind <> 'level_solver') LIMIT 1) AS due";

int storage_jobs_due(int64_t now, bool solver, bool *due)
{
    struct sql_stmt *st = storage_stmt(SQL_DUE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, now);
    sql_bind_int64(st, 2, solver ? 1 : 0);
    int64_t n = 0;
    int status = storage_first_int64(st, &n, "looking for jobs due");
    *due = n > 0;
    return status;
}

int storage_jobs_still_held(int64_t id, const char *node, int64_t lease_until)
{
    struct sql_stmt *st = storage_stmt(SQL_RENEW);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_text(st, 2, node);
    sql_bind_int64(st, 3, lease_until);
    return storage_exec_changed(st, "renewing a job's lease");
}

static const char SQL_DROP[] = "DELETE FROM jobs WHERE upload_id = ?1 AND kind = ?2";

int storage_jobs_drop(int64_t upload, const char *kind)
{
    struct sql_stmt *st = storage_stmt(SQL_DROP);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, upload);
    sql_bind_text(st, 2, kind);
    return storage_exec_stmt(st, "dropping an upload's jobs");
}
