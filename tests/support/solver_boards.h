/* Helpers for the solver's unit tests: every level of a shared collection
 * as the board the search works on, and a level's start boxes on it. */
#ifndef SOKO_SOLVER_BOARDS_H
#define SOKO_SOLVER_BOARDS_H

#include "internal.h"

#include <stdint.h>

/* What a test does with one level's board; returns what it counted. */
typedef uint32_t (*solver_board_fn)(const char *file, uint32_t number, const solver_board *b,
                                    void *ctx);

/* Calls fn on the board of each level of `file` (relative to the shared
 * folder, as shared_path takes it) that parses and builds, until a check
 * of the current test fails. Returns the sum of what fn returned; 0 when
 * the file cannot be read (read_file has then failed a check). */
uint32_t solver_each_board(const char *file, solver_board_fn fn, void *ctx);

/* The squares of lvl's boxes at the start on board b, in ascending order,
 * into boxes (room for b->nboxes). A check fails when their number is not
 * the board's. */
void solver_start_boxes(const soko_level *lvl, const solver_board *b, uint16_t *boxes);

/* Hand-made levels of the solver's tests. A hall of twelve boxes above
 * one goal room of twelve goals, entered from the hall through a gap. */
extern const char SOLVER_HALL_OVER_ROOM[];

/* A level of no goal room: fifteen goals in a block around three pillars,
 * boxes among them, in an open hall. */
extern const char SOLVER_NO_ROOM_HALL[];

/* A random position of board b: its boxes on squares that are not dead,
 * box[i] the square of the box numbered i + 1 in occ (nsq + 1 entries,
 * cleared first), and *player a free square. Returns the boxes placed:
 * b->nboxes unless the squares ran out. */
uint32_t solver_random_position(const solver_board *b, uint32_t *rng, uint16_t *occ, uint16_t *box,
                                uint16_t *player);

#endif
