/* Progress endpoints: what the caller solved and is playing, and an export
 * of its solutions as a level file. */
#ifndef SOKOD_PROGRESS_H
#define SOKOD_PROGRESS_H

#include "http/http.h"

/* Endpoints, for the routing table (server/endpoints.c). */
int progress_get(struct http_conn *c);
int progress_export(struct http_conn *c);

#endif
