/* Request checks: libmicrohttpd, outside its pedantic mode, accepts
 * HTTP/1.1 without Host, "Name : value", and, for an unknown transfer
 * coding, waits for a body it cannot delimit. Each is refused here, as
 * RFC 9112 asks. It also decodes %00 in the target into a NUL that ends
 * the path early ("/index.html%00.js" would serve /index.html), so the raw
 * target is looked at before decoding. Header values holding a control
 * character (a tab aside) are refused, as RFC 9110 allows none. A NUL byte
 * inside a header value still cannot be seen: libmicrohttpd 0.9 hands over
 * the value up to it, with that length. A request carrying both
 * Content-Length and Transfer-Encoding is refused and its connection
 * closed. A Host that names another server is refused (421), which keeps
 * pages of other sites whose names resolve here (DNS rebinding) away. */
#include "http/http_checks.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

char http_checks_nul_target;

/* Host names this server answers to: from --origin, lower case, without
 * scheme or port. */
#define MAX_ORIGINS 8
static char origin_host[MAX_ORIGINS][256];
static unsigned norigins;
static bool loopback_names; /* "localhost" and "*.localhost" answer too */
static bool any_host;       /* no name is known: every Host is taken */

/* Copies the host of an origin ("https://Example.org:8443/") into out, lower
 * case; false when it is not scheme://host[:port]. */
static bool origin_host_of(const char *origin, size_t len, char *out, size_t cap)
{
    const char *sep = NULL;
    for (size_t i = 0; i + 2 < len; i++) {
        if (origin[i] == ':' && origin[i + 1] == '/' && origin[i + 2] == '/') {
            sep = origin + i + 3;
            break;
        }
    }
    if (sep == NULL)
        return false;
    const char *end = origin + len;
    const char *host_end = sep;
    if (*sep == '[') {
        host_end = memchr(sep, ']', (size_t)(end - sep));
        if (host_end == NULL)
            return false;
        host_end++;
    } else {
        while (host_end < end && *host_end != ':' && *host_end != '/')
            host_end++;
    }
    size_t n = (size_t)(host_end - sep);
    if (n == 0 || n >= cap)
        return false;
    for (size_t i = 0; i < n; i++)
        out[i] = (char)((sep[i] >= 'A' && sep[i] <= 'Z') ? sep[i] + 32 : sep[i]);
    out[n] = '\0';
    return true;
}

