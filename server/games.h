/* The game endpoints' shared path: taking a user's game, and committing a
 * new entry of its log. Point mode (point.c) goes through here too. */
#ifndef SOKOD_GAMES_H
#define SOKOD_GAMES_H

#include "game_play.h"
#include "http.h"

/* A new entry, as a client sent it. */
struct games_entry {
    uint32_t seq;      /* the number the client gives the entry: the game's seq + 1 */
    int kind;          /* STORAGE_LOG_* */
    const char *steps; /* for a batch of steps: the letters */
    uint32_t count;    /* for undo and redo */
    char request[96];  /* a point-mode request ("walk 3 4"), "" otherwise */
    /* Point mode: computes the steps from the game as it stands, once the
     * seq is known to be right. Returns true with dirs and ndirs set (dirs
     * malloc'd), or false after answering (and setting *result). */
    bool (*prepare)(struct http_conn *c, struct live_game *g, struct games_entry *e, int *result);
    void *arg;
    uint8_t *dirs;
    uint32_t ndirs;
};

/* Takes game `id` of `user`, locked, up to date with the database. Returns
 * the game, or NULL after answering (404 for another user's game) and
 * setting *result. Release with game_cache_release. */
struct live_game *games_take(struct http_conn *c, int64_t user, int64_t id, int *result);

/* Checks e->seq, applies the entry through the core, appends it to the
 * log with the game's new summary and any solution, commits, then answers
 * with the game (200), or with 409 (stale seq), 422 (refused) and the game.
 * A retry of an entry the log holds already is answered again (200,
 * "duplicate": true) and not applied twice. Frees e->dirs. */
int games_submit(struct http_conn *c, int64_t user, int64_t game_id, struct games_entry *e);

#endif
