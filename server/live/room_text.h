/* A race room's public state as JSON (room_text.c), as the room's answers
 * and its "room" events show it. */
#ifndef SOKOD_ROOM_TEXT_H
#define SOKOD_ROOM_TEXT_H

#include "base/textbuf.h"
#include "storage/storage_room_state.h"

#include <stdint.h>

/* Appends room s (on a level of `title` with `boxes` boxes) to b as one
 * JSON object, its phase read against `now_ms`. */
void room_text_write(struct textbuf *b, const struct storage_room_state *s, const char *title,
                     uint32_t boxes, int64_t now_ms);

#endif
