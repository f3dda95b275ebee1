/* Storage: every SQL statement of sokod lives behind this header, so that a
 * port to another database touches only server/storage*.c.
 *
 * Each thread has its own SQLite connection, opened on first use and closed
 * when the thread ends; prepared statements are cached per connection. All
 * functions work on the calling thread's connection. Functions return
 * STORAGE_OK or another STORAGE_* code (storage_codes.h); on STORAGE_ERROR the cause has been
 * logged to stderr. Text handed to a callback is valid during the call only. */
#ifndef SOKOD_STORAGE_H
#define SOKOD_STORAGE_H

#include "storage/storage_codes.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- Connections, transactions, schema ------------------------------------------------ */

/* Sets the database file and the synchronous mode (1 NORMAL, 2 FULL) used by
 * every connection, and creates the file's folder if missing. Call once,
 * before any other storage function. Returns STORAGE_OK or STORAGE_ERROR. */
int storage_init(const char *path, int synchronous);

/* Brings the schema up to date with the NNNN_name.sql files of `dir`, each
 * in its own transaction, tracked by PRAGMA user_version. Sets *fresh when
 * the database had no schema before. Refuses (STORAGE_ERROR, with a message
 * on stderr) a database newer than the newest migration. */
int storage_migrate(const char *dir, bool *fresh);

/* Closes the calling thread's connection, and reports on stderr connections
 * of other threads still open. */
void storage_shutdown(void);

/* BEGIN IMMEDIATE: a write transaction that holds the write lock from the
 * start. Transactions do not nest. Waits for the lock up to STORAGE_BUSY_MS
 * from the call, then gives STORAGE_BUSY. */
int storage_begin(void);
/* storage_begin, waiting for the lock no later than deadline_ms (on the
 * clock of clock_mono_ms); a deadline already past still takes a free
 * lock, without waiting. */
int storage_begin_until(int64_t deadline_ms);
/* COMMIT; on failure the transaction is rolled back. */
int storage_commit(void);
/* ROLLBACK, when a transaction is open. Cannot fail. */
void storage_rollback(void);

/* SAVEPOINT inside the open transaction, so that one part of it can be
 * undone (storage_undo_to_savepoint) and the rest still committed. */
int storage_savepoint(void);
/* Forgets the last savepoint, keeping what was written since. */
int storage_release_savepoint(void);
/* Undoes what was written since the last savepoint, and forgets it. */
int storage_undo_to_savepoint(void);

/* ---- Backups ----------------------------------------------------------------------------- */

/* Copies the database at db_path, as it stands at one moment, to `target`
 * (replaced whole, or left as it was on failure), safely while a server
 * writes to it, and checks the copy. Returns STORAGE_OK, or STORAGE_ERROR /
 * STORAGE_FULL with what went wrong in err. Needs no storage_init. */
int storage_backup(const char *db_path, const char *target, char *err, size_t cap);

/* Replaces the content of the database at db_path (created if missing)
 * with the checked copy `backup`. The caller must hold storage_lock(db_path,
 * true), so that no server has the database open. */
int storage_restore(const char *backup, const char *db_path, char *err, size_t cap);

/* Takes the lock file beside the database (DB.lock): shared for a server
 * (several may share it), exclusive for a restore. Returns the descriptor
 * that holds it until closed or the process ends, or -1 (errno
 * EWOULDBLOCK when another process holds it in the other mode). */
int storage_lock(const char *db_path, bool exclusive);

/* ---- Users and sessions ----------------------------------------------------------------- */

/* Room for a stored name and its NUL (names are at most 32 characters). */
#define STORAGE_USERNAME_CAP 64

struct storage_user {
    int64_t id;
    bool guest;
    char username[STORAGE_USERNAME_CAP]; /* empty for a guest */
    int64_t created_at;
};

int storage_user_create_guest(int64_t now, int64_t *id);
int storage_user_get(int64_t id, struct storage_user *u);
/* Finds an account by name (case-insensitive) and copies its password hash. */
int storage_user_by_name(const char *username, struct storage_user *u, char *hash, size_t cap);
/* Gives a guest a name and a password hash. STORAGE_CONFLICT when the name is taken. */
int storage_user_register(int64_t id, const char *username, const char *hash);
/* Creates an account. STORAGE_CONFLICT when the name is taken. */
int storage_user_create(const char *username, const char *hash, int64_t now, int64_t *id);
/* Moves a guest's solutions, and its games on levels the account has not
 * started, to the account, then deletes the guest and what is left of it. */
