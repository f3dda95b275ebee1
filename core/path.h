/* Paths: where the player can walk, and where one box can be pushed.
 *
 * All answers are deterministic: among several shortest answers the same one
 * is chosen on every build (the tie-break is documented in path.c). */
#ifndef SOKO_PATH_H
#define SOKO_PATH_H

#include "game.h"

/* Working memory for path finding, owned by the caller and reused between
 * calls (its contents between calls mean nothing). */
typedef struct soko_path_scratch {
    uint16_t queue[SOKO_MAX_CELLS * 4];
    uint32_t mark[SOKO_MAX_CELLS * 4]; /* visit stamps: states seen in this call */
    uint32_t value[SOKO_MAX_CELLS * 4];
    uint16_t link[SOKO_MAX_CELLS * 4];
    uint16_t block[SOKO_MAX_CELLS * 4]; /* biconnected block of each (cell, side) edge */
    uint16_t low[SOKO_MAX_CELLS];
    uint16_t order[SOKO_MAX_CELLS];
    uint32_t stamp; /* the current call's stamp; 0 before first use */
} soko_path_scratch;

/* The shortest walk of the player from where it stands to `target`, around
 * boxes and walls. Writes the directions (SOKO_UP ...) to dirs and returns
 * their number (0 when already there); SOKO_E_NO_PATH when the target
 * cannot be reached; SOKO_E_RANGE when target is not a square of the board;
 * SOKO_E_FULL when cap is too small. */
int32_t soko_path_walk(const soko_game *g, soko_cell target, soko_path_scratch *s, uint8_t *dirs,
                       uint32_t cap);

/* Every square the box on `box` can be pushed to, the other boxes staying
 * where they are. Sets reach[c] to 1 for each such square (the box's own
 * square included) and 0 elsewhere, for c < width * height; returns the
 * number of squares set, or SOKO_E_RANGE when there is no box on `box`. */
int32_t soko_path_box_reach(const soko_game *g, soko_cell box, soko_path_scratch *s,
                            uint8_t *reach);

/* The steps (walks and pushes, as directions) that bring the box on `box` to
 * `target` with the fewest pushes and, among those, the fewest moves.
 * Returns their number, SOKO_E_NO_PATH when the box cannot get there,
 * SOKO_E_RANGE when there is no box on `box` or target is not a square, or
 * SOKO_E_FULL when cap is too small. */
int32_t soko_path_box_push(const soko_game *g, soko_cell box, soko_cell target,
                           soko_path_scratch *s, uint8_t *dirs, uint32_t cap);

#endif
