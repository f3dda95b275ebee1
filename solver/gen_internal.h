/* What the generator's files share: its pseudo-random numbers, the rooms,
 * and the pull search. Cells of a room are indexed y * width + x; the outer
 * ring of a room is always wall. */
#ifndef SOKO_GEN_INTERNAL_H
#define SOKO_GEN_INTERNAL_H

#include "generate.h"

#include <stddef.h>
#include <stdint.h>

/* The generator's own pseudo-random sequence (splitmix64 on integers): the
 * same seed gives the same numbers everywhere. */
typedef struct gen_rng {
    uint64_t state;
} gen_rng;

void gen_rng_seed(gen_rng *r, uint64_t seed);
uint64_t gen_rng_next(gen_rng *r);
/* A number in [0, n); n must be at least 1. */
uint32_t gen_rng_below(gen_rng *r, uint32_t n);
/* A number in [lo, hi]. */
uint32_t gen_rng_range(gen_rng *r, uint32_t lo, uint32_t hi);

#define GEN_MAX_CELLS (GEN_MAX_SIDE * GEN_MAX_SIDE)

/* A room: which cells are floor (1) or wall (0). */
typedef struct gen_room {
    uint16_t width, height;
    uint8_t shape;
    uint8_t floor[GEN_MAX_CELLS];
} gen_room;

/* Carves a room of `shape` (not ANY) within width x height, keeping its
 * largest connected floor. Returns the number of floor cells. Cannot fail. */
uint32_t gen_room_carve(gen_room *room, gen_rng *r, uint16_t width, uint16_t height, int shape);

/* One push of a solution: the box on `from` moves one step in `dir`. */
typedef struct gen_push {
    uint16_t from;
    uint8_t dir;
} gen_push;

/* The start position the pull search chose, and its solution. */
typedef struct gen_found {
    uint16_t box[GEN_MAX_BOXES];
    uint16_t player;
    uint32_t pushes; /* entries of push */
    gen_push *push;  /* from malloc, owned by the caller after a success */
    uint32_t box_lines, box_changes;
    uint64_t effort;
    uint32_t score;
} gen_found;

/* Pulls the boxes back from the goals (boxes on goal[0..boxes)) through at
 * most node_limit positions, breadth first, and picks the start position
 * with the highest score. Returns GEN_OK with *out filled, GEN_E_NOT_FOUND
 * when no box can be pulled, or GEN_E_MEMORY. */
int gen_search(const gen_room *room, const uint16_t *goal, uint16_t boxes, uint64_t node_limit,
               gen_found *out);

/* The score of a solution of `pushes` pushes with these runs and changes,
 * `effort` positions closer to solved, and `on_goal` boxes that start on a
 * goal. */
uint32_t gen_score(uint32_t pushes, uint32_t lines, uint32_t changes, uint64_t effort,
                   uint32_t on_goal);

#endif
