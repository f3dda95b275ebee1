/* Boards as text rows, the way players and level files write them. */
#ifndef SOKOD_BOARD_H
#define SOKOD_BOARD_H

#include "base/textbuf.h"
#include "soko.h"

#include <jansson.h>

/* The rows of a board: '#' wall, '$' box, '.' goal, '*' box on goal, '@'
 * player, '+' player on goal, ' ' floor and outside; trailing blanks
 * dropped. Row y, column x is the square of cell y * width + x, as in the
 * API's coordinates. `cell` holds width * height flags (a level's or a
 * game's), `player` the player's cell. Returns a new JSON array, or NULL
 * when out of memory. */
json_t *board_rows(const uint8_t *cell, unsigned width, unsigned height, soko_cell player);

/* The same rows appended to b as a JSON array of strings. */
void board_rows_json(const uint8_t *cell, unsigned width, unsigned height, soko_cell player,
                     struct textbuf *b);

/* The same rows joined with '\n' (and a final '\n') into out; returns the
 * length written, or -1 when cap is too small. */
int board_text(const uint8_t *cell, unsigned width, unsigned height, soko_cell player, char *out,
               size_t cap);

#endif
