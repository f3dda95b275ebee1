/* The soak's connections: non-blocking sockets on one epoll, HTTP/1.1
 * kept alive, each from its player's own loopback address; the requests
 * players send on them, and the answers and events that come back. */
#include "soak.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

int net_epfd;
static char *scratch; /* a decoded chunked body */
static size_t scratch_cap;

static void conn_watch(struct conn *c, uint32_t events, int op)
{
    struct epoll_event ev = {.events = events, .data.ptr = c};
    epoll_ctl(net_epfd, op, c->fd, &ev);
}

void net_close(struct conn *c)
{
    if (c->fd >= 0) {
        epoll_ctl(net_epfd, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
    }
    c->fd = -1;
    c->phase = C_CLOSED;
    c->used = false;
    c->in_len = c->head.size = 0;
    bench_http_stream_reset(&c->stream);
    if (c->in_cap > 65536) {
        free(c->in);
        c->in = NULL;
        c->in_cap = 0;
    }
}

/* The loopback address of player number `serial`: 127.B.C.D, never 127.0.0.x. */
static struct in_addr player_address(unsigned long serial)
{
    unsigned long a = serial;
    unsigned d = (unsigned)(a % 250) + 2;
    a /= 250;
    unsigned c = (unsigned)(a % 250) + 1;
    a /= 250;
    unsigned b = (unsigned)(a % 200) + 10;
    struct in_addr in;
    in.s_addr = htonl((127u << 24) | (b << 16) | (c << 8) | d);
    return in;
}

/* Starts a connection from the player's address; the request in c->out
 * goes once it is up. False when no socket could be made. */
static bool conn_open(struct conn *c, unsigned long serial)
{
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->fd < 0)
        return false;
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in from = {.sin_family = AF_INET, .sin_addr = player_address(serial)};
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)soak_port)};
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(c->fd, (struct sockaddr *)&from, sizeof from) != 0 ||
        (connect(c->fd, (struct sockaddr *)&to, sizeof to) != 0 && errno != EINPROGRESS)) {
        close(c->fd);
        c->fd = -1;
        return false;
    }
    c->phase = C_CONNECTING;
    conn_watch(c, EPOLLOUT, EPOLL_CTL_ADD);
    return true;
}

/* Writes what is left of the request; false when the connection failed. */
static bool conn_flush(struct conn *c)
{
    while (c->out_off < c->out_len) {
        ssize_t w = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
        if (w < 0 && errno == EAGAIN) {
            conn_watch(c, EPOLLIN | EPOLLOUT, EPOLL_CTL_MOD);
            return true;
        }
        if (w <= 0)
            return false;
        c->out_off += (size_t)w;
    }
    c->phase = C_WAITING;
    conn_watch(c, EPOLLIN, EPOLL_CTL_MOD);
    return true;
}

/* Sends a request on the player's API connection (connecting first when it
 * is closed). `body` NULL sends no body (a GET). */
void net_send(struct player *p, enum route r, const char *method, const char *path,
              const char *body)
{
    struct conn *c = &p->api;
    int n = snprintf(c->out, sizeof c->out, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s%s%s%s", method,
                     path, body != NULL ? "Content-Type: application/json\r\n" : "",
                     p->cookie[0] ? "Cookie: " : "", p->cookie, p->cookie[0] ? "\r\n" : "");
    if (body != NULL)
        n += snprintf(c->out + n, sizeof c->out - (size_t)n, "Content-Length: %zu\r\n\r\n%s",
                      strlen(body), body);
    else
        n += snprintf(c->out + n, sizeof c->out - (size_t)n, "\r\n");
    c->out_len = (size_t)n;
    c->out_off = 0;
    c->route = r;
    c->resent = false;
    c->sent_at = bench_env_now_us();
    c->deadline = c->sent_at + ANSWER_TIMEOUT_US;
    c->in_len = c->head.size = 0;
    p->busy = true;
    p->pending = r;
    figures.requests++;
    if (c->phase == C_CLOSED) {
        if (!conn_open(c, p->serial)) {
            figures_error(r, "connection error (no socket)", strerror(errno));
            p->busy = false;
            player_schedule(p, bench_env_now_us() + 1000000u);
        }
        return;
    }
    c->phase = C_SENDING;
    if (!conn_flush(c)) {
        /* The server closed the kept-alive connection: a new one. */
        net_close(c);
        figures.resent++;
        c->resent = true;
        if (!conn_open(c, p->serial)) {
            figures_error(r, "connection error (no socket)", strerror(errno));
            p->busy = false;
            player_schedule(p, bench_env_now_us() + 1000000u);
        }
    }
}

/* Opens the player's event stream on `query` (with its cookie when
 * `with_cookie`). */
