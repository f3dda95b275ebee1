/* Uploads of level files by admins. */
#ifndef SOKOD_UPLOADS_H
#define SOKOD_UPLOADS_H

#include "base/config.h"
#include "http/http.h"

/* Sets the upload cap and starts the background solvability check, per
 * cfg. Returns 0, or -1 when its thread cannot start. */
int uploads_start(const struct config *cfg);

/* Stops the solvability check and forgets every upload. Call it after the
 * HTTP daemon and the worker threads have stopped. */
void uploads_stop(void);

/* Settles the uploads a stopped server left (staging_settle) and checks
 * the complete ones on the upload workers. Call once the worker threads
 * run. */
void uploads_resume(void);

/* Endpoints, for the routing table (server/endpoints.c). */
int uploads_list(struct http_conn *c);
int uploads_create(struct http_conn *c);
int uploads_get(struct http_conn *c);
int uploads_discard(struct http_conn *c);
int uploads_part(struct http_conn *c);
int uploads_import(struct http_conn *c);

#endif
