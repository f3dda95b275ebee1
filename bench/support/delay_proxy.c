/* A TCP proxy that delays every chunk it forwards, each way, by a set time:
 * the network between sokod and a database on another machine, where this
 * machine's kernel has no netem.
 *
 *   delay_proxy PORT TARGET ONE_WAY_US
 *
 * listens on 127.0.0.1:PORT (0 picks a free one) and forwards each
 * connection to TARGET, a Unix socket's path (PostgreSQL's, as
 * tests/support/pg_cluster.sh makes it) or HOST:PORT. What one side sends
 * reaches the other ONE_WAY_US microseconds after the proxy read it, so a
 * round trip gains twice that. Prints "listening PORT" once it listens;
 * on SIGTERM or SIGINT prints what it delayed (chunks, bytes, and how late
 * each left against its due time) and exits.
 *
 * One thread, epoll and a timerfd on CLOCK_MONOTONIC with a timer slack of
 * 1 µs: a chunk leaves within some microseconds of its due time, which
 * holds delays of 100 µs and more to a few per cent. Every chunk has the
 * same delay, so each direction's queue is in due order. A direction
 * stops reading while 4 MiB wait in its queue. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define CHUNK_MAX 65536
#define QUEUE_MAX (4u << 20)
/* Lateness histogram: 1 µs buckets up to 10 ms, then one for the rest. */
#define LATE_BUCKETS 10001

struct chunk {
    struct chunk *next;
    uint64_t due_ns;
    size_t len, sent;
    char data[];
};

/* One way of a connection: what was read from `from`, waiting for `to`. */
struct way {
    int from, to;
    struct chunk *head, *tail;
    size_t queued;
    bool eof;     /* `from` ended: shut `to` down once the queue drains */
    bool shut;    /* done */
    bool blocked; /* `to` is full: wait for EPOLLOUT */
    struct pair *pair;
};

struct pair {
    struct way up, down; /* client to target, target to client */
    struct pair *prev, *next;
};

static struct pair *pairs;
static uint64_t delay_ns;
static int epfd, timer_fd;
static volatile sig_atomic_t stop;
static uint64_t chunks_total, bytes_up, bytes_down, connections;
static uint64_t late_hist[LATE_BUCKETS];
static uint64_t late_max_ns, late_sum_ns;

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void on_signal(int sig)
{
    (void)sig;
    stop = 1;
}

static int connect_target(const char *target)
{
    int fd;
    if (target[0] == '/') {
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        if (strlen(target) >= sizeof a.sun_path)
            return -1;
        memcpy(a.sun_path, target, strlen(target) + 1);
        fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
            close(fd);
            return -1;
        }
    } else {
        char host[256];
        const char *colon = strrchr(target, ':');
        if (colon == NULL || (size_t)(colon - target) >= sizeof host)
            return -1;
        memcpy(host, target, (size_t)(colon - target));
        host[colon - target] = '\0';
        struct sockaddr_in a = {.sin_family = AF_INET,
                                .sin_port = htons((uint16_t)atoi(colon + 1))};
        if (inet_pton(AF_INET, host, &a.sin_addr) != 1)
            return -1;
        fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
            close(fd);
            return -1;
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    if (fd >= 0)
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    return fd;
}

/* The events a socket waits for: reading for the way it feeds (unless its
 * queue is full or it ended), writing for the way it drains when blocked. */
static void watch(struct pair *p, bool client)
{
    struct way *reads = client ? &p->up : &p->down;
    struct way *writes = client ? &p->down : &p->up;
    struct epoll_event ev = {0};
    if (!reads->eof && reads->queued < QUEUE_MAX)
        ev.events |= EPOLLIN;
    if (writes->blocked)
        ev.events |= EPOLLOUT;
    /* The low bit tells the client's end (0) from the target's (1). */
    ev.data.ptr = (char *)p + (client ? 0 : 1);
    epoll_ctl(epfd, EPOLL_CTL_MOD, client ? p->up.from : p->down.from, &ev);
}

static void free_way(struct way *w)
{
    while (w->head != NULL) {
        struct chunk *c = w->head;
        w->head = c->next;
        free(c);
    }
    w->tail = NULL;
    w->queued = 0;
}

