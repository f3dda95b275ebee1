/* Watching one player outside a room: GET /api/v1/events?watch=USER_ID
 * follows the topic "watch:USER_ID", which carries every entry of the
 * player's own games (as the game topic does) and a "playing" event when
 * the player moves to another game; GET /api/v1/watch/{id} gives the game
 * being played, for a watcher's board to start from. Players opt out with
 * the setting "watchable": false; guests are watched by no one. */
#ifndef SOKOD_WATCH_H
#define SOKOD_WATCH_H

#include "http/http.h"
#include "live/events.h"
#include "play/game_play.h"

#include <stdbool.h>
#include <stdint.h>

/* The topic of the watchers of `user`. Cannot fail. */
void watch_topic(int64_t user, char out[EVENTS_TOPIC_MAX]);

/* Whether `user` may be watched: true, or false after answering 404
 * user_not_found, 403 not_watchable (a guest, or a player who opted out)
 * or a storage failure, with *result set. */
bool watch_allowed(struct http_conn *c, int64_t user, int *result);

/* Registers what watchers need: the game each player opens and each
 * committed entry of their own games (play), and each player's stored
 * settings (accounts), so that the streams watching a player who stops
 * being watchable end and cannot come back. Call at start-up, before the
 * committer starts. Returns 0, or -1 when a list has no room. */
int watch_listen(void);

/* True unless the settings object (JSON text, NULL for none) says
 * "watchable": false. */
bool watch_settings_allow(const char *settings);

/* Records that the watchers of a game's player on this node were told of
 * entry `seq` (as the committing node publishes it, and as a node hears
 * of another's): its notification then tells them nothing more. */
void watch_told(int64_t game, uint32_t seq);

/* Another node saw `user` play `game` on `level`: when it is not the game
 * this node knew, its watchers get a "playing" event. */
void watch_heard_playing(int64_t user, int64_t game, int64_t level);

/* After notifications were lost: ends the streams watching `user` on this
 * node when the player has opted out meanwhile. Returns false when it did. */
bool watch_still_allowed(int64_t user);

/* The last entry of `game` its watchers on this node were told of, or
 * seq - 1 when not known (the game was not played here lately). */
uint32_t watch_told_through(int64_t game, uint32_t seq);

/* Endpoints, for the routing table (server/endpoints.c). */
int watch_get(struct http_conn *c);

#endif
