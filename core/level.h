/* Levels: one board read from text, validated and normalised. */
#ifndef SOKO_LEVEL_H
#define SOKO_LEVEL_H

#include "base.h"

/* A valid, normalised board. Cells are indexed y * width + x. Squares outside
 * the walls (and any floor the player can never reach) carry SOKO_OUTSIDE;
 * walls carry SOKO_WALL; goals SOKO_GOAL; boxes at the start SOKO_BOX.
 * Boxes on goals that the player can never reach (decoration) are kept. */
typedef struct soko_level {
    uint16_t width;
    uint16_t height;
    soko_cell player; /* the player's square at the start */
    uint16_t boxes;   /* number of boxes (equal to the number of goals) */
    uint8_t cell[SOKO_MAX_CELLS];
} soko_level;

/* Reads one board from text: rows separated by LF, CRLF or '|', with every
 * board character of the community format and its alternatives (see
 * docs/levels.md), '-' and '_' as floor, run-length counts and nested
 * groups. Leading spaces place a row; trailing spaces and empty edge rows are
 * dropped; rows may be ragged. `first_line` is the line number of the text's
 * first line in the caller's file, so that errors point into that file.
 *
 * Then validates it (exactly one player, as many goals as boxes and at least
 * one, a board the player cannot walk off, boxes off goals within the
 * player's reach, within the maximum size) and normalises it.
 * Returns SOKO_OK, or a negative code with *err naming the line, the column
 * and what is wrong; *out is then unspecified. */
int soko_level_parse(soko_level *out, const char *text, uint32_t len, uint32_t first_line,
                     soko_error *err);

/* Writes the level as text rows ending in '\n': standard characters, spaces
 * for floor and nothing for the outside (rle = false), or one run-length line
 * with '|' between rows and '-' for floor (rle = true). Returns the length
 * written without the NUL, or SOKO_E_FULL when cap is too small. */
int32_t soko_level_write(const soko_level *lvl, bool rle, char *out, uint32_t cap);

/* A hash of the puzzle that is the same for the level, its rotations and its
 * mirror images, whatever margin or decoration surrounds it, and wherever
 * the player starts within the area it can reach. Used to find duplicates. */
uint64_t soko_level_canonical_hash(const soko_level *lvl);

/* True when every box of the start position stands on a goal. */
bool soko_level_solved(const soko_level *lvl);

/* The square next to `c` in direction d, or SOKO_NO_CELL off the board. */
soko_cell soko_level_neighbour(const soko_level *lvl, soko_cell c, int d);

#endif
