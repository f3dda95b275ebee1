/* The router: which handler answers which method and path, read from a
 * routing table that the program gives it (server/endpoints.c). */
#ifndef SOKOD_ROUTES_H
#define SOKOD_ROUTES_H

#include "http/http.h"

/* Who may call a route how often: the limiter that bounds its callers,
 * besides the connections every address is allowed (--max-connections,
 * --connections-per-address). */
enum route_limiter {
    ROUTE_LIMIT_UNDECLARED,  /* a row that declares no cost: the route-cost test fails */
    ROUTE_LIMIT_CONNECTIONS, /* cheap and bounded: the connection caps alone */
    ROUTE_LIMIT_COST,        /* the declared CPU charged to the client's address (cost_limit.h) */
    ROUTE_LIMIT_STEPS,       /* steps per player and per address (room_state.h) */
    ROUTE_LIMIT_AUTH,        /* --auth-per-minute per address, wrong passwords per name */
    ROUTE_LIMIT_GUESTS,      /* --guests-per-minute new guests per address */
    ROUTE_LIMIT_HINTS,       /* --hint-jobs searches at once, one per player */
    ROUTE_LIMIT_ROOMS,       /* rooms per player and per address, --max-rooms */
    ROUTE_LIMIT_STREAMS,     /* --max-streams, --streams-per-address */
    ROUTE_LIMIT_ADDRESSES,   /* --metrics-allow */
    ROUTE_LIMIT_ADMIN,       /* admins only */
    ROUTE_LIMITERS
};

/* What one request of a route may cost the server at most, with the
 * default flags: the route-cost test (tests/server/route_costs.test.mjs)
 * sends each route its most expensive request and holds it to these.
 * Bytes added to the database and held in memory until answered (the
 * request's body, its work, its answer), the answer's size (0: a stream,
 * bounded by --events-memory instead) and CPU time, in milliseconds of a
 * Release build. */
struct route_cost {
    uint32_t disk_kib;
    uint32_t memory_kib;
    uint32_t answer_kib;
    uint32_t cpu_ms;
    enum route_limiter limiter;
};

/* A row's cost, in the order of struct route_cost. */
#define ROUTE_COST(disk, memory, answer, cpu, limit)                                               \
    {                                                                                              \
        (disk), (memory), (answer), (cpu), ROUTE_LIMIT_##limit                                     \
    }

/* One route: a method (one enum http_method bit), a pattern of literal
 * segments and {id} (a positive integer) or ROUTES_CATCH_ALL, its handler,
 * and what one request may cost. */
struct route {
    unsigned method;
    const char *pattern;
    http_handler handler;
    struct route_cost cost;
};

/* The limiter's name, as the admin API and the docs write it. */
const char *routes_limiter_name(enum route_limiter limiter);

/* The pattern of the static files: any path outside /api/. */
#define ROUTES_CATCH_ALL "/..."

/* Routes with `table` from now on, in its order; it ends with a row whose
 * pattern is NULL and must outlive the router. Call before the daemon
 * starts. */
void routes_use(const struct route *table);

enum route_result { ROUTE_FOUND, ROUTE_NOT_FOUND, ROUTE_WRONG_METHOD };

struct route_match {
    http_handler handler;
    unsigned index; /* the row of the table, for ROUTE_FOUND */
    int64_t param[HTTP_MAX_PARAMS];
    unsigned nparams;
    char allow[64]; /* for ROUTE_WRONG_METHOD: the methods the path takes */
};

/* Finds the route of (method, path). ROUTE_FOUND fills handler, index and
 * params;
 * ROUTE_WRONG_METHOD fills allow ("GET, HEAD"); ROUTE_NOT_FOUND otherwise.
 * A HEAD request matches GET routes. */
enum route_result routes_match(unsigned method, const char *path, struct route_match *m);

/* Calls fn for each route of the table whose pattern starts with `prefix`,
 * in table order. */
void routes_each(const char *prefix, void (*fn)(void *arg, const struct route *route), void *arg);

/* The route of row `index` of the table in use (route_match.index). */
const struct route *routes_row(unsigned index);

#endif
