/* Upload endpoints: a level file arrives in base64 parts that fit the
 * request body cap, is checked as soon as its last byte is in (before
 * anything is stored), and its valid levels are imported on request, all
 * in one transaction. Checks and imports run on a worker thread. */
#include "library/uploads.h"

#include "http/body.h"
#include "http/http.h"
#include "library/admin.h"
#include "library/jobs.h"
#include "library/solvecheck.h"
#include "library/staging.h"
#include "storage/storage.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FILENAME_MAX_BYTES 200

/* Uploads a start-up checks again at most: no more are kept at once. */
#define RESUME_MAX 64

int uploads_start(const struct config *cfg)
{
    staging_start(cfg->max_upload, cfg->max_body, cfg->solver_seconds, cfg->upload_steps,
                  cfg->upload_solver_seconds);
    if (jobs_start() != 0)
        return -1;
    if (solvecheck_start() != 0) {
        jobs_stop();
        return -1;
    }
    return 0;
}

void uploads_stop(void)
{
    staging_stop();
    solvecheck_stop();
    jobs_stop();
}

static int no_upload(struct http_conn *c)
{
    return reply_error(c, API_E_UPLOAD_NOT_FOUND,
                       "there is no upload %lld (uploads are forgotten after three hours "
                       "unused)",
                       (long long)c->param[0]);
}

/* Answers {"upload": ...} (with the report's levels when `levels`). */
static int reply_upload(struct http_conn *c, unsigned code, int64_t id, bool levels)
{
    enum staging_status status;
    json_t *o = staging_json(id, levels, &status);
    if (status == STAGING_NOT_FOUND)
        return no_upload(c);
    if (o == NULL)
        return reply_error(c, API_E_INTERNAL, "out of memory");
    return reply_json(c, code, json_pack("{s:o}", "upload", o));
}

/* Decodes the base64 "data" of a body (none when its text is NULL) into a
 * new buffer; false after answering 400. */
static bool decode_data(struct http_conn *c, const struct body_text *data, unsigned char **out,
                        size_t *len, int *result)
{
    *out = NULL;
    *len = 0;
    if (data->text == NULL)
        return true;
    const char *text = data->text;
    size_t n = data->len;
    unsigned char *bytes = malloc(n / 4 * 3 + 3);
    if (bytes == NULL) {
        *result = reply_error(c, API_E_INTERNAL, "out of memory");
        return false;
    }
    const char *end = NULL;
    if (sodium_base642bin(bytes, n / 4 * 3 + 3, text, n, " \r\n", len, &end,
                          sodium_base64_VARIANT_ORIGINAL) != 0 ||
        end != text + n) {
        free(bytes);
        *result = reply_error(c, API_E_INVALID_VALUE,
                              "'data' must be the file's bytes in base64 (RFC 4648, with "
                              "padding)");
        return false;
    }
    *out = bytes;
    return true;
}

/* The check of a complete upload, on a worker thread. */
struct check_job {
    int64_t id;
    unsigned code;
    enum staging_status status;
};

static void run_check(void *arg)
{
    struct check_job *job = arg;
    job->status = staging_check(job->id);
}

static int check_done(struct http_conn *c, void *arg)
{
    struct check_job *job = arg;
    if (job->status == STAGING_NOT_FOUND)
        return no_upload(c);
    if (job->status == STAGING_FAILED)
        return reply_error(c, API_E_INTERNAL,
                           "the upload could not be checked (out of memory, or the database "
                           "failed; see the server's log)");
    return reply_upload(c, job->code, job->id, true);
}

/* Checks a complete upload on a worker thread, then answers with it. */
static int check_then_reply(struct http_conn *c, int64_t id, unsigned code)
{
    struct check_job *job = calloc(1, sizeof *job);
    if (job == NULL)
        return reply_error(c, API_E_INTERNAL, "out of memory");
    job->id = id;
    job->code = code;
    return http_defer(c, WORKER_UPLOADS, run_check, check_done, job);
}