static void close_pair(struct pair *p)
{
    close(p->up.from);
    close(p->down.from);
    free_way(&p->up);
    free_way(&p->down);
    if (p->prev != NULL)
        p->prev->next = p->next;
    else
        pairs = p->next;
    if (p->next != NULL)
        p->next->prev = p->prev;
    free(p);
}

/* Reads what `w->from` has into w's queue; false when the pair must close. */
static bool read_way(struct way *w)
{
    while (w->queued < QUEUE_MAX) {
        char buf[CHUNK_MAX];
        ssize_t n = read(w->from, buf, sizeof buf);
        if (n > 0) {
            struct chunk *c = malloc(sizeof *c + (size_t)n);
            if (c == NULL)
                return false;
            c->next = NULL;
            c->due_ns = now_ns() + delay_ns;
            c->len = (size_t)n;
            c->sent = 0;
            memcpy(c->data, buf, (size_t)n);
            if (w->tail != NULL)
                w->tail->next = c;
            else
                w->head = c;
            w->tail = c;
            w->queued += (size_t)n;
            continue;
        }
        if (n == 0) {
            w->eof = true;
            return true;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return true;
        if (errno != EINTR)
            return false;
    }
    return true;
}

static void note_late(uint64_t due_ns, uint64_t at_ns)
{
    uint64_t late = at_ns > due_ns ? at_ns - due_ns : 0;
    uint64_t us = late / 1000;
    late_hist[us < LATE_BUCKETS - 1 ? us : LATE_BUCKETS - 1]++;
    late_sum_ns += late;
    if (late > late_max_ns)
        late_max_ns = late;
    chunks_total++;
}

/* Writes w's due chunks; false when the pair must close. */
static bool flush_way(struct way *w, uint64_t now)
{
    while (w->head != NULL && w->head->due_ns <= now) {
        struct chunk *c = w->head;
        ssize_t n = write(w->to, c->data + c->sent, c->len - c->sent);
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                w->blocked = true;
                return true;
            }
            if (errno == EINTR)
                continue;
            return false;
        }
        if (c->sent == 0)
            note_late(c->due_ns, now);
        c->sent += (size_t)n;
        w->queued -= (size_t)n;
        if (w == &w->pair->up)
            bytes_up += (uint64_t)n;
        else
            bytes_down += (uint64_t)n;
        if (c->sent < c->len) {
            w->blocked = true;
            return true;
        }
        w->head = c->next;
        if (w->head == NULL)
            w->tail = NULL;
        free(c);
    }
    w->blocked = false;
    if (w->head == NULL && w->eof && !w->shut) {
        shutdown(w->to, SHUT_WR);
        w->shut = true;
    }
    return true;
}

static void accept_all(int listener, const char *target)
{
    for (;;) {
        int client = accept4(listener, NULL, NULL, SOCK_NONBLOCK);
        if (client < 0)
            return;
        int server = connect_target(target);
        if (server < 0) {
            fprintf(stderr, "delay_proxy: cannot reach %s: %s\n", target, strerror(errno));
            close(client);
            continue;
        }
        int one = 1;
        setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        struct pair *p = calloc(1, sizeof *p);
        if (p == NULL) {
            close(client);
            close(server);
            continue;
        }
        p->up = (struct way){.from = client, .to = server, .pair = p};
        p->down = (struct way){.from = server, .to = client, .pair = p};
        p->next = pairs;
        if (pairs != NULL)
            pairs->prev = p;
        pairs = p;
        connections++;
        /* The low bit of the pointer tells the client's end (0) from the
         * target's (1): a pair is aligned. */
        struct epoll_event ev = {.events = EPOLLIN, .data.ptr = p};
        epoll_ctl(epfd, EPOLL_CTL_ADD, client, &ev);
        ev.data.ptr = (char *)p + 1;
        epoll_ctl(epfd, EPOLL_CTL_ADD, server, &ev);
    }
}

/* Arms the timer for the earliest due chunk no write is blocked on. */
static void arm_timer(void)
{
    uint64_t earliest = UINT64_MAX;
    for (struct pair *p = pairs; p != NULL; p = p->next) {
        if (p->up.head != NULL && !p->up.blocked && p->up.head->due_ns < earliest)
            earliest = p->up.head->due_ns;
        if (p->down.head != NULL && !p->down.blocked && p->down.head->due_ns < earliest)
            earliest = p->down.head->due_ns;
    }
    struct itimerspec t = {0};
    if (earliest != UINT64_MAX) {
        if (earliest == 0)
            earliest = 1;
        t.it_value.tv_sec = (time_t)(earliest / 1000000000u);
        t.it_value.tv_nsec = (long)(earliest % 1000000000u);
    }
    timerfd_settime(timer_fd, TFD_TIMER_ABSTIME, &t, NULL);
}

