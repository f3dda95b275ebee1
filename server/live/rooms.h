/* Race rooms: players race on one level, each on a race game of their own
 * (a game with a room and a round), which goes through the same checks and
 * group commit as every game; spectators follow the room's topic. The
 * lobby, the countdown, who is connected and the results live in memory;
 * the rooms and their games live in the database. */
#ifndef SOKOD_ROOMS_H
#define SOKOD_ROOMS_H

#include "http/api_error.h"
#include "http/http.h"
#include "play/game_play.h"

#include <stdbool.h>
#include <stdint.h>

/* Sets how many rooms memory holds at once (at least 1). Past it, rooms
 * nobody follows and that race no longer are forgotten, oldest touched
 * first (they come back from the database); when all are in use, opening
 * or loading another answers 503. */
void rooms_set_limit(unsigned n);

/* Room for an address as text (IPv6 included). */
#define ROOMS_ADDRESS_MAX 48

/* Counts a new room of `user` (and of the request's address) against the
 * fair-play limits. Returns true, or false after answering 429 and setting
 * *result. */
bool rooms_may_open(struct http_conn *c, int64_t user, int *result);

/* Opens a room on `level` hosted (and seated) by `user`, `source` saying
 * how the level was chosen (chosen, random, daily, generated), and answers
 * 201 with it; 404 when the level is gone, 5xx when it cannot be stored.
 * Returns what the handler returns. */
int rooms_open(struct http_conn *c, int64_t user, int64_t level, const char *source);

/* Registers with play what races need of it: the checks of a race game's
 * entry before it is applied (the race's phase, the seat, the step rate
 * limits) and each committed entry, for the room. Call at start-up, before
 * the committer starts. Returns 0, or -1 when play has no room for them. */
int rooms_listen(void);

/* The request's client address as http_client_address gives it (one key
 * for every limit by address), "" when unknown. */
void rooms_address(struct http_conn *c, char text[ROOMS_ADDRESS_MAX]);

/* A status beside the STORAGE_* ones: every room memory may hold is in
 * use (--max-rooms), so no other can come in; try again after
 * ROOMS_RETRY_S seconds. */
#define ROOMS_NO_SPACE 100
#define ROOMS_RETRY_S 30u

/* A live stream of `user` (0: nobody) started (delta 1) or stopped (-1)
 * following room `room`: a seated player shows as connected while one of
 * their streams is open. Returns STORAGE_OK, STORAGE_NOT_FOUND when there
 * is no such room, ROOMS_NO_SPACE, or a storage failure. */
int rooms_presence(int64_t room, int64_t user, int delta);

/* Endpoints, for the routing table (server/endpoints.c). */
int rooms_list(struct http_conn *c);
int rooms_create(struct http_conn *c);
int rooms_get(struct http_conn *c);
int rooms_join(struct http_conn *c);
int rooms_leave(struct http_conn *c);
int rooms_start(struct http_conn *c);
int rooms_rematch(struct http_conn *c);

#endif