static bool is_loopback_address(const char *address)
{
    struct in_addr v4;
    struct in6_addr v6;
    if (inet_pton(AF_INET, address, &v4) == 1)
        return (ntohl(v4.s_addr) >> 24) == 127;
    return inet_pton(AF_INET6, address, &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

int http_checks_init(const struct config *cfg)
{
    norigins = 0;
    const char *p = cfg->origins;
    while (*p != '\0') {
        const char *comma = strchr(p, ',');
        size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
        if (len > 0) {
            if (norigins == MAX_ORIGINS ||
                !origin_host_of(p, len, origin_host[norigins], sizeof origin_host[0])) {
                fprintf(stderr,
                        "sokod: --origin takes up to %d origins such as "
                        "https://sokoban.example.org, comma-separated\n",
                        MAX_ORIGINS);
                return -1;
            }
            norigins++;
        }
        p += len + (comma != NULL ? 1 : 0);
    }
    loopback_names = is_loopback_address(cfg->address);
    any_host = norigins == 0 && !loopback_names;
    if (any_host)
        fprintf(stderr,
                "sokod: listening on %s with no --origin: every Host is answered, so a page "
                "of another site that a visitor's DNS points here (DNS rebinding) can drive "
                "sokod; give --origin the address players use\n",
                cfg->address);
    return 0;
}

/* True when host (a Host header's value, with or without a port) names this
 * server. An address in place of a name is always taken: DNS rebinding
 * needs a name, and load balancers check health by address. */
static bool host_allowed(const char *host)
{
    if (any_host)
        return true;
    char name[256];
    size_t n = 0;
    if (host[0] == '[') {
        const char *close = strchr(host, ']');
        if (close == NULL || (size_t)(close - host - 1) >= sizeof name)
            return false;
        n = (size_t)(close - host - 1);
        memcpy(name, host + 1, n);
        name[n] = '\0';
        struct in6_addr v6;
        return inet_pton(AF_INET6, name, &v6) == 1 && (close[1] == '\0' || close[1] == ':');
    }
    while (host[n] != '\0' && host[n] != ':') {
        if (n + 1 >= sizeof name)
            return false;
        char ch = host[n];
        name[n++] = (char)((ch >= 'A' && ch <= 'Z') ? ch + 32 : ch);
    }
    name[n] = '\0';
    if (n > 0 && name[n - 1] == '.')
        name[--n] = '\0'; /* "localhost." is "localhost" */
    struct in_addr v4;
    if (inet_pton(AF_INET, name, &v4) == 1)
        return true;
    for (unsigned i = 0; i < norigins; i++) {
        if (strcmp(name, origin_host[i]) == 0)
            return true;
    }
    static const char local[] = ".localhost";
    return loopback_names &&
           (strcmp(name, "localhost") == 0 ||
            (n > sizeof local - 1 && strcmp(name + n - (sizeof local - 1), local) == 0));
}

void *http_checks_raw_target(void *cls, const char *uri, struct MHD_Connection *mhd)
{
    (void)cls;
    (void)mhd;
    for (const char *p = strchr(uri, '%'); p != NULL; p = strchr(p + 1, '%')) {
        if (p[1] == '0' && p[2] == '0')
            return &http_checks_nul_target;
    }
    return NULL;
}

/* RFC 9110 token characters. */
static bool is_tchar(unsigned char ch)
{
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9'))
        return true;
    return ch != '\0' && strchr("!#$%&'*+-.^_`|~", ch) != NULL;
}

struct header_scan {
    const char *problem;
};

static enum MHD_Result scan_header(void *cls, enum MHD_ValueKind kind, const char *key,
                                   size_t key_size, const char *value, size_t value_size)
{
    (void)kind;
    struct header_scan *scan = cls;
    if (key_size == 0) {
        scan->problem = "a header name is empty";
        return MHD_NO;
    }
    for (size_t i = 0; i < key_size; i++) {
        if (!is_tchar((unsigned char)key[i])) {
            scan->problem = "a header name holds a space or a character names may not have";
            return MHD_NO;
        }
    }
    for (size_t i = 0; value != NULL && i < value_size; i++) {
        unsigned char ch = (unsigned char)value[i];
        if ((ch < 0x20 && ch != '\t') || ch == 0x7F) {
            scan->problem = "a header value holds a NUL or another control character";
            return MHD_NO;
        }
    }
    return MHD_YES;
}

bool http_checks_request(struct http_conn *c, const char *version, bool nul_target, int *result)
{
    if (nul_target) {
        *result = reply_error(c, API_E_BAD_PATH, "paths may not contain an encoded NUL (%%00)");
        return false;
    }
    struct header_scan scan = {NULL};
    MHD_get_connection_values_n(c->mhd, MHD_HEADER_KIND, scan_header, &scan);
    if (scan.problem != NULL) {
        *result = reply_error(c, API_E_BAD_REQUEST, "%s", scan.problem);
        return false;
    }
    if (strcmp(version, MHD_HTTP_VERSION_1_1) == 0 &&
        http_header(c, MHD_HTTP_HEADER_HOST) == NULL) {
        *result = reply_error(c, API_E_BAD_REQUEST, "HTTP/1.1 requests need a Host header");
        return false;
    }
    const char *host = http_header(c, MHD_HTTP_HEADER_HOST);
    if (host != NULL && !host_allowed(host)) {
        *result = reply_error(c, API_E_MISDIRECTED,
                              "this server does not answer for the host '%.80s'", host);
        return false;
    }
    const char *coding = http_header(c, MHD_HTTP_HEADER_TRANSFER_ENCODING);
    if (coding != NULL && http_header(c, MHD_HTTP_HEADER_CONTENT_LENGTH) != NULL) {
        /* Which of the two frames the body is what request smuggling
         * plays on: a proxy and this server may disagree (RFC 9112 6.3). */
        c->close = true;
        *result = reply_error(c, API_E_BAD_REQUEST,
                              "a request may not carry both Transfer-Encoding and "
                              "Content-Length");
        return false;
    }
    if (coding != NULL && strcasecmp(coding, "chunked") != 0) {
        *result = reply_error(c, API_E_NOT_IMPLEMENTED,
                              "the transfer coding '%.40s' is not supported: send chunked or "
                              "a Content-Length",
                              coding);
        return false;
    }
    return true;
}

/* True when the media type of a Content-Type value is application/json,
 * whatever parameters follow it. */
static bool is_json_type(const char *value)
{
    while (*value == ' ' || *value == '\t')
        value++;
    static const char json[] = "application/json";
    size_t n = sizeof json - 1;
    if (strncasecmp(value, json, n) != 0)
        return false;
    const char *rest = value + n;
    while (*rest == ' ' || *rest == '\t')
        rest++;
    return *rest == '\0' || *rest == ';';
}

bool http_checks_write(struct http_conn *c, int *result)
{
    const char *type = http_header(c, MHD_HTTP_HEADER_CONTENT_TYPE);
    if (type == NULL || !is_json_type(type)) {
        *result =
            reply_error(c, API_E_UNSUPPORTED_MEDIA_TYPE,
                        "%s requests must send Content-Type: application/json", c->method_name);
        return false;
    }
    const char *origin = http_header(c, "Origin");
    if (origin == NULL)
        return true;
    const char *host = http_header(c, MHD_HTTP_HEADER_HOST);
    char expected[300];
    snprintf(expected, sizeof expected, "%s://%s", http_is_https(c) ? "https" : "http",
             host != NULL ? host : "");
    if (host != NULL && strcasecmp(origin, expected) == 0)
        return true;
    *result = reply_error(c, API_E_FORBIDDEN_ORIGIN,
                          "requests from %s may not change anything here", origin);
    return false;
}
