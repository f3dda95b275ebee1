/* The HTTP/1.1 client of the benchmarks, as much of it as sokod's answers
 * need: an answer's head, a chunked body, a blocking request on a kept-alive
 * connection, and an event stream's events. The event-driven benchmarks own
 * their sockets and feed the bytes they read to these pieces. */
#ifndef SOKOD_BENCH_HTTP_H
#define SOKOD_BENCH_HTTP_H

#include <stdbool.h>
#include <stddef.h>

/* Grows *buf to hold at least `need` bytes. Exits the program when memory
 * runs out: a benchmark without memory has no figures to give. */
void bench_http_grow(char **buf, size_t *cap, size_t need);

/* What a benchmark reads of an answer's head. */
struct bench_http_head {
    size_t size; /* bytes of the head, its blank line included; 0 until whole */
    int status;
    long length; /* Content-Length, -1 when absent */
    bool chunked, closing;
};

/* Reads the head at the start of in[0, len) once it is whole: true with *h
 * filled, false while it is incomplete. in[len] must be writable (a NUL
 * goes there for a moment). When cookie is not NULL, sokod's session cookie
 * from Set-Cookie goes there ("" when the answer ends the session). */
bool bench_http_head_read(char *in, size_t len, struct bench_http_head *h, char *cookie,
                          size_t cookie_cap);

/* Where the decoding of a chunked body stands: the offset in the input, and
 * the bytes left in the current chunk (-1: a size line comes next). */
struct bench_http_chunks {
    size_t off;
    long left;
};

/* Decodes chunks of in[d->off, len) onto *out (NUL-terminated, grown as
 * needed). Returns 1 at the last chunk, 0 when more bytes are needed, -1
 * for a malformed chunk. */
int bench_http_dechunk(struct bench_http_chunks *d, const char *in, size_t len, char **out,
                       size_t *out_len, size_t *out_cap);

/* A blocking connection to sokod on 127.0.0.1, kept alive between requests,
 * sending the session cookie it was last given. */
struct bench_http_client {
    int fd; /* -1: connects at the next request */
    unsigned port;
    char cookie[256];
    char *in;
    size_t in_cap;
};

/* A blocking connection to sokod on 127.0.0.1:port, without Nagle's delay:
 * its socket, or -1 with errno set. */
int bench_http_connect(unsigned port);

/* A client of sokod on `port`, not yet connected. */
struct bench_http_client bench_http_client(unsigned port);

/* Sends one request (`json` NULL: no body; head and body within 4 KiB) and
 * reads the whole answer.
 * Returns its status with its body, NUL-terminated and chunks decoded, in
 * *body (the caller frees it); -1 with *body "" when the connection failed
 * (it is closed, and the next request connects again). */
int bench_http_request(struct bench_http_client *c, const char *method, const char *path,
                       const char *json, char **body);

/* Closes the connection and frees the client's buffer. */
void bench_http_close(struct bench_http_client *c);

/* An event of an event stream: its type, or NULL for a comment (a
 * heartbeat), and its data ("" when it has none). */
struct bench_http_event {
    const char *type;
    const char *data;
};

/* An event stream being read: its head, then its events. */
struct bench_http_stream {
    struct bench_http_head head;
    struct bench_http_chunks chunks;
    char *in, *text; /* bytes not yet decoded; decoded text not yet an event */
    size_t in_len, in_cap, text_len, text_cap;
};

/* Takes n bytes read from the stream's connection. Returns -1 for a
 * malformed chunk, 0 while the head is incomplete, 1 once it is whole:
 * then, for a 200, on_event is called with every whole event so far (its
 * strings live until on_event returns); for another status the answer's
 * text so far is at in + head.size, NUL-terminated. */
int bench_http_stream_take(struct bench_http_stream *s, const char *bytes, size_t n,
                           void (*on_event)(void *arg, const struct bench_http_event *e),
                           void *arg);

/* Forgets what the stream read, for a new connection; keeps its buffers
 * unless they grew large. */
void bench_http_stream_reset(struct bench_http_stream *s);

#endif
