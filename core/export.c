/* Accessors that let JavaScript use the core through core.wasm without
 * knowing the layout of its structures: their sizes, and their fields. The
 * native build has them too, so tests can check them against the fields. */
#include "export.h"

SOKO_EXPORT("soko_sizeof_level")
uint32_t soko_sizeof_level(void)
{
    return sizeof(soko_level);
}

SOKO_EXPORT("soko_sizeof_game")
uint32_t soko_sizeof_game(void)
{
    return sizeof(soko_game);
}

SOKO_EXPORT("soko_sizeof_path_scratch")
uint32_t soko_sizeof_path_scratch(void)
{
    return sizeof(soko_path_scratch);
}

SOKO_EXPORT("soko_sizeof_error")
uint32_t soko_sizeof_error(void)
{
    return sizeof(soko_error);
}

SOKO_EXPORT("soko_error_line")
uint32_t soko_error_line(const soko_error *e)
{
    return e->line;
}

SOKO_EXPORT("soko_error_col")
uint32_t soko_error_col(const soko_error *e)
{
    return e->col;
}

SOKO_EXPORT("soko_error_message")
const char *soko_error_message(const soko_error *e)
{
    return e->message;
}

SOKO_EXPORT("soko_level_width")
uint32_t soko_level_width(const soko_level *l)
{
    return l->width;
}

SOKO_EXPORT("soko_level_height")
uint32_t soko_level_height(const soko_level *l)
{
    return l->height;
}

SOKO_EXPORT("soko_level_cells")
const uint8_t *soko_level_cells(const soko_level *l)
{
    return l->cell;
}

SOKO_EXPORT("soko_game_cells")
const uint8_t *soko_game_cells(const soko_game *g)
{
    return g->cell;
}

SOKO_EXPORT("soko_game_player")
uint32_t soko_game_player(const soko_game *g)
{
    return g->player;
}

SOKO_EXPORT("soko_game_moves")
uint32_t soko_game_moves(const soko_game *g)
{
    return g->moves;
}

SOKO_EXPORT("soko_game_pushes")
uint32_t soko_game_pushes(const soko_game *g)
{
    return g->pushes;
}

SOKO_EXPORT("soko_game_boxes_on_goal")
uint32_t soko_game_boxes_on_goal(const soko_game *g)
{
    return g->boxes_on_goal;
}

SOKO_EXPORT("soko_game_boxes_on_start")
uint32_t soko_game_boxes_on_start(const soko_game *g)
{
    return g->boxes_on_start;
}

SOKO_EXPORT("soko_game_start")
uint32_t soko_game_start(const soko_game *g)
{
    return g->start;
}

SOKO_EXPORT("soko_game_cursor")
uint32_t soko_game_cursor(const soko_game *g)
{
    return g->cursor;
}

SOKO_EXPORT("soko_game_history_len")
uint32_t soko_game_history_len(const soko_game *g)
{
    return g->history_len;
}

/* The position's hash in two halves: JavaScript reads 32-bit numbers more
 * simply than 64-bit ones. */
SOKO_EXPORT("soko_game_hash_lo")
uint32_t soko_game_hash_lo(const soko_game *g)
{
    return (uint32_t)g->hash;
}

SOKO_EXPORT("soko_game_hash_hi")
uint32_t soko_game_hash_hi(const soko_game *g)
{
    return (uint32_t)(g->hash >> 32);
}

SOKO_EXPORT("soko_sizeof_reader")
uint32_t soko_sizeof_reader(void)
{
    return sizeof(soko_reader);
}

SOKO_EXPORT("soko_sizeof_entry")
uint32_t soko_sizeof_entry(void)
{
    return sizeof(soko_entry);
}

SOKO_EXPORT("soko_entry_board_off")
uint32_t soko_entry_board_off(const soko_entry *e)
{
    return e->board.off;
}

SOKO_EXPORT("soko_entry_board_len")
uint32_t soko_entry_board_len(const soko_entry *e)
{
    return e->board.len;
}

SOKO_EXPORT("soko_entry_board_line")
uint32_t soko_entry_board_line(const soko_entry *e)
{
    return e->board_line;
}

SOKO_EXPORT("soko_entry_title_off")
uint32_t soko_entry_title_off(const soko_entry *e)
{
    return e->title.off;
}

SOKO_EXPORT("soko_entry_title_len")
uint32_t soko_entry_title_len(const soko_entry *e)
{
    return e->title.len;
}

SOKO_EXPORT("soko_entry_author_off")
uint32_t soko_entry_author_off(const soko_entry *e)
{
    return e->author.off;
}

SOKO_EXPORT("soko_entry_author_len")
uint32_t soko_entry_author_len(const soko_entry *e)
{
    return e->author.len;
}

SOKO_EXPORT("soko_level_boxes")
uint32_t soko_level_boxes(const soko_level *l)
{
    return l->boxes;
}

SOKO_EXPORT("soko_level_player")
uint32_t soko_level_player(const soko_level *l)
{
    return l->player;
}
