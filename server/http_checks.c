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
 * closed. */
#include "http_checks.h"

#include <string.h>
#include <strings.h>

char http_checks_nul_target;

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
        *result =
            reply_error(c, 400, API_E_BAD_PATH, "paths may not contain an encoded NUL (%%00)");
        return false;
    }
    struct header_scan scan = {NULL};
    MHD_get_connection_values_n(c->mhd, MHD_HEADER_KIND, scan_header, &scan);
    if (scan.problem != NULL) {
        *result = reply_error(c, 400, API_E_BAD_REQUEST, "%s", scan.problem);
        return false;
    }
    if (strcmp(version, MHD_HTTP_VERSION_1_1) == 0 &&
        http_header(c, MHD_HTTP_HEADER_HOST) == NULL) {
        *result = reply_error(c, 400, API_E_BAD_REQUEST, "HTTP/1.1 requests need a Host header");
        return false;
    }
    const char *coding = http_header(c, MHD_HTTP_HEADER_TRANSFER_ENCODING);
    if (coding != NULL && http_header(c, MHD_HTTP_HEADER_CONTENT_LENGTH) != NULL) {
        /* Which of the two frames the body is what request smuggling
         * plays on: a proxy and this server may disagree (RFC 9112 6.3). */
        c->close = true;
        *result = reply_error(c, 400, API_E_BAD_REQUEST,
                              "a request may not carry both Transfer-Encoding and "
                              "Content-Length");
        return false;
    }
    if (coding != NULL && strcasecmp(coding, "chunked") != 0) {
        *result = reply_error(c, 501, API_E_NOT_IMPLEMENTED,
                              "the transfer coding '%.40s' is not supported: send chunked or "
                              "a Content-Length",
                              coding);
        return false;
    }
    return true;
}
