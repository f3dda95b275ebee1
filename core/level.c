/* Levels: reading a board from text, validating it and normalising it.
 *
 * The text is decoded three times at most, never copied: once to measure
 * the board (its rows, its margin, its width), once to fill the cells, and
 * once more only when an error must name the place of a square in the
 * caller's text. Run-length counts and groups are expanded on the fly by a
 * small explicit stack, so nothing recurses. */
#include "level.h"

/* Reachability marks: one bit per square. */
#define FILL_WORDS (SOKO_MAX_CELLS / 32)
#define FILL_HAS(set, c) (((set)[(c) >> 5] >> ((c)&31u)) & 1u)
#define FILL_SET(set, c) ((set)[(c) >> 5] |= 1u << ((c)&31u))
#define FILL_CLEAR(set, c) ((set)[(c) >> 5] &= ~(1u << ((c)&31u)))
/* The fill's queue is small, to keep the stack small in core.wasm; squares
 * that do not fit wait in a bit set that is swept when the queue runs dry. */
#define FILL_QUEUE 512

/* Nesting of run-length groups beyond this is refused as a syntax error. */
#define MAX_DEPTH 16
/* Raw rows and columns (before margins are stripped) beyond which a board
 * is too big whatever its margins: it bounds the work on hostile input. */
#define RAW_LIMIT 1024
/* Decoding steps beyond which a text is refused as too big. */
#define STEP_LIMIT (1u << 22)
/* Counts above this are refused before they can overflow anything. */
#define COUNT_LIMIT 100000u

/* What the square characters mean; -1 for a byte that is not one. */
static int square_flags(char ch, bool *player)
{
    *player = false;
    switch (ch) {
    case '#':
        return SOKO_WALL;
    case ' ':
    case '-':
    case '_':
        return 0;
    case '.':
    case 'o':
        return SOKO_GOAL;
    case '$':
    case 'b':
        return SOKO_BOX;
    case '*':
    case 'B':
        return SOKO_BOX | SOKO_GOAL;
    case '@':
    case 'p':
    case 'm':
        *player = true;
        return 0;
    case '+':
    case 'P':
    case 'M':
        *player = true;
        return SOKO_GOAL;
    default:
        return -1;
    }
}

static bool is_floor_char(char ch)
{
    return ch == ' ' || ch == '-' || ch == '_';
}

static bool is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

enum walk_mode { MEASURE, FILL, LOCATE };

/* State shared by the three walks over the text. */
typedef struct walk {
    const char *text;
    uint32_t len;
    uint32_t first_line;
    int mode;
    soko_error *err;

    /* MEASURE results */
    uint32_t rows;        /* raw rows seen */
    uint32_t top, bottom; /* first and last raw row with a non-floor square */
    uint32_t margin;      /* smallest raw x of a non-floor square */
    uint32_t right;       /* largest raw x of a non-floor square, plus one */
    bool any;             /* some non-floor square was seen */
    uint32_t players;
    uint32_t player_line, player_col;
    uint32_t player2_line, player2_col;

    /* FILL target */
    soko_level *out;

    /* LOCATE target (raw row and x) and result */
    uint32_t want_row, want_x;
    uint32_t found_line, found_col;
    bool found;
} walk;

/* One group being repeated: where its body starts and how often it runs. */
typedef struct frame {
    uint32_t body;  /* offset just after '(' */
    uint32_t col;   /* the column of '(' */
    uint32_t times; /* runs left, this one included */
} frame;

/* Handles `count` copies of square `ch` at raw (row, x) from source
 * (line, col). Returns SOKO_OK, or an error code when the walk must stop
 * (LOCATE returns 1 once it has found its square). */
