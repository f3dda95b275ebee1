/* The HTTP/1.1 client of the benchmarks. */
#include "bench_http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void bench_http_grow(char **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return;
    size_t n = *cap > 0 ? *cap : 4096;
    while (n < need)
        n *= 2;
    char *b = realloc(*buf, n);
    if (b == NULL) {
        fprintf(stderr, "benchmark: out of memory\n");
        exit(1);
    }
    *buf = b;
    *cap = n;
}

/* Copies sokod's session cookie ("sokod_session=..." up to its attributes)
 * from the Set-Cookie header at sc; an empty value ends the session. */
static void read_cookie(const char *sc, char *cookie, size_t cookie_cap)
{
    sc += strlen("\r\nSet-Cookie: ");
    size_t k = strcspn(sc, ";\r");
    if (k == strlen("sokod_session="))
        cookie[0] = '\0';
    else if (k < cookie_cap) {
        memcpy(cookie, sc, k);
        cookie[k] = '\0';
    }
}

/* True when the header at `at` (its "\r\nName:" found) has a value that
 * starts with `value`, case aside. */
static bool header_is(const char *at, size_t name_len, const char *value)
{
    at += name_len;
    at += strspn(at, " ");
    return strncasecmp(at, value, strlen(value)) == 0;
}

bool bench_http_head_read(char *in, size_t len, struct bench_http_head *h, char *cookie,
                          size_t cookie_cap)
{
    char *end = len >= 4 ? memmem(in, len, "\r\n\r\n", 4) : NULL;
    if (end == NULL)
        return false;
    h->size = (size_t)(end + 4 - in);
    *end = '\0'; /* restored below: the head is read as a string */
    h->status = len > 12 ? atoi(in + 9) : 0;
    const char *cl = strcasestr(in, "\r\nContent-Length:");
    h->length = cl != NULL ? atol(cl + 17) : -1;
    const char *te = strcasestr(in, "\r\nTransfer-Encoding:");
    h->chunked = te != NULL && header_is(te, 20, "chunked");
    const char *conn = strcasestr(in, "\r\nConnection:");
    h->closing = conn != NULL && header_is(conn, 13, "close");
    const char *sc = strcasestr(in, "\r\nSet-Cookie: sokod_session=");
    if (sc != NULL && cookie != NULL)
        read_cookie(sc, cookie, cookie_cap);
    *end = '\r';
    return true;
}

int bench_http_dechunk(struct bench_http_chunks *d, const char *in, size_t len, char **out,
                       size_t *out_len, size_t *out_cap)
{
    for (;;) {
        if (d->left < 0) {
            const char *nl = memmem(in + d->off, len - d->off, "\r\n", 2);
            if (nl == NULL)
                return 0;
            char *endp;
            long n = strtol(in + d->off, &endp, 16);
            if (endp == in + d->off || n < 0)
                return -1;
            d->off = (size_t)(nl + 2 - in);
            if (n == 0)
                return 1; /* trailers are not used by sokod */
            d->left = n;
        }
        size_t avail = len - d->off;
        if (avail == 0)
            return 0;
        size_t take = avail < (size_t)d->left ? avail : (size_t)d->left;
        bench_http_grow(out, out_cap, *out_len + take + 1);
        memcpy(*out + *out_len, in + d->off, take);
        *out_len += take;
        (*out)[*out_len] = '\0';
        d->off += take;
        d->left -= (long)take;
        if (d->left > 0)
            return 0;
        if (len - d->off < 2)
            return 0; /* wait for the CRLF after the data; left is 0 */
        d->off += 2;
        d->left = -1;
    }
}

struct bench_http_client bench_http_client(unsigned port)
{
    return (struct bench_http_client){.fd = -1, .port = port};
}

int bench_http_connect(unsigned port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

static bool send_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t w = send(fd, data, len, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        data += w;
        len -= (size_t)w;
    }
    return true;
}

/* Reads until in[0, *len) holds a whole answer; its body goes to *body.
 * False when the connection ended first or the chunks are malformed. */
