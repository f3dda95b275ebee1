#include "level_util.h"

#include <stdlib.h>

soko_level *level_from_text(const char *text)
{
    soko_level *lvl = malloc(sizeof *lvl);
    soko_error err = {0};
    int rc = soko_level_parse(lvl, text, (uint32_t)strlen(text), 1, &err);
    if (rc != SOKO_OK) {
        check_fail(__FILE__, __LINE__, "level does not parse (%s at %u:%u: %s):\n%s",
                   soko_error_name(rc), err.line, err.col, err.message, text);
        free(lvl);
        return NULL;
    }
    return lvl;
}

static char square_char(uint8_t flags, bool player)
{
    if (flags & SOKO_WALL)
        return '#';
    if (player)
        return (flags & SOKO_GOAL) ? '+' : '@';
    if (flags & SOKO_BOX)
        return (flags & SOKO_GOAL) ? '*' : '$';
    if (flags & SOKO_GOAL)
        return '.';
    return ' ';
}

char *position_text(const soko_level *lvl, const uint8_t *cell, soko_cell player, char *out,
                    size_t cap)
{
    size_t n = 0;
    if (cap == 0)
        return out;
    for (uint32_t y = 0; y < lvl->height; y++) {
        for (uint32_t x = 0; x < lvl->width; x++) {
            uint32_t c = y * lvl->width + x;
            if (n + 1 < cap)
                out[n++] = square_char(cell[c], c == player);
        }
        if (n + 1 < cap)
            out[n++] = '\n';
    }
    out[n] = '\0';
    return out;
}

char *game_text(const soko_game *g, char *out, size_t cap)
{
    return position_text(g->level, g->cell, g->player, out, cap);
}

char *history_text(const soko_game *g, char *out, size_t cap)
{
    size_t n = 0;
    if (cap == 0)
        return out;
    for (uint32_t i = 0; i <= g->history_len && n + 1 < cap; i++) {
        if (i == g->cursor && g->cursor != g->history_len)
            out[n++] = '|';
        if (i == g->history_len || n + 1 >= cap)
            break;
        soko_entry_t e = g->history[i];
        out[n++] = e == SOKO_ENTRY_RESTART
                       ? '!'
                       : soko_lurd_letter(SOKO_ENTRY_DIR(e), SOKO_ENTRY_PUSHED(e) > 0);
    }
    out[n] = '\0';
    return out;
}

void note_game(const char *label, const soko_game *g)
{
    static char board[SOKO_MAX_CELLS + SOKO_MAX_HEIGHT + 1];
    static char history[2048];
    note("%s: player %u, moves %" PRIu32 ", pushes %" PRIu32 ", boxes on goal %u, hash %016" PRIx64
         ", history %s",
         label, g->player, g->moves, g->pushes, g->boxes_on_goal, g->hash,
         history_text(g, history, sizeof history));
    note("%s", game_text(g, board, sizeof board));
}

int play_lurd(soko_game *g, const char *lurd, uint32_t *failed)
{
    size_t len = strlen(lurd);
    uint8_t *steps = malloc(len * 64 + 1);
    soko_error err = {0};
    int32_t n = soko_lurd_decode(lurd, (uint32_t)len, 1, steps, (uint32_t)(len * 64), &err);
    if (n < 0) {
        free(steps);
        return n;
    }
    uint32_t at = 0;
    int rc = soko_lurd_play(g, steps, (uint32_t)n, &at);
    if (failed != NULL)
        *failed = at;
    free(steps);
    return rc;
}

const char *span_text(const char *text, soko_span s)
{
    static char buf[8][512];
    static unsigned k;
    char *b = buf[k++ % 8];
    size_t n = s.len < sizeof buf[0] - 1 ? s.len : sizeof buf[0] - 1;
    memcpy(b, text + s.off, n);
    b[n] = '\0';
    return b;
}

int ref_step(const soko_level *l, int c, int d)
{
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    int w = (int)l->width, h = (int)l->height, x = c % w + dx[d], y = c / w + dy[d];
    return x < 0 || y < 0 || x >= w || y >= h ? -1 : y * w + x;
}

bool ref_floor(const soko_level *l, int c)
{
    return c >= 0 && !(l->cell[c] & (SOKO_WALL | SOKO_OUTSIDE));
}

soko_level *shared_level(const char *file, uint32_t number)
{
    size_t len;
    char *text = read_file(shared_path(file), &len);
    if (text == NULL)
        return NULL;
    static soko_reader reader;
    static soko_entry entry;
    soko_reader_init(&reader, text, (uint32_t)len);
    while (soko_reader_next(&reader, &entry) == 1) {
        if (entry.number != number)
            continue;
        soko_level *lvl = malloc(sizeof *lvl);
        soko_error err;
        int rc =
            soko_level_parse(lvl, text + entry.board.off, entry.board.len, entry.board_line, &err);
        free(text);
        if (rc == SOKO_OK)
            return lvl;
        free(lvl);
        check_fail(__FILE__, __LINE__, "%s level %u does not parse", file, number);
        return NULL;
    }
    free(text);
    check_fail(__FILE__, __LINE__, "%s level %u not found", file, number);
    return NULL;
}
