/* Client addresses: parsing them, the operator's list of trusted proxies,
 * the client named by an X-Forwarded-For chain, and the text that keys
 * every per-client limit. Every address is held as 16 bytes, an IPv4
 * address in its IPv4-mapped IPv6 form (::ffff:192.0.2.7), so that one
 * comparison serves both families. */
#ifndef SOKOD_CLIENT_IP_H
#define SOKOD_CLIENT_IP_H

#include <stdbool.h>
#include <stddef.h>

struct sockaddr;

/* The most networks --trusted-proxies may list. */
#define CLIENT_IP_NETS_MAX 32
/* Room for a client's key with its NUL (an IPv6 address at most). */
#define CLIENT_IP_KEY_MAX 48

struct client_ip_net {
    unsigned char addr[16]; /* the network, host bits cleared */
    unsigned bits;          /* prefix length, counted in the 16-byte form */
};

/* A list of networks, such as the trusted proxies. */
struct client_ip_nets {
    unsigned n;
    struct client_ip_net net[CLIENT_IP_NETS_MAX];
};

/* Reads an address from len bytes of text: IPv4 or IPv6, optionally in
 * brackets and with a port ("192.0.2.7:4711", "[2001:db8::1]:443"), with
 * spaces around. True when it is one, with *out set. */
bool client_ip_parse(const char *text, size_t len, unsigned char out[16]);

/* The address of a socket's peer; false for other families. */
bool client_ip_from_sockaddr(const struct sockaddr *sa, unsigned char out[16]);

/* The key per-client limits count by: an IPv4 address as text, an IPv6
 * address cut to its /64 network (one machine commonly holds a whole
 * /64). Writes "" when cap is too small. */
void client_ip_key(const unsigned char addr[16], char *out, size_t cap);

/* Reads a comma-separated list of addresses and networks ("10.0.0.0/8,
 * ::1"); an empty text is an empty list. 0, or -1 (nets unchanged) when
 * an entry is malformed or there are more than CLIENT_IP_NETS_MAX. */
int client_ip_nets_parse(struct client_ip_nets *nets, const char *text);

/* True when addr lies in one of the networks. */
bool client_ip_nets_match(const struct client_ip_nets *nets, const unsigned char addr[16]);

/* The client behind a chain of proxies: values[0..n) are the request's
 * X-Forwarded-For headers in order, each a comma-separated list of hops
 * that proxies appended. Walking from the right-most hop, every hop that
 * is a listed proxy is passed; the first that is not is the client. When
 * every hop is a listed proxy, the left-most one is; a hop that is no
 * address stops the walk at the last proxy passed (a listed proxy writes
 * addresses, so it was not written by one). Call only when `peer` (the
 * socket's) is a listed proxy. Sets *out; cannot fail. */
void client_ip_forwarded(const struct client_ip_nets *proxies, const unsigned char peer[16],
                         const char *const *values, unsigned n, unsigned char out[16]);

#endif
