/* The operators' endpoints: GET /healthz and GET /readyz for a load
 * balancer, GET /metrics for Prometheus; and the count of every request
 * by its route and status. */
#ifndef SOKOD_OPS_H
#define SOKOD_OPS_H

#include "base/config.h"
#include "http/http.h"

/* Readies the request counters for the routing table in use (routes_use
 * first) and remembers the database's schema version as this node's.
 * cfg must outlive the endpoints. Returns 0, or -1 (said on stderr). */
int ops_setup(const struct config *cfg);

/* Counts a request once it has ended, by its route (or its method when no
 * route took it) and the status it was answered with; a request never
 * answered is not counted. */
void ops_count(const struct http_conn *c);

/* GET /healthz: 200 {"status": "ok"} while the process serves. */
int ops_healthz(struct http_conn *c);

/* GET /readyz: 200 {"status": "ready", "schema": N} when the database
 * answers and holds the schema this node was started with; otherwise 503
 * unavailable with a "reason" (database_failed, schema_newer,
 * schema_older). */
int ops_readyz(struct http_conn *c);

/* GET /metrics: the metrics in the Prometheus text format, to the clients
 * of --metrics-allow; 403 forbidden to any other. */
int ops_metrics(struct http_conn *c);

#endif
