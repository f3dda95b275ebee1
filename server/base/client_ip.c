/* Client addresses: parsing, networks, forwarded chains and limit keys. */
#include "base/client_ip.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

static const unsigned char V4_MAPPED[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

static bool is_v4(const unsigned char addr[16])
{
    return memcmp(addr, V4_MAPPED, sizeof V4_MAPPED) == 0;
}

static void map_v4(const struct in_addr *v4, unsigned char out[16])
{
    memcpy(out, V4_MAPPED, sizeof V4_MAPPED);
    memcpy(out + 12, &v4->s_addr, 4);
}

static bool all_digits(const char *p, size_t len)
{
    if (len == 0 || len > 5)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (p[i] < '0' || p[i] > '9')
            return false;
    }
    return true;
}

/* Parses a bare address (no brackets, no port), NUL-terminated. */
static bool parse_bare(const char *text, unsigned char out[16])
{
    struct in_addr v4;
    struct in6_addr v6;
    if (inet_pton(AF_INET, text, &v4) == 1) {
        map_v4(&v4, out);
        return true;
    }
    if (inet_pton(AF_INET6, text, &v6) == 1) {
        memcpy(out, v6.s6_addr, 16);
        return true;
    }
    return false;
}

bool client_ip_parse(const char *text, size_t len, unsigned char out[16])
{
    while (len > 0 && (*text == ' ' || *text == '\t')) {
        text++;
        len--;
    }
    while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\t'))
        len--;
    char bare[INET6_ADDRSTRLEN];
    const char *start = text;
    size_t n = len;
    if (len > 0 && text[0] == '[') {
        const char *close = memchr(text, ']', len);
        if (close == NULL)
            return false;
        size_t after = len - (size_t)(close - text) - 1;
        if (after > 0 && (close[1] != ':' || !all_digits(close + 2, after - 1)))
            return false;
        start = text + 1;
        n = (size_t)(close - start);
    } else {
        /* One colon is an IPv4 address with a port; more, an IPv6 address. */
        const char *colon = memchr(text, ':', len);
        if (colon != NULL && memchr(colon + 1, ':', len - (size_t)(colon - text) - 1) == NULL) {
            if (!all_digits(colon + 1, len - (size_t)(colon - text) - 1))
                return false;
            n = (size_t)(colon - text);
        }
    }
    if (n == 0 || n >= sizeof bare)
        return false;
    memcpy(bare, start, n);
    bare[n] = '\0';
    return parse_bare(bare, out);
}

bool client_ip_from_sockaddr(const struct sockaddr *sa, unsigned char out[16])
{
    if (sa == NULL)
        return false;
    if (sa->sa_family == AF_INET) {
        map_v4(&((const struct sockaddr_in *)(const void *)sa)->sin_addr, out);
        return true;
    }
    if (sa->sa_family == AF_INET6) {
        memcpy(out, ((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr.s6_addr, 16);
        return true;
    }
    return false;
}

void client_ip_key(const unsigned char addr[16], char *out, size_t cap)
{
    if (cap == 0)
        return;
    out[0] = '\0';
    if (is_v4(addr)) {
        struct in_addr v4;
        memcpy(&v4.s_addr, addr + 12, 4);
        if (inet_ntop(AF_INET, &v4, out, (socklen_t)cap) == NULL)
            out[0] = '\0';
        return;
    }
    struct in6_addr net;
    memcpy(net.s6_addr, addr, 8);
    memset(net.s6_addr + 8, 0, 8);
    if (inet_ntop(AF_INET6, &net, out, (socklen_t)cap) == NULL)
        out[0] = '\0';
}

/* Clears the bits of addr past the first `bits`. */
static void mask(unsigned char addr[16], unsigned bits)
{
    for (unsigned i = 0; i < 16; i++) {
        unsigned keep = bits >= 8 * (i + 1) ? 8 : bits > 8 * i ? bits - 8 * i : 0;
        addr[i] &= (unsigned char)(0xff00u >> keep);
    }
}

/* Reads one entry, "ADDR" or "ADDR/BITS", of len bytes. */
static bool parse_net(const char *text, size_t len, struct client_ip_net *net)
{
    const char *slash = memchr(text, '/', len);
    size_t alen = slash != NULL ? (size_t)(slash - text) : len;
    char bare[INET6_ADDRSTRLEN];
    while (alen > 0 && (*text == ' ' || *text == '\t')) {
        text++;
        alen--;
        len--;
    }
    while (alen > 0 && (text[alen - 1] == ' ' || text[alen - 1] == '\t'))
        alen--;
    if (alen == 0 || alen >= sizeof bare)
        return false;
    memcpy(bare, text, alen);
    bare[alen] = '\0';
    if (!parse_bare(bare, net->addr))
        return false;
    unsigned max = is_v4(net->addr) ? 32 : 128;
    unsigned bits = max;
    if (slash != NULL) {
        size_t digits = len - (size_t)(slash - text) - 1;
        while (digits > 0 && (slash[digits] == ' ' || slash[digits] == '\t'))
            digits--;
        if (digits == 0 || digits > 3 || !all_digits(slash + 1, digits))
            return false;
        bits = 0;
        for (size_t i = 0; i < digits; i++)
            bits = bits * 10 + (unsigned)(slash[1 + i] - '0');
        if (bits > max)
            return false;
    }
    net->bits = max == 32 ? bits + 96 : bits;
    mask(net->addr, net->bits);
    return true;
}

int client_ip_nets_parse(struct client_ip_nets *nets, const char *text)
{
    struct client_ip_nets parsed = {0};
    const char *p = text;
    while (*p != '\0') {
        const char *comma = strchr(p, ',');
        size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
        if (parsed.n == CLIENT_IP_NETS_MAX || !parse_net(p, len, &parsed.net[parsed.n]))
            return -1;
        parsed.n++;
        if (comma == NULL)
            break;
        p = comma + 1;
        if (*p == '\0')
            return -1;
    }
    *nets = parsed;
    return 0;
}

bool client_ip_nets_match(const struct client_ip_nets *nets, const unsigned char addr[16])
{
    for (unsigned i = 0; i < nets->n; i++) {
        unsigned char masked[16];
        memcpy(masked, addr, 16);
        mask(masked, nets->net[i].bits);
        if (memcmp(masked, nets->net[i].addr, 16) == 0)
            return true;
    }
    return false;
}

void client_ip_forwarded(const struct client_ip_nets *proxies, const unsigned char peer[16],
                         const char *const *values, unsigned n, unsigned char out[16])
{
    memcpy(out, peer, 16);
    for (unsigned v = n; v-- > 0;) {
        const char *text = values[v];
        size_t end = strlen(text);
        for (;;) {
            size_t start = end;
            while (start > 0 && text[start - 1] != ',')
                start--;
            unsigned char hop[16];
            bool blank = true;
            for (size_t i = start; i < end; i++)
                blank = blank && (text[i] == ' ' || text[i] == '\t');
            if (!blank) {
                if (!client_ip_parse(text + start, end - start, hop))
                    return;
                memcpy(out, hop, 16);
                if (!client_ip_nets_match(proxies, hop))
                    return;
            }
            if (start == 0)
                break;
            end = start - 1;
        }
    }
}
