/* Managing the library: collections and levels listed with everything an
 * admin needs (hidden and deleted ones too), renamed, described, credited,
 * reordered, hidden, shown, deleted and restored. Deleting only marks: the
 * players' games and solutions stay, and come back with the level. Every
 * change is one transaction with its audit entry. */
#ifndef SOKOD_MANAGE_H
#define SOKOD_MANAGE_H

#include "http/http.h"

/* Endpoints, for the routing table (server/endpoints.c). */
int manage_collections(struct http_conn *c);
int manage_collections_order(struct http_conn *c);
int manage_collection(struct http_conn *c);
int manage_collection_update(struct http_conn *c);
int manage_collection_delete(struct http_conn *c);
int manage_collection_restore(struct http_conn *c);
int manage_levels_order(struct http_conn *c);
int manage_level(struct http_conn *c);
int manage_level_update(struct http_conn *c);
int manage_level_delete(struct http_conn *c);
int manage_level_restore(struct http_conn *c);

#endif
