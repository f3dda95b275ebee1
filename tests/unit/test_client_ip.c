/* Client addresses (server/base/client_ip.c): the forms an X-Forwarded-For hop
 * and a --trusted-proxies entry may take, the key per-client limits count
 * by, and which hop of a forwarded chain is the client. Each failure
 * prints the text read and what came out. */
#include "base/client_ip.h"
#include "check.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

/* The key of a parsed hop, or "(none)" when it does not parse. */
static const char *key_of(const char *text, char *out, size_t cap)
{
    unsigned char addr[16];
    if (!client_ip_parse(text, strlen(text), addr)) {
        snprintf(out, cap, "(none)");
        return out;
    }
    client_ip_key(addr, out, cap);
    return out;
}

static void hops_parse_to_their_keys(void)
{
    static const struct {
        const char *text, *key;
    } cases[] = {
        {"192.0.2.7", "192.0.2.7"},
        {" 192.0.2.7\t", "192.0.2.7"},
        {"192.0.2.7:4711", "192.0.2.7"},
        {"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::"},
        {"[2001:db8:1:2::9]:443", "2001:db8:1:2::"},
        {"[2001:db8::1]", "2001:db8::"},
        {"::ffff:198.51.100.3", "198.51.100.3"},
        {"", "(none)"},
        {"unknown", "(none)"},
        {"192.0.2.7:", "(none)"},
        {"192.0.2.7:port", "(none)"},
        {"[2001:db8::1", "(none)"},
        {"[2001:db8::1]443", "(none)"},
        {"192.0.2.256", "(none)"},
        {"_hidden", "(none)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char key[CLIENT_IP_KEY_MAX];
        key_of(cases[i].text, key, sizeof key);
        CHECK_MSG(strcmp(key, cases[i].key) == 0, "'%s' keyed '%s', not '%s'", cases[i].text, key,
                  cases[i].key);
    }
}

static bool in_nets(const struct client_ip_nets *nets, const char *text)
{
    unsigned char addr[16];
    return client_ip_parse(text, strlen(text), addr) && client_ip_nets_match(nets, addr);
}

static void networks_match_their_addresses(void)
{
    struct client_ip_nets nets;
    CHECK_MSG(client_ip_nets_parse(&nets, "10.0.0.0/8, 192.0.2.1,::1,2001:db8:5::/48") == 0,
              "a list of four");
    CHECK_MSG(nets.n == 4, "%u networks", nets.n);
    const char *inside[] = {"10.0.0.1", "10.255.255.255",   "192.0.2.1",
                            "::1",      "2001:db8:5:ff::1", "::ffff:10.1.2.3"};
    const char *outside[] = {"11.0.0.1", "192.0.2.2", "::2", "2001:db8:6::1", "9.255.255.255"};
    for (size_t i = 0; i < sizeof inside / sizeof inside[0]; i++)
        CHECK_MSG(in_nets(&nets, inside[i]), "%s is in the list", inside[i]);
    for (size_t i = 0; i < sizeof outside / sizeof outside[0]; i++)
        CHECK_MSG(!in_nets(&nets, outside[i]), "%s is not in the list", outside[i]);
    struct client_ip_nets all;
    CHECK_MSG(client_ip_nets_parse(&all, "0.0.0.0/0") == 0 && in_nets(&all, "203.0.113.1") &&
                  !in_nets(&all, "2001:db8::1"),
              "0.0.0.0/0 is every IPv4 address and no IPv6 one");
    struct client_ip_nets none;
    CHECK_MSG(client_ip_nets_parse(&none, "") == 0 && none.n == 0, "an empty list");
    const char *bad[] = {"10.0.0.0/33",  "::1/129",   "10.0.0.0/", "10.0.0.0/x",
                         "host.example", "10.0.0.1,", ",10.0.0.1", "10.0.0.1,,10.0.0.2",
                         "10.0.0.1:80"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct client_ip_nets kept = nets;
        CHECK_MSG(client_ip_nets_parse(&kept, bad[i]) == -1, "'%s' is refused", bad[i]);
        CHECK_MSG(kept.n == nets.n, "'%s' leaves the list as it was", bad[i]);
    }
    char many[1024];
    size_t len = 0;
    for (int i = 0; i <= CLIENT_IP_NETS_MAX && len < sizeof many; i++)
        len += (size_t)snprintf(many + len, sizeof many - len, "%s10.0.%d.1", i > 0 ? "," : "", i);
    CHECK_MSG(client_ip_nets_parse(&none, many) == -1, "more than %d entries are refused",
              CLIENT_IP_NETS_MAX);
}

/* The client's key for a chain of headers from peer `peer`. */
static void client_of(const struct client_ip_nets *proxies, const char *peer,
                      const char *const *values, unsigned n, char *key, size_t cap)
{
    unsigned char p[16], out[16];
    client_ip_parse(peer, strlen(peer), p);
    client_ip_forwarded(proxies, p, values, n, out);
    client_ip_key(out, key, cap);
}

static void the_client_is_the_rightmost_hop_not_a_proxy(void)
{
    struct client_ip_nets proxies;
    client_ip_nets_parse(&proxies, "10.0.0.0/8,127.0.0.1");
    static const struct {
        const char *values[3];
        unsigned n;
        const char *client;
    } cases[] = {
        {{"198.51.100.1"}, 1, "198.51.100.1"},
        {{"192.0.2.66, 198.51.100.1"}, 1, "198.51.100.1"},
        {{"198.51.100.1, 10.1.1.1, 10.2.2.2"}, 1, "198.51.100.1"},
        {{"192.0.2.66", "198.51.100.1, 10.1.1.1"}, 2, "198.51.100.1"},
        {{"198.51.100.1", "10.1.1.1"}, 2, "198.51.100.1"},
        {{"10.3.3.3, 10.1.1.1"}, 1, "10.3.3.3"},
        {{""}, 1, "127.0.0.1"},
        {{"garbage"}, 1, "127.0.0.1"},
        {{"198.51.100.1, garbage, 10.1.1.1"}, 1, "10.1.1.1"},
        {{"198.51.100.1,, 10.1.1.1"}, 1, "198.51.100.1"},
        {{"[2001:db8:7::5]:1234"}, 1, "2001:db8:7::"},
        {{NULL}, 0, "127.0.0.1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char key[CLIENT_IP_KEY_MAX];
        client_of(&proxies, "127.0.0.1", cases[i].values, cases[i].n, key, sizeof key);
        CHECK_MSG(strcmp(key, cases[i].client) == 0, "chain %zu ('%s' ...): client '%s', not '%s'",
                  i, cases[i].values[0] != NULL ? cases[i].values[0] : "", key, cases[i].client);
    }
}

int main(void)
{
    RUN(hops_parse_to_their_keys);
    RUN(networks_match_their_addresses);
    RUN(the_client_is_the_rightmost_hop_not_a_proxy);
    return check_finish();
}
