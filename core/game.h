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
 * the step pushed (0 for a plain move; 1 for a pull in a reverse game), or
 * SOKO_ENTRY_RESTART. core.js reads
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

/* A step as the notation reads it: a direction, with this bit set for an
 * upper-case letter (the same value as SOKO_LURD_PUSH). In a reverse game
 * it asks for a pull; the forward rules let the board decide. */
#define SOKO_STEP_PULL 4u

/* A reverse game (SOKO_RULE_REVERSE) starts from the level's end: a box on
 * every goal, the player on its start square (see soko_game_set_start). A
 * step moves the player; a pull moves the player and brings along the box
 * that stood behind it. Its end is the level's start: the boxes on the
 * level's box squares and the player able to walk to the level's player
 * square (core/reverse.c turns such a line into a forward solution). */
typedef struct soko_game {
    const soko_level *level; /* must outlive the game */
    uint8_t rule;            /* SOKO_RULE_STANDARD, SOKO_RULE_MULTIPUSH or SOKO_RULE_REVERSE */
    soko_cell player;
    soko_cell start;         /* the player's square at the start and after a restart */
    uint16_t boxes_on_start; /* boxes on the level's box squares (a reverse game's targets) */
    uint16_t boxes_on_goal;
    uint32_t moves;
    uint32_t pushes;
    uint64_t hash; /* Zobrist hash of the position: boxes and the player's square */
    soko_entry_t *history;
    uint32_t history_cap;
    uint32_t history_len;
    uint32_t cursor;
    uint8_t cell[SOKO_MAX_CELLS]; /* the level's flags, with SOKO_BOX where boxes are now */
    /* A reverse game's end squares: soko_reverse_home_region of its level,
     * so that the end test after each step costs no search. */
    uint8_t home[SOKO_MAX_CELLS / 8];
} soko_game;

/* What a step did (a non-negative result of soko_game_step). */
enum { SOKO_MOVED = 0, SOKO_PUSHED = 1 };

/* Starts a game on `lvl` under `rule` with an empty history kept in
 * history[0..cap). Cannot fail. */
void soko_game_init(soko_game *g, const soko_level *lvl, int rule, soko_entry_t *history,
                    uint32_t cap);

/* The player takes one step in direction d (SOKO_UP ...). In a reverse game
 * the step never pulls, and a box in front of the player blocks it. Returns SOKO_MOVED
 * or SOKO_PUSHED; or SOKO_E_WALL, SOKO_E_BLOCKED (the box cannot move),
 * SOKO_E_RANGE (d is not a direction) or SOKO_E_FULL (the history buffer is
 * full; a step the rules refuse reports that first), and then nothing
 * changes. Steps are allowed after the level is solved. */
int soko_game_step(soko_game *g, int d);

/* In a reverse game, the player steps in direction d and pulls the box
 * that stands behind it (on the side opposite d) onto the square it left.
 * Returns SOKO_PUSHED; SOKO_E_WALL (a wall ahead), SOKO_E_BLOCKED (a box
 * ahead, or no box behind to pull), SOKO_E_RANGE (d is not a direction, or
 * the game is not a reverse one) or SOKO_E_FULL, and then nothing changes. */
int soko_game_pull(soko_game *g, int d);

/* One step as the notation reads it: direction step & 3, and a pull when
 * SOKO_STEP_PULL is set in a reverse game (the forward rules ignore the
 * bit). Returns what soko_game_step or soko_game_pull returns, or
 * SOKO_E_RANGE for a value beyond SOKO_STEP_PULL | 3. */
int soko_game_play(soko_game *g, unsigned step);

/* Sets a reverse game's start square: where the player stands before the
 * first step and after each restart. Allowed on a game with an empty
 * history only, on a square for the player of the level (inside its walls)
 * that holds no goal, since every goal holds a box at the start. Returns
 * SOKO_OK (the position is the new start), or SOKO_E_RANGE changing
 * nothing. A reverse game starts on soko_reverse_default_start's square. */
int soko_game_set_start(soko_game *g, soko_cell c);

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

/* True when every box stands on a goal; in a reverse game, when every box
 * stands on the level's box squares and the player can walk to the level's
 * player square (looked up in the region worked out when the game
 * started). */
bool soko_game_solved(const soko_game *g);

/* Number of entries that redo can apply. */
uint32_t soko_game_redo_count(const soko_game *g);

/* SOKO_MAX_HISTORY, for core.wasm's callers. Cannot fail. */
uint32_t soko_game_max_history(void);

/* The Zobrist key of a box (kind 0) or of the player (kind 1) on cell c: the
 * hash of a position is the XOR of the keys of its boxes and its player. */
uint64_t soko_zobrist(soko_cell c, int kind);

#endif
