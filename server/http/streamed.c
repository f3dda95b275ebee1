/* Streamed answers (streamed.h). A streamed answer is one buffer and a
 * producer behind it:
 *
 *   (1) FILLED   the buffer holds bytes not yet handed to libmicrohttpd;
 *                each read of libmicrohttpd's (read_next) copies what it
 *                has room for, as fast as the client takes it.
 *   (2) EMPTY    all was handed over: the next read calls the producer,
 *                which writes the next bytes (back to FILLED), or none with
 *                its end set (3), or fails (4).
 *   (3) ENDED    the producer set end and all was handed over: the read
 *                says so, and libmicrohttpd ends the chunked body.
 *   (4) FAILED   the connection is cut (the status was already sent).
 *
 * libmicrohttpd reads only when its connection can write, so a client that
 * does not read stops the producer, with one buffer held. */
#include "http/streamed.h"

#include "storage/storage_codes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The buffer libmicrohttpd gives an answer of unknown size over HTTP/1.0,
 * where it cannot use chunks. */
#define STREAMED_BLOCK (16 * 1024)

struct streamed {
    struct http_conn *conn; /* for its byte count; valid while it reads */
    streamed_fill fill;
    void (*release)(void *arg);
    void *arg;
    size_t at;     /* bytes of buf handed over */
    uint64_t sent; /* bytes handed over in all */
    struct streamed_out out;
    char buf[STREAMED_BUFFER];
};

bool streamed_put(struct streamed_out *out, const char *bytes, size_t len)
{
    if (len > out->cap - out->len)
        return false;
    memcpy(out->data + out->len, bytes, len);
    out->len += len;
    return true;
}

bool streamed_printf(struct streamed_out *out, const char *fmt, ...)
{
    size_t room = out->cap - out->len;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out->data + out->len, room, fmt, ap);
    va_end(ap);
    /* vsnprintf wrote a NUL in the room even when cut short: that byte is
     * not part of the answer, and the next write covers it. */
    if (n < 0 || (size_t)n >= room)
        return false;
    out->len += (size_t)n;
    return true;
}

/* Runs the producer on an empty buffer; STORAGE_OK or its failure. */
static int refill(struct streamed *s)
{
    s->at = 0;
    s->out = (struct streamed_out){.data = s->buf, .cap = sizeof s->buf};
    int status = s->fill(s->arg, &s->out);
    if (status == STORAGE_OK && s->out.len == 0 && !s->out.end)
        status = STORAGE_ERROR; /* a producer that makes no progress */
    return status;
}

static ssize_t read_next(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    struct streamed *s = cls;
    if (s->at == s->out.len) {
        if (s->out.end)
            return MHD_CONTENT_READER_END_OF_STREAM;
        int status = refill(s);
        if (status != STORAGE_OK) {
            fprintf(stderr, "sokod: %s: the answer was cut after %llu bytes (storage code %d)\n",
                    s->conn->path, (unsigned long long)s->sent, status);
            return MHD_CONTENT_READER_END_WITH_ERROR;
        }
        if (s->out.len == 0)
            return MHD_CONTENT_READER_END_OF_STREAM;
    }
    size_t n = s->out.len - s->at;
    if (n > max)
        n = max;
    memcpy(buf, s->buf + s->at, n);
    s->at += n;
    s->sent += n;
    s->conn->bytes = s->sent;
    return (ssize_t)n;
}

static void end_stream(void *cls)
{
    struct streamed *s = cls;
    s->release(s->arg);
    free(s);
}

int reply_streamed(struct http_conn *c, const struct streamed_answer *a, void *arg)
{
    void (*release)(void *) = a->release != NULL ? a->release : free;
    struct streamed *s = malloc(sizeof *s);
    if (s == NULL) {
        release(arg);
        return reply_error(c, API_E_INTERNAL, "out of memory");
    }
    *s = (struct streamed){.conn = c, .fill = a->fill, .release = release, .arg = arg};
    /* The first bytes before the headers: a failure to start is still an
     * error answer of its own. */
    int status = refill(s);
    if (status != STORAGE_OK) {
        end_stream(s);
        return reply_storage_failure(c, status);
    }
    struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, STREAMED_BLOCK,
                                                               read_next, s, end_stream);
    if (r == NULL) {
        end_stream(s);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, a->content_type);
    if (a->disposition != NULL)
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_DISPOSITION, a->disposition);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    /* The bytes are counted as they are handed over (read_next). */
    return http_queue(c, 200, r, 0);
}
