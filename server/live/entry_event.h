/* The JSON of a committed log entry, as every live topic carries it: the
 * game's and the watchers' "step" events and the room's "race_step". One
 * place, so that a client reads an entry alike whatever it follows. */
#ifndef SOKOD_ENTRY_EVENT_H
#define SOKOD_ENTRY_EVENT_H

#include "play/game_play.h"

#include <stddef.h>
#include <stdint.h>

struct textbuf;

/* Appends the members that describe log entry `seq` of a game (kind 0..3
 * as STORAGE_LOG_*): ,"seq", ,"kind", ,"steps" or ,"count", then the
 * game's ,"moves" and ,"pushes" after it. */
void entry_event_fields(struct textbuf *b, const soko_game *game, int kind, uint32_t seq,
                        const char *steps, uint32_t count);

/* Publishes on `topic` the "step" event of entry `seq` of game g (kind
 * 0..3, g held by the caller): {"game":ID, the entry's members,
 * "solved":...}. Does nothing when nobody follows the topic; when out of
 * memory the event is dropped. */
void entry_event_publish_step(const char *topic, const struct live_game *g, int kind, uint32_t seq,
                              const char *steps, uint32_t count);

#endif
