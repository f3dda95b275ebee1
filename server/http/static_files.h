/* Static files: the browser client's folder and core.wasm. */
#ifndef SOKOD_STATIC_FILES_H
#define SOKOD_STATIC_FILES_H

#include "http/http.h"

/* Sets the folder served at / and the core.wasm file served at /core.wasm.
 * Both are resolved when a request comes, so they may appear later. */
void static_files_init(const char *folder, const char *wasm);

/* Endpoints, for the routing table (server/endpoints.c). */
int static_wasm(struct http_conn *c);
int static_get(struct http_conn *c);

#endif
