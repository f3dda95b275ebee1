/* Storage of games, their logs, and a user's progress and solutions
 * (storage_games.c). Same rules as storage.h: the calling thread's
 * connection, STORAGE_* codes, text handed to callbacks valid during the
 * call only. */
#ifndef SOKOD_STORAGE_GAMES_H
#define SOKOD_STORAGE_GAMES_H

#include "storage/storage_codes.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct storage_game {
    int64_t id;
    int64_t user_id;
    int64_t level_id;
    int rule;
    uint32_t seq;
    uint32_t moves, pushes;
    bool solved;
    uint32_t hints; /* hints answered in the game */
    int64_t created_at, updated_at;
    int64_t room_id; /* a race game: its room (0: the player's own game) */
    uint32_t round;  /* a race game: the room's round */
};

enum { STORAGE_LOG_STEPS, STORAGE_LOG_UNDO, STORAGE_LOG_REDO, STORAGE_LOG_RESTART };

struct storage_log_entry {
    uint32_t seq;
    int kind;            /* STORAGE_LOG_* */
    const char *steps;   /* LURD of a batch of steps; "" otherwise */
    uint32_t count;      /* entries of an undo or a redo */
    const char *request; /* the point-mode request behind a batch, or "" */
};

/* Finds the user's game on a level under a rule (0 standard, 1
 * multi-push, 2 reverse), or creates it (with an empty log). A reverse
 * game is created on start square `start` (-1: the core's default); a
 * reverse game found with an empty log (seq 0) takes `start` when it is
 * not -1, as long as nothing has been played its start may change. */
int storage_game_open(int64_t user, int64_t level, int rule, int32_t start, int64_t now,
                      struct storage_game *g, bool *created);

/* Reads reverse game id's start square into *start (-1 for the core's
 * default). Returns STORAGE_OK, STORAGE_NOT_FOUND or the error's code. */
int storage_game_start(int64_t id, int32_t *start);
int storage_game_get(int64_t id, struct storage_game *g);

/* As storage_game_get, inside the open write transaction, holding the
 * game's row until the transaction ends: on PostgreSQL no other node
 * writes the game meanwhile (SQLite's write lock already holds the whole
 * database). */
int storage_game_get_locked(int64_t id, struct storage_game *g);
/* As storage_game_get_locked, when the game belongs to the user of the
 * session whose token hashes to token_hash, unexpired at now: in one
 * statement. STORAGE_NOT_FOUND when there is no such game, no such
 * session, or the game is another user's (nothing is locked then). */
int storage_game_get_locked_for(int64_t id, const uint8_t token_hash[32], int64_t now,
                                struct storage_game *g);
/* Calls fn for each entry of a game's log, in order. */
int storage_log_each(int64_t game, int (*fn)(void *arg, const struct storage_log_entry *e),
                     void *arg);
/* Calls fn with one entry of a game's log; STORAGE_NOT_FOUND when absent. */
int storage_log_get(int64_t game, uint32_t seq,
                    int (*fn)(void *arg, const struct storage_log_entry *e), void *arg);
/* Calls fn for each entry of game's log after entry `after`, in order: from
 * what the batch read ahead when it read that game's entries after
 * `after`, else from the database. Returns as storage_log_each. */
int storage_log_each_after(int64_t game, uint32_t after,
                           int (*fn)(void *arg, const struct storage_log_entry *e), void *arg);
/* Appends entry e to the log of game g->id and records the game's summary
 * after it (g's seq, moves, pushes and solved; g->seq must be e->seq).
 * Returns a STORAGE_* code. */
int storage_game_record(const struct storage_game *g, const struct storage_log_entry *e,
                        int64_t now);
/* Adds one to the game's hint count. */
int storage_game_hint_add(int64_t id);

/* Locking ahead (PostgreSQL; nothing on SQLite): a batch of the group
 * commit names the games its jobs will lock, then locks and reads them
 * all in one statement, so that storage_game_get_locked and
 * storage_game_get_locked_for find them without a round trip each. What
 * is read ahead belongs to the calling thread and stands until
 * storage_games_forget_ahead; a game written since (storage_game_record,
 * storage_game_hint_add) is read again. */

/* The most games one batch names ahead; later ones are not. */
#define STORAGE_AHEAD_MAX 512

/* Names game id, the session (its token's hash, or NULL for none) it will
 * be asked for with, and the entry memory holds of it (-1: none), after
 * which its log is read ahead up to its seq (storage_log_each_after). */
void storage_game_lock_ahead(int64_t id, const uint8_t token_hash[32], int64_t after);
/* Inside the open transaction, locks the games named ahead (in the order
 * of their ids) and reads them and their sessions' users as of `now`.
 * Returns a STORAGE_* code; on failure nothing is kept. */
int storage_games_read_ahead(int64_t now);
/* Forgets the games named and read ahead. */
void storage_games_forget_ahead(void);

struct storage_progress {
    int64_t level_id;
    int64_t collection_id;
    const char *collection_name;
    uint32_t position;
    const char *title;
    int64_t game_id;
    uint32_t moves, pushes; /* best ones for a solved level; current ones for a game */
    int64_t at;             /* first solved, or last played */
    bool hinted;            /* a solved level: solved only with hints (the counts are theirs) */
    uint32_t hints;         /* a game: the hints answered in it */
    int rule;               /* a game: its rule (0 standard, 1 multi-push); 0 when solved */
};

/* Calls fn for each level the user solved, with the best counts and the
 * time of the first solution, in collection and position order. The best
 * counts are those of solutions played without hints when there is one;
 * else the level is `hinted` and they are those of the helped ones. */
int storage_progress_solved(int64_t user, int (*fn)(void *arg, const struct storage_progress *p),
                            void *arg);
/* Calls fn for each unsolved game with at least one entry, latest first. */
int storage_progress_games(int64_t user, int (*fn)(void *arg, const struct storage_progress *p),
                           void *arg);

/* A solution's place in the order of a user's solutions: by collection,
 * position, fewest moves, fewest pushes, then id. All zero: before the
 * first. */
struct storage_solution_key {
    int64_t collection_id;
    uint32_t position, moves, pushes;
    int64_t id;
};

/* One of a user's solutions, without its moves (storage_solution_moves
 * reads them) or its level's text (storage_level_get). */
struct storage_solution {
    struct storage_solution_key key;
    int64_t level_id;
    int rule; /* 0 standard, 1 multi-push */
};

/* Calls fn for at most `limit` of the user's solutions that come after
 * `after`, in that order. Only their keys are read: a query that read
 * their levels' boards or their moves would read them for all the user's
 * solutions, to sort them. Returns STORAGE_OK (also when there are none),
 * STORAGE_STOP when fn returned nonzero, or the error's code. */
int storage_solutions_page(int64_t user, const struct storage_solution_key *after, unsigned limit,
                           int (*fn)(void *arg, const struct storage_solution *s), void *arg);

/* Copies at most cap bytes of solution id's moves, from byte `offset` on,
 * into out; sets *got to the bytes copied and *total to the moves' whole
 * length. The moves are LURD letters, one byte each. Returns STORAGE_OK,
 * STORAGE_NOT_FOUND when the solution is gone, or the error's code. */
int storage_solution_moves(int64_t id, size_t offset, char *out, size_t cap, size_t *got,
                           size_t *total);

#endif
