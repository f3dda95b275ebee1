/* Uploads waiting in memory, and the queue of their levels for the solver. */
#include "library/staging.h"

#include "base/clock.h"
#include "http/http.h"
#include "library/check_report.h"
#include "storage/storage.h"
#include "storage/storage_admin.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Uploads kept at once, how long one is kept after its last use, and how
 * many files of the largest size may be arriving at once. */
#define MAX_UPLOADS 64
#define KEEP_SECONDS (3 * 3600)
#define MAX_FILES_IN_FLIGHT 4

enum upload_state { RECEIVING, COMPLETE, CHECKING, CHECKED, IMPORTING, IMPORTED };

static const char *const state_names[] = {"receiving", "complete",  "checking",
                                          "checked",   "importing", "imported"};

struct upload {
    int64_t id;
    int64_t owner;
    char filename[256];
    enum check_format format;
    size_t size, received;
    char *data; /* size bytes until checked */
    struct check_report *report;
    enum upload_state state;
    int64_t collection_id; /* once imported */
    int64_t created_at, used_at;
    size_t solver_total, solver_done;
    double solver_spent; /* seconds the solver has taken on its levels */
    /* A solver result that arrived while the report was being imported:
     * the import owns the report then, so the result waits here. */
    bool late;
    size_t late_index;
    enum check_solver late_status;
    uint32_t late_moves, late_pushes;
    double late_seconds;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static struct upload *uploads[MAX_UPLOADS];
static int64_t last_id;
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

static void upload_free(struct upload *u)
{
    if (u == NULL)
        return;
    free(u->data);
    check_report_free(u->report);
    free(u);
}

void staging_stop(void)
{
    pthread_mutex_lock(&lock);
    stopping = true;
    if (current_job != NULL)
        current_job->cancel = 1;
    for (size_t i = 0; i < MAX_UPLOADS; i++) {
        upload_free(uploads[i]);
        uploads[i] = NULL;
    }
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

/* The slot of an upload, or -1. The lock is held. */
static int find(int64_t id)
{
    for (int i = 0; i < MAX_UPLOADS; i++) {
        if (uploads[i] != NULL && uploads[i]->id == id) {
            uploads[i]->used_at = clock_now();
            return i;
        }
    }
    return -1;
}

/* Cancels the solver's job when it belongs to upload id. The lock is held. */
static void cancel_job_of(int64_t id)
{
    if (current_job != NULL && current_job->upload == id)
        current_job->cancel = 1;
}

/* Forgets uploads unused for too long, unless busy. The lock is held. */
static void expire(void)
{
    int64_t limit = clock_now() - KEEP_SECONDS;
    for (int i = 0; i < MAX_UPLOADS; i++) {
        struct upload *u = uploads[i];
        if (u != NULL && u->used_at < limit && u->state != CHECKING && u->state != IMPORTING) {
            cancel_job_of(u->id);
            upload_free(u);
            uploads[i] = NULL;
        }
    }
}

enum staging_status staging_create(int64_t owner, const char *filename, enum check_format format,
                                   size_t size, int64_t *id)
{
    if (size > staging_max_upload())
        return STAGING_TOO_LARGE;
    struct upload *u = calloc(1, sizeof *u);
    char *data = size > 0 ? malloc(size) : NULL;
    if (u == NULL || data == NULL) {
        free(u);
        free(data);
        return STAGING_FAILED;
    }
    u->owner = owner;
    snprintf(u->filename, sizeof u->filename, "%s", filename);
    u->format = format;
    u->size = size;
    u->data = data;
    u->state = RECEIVING;
    u->created_at = u->used_at = clock_now();
    pthread_mutex_lock(&lock);
    expire();
    int slot = -1;
    size_t in_flight = size;
    for (int i = 0; i < MAX_UPLOADS; i++) {
        if (uploads[i] == NULL && slot < 0)
            slot = i;
        else if (uploads[i] != NULL && uploads[i]->data != NULL)
            in_flight += uploads[i]->size;
    }
    if (in_flight > MAX_FILES_IN_FLIGHT * max_upload)
        slot = -1;
    if (slot >= 0) {
        u->id = ++last_id;
        *id = u->id;
        uploads[slot] = u;
    }
    pthread_mutex_unlock(&lock);
    if (slot < 0) {
        upload_free(u);
        return STAGING_FULL;
    }
    return STAGING_OK;
}

enum staging_status staging_append(int64_t id, size_t offset, const void *bytes, size_t n,
                                   size_t *received, bool *complete)
{
    enum staging_status status = STAGING_OK;
    pthread_mutex_lock(&lock);
    int i = find(id);
    struct upload *u = i >= 0 ? uploads[i] : NULL;
    if (u == NULL)
        status = STAGING_NOT_FOUND;
    else if (u->state != RECEIVING)
        status = STAGING_WRONG_STATE;
    else if (offset != u->received || n > u->size - u->received)
        status = STAGING_BAD_OFFSET;
    if (status == STAGING_OK) {
        memcpy(u->data + u->received, bytes, n);
        u->received += n;
        if (u->received == u->size)
            u->state = COMPLETE;
    }
    if (u != NULL) {
        *received = u->received;
        *complete = u->state != RECEIVING;
    }
    pthread_mutex_unlock(&lock);
    return status;
}

enum staging_status staging_check(int64_t id)
{
    pthread_mutex_lock(&lock);
    int i = find(id);
    struct upload *u = i >= 0 ? uploads[i] : NULL;
    enum staging_status status = u == NULL              ? STAGING_NOT_FOUND
                                 : u->state != COMPLETE ? STAGING_WRONG_STATE
                                                        : STAGING_OK;
    char filename[256];
    char *data = NULL;
    size_t size = 0;
    enum check_format format = CHECK_FORMAT_AUTO;
    uint64_t steps = check_steps;
    if (status == STAGING_OK) {
        u->state = CHECKING;
        data = u->data;
        size = u->size;
        format = u->format;
        snprintf(filename, sizeof filename, "%s", u->filename);
    }
    pthread_mutex_unlock(&lock);
    if (status != STAGING_OK)
        return status;
    /* Outside the lock: the upload stays, as CHECKING, and its data with it. */
    struct check_report *r =
        check_run_within(data != NULL ? data : "", size, filename, format, true, steps);
    pthread_mutex_lock(&lock);
    i = find(id);
    u = i >= 0 ? uploads[i] : NULL;
    if (u != NULL && r != NULL) {
        u->report = r;
        free(u->data);
        u->data = NULL;
        u->state = CHECKED;
        for (size_t k = 0; solver_seconds > 0 && k < r->nlevels; k++) {
            if (r->levels[k].valid) {
                r->levels[k].solver = CHECK_SOLVER_PENDING;
                u->solver_total++;
            }
        }
        pthread_cond_broadcast(&work);
    } else if (u != NULL) {
        u->state = COMPLETE;
        status = STAGING_FAILED;
    } else {
        check_report_free(r);
        status = STAGING_NOT_FOUND;
    }
    pthread_mutex_unlock(&lock);
    return status;
}

/* Records a solver result in a level of the report. The lock is held. */
static void record_result(struct upload *u, size_t index, enum check_solver status, uint32_t moves,
                          uint32_t pushes, double seconds)
{
    struct check_level *l = &u->report->levels[index];
    l->solver = status;
    l->solver_moves = moves;
    l->solver_pushes = pushes;
    l->solver_seconds = seconds;
    u->solver_done++;
}

/* Writes a solver verdict into the library, in a transaction of its own. */
static void store_verdict(int64_t level, enum check_solver status, uint32_t moves, uint32_t pushes)
{
    int rc = storage_begin();
    if (rc == STORAGE_OK)
        rc = storage_level_set_solver(level, check_solver_name(status), moves, pushes);
    if (rc == STORAGE_OK)
        rc = storage_commit();
    else
        storage_rollback();
    if (rc != STORAGE_OK)
        fprintf(stderr, "sokod: could not record the solver's verdict on level %lld\n",
                (long long)level);
}

enum staging_status staging_import(int64_t id, const struct library_target *t,
                                   const struct audit_actor *who, struct library_result *out,
                                   enum library_status *lib, int *storage)
{
    /* While IMPORTING, the import owns the report: nobody else reads it (the
     * answers leave it out, the solver keeps its result aside), so the
     * transaction runs without the lock. */
    pthread_mutex_lock(&lock);
    int i = find(id);
    struct upload *u = i >= 0 ? uploads[i] : NULL;
    enum staging_status status = u == NULL             ? STAGING_NOT_FOUND
                                 : u->state != CHECKED ? STAGING_WRONG_STATE
                                                       : STAGING_OK;
    struct check_report *r = NULL;
    if (status == STAGING_OK) {
        u->state = IMPORTING;
        r = u->report;
    }
    pthread_mutex_unlock(&lock);
    if (status != STAGING_OK)
        return status;

    *storage = storage_begin();
    *lib = LIBRARY_STORAGE;
    if (*storage == STORAGE_OK)
        *lib = library_import(r, t, who, out, storage);
    if (*lib == LIBRARY_OK)
        *storage = storage_commit();
    else
        storage_rollback();
    if (*lib == LIBRARY_OK && *storage != STORAGE_OK) {
        *lib = LIBRARY_STORAGE;
        for (size_t k = 0; k < r->nlevels; k++)
            r->levels[k].imported_id = 0;
    }

    pthread_mutex_lock(&lock);
    i = find(id); /* an importing upload is neither discarded nor expired */
    u = uploads[i];
    u->state = *lib == LIBRARY_OK ? IMPORTED : CHECKED;
    if (*lib == LIBRARY_OK)
        u->collection_id = out->collection_id;
    int64_t late_level = 0;
    struct check_level late = {0};
    if (u->late) {
        u->late = false;
        record_result(u, u->late_index, u->late_status, u->late_moves, u->late_pushes,
                      u->late_seconds);
        late = u->report->levels[u->late_index];
        late_level = late.imported_id;
    }
    pthread_cond_broadcast(&work);
    pthread_mutex_unlock(&lock);
    if (late_level != 0)
        store_verdict(late_level, late.solver, late.solver_moves, late.solver_pushes);
    return STAGING_OK;
}

enum staging_status staging_discard(int64_t id)
{
    pthread_mutex_lock(&lock);
    int i = find(id);
    enum staging_status status = STAGING_OK;
    if (i < 0) {
        status = STAGING_NOT_FOUND;
    } else if (uploads[i]->state == CHECKING || uploads[i]->state == IMPORTING) {
        status = STAGING_WRONG_STATE;
    } else {
        cancel_job_of(id);
        upload_free(uploads[i]);
        uploads[i] = NULL;
    }
    pthread_mutex_unlock(&lock);
    return status;
}

/* The lock is held. */
static json_t *upload_json(const struct upload *u, bool levels)
{
    json_t *o = json_pack(
        "{s:I,s:I,s:o,s:s,s:I,s:I,s:s,s:I,s:I,s:o,s:o}", "id", (json_int_t)u->id, "owner_id",
        (json_int_t)u->owner, "file", http_json_text(u->filename), "format",
        u->format == CHECK_FORMAT_AUTO ? "auto" : check_format_name(u->format), "size",
        (json_int_t)u->size, "received", (json_int_t)u->received, "state", state_names[u->state],
        "part_bytes", (json_int_t)part_bytes, "max_bytes", (json_int_t)max_upload, "created_at",
        http_json_time(u->created_at), "collection_id",
        u->collection_id != 0 ? json_integer(u->collection_id) : json_null());
    if (o == NULL)
        return NULL;
    json_t *solver = json_null();
    if (u->solver_total > 0)
        solver = json_pack("{s:I,s:I,s:i}", "done", (json_int_t)u->solver_done, "total",
                           (json_int_t)u->solver_total, "seconds_per_level", (int)solver_seconds);
    json_object_set_new(o, "solver", solver);
    if (u->report != NULL && u->state != IMPORTING) {
        json_t *report = check_report_json(u->report);
        if (report != NULL && !levels)
            json_object_del(report, "levels");
        json_object_set_new(o, "report", report != NULL ? report : json_null());
    } else {
        json_object_set_new(o, "report", json_null());
    }
    return o;
}

json_t *staging_json(int64_t id, bool levels, enum staging_status *status)
{
    pthread_mutex_lock(&lock);
    int i = find(id);
    json_t *o = i >= 0 ? upload_json(uploads[i], levels) : NULL;
    *status = i < 0 ? STAGING_NOT_FOUND : o == NULL ? STAGING_FAILED : STAGING_OK;
    pthread_mutex_unlock(&lock);
    return o;
}

json_t *staging_list_json(void)
{
    json_t *list = json_array();
    pthread_mutex_lock(&lock);
    expire();
    for (int i = 0; list != NULL && i < MAX_UPLOADS; i++) {
        if (uploads[i] != NULL)
            json_array_append_new(list, upload_json(uploads[i], false));
    }
    pthread_mutex_unlock(&lock);
    return list;
}

/* The oldest upload's first level waiting for the solver. The lock is held. */
static bool find_pending(struct upload **up, size_t *index)
{
    struct upload *best = NULL;
    size_t best_index = 0;
    for (int i = 0; i < MAX_UPLOADS; i++) {
        struct upload *u = uploads[i];
        if (u == NULL || u->report == NULL || u->state == IMPORTING ||
            u->solver_done == u->solver_total || (best != NULL && best->id < u->id))
            continue;
        for (size_t k = 0; k < u->report->nlevels; k++) {
            if (u->report->levels[k].solver == CHECK_SOLVER_PENDING) {
                best = u;
                best_index = k;
                break;
            }
        }
    }
    *up = best;
    *index = best_index;
    return best != NULL;
}

/* Marks the levels of u still waiting for the solver as over budget. The
 * lock is held. */
static void skip_pending(struct upload *u)
{
    for (size_t k = 0; k < u->report->nlevels; k++) {
        if (u->report->levels[k].solver == CHECK_SOLVER_PENDING) {
            u->report->levels[k].solver = CHECK_SOLVER_OVER_BUDGET;
            u->solver_done++;
        }
    }
}

bool staging_next_job(struct staging_job *job)
{
    pthread_mutex_lock(&lock);
    struct upload *u = NULL;
    size_t index = 0;
    for (;;) {
        if (stopping)
            break;
        if (find_pending(&u, &index)) {
            /* An upload's levels share one budget of solver time, so that a
             * file of many hard levels cannot keep the solver for hours. */
            double left = solver_budget > 0 ? solver_budget - u->solver_spent : solver_seconds;
            if (left < 1) {
                skip_pending(u);
                continue;
            }
            char *board = strdup(u->report->levels[index].board);
            if (board == NULL) {
                u = NULL;
                break;
            }
            job->upload = u->id;
            job->index = index;
            job->board = board;
            job->seconds = left < solver_seconds ? (unsigned)left : solver_seconds;
            job->cancel = 0;
            u->report->levels[index].solver = CHECK_SOLVER_RUNNING;
            current_job = job;
            break;
        }
        pthread_cond_wait(&work, &lock);
    }
    bool found = !stopping && u != NULL;
    pthread_mutex_unlock(&lock);
    return found;
}

void staging_job_done(struct staging_job *job, enum check_solver status, uint32_t moves,
                      uint32_t pushes, double seconds)
{
    int64_t imported = 0;
    pthread_mutex_lock(&lock);
    current_job = NULL;
    int i = find(job->upload);
    struct upload *u = i >= 0 ? uploads[i] : NULL;
    if (u != NULL && u->report != NULL && job->index < u->report->nlevels) {
        if (u->state == IMPORTING) {
            u->late = true;
            u->late_index = job->index;
            u->late_status = status;
            u->late_moves = moves;
            u->late_pushes = pushes;
            u->late_seconds = seconds;
            u->solver_spent += seconds;
        } else {
            u->solver_spent += seconds;
            record_result(u, job->index, status, moves, pushes, seconds);
            imported = u->report->levels[job->index].imported_id;
        }
    }
    pthread_mutex_unlock(&lock);
    free(job->board);
    job->board = NULL;
    if (imported != 0 && job->cancel == 0)
        store_verdict(imported, status, moves, pushes);
}