static int put_run(walk *w, char ch, uint32_t count, uint32_t row, uint32_t *x, uint32_t line,
                   uint32_t col)
{
    bool player;
    int flags = square_flags(ch, &player);
    if (flags < 0) {
        if ((unsigned char)ch >= 0x20 && (unsigned char)ch < 0x7F)
            return soko_error_set(w->err, SOKO_E_SYNTAX, line, col, "'%c' is not a board character",
                                  ch);
        return soko_error_set(w->err, SOKO_E_SYNTAX, line, col,
                              "byte 0x%x is not a board character", (unsigned)(unsigned char)ch);
    }
    uint32_t x0 = *x;
    if (x0 + count > RAW_LIMIT)
        return soko_error_set(w->err, SOKO_E_TOO_BIG, line, col,
                              "this row is far wider than the %d squares a board may have",
                              SOKO_MAX_WIDTH);
    *x = x0 + count;
    switch (w->mode) {
    case MEASURE:
        if (player) {
            for (uint32_t i = 0; i < count; i++) {
                w->players++;
                if (w->players == 1) {
                    w->player_line = line;
                    w->player_col = col;
                } else if (w->players == 2) {
                    w->player2_line = line;
                    w->player2_col = col;
                }
            }
        }
        if (!is_floor_char(ch)) {
            if (!w->any) {
                w->any = true;
                w->top = row;
                w->margin = x0;
                w->right = x0 + count;
            }
            w->bottom = row;
            if (x0 < w->margin)
                w->margin = x0;
            if (x0 + count > w->right)
                w->right = x0 + count;
            if (w->right - w->margin > SOKO_MAX_WIDTH)
                return soko_error_set(w->err, SOKO_E_TOO_BIG, line, col,
                                      "the board is wider than the %d squares allowed",
                                      SOKO_MAX_WIDTH);
        }
        break;
    case FILL:
        if (flags != 0 || player) {
            soko_level *lvl = w->out;
            uint32_t y = row - w->top;
            for (uint32_t i = 0; i < count; i++) {
                uint32_t c = y * lvl->width + (x0 + i - w->margin);
                lvl->cell[c] = (uint8_t)flags;
                if (player)
                    lvl->player = (soko_cell)c;
            }
        }
        break;
    case LOCATE:
        if (row == w->want_row && w->want_x >= x0 && w->want_x < x0 + count) {
            w->found = true;
            w->found_line = line;
            w->found_col = col;
            return 1;
        }
        break;
    }
    return SOKO_OK;
}

/* Called at the end of each raw row; in LOCATE mode a square past the
 * row's end is placed after the row's last character. */
static int end_row(walk *w, uint32_t row, uint32_t x, uint32_t line, uint32_t col)
{
    if (w->mode == LOCATE && row == w->want_row) {
        w->found = true;
        w->found_line = line;
        w->found_col = col + (w->want_x - x);
        return 1;
    }
    return SOKO_OK;
}

/* Decodes the whole text once, in the walk's mode. Returns SOKO_OK, 1 when
 * LOCATE stopped early, or a negative error code. */
static int decode(walk *w)
{
    const char *t = w->text;
    uint32_t len = w->len;
    uint32_t pos = 0, line = w->first_line, line_start = 0;
    uint32_t row = 0, x = 0, steps = 0;
    frame stack[MAX_DEPTH];
    int depth = 0;
    int rc;

    while (pos < len) {
        char ch = t[pos];
        uint32_t col = pos - line_start + 1;
        if (++steps > STEP_LIMIT)
            return soko_error_set(w->err, SOKO_E_TOO_BIG, line, col,
                                  "the run-length counts make this board far too big");
        if (ch == '\n' || ch == '\r') {
            if (depth > 0)
                return soko_error_set(w->err, SOKO_E_SYNTAX, line, stack[depth - 1].col,
                                      "this '(' is never closed");
            rc = end_row(w, row, x, line, col);
            if (rc != SOKO_OK)
                return rc;
            if (ch == '\r' && pos + 1 < len && t[pos + 1] == '\n')
                pos++;
            pos++;
            line++;
            line_start = pos;
            row++;
            x = 0;
            if (row > RAW_LIMIT)
                return soko_error_set(w->err, SOKO_E_TOO_BIG, line, 1,
                                      "the board has far more than the %d rows allowed",
                                      SOKO_MAX_HEIGHT);
            continue;
        }
        if (ch == '|') {
            rc = end_row(w, row, x, line, col);
            if (rc != SOKO_OK)
                return rc;
            pos++;
            row++;
            x = 0;
            if (row > RAW_LIMIT)
                return soko_error_set(w->err, SOKO_E_TOO_BIG, line, col,
                                      "the board has far more than the %d rows allowed",
                                      SOKO_MAX_HEIGHT);
            continue;
        }
        if (ch == ')') {
            if (depth == 0)
                return soko_error_set(w->err, SOKO_E_SYNTAX, line, col,
                                      "this ')' has no '(' before it");
            frame *f = &stack[depth - 1];
            if (f->body == pos)
                return soko_error_set(w->err, SOKO_E_SYNTAX, line, f->col,
                                      "this group '()' is empty");
            if (--f->times > 0) {
                pos = f->body;
            } else {
                depth--;
                pos++;
            }
            continue;
        }
        uint32_t count = 1;
        if (is_digit(ch)) {
            uint32_t n = 0;
            uint32_t digits_col = col;
            while (pos < len && is_digit(t[pos])) {
                n = n * 10 + (uint32_t)(t[pos] - '0');
                if (n > COUNT_LIMIT)
                    return soko_error_set(w->err, SOKO_E_TOO_BIG, line, digits_col,
                                          "this count is far too big for a board");
                pos++;
            }
            if (pos >= len || t[pos] == '\n' || t[pos] == '\r' || t[pos] == '|' || t[pos] == ')')
                return soko_error_set(w->err, SOKO_E_SYNTAX, line, digits_col,
                                      "the count %u has nothing after it to repeat", n);
            if (n == 0)
                return soko_error_set(w->err, SOKO_E_SYNTAX, line, digits_col,
                                      "a count of 0 repeats nothing");
            count = n;
            ch = t[pos];
            col = pos - line_start + 1;
        }
        if (ch == '(') {
            if (depth == MAX_DEPTH)
                return soko_error_set(w->err, SOKO_E_SYNTAX, line, col,
                                      "groups are nested more than %d deep", MAX_DEPTH);
            stack[depth].body = pos + 1;
            stack[depth].col = col;
            stack[depth].times = count;
            depth++;
            pos++;
            continue;
        }
        rc = put_run(w, ch, count, row, &x, line, col);
        if (rc != SOKO_OK)
            return rc;
        pos++;
    }
    if (depth > 0)
        return soko_error_set(w->err, SOKO_E_SYNTAX, line, stack[depth - 1].col,
                              "this '(' is never closed");
    w->rows = row + 1;
    return end_row(w, row, x, line, pos - line_start + 1);
}

