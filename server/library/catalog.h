/* Catalogue endpoints: collections and levels, with the caller's solved state. */
#ifndef SOKOD_CATALOG_H
#define SOKOD_CATALOG_H

#include "http/http.h"

/* Endpoints, for the routing table (server/endpoints.c). */
int catalog_collections(struct http_conn *c);
int catalog_collection(struct http_conn *c);
int catalog_level(struct http_conn *c);

/* The level as GET /api/v1/levels/{id} shows it to `user` (rows included),
 * in *out (a new reference). Returns a STORAGE_* code; *out is NULL unless
 * STORAGE_OK. */
int catalog_level_object(int64_t id, int64_t user, json_t **out);

/* {"moves": M, "pushes": P}: a level's best known counts under a rule, the
 * fewest of any solution the server holds (witnessed, submitted, or
 * carried by an admin's upload); JSON null when it holds none; NULL when
 * the database fails. */
json_t *catalog_best_known(int64_t level, int rule);

struct storage_community_level;

/* A level a player published as listings show it: its author, likes, the
 * viewer's like and solved state, and its difficulty (null until levels
 * are rated). A new reference, or NULL when out of memory. */
json_t *catalog_community_json(const struct storage_community_level *l);

#endif
