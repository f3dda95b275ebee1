/* The headers every answer of sokod carries to keep browsers from running,
 * framing or sniffing anything the client did not mean. */
#ifndef SOKOD_SECURITY_HEADERS_H
#define SOKOD_SECURITY_HEADERS_H

#include <microhttpd.h>

/* The Content-Security-Policy of pages and files (the client's). */
extern const char security_headers_csp[];
/* The Content-Security-Policy of data answers (JSON, event streams):
 * nothing may run, load or frame them. */
extern const char security_headers_data_csp[];

/* Adds the security headers to a response about to be queued, by its
 * Content-Type (set before): a data answer's few, or a page's. Cannot fail
 * in a way the caller can act on: a header libmicrohttpd refuses is left
 * out. */
void security_headers_add(struct MHD_Response *r);

#endif