void net_open_feed(struct player *p, enum feed_kind kind, const char *query, bool with_cookie)
{
    struct conn *c = &p->feed;
    if (c->phase != C_CLOSED)
        net_close(c);
    int n = snprintf(c->out, sizeof c->out,
                     "GET /api/v1/events?%s HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     "Accept: text/event-stream\r\n%s%s%s\r\n",
                     query, with_cookie && p->cookie[0] ? "Cookie: " : "",
                     with_cookie ? p->cookie : "", with_cookie && p->cookie[0] ? "\r\n" : "");
    c->out_len = (size_t)n;
    c->out_off = 0;
    c->route = RT_EVENTS;
    c->sent_at = bench_env_now_us();
    c->deadline = c->sent_at + ANSWER_TIMEOUT_US;
    c->in_len = c->head.size = 0;
    bench_http_stream_reset(&c->stream);
    p->feed_kind = kind;
    p->feed_ready = false;
    p->feed_sent = 0;
    p->feed_first = 1; /* an empty range until it counts an entry */
    p->feed_last = 0;
    p->nseen = 0;
    figures.streams++;
    figures.requests++;
    if (!conn_open(c, p->serial)) {
        figures_error(RT_EVENTS, "connection error (no socket)", strerror(errno));
        p->feed_kind = FEED_NONE;
    }
}

static int by_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* Closes the event stream. A second tab that leaves its game (`linger`)
 * stays open 2 s more, for the events of the last entries to arrive, and is
 * then counted: how many of its game's entries it saw. */
void net_close_feed(struct player *p, bool linger)
{
    if (linger && p->feed_kind == FEED_GAME && p->feed_ready) {
        p->feed_kind = FEED_LINGER;
        p->feed_until = bench_env_now_us() + 2000000u;
        return;
    }
    if (p->feed_kind == FEED_LINGER) {
        /* The entries it committed have the seqs first..last; events of
         * others (sent before the stream was ready, or while it lingered)
         * are not counted. */
        if (p->nseen > 0) /* seen is NULL until the first event */
            qsort(p->seen, p->nseen, sizeof *p->seen, by_long);
        for (size_t i = 0; i < p->nseen; i++) {
            if (p->seen[i] < p->feed_first || p->seen[i] > p->feed_last)
                continue;
            if (i > 0 && p->seen[i] == p->seen[i - 1])
                figures.watched_steps_twice++;
            else
                figures.watched_steps_seen++;
        }
        figures.watched_steps_sent += p->feed_sent;
    }
    p->nseen = 0;
    net_close(&p->feed);
    p->feed_kind = FEED_NONE;
    p->feed_ready = false;
}

/* A connection broke. The API connection sends its request again once when
 * the server had closed it while idle (nothing of an answer came); any other
 * break is an error and the player catches up with its game. */
static void conn_broken(struct conn *c, const char *why)
{
    struct player *p = c->p;
    bool nothing = c->in_len == 0;
    if (!c->feed && c->phase == C_IDLE) {
        figures.closed_idle++;
        net_close(c);
        return;
    }
    if (!c->feed && nothing && c->used && !c->resent) {
        size_t keep = c->out_len;
        net_close(c);
        c->out_len = keep;
        c->out_off = 0;
        c->resent = true;
        figures.resent++;
        if (conn_open(c, p->serial))
            return;
    }
    char what[96];
    snprintf(what, sizeof what, "connection error (%s)", why);
    figures_error(c->route, what, "");
    net_close(c);
    if (c->feed) {
        p->race_poll = p->feed_kind == FEED_RACE;
        p->feed_kind = FEED_NONE;
        return;
    }
    p->busy = false;
    p->resync = true;
    if (p->race == RACE_RUN || p->race == RACE_COUNTDOWN)
        p->race = RACE_DONE;
    player_schedule(p, bench_env_now_us() + player_think_us(p));
}

/* Reads what arrived on an API connection; handles a complete answer. */
static void api_readable(struct conn *c)
{
    struct player *p = c->p;
    for (;;) {
        bench_http_grow(&c->in, &c->in_cap, c->in_len + 16385);
        ssize_t r = recv(c->fd, c->in + c->in_len, c->in_cap - c->in_len - 1, 0);
        if (r < 0 && errno == EAGAIN)
            break;
        if (r <= 0) {
            conn_broken(c, r == 0 ? "closed" : strerror(errno));
            return;
        }
        c->in_len += (size_t)r;
        figures.bytes_in += (unsigned long long)r;
    }
    if (c->phase != C_WAITING)
        return;
    if (c->head.size == 0 &&
        !bench_http_head_read(c->in, c->in_len, &c->head, p->cookie, sizeof p->cookie))
        return;
    size_t len = 0;
    if (c->head.chunked) {
        c->chunks = (struct bench_http_chunks){c->head.size, -1};
        int d = bench_http_dechunk(&c->chunks, c->in, c->in_len, &scratch, &len, &scratch_cap);
        if (d == 0)
            return;
        if (d < 0) {
            figures_error(c->route, "malformed chunked answer", "");
            net_close(c);
            answers_take(p, c->route, 0, "");
            return;
        }
    } else {
        len = c->head.length > 0 ? (size_t)c->head.length : 0;
        if (c->in_len < c->head.size + len)
            return;
        /* A copy: the answer may close or reuse this connection. */
        bench_http_grow(&scratch, &scratch_cap, len + 1);
        memcpy(scratch, c->in + c->head.size, len);
    }
    bench_http_grow(&scratch, &scratch_cap, len + 1);
    scratch[len] = '\0';
    figures.answered++;
    figures_latency(c->route, bench_env_now_us() - c->sent_at);
    c->used = true;
    c->phase = C_IDLE;
    int status = c->head.status;
    bool closing = c->head.closing;
    c->head.size = 0;
    c->in_len = 0;
    if (closing)
        net_close(c);
    answers_take(p, c->route, status, scratch);
}