/* Appends a part; when it completes the file, checks it before answering. */
static int take_part(struct http_conn *c, int64_t id, size_t offset, const unsigned char *bytes,
                     size_t n, unsigned code)
{
    size_t received = 0;
    bool complete = false;
    enum staging_status status = staging_append(id, offset, bytes, n, &received, &complete);
    switch (status) {
    case STAGING_OK:
        break;
    case STAGING_NOT_FOUND:
        return no_upload(c);
    case STAGING_BAD_OFFSET:
        return reply_error(c, API_E_UPLOAD_INCOMPLETE,
                           "this part does not continue the upload: %zu bytes are in, so the "
                           "next part starts at offset %zu and may not pass the declared size",
                           received, received);
    case STAGING_WRONG_STATE:
        return reply_error(c, API_E_UPLOAD_INCOMPLETE, "upload %lld has all its bytes already",
                           (long long)id);
    default:
        return reply_error(c, API_E_INTERNAL, "the upload failed");
    }
    return complete ? check_then_reply(c, id, code) : reply_upload(c, code, id, false);
}

int uploads_create(struct http_conn *c)
{
    int result = MHD_NO;
    struct audit_actor who;
    struct body_text name = {0}, format_name = {0}, data = {0};
    json_int_t size = 0;
    struct body_field spec[] = {
        body_text("filename", &name),
        body_integer("size", &size),
        body_optional(body_text("format", &format_name), NULL),
        body_optional(body_text("data", &data), NULL),
        body_end(),
    };
    json_t *body = admin_body(c, &who, spec, &result);
    if (body == NULL)
        return result;
    const char *filename = name.text;
    enum check_format format = CHECK_FORMAT_AUTO;
    unsigned char *bytes = NULL;
    size_t n = 0;
    int64_t id = 0;
    if (filename[0] == '\0' || strlen(filename) > FILENAME_MAX_BYTES ||
        strpbrk(filename, "\r\n") != NULL) {
        result = reply_error(c, API_E_INVALID_VALUE, "'filename' must be one line of 1 to %d bytes",
                             FILENAME_MAX_BYTES);
    } else if (format_name.text != NULL && !check_format_parse(format_name.text, &format)) {
        result = reply_error(c, API_E_INVALID_VALUE,
                             "'format' must be \"auto\", \"text\", \"slc\" or \"pack\"");
    } else if (size < 1) {
        result = reply_error(c, API_E_INVALID_VALUE, "'size' must be at least 1 byte");
    } else if (decode_data(c, &data, &bytes, &n, &result)) {
        bool complete = false;
        enum staging_status status =
            staging_create(who.user_id, filename, format, (size_t)size, bytes, n, &id, &complete);
        if (status == STAGING_TOO_LARGE)
            result = reply_error(c, API_E_UPLOAD_TOO_LARGE,
                                 "uploads are limited to %zu bytes and this file has %lld (see "
                                 "--max-upload)",
                                 staging_max_upload(), (long long)size);
        else if (status == STAGING_FULL)
            result =
                reply_error(c, API_E_UNAVAILABLE,
                            "too many uploads are waiting or arriving; import or discard some");
        else if (status == STAGING_BAD_OFFSET)
            result = reply_error(c, API_E_UPLOAD_INCOMPLETE,
                                 "'data' holds %zu bytes, more than the declared size %lld", n,
                                 (long long)size);
        else if (status != STAGING_OK)
            result = reply_error(c, API_E_INTERNAL, "the upload could not be stored");
        else if (complete)
            result = check_then_reply(c, id, 201);
        else
            result = reply_upload(c, 201, id, false);
    }
    free(bytes);
    json_decref(body);
    return result;
}

int uploads_part(struct http_conn *c)
{
    int result = MHD_NO;
    struct audit_actor who;
    json_int_t offset = 0;
    struct body_text data = {0};
    struct body_field spec[] = {
        body_integer_in("offset", &offset, 0, (json_int_t)INT64_MAX,
                        "'offset' must not be negative"),
        body_text("data", &data),
        body_end(),
    };
    json_t *body = admin_body(c, &who, spec, &result);
    if (body == NULL)
        return result;
    unsigned char *bytes = NULL;
    size_t n = 0;
    if (decode_data(c, &data, &bytes, &n, &result))
        result = take_part(c, c->param[0], (size_t)offset, bytes, n, 200);
    free(bytes);
    json_decref(body);
    return result;
}

int uploads_list(struct http_conn *c)
{
    int result = MHD_NO;
    struct audit_actor who;
    if (!admin_require(c, &who, &result))
        return result;
    json_t *list = staging_list_json();
    if (list == NULL)
        return reply_error(c, API_E_INTERNAL, "out of memory");
    return reply_json(c, 200, json_pack("{s:o}", "uploads", list));
}

