/* Streamed answers: a large body written as the client reads it, from a
 * producer that fills a buffer of fixed size each time the last one has
 * been handed to libmicrohttpd. What a connection holds is that buffer,
 * whatever the answer's size and however slowly its client reads. */
#ifndef SOKOD_STREAMED_H
#define SOKOD_STREAMED_H

#include "http/http.h"

#include <stdbool.h>
#include <stddef.h>

/* The buffer of one streamed answer: the memory it holds while it is sent,
 * besides libmicrohttpd's own per connection. */
#define STREAMED_BUFFER (128 * 1024)

/* Where a producer writes: len bytes written of cap; end set with the last
 * ones. */
struct streamed_out {
    char *data;
    size_t len;
    size_t cap;
    bool end;
};

/* A producer: writes the answer's next bytes into out (at least one, unless
 * it sets end) and returns STORAGE_OK, or the STORAGE_* code of a failure.
 * It runs on an HTTP thread, once before the answer's headers and then
 * each time the buffer has been sent: its database work should be short,
 * and nothing (no statement, no transaction) may stay open between calls. */
typedef int (*streamed_fill)(void *arg, struct streamed_out *out);

/* What a streamed answer is, read during reply_streamed only. disposition
 * may be NULL (no Content-Disposition); release frees arg (free when
 * NULL). */
struct streamed_answer {
    const char *content_type;
    const char *disposition;
    streamed_fill fill;
    void (*release)(void *arg);
};

/* Answers 200 with the bytes that a->fill produces, without a
 * Content-Length (chunks over HTTP/1.1; to the close over HTTP/1.0), never
 * compressed and never stored. The first fill runs
 * here: when it fails, the answer is reply_storage_failure's. A later
 * failure cuts the connection (the client sees a truncated answer) and is
 * logged. arg is released once the answer ends, on every path. Returns what
 * the handler should return. */
int reply_streamed(struct http_conn *c, const struct streamed_answer *a, void *arg);

/* Appends len bytes to out when they fit, and returns true; false (nothing
 * written) otherwise. */
bool streamed_put(struct streamed_out *out, const char *bytes, size_t len);

/* Appends formatted text as streamed_put does: whole or not at all. */
bool streamed_printf(struct streamed_out *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
