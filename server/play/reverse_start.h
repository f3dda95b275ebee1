/* Reverse games on the server: the start square a player asks for. */
#ifndef SOKOD_PLAY_REVERSE_START_H
#define SOKOD_PLAY_REVERSE_START_H

#include "http/http.h"
#include "soko.h"

#include <jansson.h>

/* Reads the "start" square {"x": ..., "y": ...} of a request to open a
 * reverse game on `level` into *cell. False after answering (400
 * invalid_value: not a reverse game, not a square, or a square the player
 * cannot start on; 404 level_not_found) with *result set. */
bool reverse_read_start(struct http_conn *c, int64_t level, int rule, json_t *obj, int32_t *cell,
                        int *result);

#endif
