/* The game endpoints' shared path: taking a user's game, and committing a
 * new entry of its log. Point mode (point.c) goes through here too. */
#ifndef SOKOD_GAMES_H
#define SOKOD_GAMES_H

#include "game_play.h"
#include "http.h"

/* An answer worked out away from its connection (on the committer thread),
 * to be sent later on an HTTP thread by games_reply. */
struct games_answer {
    unsigned status;
    bool error;          /* an error answer: code and message, body attached as "game" */
    enum api_error code; /* for an error */
    char message[400];   /* for an error */
    json_t *body;        /* the whole body, or for an error the game (NULL: none) */
    char *text;          /* instead of body: the whole body as JSON text (malloc'd) */
    size_t text_len;
    int failure; /* not STORAGE_OK: the database failed; answer 500 or 503 */
};

/* A new entry, as a client sent it. */
struct games_entry {
    uint32_t seq;      /* the number the client gives the entry: the game's seq + 1 */
    int kind;          /* STORAGE_LOG_* */
    const char *steps; /* for a batch of steps: the letters */
    uint32_t count;    /* for undo and redo */
    char request[96];  /* a point-mode request ("walk 3 4"), "" otherwise */
    /* Point mode: computes the steps from the game as it stands, once the
     * seq is known to be right. Returns true with dirs and ndirs set (dirs
     * malloc'd), or false after filling *a with a refusal. Runs on the
     * committer thread: it must not touch the connection. */
    bool (*prepare)(struct live_game *g, struct games_entry *e, struct games_answer *a);
    const void *arg; /* arg_size bytes for prepare, copied by games_submit */
    size_t arg_size;
    uint8_t *dirs;
    uint32_t ndirs;
};

/* Takes game `id` of `user`, locked, up to date with the database. Returns
 * the game, or NULL after answering (404 for another user's game) and
 * setting *result. Release with game_cache_release. */
struct live_game *games_take(struct http_conn *c, int64_t user, int64_t id, int *result);

/* On the committer thread: takes game `game_id` of `user_id` from the
 * cache, up to date with the database (its owner and hint count read from
 * its row). Returns STORAGE_OK with *g set (release it with
 * game_cache_release), STORAGE_OK with *g NULL after filling *a with a 404
 * (no such game, or another user's), or the code of a database failure. */
int games_take_for(int64_t game_id, int64_t user_id, struct games_answer *a, struct live_game **g);

/* Fills *a with an error answer carrying the game as it stands (g may be
 * NULL: no game). The message is formatted like printf. */
void games_refuse(struct games_answer *a, unsigned status, enum api_error code,
                  const struct live_game *g, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Sends *a on c and takes its body. Returns what the handler should return. */
int games_reply(struct http_conn *c, struct games_answer *a);

/* Adds the entry to game `game_id` of the request's session: in the next
 * group commit, checks e->seq, applies the entry through the core, appends
 * it to the log with the game's new summary and any solution, and once
 * that is committed answers with the game (200), or with 409 (stale seq),
 * 422 (refused) and the game. A retry of an entry the log holds already is
 * answered again (200, "duplicate": true) and not applied twice. Without a
 * session: 401. Takes e->dirs; e->steps and e->arg are copied. */
int games_submit(struct http_conn *c, int64_t game_id, struct games_entry *e);

#endif
