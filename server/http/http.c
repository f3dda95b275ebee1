/* The HTTP layer: libmicrohttpd callbacks, request bodies, answers, the
 * access log and the daemon's start and stop. */
#include "http/http.h"

#include "base/clock.h"
#include "http/access_log.h"
#include "http/address_count.h"
#include "http/http_checks.h"
#include "http/ratelimit.h"
#include "http/routes.h"
#include "http/security_headers.h"
#include "http/worker.h"
#include "storage/storage.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

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

/* The memory of one connection: its headers and what is read or written
 * at a time (bodies are taken in parts). libmicrohttpd zeroes all of it
 * before each request of a kept-alive connection, so it is kept small. */
#define HTTP_CONNECTION_MEMORY (16 * 1024)
/* X-Forwarded-For headers read from one request, the right-most ones. */
#define HTTP_FORWARDED_MAX 16
/* Seconds a client refused a live stream is told to wait: streams end when
 * their tabs close, which takes a while. */
#define HTTP_STREAM_RETRY_S 10

static const struct config *settings;
static atomic_int in_flight;
/* Connections per socket peer (--connections-per-address; trusted proxies
 * are not counted) and live streams per client (--streams-per-address,
 * --max-streams). */
static struct address_count *peer_connections;
static struct address_count *open_streams;
/* The listening socket, once http_quiesce has taken it from the daemon:
 * closed only after the daemon stops. */
static MHD_socket listener = MHD_INVALID_SOCKET;
static bool quiesced;

struct http_stream_slot {
    char key[CLIENT_IP_KEY_MAX];
};

static unsigned method_bit(const char *m)
{
    static const struct {
        const char *name;
        unsigned bit;
    } methods[] = {{"GET", HTTP_GET},        {"HEAD", HTTP_HEAD},   {"POST", HTTP_POST},
                   {"PUT", HTTP_PUT},        {"PATCH", HTTP_PATCH}, {"DELETE", HTTP_DELETE},
                   {"OPTIONS", HTTP_OPTIONS}};
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        if (strcmp(m, methods[i].name) == 0)
            return methods[i].bit;
    }
    return HTTP_OTHER;
}

/* Copies text for the access log: printable ASCII only, the rest as %XX. */
static void log_safe(char *out, size_t cap, const char *in)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p != '\0' && n + 4 < cap; p++) {
        if (*p > 0x20 && *p < 0x7F && *p != '%') {
            out[n++] = (char)*p;
        } else {
            snprintf(out + n, cap - n, "%%%02X", *p);
            n += 3;
        }
    }
    out[n] = '\0';
}

