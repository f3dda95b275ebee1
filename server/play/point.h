/* Point mode: walk to a square, push a box to a square, and where a box can go. */
#ifndef SOKOD_POINT_H
#define SOKOD_POINT_H

#include "http/http.h"

/* Endpoints, for the routing table (server/endpoints.c). */
int point_walk(struct http_conn *c);
int point_push(struct http_conn *c);
int point_reach(struct http_conn *c);

#endif
