/* Checks of a request's framing that libmicrohttpd lets through but HTTP
 * forbids, made before anything else looks at the request; and the rules
 * that keep other sites from acting for a user, made before a write. */
#ifndef SOKOD_HTTP_CHECKS_H
#define SOKOD_HTTP_CHECKS_H

#include "base/config.h"
#include "http/http.h"

#include <stdbool.h>

/* The value libmicrohttpd's URI callback returns for a request whose raw
 * target holds an encoded NUL (%00), which its decoding would cut short. */
extern char http_checks_nul_target;

/* For MHD_OPTION_URI_LOG_CALLBACK: sees the raw request target, before
 * decoding. Returns &http_checks_nul_target for a target with %00, else NULL. */
void *http_checks_raw_target(void *cls, const char *uri, struct MHD_Connection *mhd);

/* Learns the names this server answers to: the hosts of cfg->origins, and
 * the loopback names when cfg->address is a loopback address. Warns on
 * stderr when it knows none (every Host is then taken). Returns 0, or -1
 * after a message when cfg->origins is malformed. */
int http_checks_init(const struct config *cfg);

/* Checks the request line and headers of c (HTTP version `version`): a
 * Host header for HTTP/1.1 that names this server, header names that are
 * tokens, no transfer coding but chunked and never one beside a
 * Content-Length, no encoded NUL in the target (nul_target). Returns true
 * when fine; otherwise has answered (400 bad_request or bad_path, 421
 * misdirected, 501 not_implemented) and set *result. */
bool http_checks_request(struct http_conn *c, const char *version, bool nul_target, int *result);

/* Checks a state-changing request: Content-Type must be application/json
 * (415 otherwise) and an Origin header, when sent, must be this server's own
 * (403 otherwise). Returns true to go on; otherwise has answered and set
 * *result for the handler to return. */
bool http_checks_write(struct http_conn *c, int *result);

#endif
