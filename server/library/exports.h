/* Exporting a collection (its levels not deleted, hidden ones included) as
 * a .sok text file with its reference solutions, as SLC XML, or as a
 * SokoPy binary pack. */
#ifndef SOKOD_EXPORTS_H
#define SOKOD_EXPORTS_H

#include "http/http.h"

/* Endpoints, for the routing table (server/endpoints.c). */
int exports_collection(struct http_conn *c);

#endif
