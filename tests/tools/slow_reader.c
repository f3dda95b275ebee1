/* slow_reader: an event-stream client that stops reading, for the test of
 * slow streams (tests/server/slow_stream.test.mjs). Node cannot shrink a
 * socket's buffers, and on loopback the kernel would otherwise hold
 * megabytes for a client that never reads: this one asks for a small
 * receive buffer and a small segment size before it connects, so that the
 * server feels it stall after a few kilobytes.
 *
 *   slow_reader PORT PATH [COOKIE]
 *
 * Sends GET PATH, reads until the stream's "ready" event, prints "ready"
 * and stops reading. When a line arrives on standard input it reads the
 * socket again, copying every byte it gets to standard output, until the
 * server closes the connection (exit 0) or nothing comes for 3 seconds
 * (exit 3: the server kept the connection open). Exit 2 on errors.
 * SLOW_READER_UNTIL, when set, is read for in place of the ready event
 * ("\r\n\r\n": the end of any answer's headers). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int fail(const char *what)
{
    perror(what);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: slow_reader PORT PATH [COOKIE]\n");
        return 2;
    }
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return fail("socket");
    /* Both before connect: the window and the segment size are agreed on
     * in the handshake. */
    int rcvbuf = 4096, mss = 536;
    if (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf) != 0 ||
        setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, sizeof mss) != 0)
        return fail("setsockopt");
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[1]))};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0)
        return fail("connect");
    char request[4096];
    int n = snprintf(request, sizeof request,
                     "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                     "%s%s%s\r\n",
                     argv[2], argc == 4 ? "Cookie: " : "", argc == 4 ? argv[3] : "",
                     argc == 4 ? "\r\n" : "");
    if (n < 0 || (size_t)n >= sizeof request || write(fd, request, (size_t)n) != n)
        return fail("write");

    /* Up to the ready event: the server then follows the topic. */
    const char *until = getenv("SLOW_READER_UNTIL");
    if (until == NULL || until[0] == '\0')
        until = "event: ready";
    char seen[8192];
    size_t have = 0;
    while (memmem(seen, have, until, strlen(until)) == NULL) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (have == sizeof seen || poll(&p, 1, 10000) != 1)
            return fail("waiting for the ready event (or SLOW_READER_UNTIL)");
        ssize_t got = read(fd, seen + have, sizeof seen - have);
        if (got <= 0)
            return fail("reading the answer");
        have += (size_t)got;
    }
    fwrite(seen, 1, have, stdout);
    printf("\nready\n");
    fflush(stdout);

    char line[64];
    if (fgets(line, sizeof line, stdin) == NULL)
        return 2;
    char buf[65536];
    for (;;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int ready = poll(&p, 1, 3000);
        if (ready == 0)
            return 3;
        if (ready < 0)
            return fail("poll");
        ssize_t got = read(fd, buf, sizeof buf);
        if (got <= 0)
            break; /* closed, or reset: either way the server let go */
        /* At once: the test may stop this helper once it has what it
         * waited for. */
        fwrite(buf, 1, (size_t)got, stdout);
        fflush(stdout);
    }
    fflush(stdout);
    close(fd);
    return 0;
}
