/* A live game: a game of the database rebuilt in memory by replaying its
 * log through the core, and the entries that extend it. */
#ifndef SOKOD_GAME_PLAY_H
#define SOKOD_GAME_PLAY_H

#include "base/textbuf.h"
#include "play/history.h"
#include "soko.h"
#include "storage/storage_games.h"

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct storage_log_entry;

/* The longest history a game may reach, in steps and restarts: the core's,
 * which the browser reads from core.wasm. */
#define PLAY_MAX_HISTORY SOKO_MAX_HISTORY
/* The most solutions one entry can record (a redo over restarts, each line of which solves). */
#define PLAY_MAX_SOLUTIONS 8

/* live_game.first_solved's values that are no move count. */
#define PLAY_NOT_SOLVED UINT32_MAX
#define PLAY_SOLVED_UNKNOWN (UINT32_MAX - 1)

struct live_game {
    int64_t id;
    int64_t user_id;
    int64_t level_id;
    int64_t room_id; /* a race game: its room and round (0: the player's own game) */
    uint32_t round;
    int64_t collection_id;
    uint32_t position;
    char title[256];
    uint32_t seq; /* the last log entry applied */
    /* The moves at which the line (the cursor's, since its last restart)
     * first reached the solved position, or PLAY_NOT_SOLVED, or
     * PLAY_SOLVED_UNKNOWN after an undone restart brought back a line
     * whose past was not followed (worked out when it matters). */
    uint32_t first_solved;
    uint32_t hints; /* hints answered in the game */
    bool valid;     /* false: to be rebuilt from the log before use */
    soko_level level;
    /* The core plays on a window of the history: game.history (malloc'd)
     * holds entries [base, base + game.history_len) and game.cursor counts
     * from base. `store` holds the chunks outside the window, and copies
     * of those in it that nothing was written to since they came in. */
    soko_game game;
    uint32_t base;        /* a multiple of HISTORY_CHUNK */
    uint32_t length;      /* entries in the whole history */
    struct history store; /* deflated chunks */
    /* The cache's own fields. */
    pthread_mutex_t lock;
    unsigned refs;
    size_t bytes; /* what the game held when last released */
    struct live_game *prev, *next, *chain;
};

/* An entry to apply: a batch of steps (directions), an undo, a redo or a restart. */
struct play_entry {
    int kind; /* STORAGE_LOG_* */
    const uint8_t *dirs;
    uint32_t ndirs;
    uint32_t count;
};

struct play_solution {
    uint32_t moves, pushes;
    char *lurd; /* malloc'd */
};

/* What applying an entry did. */
struct play_result {
    int code;        /* SOKO_OK, or the core's error for the refused part */
    uint32_t failed; /* for a refused batch: the index of the refused step */
    bool changed;    /* whether the game changed before the refusal */
    unsigned nsolutions;
    struct play_solution solution[PLAY_MAX_SOLUTIONS];
};

/* Rebuilds g (id set) from the database: its row, its level and its whole
 * log. Returns a STORAGE_* code; STORAGE_ERROR also for a log the core
 * refuses (logged). g->valid tells whether g can be used. */
int play_rebuild(struct live_game *g);

/* Brings g, valid and behind the database (another node wrote to it), up
 * to its row (locked by the caller) with the log's entries after its own,
 * read ahead by the batch when it could (storage_log_each_after); rebuilds
 * it whole when it is not valid, is ahead, is of another level, room or
 * round, or the entries do not bring it to the row's seq. Returns as
 * play_rebuild. */
int play_catch_up(struct live_game *g, const struct storage_game *row);

/* What play_replay calls after each entry: g is in its state after e.
 * Nonzero stops the replay. */
typedef int (*play_each_fn)(void *arg, const struct live_game *g,
                            const struct storage_log_entry *e);

/* Rebuilds g as play_rebuild does, calling each(arg, g, e) after every
 * entry past `after`, as the game was then (for the entries of a game to
 * be told again, with their counts). Returns as play_rebuild; STORAGE_ERROR
 * also when `each` stopped it. */
int play_replay(struct live_game *g, uint32_t after, play_each_fn each, void *arg);

/* Applies one entry to g. With `record`, notes in res->solution each line
 * that reaches the solved position for the first time since its last
 * restart: a line that had solved the level before and comes back to it
 * (steps off and on again) holds that earlier solution as its start, with
 * fewer moves and no more pushes, and is none. Returns res->code. A
 * refused entry may leave g partly changed (res->changed): rebuild it
 * then. */
int play_apply(struct live_game *g, const struct play_entry *e, bool record,
               struct play_result *res);

/* Frees the solutions of a result. */
void play_result_clear(struct play_result *res);

/* The entries that undo can take back (the history's cursor). */
/* Plays n steps on a copy of g's position, changing nothing: SOKO_OK when
 * play_apply would apply them all, else the code play_apply would refuse
 * them with (a wall, a box that cannot move, or SOKO_E_FULL at the history's
 * limit) and *failed the first refused step. A batch checked first is never
 * refused halfway, which would leave g to be rebuilt from the database:
 * for a long game, the price of every refused batch. */
int play_try_steps(const struct live_game *g, const uint8_t *dirs, uint32_t n, uint32_t *failed);

uint32_t play_cursor(const struct live_game *g);

/* The entries that redo can apply. */
uint32_t play_redo_count(const struct live_game *g);

/* The entries since the last applied restart (or the start) up to the
 * cursor, in a new buffer with room for one more; *n set to their number.
 * NULL when out of memory. */
soko_entry_t *play_line(const struct live_game *g, uint32_t *n);

/* Starts s on g's level under g's rule, from g's start square (a reverse
 * game's), with an empty history in history[0..cap). Cannot fail. */
void play_init_core(const struct live_game *g, soko_game *s, soko_entry_t *history, uint32_t cap);

/* Sets SOKO_STEP_PULL on the decoded steps whose letter is upper case: in
 * a reverse game the case says whether a step pulls (the forward rules
 * ignore the bit). */
void play_mark_pulls(const char *steps, uint8_t *dirs, uint32_t n);

/* Decodes step letters (l u r d, either case) into directions; returns
 * their number, or -1 with *bad set to the index of the first other byte. */
int32_t play_decode(const char *text, uint8_t *dirs, uint32_t cap, uint32_t *bad);

/* Writes the letters of history entries [from, to) into out (cap bytes,
 * NUL-terminated): pushes in upper case, '*' for a restart. Returns the
 * length, or -1 when cap is too small. */
int32_t play_letters(const struct live_game *g, uint32_t from, uint32_t to, char *out, size_t cap);

/* The game as the API shows it: ids, seq, counts, hints, rows, player,
 * undo and redo depths, hash, its level, history and redo stack. A new
 * object, or NULL when out of memory. */
json_t *play_state(const struct live_game *g);

/* The same object appended to b as JSON text, without building it. */
void play_state_write(const struct live_game *g, struct textbuf *b);

/* The game's summary appended to b as JSON text: the state without "rows",
 * "level", "lurd", "history" and "redo", so that its size does not grow
 * with the game or the board. The answer to every accepted entry, whose
 * sender has played it already and checks its own position against the
 * counts and "hash" (the position's Zobrist hash in 16 hex digits, as
 * core.wasm computes it). */
void play_summary_write(const struct live_game *g, struct textbuf *b);

/* The bytes g owns beyond its struct (its history). */
size_t play_bytes(const struct live_game *g);

/* Frees what g owns (not g). */
void play_free(struct live_game *g);

#endif
