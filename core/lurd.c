/* LURD notation: decoding (with run-length counts and nested groups),
 * playing decoded steps on a game, and writing a game's steps back out. */
#include "lurd.h"

/* Groups nest at most this deep; real files nest two or three levels. */
#define MAX_DEPTH 32

/* Counts saturate here: far beyond any cap, and small enough that no
 * arithmetic on them can overflow. */
#define COUNT_LIMIT 0xFFFFFFFFull

/* An open group: where its output starts, how often it repeats, and where
 * its '(' stands for the error if it is never closed. */
typedef struct group {
    uint32_t out_start;
    uint64_t count;
    uint32_t line;
    uint32_t col;
} group;

/* The step of a letter, or -1 when it is not a move. */
static int step_of(char c)
{
    switch (c) {
    case 'u':
        return SOKO_UP;
    case 'r':
        return SOKO_RIGHT;
    case 'd':
        return SOKO_DOWN;
    case 'l':
        return SOKO_LEFT;
    case 'U':
        return SOKO_UP | SOKO_LURD_PUSH;
    case 'R':
        return SOKO_RIGHT | SOKO_LURD_PUSH;
    case 'D':
        return SOKO_DOWN | SOKO_LURD_PUSH;
    case 'L':
        return SOKO_LEFT | SOKO_LURD_PUSH;
    default:
        return -1;
    }
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int32_t too_many(soko_error *err, uint32_t line, uint32_t col, uint32_t cap)
{
    return soko_error_set(err, SOKO_E_FULL, line, col, "the moves expand to more than %u steps",
                          cap);
}

/* Groups are expanded by copying the output of their first pass, so the work
 * is bounded by the text's length plus the steps written, and no count can
 * make the decoder loop for long: output past cap is refused before a copy. */
SOKO_EXPORT("soko_lurd_decode")
int32_t soko_lurd_decode(const char *text, uint32_t len, uint32_t first_line, uint8_t *steps,
                         uint32_t cap, soko_error *err)
{
    group stack[MAX_DEPTH];
    uint32_t depth = 0;
    uint32_t n = 0;
    uint32_t line = first_line, col = 1;
    if (cap > INT32_MAX)
        cap = INT32_MAX;
    if (steps == NULL)
        cap = 0;

    uint32_t i = 0;
    while (i < len) {
        char c = text[i];
        if (c == '\n') {
            line++;
            col = 1;
            i++;
            continue;
        }
        if (is_blank(c)) {
            col++;
            i++;
            continue;
        }
        uint32_t count_col = col;
        uint64_t count = 1;
        bool counted = false;
        if (is_digit(c)) {
            count = 0;
            while (i < len && is_digit(text[i])) {
                count = count * 10 + (uint64_t)(text[i] - '0');
                if (count > COUNT_LIMIT)
                    count = COUNT_LIMIT;
                i++;
                col++;
            }
            counted = true;
            if (i == len)
                return soko_error_set(err, SOKO_E_SYNTAX, line, count_col,
                                      "the count at the end has nothing to repeat");
            c = text[i];
            if (count == 0)
                return soko_error_set(err, SOKO_E_SYNTAX, line, count_col,
                                      "a count of 0 repeats nothing");
        }
        if (c == '(') {
            if (depth == MAX_DEPTH)
                return soko_error_set(err, SOKO_E_SYNTAX, line, col,
                                      "groups are nested more than %u deep", MAX_DEPTH);
            stack[depth].out_start = n;
            stack[depth].count = count;
            stack[depth].line = line;
            stack[depth].col = col;
            depth++;
        } else if (c == ')' && !counted) {
            if (depth == 0)
                return soko_error_set(err, SOKO_E_SYNTAX, line, col,
                                      "')' closes a group that was never opened");
            depth--;
            uint32_t body = n - stack[depth].out_start;
            if (body > 0 && stack[depth].count > 1) {
                if (stack[depth].count - 1 > (cap - n) / body)
                    return too_many(err, line, col, cap);
                for (uint64_t k = 1; k < stack[depth].count; k++) {
                    __builtin_memcpy(steps + n, steps + stack[depth].out_start, body);
                    n += body;
                }
            }
        } else {
            int step = step_of(c);
            if (step < 0 && counted)
                return soko_error_set(err, SOKO_E_SYNTAX, line, count_col,
                                      "a count must be followed by a move or a '('");
            if (step < 0)
                return soko_error_set(err, SOKO_E_SYNTAX, line, col,
                                      "'%c' is not a move: moves are l u r d, pushes L U R D", c);
            if (count > cap - n)
                return too_many(err, line, col, cap);
            for (uint64_t k = 0; k < count; k++)
                steps[n++] = (uint8_t)step;
        }
        i++;
        col++;
    }
    if (depth > 0)
        return soko_error_set(err, SOKO_E_SYNTAX, stack[depth - 1].line, stack[depth - 1].col,
                              "this '(' is never closed");
    return (int32_t)n;
}

SOKO_EXPORT("soko_lurd_play")
int soko_lurd_play(soko_game *g, const uint8_t *steps, uint32_t n, uint32_t *failed)
{
    for (uint32_t i = 0; i < n; i++) {
        int rc = soko_game_play(g, steps[i]);
        if (rc < 0) {
            *failed = i;
            return rc;
        }
    }
    *failed = n;
    return SOKO_OK;
}

SOKO_EXPORT("soko_lurd_encode")
int32_t soko_lurd_encode(const soko_game *g, char *out, uint32_t cap)
{
    uint32_t from = g->cursor;
    while (from > 0 && g->history[from - 1] != SOKO_ENTRY_RESTART)
        from--;
    uint32_t n = g->cursor - from;
    if (n > cap || n > INT32_MAX)
        return SOKO_E_FULL;
    for (uint32_t i = 0; i < n; i++) {
        soko_entry_t e = g->history[from + i];
        out[i] = soko_lurd_letter(SOKO_ENTRY_DIR(e), SOKO_ENTRY_PUSHED(e) > 0);
    }
    return (int32_t)n;
}

SOKO_EXPORT("soko_lurd_letter")
char soko_lurd_letter(int d, bool push)
{
    if (d < SOKO_UP || d > SOKO_LEFT)
        return '?';
    return push ? "URDL"[d] : "urdl"[d];
}
