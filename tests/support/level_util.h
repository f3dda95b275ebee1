/* Helpers for tests that play levels: levels from string literals, positions
 * printed for failure messages, and LURD text played in one call. */
#ifndef SOKO_LEVEL_UTIL_H
#define SOKO_LEVEL_UTIL_H

#include "check.h"
#include "game.h"
#include "lurd.h"
#include "reader.h"

/* Parses a board written in a test (rows separated by '\n'). Returns a level
 * the caller frees, or NULL after a check failure that prints the text and
 * the parser's located error. */
soko_level *level_from_text(const char *text);

/* Level `number` of a collection in the shared folder (`file` relative to
 * it, as shared_path takes it). Returns a level the caller frees, or NULL
 * after a check failure that says whether the file, the level or its
 * parse failed. */
soko_level *shared_level(const char *file, uint32_t number);

/* Writes a position (the level's squares with `cell`'s boxes and the player
 * on `player`) as board rows ending in '\n', outside squares as spaces.
 * Returns out, always NUL-terminated and cut to fit. */
char *position_text(const soko_level *lvl, const uint8_t *cell, soko_cell player, char *out,
                    size_t cap);

/* position_text of a game's current position. */
char *game_text(const soko_game *g, char *out, size_t cap);

/* Adds the game's position, counts and history (as entries) to the notes
 * printed if the current test fails, under `label`. */
void note_game(const char *label, const soko_game *g);

/* Decodes LURD text and plays it on g. Returns SOKO_OK, the decoder's error,
 * or the error of the refused step (whose 0-based index goes to *failed
 * when failed is not NULL). Does not record a check failure itself. */
int play_lurd(soko_game *g, const char *lurd, uint32_t *failed);

/* Writes the history entries of g (all of them, applied and redo stack) in
 * LURD letters with '!' for a restart and '|' at the cursor. */
char *history_text(const soko_game *g, char *out, size_t cap);

/* The span s of text as a NUL-terminated string, cut at 511 bytes, in one
 * of eight buffers used in turn: a check may hold several at once. */
const char *span_text(const char *text, soko_span s);

/* The square next to c in direction d (0 up, 1 right, 2 down, 3 left),
 * computed from coordinates, as a slow reference for the core's tables; -1
 * off the board. */
int ref_step(const soko_level *l, int c, int d);

/* True when c is a square of the board (not -1) that is neither wall nor
 * outside. */
bool ref_floor(const soko_level *l, int c);

#endif
