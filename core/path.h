/* Paths: where the player can walk, and where one box can be pushed.
 *
 * All answers are deterministic: among several shortest answers the same one
 * is chosen on every build (the tie-break is documented in path.c). */
#ifndef SOKO_PATH_H
#define SOKO_PATH_H

#include "game.h"

/* Working memory for path finding, owned by the caller and reused between
 * calls. Zero it once before its first use (a static or a zero-filled
 * allocation will do); after that its contents between calls mean nothing to
 * the caller. A state is a box square and the side of it the player stands
 * on, numbered cell * 4 + side. Visit marks are stamps, so that a call never
 * clears the whole structure. */
typedef struct soko_path_scratch {
    uint32_t state_mark[SOKO_MAX_CELLS * 4];  /* stamp: state seen in this call */
    uint32_t state_moves[SOKO_MAX_CELLS * 4]; /* fewest moves to the state */
    uint16_t state_link[SOKO_MAX_CELLS * 4];  /* the state it was pushed from */
    uint16_t state_pushes[SOKO_MAX_CELLS * 4];
    uint16_t state_queue[SOKO_MAX_CELLS * 4]; /* also the depth-first stack */
    uint32_t flow_mark[SOKO_MAX_CELLS * 4];   /* stamp: on a fewest-push path, or counted */
    uint32_t cell_mark[SOKO_MAX_CELLS];       /* stamp: square labelled by a walk search */
    uint32_t area_mark[SOKO_MAX_CELLS];       /* stamp: square in the box's area */
    uint16_t cell_dist[SOKO_MAX_CELLS];
    uint16_t cell_guess[SOKO_MAX_CELLS]; /* the A* estimate of the distance left */
    uint16_t cell_queue[SOKO_MAX_CELLS]; /* also the depth-first order */
    uint16_t cell_later[SOKO_MAX_CELLS];
    uint16_t disc[SOKO_MAX_CELLS]; /* depth-first discovery order */
    uint16_t low[SOKO_MAX_CELLS];
    uint16_t parent[SOKO_MAX_CELLS];
    uint16_t block[SOKO_MAX_CELLS]; /* block of the edge to the depth-first parent */
    uint16_t top[SOKO_MAX_CELLS];   /* ancestor just below the root */
    uint16_t sides[SOKO_MAX_CELLS]; /* 4 bits per side: the sides joined to it */
    uint8_t next_dir[SOKO_MAX_CELLS];
    /* The board and box the blocks above were last found for, so that the
     * calls for one box in one position (reach, then push paths) share them. */
    uint8_t blocks_cell[SOKO_MAX_CELLS];
    uint32_t blocks_area; /* their area stamp; 0 when there are none */
    uint32_t blocks_size;
    uint16_t blocks_width;
    uint16_t blocks_box;
    uint32_t explored;      /* the stamp of a whole search over those blocks, or 0 */
    uint8_t explored_sides; /* the player's start sides of that search */
    uint32_t stamp;         /* the last stamp handed out; 0 before first use */
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
