/* One request's state, and every way to answer it (JSON, errors, files).
 * Handlers get a struct http_conn and return the result of one reply
 * function; the daemon (daemon.h) makes the requests. */
#ifndef SOKOD_HTTP_H
#define SOKOD_HTTP_H

#include "base/client_ip.h"
#include "base/config.h"
#include "http/api_error.h"
#include "http/worker.h"

#include <jansson.h>
#include <microhttpd.h>
#include <stdbool.h>
#include <stdint.h>

enum http_method {
    HTTP_GET = 1u << 0,
    HTTP_HEAD = 1u << 1,
    HTTP_POST = 1u << 2,
    HTTP_PUT = 1u << 3,
    HTTP_PATCH = 1u << 4,
    HTTP_DELETE = 1u << 5,
    HTTP_OPTIONS = 1u << 6,
    HTTP_OTHER = 1u << 7,
};

/* The name of one method bit ("GET" for HTTP_GET), or "OTHER" for
 * HTTP_OTHER and any value that is not a single known method. */
const char *http_method_name(unsigned method);

/* Methods that change state: they must send JSON from the same origin. */
#define HTTP_WRITES (HTTP_POST | HTTP_PUT | HTTP_PATCH | HTTP_DELETE)

#define HTTP_MAX_PARAMS 4

struct http_deferred;

/* One request, from its headers to its completion. */
struct http_conn {
    struct MHD_Connection *mhd;
    unsigned method; /* enum http_method */
    char method_name[16];
    char *path;                     /* the decoded path, without the query */
    int64_t param[HTTP_MAX_PARAMS]; /* the {id} segments of the route, in order */
    unsigned route;                 /* 1 + the routing table's row that took it; 0: none (yet) */
    bool quiet;                     /* left out of the access log (a load balancer's probe) */
    char *body;                     /* the request body, NUL-terminated (NULL when empty) */
    size_t body_len;
    size_t body_cap;
    bool body_too_large;
    uint64_t start_us;
    unsigned status; /* the status answered, 0 before */
    uint64_t bytes;  /* the answer's body size */
    char set_cookie[256];
    char device_cookie[192]; /* a second Set-Cookie (device.h), when not empty */
    char allow[64];
    unsigned retry_after; /* seconds for a Retry-After header; 0: none */
    bool close;           /* the connection is closed after the answer */
    json_t *attach;       /* members added to the next JSON answer */
    /* The session, once auth has looked at it. */
    bool auth_done;
    int64_t user_id; /* 0: no user */
    struct http_deferred *deferred;
    /* The client, read once per request (http_client_address). */
    bool client_known;
    bool from_proxy; /* the socket's peer is a trusted proxy */
    bool client_ip_known;
    unsigned char client_ip[16]; /* the whole address, in client_ip.h's form */
    char client[CLIENT_IP_KEY_MAX];
};

typedef int (*http_handler)(struct http_conn *c);

/* For the daemon (daemon.c): a new request of method `method` for `url`,
 * NULL when out of memory; its end, once answered or abandoned. */
struct http_conn *http_conn_new(struct MHD_Connection *mhd, const char *url, const char *method);
void http_conn_free(struct http_conn *c);

/* For the daemon, when libmicrohttpd calls again for a request that a
 * handler suspended (http_suspend, http_defer): returns 1 with *result set
 * (suspended again while the work goes on, or the request answered), or 0
 * when the request was not suspended. */
int http_conn_resume(struct http_conn *c, int *result);

/* For the daemon: readies the requests' shared state (cfg must outlive
 * it); returns 0, or -1 when out of memory. http_conn_stop frees it once
 * no request is left. */
int http_conn_start(const struct config *cfg);
void http_conn_stop(void);

/* The requests begun and not yet freed. */
int http_conn_in_flight(void);

/* Answers with `body` as JSON (the reference is stolen), plus any attached
 * members. Returns an MHD_Result for the handler to return. */
int reply_json(struct http_conn *c, unsigned status, json_t *body);

/* Answers with `text` (len bytes of JSON, from malloc; taken and freed
 * here), plus any attached members. Returns an MHD_Result for the handler
 * to return. */
int reply_json_text(struct http_conn *c, unsigned status, char *text, size_t len);

/* Answers {"error": {"code": ..., "message": ...}} plus any attached
 * members, with the code's HTTP status (api_error_status). The message is
 * formatted like printf. Every error answer of the API goes through here. */
