/* Managing the library: collections and levels listed with everything an
 * admin needs (hidden and deleted ones too), renamed, described, credited,
 * reordered, hidden, shown, deleted and restored. Deleting only marks: the
 * players' games and solutions stay, and come back with the level. Every
 * change is one transaction with its audit entry. */
#include "library/manage.h"

#include "base/clock.h"
#include "http/body.h"
#include "http/http.h"
#include "library/admin.h"
#include "library/check_report.h"
#include "storage/storage.h"
#include "storage/storage_admin.h"

#include <stdlib.h>
#include <string.h>

#define NAME_MAX_BYTES 200
#define TEXT_MAX_BYTES 65536

static json_t *collection_json(const struct storage_admin_collection *c)
{
    return json_pack(
        "{s:I,s:o,s:o,s:o,s:o,s:i,s:b,s:b,s:o,s:o,s:i,s:i}", "id", (json_int_t)c->id, "name",
        http_json_text(c->name), "source", http_json_text(c->source), "description",
        http_json_text(c->notes), "author", http_json_text(c->author), "position", (int)c->position,
        "hidden", c->hidden, "deleted", c->deleted_at != 0, "deleted_at",
        c->deleted_at != 0 ? http_json_time(c->deleted_at) : json_null(), "created_at",
        http_json_time(c->created_at), "levels", (int)c->levels, "deleted_levels", (int)c->deleted);
}

static json_t *solver_json(const struct storage_admin_level *l)
{
    if (strcmp(l->solver_status, "none") == 0)
        return json_null();
    json_t *o = json_pack("{s:s}", "status", l->solver_status);
    if (o != NULL && strcmp(l->solver_status, "solvable") == 0) {
        json_object_set_new(o, "moves", json_integer(l->solver_moves));
        json_object_set_new(o, "pushes", json_integer(l->solver_pushes));
    }
    return o;
}

static json_t *level_json(const struct storage_admin_level *l)
{
    return json_pack(
        "{s:I,s:I,s:i,s:o,s:o,s:o,s:i,s:i,s:i,s:o,s:o,s:b,s:b,s:o,s:o,s:i,s:i,s:i}", "id",
        (json_int_t)l->id, "collection_id", (json_int_t)l->collection_id, "position",
        (int)l->position, "title", http_json_text(l->title), "author", http_json_text(l->author),
        "comment", http_json_text(l->comment), "width", (int)l->width, "height", (int)l->height,
        "boxes", (int)l->boxes, "rows", check_report_rows(l->board), "canonical_hash",
        http_json_text(l->canonical_hash), "hidden", l->hidden, "deleted", l->deleted_at != 0,
        "deleted_at", l->deleted_at != 0 ? http_json_time(l->deleted_at) : json_null(), "solver",
        solver_json(l), "games", (int)l->games, "player_solutions", (int)l->solutions,
        "reference_solutions", (int)l->references);
}

static int add_collection(void *arg, const struct storage_admin_collection *c)
{
    return json_array_append_new(arg, collection_json(c)) != 0;
}

static int take_collection(void *arg, const struct storage_admin_collection *c)
{
    *(json_t **)arg = collection_json(c);
    return 0;
}

static int add_level(void *arg, const struct storage_admin_level *l)
{
    return json_array_append_new(arg, level_json(l)) != 0;
}

static int take_level(void *arg, const struct storage_admin_level *l)
{
    *(json_t **)arg = level_json(l);
    return 0;
}

static int add_reference(void *arg, const struct storage_reference *r)
{
    return json_array_append_new(arg,
                                 json_pack("{s:I,s:o,s:s,s:i,s:i}", "id", (json_int_t)r->id,
                                           "title", http_json_text(r->title), "lurd", r->lurd,
                                           "moves", (int)r->moves, "pushes", (int)r->pushes)) != 0;
}

static int no_collection(struct http_conn *c)
{
    return reply_error(c, API_E_COLLECTION_NOT_FOUND, "there is no collection %lld",
                       (long long)c->param[0]);
}

