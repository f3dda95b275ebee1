/* Watching one player outside a room: GET /api/v1/events?watch=USER_ID
 * follows the topic "watch:USER_ID", which carries every entry of the
 * player's own games (as the game topic does) and a "playing" event when
 * the player moves to another game; GET /api/v1/watch/{id} gives the game
 * being played, for a watcher's board to start from. Players opt out with
 * the setting "watchable": false; guests are watched by no one. */
#ifndef SOKOD_WATCH_H
#define SOKOD_WATCH_H

#include "events.h"
#include "game_play.h"
#include "http.h"

#include <stdbool.h>
#include <stdint.h>

/* The topic of the watchers of `user`. Cannot fail. */
void watch_topic(int64_t user, char out[EVENTS_TOPIC_MAX]);

/* Whether `user` may be watched: true, or false after answering 404
 * user_not_found, 403 not_watchable (a guest, or a player who opted out)
 * or a storage failure, with *result set. */
bool watch_allowed(struct http_conn *c, int64_t user, int *result);

/* The player `user` opened game `game` on `level`: when it is not the game
 * they played last, watchers get a "playing" event. Cannot fail. */
void watch_playing(int64_t user, int64_t game, int64_t level);

/* Publishes to the watchers of g's player the entry `seq` just committed
 * (own games only: race games are followed through their room). Call
 * after the commit, with g held. Cheap when nobody watches. */
void watch_entry(const struct live_game *g, int kind, uint32_t seq, const char *steps,
                 uint32_t count);

/* The player's settings changed: when they no longer let others watch,
 * the streams watching them end (and cannot come back). */
void watch_settings_changed(int64_t user, bool watchable);

/* True unless the settings object (JSON text, NULL for none) says
 * "watchable": false. */
bool watch_settings_allow(const char *settings);

#endif