/* The line and column in the caller's text of square c of the parsed board. */
static void locate(walk *w, const soko_level *lvl, soko_cell c, uint32_t *line, uint32_t *col)
{
    w->mode = LOCATE;
    w->found = false;
    w->want_row = w->top + c / lvl->width;
    w->want_x = w->margin + c % lvl->width;
    decode(w);
    *line = w->found ? w->found_line : w->first_line;
    *col = w->found ? w->found_col : 0;
}

/* Marks in `reach` every square of the width x height board `cell` that can
 * be reached from `start` by steps through squares without any of the flags
 * in `block` (start itself is always reached). */
static void fill(const uint8_t *cell, uint32_t width, uint32_t height, soko_cell start,
                 uint8_t block, uint32_t *reach)
{
    uint32_t pending[FILL_WORDS];
    soko_cell queue[FILL_QUEUE];
    uint32_t n = width * height, words = (n + 31) / 32;
    __builtin_memset(reach, 0, FILL_WORDS * sizeof reach[0]);
    __builtin_memset(pending, 0, words * sizeof pending[0]);
    uint32_t head = 0, tail = 0;
    bool overflow = false;
    FILL_SET(reach, start);
    queue[tail++] = start;
    for (;;) {
        while (head != tail) {
            uint32_t c = queue[head];
            head = (head + 1) % FILL_QUEUE;
            uint32_t x = c % width, y = c / width;
            uint32_t next[4];
            int k = 0;
            if (y > 0)
                next[k++] = c - width;
            if (x + 1 < width)
                next[k++] = c + 1;
            if (y + 1 < height)
                next[k++] = c + width;
            if (x > 0)
                next[k++] = c - 1;
            for (int i = 0; i < k; i++) {
                uint32_t m = next[i];
                if (FILL_HAS(reach, m) || (cell[m] & block))
                    continue;
                FILL_SET(reach, m);
                if ((tail + 1) % FILL_QUEUE != head) {
                    queue[tail] = (soko_cell)m;
                    tail = (tail + 1) % FILL_QUEUE;
                } else {
                    FILL_SET(pending, m);
                    overflow = true;
                }
            }
        }
        if (!overflow)
            return;
        overflow = false;
        for (uint32_t c = 0; c < n; c++) {
            if (!FILL_HAS(pending, c))
                continue;
            if ((tail + 1) % FILL_QUEUE == head) {
                overflow = true;
                break;
            }
            FILL_CLEAR(pending, c);
            queue[tail] = (soko_cell)c;
            tail = (tail + 1) % FILL_QUEUE;
        }
    }
}