static bool read_answer(struct bench_http_client *c, size_t *len, struct bench_http_head *h,
                        char **body)
{
    size_t body_len = 0, body_cap = 0;
    struct bench_http_chunks d = {0, -1};
    *len = 0;
    h->size = 0;
    for (;;) {
        if (h->size == 0 && bench_http_head_read(c->in, *len, h, c->cookie, sizeof c->cookie))
            d.off = h->size;
        if (h->size > 0 && h->chunked) {
            int r = bench_http_dechunk(&d, c->in, *len, body, &body_len, &body_cap);
            if (r != 0)
                return r > 0;
        } else if (h->size > 0 && *len >= h->size + (size_t)(h->length > 0 ? h->length : 0)) {
            size_t n = h->length > 0 ? (size_t)h->length : 0;
            bench_http_grow(body, &body_cap, n + 1);
            memcpy(*body, c->in + h->size, n);
            (*body)[n] = '\0';
            return true;
        }
        bench_http_grow(&c->in, &c->in_cap, *len + 65537);
        ssize_t r = recv(c->fd, c->in + *len, c->in_cap - *len - 1, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        *len += (size_t)r;
        c->in[*len] = '\0';
    }
}

int bench_http_request(struct bench_http_client *c, const char *method, const char *path,
                       const char *json, char **body)
{
    *body = NULL;
    /* Head and body leave in one write, as a browser's small request does. */
    char req[4096];
    int n = snprintf(req, sizeof req,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     "Content-Length: %zu\r\n%s%s%s\r\n%s",
                     method, path, json != NULL ? strlen(json) : 0, c->cookie[0] ? "Cookie: " : "",
                     c->cookie, c->cookie[0] ? "\r\n" : "", json != NULL ? json : "");
    struct bench_http_head h = {0};
    size_t len;
    if (c->fd < 0)
        c->fd = bench_http_connect(c->port);
    bool ok = c->fd >= 0 && n > 0 && (size_t)n < sizeof req && send_all(c->fd, req, (size_t)n) &&
              read_answer(c, &len, &h, body);
    if ((!ok || h.closing) && c->fd >= 0) {
        close(c->fd);
        c->fd = -1;
    }
    if (!ok) {
        bench_http_grow(body, &(size_t){0}, 1);
        (*body)[0] = '\0';
        return -1;
    }
    return h.status;
}

void bench_http_close(struct bench_http_client *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    free(c->in);
    c->in = NULL;
    c->in_cap = 0;
}

/* Splits one event's text (without its blank line) into its fields and
 * hands it on: "event: " names its type, "data: " its data, and a text
 * that starts with ':' is a comment. Anything else is not an event. */
static void deliver(char *text, void (*on_event)(void *arg, const struct bench_http_event *e),
                    void *arg)
{
    struct bench_http_event e = {NULL, ""};
    bool comment = text[0] == ':';
    for (char *line = text; line != NULL && *line != '\0';) {
        char *nl = strchr(line, '\n');
        if (nl != NULL)
            *nl = '\0';
        line[strcspn(line, "\r")] = '\0';
        if (strncmp(line, "event: ", 7) == 0)
            e.type = line + 7;
        else if (strncmp(line, "data: ", 6) == 0)
            e.data = line + 6;
        line = nl != NULL ? nl + 1 : NULL;
    }
    if (e.type != NULL || comment)
        on_event(arg, &e);
}

int bench_http_stream_take(struct bench_http_stream *s, const char *bytes, size_t n,
                           void (*on_event)(void *arg, const struct bench_http_event *e), void *arg)
{
    bench_http_grow(&s->in, &s->in_cap, s->in_len + n + 1);
    memcpy(s->in + s->in_len, bytes, n);
    s->in_len += n;
    s->in[s->in_len] = '\0';
    if (s->head.size == 0) {
        if (!bench_http_head_read(s->in, s->in_len, &s->head, NULL, 0))
            return 0;
        s->chunks = (struct bench_http_chunks){s->head.size, -1};
        if (s->head.status != 200)
            return 1;
    }
    if (s->head.status != 200)
        return 1;
    if (s->head.chunked) {
        if (bench_http_dechunk(&s->chunks, s->in, s->in_len, &s->text, &s->text_len, &s->text_cap) <
            0)
            return -1;
    } else {
        size_t take = s->in_len - s->chunks.off;
        bench_http_grow(&s->text, &s->text_cap, s->text_len + take + 1);
        memcpy(s->text + s->text_len, s->in + s->chunks.off, take);
        s->text_len += take;
        s->text[s->text_len] = '\0';
        s->chunks.off = s->in_len;
    }
    /* What was decoded is dropped from the input. */
    memmove(s->in, s->in + s->chunks.off, s->in_len - s->chunks.off);
    s->in_len -= s->chunks.off;
    s->chunks.off = 0;
    size_t start = 0;
    for (;;) {
        char *end =
            s->text != NULL ? memmem(s->text + start, s->text_len - start, "\n\n", 2) : NULL;
        if (end == NULL)
            break;
        *end = '\0';
        deliver(s->text + start, on_event, arg);
        start = (size_t)(end + 2 - s->text);
    }
    if (start > 0) {
        memmove(s->text, s->text + start, s->text_len - start);
        s->text_len -= start;
    }
    return 1;
}

void bench_http_stream_reset(struct bench_http_stream *s)
{
    s->head.size = 0;
    s->in_len = s->text_len = 0;
    if (s->in_cap > 65536) {
        free(s->in);
        s->in = NULL;
        s->in_cap = 0;
    }
    if (s->text_cap > 65536) {
        free(s->text);
        s->text = NULL;
        s->text_cap = 0;
    }
}
