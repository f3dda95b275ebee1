/* The routing table of sokod, and the matcher that reads it. */
#include "http/routes.h"

#include "accounts/settings.h"
#include "http/handlers.h"

#include <stdlib.h>
#include <string.h>

struct route {
    unsigned method;
    const char *pattern; /* literal segments and {id} (a positive integer), or CATCH_ALL */
    http_handler handler;
};

/* The pattern of the static files: any path outside /api/. */
#define CATCH_ALL "/..."

/* Every route of sokod. The static files come last. */
static const struct route routes[] = {
    {HTTP_GET, "/api/v1/account", accounts_whoami},
    {HTTP_POST, "/api/v1/account/signup", accounts_signup},
    {HTTP_POST, "/api/v1/account/login", accounts_login},
    {HTTP_POST, "/api/v1/account/logout", accounts_logout},
    {HTTP_POST, "/api/v1/account/logout-all", sessions_logout_all},
    {HTTP_POST, "/api/v1/account/password", sessions_password},
    {HTTP_GET, "/api/v1/account/settings", settings_get},
    {HTTP_PUT, "/api/v1/account/settings", settings_put},
    {HTTP_GET, "/api/v1/collections", catalog_collections},
    {HTTP_GET, "/api/v1/collections/{id}", catalog_collection},
    {HTTP_GET, "/api/v1/levels/{id}", catalog_level},
    {HTTP_GET, "/api/v1/daily", daily_get},
    {HTTP_GET, "/api/v1/daily/leaderboard", leaderboard_daily},
    {HTTP_GET, "/api/v1/daily/streak", leaderboard_streak},
    {HTTP_POST, "/api/v1/levels/{id}/game", games_open},
    {HTTP_GET, "/api/v1/levels/{id}/leaderboard", leaderboard_level},
    {HTTP_GET, "/api/v1/solutions/{id}", leaderboard_solution},
    {HTTP_GET, "/api/v1/games/{id}", games_get},
    {HTTP_POST, "/api/v1/games/{id}/log", games_log},
    {HTTP_POST, "/api/v1/games/{id}/walk", point_walk},
    {HTTP_POST, "/api/v1/games/{id}/push", point_push},
    {HTTP_GET, "/api/v1/games/{id}/reach", point_reach},
    {HTTP_POST, "/api/v1/games/{id}/hint", hint_ask},
    {HTTP_GET, "/api/v1/progress", progress_get},
    {HTTP_GET, "/api/v1/events", live_events},
    {HTTP_GET, "/api/v1/rooms", rooms_list},
    {HTTP_POST, "/api/v1/rooms", rooms_create},
    {HTTP_GET, "/api/v1/rooms/{id}", rooms_get},
    {HTTP_POST, "/api/v1/rooms/{id}/join", rooms_join},
    {HTTP_POST, "/api/v1/rooms/{id}/leave", rooms_leave},
    {HTTP_POST, "/api/v1/rooms/{id}/start", rooms_start},
    {HTTP_POST, "/api/v1/rooms/{id}/rematch", rooms_rematch},
    {HTTP_GET, "/api/v1/watch/{id}", watch_get},
    {HTTP_GET, "/api/v1/progress/export", progress_export},
    {HTTP_GET, "/api/v1/admin/routes", admin_routes},
    {HTTP_GET, "/api/v1/admin/audit", admin_audit},
    {HTTP_GET, "/api/v1/admin/uploads", uploads_list},
    {HTTP_POST, "/api/v1/admin/uploads", uploads_create},
    {HTTP_GET, "/api/v1/admin/uploads/{id}", uploads_get},
    {HTTP_DELETE, "/api/v1/admin/uploads/{id}", uploads_discard},
    {HTTP_POST, "/api/v1/admin/uploads/{id}/parts", uploads_part},
    {HTTP_POST, "/api/v1/admin/uploads/{id}/import", uploads_import},
    {HTTP_GET, "/api/v1/admin/collections", manage_collections},
    {HTTP_PUT, "/api/v1/admin/collections/order", manage_collections_order},
    {HTTP_GET, "/api/v1/admin/collections/{id}", manage_collection},
    {HTTP_PATCH, "/api/v1/admin/collections/{id}", manage_collection_update},
    {HTTP_DELETE, "/api/v1/admin/collections/{id}", manage_collection_delete},
    {HTTP_POST, "/api/v1/admin/collections/{id}/restore", manage_collection_restore},
    {HTTP_PUT, "/api/v1/admin/collections/{id}/order", manage_levels_order},
    {HTTP_GET, "/api/v1/admin/collections/{id}/export", exports_collection},
    {HTTP_GET, "/api/v1/admin/levels/{id}", manage_level},
    {HTTP_PATCH, "/api/v1/admin/levels/{id}", manage_level_update},
    {HTTP_DELETE, "/api/v1/admin/levels/{id}", manage_level_delete},
    {HTTP_POST, "/api/v1/admin/levels/{id}/restore", manage_level_restore},
    {HTTP_GET, "/core.wasm", static_wasm},
    {HTTP_GET, CATCH_ALL, static_get},
};

