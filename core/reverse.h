/* Reverse games: where the player may start, when the start is reached, and
 * the forward solution a finished reverse line stands for. */
#ifndef SOKO_REVERSE_H
#define SOKO_REVERSE_H

#include "path.h"

/* True when square c may be a reverse game's start square: a square of the
 * level's inside (one the player of the level can walk to, boxes aside)
 * with no goal on it, since a box stands on every goal at the start. */
bool soko_reverse_start_allowed(const soko_level *lvl, soko_cell c);

/* The start square a reverse game takes until the player chooses one: the
 * level's player square when it holds no goal, else the first allowed
 * square in cell order. Every valid level has one (it has fewer goals than
 * inside squares, the player's own square taking no box). Cannot fail. */
soko_cell soko_reverse_default_start(const soko_level *lvl);

/* True when the player of g can walk to the level's player square around
 * the boxes where they stand now. Uses one byte a square of stack. */
bool soko_reverse_player_home(const soko_game *g);

/* Sets bit c % 8 of bits[c / 8] for each square c from which the player
 * can walk to the level's player square with the boxes on the level's box
 * squares (the level's start), and clears the others: with every box back
 * on its start square, a reverse game is over exactly when its player
 * stands on one of them, whatever the way it came. bits holds
 * (width * height + 7) / 8 bytes. Uses one byte a square of stack. Cannot
 * fail. */
void soko_reverse_home_region(const soko_level *lvl, uint8_t *bits);

/* The forward solution of a finished reverse line. `line` holds the
 * entries of the line g played since its start or last restart (n of
 * them, no restart among them); g must stand at its end with the game
 * solved (soko_game_solved). The answer is the walk from the level's
 * player square to where g's player stands, then the line's steps from the
 * last to the first pull, each turned round (a pull becomes a push the
 * other way): the steps before the first pull happen, forward, after every
 * box is on its goal, so they are left out. Writes steps as
 * soko_lurd_decode does (direction, SOKO_LURD_PUSH for a push) and returns
 * their number; SOKO_E_RANGE when g is not a finished reverse game or the
 * line holds no pull or a restart, SOKO_E_NO_PATH when the player cannot
 * walk home, SOKO_E_FULL when cap is too small. The caller replays the
 * answer forward before trusting it. */
int32_t soko_reverse_forward(const soko_game *g, const soko_entry_t *line, uint32_t n,
                             soko_path_scratch *s, uint8_t *dirs, uint32_t cap);

#endif
