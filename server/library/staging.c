/* Uploads staged in the database, and the jobs (jobs.h) that check them
 * and ask the solver about their levels, which any node may run.
 *
 * An upload moves through these states, each a row's `state`, so that
 * every node sees where it is:
 *   receiving --last byte in--> complete --a node claims the check-->
 *   checking --report stored--> checked --import commits--> imported
 * The check is an upload_check job (jobs.h) leased to the node that runs
 * it: if that node stops, another takes the job once the lease runs out,
 * and checks the upload again from "checking". The solver's search of
 * each valid level is a level_solver job that any node with the solver
 * on runs. A check that fails puts it back to complete (its job tried
 * again later); discarding deletes it in any state but checking (unless
 * the check began ten minutes ago: its node stopped); three hours unused,
 * the sweeper (or the next upload started) deletes it in any state. The import is one transaction
 * that holds the upload's row, so two nodes asked to import it at once
 * import it once. */
#include "library/staging.h"

#include "base/clock.h"
#include "http/http.h"
#include "library/check_report.h"
#include "library/jobs.h"
#include "storage/storage.h"
#include "storage/storage_admin.h"
#include "storage/storage_staging.h"
#include "storage/storage_work.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Uploads kept at once but not imported (and imported ones kept for their
 * reports), and how many files of the largest size may be arriving (or
 * waiting for their check) at once. */
#define MAX_UPLOADS 64
#define MAX_FILES_IN_FLIGHT 4

/* A check that has run this long is taken for one whose node stopped
 * midway (a check takes seconds: --upload-steps bounds it), and its upload
 * may be discarded. */
#define CHECK_STALE_SECONDS 600

/* How often an idle node looks for jobs that other nodes added or left. */
#define JOBS_POLL_SECONDS 2

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static size_t max_upload = (size_t)32 << 20;
static size_t part_bytes = 48 * 1024;
static unsigned solver_seconds;
static uint64_t check_steps;   /* the replay budget of one upload's check */
static unsigned solver_budget; /* the solver's seconds for one upload's levels */
static bool stopping;
static struct staging_job *current_job; /* the solver's, while it runs */

void staging_start(size_t max_file, size_t max_body, unsigned seconds, uint64_t steps,
                   unsigned solver_seconds_per_upload)
{
    pthread_mutex_lock(&lock);
    max_upload = max_file;
    /* A part travels as base64 in a JSON body, with room for the rest. */
    size_t room = max_body > 1024 ? max_body - 512 : 512;
    part_bytes = room / 4 * 3;
    solver_seconds = seconds;
    check_steps = steps;
    solver_budget = solver_seconds_per_upload;
    stopping = false;
    pthread_mutex_unlock(&lock);
}

size_t staging_max_upload(void)
{
    pthread_mutex_lock(&lock);
    size_t cap = max_upload;
    pthread_mutex_unlock(&lock);
    return cap;
}

void staging_stop(void)
{
    pthread_mutex_lock(&lock);
    stopping = true;
    if (current_job != NULL)
        current_job->cancel = 1;
    pthread_cond_broadcast(&work);
    pthread_mutex_unlock(&lock);
}

unsigned staging_solver_seconds(void)
{
    pthread_mutex_lock(&lock);
    unsigned s = solver_seconds;
    pthread_mutex_unlock(&lock);
    return s;
}

/* The staging status of a storage code; CONFLICT means `conflict`. */
static enum staging_status from_storage(int status, enum staging_status conflict)
{
    return status == STORAGE_OK          ? STAGING_OK
           : status == STORAGE_NOT_FOUND ? STAGING_NOT_FOUND
           : status == STORAGE_CONFLICT  ? conflict
                                         : STAGING_FAILED;
}

