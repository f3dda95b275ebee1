/* Race rooms: players race on one level, each on a race game of their own
 * (a game with a room and a round), which goes through the same checks and
 * group commit as every game; spectators follow the room's topic. This is
 * the HTTP side, the endpoints under /api/v1/rooms; the rooms' state and
 * phase machine are room_state's, the answers they share room_reply's. */
#ifndef SOKOD_ROOMS_H
#define SOKOD_ROOMS_H

#include "http/http.h"

/* Endpoints, for the routing table (server/endpoints.c). */
int rooms_list(struct http_conn *c);
int rooms_create(struct http_conn *c);
int rooms_get(struct http_conn *c);
int rooms_join(struct http_conn *c);
int rooms_leave(struct http_conn *c);
int rooms_start(struct http_conn *c);
int rooms_rematch(struct http_conn *c);

#endif
