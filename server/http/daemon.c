/* The HTTP daemon: libmicrohttpd's callbacks, from a connection's accept
 * to its close. It reads each request's framing and body, finds its route
 * and hands it to the handler; http.c holds the request and its answers. */
#include "http/daemon.h"

#include "base/clock.h"
#include "http/access_log.h"
#include "http/address_count.h"
#include "http/cost_limit.h"
#include "http/http.h"
#include "http/http_checks.h"
#include "http/ops.h"
#include "http/routes.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* The memory of one connection: its headers and what is read or written
 * at a time (bodies are taken in parts). libmicrohttpd zeroes all of it
 * before each request of a kept-alive connection, so it is kept small. */
#define HTTP_CONNECTION_MEMORY (16 * 1024)

static const struct config *settings;
/* Connections per socket peer (--connections-per-address; trusted proxies
 * are not counted). */
static struct address_count *peer_connections;
/* The listening socket, once daemon_quiesce has taken it from the daemon:
 * closed only after the daemon stops. */
static MHD_socket listener = MHD_INVALID_SOCKET;
static bool quiesced;

/* Drops the counts of connections and streams: none is left open. */
static void forget_counts(void)
{
    address_count_free(peer_connections);
    peer_connections = NULL;
    http_conn_stop();
    cost_limit_stop();
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

/* Charges a request of a cost-limited route to its client's address;
 * false after answering 429. */
static bool charge(struct http_conn *c, uint32_t ms, int *result)
{
    char address[64];
    http_client_address(c, address, sizeof address);
    unsigned retry = 0;
    if (cost_limit_take(address, ms, clock_mono_us() / 1000u, &retry))
        return true;
    http_retry_after(c, retry);
    *result = reply_error(c, API_E_RATE_LIMITED,
                          "this address asked for too much work at once (--cost-per-second); "
                          "try again in %u second%s",
                          retry, retry == 1 ? "" : "s");
    return false;
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
    const struct route_cost *cost = &routes_row(m.index)->cost;
    if (cost->limiter == ROUTE_LIMIT_COST && !charge(c, cost->cpu_ms, &result))
        return result;
    memcpy(c->param, m.param, sizeof c->param);
    c->route = m.index + 1;
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
        c = http_conn_new(mhd, url, method);
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
    int resumed;
    if (http_conn_resume(c, &resumed))
        return (enum MHD_Result)resumed;
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
    ops_count(c);
    if (!c->quiet)
        access_log(c);
    http_conn_free(c);
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

struct MHD_Daemon *daemon_start(const struct config *cfg, unsigned *port)
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
    if (peer_connections == NULL || http_conn_start(cfg) != 0 ||
        cost_limit_start(cfg->cost_per_second) != 0) {
        fprintf(stderr, "sokod: out of memory\n");
        forget_counts();
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
        forget_counts();
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

void daemon_quiesce(struct MHD_Daemon *d)
{
    if (!quiesced) {
        listener = MHD_quiesce_daemon(d);
        quiesced = true;
    }
}

void daemon_stop(struct MHD_Daemon *d, unsigned grace_ms)
{
    daemon_quiesce(d);
    uint64_t deadline = clock_mono_us() + (uint64_t)grace_ms * 1000u;
    while (http_conn_in_flight() > 0 && clock_mono_us() < deadline) {
        struct timespec pause = {0, 5 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    int left = http_conn_in_flight();
    if (left > 0)
        fprintf(stderr, "sokod: stopping with %d request(s) unanswered\n", left);
    MHD_stop_daemon(d);
    if (listener != MHD_INVALID_SOCKET)
        close(listener);
    listener = MHD_INVALID_SOCKET;
    quiesced = false;
    /* Every connection and stream has ended with the daemon. */
    forget_counts();
}