/* Whether the pair is over: both ways ended and drained, or one broke. */
static bool pair_done(const struct pair *p)
{
    return p->up.shut && p->down.shut;
}

static void report(void)
{
    uint64_t p50 = 0, p99 = 0, seen = 0;
    for (unsigned i = 0; i < LATE_BUCKETS; i++) {
        seen += late_hist[i];
        if (p50 == 0 && seen * 2 >= chunks_total)
            p50 = i + 1;
        if (p99 == 0 && seen * 100 >= chunks_total * 99)
            p99 = i + 1;
    }
    printf("RESULT delay_us=%llu connections=%llu chunks=%llu bytes_up=%llu bytes_down=%llu "
           "late_mean_us=%.1f late_p50_us=%llu late_p99_us=%llu late_max_us=%.1f\n",
           (unsigned long long)(delay_ns / 1000), (unsigned long long)connections,
           (unsigned long long)chunks_total, (unsigned long long)bytes_up,
           (unsigned long long)bytes_down,
           chunks_total > 0 ? (double)late_sum_ns / 1000.0 / (double)chunks_total : 0.0,
           (unsigned long long)(chunks_total > 0 ? p50 : 0),
           (unsigned long long)(chunks_total > 0 ? p99 : 0), (double)late_max_ns / 1000.0);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: delay_proxy PORT TARGET ONE_WAY_US\n");
        return 2;
    }
    delay_ns = strtoull(argv[3], NULL, 10) * 1000u;
    const char *target = argv[2];
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[1]))};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t alen = sizeof a;
    if (listener < 0 || bind(listener, (struct sockaddr *)&a, sizeof a) != 0 ||
        listen(listener, 1024) != 0 || getsockname(listener, (struct sockaddr *)&a, &alen) != 0) {
        fprintf(stderr, "delay_proxy: cannot listen on port %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    epfd = epoll_create1(0);
    timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
    /* Tags below any pair's address: the listener and the timer. */
    static char listener_tag, timer_tag;
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &listener_tag};
    epoll_ctl(epfd, EPOLL_CTL_ADD, listener, &ev);
    ev.data.ptr = &timer_tag;
    epoll_ctl(epfd, EPOLL_CTL_ADD, timer_fd, &ev);
    printf("listening %u\n", (unsigned)ntohs(a.sin_port));
    fflush(stdout);

    struct epoll_event evs[256];
    while (!stop) {
        int n = epoll_wait(epfd, evs, 256, -1);
        if (n < 0 && errno != EINTR)
            break;
        for (int i = 0; i < n; i++) {
            void *tag = evs[i].data.ptr;
            if (tag == &listener_tag) {
                accept_all(listener, target);
                continue;
            }
            if (tag == &timer_tag) {
                uint64_t expirations;
                if (read(timer_fd, &expirations, sizeof expirations) < 0)
                    (void)expirations;
                continue;
            }
            uintptr_t bits = (uintptr_t)tag;
            struct pair *p = (struct pair *)(bits & ~(uintptr_t)1);
            bool client = (bits & 1) == 0;
            struct way *reads = client ? &p->up : &p->down;
            struct way *writes = client ? &p->down : &p->up;
            bool ok = true;
            if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
                ok = read_way(reads);
            if (ok && (evs[i].events & EPOLLOUT))
                writes->blocked = false;
            if (!ok) {
                /* Freed below, once: a later event of this round may name
                 * it, so it is marked and skipped. */
                reads->shut = writes->shut = true;
                reads->eof = writes->eof = true;
                free_way(reads);
                free_way(writes);
            }
        }
        /* Everything due leaves, then each pair's events are set again. */
        uint64_t now = now_ns();
        for (struct pair *p = pairs, *next; p != NULL; p = next) {
            next = p->next;
            bool ok = flush_way(&p->up, now) && flush_way(&p->down, now);
            if (!ok || pair_done(p)) {
                close_pair(p);
                continue;
            }
            watch(p, true);
            watch(p, false);
        }
        arm_timer();
    }
    report();
    return 0;
}
