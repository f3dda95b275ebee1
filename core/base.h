/* Shared definitions of the sokod core: sizes, squares, directions, errors.
 *
 * The core is freestanding C11: it calls no libc function, allocates nothing
 * and keeps no mutable global state. Every structure is sized by the
 * compile-time maximums below and owned by the caller. The same inputs give
 * the same outputs bit for bit in the native build and in core.wasm. */
#ifndef SOKO_BASE_H
#define SOKO_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest board the core accepts: 128 columns by 128 rows. */
#define SOKO_MAX_WIDTH 128
#define SOKO_MAX_HEIGHT 128
#define SOKO_MAX_CELLS (SOKO_MAX_WIDTH * SOKO_MAX_HEIGHT)

/* A cell index is y * width + x, with the width of the level it belongs to. */
typedef uint16_t soko_cell;
#define SOKO_NO_CELL ((soko_cell)0xFFFF)

/* Flags of one square. A square with none of them is floor. */
enum {
    SOKO_WALL = 1u << 0,
    SOKO_GOAL = 1u << 1,
    SOKO_BOX = 1u << 2,
    SOKO_OUTSIDE = 1u << 3, /* not a wall, but the player can never stand there */
};

/* Directions, clockwise from up, so that the opposite of d is d ^ 2. */
enum { SOKO_UP = 0, SOKO_RIGHT = 1, SOKO_DOWN = 2, SOKO_LEFT = 3 };

/* Rules a game can be played under. */
enum {
    SOKO_RULE_STANDARD = 0,  /* a push moves one box; a box in front of it blocks */
    SOKO_RULE_MULTIPUSH = 1, /* a push moves the whole line of boxes in front of the player */
    SOKO_RULE_REVERSE = 2    /* from the boxes on goals, the player pulls them back to the start */
};

/* A piece of a caller's text: `len` bytes from offset `off`. */
typedef struct soko_span {
    uint32_t off;
    uint32_t len;
} soko_span;

/* Error codes. Every failing core function returns one of these (negative)
 * and, where it takes a soko_error, fills it with a located message. */
enum {
    SOKO_OK = 0,
    SOKO_E_SYNTAX = -1,          /* text that is not what it should be */
    SOKO_E_TOO_BIG = -2,         /* beyond SOKO_MAX_WIDTH / SOKO_MAX_HEIGHT */
    SOKO_E_NO_PLAYER = -3,       /* a board without a player */
    SOKO_E_PLAYERS = -4,         /* a board with more than one player */
    SOKO_E_NO_BOXES = -5,        /* a board without boxes */
    SOKO_E_BOX_GOAL_COUNT = -6,  /* boxes and goals differ in number */
    SOKO_E_OPEN = -7,            /* the player can walk off the board */
    SOKO_E_UNREACHABLE_BOX = -8, /* a box off goal that the player can never reach */
    SOKO_E_WALL = -9,            /* a step into a wall */
    SOKO_E_BLOCKED = -10,        /* a push against a wall or another box */
    SOKO_E_FULL = -11,           /* a caller's buffer is too small */
    SOKO_E_NOTHING = -12,        /* nothing to undo, nothing to redo */
    SOKO_E_RANGE = -13,          /* a square outside the board, or an argument out of range */
    SOKO_E_NO_PATH = -14,        /* no way to get there */
};

/* Where an error was found, in the caller's text (1-based line and column;
 * 0 when it has no place), and what is wrong, in words for a level author. */
typedef struct soko_error {
    int code;
    uint32_t line;
    uint32_t col;
    char message[160];
} soko_error;

/* A short English name of an error code, such as "wall" or "blocked". Never NULL. */
const char *soko_error_name(int code);

/* Fills *err (when err is not NULL) with code, place and a message formatted
 * like printf with only %s, %d, %u and %c; returns code. The message is
 * always NUL-terminated and cut to fit. */
int soko_error_set(soko_error *err, int code, uint32_t line, uint32_t col, const char *fmt, ...);

/* Bounded formatting for the core (no libc): %s, %d, %u, %c, %x and %%.
 * Writes at most cap - 1 bytes and a NUL; returns the length it wanted. */
uint32_t soko_format(char *out, uint32_t cap, const char *fmt, ...);

/* The 64-bit mixer behind Zobrist keys and canonical hashes (splitmix64). */
uint64_t soko_mix64(uint64_t x);

/* Marks a function as an export of core.wasm under its own name. */
#if defined(__wasm__)
#define SOKO_EXPORT(name) __attribute__((export_name(name)))
#else
#define SOKO_EXPORT(name)
#endif

#endif
