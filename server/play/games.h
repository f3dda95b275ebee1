/* The game endpoints' shared path: taking a user's game, and committing a
 * new entry of its log. Point mode (point.c) goes through here too. */
#ifndef SOKOD_GAMES_H
#define SOKOD_GAMES_H

#include "http/body.h"
#include "http/http.h"
#include "play/game_play.h"

/* An answer worked out away from its connection (on the committer thread),
 * to be sent later on an HTTP thread by games_reply. */
struct games_answer {
    unsigned status;
    bool error;          /* an error answer: code and message, the game attached as "game" */
    enum api_error code; /* for an error */
    char message[400];   /* for an error */
    json_t *body;        /* the whole body, or for an error the game (NULL: none) */
    char *text;          /* instead of body: the whole body, or for an error the game, as JSON text
                          * (malloc'd) */
    size_t text_len;
    int failure;     /* not STORAGE_OK: the database failed; answer 500 or 503 */
    int64_t user_id; /* for a failure: the game's player, whose quota it may name */
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

/* The body spec row of an entry's "seq" (from 1), stored in *out: the one
 * range and message of every endpoint that adds an entry. */
struct body_field games_seq_field(json_int_t *out);

/* Whether level `level` exists. Returns true, or false after answering
 * (404 when there is no such level, or the database's failure) and setting
 * *result. */
bool games_level_found(struct http_conn *c, int64_t level, int *result);

/* Takes game `id` of `user`, locked, up to date with the database. Returns
 * the game, or NULL after answering (404 for another user's game) and
 * setting *result. Release with game_cache_release. */
struct live_game *games_take(struct http_conn *c, int64_t user, int64_t id, int *result);

/* Takes the game the request's path names (its first parameter) for the
 * session's user, who must exist already: games_take after auth_user.
 * Returns the game, or NULL after answering (401, 404, ...) and setting
 * *result. Release with game_cache_release. */
struct live_game *games_take_requested(struct http_conn *c, int *result);

/* On the committer thread, inside its transaction: takes game `game_id` of
 * `user_id` from the cache, up to date with the database (its owner and
 * hint count read from its row, which stays locked until the transaction
 * ends, so that other nodes' entries of the game wait). Returns STORAGE_OK with *g set (release it
 * with game_cache_release), STORAGE_OK with *g NULL after filling *a with a 404 (no such game, or
 * another user's), or the code of a database failure. */
int games_take_for(int64_t game_id, int64_t user_id, struct games_answer *a, struct live_game **g);

/* Fills *a with an error answer, with the code's HTTP status, carrying the
 * game as it stands (g may be NULL: no game). The message is formatted like
 * printf. */
void games_refuse(struct games_answer *a, enum api_error code, const struct live_game *g,
                  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Before a commit job runs again, its batch undone by a conflict: clears
 * the answer, marks the game to be rebuilt from the database when the job
 * wrote to it (its memory is ahead of what the database kept), and
 * releases the game (*g becomes NULL, *wrote false). */
void games_job_reset(struct games_answer *a, struct live_game **g, bool *wrote);

/* After a commit job's batch (status its outcome, ran whether the job's
 * run was called): when the batch failed and the job's answer does not
 * stand (the job wrote to g, never ran, or had no answer yet), replaces
 * the answer with the database failure and, if the job wrote, marks g to
 * be rebuilt from the database. Returns whether it did. */
bool games_answer_lost(struct games_answer *a, struct live_game *g, bool wrote, int status,
                       bool ran);

/* Sends *a on c and takes its body. Returns what the handler should return. */
int games_reply(struct http_conn *c, struct games_answer *a);

/* ---- Hooks --------------------------------------------------------------------------------
 * What other parts of the server (live streams, race rooms, watchers) add
 * to play without play knowing them. Each registers at start-up, before the
 * committer thread starts: the lists are read without a lock. Hooks run in
 * the order registered. */

/* Hooks of each kind at most. */
#define GAMES_HOOKS_MAX 8

/* Whether game g may take an entry sent from `address` (as
 * http_client_address gives it). Runs on the committer thread, inside the
 * batch's transaction, with g held, once the entry's seq is known to be
 * right and before it is applied. Returns true, or false with *code and a
 * message in why (cap bytes): the entry is then refused with that code
 * (and its status: 429 for rate_limited, 409 for the race codes). */
typedef bool (*games_guard)(const struct live_game *g, const char *address, enum api_error *code,
                            char *why, size_t cap);

/* Entry `seq` of game g (kind as STORAGE_LOG_*, with the steps as the log
 * holds them or its count) was committed. Runs on the committer thread,
 * after the commit and before the entry's answer goes out, with g held:
 * keep it short. */
typedef void (*games_listener)(const struct live_game *g, int kind, uint32_t seq, const char *steps,
                               uint32_t count);

/* `user` opened game `game` on `level` (new or not). Runs on the HTTP
 * thread, once the answer is queued. */
typedef void (*games_open_listener)(int64_t user, int64_t game, int64_t level);

/* Adds a guard, a listener of committed entries, or a listener of opened
 * games; one added twice is kept once. Returns 0, or -1 when
 * GAMES_HOOKS_MAX are there already. */
int games_add_guard(games_guard fn);
int games_add_listener(games_listener fn);
int games_add_open_listener(games_open_listener fn);

/* Adds the entry to game `game_id` of the request's session: in the next
 * group commit, checks e->seq, applies the entry through the core, appends
 * it to the log with the game's new summary and any solution, and once
 * that is committed answers with the game (200), or with 409 (stale seq),
 * 422 (refused) and the game. A retry of an entry the log holds already is
 * answered again (200, "duplicate": true) and not applied twice. Without a
 * session: 401. Takes e->dirs; e->steps and e->arg are copied. */
int games_submit(struct http_conn *c, int64_t game_id, struct games_entry *e);

/* Endpoints, for the routing table (server/endpoints.c). */
int games_open(struct http_conn *c);
int games_get(struct http_conn *c);
int games_log(struct http_conn *c);

#endif