/* Ends an event stream that the server refused or garbled. */
static void feed_refused(struct conn *c, const char *what, const char *example)
{
    figures_error(RT_EVENTS, what, example);
    net_close(c);
    c->p->feed_kind = FEED_NONE;
}

/* Hands bytes of an event stream on; false once the stream is closed. */
static bool feed_take(struct conn *c, const char *bytes, size_t n)
{
    struct bench_http_stream *s = &c->stream;
    int taken = bench_http_stream_take(s, bytes, n, answers_event, c->p);
    if (taken < 0) {
        feed_refused(c, "malformed chunk in a stream", "");
        return false;
    }
    if (taken > 0 && s->head.status != 200) {
        const char *body = s->in + s->head.size;
        json_t *doc = bench_json_parse(body);
        const char *code = answers_error_code(doc);
        char what[96];
        snprintf(what, sizeof what, "%d %.63s", s->head.status, code[0] ? code : "(no code)");
        feed_refused(c, what, body);
        json_decref(doc);
        return false;
    }
    if (taken > 0)
        c->phase = C_STREAMING;
    return true;
}

/* Reads what arrived on an event stream: its head, then its events. */
static void feed_readable(struct conn *c)
{
    char buf[16384];
    for (;;) {
        ssize_t r = recv(c->fd, buf, sizeof buf, 0);
        if (r < 0 && errno == EAGAIN)
            return;
        if (r <= 0) {
            conn_broken(c, r == 0 ? "stream closed" : strerror(errno));
            return;
        }
        c->last_byte = bench_env_now_us();
        figures.bytes_in += (unsigned long long)r;
        if (!feed_take(c, buf, (size_t)r))
            return;
    }
}

void net_event(struct conn *c, uint32_t events)
{
    /* Closed by an earlier event of the same batch. */
    if (c->fd < 0)
        return;
    if (c->phase == C_CONNECTING) {
        int err = 0;
        socklen_t len = sizeof err;
        getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
        if (err != 0) {
            errno = err;
            c->phase = C_SENDING;
            conn_broken(c, strerror(err));
            return;
        }
        c->phase = C_SENDING;
        if (!conn_flush(c))
            conn_broken(c, "cannot send");
        return;
    }
    if ((events & EPOLLOUT) && c->phase == C_SENDING) {
        if (!conn_flush(c)) {
            conn_broken(c, "cannot send");
            return;
        }
    }
    if (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
        if (c->feed)
            feed_readable(c);
        else
            api_readable(c);
    }
}

/* Requests that got no answer in time, and streams gone silent. */
void net_check_timeouts(uint64_t now)
{
    for (unsigned i = 0; i < soak_nplayers; i++) {
        struct player *p = &player_list[i];
        struct conn *a = &p->api;
        if (a->phase >= C_CONNECTING && a->phase <= C_WAITING && now > a->deadline) {
            figures_error(a->route, "timeout (no answer in 10 s)", "");
            net_close(a);
            p->busy = false;
            p->resync = true;
            if (p->race == RACE_RUN || p->race == RACE_COUNTDOWN)
                p->race = RACE_DONE;
            player_schedule(p, now + player_think_us(p));
        }
        struct conn *f = &p->feed;
        bool waiting = f->phase != C_CLOSED && !p->feed_ready && now > f->deadline;
        bool silent =
            f->phase == C_STREAMING && p->feed_ready && now - f->last_byte > STREAM_SILENCE_US;
        if (waiting || silent) {
            figures_error(RT_EVENTS,
                          waiting ? "timeout (no ready event in 10 s)"
                                  : "stream silent for 40 s (no heartbeat)",
                          "");
            net_close(f);
            p->race_poll = p->feed_kind == FEED_RACE;
            p->feed_kind = FEED_NONE;
        }
    }
}