static void access_log(const struct http_conn *c)
{
    char method[40], path[600], line[800];
    log_safe(method, sizeof method, c->method_name);
    log_safe(path, sizeof path, c->path != NULL ? c->path : "");
    uint64_t us = clock_mono_us() - c->start_us;
    int n;
    if (c->status != 0)
        n = snprintf(line, sizeof line, "%s %s %u %llu %lluus\n", method, path, c->status,
                     (unsigned long long)c->bytes, (unsigned long long)us);
    else
        n = snprintf(line, sizeof line, "%s %s - 0 %lluus (no answer)\n", method, path,
                     (unsigned long long)us);
    if (n > 0)
        access_log_add(line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

static struct http_conn *conn_new(struct MHD_Connection *mhd, const char *url, const char *method)
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

static void conn_free(struct http_conn *c)
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
}

void http_client_address(struct http_conn *c, char *out, size_t cap)
{
    if (cap == 0)
        return;
    if (!c->client_known)
        find_client(c);
    snprintf(out, cap, "%s", c->client);
}

bool http_limit_client(struct http_conn *c, struct ratelimit *rl, const char *kind,
                       const char *what, const char *more, int *result)
{
    if (rl == NULL)
        return true;
    char address[64], key[96];
    http_client_address(c, address, sizeof address);
    snprintf(key, sizeof key, "%s %s", kind, address);
    unsigned retry = 0;
    if (ratelimit_take(rl, key, clock_mono_us() / 1000u, &retry))
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

int reply_storage_failure(struct http_conn *c, int status)
{
    if (status == STORAGE_BUSY) {
        /* Another process holds the database: a short wait usually does. */
        http_retry_after(c, 1);
        return reply_error(c, API_E_UNAVAILABLE, "the database is busy; try again");
    }
    if (status == STORAGE_FULL)
        return reply_error(c, API_E_STORAGE_FULL,
                           "the server's disk is full: nothing was saved; try again later");
    return reply_error(c, API_E_INTERNAL, "the database failed; see the server's log");
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

int http_defer(struct http_conn *c, enum worker_pool pool, void (*work)(void *arg),
               int (*done)(struct http_conn *c, void *arg), void *arg)
{
    struct http_deferred *d;
    int result = http_suspend(c, done, NULL, arg, &d);
    if (d == NULL)
        return result;
    d->work = work;
    if (!worker_submit(pool, run_deferred, d)) {
        /* No pool (stopping): do the work here rather than lose the request. */
        run_deferred(d);
    }
    return result;
}

/* Answers 413 early when Content-Length already says the body is too big. */
static bool declared_too_large(struct http_conn *c)
{
    const char *len = http_header(c, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (len == NULL)
        return false;
    char *end = NULL;
    errno = 0;
    unsigned long long n = strtoull(len, &end, 10);
    return errno == ERANGE || n > settings->max_body;
}

static int too_large(struct http_conn *c)
{
    return reply_error(c, API_E_BODY_TOO_LARGE, "request bodies are limited to %zu bytes",
                       settings->max_body);
}

static void take_body(struct http_conn *c, const char *data, size_t size)
{
    if (c->body_too_large)
        return;
    if (c->body_len + size > settings->max_body) {
        c->body_too_large = true;
        free(c->body);
        c->body = NULL;
        c->body_len = 0;
        return;
    }
    if (c->body_len + size + 1 > c->body_cap) {
        /* Bodies are small: start below malloc's large sizes, which cost
         * a consolidation of its free lists. */
        size_t cap = c->body_cap == 0 ? 256 : c->body_cap;
        while (cap < c->body_len + size + 1)
            cap *= 2;
        char *bigger = realloc(c->body, cap);
        if (bigger == NULL) {
            c->body_too_large = true;
            return;
        }
        c->body = bigger;
        c->body_cap = cap;
    }
    memcpy(c->body + c->body_len, data, size);
    c->body_len += size;
    c->body[c->body_len] = '\0';
}

static int dispatch(struct http_conn *c)
{
    struct route_match m;
    switch (routes_match(c->method, c->path, &m)) {
    case ROUTE_NOT_FOUND:
        return reply_error(c, API_E_NOT_FOUND, "no route for %s", c->path);
    case ROUTE_WRONG_METHOD:
        snprintf(c->allow, sizeof c->allow, "%s", m.allow);
        return reply_error(c, API_E_METHOD_NOT_ALLOWED, "%s takes %s", c->path, m.allow);
    case ROUTE_FOUND:
        break;
    }
    int result = MHD_NO;
    if ((c->method & HTTP_WRITES) != 0 && !http_checks_write(c, &result))
        return result;
    memcpy(c->param, m.param, sizeof c->param);
    return m.handler(c);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *mhd, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls)
{
    (void)cls;
    bool nul_target = *con_cls == &http_checks_nul_target;
    struct http_conn *c = nul_target ? NULL : *con_cls;
    if (c == NULL) {
        c = conn_new(mhd, url, method);
        if (c == NULL)
            return MHD_NO;
        *con_cls = c;
        int refused = MHD_NO;
        if (!http_checks_request(c, version, nul_target, &refused)) {
            /* Whatever body follows is not read: drop it with the connection. */
            c->body_too_large = true;
            return (enum MHD_Result)refused;
        }
        if (declared_too_large(c)) {
            c->body_too_large = true;
            return (enum MHD_Result)too_large(c);
        }
        return MHD_YES;
    }
    if (c->deferred != NULL) {
        if (!atomic_load(&c->deferred->finished)) {
            /* Called again before the work is done: suspend again rather
             * than leave the connection active with nothing to do, where
             * the work's resume would find it not suspended and be lost.
             * A resume that came first makes this suspension a no-op, and
             * the handler is called again. */
            MHD_suspend_connection(c->mhd);
            return MHD_YES;
        }
        struct http_deferred *d = c->deferred;
        c->deferred = NULL;
        int result = d->done(c, d->arg);
        d->release(d->arg);
        free(d);
        return (enum MHD_Result)result;
    }
    if (*upload_data_size > 0) {
        take_body(c, upload_data, *upload_data_size);
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (c->body_too_large)
        return (enum MHD_Result)too_large(c);
    return (enum MHD_Result)dispatch(c);
}

static void on_completed(void *cls, struct MHD_Connection *mhd, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)mhd;
    (void)toe;
    struct http_conn *c = *con_cls;
    *con_cls = NULL;
    if (c == NULL || (void *)c == (void *)&http_checks_nul_target)
        return;
    access_log(c);
    conn_free(c);
}

/* The key a connection's peer is counted by; false for a trusted proxy,
 * which carries many clients and is never capped, or an unknown family. */
static bool peer_key(const struct sockaddr *sa, char key[CLIENT_IP_KEY_MAX])
{
    unsigned char addr[16];
    if (!client_ip_from_sockaddr(sa, addr) ||
        client_ip_nets_match(&settings->trusted_proxies, addr))
        return false;
    client_ip_key(addr, key, CLIENT_IP_KEY_MAX);
    return true;
}

/* Closes a new connection from a peer that holds --connections-per-address
 * already, before libmicrohttpd gives it any memory. There is no request
 * yet to answer, so the refusal is the closing. */
static enum MHD_Result on_accept(void *cls, const struct sockaddr *addr, socklen_t addrlen)
{
    (void)cls;
    (void)addrlen;
    char key[CLIENT_IP_KEY_MAX];
    if (!peer_key(addr, key))
        return MHD_YES;
    return address_count_check(peer_connections, key) == ADDRESS_COUNT_OK ? MHD_YES : MHD_NO;
}

/* Counts each connection against its peer from its start to its close; the
 * key is kept as the connection's context. Polling threads accept at once,
 * so two may pass on_accept for the last place: the one that finds no
 * place here is shut down, so the cap is never exceeded. */
static void on_connection(void *cls, struct MHD_Connection *mhd, void **socket_context,
                          enum MHD_ConnectionNotificationCode code)
{
    (void)cls;
    if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        char *key = *socket_context;
        *socket_context = NULL;
        if (key != NULL)
            address_count_release(peer_connections, key);
        free(key);
        return;
    }
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(mhd, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    char key[CLIENT_IP_KEY_MAX];
    if (info == NULL || !peer_key(info->client_addr, key))
        return;
    char *kept = strdup(key);
    if (kept != NULL && address_count_take(peer_connections, key) == ADDRESS_COUNT_OK) {
        *socket_context = kept;
        return;
    }
    free(kept);
    const union MHD_ConnectionInfo *fd =
        MHD_get_connection_info(mhd, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (fd != NULL)
        shutdown(fd->connect_fd, SHUT_RDWR);
}

/* What libmicrohttpd says each time an event stream's next write (a
 * heartbeat, most often, or the end of the stream) finds that its client has
 * gone: the normal end of a stream, which the heartbeat is there to find, so
 * not worth a line. */
static const char *const STREAM_GONE[] = {
    "Failed to send the chunked response body for the request for `/api/v1/events",
    "Failed to send the footers for the request for `/api/v1/events",
};

static void on_mhd_log(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    char message[512];
    vsnprintf(message, sizeof message, fmt, ap);
    for (size_t i = 0; i < sizeof STREAM_GONE / sizeof STREAM_GONE[0]; i++) {
        if (strncmp(message, STREAM_GONE[i], strlen(STREAM_GONE[i])) == 0)
            return;
    }
    size_t len = strlen(message);
    while (len > 0 && message[len - 1] == '\n')
        message[--len] = '\0';
    fprintf(stderr, "sokod: http: %s\n", message);
}

/* Each connection is a file descriptor, and Debian starts programs with a
 * soft limit of 1,024: raise it to the hard limit, enough for
 * --max-connections connections and the database's files. */
static void raise_fd_limit(unsigned connections)
{
    struct rlimit lim;
    if (getrlimit(RLIMIT_NOFILE, &lim) != 0)
        return;
    rlim_t want = (rlim_t)connections + 256;
    if (lim.rlim_cur != RLIM_INFINITY && lim.rlim_cur < want) {
        lim.rlim_cur = lim.rlim_max == RLIM_INFINITY || lim.rlim_max > want ? want : lim.rlim_max;
        setrlimit(RLIMIT_NOFILE, &lim);
    }
    if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY && lim.rlim_cur < want)
        fprintf(stderr,
                "sokod: at most %llu open files (ulimit -n): fewer than %u connections at once\n",
                (unsigned long long)lim.rlim_cur, connections);
}

struct MHD_Daemon *http_start(const struct config *cfg, unsigned *port)
{
    settings = cfg;
    raise_fd_limit(cfg->max_connections);
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
                     MHD_USE_ERROR_LOG | MHD_USE_ITC | MHD_USE_TURBO;
    struct sockaddr_in v4 = {0};
    struct sockaddr_in6 v6 = {0};
    const struct sockaddr *addr;
    if (inet_pton(AF_INET, cfg->address, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons((uint16_t)cfg->port);
        addr = (const struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, cfg->address, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons((uint16_t)cfg->port);
        addr = (const struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
    } else {
        fprintf(stderr, "sokod: --address must be an IPv4 or IPv6 address, not '%s'\n",
                cfg->address);
        return NULL;
    }
    peer_connections = address_count_new(cfg->connections_per_address, UINT32_MAX);
    open_streams = address_count_new(cfg->streams_per_address, cfg->max_streams);
    if (peer_connections == NULL || open_streams == NULL) {
        fprintf(stderr, "sokod: out of memory\n");
        address_count_free(peer_connections);
        address_count_free(open_streams);
        peer_connections = open_streams = NULL;
        return NULL;
    }
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, (uint16_t)cfg->port, on_accept, NULL, on_request, NULL, MHD_OPTION_EXTERNAL_LOGGER,
        on_mhd_log, NULL, MHD_OPTION_SOCK_ADDR, addr, MHD_OPTION_THREAD_POOL_SIZE,
        cfg->threads > 1 ? cfg->threads : 0u, MHD_OPTION_CONNECTION_TIMEOUT, cfg->timeout,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)HTTP_CONNECTION_MEMORY,
        MHD_OPTION_CONNECTION_LIMIT, cfg->max_connections, MHD_OPTION_NOTIFY_COMPLETED,
        on_completed, NULL, MHD_OPTION_NOTIFY_CONNECTION, on_connection, NULL,
        MHD_OPTION_URI_LOG_CALLBACK, http_checks_raw_target, NULL, MHD_OPTION_END);
    if (d == NULL) {
        address_count_free(peer_connections);
        address_count_free(open_streams);
        peer_connections = open_streams = NULL;
        fprintf(stderr,
                "sokod: cannot listen on %s port %u (in use, or not an address of this "
                "machine?)\n",
                cfg->address, cfg->port);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    *port = info != NULL ? info->port : cfg->port;
    return d;
}

void http_quiesce(struct MHD_Daemon *d)
{
    if (!quiesced) {
        listener = MHD_quiesce_daemon(d);
        quiesced = true;
    }
}

void http_stop(struct MHD_Daemon *d, unsigned grace_ms)
{
    http_quiesce(d);
    uint64_t deadline = clock_mono_us() + (uint64_t)grace_ms * 1000u;
    while (atomic_load(&in_flight) > 0 && clock_mono_us() < deadline) {
        struct timespec pause = {0, 5 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    int left = atomic_load(&in_flight);
    if (left > 0)
        fprintf(stderr, "sokod: stopping with %d request(s) unanswered\n", left);
    MHD_stop_daemon(d);
    if (listener != MHD_INVALID_SOCKET)
        close(listener);
    listener = MHD_INVALID_SOCKET;
    quiesced = false;
    /* Every connection and stream has ended with the daemon. */
    address_count_free(peer_connections);
    address_count_free(open_streams);
    peer_connections = open_streams = NULL;
}
