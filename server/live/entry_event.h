/* The JSON of a committed log entry, as every live topic carries it: the
 * game's and the watchers' "step" events and the room's "race_step". One
 * place, so that a client reads an entry alike whatever it follows. */
#ifndef SOKOD_ENTRY_EVENT_H
#define SOKOD_ENTRY_EVENT_H

#include "live/events.h"
#include "play/game_play.h"

#include <stddef.h>
#include <stdint.h>

struct textbuf;

/* Appends the members that describe log entry `seq` of a game (kind 0..3
 * as STORAGE_LOG_*): ,"seq", ,"kind", ,"steps" or ,"count", then the
 * game's ,"moves" and ,"pushes" after it. */
void entry_event_fields(struct textbuf *b, const soko_game *game, int kind, uint32_t seq,
                        const char *steps, uint32_t count);

/* The data of the "step" event of entry `seq` of game g (kind 0..3, g
 * held by the caller, in its state after the entry): {"game":ID, the
 * entry's members, "solved":...}, malloc'd (*len bytes), or NULL when out
 * of memory. */
char *entry_event_step_text(const struct live_game *g, int kind, uint32_t seq, const char *steps,
                            uint32_t count, size_t *len);

/* Publishes on `topic` the "step" event of entry `seq` of game g, at
 * position `pos` (events_publish: the seq on a game topic, 0 on a counted
 * one). Does nothing when nobody follows the topic; when out of memory the
 * event is dropped. */
void entry_event_publish_step(const char *topic, const struct live_game *g, int kind, uint32_t seq,
                              const char *steps, uint32_t count, uint64_t pos);

/* Reads back from the database the "step" events of game `game` past
 * entry `after`, oldest first, each at its seq: STORAGE_OK with *out
 * (malloc'd, *n of them; free with entry_event_free), STORAGE_STOP when
 * more than EVENTS_HISTORY events or EVENTS_HISTORY_BYTES of text came
 * after it (a client that far behind gets a snapshot), or a failure. */
int entry_event_read(int64_t game, uint32_t after, struct events_missed **out, unsigned *n);

void entry_event_free(struct events_missed *m, unsigned n);

#endif