int storage_user_merge_guest(int64_t guest, int64_t account);

int storage_session_create(const uint8_t token_hash[32], int64_t user, int64_t now,
                           int64_t expires_at);
/* The user of an unexpired session; STORAGE_NOT_FOUND otherwise. */
int storage_session_user(const uint8_t token_hash[32], int64_t now, struct storage_user *u);
int storage_session_delete(const uint8_t token_hash[32]);
/* Like storage_session_user, also giving the session's expiry time. */
int storage_session_lookup(const uint8_t token_hash[32], int64_t now, struct storage_user *u,
                           int64_t *expires_at);
/* Moves a session's expiry to expires_at (a sliding expiry). */
int storage_session_refresh(const uint8_t token_hash[32], int64_t expires_at);
/* Deletes every session of a user but the one of keep_hash (NULL: all);
 * *count, when not NULL, receives how many went. */
int storage_sessions_revoke(int64_t user, const uint8_t *keep_hash, int64_t *count);
/* Deletes the sessions of a user that expired before now. */
int storage_sessions_purge(int64_t user, int64_t now);
/* The password hash of an account (STORAGE_NOT_FOUND for a guest). */
int storage_user_password_hash(int64_t user, char *hash, size_t cap);
/* Replaces the password hash of an account. */
int storage_user_set_password(int64_t user, const char *hash);
/* The devices epoch of the account named (case-insensitive) in *epoch;
 * 0 when there is no such account. Device cookies are signed with it. */
int storage_user_devices_epoch(const char *username, int64_t *epoch);
/* Raises an account's devices epoch: every device cookie given before is
 * no longer trusted. */
int storage_user_forget_devices(int64_t user);

/* The sweep of old guests (sweeper.c). A listing reads its rows in order
 * from a cursor that it moves past each row read; done is set when the
 * listing ran out (start over from a zeroed cursor). Listings read only;
 * the deletes run inside the caller's transaction and check again that
 * the guest is still one to delete, so a guest who played in between
 * stays. A deleted guest takes its sessions, settings, games and their
 * logs with it. */
#define STORAGE_SWEEP_MAX 256
struct storage_sweep_cursor {
    int64_t at, id; /* the last row read: its time (for the listing by age) and id */
    bool done;
};
/* Puts in ids (at most max) the guests made at or before made_before that
 * never played (no game with a log entry, no race game, no solution, no
 * room hosted), of the next max guests by age; *n receives their number. */
int storage_guests_unplayed(int64_t made_before, struct storage_sweep_cursor *cursor, int max,
                            int64_t *ids, int *n);
/* Puts in ids the guests last seen at or before seen_before, of the next
 * max guests by id. A guest was last seen when its newest session's expiry
 * was last moved (that expiry less session_span) or, with no session left,
 * when it was made. */
int storage_guests_idle(int64_t seen_before, int64_t session_span,
                        struct storage_sweep_cursor *cursor, int max, int64_t *ids, int *n);
/* Delete one guest when it still qualifies, adding 1 to *deleted if so. */
int storage_guest_delete_unplayed(int64_t id, int64_t made_before, int64_t *deleted);
int storage_guest_delete_idle(int64_t id, int64_t seen_before, int64_t session_span,
                              int64_t *deleted);
/* Inside the caller's transaction, when guest id is still last seen at or
 * before seen_before (*idle): ends its sessions, so that nobody reaches it
 * again, and deletes at most max entries of its games' logs (*trimmed
 * receives how many), so that deleting a guest with long histories takes
 * several short transactions rather than one long one. */
int storage_guest_trim_idle(int64_t id, int64_t seen_before, int64_t session_span, int max,
                            bool *idle, int64_t *trimmed);
/* Deletes at most max sessions expired at now; *deleted receives how many. */
int storage_sessions_expired(int64_t now, int max, int64_t *deleted);

/* ---- Settings ------------------------------------------------------------------------------ */

/* A user's settings as JSON text in *json (the caller frees), or
 * STORAGE_NOT_FOUND when the user has saved none. */
int storage_settings_get(int64_t user, char **json);
/* Replaces a user's settings with the JSON object text `json`. */
int storage_settings_put(int64_t user, const char *json, int64_t now);

/* ---- The server's keys ------------------------------------------------------------------- */

/* The secret key `name` of len bytes into key: the one stored, or else
 * `fresh` (random bytes of the same length), stored from now on. */
int storage_server_key(const char *name, const uint8_t *fresh, uint8_t *key, size_t len);

/* ---- Collections and levels -------------------------------------------------------------- */

