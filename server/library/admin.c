/* Admin endpoints: the rights check every one of them makes, the list of
 * admin routes (from the routing table itself) and the audit log. */
#include "library/admin.h"

#include "accounts/auth.h"
#include "http/routes.h"
#include "storage/storage.h"
#include "storage/storage_admin.h"

#include <stdlib.h>
#include <string.h>

#define AUDIT_PAGE 100
#define AUDIT_PAGE_MAX 1000

bool admin_require(struct http_conn *c, struct audit_actor *who, int *result)
{
    int64_t user;
    if (!auth_user(c, AUTH_OPTIONAL, &user, result))
        return false;
    bool guest = true, admin = false;
    char name[64] = "";
    int status =
        user != 0 ? storage_user_admin(user, &guest, &admin, name, sizeof name) : STORAGE_NOT_FOUND;
    if (status != STORAGE_OK && status != STORAGE_NOT_FOUND) {
        *result = reply_storage_failure(c, status);
        return false;
    }
    if (status == STORAGE_NOT_FOUND || guest) {
        *result =
            reply_error(c, API_E_SIGN_IN_REQUIRED, "this needs an admin account: sign in first");
        return false;
    }
    if (!admin) {
        *result = reply_error(c, API_E_ADMIN_REQUIRED, "the account '%s' is not an admin", name);
        return false;
    }
    who->user_id = user;
    snprintf(who->name, sizeof who->name, "%s", name);
    return true;
}

json_t *admin_body(struct http_conn *c, struct audit_actor *who, const struct body_field *spec,
                   int *result)
{
    if (!admin_require(c, who, result))
        return NULL;
    return body_parse(c, spec, result);
}

void admin_target(char *out, size_t cap, const char *kind, int64_t id)
{
    snprintf(out, cap, "%s %lld", kind, (long long)id);
}

static void add_route(void *arg, const struct route *r)
{
    const struct route_cost *k = &r->cost;
    json_array_append_new(arg, json_pack("{s:s,s:s,s:{s:I,s:I,s:I,s:I,s:s}}", "method",
                                         http_method_name(r->method), "path", r->pattern, "cost",
                                         "disk_kib", (json_int_t)k->disk_kib, "memory_kib",
                                         (json_int_t)k->memory_kib, "answer_kib",
                                         (json_int_t)k->answer_kib, "cpu_ms", (json_int_t)k->cpu_ms,
                                         "limiter", routes_limiter_name(k->limiter)));
}

int admin_routes(struct http_conn *c)
{
    int result = MHD_NO;
    struct audit_actor who;
    if (!admin_require(c, &who, &result))
        return result;
    /* ?all=1: every route, not the admin API's only. */
    const char *all = http_query(c, "all");
    json_t *list = json_array();
    routes_each(all != NULL && strcmp(all, "1") == 0 ? "" : "/api/v1/admin/", add_route, list);
    return reply_json(c, 200, json_pack("{s:o}", "routes", list));
}

static int add_entry(void *arg, const struct storage_audit *a)
{
    json_error_t err;
    json_t *details = json_loads(a->details, 0, &err);
    json_t *entry = json_pack(
        "{s:I,s:o,s:o,s:o,s:o,s:o,s:o}", "id", (json_int_t)a->id, "at", http_json_time(a->at),
        "user_id", a->user_id != 0 ? json_integer(a->user_id) : json_null(), "actor",
        http_json_text(a->actor), "action", http_json_text(a->action), "target",
        http_json_text(a->target), "details", details != NULL ? details : json_object());
    return json_array_append_new(arg, entry) != 0;
}

/* Reads a positive integer query argument; false after answering 400. */
static bool query_number(struct http_conn *c, const char *name, long long max, long long *out,
                         int *result)
{
    const char *text = http_query(c, name);
    if (text == NULL)
        return true;
    char *end = NULL;
    long long v = strtoll(text, &end, 10);
    if (end == text || *end != '\0' || v < 1 || v > max) {
        *result =
            reply_error(c, API_E_INVALID_VALUE, "'%s' must be a number from 1 to %lld", name, max);
        return false;
    }
    *out = v;
    return true;
}

int admin_audit(struct http_conn *c)
{
    int result = MHD_NO;
    struct audit_actor who;
    if (!admin_require(c, &who, &result))
        return result;
    long long before = 0, limit = AUDIT_PAGE;
    if (!query_number(c, "before", INT64_MAX, &before, &result) ||
        !query_number(c, "limit", AUDIT_PAGE_MAX, &limit, &result))
        return result;
    json_t *entries = json_array();
    int status = storage_audit_each(before, (int)limit, add_entry, entries);
    if (status != STORAGE_OK) {
        json_decref(entries);
        return reply_storage_failure(c, status);
    }
    size_t n = json_array_size(entries);
    json_t *last =
        n == (size_t)limit ? json_object_get(json_array_get(entries, n - 1), "id") : NULL;
    return reply_json(c, 200,
                      json_pack("{s:o,s:O}", "entries", entries, "next_before",
                                last != NULL ? last : json_null()));
}
