/* The router: finds the route of a request in the routing table it is
 * given (server/endpoints.c holds sokod's). */
#include "http/routes.h"

#include <stdlib.h>
#include <string.h>

/* The table in use (routes_use), ended by a row with no pattern. */
static const struct route *routes;

void routes_use(const struct route *table)
{
    routes = table;
}

void routes_each(const char *prefix, void (*fn)(void *arg, const struct route *route), void *arg)
{
    size_t n = strlen(prefix);
    for (size_t i = 0; routes != NULL && routes[i].pattern != NULL; i++) {
        if (strncmp(routes[i].pattern, prefix, n) == 0)
            fn(arg, &routes[i]);
    }
}

const struct route *routes_row(unsigned index)
{
    return &routes[index];
}

const char *routes_limiter_name(enum route_limiter limiter)
{
    static const char *const names[ROUTE_LIMITERS] = {
        [ROUTE_LIMIT_UNDECLARED] = "undeclared",
        [ROUTE_LIMIT_CONNECTIONS] = "connections",
        [ROUTE_LIMIT_COST] = "cost",
        [ROUTE_LIMIT_STEPS] = "steps",
        [ROUTE_LIMIT_AUTH] = "auth",
        [ROUTE_LIMIT_GUESTS] = "guests",
        [ROUTE_LIMIT_HINTS] = "hints",
        [ROUTE_LIMIT_ROOMS] = "rooms",
        [ROUTE_LIMIT_STREAMS] = "streams",
        [ROUTE_LIMIT_ADDRESSES] = "addresses",
        [ROUTE_LIMIT_ADMIN] = "admin",
    };
    return (unsigned)limiter < ROUTE_LIMITERS ? names[limiter] : "undeclared";
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
    if (strcmp(pattern, ROUTES_CATCH_ALL) == 0)
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
    for (size_t i = 0; routes != NULL && routes[i].pattern != NULL; i++) {
        struct route_match trial = {0};
        if (!pattern_matches(routes[i].pattern, path, &trial))
            continue;
        if (routes[i].method == wanted) {
            m->handler = routes[i].handler;
            m->index = (unsigned)i;
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
