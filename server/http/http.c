/* One request and every way to answer it: its headers, client, cookies
 * and query; JSON answers and errors; suspending it for work elsewhere.
 * daemon.c reads the requests off the connections. */
#include "http/http.h"

#include "base/clock.h"
#include "base/textbuf.h"
#include "http/address_count.h"
#include "http/ratelimit.h"
#include "http/security_headers.h"
#include "http/worker.h"
#include "storage/storage_codes.h"
#include "storage/storage_quota.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* A suspended connection: what answers it once woken, and its work for
 * the worker pool (http_defer) if any. */
struct http_deferred {
    void (*work)(void *arg);
    int (*done)(struct http_conn *c, void *arg);
    void (*release)(void *arg);
    void *arg;
    struct http_conn *conn;
    atomic_bool finished;
};

/* X-Forwarded-For headers read from one request, the right-most ones. */
#define HTTP_FORWARDED_MAX 16
/* Seconds a client refused a live stream is told to wait: streams end when
 * their tabs close, which takes a while. */
#define HTTP_STREAM_RETRY_S 10

static const struct config *settings;
static atomic_int in_flight;
/* Live streams per client (--streams-per-address, --max-streams). */
static struct address_count *open_streams;

struct http_stream_slot {
    char key[CLIENT_IP_KEY_MAX];
};

static const struct {
    const char *name;
    unsigned bit;
} methods[] = {{"GET", HTTP_GET},        {"HEAD", HTTP_HEAD},   {"POST", HTTP_POST},
               {"PUT", HTTP_PUT},        {"PATCH", HTTP_PATCH}, {"DELETE", HTTP_DELETE},
               {"OPTIONS", HTTP_OPTIONS}};

static unsigned method_bit(const char *m)
{
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        if (strcmp(m, methods[i].name) == 0)
            return methods[i].bit;
    }
    return HTTP_OTHER;
}

const char *http_method_name(unsigned method)
{
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        if (method == methods[i].bit)
            return methods[i].name;
    }
    return "OTHER";
}

struct http_conn *http_conn_new(struct MHD_Connection *mhd, const char *url, const char *method)
{
    struct http_conn *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->mhd = mhd;
    c->start_us = clock_mono_us();
    c->method = method_bit(method);
    snprintf(c->method_name, sizeof c->method_name, "%s", method);
    c->path = strdup(url);
    if (c->path == NULL) {
        free(c);
        return NULL;
    }
    atomic_fetch_add(&in_flight, 1);
    return c;
}

void http_conn_free(struct http_conn *c)
{
    json_decref(c->attach);
    if (c->deferred != NULL)
        c->deferred->release(c->deferred->arg);
    free(c->deferred);
    free(c->body);
    free(c->path);
    free(c);
    atomic_fetch_sub(&in_flight, 1);
}

void http_retry_after(struct http_conn *c, unsigned seconds)
{
    c->retry_after = seconds;
}

/* The values of a request's X-Forwarded-For headers, in order: the
 * right-most HTTP_FORWARDED_MAX, as the walk starts from the right. */
struct forwarded {
    const char *value[HTTP_FORWARDED_MAX];
    unsigned n;
};

static enum MHD_Result collect_forwarded(void *cls, enum MHD_ValueKind kind, const char *key,
                                         const char *value)
{
    (void)kind;
    struct forwarded *f = cls;
    if (value == NULL || strcasecmp(key, "X-Forwarded-For") != 0)
        return MHD_YES;
    if (f->n == HTTP_FORWARDED_MAX) {
        memmove(f->value, f->value + 1, (HTTP_FORWARDED_MAX - 1) * sizeof f->value[0]);
        f->n--;
    }
    f->value[f->n++] = value;
    return MHD_YES;
}

/* Reads the client's address once per request: the peer, or behind a
 * trusted proxy the client that X-Forwarded-For names. */
