/* Accessors for JavaScript (see export.c). */
#ifndef SOKO_EXPORT_H
#define SOKO_EXPORT_H

#include "soko.h"

uint32_t soko_sizeof_level(void);
uint32_t soko_sizeof_game(void);
uint32_t soko_sizeof_path_scratch(void);
uint32_t soko_sizeof_error(void);
uint32_t soko_error_line(const soko_error *e);
uint32_t soko_error_col(const soko_error *e);
const char *soko_error_message(const soko_error *e);
uint32_t soko_level_width(const soko_level *l);
uint32_t soko_level_height(const soko_level *l);
const uint8_t *soko_level_cells(const soko_level *l);
const uint8_t *soko_game_cells(const soko_game *g);
uint32_t soko_game_player(const soko_game *g);
uint32_t soko_game_moves(const soko_game *g);
uint32_t soko_game_pushes(const soko_game *g);
uint32_t soko_game_boxes_on_goal(const soko_game *g);
uint32_t soko_game_boxes_on_start(const soko_game *g);
uint32_t soko_game_start(const soko_game *g);
uint32_t soko_game_cursor(const soko_game *g);
uint32_t soko_game_history_len(const soko_game *g);
uint32_t soko_game_hash_lo(const soko_game *g);
uint32_t soko_game_hash_hi(const soko_game *g);
uint32_t soko_sizeof_reader(void);
uint32_t soko_sizeof_entry(void);
uint32_t soko_entry_board_off(const soko_entry *e);
uint32_t soko_entry_board_len(const soko_entry *e);
uint32_t soko_entry_board_line(const soko_entry *e);
uint32_t soko_entry_title_off(const soko_entry *e);
uint32_t soko_entry_title_len(const soko_entry *e);
uint32_t soko_entry_author_off(const soko_entry *e);
uint32_t soko_entry_author_len(const soko_entry *e);
uint32_t soko_level_boxes(const soko_level *l);
uint32_t soko_level_player(const soko_level *l);

#endif
