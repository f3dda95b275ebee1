/* Storage: uploads staged for import, and their parts. */
#include "storage/storage_staging.h"

#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void storage_upload_clear(struct storage_upload *u)
{
    free(u->report);
    u->report = NULL;
}

static const char SQL_EXPIRE_PARTS[] = "DELETE FROM staged_upload_parts WHERE upload_id IN "
                                       "(SELECT id FROM staged_uploads WHERE used_at < ?)";
static const char SQL_EXPIRE[] = "DELETE FROM staged_uploads WHERE used_at < ?";

int storage_staging_expire(int64_t before, int64_t *deleted)
{
    struct sql_stmt *st = storage_stmt(SQL_EXPIRE_PARTS);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, before);
    int status = storage_exec_stmt(st, "deleting the parts of expired uploads");
    st = status == STORAGE_OK ? storage_stmt(SQL_EXPIRE) : NULL;
    if (st == NULL)
        return status == STORAGE_OK ? STORAGE_ERROR : status;
    sql_bind_int64(st, 1, before);
    status = sql_step(st, "deleting expired uploads");
    if (status == STORAGE_OK && deleted != NULL)
        *deleted = sql_changes(st);
    sql_reset(st);
    return status;
}

static const char SQL_LOAD[] =
    "SELECT count(*), coalesce(sum(CASE WHEN state IN ('receiving', 'complete', 'checking') "
    "THEN size ELSE 0 END), 0) FROM staged_uploads WHERE state <> 'imported'";

int storage_staging_load(int64_t *count, int64_t *arriving)
{
    struct sql_stmt *st = storage_stmt(SQL_LOAD);
    if (st == NULL)
        return STORAGE_ERROR;
    int status = storage_first_row(st, "counting staged uploads");
    if (status == STORAGE_OK) {
        *count = sql_column_int64(st, 0);
        *arriving = sql_column_int64(st, 1);
        sql_reset(st);
    }
    return status;
}

static const char SQL_PRUNE_IMPORTED[] =
    "DELETE FROM staged_uploads WHERE state = 'imported' AND id NOT IN "
    "(SELECT id FROM staged_uploads WHERE state = 'imported' ORDER BY id DESC LIMIT ?)";

int storage_staging_prune_imported(int64_t keep)
{
    struct sql_stmt *st = storage_stmt(SQL_PRUNE_IMPORTED);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, keep);
    return storage_exec_stmt(st, "forgetting the oldest imported uploads");
}

static const char SQL_SETTLE[] = "UPDATE staged_uploads SET state = 'complete', used_at = ?2 "
                                 "WHERE state = 'checking' AND used_at < ?1";
static const char SQL_COMPLETE[] =
    "SELECT id FROM staged_uploads WHERE state = 'complete' ORDER BY id LIMIT ?";

int storage_staging_settle(int64_t stale_before, int64_t now, int64_t *ids, size_t max, size_t *n)
{
    *n = 0;
    struct sql_stmt *st = storage_stmt(SQL_SETTLE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, stale_before);
    sql_bind_int64(st, 2, now);
    int status = storage_exec_stmt(st, "settling the checks of stopped nodes");
    if (status != STORAGE_OK || max == 0)
        return status;
    st = storage_stmt(SQL_COMPLETE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, (int64_t)max);
    while (*n < max && (status = sql_step(st, "listing uploads to check")) == SQL_ROW)
        ids[(*n)++] = sql_column_int64(st, 0);
    sql_reset(st);
    return status == SQL_ROW ? STORAGE_OK : status;
}

static const char SQL_CREATE[] =
    "INSERT INTO staged_uploads (owner_id, filename, format, size, state, created_at, used_at) "
    "VALUES (?1, ?2, ?3, ?4, 'receiving', ?5, ?5) RETURNING id";

int storage_staging_create(const struct storage_upload *u, int64_t *id)
{
    struct sql_stmt *st = storage_stmt(SQL_CREATE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, u->owner);
    sql_bind_text(st, 2, u->filename);
    sql_bind_text(st, 3, u->format);
    sql_bind_int64(st, 4, u->size);
    sql_bind_int64(st, 5, u->created_at);
    return storage_exec_insert(st, id, "staging an upload");
}

/* A check's upload keeps the time its check began: a check that has run
 * for long is one whose node stopped (storage_staging_delete). */
static const char SQL_TOUCH[] =
    "UPDATE staged_uploads SET used_at = CASE WHEN state = 'checking' THEN used_at ELSE ?2 END "
    "WHERE id = ?1";