static void find_client(struct http_conn *c)
{
    c->client_known = true;
    c->client[0] = '\0';
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(c->mhd, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    unsigned char peer[16], client[16];
    if (info == NULL || !client_ip_from_sockaddr(info->client_addr, peer))
        return;
    memcpy(client, peer, sizeof client);
    c->from_proxy = client_ip_nets_match(&settings->trusted_proxies, peer);
    if (c->from_proxy) {
        struct forwarded f = {0};
        MHD_get_connection_values(c->mhd, MHD_HEADER_KIND, collect_forwarded, &f);
        client_ip_forwarded(&settings->trusted_proxies, peer, f.value, f.n, client);
    }
    client_ip_key(client, c->client, sizeof c->client);
    memcpy(c->client_ip, client, sizeof c->client_ip);
    c->client_ip_known = true;
}

void http_client_address(struct http_conn *c, char *out, size_t cap)
{
    if (cap == 0)
        return;
    if (!c->client_known)
        find_client(c);
    snprintf(out, cap, "%s", c->client);
}

bool http_client_ip(struct http_conn *c, unsigned char out[16])
{
    if (!c->client_known)
        find_client(c);
    if (c->client_ip_known)
        memcpy(out, c->client_ip, sizeof c->client_ip);
    return c->client_ip_known;
}

static bool take_in_memory(void *limit, const char *key, unsigned *retry_s)
{
    return ratelimit_take(limit, key, clock_mono_us() / 1000u, retry_s);
}

bool http_limit_client(struct http_conn *c, struct ratelimit *rl, const char *kind,
                       const char *what, const char *more, int *result)
{
    return http_limit_client_by(c, take_in_memory, rl, kind, what, more, result);
}

bool http_limit_client_by(struct http_conn *c,
                          bool (*take)(void *limit, const char *key, unsigned *retry_s),
                          void *limit, const char *kind, const char *what, const char *more,
                          int *result)
{
    if (limit == NULL)
        return true;
    char address[64], key[96];
    http_client_address(c, address, sizeof address);
    snprintf(key, sizeof key, "%s %s", kind, address);
    unsigned retry = 0;
    if (take(limit, key, &retry))
        return true;
    http_retry_after(c, retry);
    *result = reply_error(c, API_E_RATE_LIMITED, "too many %s; try again in %u second%s%s", what,
                          retry, retry == 1 ? "" : "s", more);
    return false;
}

struct http_stream_slot *http_stream_take(struct http_conn *c, int *result)
{
    struct http_stream_slot *slot = calloc(1, sizeof *slot);
    if (slot == NULL) {
        *result = reply_error(c, API_E_INTERNAL, "out of memory");
        return NULL;
    }
    http_client_address(c, slot->key, sizeof slot->key);
    switch (address_count_take(open_streams, slot->key)) {
    case ADDRESS_COUNT_OK:
        return slot;
    case ADDRESS_COUNT_KEY_FULL:
        http_retry_after(c, HTTP_STREAM_RETRY_S);
        http_attach(c, "retry_after", json_integer(HTTP_STREAM_RETRY_S));
        *result = reply_error(c, API_E_RATE_LIMITED,
                              "your address has %u live streams open, as many as one may: "
                              "close one and try again in %u s",
                              settings->streams_per_address, HTTP_STREAM_RETRY_S);
        break;
    case ADDRESS_COUNT_TOTAL_FULL:
        http_retry_after(c, HTTP_STREAM_RETRY_S);
        http_attach(c, "retry_after", json_integer(HTTP_STREAM_RETRY_S));
        *result = reply_error(c, API_E_UNAVAILABLE,
                              "the server has as many live streams open as it allows: try "
                              "again in %u s",
                              HTTP_STREAM_RETRY_S);
        break;
    }
    free(slot);
    return NULL;
}

void http_stream_release(struct http_stream_slot *slot)
{
    if (slot == NULL)
        return;
    if (open_streams != NULL)
        address_count_release(open_streams, slot->key);
    free(slot);
}

const char *http_header(struct http_conn *c, const char *name)
{
    return MHD_lookup_connection_value(c->mhd, MHD_HEADER_KIND, name);
}

const char *http_query(struct http_conn *c, const char *name)
{
    return MHD_lookup_connection_value(c->mhd, MHD_GET_ARGUMENT_KIND, name);
}

const char *http_cookie(struct http_conn *c, const char *name)
{
    return MHD_lookup_connection_value(c->mhd, MHD_COOKIE_KIND, name);
}

bool http_is_https(struct http_conn *c)
{
    if (!c->client_known)
        find_client(c);
    /* Anyone else could claim HTTPS to have cookies sent to them unsecured
     * be marked Secure, or to pass the origin check with https://. */
    if (!c->from_proxy)
        return false;
    const char *proto = http_header(c, "X-Forwarded-Proto");
    return proto != NULL && strcasecmp(proto, "https") == 0;
}

void http_attach(struct http_conn *c, const char *key, json_t *value)
{
    if (value == NULL)
        return;
    if (c->attach == NULL)
        c->attach = json_object();
    if (c->attach != NULL)
        json_object_set_new(c->attach, key, value);
    else
        json_decref(value);
}

int http_queue(struct http_conn *c, unsigned status, struct MHD_Response *r, uint64_t bytes)
{
    if (r == NULL)
        return MHD_NO;
    security_headers_add(r);
    if (c->set_cookie[0] != '\0')
        MHD_add_response_header(r, MHD_HTTP_HEADER_SET_COOKIE, c->set_cookie);
    if (c->device_cookie[0] != '\0')
        MHD_add_response_header(r, MHD_HTTP_HEADER_SET_COOKIE, c->device_cookie);
    if (c->allow[0] != '\0')
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, c->allow);
    if (c->close)
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
    if (c->retry_after != 0) {
        char seconds[16];
        snprintf(seconds, sizeof seconds, "%u", c->retry_after);
        MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, seconds);
    }
    enum MHD_Result result = MHD_queue_response(c->mhd, status, r);
    MHD_destroy_response(r);
    if (result == MHD_YES) {
        c->status = status;
        c->bytes = bytes;
    }
    return result;
}

