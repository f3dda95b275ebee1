/* Errors, bounded formatting and hashing shared by the core's modules. */
#include "base.h"

#include <stdarg.h>

SOKO_EXPORT("soko_error_name")
const char *soko_error_name(int code)
{
    switch (code) {
    case SOKO_OK:
        return "ok";
    case SOKO_E_SYNTAX:
        return "syntax";
    case SOKO_E_TOO_BIG:
        return "too_big";
    case SOKO_E_NO_PLAYER:
        return "no_player";
    case SOKO_E_PLAYERS:
        return "players";
    case SOKO_E_NO_BOXES:
        return "no_boxes";
    case SOKO_E_BOX_GOAL_COUNT:
        return "box_goal_count";
    case SOKO_E_OPEN:
        return "open";
    case SOKO_E_UNREACHABLE_BOX:
        return "unreachable_box";
    case SOKO_E_WALL:
        return "wall";
    case SOKO_E_BLOCKED:
        return "blocked";
    case SOKO_E_FULL:
        return "full";
    case SOKO_E_NOTHING:
        return "nothing";
    case SOKO_E_RANGE:
        return "range";
    case SOKO_E_NO_PATH:
        return "no_path";
    default:
        return "unknown";
    }
}

/* Appends one byte if there is room; always counts it. */
static void put(char *out, uint32_t cap, uint32_t *n, char c)
{
    if (*n + 1 < cap)
        out[*n] = c;
    (*n)++;
}

static void put_unsigned(char *out, uint32_t cap, uint32_t *n, uint64_t v, unsigned base)
{
    char digits[24];
    int k = 0;
    do {
        digits[k++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v != 0);
    while (k > 0)
        put(out, cap, n, digits[--k]);
}

static uint32_t vformat(char *out, uint32_t cap, const char *fmt, va_list ap)
{
    uint32_t n = 0;
    for (const char *p = fmt; *p != '\0'; p++) {
        if (*p != '%' || p[1] == '\0') {
            put(out, cap, &n, *p);
            continue;
        }
        p++;
        switch (*p) {
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (s == NULL)
                s = "(null)";
            while (*s != '\0')
                put(out, cap, &n, *s++);
            break;
        }
        case 'd': {
            int v = va_arg(ap, int);
            uint64_t mag = v < 0 ? (uint64_t)(-(int64_t)v) : (uint64_t)v;
            if (v < 0)
                put(out, cap, &n, '-');
            put_unsigned(out, cap, &n, mag, 10);
            break;
        }
        case 'u':
            put_unsigned(out, cap, &n, va_arg(ap, unsigned), 10);
            break;
        case 'x':
            put_unsigned(out, cap, &n, va_arg(ap, unsigned), 16);
            break;
        case 'c':
            put(out, cap, &n, (char)va_arg(ap, int));
            break;
        default:
            put(out, cap, &n, *p);
            break;
        }
    }
    if (cap > 0)
        out[n < cap ? n : cap - 1] = '\0';
    return n;
}

uint32_t soko_format(char *out, uint32_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    uint32_t n = vformat(out, cap, fmt, ap);
    va_end(ap);
    return n;
}

int soko_error_set(soko_error *err, int code, uint32_t line, uint32_t col, const char *fmt, ...)
{
    if (err == NULL)
        return code;
    err->code = code;
    err->line = line;
    err->col = col;
    va_list ap;
    va_start(ap, fmt);
    vformat(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return code;
}

uint64_t soko_mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
