/* libFuzzer target: any method and path through the router. A second,
 * deliberately plain matcher written here from the same table (through
 * routes_each) is the oracle: the router must find a route exactly when it
 * does, with the same {id} values, and list exactly the methods it finds
 * when the method is wrong. Input: one byte picking the method; then either
 * the path itself or, when the byte's high bit is set, a byte picking a
 * route of the table whose pattern becomes the path with each {id} replaced
 * by the input's next piece up to a ','. */
#include "endpoints.h"
#include "http/routes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const unsigned METHODS[] = {HTTP_GET,   HTTP_HEAD,   HTTP_POST,    HTTP_PUT,
                                   HTTP_PATCH, HTTP_DELETE, HTTP_OPTIONS, HTTP_OTHER};

struct oracle {
    const char *path;
    unsigned wanted;
    bool found;
    int64_t param[HTTP_MAX_PARAMS];
    unsigned nparams;
    unsigned allowed;
};

/* Reads [s, end) as an id: 1 to 18 digits, no leading zero. */
static bool oracle_id(const char *s, size_t n, int64_t *out)
{
    if (n == 0 || n > 18 || s[0] == '0')
        return false;
    int64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}

/* Splits both strings on '/' and compares segment by segment. */
static bool oracle_matches(const char *pattern, const char *path, int64_t *param, unsigned *n)
{
    if (strcmp(pattern, "/...") == 0)
        return path[0] == '/' && strncmp(path, "/api/", 5) != 0 && strcmp(path, "/api") != 0;
    *n = 0;
    size_t plen = strlen(pattern), qlen = strlen(path);
    size_t i = 0, j = 0;
    for (;;) {
        if (i == plen || j == qlen)
            return i == plen && j == qlen;
        if (pattern[i] != '/' || path[j] != '/')
            return false;
        size_t pi = ++i, qj = ++j;
        while (i < plen && pattern[i] != '/')
            i++;
        while (j < qlen && path[j] != '/')
            j++;
        if (i - pi == 4 && memcmp(pattern + pi, "{id}", 4) == 0) {
            if (*n == HTTP_MAX_PARAMS || !oracle_id(path + qj, j - qj, &param[*n]))
                return false;
            (*n)++;
        } else if (i - pi != j - qj || memcmp(pattern + pi, path + qj, i - pi) != 0) {
            return false;
        }
    }
}

static void oracle_route(void *arg, const struct route *r)
{
    unsigned method = r->method;
    const char *pattern = r->pattern;
    struct oracle *o = arg;
    int64_t param[HTTP_MAX_PARAMS];
    unsigned n = 0;
    if (o->found || !oracle_matches(pattern, o->path, param, &n))
        return;
    if (method == o->wanted) {
        o->found = true;
        o->nparams = n;
        memcpy(o->param, param, sizeof param);
    } else {
        o->allowed |= method;
    }
}

struct pick {
    unsigned want, seen;
    const char *pattern;
};

static void pick_route(void *arg, const struct route *r)
{
    struct pick *p = arg;
    if (p->seen++ == p->want)
        p->pattern = r->pattern;
}

/* Writes route data[0]'s pattern into out with each {id} replaced by the
 * next ','-separated piece of data[1..size). */
static void path_from_table(const uint8_t *data, size_t size, char *out, size_t cap)
{
    struct pick p = {.want = data[0]};
    routes_each("", pick_route, &p);
    if (p.pattern == NULL) {
        p = (struct pick){.want = data[0] % p.seen};
        routes_each("", pick_route, &p);
    }
    size_t n = 0, k = 1;
    for (const char *s = p.pattern; *s != '\0' && n + 1 < cap; s++) {
        if (strncmp(s, "{id}", 4) != 0) {
            out[n++] = *s;
            continue;
        }
        while (k < size && data[k] != ',' && n + 1 < cap)
            out[n++] = (char)data[k++];
        k++;
        s += 3;
    }
    out[n] = '\0';
}

/* The router reads sokod's own table. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    routes_use(endpoints_table);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    unsigned method = METHODS[data[0] % (sizeof METHODS / sizeof METHODS[0])];
    size_t cap = size + 256;
    char *path = malloc(cap);
    if (data[0] & 0x80 && size >= 2) {
        path_from_table(data + 1, size - 1, path, cap);
    } else {
        memcpy(path, data + 1, size - 1);
        path[size - 1] = '\0';
    }

    struct route_match m;
    enum route_result r = routes_match(method, path, &m);
    struct oracle o = {.path = path, .wanted = method == HTTP_HEAD ? HTTP_GET : method};
    routes_each("", oracle_route, &o);

    if ((r == ROUTE_FOUND) != o.found) {
        fprintf(stderr, "method %u path \"%s\": router %d, oracle %s\n", method, path, r,
                o.found ? "found" : "not found");
        abort();
    }
    if (r == ROUTE_FOUND) {
        if (m.handler == NULL || m.nparams != o.nparams ||
            memcmp(m.param, o.param, o.nparams * sizeof o.param[0]) != 0)
            abort();
    } else if ((r == ROUTE_WRONG_METHOD) != (o.allowed != 0)) {
        fprintf(stderr, "method %u path \"%s\": router %d, oracle allows %#x\n", method, path, r,
                o.allowed);
        abort();
    } else if (r == ROUTE_WRONG_METHOD) {
        /* Allow lists each method the table has for this path, and HEAD with GET. */
        static const struct {
            unsigned bit;
            const char *name;
        } names[] = {{HTTP_GET, "GET"},
                     {HTTP_POST, "POST"},
                     {HTTP_PUT, "PUT"},
                     {HTTP_PATCH, "PATCH"},
                     {HTTP_DELETE, "DELETE"}};
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            bool listed = strstr(m.allow, names[i].name) != NULL;
            if (listed != ((o.allowed & names[i].bit) != 0))
                abort();
        }
        if ((strstr(m.allow, "HEAD") != NULL) != ((o.allowed & HTTP_GET) != 0))
            abort();
    }
    free(path);
    return 0;
}