SOKO_EXPORT("soko_level_parse")
int soko_level_parse(soko_level *out, const char *text, uint32_t len, uint32_t first_line,
                     soko_error *err)
{
    walk w;
    __builtin_memset(&w, 0, sizeof w);
    w.text = text;
    w.len = len;
    w.first_line = first_line;
    w.err = err;
    w.mode = MEASURE;
    int rc = decode(&w);
    if (rc != SOKO_OK)
        return rc;
    if (!w.any)
        return soko_error_set(err, SOKO_E_SYNTAX, first_line, 0, "the board is empty");
    uint32_t width = w.right - w.margin, height = w.bottom - w.top + 1;
    if (height > SOKO_MAX_HEIGHT)
        return soko_error_set(err, SOKO_E_TOO_BIG, first_line, 0,
                              "the board has %u rows; at most %d are allowed", height,
                              SOKO_MAX_HEIGHT);
    if (w.players == 0)
        return soko_error_set(err, SOKO_E_NO_PLAYER, first_line, 0,
                              "the board has no player ('@' or '+')");
    if (w.players > 1)
        return soko_error_set(err, SOKO_E_PLAYERS, w.player2_line, w.player2_col,
                              "a second player; the board already has one at line %u, column %u",
                              w.player_line, w.player_col);

    out->width = (uint16_t)width;
    out->height = (uint16_t)height;
    out->player = SOKO_NO_CELL;
    out->boxes = 0;
    __builtin_memset(out->cell, 0, sizeof out->cell);
    w.mode = FILL;
    w.out = out;
    rc = decode(&w);
    if (rc != SOKO_OK)
        return rc;

    uint32_t n = width * height, boxes = 0, goals = 0;
    for (uint32_t c = 0; c < n; c++) {
        boxes += (out->cell[c] & SOKO_BOX) != 0;
        goals += (out->cell[c] & SOKO_GOAL) != 0;
    }
    if (boxes == 0)
        return soko_error_set(err, SOKO_E_NO_BOXES, first_line, 0,
                              "the board has no boxes ('$' or '*')");
    if (boxes != goals)
        return soko_error_set(err, SOKO_E_BOX_GOAL_COUNT, first_line, 0,
                              "%u box%s but %u goal%s: they must be as many", boxes,
                              boxes == 1 ? "" : "es", goals, goals == 1 ? "" : "s");
    out->boxes = (uint16_t)boxes;

    /* Where the player could ever stand: boxes can move, so they do not stop it. */
    uint32_t reach[FILL_WORDS];
    fill(out->cell, out->width, out->height, out->player, SOKO_WALL, reach);
    for (uint32_t y = 0; y < height; y++) {
        for (uint32_t x = 0; x < width; x++) {
            uint32_t c = y * width + x;
            bool edge = x == 0 || y == 0 || x == width - 1 || y == height - 1;
            if (edge && FILL_HAS(reach, c)) {
                uint32_t line, col;
                locate(&w, out, (soko_cell)c, &line, &col);
                return soko_error_set(err, SOKO_E_OPEN, line, col,
                                      "the board is not closed: the player can walk off it here");
            }
        }
    }
    for (uint32_t c = 0; c < n; c++) {
        uint8_t f = out->cell[c];
        if ((f & SOKO_WALL) || FILL_HAS(reach, c))
            continue;
        if ((f & SOKO_BOX) && !(f & SOKO_GOAL)) {
            uint32_t line, col;
            locate(&w, out, (soko_cell)c, &line, &col);
            return soko_error_set(err, SOKO_E_UNREACHABLE_BOX, line, col,
                                  "this box is not on a goal and the player can never reach it");
        }
        out->cell[c] = (uint8_t)(f | SOKO_OUTSIDE);
    }
    return SOKO_OK;
}

SOKO_EXPORT("soko_level_solved")
bool soko_level_solved(const soko_level *lvl)
{
    uint32_t n = (uint32_t)lvl->width * lvl->height;
    for (uint32_t c = 0; c < n; c++) {
        if ((lvl->cell[c] & (SOKO_BOX | SOKO_GOAL)) == SOKO_BOX)
            return false;
    }
    return true;
}

SOKO_EXPORT("soko_level_neighbour")
soko_cell soko_level_neighbour(const soko_level *lvl, soko_cell c, int d)
{
    uint32_t w = lvl->width, h = lvl->height;
    if (c == SOKO_NO_CELL || c >= w * h)
        return SOKO_NO_CELL;
    uint32_t x = c % w, y = c / w;
    switch (d) {
    case SOKO_UP:
        return y == 0 ? SOKO_NO_CELL : (soko_cell)(c - w);
    case SOKO_RIGHT:
        return x + 1 == w ? SOKO_NO_CELL : (soko_cell)(c + 1);
    case SOKO_DOWN:
        return y + 1 == h ? SOKO_NO_CELL : (soko_cell)(c + w);
    case SOKO_LEFT:
        return x == 0 ? SOKO_NO_CELL : (soko_cell)(c - 1);
    default:
        return SOKO_NO_CELL;
    }
}