int reply_error(struct http_conn *c, enum api_error code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Answers reply_error's {"error": ...} with message as it is, and `key`:
 * len bytes of JSON text (from malloc, freed here) written in as they are:
 * a whole game may be megabytes, which a parse and a dump would pay for
 * twice. Attached members, when there are any, join it. */
int reply_error_text(struct http_conn *c, enum api_error code, const char *message, const char *key,
                     char *json, size_t len);

/* Answers a failed storage call (a STORAGE_* code): 503 unavailable with
 * Retry-After when the database is busy, 507 when the disk is full, 403
 * quota_exceeded past the session's player's quota, 500 otherwise. */
int reply_storage_failure(struct http_conn *c, int status);

/* Answers 403 quota_exceeded for `user` (0: unknown), with "quota": what
 * the player stores and may store, in bytes. */
int reply_quota_exceeded(struct http_conn *c, int64_t user);

/* Answers with a prepared response (destroyed here), adding the common
 * headers; `bytes` is its body size, for the access log. */
int http_queue(struct http_conn *c, unsigned status, struct MHD_Response *r, uint64_t bytes);

/* Adds key: value (the reference is stolen) to the next JSON answer. */
void http_attach(struct http_conn *c, const char *key, json_t *value);

/* Sends Retry-After: seconds with the answer (429, 503). */
void http_retry_after(struct http_conn *c, unsigned seconds);

/* The client's address as text ("192.0.2.7", an IPv6 address cut to its
 * /64 network), or "" when unknown: the key of every per-client limit.
 * Behind a trusted proxy (--trusted-proxies) it is the right-most hop of
 * X-Forwarded-For that is not one; otherwise the socket's peer. */
void http_client_address(struct http_conn *c, char *out, size_t cap);

/* The client's whole address (not cut to a /64), found as
 * http_client_address finds it, in client_ip.h's 16-byte form; false when
 * unknown. */
bool http_client_ip(struct http_conn *c, unsigned char out[16]);

struct ratelimit;

/* Counts one event for the request's client address in rl, under the key
 * "kind ADDRESS". True to go on (also when rl is NULL); otherwise answers
 * 429 rate_limited with Retry-After, "too many WHAT; try again in N
 * seconds", then `more` (may be ""), and sets *result. */
bool http_limit_client(struct http_conn *c, struct ratelimit *rl, const char *kind,
                       const char *what, const char *more, int *result);

/* As http_limit_client, for a limiter of another kind: take(limit, key,
 * &retry_s) counts the event, true when allowed, else false with retry_s
 * set (at least 1). */
bool http_limit_client_by(struct http_conn *c,
                          bool (*take)(void *limit, const char *key, unsigned *retry_s),
                          void *limit, const char *kind, const char *what, const char *more,
                          int *result);

/* One live stream held open, counted against its client's and the
 * server's caps until released. */
struct http_stream_slot;

/* Reserves a stream for c's client. Returns the slot; or NULL after
 * answering 429 (the client holds --streams-per-address streams) or 503
 * (the server holds --max-streams), with Retry-After, *result set. The
 * caller gives the slot back with http_stream_release when the stream
 * ends. */
struct http_stream_slot *http_stream_take(struct http_conn *c, int *result);

/* Gives a stream's slot back; NULL is allowed. */
void http_stream_release(struct http_stream_slot *slot);

/* A request header, or NULL. */
const char *http_header(struct http_conn *c, const char *name);
/* A query-string argument, or NULL. */
const char *http_query(struct http_conn *c, const char *name);
/* A cookie, or NULL. */
const char *http_cookie(struct http_conn *c, const char *name);
/* True when the client reached sokod over HTTPS: X-Forwarded-Proto: https
 * from a trusted proxy. */
bool http_is_https(struct http_conn *c);

/* Runs work(arg) on a thread of the worker pool `pool` with the connection
 * suspended, then calls done(c, arg) back on an HTTP thread to answer. For
 * slow work such as password hashing. The work waits its turn with other
 * clients' (worker_submit_from, owned by the client's address); past the
 * pool's caps it is not run and the answer is 503 unavailable with
 * Retry-After. arg must come from malloc and hold no other allocation: it
 * is freed here after done, or when the connection ends first. Returns
 * what the handler should return. */
int http_defer(struct http_conn *c, enum worker_pool pool, void (*work)(void *arg),
               int (*done)(struct http_conn *c, void *arg), void *arg);

/* Suspends the connection until http_wake(*out) is called, from any
 * thread; then done(c, arg) runs on an HTTP thread to answer, and
 * release(arg) (free when NULL) once done has run, or when the connection
 * ends first. Returns what the handler should return; on failure (out of
 * memory) has answered 500, released arg and set *out to NULL. */
int http_suspend(struct http_conn *c, int (*done)(struct http_conn *c, void *arg),
                 void (*release)(void *arg), void *arg, struct http_deferred **out);

/* Wakes a connection suspended by http_suspend. The caller must not touch
 * the connection's arg after this call. */
void http_wake(struct http_deferred *d);

/* A JSON string of text; bytes that are not UTF-8 become '?'. Never NULL
 * unless out of memory. */
json_t *http_json_text(const char *text);

/* A JSON string of a Unix time in UTC: "2024-05-01T12:00:00Z". */
json_t *http_json_time(int64_t unix_seconds);

#endif