#define NROUTES (sizeof routes / sizeof routes[0])

void routes_each(const char *prefix, void (*fn)(void *arg, unsigned method, const char *pattern),
                 void *arg)
{
    size_t n = strlen(prefix);
    for (size_t i = 0; i < NROUTES; i++) {
        if (strncmp(routes[i].pattern, prefix, n) == 0)
            fn(arg, routes[i].method, routes[i].pattern);
    }
}

/* Reads a positive decimal integer that fits an int64 from [s, end). */
static bool parse_id(const char *s, const char *end, int64_t *out)
{
    if (s == end || end - s > 18 || *s == '0')
        return false;
    int64_t v = 0;
    for (const char *p = s; p < end; p++) {
        if (*p < '0' || *p > '9')
            return false;
        v = v * 10 + (*p - '0');
    }
    *out = v;
    return true;
}

/* Matches path against one pattern, segment by segment, collecting {id}s. */
static bool pattern_matches(const char *pattern, const char *path, struct route_match *m)
{
    if (strcmp(pattern, CATCH_ALL) == 0)
        return path[0] == '/' && strncmp(path, "/api/", 5) != 0 && strcmp(path, "/api") != 0;
    m->nparams = 0;
    const char *p = pattern, *q = path;
    while (*p != '\0' && *q != '\0') {
        if (*p != '/' || *q != '/')
            return false;
        p++;
        q++;
        const char *pend = strchrnul(p, '/');
        const char *qend = strchrnul(q, '/');
        if (pend - p == 4 && strncmp(p, "{id}", 4) == 0) {
            if (m->nparams == HTTP_MAX_PARAMS || !parse_id(q, qend, &m->param[m->nparams]))
                return false;
            m->nparams++;
        } else if (pend - p != qend - q || strncmp(p, q, (size_t)(pend - p)) != 0) {
            return false;
        }
        p = pend;
        q = qend;
    }
    return *p == '\0' && *q == '\0';
}

static void append_method(char *allow, size_t cap, const char *name)
{
    size_t len = strlen(allow);
    snprintf(allow + len, cap - len, "%s%s", len > 0 ? ", " : "", name);
}

enum route_result routes_match(unsigned method, const char *path, struct route_match *m)
{
    memset(m, 0, sizeof *m);
    unsigned wanted = method == HTTP_HEAD ? HTTP_GET : method;
    unsigned allowed = 0;
    for (size_t i = 0; i < NROUTES; i++) {
        struct route_match trial = {0};
        if (!pattern_matches(routes[i].pattern, path, &trial))
            continue;
        if (routes[i].method == wanted) {
            m->handler = routes[i].handler;
            m->nparams = trial.nparams;
            memcpy(m->param, trial.param, sizeof m->param);
            return ROUTE_FOUND;
        }
        allowed |= routes[i].method;
    }
    if (allowed == 0)
        return ROUTE_NOT_FOUND;
    static const struct {
        unsigned bit;
        const char *name;
    } order[] = {{HTTP_GET, "GET"}, {HTTP_HEAD, "HEAD"},   {HTTP_POST, "POST"},
                 {HTTP_PUT, "PUT"}, {HTTP_PATCH, "PATCH"}, {HTTP_DELETE, "DELETE"}};
    if (allowed & HTTP_GET)
        allowed |= HTTP_HEAD;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        if (allowed & order[i].bit)
            append_method(m->allow, sizeof m->allow, order[i].name);
    }
    return ROUTE_WRONG_METHOD;
}