static int no_level(struct http_conn *c)
{
    return reply_error(c, API_E_LEVEL_NOT_FOUND, "there is no level %lld", (long long)c->param[0]);
}

/* Answers {"collection": ..., "levels": [...]} for collection `id`. */
static int reply_collection(struct http_conn *c, unsigned code, int64_t id)
{
    json_t *collection = NULL;
    int status = storage_admin_collection_get(id, take_collection, &collection);
    if (status == STORAGE_NOT_FOUND)
        return no_collection(c);
    json_t *levels = json_array();
    if (status == STORAGE_OK)
        status = storage_admin_levels_each(id, add_level, levels);
    if (status != STORAGE_OK || collection == NULL) {
        json_decref(collection);
        json_decref(levels);
        return reply_storage_failure(c, status);
    }
    return reply_json(c, code, json_pack("{s:o,s:o}", "collection", collection, "levels", levels));
}

/* Answers {"level": ...} with its reference solutions. */
static int reply_level(struct http_conn *c, unsigned code, int64_t id)
{
    json_t *level = NULL;
    int status = storage_admin_level_get(id, take_level, &level);
    if (status == STORAGE_NOT_FOUND)
        return no_level(c);
    json_t *refs = json_array();
    if (status == STORAGE_OK)
        status = storage_references_each(id, add_reference, refs);
    if (status != STORAGE_OK || level == NULL) {
        json_decref(level);
        json_decref(refs);
        return reply_storage_failure(c, status);
    }
    json_object_set_new(level, "references", refs);
    return reply_json(c, code, json_pack("{s:o}", "level", level));
}

int manage_collections(struct http_conn *c)
{
    int result = MHD_NO;
    struct audit_actor who;
    if (!admin_require(c, &who, &result))
        return result;
    json_t *list = json_array();
    int status = storage_admin_collections_each(add_collection, list);
    if (status != STORAGE_OK) {
        json_decref(list);
        return reply_storage_failure(c, status);
    }
    return reply_json(c, 200, json_pack("{s:o}", "collections", list));
}

int manage_collection(struct http_conn *c)
{
    int result = MHD_NO;
    struct audit_actor who;
    if (!admin_require(c, &who, &result))
        return result;
    return reply_collection(c, 200, c->param[0]);
}

int manage_level(struct http_conn *c)
{
    int result = MHD_NO;
    struct audit_actor who;
    if (!admin_require(c, &who, &result))
        return result;
    return reply_level(c, 200, c->param[0]);
}

/* A text field of a PATCH body, t (NULL text when absent); false after
 * answering 400 when it is too long, or holds a line break where one line
 * is wanted. */
static bool text_field(struct http_conn *c, const struct body_text *t, const char *name,
                       bool one_line, bool required_text, const char **out, int *result)
{
    *out = t->text;
    if (t->text == NULL)
        return true;
    size_t len = t->len;
    size_t max = one_line ? NAME_MAX_BYTES : TEXT_MAX_BYTES;
    if (len > max || (required_text && len == 0) || strlen(*out) != len ||
        (one_line && strpbrk(*out, "\r\n\t") != NULL)) {
        *result = reply_error(
            c, API_E_INVALID_VALUE, "'%s' must be %s of at most %zu bytes", name,
            one_line ? (required_text ? "one non-empty line" : "one line") : "text", max);
        return false;
    }
    return true;
}

/* Adds {"field": {"from": old, "to": new}} to details when a value changes. */
static void change(json_t *details, const char *field, const char *from, const char *to)
{
    if (to != NULL && strcmp(from, to) != 0)
        json_object_set_new(details, field, json_pack("{s:s,s:s}", "from", from, "to", to));
}

static void change_flag(json_t *details, const char *field, bool from, int to)
{
    if (to >= 0 && (to != 0) != from)
        json_object_set_new(details, field, json_pack("{s:b,s:b}", "from", from, "to", to != 0));
}

