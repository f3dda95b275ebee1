/* The operators' endpoints, and the request counters' rows. */
#include "http/ops.h"

#include "base/metrics.h"
#include "http/routes.h"
#include "storage/storage_health.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The methods of requests no route took, each a row of its own after the
 * routes' rows: the bits of enum http_method in order. */
#define METHOD_ROWS 8

static const struct config *settings;
/* The routing table's rows, in order, as the counters name them. */
static const char *route_pattern[METRICS_REQUEST_ROWS_MAX];
static unsigned route_method[METRICS_REQUEST_ROWS_MAX];
static unsigned nroutes;

static void add_route(void *arg, const struct route *route)
{
    (void)arg;
    if (nroutes < METRICS_REQUEST_ROWS_MAX) {
        route_pattern[nroutes] = route->pattern;
        route_method[nroutes] = route->method;
    }
    nroutes++;
}

int ops_setup(const struct config *cfg)
{
    settings = cfg;
    nroutes = 0;
    routes_each("", add_route, NULL);
    if (metrics_requests_setup(nroutes + METHOD_ROWS) != 0) {
        fprintf(stderr, "sokod: %u routes are more than the metrics hold\n", nroutes);
        return -1;
    }
    if (storage_health_remember() != STORAGE_OK) {
        fprintf(stderr, "sokod: cannot read the database's schema version\n");
        return -1;
    }
    return 0;
}

/* The position of a single method bit (0 for HTTP_GET). */
static unsigned method_row(unsigned method)
{
    unsigned i = 0;
    while (i + 1 < METHOD_ROWS && (method & (1u << i)) == 0)
        i++;
    return i;
}

void ops_count(const struct http_conn *c)
{
    if (c->status == 0)
        return;
    unsigned row = c->route > 0 ? c->route - 1 : nroutes + method_row(c->method);
    metrics_request(row, c->status);
}

static void name_row(unsigned row, const char **method, const char **route)
{
    if (row < nroutes) {
        *method = http_method_name(route_method[row]);
        *route = route_pattern[row];
    } else {
        *method = http_method_name(1u << (row - nroutes));
        *route = "unmatched";
    }
}

int ops_healthz(struct http_conn *c)
{
    c->quiet = true;
    return reply_json(c, 200, json_pack("{s:s}", "status", "ok"));
}

/* Answers 503 unavailable, with the reason as a word for the machines. */
static int not_ready(struct http_conn *c, const char *reason, const char *message)
{
    http_attach(c, "reason", json_string(reason));
    return reply_error(c, API_E_UNAVAILABLE, "not ready: %s", message);
}

int ops_readyz(struct http_conn *c)
{
    int version = 0;
    if (storage_health_schema(&version) != STORAGE_OK)
        return not_ready(c, "database_failed", "the database does not answer; see the log");
    int expected = storage_health_expected();
    char message[160];
    if (version != expected) {
        snprintf(message, sizeof message, "the database's schema is version %d, this node's is %d",
                 version, expected);
        return not_ready(c, version > expected ? "schema_newer" : "schema_older", message);
    }
    c->quiet = true;
    return reply_json(c, 200, json_pack("{s:s,s:i}", "status", "ready", "schema", version));
}

/* True when the client may read the metrics: its address (behind a
 * trusted proxy, the one the proxy names) is in --metrics-allow. A
 * request that a proxy not listed in --trusted-proxies forwarded has a
 * client sokod cannot know: a proxy on the same machine would otherwise
 * pass off every client as loopback. */
static bool may_read_metrics(struct http_conn *c)
{
    unsigned char ip[16];
    if (!http_client_ip(c, ip))
        return false;
    if (!c->from_proxy && http_header(c, "X-Forwarded-For") != NULL)
        return false;
    return client_ip_nets_match(&settings->metrics_allow, ip);
}

int ops_metrics(struct http_conn *c)
{
    if (!may_read_metrics(c))
        return reply_error(c, API_E_FORBIDDEN,
                           "the metrics are for the addresses of --metrics-allow only");
    struct textbuf b = {0};
    metrics_write(&b, name_row);
    size_t len = 0;
    char *text = textbuf_take(&b, &len);
    if (text == NULL)
        return reply_error(c, API_E_INTERNAL, "out of memory");
    struct MHD_Response *r = MHD_create_response_from_buffer(len, text, MHD_RESPMEM_MUST_FREE);
    if (r == NULL) {
        free(text);
        return reply_error(c, API_E_INTERNAL, "out of memory");
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
                            "text/plain; version=0.0.4; charset=utf-8");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    return http_queue(c, 200, r, len);
}