/* The standard character of a square, or 0 for the outside. */
static char square_char(const soko_level *lvl, uint32_t c, bool rle)
{
    uint8_t f = lvl->cell[c];
    if (f & SOKO_WALL)
        return '#';
    if (c == lvl->player)
        return (f & SOKO_GOAL) ? '+' : '@';
    if ((f & (SOKO_BOX | SOKO_GOAL)) == (SOKO_BOX | SOKO_GOAL))
        return '*';
    if (f & SOKO_BOX)
        return '$';
    if (f & SOKO_GOAL)
        return '.';
    if (f & SOKO_OUTSIDE)
        return 0;
    return rle ? '-' : ' ';
}

/* Appends one byte, counting it even when it does not fit. */
static void emit(char *out, uint32_t cap, uint32_t *n, char ch)
{
    if (*n < cap)
        out[*n] = ch;
    (*n)++;
}

SOKO_EXPORT("soko_level_write")
int32_t soko_level_write(const soko_level *lvl, bool rle, char *out, uint32_t cap)
{
    uint32_t w = lvl->width, n = 0;
    char floor = rle ? '-' : ' ';
    for (uint32_t y = 0; y < lvl->height; y++) {
        uint32_t end = w;
        while (end > 0 && square_char(lvl, y * w + end - 1, rle) == 0)
            end--;
        if (end == 0) /* an empty row must still be a row */
            emit(out, cap, &n, '-');
        for (uint32_t x = 0; x < end;) {
            char ch = square_char(lvl, y * w + x, rle);
            uint32_t run = 1;
            if (ch == 0)
                ch = floor;
            if (rle) {
                while (x + run < end) {
                    char next = square_char(lvl, y * w + x + run, rle);
                    if ((next == 0 ? floor : next) != ch)
                        break;
                    run++;
                }
                if (run > 1) {
                    char digits[8];
                    int k = 0;
                    for (uint32_t r = run; r > 0; r /= 10)
                        digits[k++] = (char)('0' + r % 10);
                    while (k > 0)
                        emit(out, cap, &n, digits[--k]);
                }
            }
            emit(out, cap, &n, ch);
            x += run;
        }
        if (!rle || y + 1 == lvl->height)
            emit(out, cap, &n, '\n');
        else
            emit(out, cap, &n, '|');
    }
    if (n >= cap || n > INT32_MAX)
        return SOKO_E_FULL;
    out[n] = '\0';
    return (int32_t)n;
}

SOKO_EXPORT("soko_level_canonical_hash")
uint64_t soko_level_canonical_hash(const soko_level *lvl)
{
    uint32_t w = lvl->width, h = lvl->height;
    /* The player's start matters only up to the area it can walk to. */
    uint32_t zone[FILL_WORDS];
    fill(lvl->cell, w, h, lvl->player, SOKO_WALL | SOKO_BOX, zone);

    /* The puzzle is the inside (walls and the outside around it do not
     * matter): crop to the inside's bounding box. */
    uint32_t x0 = w, x1 = 0, y0 = h, y1 = 0;
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            if (lvl->cell[y * w + x] & (SOKO_WALL | SOKO_OUTSIDE))
                continue;
            x0 = x < x0 ? x : x0;
            x1 = x > x1 ? x : x1;
            y0 = y < y0 ? y : y0;
            y1 = y > y1 ? y : y1;
        }
    }
    if (x0 > x1)
        return soko_mix64(0);
    uint32_t bw = x1 - x0 + 1, bh = y1 - y0 + 1;

    /* Hash the cropped board as seen in each of the eight symmetries, row
     * by row, and keep the smallest hash. */
    uint64_t best = UINT64_MAX;
    for (int t = 0; t < 8; t++) {
        bool transpose = (t & 4) != 0;
        uint32_t tw = transpose ? bh : bw, th = transpose ? bw : bh;
        uint64_t hash = soko_mix64(((uint64_t)tw << 32) | th);
        for (uint32_t v = 0; v < th; v++) {
            for (uint32_t u = 0; u < tw; u++) {
                uint32_t a = (t & 1) ? tw - 1 - u : u;
                uint32_t b = (t & 2) ? th - 1 - v : v;
                uint32_t x = x0 + (transpose ? b : a), y = y0 + (transpose ? a : b);
                uint32_t c = y * w + x;
                uint8_t f = lvl->cell[c];
                uint64_t code = 0;
                if (!(f & (SOKO_WALL | SOKO_OUTSIDE))) {
                    code = 1u | ((f & SOKO_GOAL) ? 2u : 0u) | ((f & SOKO_BOX) ? 4u : 0u) |
                           (FILL_HAS(zone, c) ? 8u : 0u);
                }
                hash = soko_mix64(hash ^ code);
            }
        }
        if (hash < best)
            best = hash;
    }
    return best;
}
