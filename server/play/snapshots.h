/* Saved positions ("snapshots"): a player names positions of a game and
 * goes back to any of them later, from any device. A position is the
 * steps that reach it from the level's start, checked through the core;
 * going back is the client's restart and those steps, in the game's log. */
#ifndef SOKOD_SNAPSHOTS_H
#define SOKOD_SNAPSHOTS_H

#include "http/http.h"

/* The most saved positions one game holds. */
#define SNAPSHOTS_MAX 50
/* The longest name of one, in characters. */
#define SNAPSHOTS_NAME_MAX 40
/* The most steps one may hold. */
#define SNAPSHOTS_STEPS_MAX 50000

/* Endpoints, for the routing table (server/endpoints.c). */
int snapshots_list(struct http_conn *c);
int snapshots_save(struct http_conn *c);
int snapshots_get(struct http_conn *c);
int snapshots_delete(struct http_conn *c);

#endif