/* The PATCH body of a collection or a level: its three texts (NULL when
 * absent) and the hidden flag (-1 when absent), and what they change. */
struct patch {
    bool collection;
    const char *text[3];
    int hidden;
    json_t *details;
};

/* The names of the three texts: a level's, then a collection's. */
static const char *const patch_fields[2][3] = {
    {"title", "comment", "author"},
    {"name", "description", "author"},
};

static void note_changes(struct patch *p, const char *const from[3], bool hidden)
{
    for (int i = 0; i < 3; i++)
        change(p->details, patch_fields[p->collection][i], from[i], p->text[i]);
    change_flag(p->details, "hidden", hidden, p->hidden);
}

static int patch_collection(void *arg, const struct storage_admin_collection *c)
{
    note_changes(arg, (const char *const[3]){c->name, c->notes, c->author}, c->hidden);
    return 0;
}

static int patch_level(void *arg, const struct storage_admin_level *l)
{
    note_changes(arg, (const char *const[3]){l->title, l->comment, l->author}, l->hidden);
    return 0;
}

/* Checks the admin (*who) and reads the PATCH body into p; false after
 * answering (*result set). p's texts point into *body, which the caller
 * releases. */
static bool patch_read(struct http_conn *c, struct audit_actor *who, struct patch *p, json_t **body,
                       int *result)
{
    const char *const *field = patch_fields[p->collection];
    struct body_text text[3] = {{0}};
    bool hidden = false, has_hidden = false;
    struct body_field spec[] = {
        body_optional(body_text(field[0], &text[0]), NULL),
        body_optional(body_text(field[1], &text[1]), NULL),
        body_optional(body_text(field[2], &text[2]), NULL),
        body_optional(body_boolean("hidden", &hidden), &has_hidden),
        body_end(),
    };
    *body = admin_body(c, who, spec, result);
    if (*body == NULL)
        return false;
    p->hidden = has_hidden ? hidden : -1;
    /* A collection must keep a name; a level may lose its title. */
    return text_field(c, &text[0], field[0], true, p->collection, &p->text[0], result) &&
           text_field(c, &text[1], field[1], false, false, &p->text[1], result) &&
           text_field(c, &text[2], field[2], true, false, &p->text[2], result);
}

/* Applies p to collection or level `id` with its audit entry, in one
 * transaction. Returns the final STORAGE_* code. */
