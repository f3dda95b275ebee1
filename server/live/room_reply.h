/* The answers about race rooms that several endpoints give: a room with
 * its players' boards, a room that cannot be had, the fair-play limits on
 * new rooms, and the opening of a room. Above the rooms' state
 * (room_state.h), below the endpoints that open rooms (rooms.c,
 * room_levels.c) and the live stream. */
#ifndef SOKOD_ROOM_REPLY_H
#define SOKOD_ROOM_REPLY_H

#include "http/http.h"
#include "live/room_state.h"

#include <stdbool.h>
#include <stdint.h>

/* Answers `status` with the room of v, the boards of its players (their
 * race games as GET /games/{id} shows them) and who the caller `user` (0:
 * nobody) is; then tells the room's followers when it changed, and
 * releases what v holds. Returns what the handler returns. */
int room_reply_view(struct http_conn *c, unsigned status, int64_t user, struct room_view *v);

/* Answers a status room_state gave for room `id` other than STORAGE_OK and
 * its operation's refusals: 404 room_not_found, 503 when memory holds no
 * more rooms, 500 when out of memory, or the storage failure. Returns what
 * the handler returns. */
int room_reply_failure(struct http_conn *c, int64_t id, int status);

/* Counts a new room of `user` (and of the request's address) against the
 * fair-play limits. Returns true, or false after answering 429 and setting
 * *result. */
bool room_reply_may_open(struct http_conn *c, int64_t user, int *result);

/* Opens a room on `level` hosted (and seated) by `user`, `source` saying
 * how the level was chosen (chosen, random, daily, generated), and answers
 * 201 with it; 404 when the level is gone, 503 when memory holds no more
 * rooms, 5xx when it cannot be stored. Returns what the handler returns. */
int room_reply_open(struct http_conn *c, int64_t user, int64_t level, const char *source);

#endif