enum staging_status staging_create(int64_t owner, const char *filename, enum check_format format,
                                   size_t size, const void *bytes, size_t n, int64_t *id,
                                   bool *complete)
{
    if (size > staging_max_upload())
        return STAGING_TOO_LARGE;
    if (n > size)
        return STAGING_BAD_OFFSET;
    struct storage_upload u = {.owner = owner, .size = (int64_t)size, .created_at = clock_now()};
    snprintf(u.filename, sizeof u.filename, "%s", filename);
    snprintf(u.format, sizeof u.format, "%s",
             format == CHECK_FORMAT_AUTO ? "auto" : check_format_name(format));
    bool full = false;
    int status;
    unsigned runs = 0;
    do {
        int64_t count = 0, arriving = 0;
        full = false;
        status = storage_begin();
        /* The bounds hold across nodes: their creations take turns. */
        if (status == STORAGE_OK)
            status = storage_work_serialize(STORAGE_WORK_STAGING);
        if (status == STORAGE_OK)
            status = storage_staging_expire(u.created_at - STAGING_KEEP_SECONDS, NULL);
        if (status == STORAGE_OK)
            status = storage_staging_prune_imported(MAX_UPLOADS - 1);
        /* A check that a stopped node left halfway goes back to "complete",
         * where an admin's look at the upload runs it again (uploads_get). */
        size_t unchecked = 0;
        if (status == STORAGE_OK)
            status = storage_staging_settle(u.created_at - CHECK_STALE_SECONDS, u.created_at, NULL,
                                            0, &unchecked);
        if (status == STORAGE_OK)
            status = storage_staging_load(&count, &arriving);
        if (status == STORAGE_OK)
            full = count >= MAX_UPLOADS ||
                   (uint64_t)arriving + size > (uint64_t)MAX_FILES_IN_FLIGHT * staging_max_upload();
        if (status == STORAGE_OK && !full)
            status = storage_staging_create(&u, id);
        /* The first part goes in the same transaction: an upload whose
         * creation was never answered (its node stopped) leaves nothing. */
        if (status == STORAGE_OK && !full && n > 0)
            status = storage_staging_append(*id, 0, bytes, n, u.created_at);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    *complete = n == size;
    return status != STORAGE_OK ? STAGING_FAILED : full ? STAGING_FULL : STAGING_OK;
}

size_t staging_settle(bool node_alone, int64_t *ids, size_t max)
{
    int64_t now = clock_now();
    /* On SQLite this process is the only node: whatever says "checking"
     * was being checked by a process that is gone. */
    int64_t stale_before = node_alone ? INT64_MAX : now - CHECK_STALE_SECONDS;
    size_t n = 0;
    int status;
    unsigned runs = 0;
    do {
        n = 0;
        status = storage_begin();
        if (status == STORAGE_OK)
            status = storage_staging_settle(stale_before, now, ids, max, &n);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    if (status != STORAGE_OK)
        return 0;
    return n;
}

enum staging_status staging_append(int64_t id, size_t offset, const void *bytes, size_t n,
                                   size_t *received, bool *complete)
{
    int status, appended;
    struct storage_upload u;
    unsigned runs = 0;
    do {
        appended = STORAGE_ERROR;
        memset(&u, 0, sizeof u);
        status = storage_begin();
        if (status == STORAGE_OK) {
            appended = storage_staging_append(id, (int64_t)offset, bytes, n, clock_now());
            status = appended == STORAGE_OK || appended == STORAGE_CONFLICT ? STORAGE_OK : appended;
        }
        if (status == STORAGE_OK)
            status = storage_staging_get(id, 0, &u);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    if (status != STORAGE_OK)
        return from_storage(status, STAGING_FAILED);
    *received = (size_t)u.received;
    *complete = strcmp(u.state, "receiving") != 0;
    if (appended == STORAGE_CONFLICT)
        return *complete ? STAGING_WRONG_STATE : STAGING_BAD_OFFSET;
    return STAGING_OK;
}

/* Runs storage_staging_move in a transaction of its own. */
static int move(int64_t id, const char *from, const char *to)
{
    int status;
    unsigned runs = 0;
    do {
        status = storage_begin();
        if (status == STORAGE_OK)
            status = storage_staging_move(id, from, to, clock_now());
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    return status;
}

/* Reads the upload's bytes and checks them. NULL when the bytes cannot be
 * read or the check fails (logged). */
static struct check_report *check_bytes(const struct storage_upload *u)
{
    size_t size = (size_t)u->size;
    char *data = malloc(size > 0 ? size : 1);
    if (data == NULL || storage_staging_bytes(u->id, data, size) != STORAGE_OK) {
        free(data);
        return NULL;
    }
    enum check_format format = CHECK_FORMAT_AUTO;
    check_format_parse(u->format, &format);
    pthread_mutex_lock(&lock);
    uint64_t steps = check_steps;
    pthread_mutex_unlock(&lock);
    struct check_report *r = check_run_within(data, size, u->filename, format, true, steps);
    free(data);
    return r;
}

/* The report as JSON text (malloc'd), or NULL when out of memory. */
static char *report_text(const struct check_report *r)
{
    json_t *o = check_report_json(r);
    char *text = o != NULL ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return text;
}

/* In the open transaction: a level_solver job for each of the report's
 * pending levels. */
static int add_level_jobs(int64_t id, const struct check_report *r)
{
    int status = STORAGE_OK;
    for (size_t k = 0; k < r->nlevels && status == STORAGE_OK; k++) {
        int64_t job = 0;
        if (r->levels[k].solver == CHECK_SOLVER_PENDING)
            status = jobs_add("level_solver", id, (int64_t)k, false, &job);
    }
    return status;
}

/* Checks upload u, which is "checking" under job `job` (held by this
 * node), and stores its report with its levels' solver jobs, the check's
 * job deleted in the same transaction. A check that fails puts the
 * upload back to "complete" and the job back to wait for another try. */
static enum staging_status check_held(const struct storage_upload *u, int64_t job)
{
    int64_t id = u->id;
    struct check_report *r = check_bytes(u);
    unsigned seconds = staging_solver_seconds();
    int64_t total = 0;
    for (size_t k = 0; r != NULL && seconds > 0 && k < r->nlevels; k++) {
        if (r->levels[k].valid) {
            r->levels[k].solver = CHECK_SOLVER_PENDING;
            total++;
        }
    }
    bool readable = r != NULL;
    char *text = readable ? report_text(r) : NULL;
    int status;
    unsigned runs = 0;
    do {
        status = text != NULL ? storage_begin() : STORAGE_ERROR;
        if (status == STORAGE_OK)
            status = storage_staging_checked(id, text, total, clock_now());
        if (status == STORAGE_OK)
            status = add_level_jobs(id, r);
        if (status == STORAGE_OK)
            status = storage_jobs_drop(id, "upload_check");
        if (text != NULL)
            status = storage_finish(status);
    } while (storage_again(status, &runs));
    free(text);
    check_report_free(r);
    if (status == STORAGE_OK) {
        jobs_let_go(job);
        pthread_mutex_lock(&lock);
        pthread_cond_broadcast(&work); /* this node's solver may start at once */
        pthread_mutex_unlock(&lock);
        return STAGING_OK;
    }
    if (status == STORAGE_CONFLICT) { /* expired meanwhile: the job went with it */
        jobs_let_go(job);
        return STAGING_NOT_FOUND;
    }
    move(id, "checking", "complete");
    jobs_fail(job, !readable ? "the upload's bytes could not be read or checked (out of memory, or "
                               "its parts do not make its size)"
                             : "its report could not be stored (out of memory, or the database "
                               "failed)");
    return STAGING_FAILED;
}

enum staging_status staging_check(int64_t id)
{
    struct storage_upload u;
    int64_t job = 0;
    int status;
    unsigned runs = 0;
    do {
        status = storage_begin();
        if (status == STORAGE_OK)
            status = storage_staging_move(id, "complete", "checking", clock_now());
        if (status == STORAGE_OK)
            status = storage_staging_get(id, 0, &u);
        /* The check is a job leased to this node, so that another node
         * (or the next start) checks the upload if this one stops. */
        if (status == STORAGE_OK)
            status = storage_jobs_drop(id, "upload_check");
        if (status == STORAGE_OK)
            status = jobs_add("upload_check", id, 0, true, &job);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    if (status != STORAGE_OK)
        return from_storage(status, STAGING_WRONG_STATE);
    jobs_hold(job);
    /* Outside any transaction: the row says "checking", which no other node
     * claims while this node's lease on the job holds, and the bytes stay
     * for the import's check. */
    return check_held(&u, job);
}

/* Runs an upload_check job taken from the database: its upload waits
 * ("complete") or was being checked by a node whose lease ran out. */
static void run_upload_check(const struct storage_job *job)
{
    struct storage_upload u;
    bool check = false;
    int status;
    unsigned runs = 0;
    do {
        check = false;
        status = storage_begin();
        if (status == STORAGE_OK)
            status = jobs_still_held(job->id);
        if (status == STORAGE_OK)
            status = storage_staging_get(job->upload, 0, &u);
        if (status == STORAGE_OK)
            check = strcmp(u.state, "complete") == 0 || strcmp(u.state, "checking") == 0;
        /* From "checking" too: the check begins again now. */
        if (status == STORAGE_OK && check)
            status = storage_staging_move(job->upload, u.state, "checking", clock_now());
        /* Checked or imported meanwhile: nothing left to do. */
        if (status == STORAGE_OK && !check)
            status = jobs_done_in(job->id);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    if (status == STORAGE_OK && check) {
        fprintf(stderr, "sokod: checking upload %lld (attempt %lld)\n", (long long)job->upload,
                (long long)job->attempts);
        check_held(&u, job->id);
        return;
    }
    jobs_let_go(job->id);
}

/* Gives the levels of r the solver's verdicts recorded in the stored
 * report (text), level by level. */
static void merge_solver(struct check_report *r, const char *text)
{
    json_t *stored = text != NULL ? json_loads(text, 0, NULL) : NULL;
    json_t *levels = json_object_get(stored, "levels");
    for (size_t k = 0; k < r->nlevels && k < json_array_size(levels); k++)
        check_report_solver_read(json_object_get(json_array_get(levels, k), "solver"),
                                 &r->levels[k]);
    json_decref(stored);
}

/* The import's transaction: holds the upload's row, checks it is still
 * checked, imports r's levels and marks it imported. */
static enum staging_status import_in_transaction(int64_t id, struct check_report *r,
                                                 const struct library_target *t,
                                                 const struct audit_actor *who,
                                                 struct library_result *out,
                                                 enum library_status *lib, int *storage)
{
    struct storage_upload u = {0};
    *storage = storage_staging_touch(id, clock_now());
    if (*storage == STORAGE_OK)
        *storage = storage_staging_get(id, 1, &u);
    if (*storage == STORAGE_NOT_FOUND)
        return STAGING_NOT_FOUND;
    if (*storage == STORAGE_OK && strcmp(u.state, "checked") != 0) {
        storage_upload_clear(&u);
        return STAGING_WRONG_STATE;
    }
    if (*storage == STORAGE_OK) {
        merge_solver(r, u.report);
        *lib = library_import(r, t, who, out, storage);
    }
    storage_upload_clear(&u);
    if (*lib == LIBRARY_OK) {
        char *text = report_text(r);
        *storage =
            text != NULL ? storage_staging_imported(id, out->collection_id, text) : STORAGE_ERROR;
        free(text);
        if (*storage != STORAGE_OK)
            *lib = LIBRARY_STORAGE;
    }
    return STAGING_OK;
}

enum staging_status staging_import(int64_t id, const struct library_target *t,
                                   const struct audit_actor *who, struct library_result *out,
                                   enum library_status *lib, int *storage)
{
    *lib = LIBRARY_STORAGE;
    struct storage_upload u;
    *storage = storage_staging_get(id, 0, &u);
    if (*storage == STORAGE_NOT_FOUND)
        return STAGING_NOT_FOUND;
    if (*storage != STORAGE_OK)
        return STAGING_OK;
    if (strcmp(u.state, "checked") != 0)
        return STAGING_WRONG_STATE;
    /* The report is made again from the bytes, on whichever node imports:
     * the same bytes give the same levels, and the library is looked up
     * again inside the transaction anyway. */
    enum staging_status status;
    unsigned runs = 0;
    do {
        /* Made afresh on each run: the import notes its verdicts in it. */
        struct check_report *r = check_bytes(&u);
        if (r == NULL) {
            *storage = STORAGE_ERROR;
            return STAGING_OK;
        }
        status = STAGING_OK;
        *lib = LIBRARY_STORAGE;
        memset(out, 0, sizeof *out);
        *storage = storage_begin();
        if (*storage == STORAGE_OK)
            status = import_in_transaction(id, r, t, who, out, lib, storage);
        if (status == STAGING_OK && *lib == LIBRARY_OK)
            *storage = storage_finish(STORAGE_OK);
        else
            storage_rollback();
        if (status == STAGING_OK && *lib == LIBRARY_OK && *storage != STORAGE_OK)
            *lib = LIBRARY_STORAGE;
        check_report_free(r);
    } while (status == STAGING_OK && storage_again(*storage, &runs));
    return status;
}

enum staging_status staging_discard(int64_t id)
{
    int status;
    unsigned runs = 0;
    do {
        status = storage_begin();
        if (status == STORAGE_OK)
            status = storage_staging_delete(id, clock_now() - CHECK_STALE_SECONDS);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    if (status == STORAGE_OK) {
        pthread_mutex_lock(&lock);
        if (current_job != NULL && current_job->upload == id)
            current_job->cancel = 1;
        pthread_mutex_unlock(&lock);
    }
    return from_storage(status, STAGING_WRONG_STATE);
}

/* The upload as the API shows it; its report (JSON text, or NULL) with or
 * without its levels. */
static json_t *upload_json(const struct storage_upload *u, const char *report, bool levels)
{
    pthread_mutex_lock(&lock);
    json_int_t part = (json_int_t)part_bytes, cap = (json_int_t)max_upload;
    int seconds = (int)solver_seconds;
    pthread_mutex_unlock(&lock);
    json_t *o = json_pack(
        "{s:I,s:I,s:o,s:s,s:I,s:I,s:s,s:I,s:I,s:o,s:o}", "id", (json_int_t)u->id, "owner_id",
        (json_int_t)u->owner, "file", http_json_text(u->filename), "format", u->format, "size",
        (json_int_t)u->size, "received", (json_int_t)u->received, "state", u->state, "part_bytes",
        part, "max_bytes", cap, "created_at", http_json_time(u->created_at), "collection_id",
        u->collection_id != 0 ? json_integer(u->collection_id) : json_null());
    if (o == NULL)
        return NULL;
    json_t *solver = json_null();
    if (u->solver_total > 0)
        solver = json_pack("{s:I,s:I,s:i}", "done", (json_int_t)u->solver_done, "total",
                           (json_int_t)u->solver_total, "seconds_per_level", seconds);
    json_object_set_new(o, "solver", solver);
    json_t *r = report != NULL ? json_loads(report, 0, NULL) : NULL;
    if (r != NULL && !levels)
        json_object_del(r, "levels");
    json_object_set_new(o, "report", r != NULL ? r : json_null());
    return o;
}

json_t *staging_json(int64_t id, bool levels, enum staging_status *status)
{
    struct storage_upload u = {0};
    int rc;
    unsigned runs = 0;
    do {
        storage_upload_clear(&u);
        rc = storage_begin();
        if (rc == STORAGE_OK)
            rc = storage_staging_touch(id, clock_now());
        if (rc == STORAGE_OK)
            rc = storage_staging_get(id, 1, &u);
        rc = storage_finish(rc);
    } while (storage_again(rc, &runs));
    json_t *o = rc == STORAGE_OK ? upload_json(&u, u.report, levels) : NULL;
    storage_upload_clear(&u);
    *status = rc != STORAGE_OK ? from_storage(rc, STAGING_FAILED)
              : o == NULL      ? STAGING_FAILED
                               : STAGING_OK;
    return o;
}

static int list_one(const struct storage_upload *u, void *arg)
{
    json_t *o = upload_json(u, u->report, false);
    return o != NULL && json_array_append_new(arg, o) == 0 ? 0 : 1;
}

json_t *staging_list_json(void)
{
    json_t *list = json_array();
    int status;
    unsigned runs = 0;
    do {
        json_array_clear(list);
        status = list != NULL ? storage_begin() : STORAGE_ERROR;
        if (status == STORAGE_OK)
            status = storage_staging_expire(clock_now() - STAGING_KEEP_SECONDS, NULL);
        if (status == STORAGE_OK)
            status = storage_staging_each(list_one, list);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    if (status != STORAGE_OK) {
        json_decref(list);
        return NULL;
    }
    return list;
}

/* Sets level `index` of the upload's stored report to the solver's status
 * (and its counts), adding `done` levels done and `ms` of solver time,
 * in the open transaction; *imported gets the level's id once imported.
 * STORAGE_NOT_FOUND when the upload is gone. */
static int record_solver(int64_t id, size_t index, const struct check_level *verdict, int64_t done,
                         int64_t ms, int64_t *imported)
{
    struct storage_upload u = {0};
    int status = storage_staging_touch(id, clock_now());
    if (status == STORAGE_OK)
        status = storage_staging_get(id, 1, &u);
    json_t *r = status == STORAGE_OK && u.report != NULL ? json_loads(u.report, 0, NULL) : NULL;
    storage_upload_clear(&u);
    json_t *level = json_array_get(json_object_get(r, "levels"), index);
    if (status == STORAGE_OK && level == NULL)
        status = STORAGE_NOT_FOUND;
    char *text = NULL;
    if (status == STORAGE_OK) {
        *imported = json_integer_value(json_object_get(level, "imported_id"));
        json_object_set_new(level, "solver", check_report_solver_json(verdict));
        text = json_dumps(r, JSON_COMPACT);
        status = text != NULL ? storage_staging_report(id, text, done, ms) : STORAGE_ERROR;
    }
    free(text);
    json_decref(r);
    return status;
}

/* record_solver in a transaction of its own, with the verdict of an
 * imported level written into the library, and the level's job (unless
 * 0) deleted, in the same transaction. */
static void record_solver_alone(int64_t id, size_t index, const struct check_level *verdict,
                                int64_t done, int64_t ms, bool keep, int64_t job)
{
    int status;
    unsigned runs = 0;
    do {
        int64_t imported = 0;
        status = storage_begin();
        if (status == STORAGE_OK)
            status = record_solver(id, index, verdict, done, ms, &imported);
        if (status == STORAGE_OK && keep && imported != 0 &&
            verdict->solver != CHECK_SOLVER_OVER_BUDGET)
            status = storage_level_set_solver(imported, check_solver_name(verdict->solver),
                                              verdict->solver_moves, verdict->solver_pushes);
        if (status == STORAGE_OK && job != 0)
            status = jobs_done_in(job);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    if (status != STORAGE_OK && status != STORAGE_NOT_FOUND)
        fprintf(stderr, "sokod: could not record the solver's verdict on upload %lld\n",
                (long long)id);
}

/* Row i of rows, "" when it is not a string. */
static const char *row_text(const json_t *rows, size_t i)
{
    const char *row = json_string_value(json_array_get(rows, i));
    return row != NULL ? row : "";
}

/* The board of level `index` of the stored report (its rows joined by
 * newlines, malloc'd), or NULL when the report has no such valid level. */
static char *stored_board(const char *report, int64_t index)
{
    json_t *r = report != NULL ? json_loads(report, 0, NULL) : NULL;
    json_t *rows =
        json_object_get(json_array_get(json_object_get(r, "levels"), (size_t)index), "rows");
    size_t len = 0;
    for (size_t i = 0; i < json_array_size(rows); i++)
        len += strlen(row_text(rows, i)) + 1;
    char *board = len > 0 ? malloc(len + 1) : NULL;
    if (board != NULL) {
        size_t at = 0;
        for (size_t i = 0; i < json_array_size(rows); i++) {
            const char *row = row_text(rows, i);
            size_t n = strlen(row);
            memcpy(board + at, row, n);
            at += n;
            board[at++] = '\n';
        }
        board[at] = '\0';
    }
    json_decref(r);
    return board;
}

/* Waits until a job may be due (a level checked here, or the next look),
 * or sokod stops. The lock is held. */
static void wait_for_work(void)
{
    struct timespec at;
    clock_gettime(CLOCK_REALTIME, &at);
    at.tv_sec += JOBS_POLL_SECONDS;
    if (!stopping)
        pthread_cond_timedwait(&work, &lock, &at);
}

/* Prepares a level_solver job taken from the database for the solver:
 * true with *job filled and the level marked running; false when there is
 * nothing to solve (the upload is gone, or its budget is spent: the level
 * is then over budget), the job done. */
static bool prepare_level(const struct storage_job *taken, unsigned seconds, unsigned budget,
                          struct staging_job *job)
{
    struct storage_upload u;
    int status = storage_staging_get(taken->upload, 1, &u);
    char *board = status == STORAGE_OK ? stored_board(u.report, taken->index) : NULL;
    /* An upload's levels share one budget of solver time, so that a file
     * of many hard levels cannot keep the solver for hours. */
    double left = budget > 0 ? budget - (double)u.solver_ms / 1000 : seconds;
    storage_upload_clear(&u);
    if (board == NULL) {
        if (status == STORAGE_OK)
            jobs_fail(taken->id, "the level is not in the upload's report");
        else
            jobs_let_go(taken->id);
        return false;
    }
    struct check_level verdict = {.solver =
                                      left < 1 ? CHECK_SOLVER_OVER_BUDGET : CHECK_SOLVER_RUNNING};
    record_solver_alone(taken->upload, (size_t)taken->index, &verdict, left < 1, 0, false,
                        left < 1 ? taken->id : 0);
    if (left < 1) {
        free(board);
        jobs_let_go(taken->id);
        return false;
    }
    job->upload = taken->upload;
    job->index = (size_t)taken->index;
    job->job = taken->id;
    job->board = board;
    job->seconds = left < seconds ? (unsigned)left : seconds;
    job->cancel = 0;
    return true;
}

bool staging_next_job(struct staging_job *job)
{
    pthread_mutex_lock(&lock);
    while (!stopping) {
        unsigned seconds = solver_seconds, budget = solver_budget;
        pthread_mutex_unlock(&lock);
        struct storage_job taken;
        bool got = jobs_due(seconds > 0) && jobs_take(seconds > 0, &taken);
        bool ready = false;
        if (got && strcmp(taken.kind, "upload_check") == 0)
            run_upload_check(&taken);
        else if (got)
            ready = prepare_level(&taken, seconds, budget, job);
        pthread_mutex_lock(&lock);
        if (ready && stopping) { /* left to another node, or the next start */
            free(job->board);
            job->board = NULL;
            jobs_let_go(job->job);
        } else if (ready) {
            current_job = job;
            pthread_mutex_unlock(&lock);
            return true;
        } else if (!got) {
            wait_for_work();
        }
    }
    pthread_mutex_unlock(&lock);
    return false;
}

void staging_job_done(struct staging_job *job, enum check_solver status, uint32_t moves,
                      uint32_t pushes, double seconds)
{
    pthread_mutex_lock(&lock);
    current_job = NULL;
    bool stopped = stopping;
    pthread_mutex_unlock(&lock);
    /* A search that sokod's stop cut short is no verdict: the job stays
     * for another node, or the next start. */
    if (!stopped || job->cancel == 0) {
        struct check_level verdict = {.solver = status,
                                      .solver_moves = moves,
                                      .solver_pushes = pushes,
                                      .solver_seconds = seconds};
        record_solver_alone(job->upload, job->index, &verdict, 1, (int64_t)(seconds * 1000),
                            job->cancel == 0, job->job);
    }
    jobs_let_go(job->job);
    free(job->board);
    job->board = NULL;
}