/* Sends len bytes of JSON text (from malloc, freed here) as they are. */
static int send_json(struct http_conn *c, unsigned status, char *text, size_t len)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(len, text, MHD_RESPMEM_MUST_FREE);
    if (r == NULL) {
        free(text);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json; charset=utf-8");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    return http_queue(c, status, r, len);
}

int reply_json(struct http_conn *c, unsigned status, json_t *body)
{
    if (body == NULL)
        return MHD_NO;
    if (c->attach != NULL)
        json_object_update(body, c->attach);
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    if (text == NULL)
        return MHD_NO;
    return send_json(c, status, text, strlen(text));
}

int reply_json_text(struct http_conn *c, unsigned status, char *text, size_t len)
{
    if (text == NULL)
        return MHD_NO;
    if (c->attach == NULL)
        return send_json(c, status, text, len);
    json_t *body = json_loadb(text, len, 0, NULL);
    free(text);
    return reply_json(c, status, body);
}

json_t *http_json_text(const char *text)
{
    json_t *s = json_string(text);
    if (s != NULL)
        return s;
    char *copy = strdup(text);
    if (copy == NULL)
        return NULL;
    for (char *p = copy; *p != '\0'; p++) {
        if ((unsigned char)*p >= 0x80 || (unsigned char)*p < 0x20)
            *p = '?';
    }
    s = json_string(copy);
    free(copy);
    return s;
}