/* An upload's check that no request waits for: one a stopped node left. */
static void run_check_alone(void *arg)
{
    run_check(arg);
    free(arg);
}

void uploads_resume(void)
{
    int64_t ids[RESUME_MAX];
    size_t n = staging_settle(!storage_is_server(), ids, RESUME_MAX);
    for (size_t i = 0; i < n; i++) {
        struct check_job *job = calloc(1, sizeof *job);
        if (job == NULL)
            break;
        job->id = ids[i];
        if (!worker_submit(WORKER_UPLOADS, run_check_alone, job))
            run_check_alone(job);
    }
    if (n > 0)
        fprintf(stderr, "sokod: checking %zu upload%s that a stopped server left unchecked\n", n,
                n == 1 ? "" : "s");
}

int uploads_get(struct http_conn *c)
{
    int result = MHD_NO;
    struct audit_actor who;
    if (!admin_require(c, &who, &result))
        return result;
    const char *levels = http_query(c, "levels");
    bool with_levels = levels == NULL || strcmp(levels, "0") != 0;
    enum staging_status status;
    json_t *o = staging_json(c->param[0], with_levels, &status);
    if (status == STAGING_NOT_FOUND)
        return no_upload(c);
    if (o == NULL)
        return reply_error(c, API_E_INTERNAL, "out of memory");
    const char *state = json_string_value(json_object_get(o, "state"));
    /* Every byte is in and no check runs (the node that took the last
     * part stopped before its check began): this request runs it. */
    if (state != NULL && strcmp(state, "complete") == 0) {
        json_decref(o);
        return check_then_reply(c, c->param[0], 200);
    }
    return reply_json(c, 200, json_pack("{s:o}", "upload", o));
}

int uploads_discard(struct http_conn *c)
{
    int result = MHD_NO;
    struct audit_actor who;
    json_t *body = admin_body(c, &who, NULL, &result);
    if (body == NULL)
        return result;
    json_decref(body);
    enum staging_status status = staging_discard(c->param[0]);
    if (status == STAGING_NOT_FOUND)
        return no_upload(c);
    if (status == STAGING_WRONG_STATE)
        return reply_error(c, API_E_UPLOAD_INCOMPLETE, "upload %lld is being checked; try again",
                           (long long)c->param[0]);
    return reply_json(c, 200,
                      json_pack("{s:I,s:b}", "id", (json_int_t)c->param[0], "discarded", 1));
}

/* An import, done on a worker thread. Its texts live in the same block. */
struct import_job {
    int64_t id;
    struct audit_actor who;
    int64_t collection_id;
    bool keep_duplicates;
    bool has_name, has_description, has_author;
    size_t description_at, author_at;
    enum staging_status status;
    enum library_status lib;
    int storage;
    struct library_result out;
    char text[]; /* name, description, author, each NUL-terminated */
};

static void run_import(void *arg)
{
    struct import_job *job = arg;
    struct library_target t = {
        .collection_id = job->collection_id,
        .name = job->has_name ? job->text : NULL,
        .description = job->has_description ? job->text + job->description_at : NULL,
        .author = job->has_author ? job->text + job->author_at : NULL,
        .keep_duplicates = job->keep_duplicates,
    };
    char source[64];
    snprintf(source, sizeof source, "upload %lld", (long long)job->id);
    t.source = source;
    job->status = staging_import(job->id, &t, &job->who, &job->out, &job->lib, &job->storage);
}

