/* A game: one level being played, with undo and redo to any depth.
 *
 * The history is a log of steps and restarts in a buffer the caller owns.
 * The first `cursor` entries are applied; the entries from `cursor` to
 * `history_len` form the redo stack. A new step or restart drops the redo
 * stack. A restart is an entry of its own, so undo takes it back. Moves and
 * pushes count the applied steps since the last applied restart. */
#ifndef SOKO_GAME_H
#define SOKO_GAME_H

#include "level.h"

/* One history entry: bits 0-1 the direction, bits 2-14 the number of boxes
 * the step pushed (0 for a plain move), or SOKO_ENTRY_RESTART. core.js reads
 * entries out of wasm memory with these values (a test compares them). */
typedef uint16_t soko_entry_t;
#define SOKO_ENTRY_RESTART ((soko_entry_t)0xFFFF)
#define SOKO_ENTRY_DIR_MASK 3u
#define SOKO_ENTRY_PUSHED_SHIFT 2
#define SOKO_ENTRY_DIR(e) ((int)((e)&SOKO_ENTRY_DIR_MASK))
#define SOKO_ENTRY_PUSHED(e) ((unsigned)((e) >> SOKO_ENTRY_PUSHED_SHIFT))

/* The longest history a game may hold, in steps and restarts: one value
 * for the server and the browser, which reads it through
 * soko_game_max_history. A history at this length is 8 MiB of entries;
 * sokod keeps only a window of it raw (server/game_play.c). */
#define SOKO_MAX_HISTORY (1u << 22)

typedef struct soko_game {
    const soko_level *level; /* must outlive the game */
    uint8_t rule;            /* SOKO_RULE_STANDARD or SOKO_RULE_MULTIPUSH */
    soko_cell player;
    uint16_t boxes_on_goal;
    uint32_t moves;
    uint32_t pushes;
    uint64_t hash; /* Zobrist hash of the position: boxes and the player's square */
    soko_entry_t *history;
    uint32_t history_cap;
    uint32_t history_len;
    uint32_t cursor;
    uint8_t cell[SOKO_MAX_CELLS]; /* the level's flags, with SOKO_BOX where boxes are now */
} soko_game;

/* What a step did (a non-negative result of soko_game_step). */
enum { SOKO_MOVED = 0, SOKO_PUSHED = 1 };

/* Starts a game on `lvl` under `rule` with an empty history kept in
 * history[0..cap). Cannot fail. */
void soko_game_init(soko_game *g, const soko_level *lvl, int rule, soko_entry_t *history,
                    uint32_t cap);

/* The player takes one step in direction d (SOKO_UP ...). Returns SOKO_MOVED
 * or SOKO_PUSHED; or SOKO_E_WALL, SOKO_E_BLOCKED (the box cannot move),
 * SOKO_E_RANGE (d is not a direction) or SOKO_E_FULL (the history buffer is
 * full; a step the rules refuse reports that first), and then nothing
 * changes. Steps are allowed after the level is solved. */
int soko_game_step(soko_game *g, int d);

/* Takes back the last applied entry (a step or a restart). Returns SOKO_OK,
 * SOKO_E_NOTHING when there is nothing to undo, or SOKO_E_RANGE (changing
 * nothing) when the entry does not fit the position: only a history edited
 * from outside the game can do that. */
int soko_game_undo(soko_game *g);

/* Applies the next entry of the redo stack. Returns SOKO_OK,
 * SOKO_E_NOTHING when the redo stack is empty, or SOKO_E_RANGE (changing
 * nothing) when the entry does not fit the position. */
int soko_game_redo(soko_game *g);

/* Puts the level back to its start, as an entry that undo takes back.
 * When no step has been applied since the start or the last restart (moves
 * is 0) there is nothing to put back: it returns SOKO_OK, writes no entry
 * and keeps the redo stack. Returns SOKO_E_FULL when the history buffer is
 * full. */
int soko_game_restart(soko_game *g);

/* True when every box stands on a goal. */
bool soko_game_solved(const soko_game *g);

/* Number of entries that redo can apply. */
uint32_t soko_game_redo_count(const soko_game *g);

/* SOKO_MAX_HISTORY, for core.wasm's callers. Cannot fail. */
uint32_t soko_game_max_history(void);

/* The Zobrist key of a box (kind 0) or of the player (kind 1) on cell c: the
 * hash of a position is the XOR of the keys of its boxes and its player. */
uint64_t soko_zobrist(soko_cell c, int kind);

#endif