struct storage_collection {
    int64_t id;
    const char *name;
    const char *source;
    const char *notes;
    const char *author; /* the collection's credit */
    int64_t created_at;
    uint32_t levels;
    uint32_t solved; /* levels the user has solved */
};

/* A level with, for one user, its best solution and game. Text fields point
 * into the row being read, or into storage_level_get's copies. */
struct storage_level {
    int64_t id;
    int64_t collection_id;
    uint32_t position;
    const char *title;
    const char *author;
    const char *comment;
    const char *board;
    const char *collection_name;
    uint32_t width, height, boxes;
    const char *canonical_hash;
    bool solved;
    uint32_t best_moves, best_pushes; /* from the user's solutions, when solved */
    bool hinted;     /* solved only with hints: the best counts are of helped solutions */
    int64_t game_id; /* the user's game on the level, or 0 */
};

struct storage_new_level {
    int64_t collection_id;
    uint32_t position;
    const char *title, *author, *comment, *board;
    uint32_t width, height, boxes;
    const char *canonical_hash;
};

/* STORAGE_OK when a collection was imported from `source`, else STORAGE_NOT_FOUND. */
int storage_collection_from_source(const char *source);
int storage_level_insert(const struct storage_new_level *l, int64_t now, int64_t *id);

/* Calls fn for each collection, in id order, with the user's solved count
 * (user 0: nobody). */
int storage_collections_each(int64_t user, int (*fn)(void *arg, const struct storage_collection *c),
                             void *arg);
int storage_collection_get(int64_t id, int64_t user,
                           int (*fn)(void *arg, const struct storage_collection *c), void *arg);
/* Calls fn for each level of a collection, in position order, with the
 * user's state. The board is not read (NULL). */
int storage_levels_each(int64_t collection, int64_t user,
                        int (*fn)(void *arg, const struct storage_level *l), void *arg);
/* Calls fn once with the level and the user's state. */
int storage_level_get(int64_t id, int64_t user, int (*fn)(void *arg, const struct storage_level *l),
                      void *arg);

/* ---- Games -------------------------------------------------------------------------------- */

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

/* Finds the user's game on a level, or creates it (with an empty log). */
int storage_game_open(int64_t user, int64_t level, int64_t now, struct storage_game *g,
                      bool *created);
int storage_game_get(int64_t id, struct storage_game *g);
/* Calls fn for each entry of a game's log, in order. */
int storage_log_each(int64_t game, int (*fn)(void *arg, const struct storage_log_entry *e),
                     void *arg);
/* Calls fn with one entry of a game's log; STORAGE_NOT_FOUND when absent. */
int storage_log_get(int64_t game, uint32_t seq,
                    int (*fn)(void *arg, const struct storage_log_entry *e), void *arg);
int storage_log_append(int64_t game, const struct storage_log_entry *e, int64_t now);
/* Records the game's summary after an entry. */
int storage_game_update(const struct storage_game *g, int64_t now);
/* Adds one to the game's hint count. */
int storage_game_hint_add(int64_t id);

/* ---- Race rooms (storage_rooms.c) ------------------------------------------------------ */

struct storage_room {
    int64_t id;
    int64_t host_id;
    int64_t level_id;
    char source[16]; /* chosen, random, daily, generated */
    uint32_t round;
    int64_t created_at;
};

/* Creates a room (round 1) and sets r->id. */
int storage_room_create(struct storage_room *r);
int storage_room_get(int64_t id, struct storage_room *r);
/* Records the room's round (a rematch). */
int storage_room_set_round(int64_t id, uint32_t round);
/* Creates the race game of `user` in round `round` of a room on `level`,
 * or finds it when it exists; sets *game_id. */
int storage_race_game(int64_t room, uint32_t round, int64_t user, int64_t level, int64_t now,
                      int64_t *game_id);
/* A random level players can see, or STORAGE_NOT_FOUND when there is none. */
int storage_level_random(int64_t *level_id);
/* The display name of a user: the username, or "" for a guest. */
int storage_user_name(int64_t id, char *name, size_t cap);

/* ---- Progress ----------------------------------------------------------------------------- */

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

struct storage_solution {
    int64_t level_id;
    const char *collection_name;
    uint32_t position;
    const char *title;
    const char *board;
    uint32_t moves, pushes;
    const char *lurd;
    int64_t solved_at;
};

/* Calls fn for each of the user's solutions, by collection, position, then
 * fewest moves. */
int storage_solutions_each(int64_t user, int (*fn)(void *arg, const struct storage_solution *s),
                           void *arg);

#endif
