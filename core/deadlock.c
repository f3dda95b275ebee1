/* Deadlocks: dead squares (no goal can ever be reached from them) and frozen
 * boxes (boxes that can never move again).
 *
 * Neither function takes working memory, and the core has no heap and a
 * small stack, so both run their depth-first searches inside the caller's
 * output array: each byte holds, besides the answer taking shape, the way
 * back to the square the search came from and the next direction to try. */
#include "deadlock.h"

#define BLOCKING (SOKO_WALL | SOKO_OUTSIDE)

/* Bits of one byte of the output array while a search runs. */
#define OPEN 0x80u      /* dead_squares: not reached yet; frozen: still held */
#define HAS_BACK 0x40u  /* the search came here from a neighbour */
#define BACK_SHIFT 4    /* 2 bits: the direction back to that neighbour */
#define NEXT_MASK 0x07u /* the next direction to try, 4 when done */

/* The square next to c in direction d, or SOKO_NO_CELL off the board. */
static uint32_t neighbour(uint32_t w, uint32_t h, uint32_t c, unsigned d)
{
    uint32_t x = c % w, y = c / w;
    switch (d) {
    case SOKO_UP:
        return y == 0 ? SOKO_NO_CELL : c - w;
    case SOKO_RIGHT:
        return x + 1 == w ? SOKO_NO_CELL : c + 1;
    case SOKO_DOWN:
        return y + 1 == h ? SOKO_NO_CELL : c + w;
    default:
        return x == 0 ? SOKO_NO_CELL : c - 1;
    }
}

static bool is_floor(const uint8_t *cell, uint32_t c)
{
    return c != SOKO_NO_CELL && !(cell[c] & BLOCKING);
}

/* Starts the search's step on a square it has just reached. */
static void enter(uint8_t *work, uint32_t c, bool has_back, unsigned back)
{
    work[c] = (uint8_t)((work[c] & OPEN) | (has_back ? HAS_BACK | (back << BACK_SHIFT) : 0u));
}

/* Marks the squares from which no box reaches a square flagged `target`:
 * by pushes, or by pulls when `pulls` is set. */
static int32_t mark_dead(const soko_level *lvl, uint8_t *dead, uint8_t target, bool pulls)
{
    uint32_t w = lvl->width, h = lvl->height, n = w * h;
    const uint8_t *cell = lvl->cell;
    for (uint32_t c = 0; c < n; c++)
        dead[c] = is_floor(cell, c) ? OPEN : 0;

    /* Go back from every target: a box on y comes from x = y - d when
     * the player could have pushed it from x - d, that is when x and x - d
     * are floor; or, by a pull, when x and y + d (where the pulling player
     * ends) are floor. Boxes are ignored: they can all move out of the way. */
    for (uint32_t g = 0; g < n; g++) {
        if (!(cell[g] & target) || !(dead[g] & OPEN))
            continue;
        dead[g] &= (uint8_t)~OPEN;
        enter(dead, g, false, 0);
        uint32_t c = g;
        for (;;) {
            unsigned d = dead[c] & NEXT_MASK;
            if (d == 4) {
                if (!(dead[c] & HAS_BACK))
                    break;
                c = neighbour(w, h, c, (dead[c] >> BACK_SHIFT) & 3u);
                continue;
            }
            dead[c]++;
            uint32_t x = neighbour(w, h, c, d ^ 2u);
            uint32_t player = pulls ? neighbour(w, h, c, d) : x;
            if (!is_floor(cell, x) || !(dead[x] & OPEN) || player == SOKO_NO_CELL ||
                !is_floor(cell, pulls ? player : neighbour(w, h, x, d ^ 2u)))
                continue;
            dead[x] &= (uint8_t)~OPEN;
            enter(dead, x, true, d);
            c = x;
        }
    }

    int32_t count = 0;
    for (uint32_t c = 0; c < n; c++) {
        dead[c] = (dead[c] & OPEN) ? 1 : 0;
        count += dead[c];
    }
    return count;
}

SOKO_EXPORT("soko_deadlock_dead_squares")
int32_t soko_deadlock_dead_squares(const soko_level *lvl, uint8_t *dead)
{
    return mark_dead(lvl, dead, SOKO_GOAL, false);
}

SOKO_EXPORT("soko_deadlock_pull_dead_squares")
int32_t soko_deadlock_pull_dead_squares(const soko_level *lvl, uint8_t *dead)
{
    return mark_dead(lvl, dead, SOKO_BOX, true);
}

/* True when the square stops a box moving onto it for good: a wall, the
 * outside or off the board. */
static bool is_wall(const uint8_t *cell, uint32_t c)
{
    return c == SOKO_NO_CELL || (cell[c] & BLOCKING);
}

/* True when the box on c cannot move along the axis of direction d: a wall on
 * either side, dead squares on both, or a box still held on either side. */
static bool axis_held(const soko_game *g, const uint8_t *dead, const uint8_t *work, uint32_t c,
                      unsigned d)
{
    uint32_t w = g->level->width, h = g->level->height;
    uint32_t a = neighbour(w, h, c, d), b = neighbour(w, h, c, d ^ 2u);
    if (is_wall(g->cell, a) || is_wall(g->cell, b))
        return true;
    if (dead != NULL && dead[a] && dead[b])
        return true;
    return (work[a] & OPEN) || (work[b] & OPEN);
}

static bool held(const soko_game *g, const uint8_t *dead, const uint8_t *work, uint32_t c)
{
    return axis_held(g, dead, work, c, SOKO_UP) && axis_held(g, dead, work, c, SOKO_RIGHT);
}

/* The frozen boxes are the largest set in which every box is held on both
 * axes by walls, dead squares or other boxes of the set: no box of it can be
 * the first to move. Start from all boxes and let go of every box that is not
 * held; letting one go may free its neighbours, which a depth-first search
 * through released boxes then checks. This finds what the usual recursive
 * test (the box under test counted as a wall) finds, in linear time. */
SOKO_EXPORT("soko_deadlock_frozen")
int32_t soko_deadlock_frozen(const soko_game *g, const uint8_t *dead, uint8_t *frozen)
{
    uint32_t w = g->level->width, h = g->level->height, n = w * h;
    for (uint32_t c = 0; c < n; c++)
        frozen[c] = (g->cell[c] & SOKO_BOX) ? OPEN : 0;

    for (uint32_t start = 0; start < n; start++) {
        if (!(frozen[start] & OPEN) || held(g, dead, frozen, start))
            continue;
        frozen[start] &= (uint8_t)~OPEN;
        enter(frozen, start, false, 0);
        uint32_t c = start;
        for (;;) {
            unsigned d = frozen[c] & NEXT_MASK;
            if (d == 4) {
                if (!(frozen[c] & HAS_BACK))
                    break;
                c = neighbour(w, h, c, (frozen[c] >> BACK_SHIFT) & 3u);
                continue;
            }
            frozen[c]++;
            uint32_t nb = neighbour(w, h, c, d);
            if (nb == SOKO_NO_CELL || !(frozen[nb] & OPEN) || held(g, dead, frozen, nb))
                continue;
            frozen[nb] &= (uint8_t)~OPEN;
            enter(frozen, nb, true, d ^ 2u);
            c = nb;
        }
    }

    int32_t count = 0;
    for (uint32_t c = 0; c < n; c++) {
        frozen[c] = ((frozen[c] & OPEN) && !(g->cell[c] & SOKO_GOAL)) ? 1 : 0;
        count += frozen[c];
    }
    return count;
}
