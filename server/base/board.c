/* Boards as text rows. */
#include "base/board.h"

#include <string.h>

static char square(uint8_t flags, bool player)
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

/* Writes row y into out (at least width + 1 bytes); returns its length. */
static unsigned write_row(const uint8_t *cell, unsigned width, unsigned y, soko_cell player,
                          char *out)
{
    unsigned len = 0;
    for (unsigned x = 0; x < width; x++) {
        unsigned c = y * width + x;
        char ch =
            (cell[c] & SOKO_OUTSIDE) && !(cell[c] & SOKO_WALL) ? ' ' : square(cell[c], c == player);
        out[x] = ch;
        if (ch != ' ')
            len = x + 1;
    }
    out[len] = '\0';
    return len;
}

json_t *board_rows(const uint8_t *cell, unsigned width, unsigned height, soko_cell player)
{
    json_t *rows = json_array();
    char line[SOKO_MAX_WIDTH + 1];
    for (unsigned y = 0; rows != NULL && y < height; y++) {
        write_row(cell, width, y, player, line);
        if (json_array_append_new(rows, json_string(line)) != 0) {
            json_decref(rows);
            rows = NULL;
        }
    }
    return rows;
}

void board_rows_json(const uint8_t *cell, unsigned width, unsigned height, soko_cell player,
                     struct textbuf *b)
{
    /* Rows hold only # $ . * @ + and spaces: nothing to escape. */
    char *out = textbuf_room(b, (size_t)height * (width + 3) + 2);
    if (out == NULL)
        return;
    char *p = out;
    *p++ = '[';
    for (unsigned y = 0; y < height; y++) {
        if (y > 0)
            *p++ = ',';
        *p++ = '"';
        p += write_row(cell, width, y, player, p);
        *p++ = '"';
    }
    *p++ = ']';
    b->len += (size_t)(p - out);
    b->data[b->len] = '\0';
}

int board_text(const uint8_t *cell, unsigned width, unsigned height, soko_cell player, char *out,
               size_t cap)
{
    size_t n = 0;
    char line[SOKO_MAX_WIDTH + 1];
    for (unsigned y = 0; y < height; y++) {
        unsigned len = write_row(cell, width, y, player, line);
        if (n + len + 2 > cap)
            return -1;
        memcpy(out + n, line, len);
        n += len;
        out[n++] = '\n';
    }
    out[n] = '\0';
    return (int)n;
}
