/* Race rooms on a freshly generated level: POST /api/v1/rooms with
 * {"level": "generated", "difficulty": ..., "seed": ...}. */
#ifndef SOKOD_ROOM_LEVELS_H
#define SOKOD_ROOM_LEVELS_H

#include "http/http.h"

/* Answers a room creation that asks for a generated level, of `difficulty`
 * (NULL: not given) and, when `seeded`, of `seed`. The level of a
 * difficulty and a seed is made once, on the worker pool with the request
 * suspended, and stored in the hidden collection "Race levels"; then the
 * room opens on it (room_reply_open). 400 for a bad difficulty or seed, 429
 * beyond the fair-play limits, 503 when the server is making as many levels
 * as it allows. Returns what the handler returns. */
int room_levels_create(struct http_conn *c, const char *difficulty, bool seeded, int64_t seed);

#endif