int storage_staging_touch(int64_t id, int64_t now)
{
    struct sql_stmt *st = storage_stmt(SQL_TOUCH);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_int64(st, 2, now);
    return storage_exec_changed(st, "marking an upload used");
}

#define UPLOAD_COLUMNS                                                                             \
    "id, owner_id, filename, format, state, size, received, coalesce(collection_id, 0), "          \
    "solver_total, solver_done, solver_ms, created_at, used_at"

static const char SQL_GET[] = "SELECT " UPLOAD_COLUMNS ", report FROM staged_uploads WHERE id = ?";
static const char SQL_EACH[] = "SELECT " UPLOAD_COLUMNS ", report FROM staged_uploads ORDER BY id";

/* Reads the columns of UPLOAD_COLUMNS into *u. */
static void read_upload(struct sql_stmt *st, struct storage_upload *u)
{
    u->id = sql_column_int64(st, 0);
    u->owner = sql_column_int64(st, 1);
    snprintf(u->filename, sizeof u->filename, "%s", sql_column_text(st, 2));
    snprintf(u->format, sizeof u->format, "%s", sql_column_text(st, 3));
    snprintf(u->state, sizeof u->state, "%s", sql_column_text(st, 4));
    u->size = sql_column_int64(st, 5);
    u->received = sql_column_int64(st, 6);
    u->collection_id = sql_column_int64(st, 7);
    u->solver_total = sql_column_int64(st, 8);
    u->solver_done = sql_column_int64(st, 9);
    u->solver_ms = sql_column_int64(st, 10);
    u->created_at = sql_column_int64(st, 11);
    u->used_at = sql_column_int64(st, 12);
}

int storage_staging_get(int64_t id, int report, struct storage_upload *u)
{
    struct sql_stmt *st = storage_stmt(SQL_GET);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    memset(u, 0, sizeof *u);
    int status = storage_first_row(st, "reading an upload");
    if (status != STORAGE_OK)
        return status;
    read_upload(st, u);
    const char *text = storage_column_text_or_null(st, 13);
    if (report && text != NULL) {
        u->report = strdup(text);
        if (u->report == NULL)
            status = STORAGE_ERROR;
    }
    sql_reset(st);
    return status;
}

/* Why a change of the upload changed nothing: STORAGE_CONFLICT when it
 * is there (in another state), STORAGE_NOT_FOUND when it is gone. */
static int conflict_unless_gone(int64_t id)
{
    struct storage_upload u;
    int status = storage_staging_get(id, 0, &u);
    return status == STORAGE_OK ? STORAGE_CONFLICT : status;
}

static int each_row(struct sql_stmt *st, void *fn, void *arg)
{
    int (*call)(const struct storage_upload *, void *) =
        (int (*)(const struct storage_upload *, void *))fn;
    struct storage_upload u = {0};
    read_upload(st, &u);
    /* Lent, not copied: the text lives until the next row. */
    u.report = (char *)storage_column_text_or_null(st, 13);
    return call(&u, arg);
}

int storage_staging_each(int (*fn)(const struct storage_upload *u, void *arg), void *arg)
{
    struct sql_stmt *st = storage_stmt(SQL_EACH);
    if (st == NULL)
        return STORAGE_ERROR;
    int status = storage_each_row(st, each_row, (void *)fn, arg, "listing uploads");
    return status == STORAGE_NOT_FOUND ? STORAGE_OK : status;
}

/* Two nodes sending the same offset at once: the second waits for the
 * first's row, then finds `received` moved on and takes nothing. */
static const char SQL_APPEND[] =
    "UPDATE staged_uploads SET received = received + ?3, used_at = ?4, "
    "state = CASE WHEN received + ?3 = size THEN 'complete' ELSE state END "
    "WHERE id = ?1 AND state = 'receiving' AND received = ?2 AND received + ?3 <= size";
static const char SQL_PART[] =
    "INSERT INTO staged_upload_parts (upload_id, at, bytes) VALUES (?, ?, ?)";

int storage_staging_append(int64_t id, int64_t offset, const void *bytes, size_t n, int64_t now)
{
    struct sql_stmt *st = storage_stmt(SQL_APPEND);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_int64(st, 2, offset);
    sql_bind_int64(st, 3, (int64_t)n);
    sql_bind_int64(st, 4, now);
    int status = storage_exec_changed(st, "adding a part to an upload");
    if (status == STORAGE_NOT_FOUND)
        return conflict_unless_gone(id);
    if (status != STORAGE_OK || n == 0)
        return status;
    st = storage_stmt(SQL_PART);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_int64(st, 2, offset);
    sql_bind_blob(st, 3, bytes, n);
    return storage_exec_stmt(st, "storing a part of an upload");
}

