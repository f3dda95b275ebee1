/* The routing table: which handler answers which method and path. */
#ifndef SOKOD_ROUTES_H
#define SOKOD_ROUTES_H

#include "http/http.h"

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