json_t *http_json_time(int64_t unix_seconds)
{
    time_t t = (time_t)unix_seconds;
    struct tm tm;
    char text[40];
    if (gmtime_r(&t, &tm) == NULL || strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        return json_null();
    return json_string(text);
}

int reply_error(struct http_conn *c, enum api_error code, const char *fmt, ...)
{
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    /* A message may quote a client's bytes, which need not be UTF-8. */
    json_t *text = http_json_text(message);
    json_t *body =
        json_pack("{s:{s:s,s:o}}", "error", "code", api_error_name(code), "message", text);
    return reply_json(c, api_error_status(code), body);
}

int reply_error_text(struct http_conn *c, enum api_error code, const char *message, const char *key,
                     char *json, size_t len)
{
    if (c->attach != NULL) {
        http_attach(c, key, json_loadb(json, len, 0, NULL));
        free(json);
        return reply_error(c, code, "%s", message);
    }
    struct textbuf b = {0};
    const char *name = api_error_name(code);
    textbuf_puts(&b, "{\"error\":{\"code\":");
    textbuf_json_string(&b, name, strlen(name));
    textbuf_puts(&b, ",\"message\":");
    textbuf_json_string(&b, message, strlen(message));
    textbuf_puts(&b, "},");
    textbuf_json_string(&b, key, strlen(key));
    textbuf_put(&b, ":", 1);
    textbuf_put(&b, json, len);
    textbuf_put(&b, "}", 1);
    free(json);
    size_t n = 0;
    char *text = textbuf_take(&b, &n);
    if (text == NULL)
        return reply_error(c, API_E_INTERNAL, "out of memory");
    return send_json(c, api_error_status(code), text, n);
}

int reply_storage_failure(struct http_conn *c, int status)
{
    if (status == STORAGE_BUSY || status == STORAGE_RETRY) {
        /* Another process holds the database, or won a conflict each time
         * the work ran: a short wait usually does. */
        http_retry_after(c, 1);
        return reply_error(c, API_E_UNAVAILABLE, "the database is busy; try again");
    }
    if (status == STORAGE_FULL)
        return reply_error(c, API_E_STORAGE_FULL,
                           "the server's disk is full: nothing was saved; try again later");
    if (status == STORAGE_QUOTA)
        return reply_quota_exceeded(c, c->user_id);
    return reply_error(c, API_E_INTERNAL, "the database failed; see the server's log");
}

int reply_quota_exceeded(struct http_conn *c, int64_t user)
{
    int64_t used = 0, allowed = 0;
    if (user == 0 || storage_quota_of(user, &used, &allowed) != STORAGE_OK)
        return reply_error(c, API_E_QUOTA_EXCEEDED,
                           "this player's storage is full: nothing was saved; delete saved "
                           "positions or games to make room");
    if (allowed == 0) {
        /* Only the guests' limit is ever 0: all guests stored their bound
         * (--all-guests-storage-mb, the sweeper's count). */
        http_attach(c, "quota",
                    json_pack("{s:I,s:I,s:b}", "used", (json_int_t)used, "allowed", (json_int_t)0,
                              "guests_full", 1));
        return reply_error(c, API_E_QUOTA_EXCEEDED,
                           "guests' storage on this server is full: nothing was saved; sign up "
                           "to keep playing, or try again later");
    }
    http_attach(c, "quota",
                json_pack("{s:I,s:I}", "used", (json_int_t)used, "allowed", (json_int_t)allowed));
    return reply_error(c, API_E_QUOTA_EXCEEDED,
                       "this player stores %lld of its %lld bytes, and this would pass them: "
                       "nothing was saved; delete saved positions or games to make room",
                       (long long)used, (long long)allowed);
}

int http_suspend(struct http_conn *c, int (*done)(struct http_conn *c, void *arg),
                 void (*release)(void *arg), void *arg, struct http_deferred **out)
{
    *out = NULL;
    if (release == NULL)
        release = free;
    struct http_deferred *d = calloc(1, sizeof *d);
    if (d == NULL) {
        release(arg);
        return reply_error(c, API_E_INTERNAL, "out of memory");
    }
    d->done = done;
    d->release = release;
    d->arg = arg;
    d->conn = c;
    c->deferred = d;
    MHD_suspend_connection(c->mhd);
    *out = d;
    return MHD_YES;
}

void http_wake(struct http_deferred *d)
{
    atomic_store(&d->finished, true);
    MHD_resume_connection(d->conn->mhd);
}

/* Runs on a worker thread: the slow part, then wakes the connection up. */
static void run_deferred(void *arg)
{
    struct http_deferred *d = arg;
    d->work(d->arg);
    http_wake(d);
}

/* The answer of work that its pool's cap refused (worker_cap). */
static int refuse_busy(struct http_conn *c, void *arg)
{
    (void)arg;
    http_retry_after(c, 1);
    return reply_error(c, API_E_UNAVAILABLE,
                       "too many requests like this one are waiting; try again in 1 second");
}

int http_defer(struct http_conn *c, enum worker_pool pool, void (*work)(void *arg),
               int (*done)(struct http_conn *c, void *arg), void *arg)
{
    char owner[CLIENT_IP_KEY_MAX];
    http_client_address(c, owner, sizeof owner);
    struct http_deferred *d;
    int result = http_suspend(c, done, NULL, arg, &d);
    if (d == NULL)
        return result;
    d->work = work;
    switch (worker_submit_from(pool, owner, run_deferred, d)) {
    case WORKER_QUEUED:
        break;
    case WORKER_FULL:
        /* Answered through the same resume as finished work. */
        d->done = refuse_busy;
        http_wake(d);
        break;
    case WORKER_STOPPED:
        /* Do the work here rather than lose the request. */
        run_deferred(d);
        break;
    }
    return result;
}

int http_conn_resume(struct http_conn *c, int *result)
{
    if (c->deferred == NULL)
        return 0;
    if (!atomic_load(&c->deferred->finished)) {
        /* Called again before the work is done: suspend again rather than
         * leave the connection active with nothing to do, where the work's
         * resume would find it not suspended and be lost. A resume that
         * came first makes this suspension a no-op, and the handler is
         * called again. */
        MHD_suspend_connection(c->mhd);
        *result = MHD_YES;
        return 1;
    }
    struct http_deferred *d = c->deferred;
    c->deferred = NULL;
    *result = d->done(c, d->arg);
    d->release(d->arg);
    free(d);
    return 1;
}

int http_conn_start(const struct config *cfg)
{
    settings = cfg;
    open_streams = address_count_new(cfg->streams_per_address, cfg->max_streams);
    return open_streams != NULL ? 0 : -1;
}

int http_conn_in_flight(void)
{
    return atomic_load(&in_flight);
}

void http_conn_stop(void)
{
    address_count_free(open_streams);
    open_streams = NULL;
}