static int patch_store(const struct audit_actor *who, int64_t id, struct patch *p)
{
    const char *kind = p->collection ? "collection" : "level";
    char target[48], action[32];
    admin_target(target, sizeof target, kind, id);
    snprintf(action, sizeof action, "%s.update", kind);
    int status;
    unsigned runs = 0;
    do {
        /* The changes are noted afresh on each run. */
        json_object_clear(p->details);
        status = storage_begin();
        if (status == STORAGE_OK)
            status = p->collection ? storage_admin_collection_get(id, patch_collection, p)
                                   : storage_admin_level_get(id, patch_level, p);
        if (status == STORAGE_OK)
            status =
                p->collection
                    ? storage_collection_update(id, p->text[0], p->text[1], p->text[2], p->hidden)
                    : storage_level_update(id, p->text[0], p->text[1], p->text[2], p->hidden);
        if (status == STORAGE_OK && json_object_size(p->details) > 0)
            status = audit_record(who, action, target, json_incref(p->details));
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    return status;
}

/* Answers an update that reached the database: the item as it is now, or
 * what went wrong. `name` is the collection name asked for. */
static int reply_update(struct http_conn *c, bool collection, int status, const char *name)
{
    if (status == STORAGE_CONFLICT && collection)
        return reply_error(c, API_E_COLLECTION_NAME_TAKEN,
                           "a collection (perhaps a deleted one) is named '%s' already", name);
    if (status == STORAGE_NOT_FOUND)
        return collection ? no_collection(c) : no_level(c);
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    return collection ? reply_collection(c, 200, c->param[0]) : reply_level(c, 200, c->param[0]);
}

/* Renames, describes, credits, hides or shows a collection or a level. */
static int update(struct http_conn *c, bool collection)
{
    int result = MHD_NO;
    struct audit_actor who;
    json_t *body = NULL;
    struct patch p = {.collection = collection, .details = json_object()};
    if (patch_read(c, &who, &p, &body, &result)) {
        int status = patch_store(&who, c->param[0], &p);
        if (status != STORAGE_STOP)
            result = reply_update(c, collection, status, p.text[0]);
    }
    json_decref(p.details);
    json_decref(body);
    return result;
}

int manage_collection_update(struct http_conn *c)
{
    return update(c, true);
}

int manage_level_update(struct http_conn *c)
{
    return update(c, false);
}

/* Deletes (at now) or restores (at 0) a collection or a level. */
static int set_deleted(struct http_conn *c, bool collection, bool deleted)
{
    int result = MHD_NO;
    struct audit_actor who;
    json_t *body = admin_body(c, &who, NULL, &result);
    if (body == NULL)
        return result;
    json_decref(body);
    char target[48];
    admin_target(target, sizeof target, collection ? "collection" : "level", c->param[0]);
    int64_t at = deleted ? clock_now() : 0;
    char action[32];
    snprintf(action, sizeof action, "%s.%s", collection ? "collection" : "level",
             deleted ? "delete" : "restore");
    int status;
    unsigned runs = 0;
    do {
        status = storage_begin();
        if (status == STORAGE_OK)
            status = collection ? storage_collection_set_deleted(c->param[0], at)
                                : storage_level_set_deleted(c->param[0], at);
        if (status == STORAGE_OK)
            status = audit_record(&who, action, target, NULL);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    if (status == STORAGE_NOT_FOUND)
        return collection ? no_collection(c) : no_level(c);
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    return collection ? reply_collection(c, 200, c->param[0]) : reply_level(c, 200, c->param[0]);
}

int manage_collection_delete(struct http_conn *c)
{
    return set_deleted(c, true, true);
}

int manage_collection_restore(struct http_conn *c)
{
    return set_deleted(c, true, false);
}

int manage_level_delete(struct http_conn *c)
{
    return set_deleted(c, false, true);
}

int manage_level_restore(struct http_conn *c)
{
    return set_deleted(c, false, false);
}

/* ---- Reordering -------------------------------------------------------------------------- */

/* Ids in their current order, deleted or not. */
struct order {
    int64_t *ids;
    bool *deleted;
    size_t n, cap;
};

static bool order_add(struct order *o, int64_t id, bool deleted)
{
    if (o->n == o->cap) {
        size_t cap = o->cap == 0 ? 64 : o->cap * 2;
        int64_t *ids = realloc(o->ids, cap * sizeof *ids);
        if (ids != NULL)
            o->ids = ids;
        bool *del = realloc(o->deleted, cap * sizeof *del);
        if (del != NULL)
            o->deleted = del;
        if (ids == NULL || del == NULL)
            return false;
        o->cap = cap;
    }
    o->ids[o->n] = id;
    o->deleted[o->n] = deleted;
    o->n++;
    return true;
}

static int collect_collection(void *arg, const struct storage_admin_collection *c)
{
    return !order_add(arg, c->id, c->deleted_at != 0);
}

static int collect_level(void *arg, const struct storage_admin_level *l)
{
    return !order_add(arg, l->id, l->deleted_at != 0);
}

/* Puts the ids listed in `wanted` first, in its order, then the deleted
 * ones in their old order, into o->ids. The list must hold every id that
 * is not deleted, once. Returns NULL, or what is wrong. */
static const char *reorder(struct order *o, json_t *wanted, char *why, size_t cap)
{
    size_t n = json_array_size(wanted), active = 0;
    for (size_t i = 0; i < o->n; i++)
        active += !o->deleted[i];
    int64_t *out = malloc((o->n + 1) * sizeof *out);
    bool *used = calloc(o->n + 1, sizeof *used);
    const char *problem = NULL;
    if (out == NULL || used == NULL)
        problem = "out of memory";
    for (size_t i = 0; problem == NULL && i < n; i++) {
        json_t *v = json_array_get(wanted, i);
        size_t k = 0;
        while (k < o->n && (!json_is_integer(v) || o->ids[k] != json_integer_value(v)))
            k++;
        if (k == o->n || o->deleted[k] || used[k]) {
            snprintf(why, cap,
                     "item %zu is not the id of a listed, not deleted one, or is repeated", i + 1);
            problem = why;
        } else {
            used[k] = true;
            out[i] = o->ids[k];
        }
    }
    if (problem == NULL && n != active) {
        snprintf(why, cap, "the list has %zu ids but there are %zu to order", n, active);
        problem = why;
    }
    for (size_t k = 0, m = n; problem == NULL && k < o->n; k++) {
        if (o->deleted[k])
            out[m++] = o->ids[k];
    }
    if (problem == NULL)
        memcpy(o->ids, out, o->n * sizeof *out);
    free(out);
    free(used);
    return problem;
}

/* Reads the ids to order, deleted or not, in the caller's transaction:
 * every collection, or the levels of collection `id`. */
static int order_load(bool levels, int64_t id, struct order *o)
{
    if (!levels)
        return storage_admin_collections_each(collect_collection, o);
    json_t *none = NULL;
    int status = storage_admin_collection_get(id, take_collection, &none);
    json_decref(none);
    if (status == STORAGE_OK)
        status = storage_admin_levels_each(id, collect_level, o);
    return status;
}

/* Stores the order of o->ids, in the caller's transaction. */
static int order_store(bool levels, int64_t id, const struct order *o)
{
    if (levels)
        return storage_levels_set_order(id, o->ids, o->n);
    int status = STORAGE_OK;
    for (size_t i = 0; status == STORAGE_OK && i < o->n; i++)
        status = storage_collection_set_position(o->ids[i], (uint32_t)i + 1);
    return status;
}

/* Reorders the collections, or the levels of a collection, as the body's
 * list says, with its audit entry, in one transaction. */
static int set_order(struct http_conn *c, bool levels)
{
    int result = MHD_NO;
    struct audit_actor who;
    const char *field = levels ? "levels" : "collections";
    json_t *order = NULL;
    struct body_field spec[] = {body_array(field, &order), body_end()};
    json_t *body = admin_body(c, &who, spec, &result);
    if (body == NULL)
        return result;
    struct order o = {0};
    char why[160], target[48] = "collections";
    const char *problem = NULL;
    if (levels)
        admin_target(target, sizeof target, "collection", c->param[0]);
    int status;
    unsigned runs = 0;
    do {
        /* The order is read afresh on each run. */
        free(o.ids);
        free(o.deleted);
        memset(&o, 0, sizeof o);
        problem = NULL;
        status = storage_begin();
        if (status == STORAGE_OK)
            status = order_load(levels, c->param[0], &o);
        if (status == STORAGE_OK) {
            problem = reorder(&o, order, why, sizeof why);
            status = problem != NULL ? STORAGE_STOP : STORAGE_OK;
        }
        if (status == STORAGE_OK)
            status = order_store(levels, c->param[0], &o);
        if (status == STORAGE_OK)
            status = audit_record(&who, levels ? "collection.order" : "collections.order", target,
                                  json_pack("{s:O}", "order", order));
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    free(o.ids);
    free(o.deleted);
    json_decref(body);
    if (status == STORAGE_NOT_FOUND && levels)
        return no_collection(c);
    if (problem != NULL)
        return reply_error(c, API_E_INVALID_VALUE, "'%s': %s", field, problem);
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    return levels ? reply_collection(c, 200, c->param[0]) : manage_collections(c);
}

int manage_collections_order(struct http_conn *c)
{
    return set_order(c, false);
}

int manage_levels_order(struct http_conn *c)
{
    return set_order(c, true);
}
