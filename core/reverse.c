/* Reverse games: start squares, the end test and the forward solution. */
#include "reverse.h"

#define BLOCKS_PLAYER (SOKO_WALL | SOKO_OUTSIDE)

/* Bits of the search's byte of a square: reached, the way back to the
 * square it was reached from, and the next direction to try (4: done). */
#define SEEN 0x80u
#define HAS_BACK 0x40u
#define BACK_SHIFT 4
#define NEXT_MASK 0x07u

SOKO_EXPORT("soko_reverse_start_allowed")
bool soko_reverse_start_allowed(const soko_level *lvl, soko_cell c)
{
    if ((uint32_t)c >= (uint32_t)lvl->width * lvl->height)
        return false;
    return (lvl->cell[c] & (BLOCKS_PLAYER | SOKO_GOAL)) == 0;
}

SOKO_EXPORT("soko_reverse_default_start")
soko_cell soko_reverse_default_start(const soko_level *lvl)
{
    if (soko_reverse_start_allowed(lvl, lvl->player))
        return lvl->player;
    uint32_t n = (uint32_t)lvl->width * lvl->height;
    for (uint32_t c = 0; c < n; c++) {
        if (soko_reverse_start_allowed(lvl, (soko_cell)c))
            return (soko_cell)c;
    }
    return lvl->player;
}

/* The square next to c in direction d, or SOKO_NO_CELL off the board. */
static uint32_t next_to(uint32_t w, uint32_t h, uint32_t c, unsigned d)
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

/* Walks from square `from` over the squares of `cell` that hold no wall,
 * outside or box, marking SEEN in work (zeroed here) the squares it
 * reaches; stops early and returns true on reaching `target` (SOKO_NO_CELL:
 * never). A depth-first search that keeps its stack in the bytes of the
 * squares (the way back), as core/deadlock.c does, so that it needs no
 * queue. */
static bool search(const uint8_t *cell, uint32_t w, uint32_t h, uint32_t from, uint32_t target,
                   uint8_t *work)
{
    for (uint32_t c = 0; c < w * h; c++)
        work[c] = 0;
    if (from == target)
        return true;
    uint32_t c = from;
    work[c] = SEEN;
    for (;;) {
        unsigned d = work[c] & NEXT_MASK;
        if (d == 4) {
            if (!(work[c] & HAS_BACK))
                return false;
            c = next_to(w, h, c, (work[c] >> BACK_SHIFT) & 3u);
            continue;
        }
        work[c]++;
        uint32_t x = next_to(w, h, c, d);
        if (x == SOKO_NO_CELL || (work[x] & SEEN) || (cell[x] & (BLOCKS_PLAYER | SOKO_BOX)) != 0)
            continue;
        if (x == target)
            return true;
        work[x] = (uint8_t)(SEEN | HAS_BACK | ((d ^ 2u) << BACK_SHIFT));
        c = x;
    }
}

SOKO_EXPORT("soko_reverse_player_home")
bool soko_reverse_player_home(const soko_game *g)
{
    uint8_t work[SOKO_MAX_CELLS];
    return search(g->cell, g->level->width, g->level->height, g->player, g->level->player, work);
}

SOKO_EXPORT("soko_reverse_home_region")
void soko_reverse_home_region(const soko_level *lvl, uint8_t *bits)
{
    uint8_t work[SOKO_MAX_CELLS];
    uint32_t n = (uint32_t)lvl->width * lvl->height;
    search(lvl->cell, lvl->width, lvl->height, lvl->player, SOKO_NO_CELL, work);
    for (uint32_t c = 0; c < (n + 7) / 8; c++)
        bits[c] = 0;
    for (uint32_t c = 0; c < n; c++) {
        if (work[c] & SEEN)
            bits[c / 8] |= (uint8_t)(1u << (c % 8));
    }
}

SOKO_EXPORT("soko_reverse_forward")
int32_t soko_reverse_forward(const soko_game *g, const soko_entry_t *line, uint32_t n,
                             soko_path_scratch *s, uint8_t *dirs, uint32_t cap)
{
    if (g->rule != SOKO_RULE_REVERSE || !soko_game_solved(g))
        return SOKO_E_RANGE;
    uint32_t first_pull = n;
    for (uint32_t i = 0; i < n; i++) {
        if (line[i] == SOKO_ENTRY_RESTART)
            return SOKO_E_RANGE;
        if (first_pull == n && SOKO_ENTRY_PUSHED(line[i]) > 0)
            first_pull = i;
    }
    if (first_pull == n)
        return SOKO_E_RANGE;
    /* The walk home, found from where the player stands, then turned round
     * in place: the walk from the level's player square to here. */
    int32_t walk = soko_path_walk(g, g->level->player, s, dirs, cap);
    if (walk < 0)
        return walk;
    for (int32_t i = 0, j = walk - 1; i <= j; i++, j--) {
        uint8_t a = dirs[i], b = dirs[j];
        dirs[i] = (uint8_t)(b ^ 2u);
        dirs[j] = (uint8_t)(a ^ 2u);
    }
    uint32_t len = (uint32_t)walk;
    if (n - first_pull > cap - len)
        return SOKO_E_FULL;
    for (uint32_t i = n; i > first_pull; i--) {
        soko_entry_t e = line[i - 1];
        unsigned d = (unsigned)SOKO_ENTRY_DIR(e) ^ 2u;
        dirs[len++] = (uint8_t)(SOKO_ENTRY_PUSHED(e) > 0 ? d | SOKO_STEP_PULL : d);
    }
    return len > INT32_MAX ? SOKO_E_FULL : (int32_t)len;
}
