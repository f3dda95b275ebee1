/* The generator's rooms: floor plans carved in an area, in four styles, and
 * the pseudo-random numbers that choose them. */
#include "gen_internal.h"

#include <string.h>

void gen_rng_seed(gen_rng *r, uint64_t seed)
{
    r->state = seed ^ 0x5A0C0D5EEDull;
}

uint64_t gen_rng_next(gen_rng *r)
{
    r->state += 0x9E3779B97F4A7C15ull;
    uint64_t x = r->state;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

uint32_t gen_rng_below(gen_rng *r, uint32_t n)
{
    return (uint32_t)(gen_rng_next(r) % n);
}

uint32_t gen_rng_range(gen_rng *r, uint32_t lo, uint32_t hi)
{
    return hi <= lo ? lo : lo + gen_rng_below(r, hi - lo + 1);
}

/* True for a cell strictly inside the outer ring. */
static bool inner(const gen_room *room, int x, int y)
{
    return x >= 1 && y >= 1 && x < room->width - 1 && y < room->height - 1;
}

/* Keeps the largest 4-connected floor area and walls the rest; returns its
 * size. Ties go to the area found first, scanning rows from the top. */
static uint32_t keep_largest(gen_room *room)
{
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    uint16_t label[GEN_MAX_CELLS];
    uint16_t queue[GEN_MAX_CELLS];
    uint32_t n = (uint32_t)room->width * room->height;
    uint16_t best = 0, next = 0;
    uint32_t best_size = 0;
    memset(label, 0, n * sizeof label[0]);
    for (uint32_t c = 0; c < n; c++) {
        if (!room->floor[c] || label[c] != 0)
            continue;
        next++;
        uint32_t head = 0, tail = 0;
        queue[tail++] = (uint16_t)c;
        label[c] = next;
        while (head < tail) {
            uint16_t at = queue[head++];
            int x = at % room->width, y = at / room->width;
            for (int d = 0; d < 4; d++) {
                int nx = x + dx[d], ny = y + dy[d];
                if (!inner(room, nx, ny))
                    continue;
                uint32_t nc = (uint32_t)ny * room->width + (uint32_t)nx;
                if (room->floor[nc] && label[nc] == 0) {
                    label[nc] = next;
                    queue[tail++] = (uint16_t)nc;
                }
            }
        }
        if (tail > best_size) {
            best_size = tail;
            best = next;
        }
    }
    for (uint32_t c = 0; c < n; c++)
        room->floor[c] = room->floor[c] && label[c] == best;
    return best_size;
}

/* Counts the floor areas; used to refuse a wall piece that would cut one. */
static bool connected(const gen_room *room)
{
    gen_room copy = *room;
    uint32_t total = 0;
    for (uint32_t c = 0; c < (uint32_t)room->width * room->height; c++)
        total += room->floor[c];
    return keep_largest(&copy) == total;
}

static void set_floor(gen_room *room, int x, int y, uint8_t v)
{
    if (inner(room, x, y))
        room->floor[y * room->width + x] = v;
}

/* Wall pieces: a pillar, bars of two and three, and an L, as offsets. */
static const int8_t pieces[][3][2] = {
    {{0, 0}, {0, 0}, {0, 0}}, {{0, 0}, {1, 0}, {1, 0}}, {{0, 0}, {0, 1}, {0, 1}},
    {{0, 0}, {1, 0}, {2, 0}}, {{0, 0}, {0, 1}, {0, 2}}, {{0, 0}, {1, 0}, {1, 1}},
    {{0, 0}, {0, 1}, {1, 1}}, {{1, 0}, {0, 1}, {1, 1}},
};

/* Drops `count` wall pieces on floor where they keep the floor connected. */
static void add_pieces(gen_room *room, gen_rng *r, uint32_t count)
{
    int npieces = (int)(sizeof pieces / sizeof pieces[0]);
    for (uint32_t i = 0; i < count; i++) {
        int p = (int)gen_rng_below(r, (uint32_t)npieces);
        int x = (int)gen_rng_range(r, 1, room->width - 2u);
        int y = (int)gen_rng_range(r, 1, room->height - 2u);
        uint8_t saved[3];
        for (int k = 0; k < 3; k++) {
            int px = x + pieces[p][k][0], py = y + pieces[p][k][1];
            saved[k] = inner(room, px, py) ? room->floor[py * room->width + px] : 0;
        }
        for (int k = 0; k < 3; k++)
            set_floor(room, x + pieces[p][k][0], y + pieces[p][k][1], 0);
        if (!connected(room)) {
            for (int k = 2; k >= 0; k--)
                set_floor(room, x + pieces[p][k][0], y + pieces[p][k][1], saved[k]);
        }
    }
}

static uint32_t interior(const gen_room *room)
{
    return (uint32_t)(room->width - 2) * (uint32_t)(room->height - 2);
}

static void carve_open(gen_room *room, gen_rng *r)
{
    for (int y = 1; y < room->height - 1; y++)
        for (int x = 1; x < room->width - 1; x++)
            set_floor(room, x, y, 1);
    add_pieces(room, r, interior(room) / gen_rng_range(r, 5, 8));
}

static void carve_rooms(gen_room *room, gen_rng *r)
{
    int iw = room->width - 2, ih = room->height - 2;
    uint32_t n = gen_rng_range(r, 2, 4);
    int cx = 1 + iw / 2, cy = 1 + ih / 2;
    for (uint32_t i = 0; i < n; i++) {
        int w = (int)gen_rng_range(r, 3, (uint32_t)(iw * 2 / 3 > 3 ? iw * 2 / 3 : 3));
        int h = (int)gen_rng_range(r, 2, (uint32_t)(ih * 2 / 3 > 2 ? ih * 2 / 3 : 2));
        /* Each room covers the point the previous one was grown from, so
         * that they overlap. */
        int x0 = cx - (int)gen_rng_below(r, (uint32_t)w);
        int y0 = cy - (int)gen_rng_below(r, (uint32_t)h);
        for (int y = y0; y < y0 + h; y++)
            for (int x = x0; x < x0 + w; x++)
                set_floor(room, x, y, 1);
        cx = (int)gen_rng_range(r, (uint32_t)(x0 < 1 ? 1 : x0),
                                (uint32_t)(x0 + w - 1 > iw ? iw : x0 + w - 1));
        cy = (int)gen_rng_range(r, (uint32_t)(y0 < 1 ? 1 : y0),
                                (uint32_t)(y0 + h - 1 > ih ? ih : y0 + h - 1));
    }
    add_pieces(room, r, interior(room) / gen_rng_range(r, 10, 16));
}

static void carve_cave(gen_room *room, gen_rng *r)
{
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    int x = 1 + (room->width - 2) / 2, y = 1 + (room->height - 2) / 2;
    uint32_t want = interior(room) * gen_rng_range(r, 45, 62) / 100, have = 0;
    int d = (int)gen_rng_below(r, 4);
    for (uint32_t steps = 0; have < want && steps < interior(room) * 40; steps++) {
        if (!room->floor[y * room->width + x]) {
            room->floor[y * room->width + x] = 1;
            have++;
        }
        /* Keep going straight more often than turning: corridors and halls
         * rather than noise. */
        if (gen_rng_below(r, 3) == 0)
            d = (int)gen_rng_below(r, 4);
        int nx = x + dx[d], ny = y + dy[d];
        if (inner(room, nx, ny)) {
            x = nx;
            y = ny;
        } else {
            d = (int)gen_rng_below(r, 4);
        }
    }
}

/* 3x3 tiles of the tiles style, one bit per cell (bit 8 - (y * 3 + x)),
 * set for wall: open, corners, bars, a pillar, corridors. */
static const uint16_t tiles[] = {
    0x000, 0x000, 0x000, 0x100, 0x010, 0x1C0, 0x180, 0x090, 0x1E4, 0x038, 0x101,
};

static void carve_tiles(gen_room *room, gen_rng *r)
{
    int ntiles = (int)(sizeof tiles / sizeof tiles[0]);
    for (int ty = 1; ty < room->height - 1; ty += 3) {
        for (int tx = 1; tx < room->width - 1; tx += 3) {
            uint16_t t = tiles[gen_rng_below(r, (uint32_t)ntiles)];
            int turn = (int)gen_rng_below(r, 4);
            for (int y = 0; y < 3; y++) {
                for (int x = 0; x < 3; x++) {
                    int sx = x, sy = y;
                    for (int k = 0; k < turn; k++) {
                        int t2 = sx;
                        sx = 2 - sy;
                        sy = t2;
                    }
                    bool wall = (t >> (8 - (sy * 3 + sx))) & 1u;
                    set_floor(room, tx + x, ty + y, wall ? 0 : 1);
                }
            }
        }
    }
}

uint32_t gen_room_carve(gen_room *room, gen_rng *r, uint16_t width, uint16_t height, int shape)
{
    memset(room, 0, sizeof *room);
    room->width = width;
    room->height = height;
    room->shape = (uint8_t)shape;
    switch (shape) {
    case GEN_SHAPE_OPEN:
        carve_open(room, r);
        break;
    case GEN_SHAPE_ROOMS:
        carve_rooms(room, r);
        break;
    case GEN_SHAPE_CAVE:
        carve_cave(room, r);
        break;
    default:
        carve_tiles(room, r);
        break;
    }
    return keep_largest(room);
}
