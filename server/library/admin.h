/* What every admin endpoint shares: the check of who is asking. */
#ifndef SOKOD_ADMIN_H
#define SOKOD_ADMIN_H

#include "http/body.h"
#include "http/http.h"
#include "library/audit.h"

#include <stdbool.h>

/* Lets the request go on only for an account with the admin right: answers
 * 401 sign_in_required to nobody and to guests, 403 admin_required to other
 * accounts (or 500/503 when the database fails). Every admin handler calls
 * it before looking at anything else. Returns true with *who set to the
 * admin; otherwise has answered and set *result. */
bool admin_require(struct http_conn *c, struct audit_actor *who, int *result);

/* admin_require, then body_parse(c, spec, result) for an admin who sends a
 * body. Returns the parsed body (the caller's reference), or NULL after
 * answering and setting *result. */
json_t *admin_body(struct http_conn *c, struct audit_actor *who, const struct body_field *spec,
                   int *result);

/* A target name for the audit log: "collection 4". */
void admin_target(char *out, size_t cap, const char *kind, int64_t id);

/* Endpoints, for the routing table (server/endpoints.c). Every handler
 * under /api/v1/admin/ calls admin_require first. */
int admin_routes(struct http_conn *c);
int admin_audit(struct http_conn *c);

#endif