static int import_done(struct http_conn *c, void *arg)
{
    struct import_job *job = arg;
    if (job->status == STAGING_NOT_FOUND)
        return no_upload(c);
    if (job->status == STAGING_WRONG_STATE) {
        enum staging_status st;
        json_t *u = staging_json(job->id, false, &st);
        const char *state = json_string_value(json_object_get(u, "state"));
        bool imported = state != NULL && strcmp(state, "imported") == 0;
        json_int_t into = json_integer_value(json_object_get(u, "collection_id"));
        json_decref(u);
        if (imported)
            return reply_error(c, API_E_ALREADY_IMPORTED,
                               "upload %lld is imported already, into collection %lld",
                               (long long)job->id, (long long)into);
        return reply_error(c, API_E_UPLOAD_INCOMPLETE,
                           "upload %lld is not checked yet: send all of its bytes first",
                           (long long)job->id);
    }
    switch (job->lib) {
    case LIBRARY_OK:
        break;
    case LIBRARY_NAME_TAKEN:
        return reply_error(c, API_E_COLLECTION_NAME_TAKEN,
                           "a collection (perhaps a deleted one) has that name already; choose "
                           "another with \"collection\"");
    case LIBRARY_NO_COLLECTION:
        return reply_error(c, API_E_COLLECTION_NOT_FOUND, "there is no collection %lld",
                           (long long)job->collection_id);
    case LIBRARY_FILE_FAILED:
        return reply_error(c, API_E_UNREADABLE_FILE,
                           "the file could not be read as a level file (see the report)");
    case LIBRARY_NOTHING:
        return reply_error(c, API_E_NOTHING_TO_IMPORT,
                           "nothing to import: %u level(s) invalid, %u duplicate(s)",
                           job->out.invalid, job->out.duplicates);
    case LIBRARY_STORAGE:
        return reply_storage_failure(c, job->storage);
    }
    enum staging_status st;
    json_t *u = staging_json(job->id, false, &st);
    json_t *result =
        json_pack("{s:{s:I,s:b,s:i,s:i,s:i,s:i,s:i},s:o}", "import", "collection_id",
                  (json_int_t)job->out.collection_id, "created", job->out.created, "imported",
                  (int)job->out.imported, "restored", (int)job->out.restored, "invalid",
                  (int)job->out.invalid, "duplicates", (int)job->out.duplicates, "references",
                  (int)job->out.references, "upload", u != NULL ? u : json_null());
    return reply_json(c, 201, result);
}

int uploads_import(struct http_conn *c)
{
    int result = MHD_NO;
    struct audit_actor who;
    struct body_text name = {0}, description = {0}, author = {0};
    json_int_t collection_id = 0;
    bool into = false, keep_duplicates = false;
    struct body_field spec[] = {
        body_optional(body_text("collection", &name), NULL),
        body_optional(body_integer("collection_id", &collection_id), &into),
        body_optional(body_text("description", &description), NULL),
        body_optional(body_text("author", &author), NULL),
        body_optional(body_boolean("keep_duplicates", &keep_duplicates), NULL),
        body_end(),
    };
    json_t *body = admin_body(c, &who, spec, &result);
    if (body == NULL)
        return result;
    const char *bad = NULL;
    if (name.text != NULL && into)
        bad = "give \"collection\" (a new one's name) or \"collection_id\" (an existing one), "
              "not both";
    else if (name.text != NULL &&
             (name.len == 0 || name.len > 200 || strpbrk(name.text, "\r\n\t") != NULL))
        bad = "'collection' must be one line of 1 to 200 bytes";
    else if (into && collection_id < 1)
        bad = "'collection_id' must be a collection's id";
    else if (author.text != NULL && (author.len > 200 || strpbrk(author.text, "\r\n\t") != NULL))
        bad = "'author' must be one line of at most 200 bytes";
    else if (into && (description.text != NULL || author.text != NULL))
        bad = "'description' and 'author' describe a new collection; change an existing one "
              "with PATCH /api/v1/admin/collections/{id}";
    if (bad != NULL) {
        json_decref(body);
        return reply_error(c, API_E_INVALID_VALUE, "%s", bad);
    }
    size_t name_len = name.text != NULL ? strlen(name.text) : 0;
    size_t description_len = description.text != NULL ? strlen(description.text) : 0;
    size_t author_len = author.text != NULL ? strlen(author.text) : 0;
    struct import_job *job = calloc(1, sizeof *job + name_len + description_len + author_len + 3);
    if (job == NULL) {
        json_decref(body);
        return reply_error(c, API_E_INTERNAL, "out of memory");
    }
    job->id = c->param[0];
    job->who = who;
    job->collection_id = into ? collection_id : 0;
    job->keep_duplicates = keep_duplicates;
    job->has_name = name.text != NULL;
    job->has_description = description.text != NULL;
    job->has_author = author.text != NULL;
    job->description_at = name_len + 1;
    job->author_at = name_len + 1 + description_len + 1;
    if (name.text != NULL)
        memcpy(job->text, name.text, name_len);
    if (description.text != NULL)
        memcpy(job->text + job->description_at, description.text, description_len);
    if (author.text != NULL)
        memcpy(job->text + job->author_at, author.text, author_len);
    json_decref(body);
    return http_defer(c, WORKER_UPLOADS, run_import, import_done, job);
}
