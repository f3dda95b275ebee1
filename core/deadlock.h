/* Deadlocks: squares a box must never reach, and boxes that can never move. */
#ifndef SOKO_DEADLOCK_H
#define SOKO_DEADLOCK_H

#include "game.h"

/* Marks the dead squares of a level: floor squares from which a box can
 * never be pushed to any goal, whatever the other boxes do. Sets dead[c] to
 * 1 for each (0 elsewhere), for c < width * height, and returns their number.
 * Walls and the outside are not counted as dead. Cannot fail. */
int32_t soko_deadlock_dead_squares(const soko_level *lvl, uint8_t *dead);

/* The same for a reverse game: floor squares from which a box can never be
 * pulled to any of the level's box squares (its start), whatever the other
 * boxes do. Same marks and count as soko_deadlock_dead_squares. */
int32_t soko_deadlock_pull_dead_squares(const soko_level *lvl, uint8_t *dead);

/* Marks the boxes that are frozen off a goal in the current position: boxes
 * that can move neither horizontally nor vertically (held by walls, by dead
 * squares on both sides, or by other frozen boxes) and do not stand on a
 * goal. `dead` is the result of soko_deadlock_dead_squares for the level
 * (or NULL, to leave dead squares out).
 * Sets frozen[c] to 1 for each such box (0 elsewhere) and returns their
 * number: a position with any is lost. Cannot fail. */
int32_t soko_deadlock_frozen(const soko_game *g, const uint8_t *dead, uint8_t *frozen);

#endif
