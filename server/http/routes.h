/* The router: which handler answers which method and path, read from a
 * routing table that the program gives it (server/endpoints.c). */
#ifndef SOKOD_ROUTES_H
#define SOKOD_ROUTES_H

#include "http/http.h"

/* One route: a method (one enum http_method bit), a pattern of literal
 * segments and {id} (a positive integer) or ROUTES_CATCH_ALL, its handler. */
struct route {
    unsigned method;
    const char *pattern;
    http_handler handler;
};

/* The pattern of the static files: any path outside /api/. */
#define ROUTES_CATCH_ALL "/..."

/* Routes with `table` from now on, in its order; it ends with a row whose
 * pattern is NULL and must outlive the router. Call before the daemon
 * starts. */
void routes_use(const struct route *table);

enum route_result { ROUTE_FOUND, ROUTE_NOT_FOUND, ROUTE_WRONG_METHOD };

struct route_match {
    http_handler handler;
    int64_t param[HTTP_MAX_PARAMS];
    unsigned nparams;
    char allow[64]; /* for ROUTE_WRONG_METHOD: the methods the path takes */
};

/* Finds the route of (method, path). ROUTE_FOUND fills handler and params;
 * ROUTE_WRONG_METHOD fills allow ("GET, HEAD"); ROUTE_NOT_FOUND otherwise.
 * A HEAD request matches GET routes. */
enum route_result routes_match(unsigned method, const char *path, struct route_match *m);

/* Calls fn for each route of the table whose pattern starts with `prefix`,
 * in table order, with its method (one enum http_method bit) and pattern. */
void routes_each(const char *prefix, void (*fn)(void *arg, unsigned method, const char *pattern),
                 void *arg);

#endif