static const char SQL_MOVE[] =
    "UPDATE staged_uploads SET state = ?3, used_at = ?4 WHERE id = ?1 AND state = ?2";

int storage_staging_move(int64_t id, const char *from, const char *to, int64_t now)
{
    struct sql_stmt *st = storage_stmt(SQL_MOVE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_text(st, 2, from);
    sql_bind_text(st, 3, to);
    sql_bind_int64(st, 4, now);
    int status = storage_exec_changed(st, "moving an upload on");
    if (status == STORAGE_NOT_FOUND)
        return conflict_unless_gone(id);
    return status;
}

static const char SQL_BYTES[] =
    "SELECT at, bytes FROM staged_upload_parts WHERE upload_id = ? ORDER BY at";

int storage_staging_bytes(int64_t id, char *buf, size_t size)
{
    struct sql_stmt *st = storage_stmt(SQL_BYTES);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    size_t at = 0;
    int status;
    while ((status = sql_step(st, "reading an upload's bytes")) == SQL_ROW) {
        size_t n = 0;
        const void *bytes = sql_column_blob(st, 1, &n);
        if (sql_column_int64(st, 0) != (int64_t)at || n > size - at) {
            status = STORAGE_ERROR;
            break;
        }
        memcpy(buf + at, bytes, n);
        at += n;
    }
    sql_reset(st);
    if (status == STORAGE_OK && at != size)
        status = STORAGE_ERROR;
    if (status == STORAGE_ERROR)
        fprintf(stderr, "sokod: the parts of upload %lld do not make its %zu bytes\n",
                (long long)id, size);
    return status;
}

static const char SQL_CHECKED[] =
    "UPDATE staged_uploads SET state = 'checked', report = ?2, solver_total = ?3, used_at = ?4 "
    "WHERE id = ?1 AND state = 'checking'";

int storage_staging_checked(int64_t id, const char *report, int64_t solver_total, int64_t now)
{
    struct sql_stmt *st = storage_stmt(SQL_CHECKED);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_text(st, 2, report);
    sql_bind_int64(st, 3, solver_total);
    sql_bind_int64(st, 4, now);
    int status = storage_exec_changed(st, "storing an upload's report");
    return status == STORAGE_NOT_FOUND ? STORAGE_CONFLICT : status;
}

static const char SQL_REPORT[] =
    "UPDATE staged_uploads SET report = ?2, solver_done = solver_done + ?3, "
    "solver_ms = solver_ms + ?4 WHERE id = ?1";

int storage_staging_report(int64_t id, const char *report, int64_t done, int64_t ms)
{
    struct sql_stmt *st = storage_stmt(SQL_REPORT);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_text(st, 2, report);
    sql_bind_int64(st, 3, done);
    sql_bind_int64(st, 4, ms);
    return storage_exec_changed(st, "storing the solver's verdict on an upload");
}

static const char SQL_DROP_PARTS[] = "DELETE FROM staged_upload_parts WHERE upload_id = ?";
static const char SQL_IMPORTED[] =
    "UPDATE staged_uploads SET state = 'imported', collection_id = ?2, report = ?3 "
    "WHERE id = ?1 AND state = 'checked'";

/* Deletes the upload's parts. */
static int drop_parts(int64_t id)
{
    struct sql_stmt *st = storage_stmt(SQL_DROP_PARTS);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    return storage_exec_stmt(st, "deleting an upload's bytes");
}

int storage_staging_imported(int64_t id, int64_t collection, const char *report)
{
    struct sql_stmt *st = storage_stmt(SQL_IMPORTED);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_int64(st, 2, collection);
    sql_bind_text(st, 3, report);
    int status = storage_exec_changed(st, "marking an upload imported");
    return status == STORAGE_OK ? drop_parts(id) : status;
}

static const char SQL_DELETE[] =
    "DELETE FROM staged_uploads WHERE id = ?1 AND (state <> 'checking' OR used_at < ?2)";

int storage_staging_delete(int64_t id, int64_t stale_before)
{
    int status = drop_parts(id);
    struct sql_stmt *st = status == STORAGE_OK ? storage_stmt(SQL_DELETE) : NULL;
    if (st == NULL)
        return status == STORAGE_OK ? STORAGE_ERROR : status;
    sql_bind_int64(st, 1, id);
    sql_bind_int64(st, 2, stale_before);
    status = storage_exec_changed(st, "discarding an upload");
    if (status == STORAGE_NOT_FOUND)
        return conflict_unless_gone(id);
    return status;
}
