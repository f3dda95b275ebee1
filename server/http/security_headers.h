/* The headers every answer of sokod carries to keep browsers from running,
 * framing or sniffing anything the client did not mean. */
#ifndef SOKOD_SECURITY_HEADERS_H
#define SOKOD_SECURITY_HEADERS_H

#include <microhttpd.h>

/* The Content-Security-Policy of every answer (static files and API alike). */
extern const char security_headers_csp[];

/* Adds the security headers to a response about to be queued. Cannot fail
 * in a way the caller can act on: a header libmicrohttpd refuses is left out. */
void security_headers_add(struct MHD_Response *r);

#endif
