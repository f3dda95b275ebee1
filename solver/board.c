/* The board the search works on: squares and neighbours, goals, push
 * distances that take the player's side of the box into account, dead
 * squares, Zobrist keys and the packing of box sets into table keys. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* More boxes than this and the matching's sums could overflow its margins. */
#define MAX_BOXES 2000

static uint16_t neighbour_cell(const soko_level *lvl, uint32_t c, int d)
{
    soko_cell n = soko_level_neighbour(lvl, (soko_cell)c, d);
    return n;
}

static int number_squares(solver_board *b, const soko_level *lvl)
{
    uint32_t ncells = b->width * b->height;
    b->square = malloc(ncells * sizeof *b->square);
    if (b->square == NULL)
        return -1;
    uint32_t n = 0;
    for (uint32_t c = 0; c < ncells; c++) {
        bool floor = (lvl->cell[c] & (SOKO_WALL | SOKO_OUTSIDE)) == 0;
        b->square[c] = floor ? (uint16_t)n++ : SOLVER_NONE;
    }
    b->nsq = n;
    b->cell = malloc((n + 1) * sizeof *b->cell);
    b->nb = malloc(((size_t)n * 4 + 1) * sizeof *b->nb);
    b->goal = calloc(n + 1, 1);
    b->dead = calloc(n + 1, 1);
    b->goals = malloc((n + 1) * sizeof *b->goals);
    if (b->cell == NULL || b->nb == NULL || b->goal == NULL || b->dead == NULL || b->goals == NULL)
        return -1;
    uint32_t goals = 0;
    for (uint32_t c = 0; c < ncells; c++) {
        uint16_t s = b->square[c];
        if (s == SOLVER_NONE)
            continue;
        b->cell[s] = (uint16_t)c;
        for (int d = 0; d < 4; d++) {
            uint16_t nc = neighbour_cell(lvl, c, d);
            b->nb[s * 4 + d] = nc == SOKO_NO_CELL ? SOLVER_NONE : b->square[nc];
        }
        if (lvl->cell[c] & SOKO_GOAL) {
            b->goal[s] = 1;
            b->goals[goals++] = s;
        }
    }
    b->nboxes = goals;
    return goals > MAX_BOXES ? -1 : 0;
}

int solver_fill_init(solver_fill *f, uint32_t nsq)
{
    f->mark = calloc(nsq + 1, sizeof *f->mark);
    f->queue = malloc((nsq + 1) * sizeof *f->queue);
    f->stamp = 0;
    f->n = nsq + 1;
    f->size = 0;
    return f->mark != NULL && f->queue != NULL ? 0 : -1;
}

void solver_fill_free(solver_fill *f)
{
    free(f->mark);
    free(f->queue);
    f->mark = NULL;
    f->queue = NULL;
}

void solver_fill_begin(solver_fill *f)
{
    f->stamp++;
    if (f->stamp == 0) {
        /* the stamps wrapped: old marks must not look fresh */
        memset(f->mark, 0, f->n * sizeof *f->mark);
        f->stamp = 1;
    }
}

uint16_t solver_reach(const solver_board *b, const uint16_t *occ, uint16_t start, solver_fill *f)
{
    solver_fill_begin(f);
    uint32_t head = 0, tail = 0;
    uint16_t least = start;
    f->mark[start] = f->stamp;
    f->queue[tail++] = start;
    while (head < tail) {
        uint16_t s = f->queue[head++];
        const uint16_t *nb = &b->nb[s * 4];
        for (int d = 0; d < 4; d++) {
            uint16_t t = nb[d];
            if (t == SOLVER_NONE || occ[t] != 0 || f->mark[t] == f->stamp)
                continue;
            f->mark[t] = f->stamp;
            f->queue[tail++] = t;
            if (t < least)
                least = t;
        }
    }
    f->size = tail;
    return least;
}

/* For every square x and side d, which part of the floor without x the
 * neighbour on side d belongs to, named by the smallest side in that part:
 * a box on x splits the player's world into those parts. */
static int label_sides(const solver_board *b, uint8_t *side, solver_fill *f)
{
    uint32_t n = b->nsq;
    for (uint32_t x = 0; x < n; x++) {
        uint8_t *lab = &side[x * 4];
        for (int d = 0; d < 4; d++)
            lab[d] = 0xFF;
        for (int d = 0; d < 4; d++) {
            uint16_t start = b->nb[x * 4 + d];
            if (start == SOLVER_NONE || lab[d] != 0xFF)
                continue;
            lab[d] = (uint8_t)d;
            int missing = 0;
            for (int e = d + 1; e < 4; e++)
                if (b->nb[x * 4 + e] != SOLVER_NONE && lab[e] == 0xFF)
                    missing++;
            if (missing == 0)
                break;
            solver_fill_begin(f);
            f->mark[x] = f->stamp;
            f->mark[start] = f->stamp;
            uint32_t head = 0, tail = 0;
            f->queue[tail++] = start;
            while (head < tail && missing > 0) {
                uint16_t s = f->queue[head++];
                for (int e = 0; e < 4; e++) {
                    uint16_t t = b->nb[s * 4 + e];
                    if (t == SOLVER_NONE || f->mark[t] == f->stamp)
                        continue;
                    f->mark[t] = f->stamp;
                    f->queue[tail++] = t;
                    for (int k = d + 1; k < 4; k++) {
                        if (b->nb[x * 4 + k] == t && lab[k] == 0xFF) {
                            lab[k] = (uint8_t)d;
                            missing--;
                        }
                    }
                }
            }
        }
    }
    return 0;
}

/* Fewest pushes from every square to goal g, the player starting on any side
 * of the box but walking only around it: a backward search over (box square,
 * player's part) states from the goal. */
static void distances_to_goal(solver_board *b, const uint8_t *side, uint32_t g, uint16_t *state,
                              uint32_t *queue)
{
    uint32_t n = b->nsq;
    for (uint32_t i = 0; i < n * 4; i++)
        state[i] = SOLVER_FAR;
    uint32_t head = 0, tail = 0;
    uint16_t goal = b->goals[g];
    for (int d = 0; d < 4; d++) {
        uint8_t part = side[goal * 4 + d];
        if (part != 0xFF && state[goal * 4 + part] == SOLVER_FAR) {
            state[goal * 4 + part] = 0;
            queue[tail++] = goal * 4u + part;
        }
    }
    while (head < tail) {
        uint32_t st = queue[head++];
        uint16_t y = (uint16_t)(st / 4);
        uint8_t part = (uint8_t)(st % 4);
        uint16_t dy = state[st];
        /* a push in direction d left the box on y and the player behind it */
        for (int d = 0; d < 4; d++) {
            int back = d ^ 2;
            uint16_t x = b->nb[y * 4 + back];
            if (x == SOLVER_NONE || side[y * 4 + back] != part)
                continue;
            uint16_t q = b->nb[x * 4 + back];
            if (q == SOLVER_NONE)
                continue;
            uint32_t prev = x * 4u + side[x * 4 + back];
            if (state[prev] != SOLVER_FAR)
                continue;
            state[prev] = (uint16_t)(dy + 1);
            queue[tail++] = prev;
        }
    }
    for (uint32_t x = 0; x < n; x++) {
        uint16_t best = SOLVER_FAR;
        for (int k = 0; k < 4; k++)
            if (state[x * 4 + k] < best)
                best = state[x * 4 + k];
        b->dist[x * b->nboxes + g] = best;
    }
}

static int compute_distances(solver_board *b)
{
    uint32_t n = b->nsq;
    uint8_t *side = b->side = malloc((size_t)n * 4 + 1);
    uint16_t *state = malloc(((size_t)n * 4 + 1) * sizeof *state);
    uint32_t *queue = malloc(((size_t)n * 4 + 1) * sizeof *queue);
    b->dist = malloc(((size_t)n * b->nboxes + 1) * sizeof *b->dist);
    solver_fill f;
    int rc = solver_fill_init(&f, n);
    if (side == NULL || state == NULL || queue == NULL || b->dist == NULL || rc < 0) {
        rc = -1;
    } else {
        label_sides(b, side, &f);
        for (uint32_t g = 0; g < b->nboxes; g++)
            distances_to_goal(b, side, g, state, queue);
        for (uint32_t x = 0; x < n; x++) {
            bool reachable = false;
            for (uint32_t g = 0; g < b->nboxes && !reachable; g++)
                reachable = b->dist[x * b->nboxes + g] != SOLVER_FAR;
            b->dead[x] = !reachable;
        }
    }
    solver_fill_free(&f);
    free(state);
    free(queue);
    return rc;
}

static int make_keys(solver_board *b)
{
    uint32_t n = b->nsq;
    b->zbox = malloc((n + 1) * sizeof *b->zbox);
    b->zplayer = malloc((n + 1) * sizeof *b->zplayer);
    b->live = malloc((n + 1) * sizeof *b->live);
    b->live_square = malloc((n + 1) * sizeof *b->live_square);
    if (b->zbox == NULL || b->zplayer == NULL || b->live == NULL || b->live_square == NULL)
        return -1;
    b->nlive = 0;
    for (uint32_t s = 0; s < n; s++) {
        b->zbox[s] = soko_mix64(0x9E3779B97F4A7C15ull * (2 * s + 1));
        b->zplayer[s] = soko_mix64(0xC2B2AE3D27D4EB4Full * (2 * s + 2));
        if (b->dead[s]) {
            b->live[s] = SOLVER_NONE;
        } else {
            b->live[s] = (uint16_t)b->nlive;
            b->live_square[b->nlive++] = (uint16_t)s;
        }
    }
    uint32_t bitset = (b->nlive + 7) / 8;
    b->wide_list = n > 256;
    uint32_t list = b->nboxes * (b->wide_list ? 2u : 1u);
    b->key_bitset = bitset <= list;
    b->key_bytes = b->key_bitset ? bitset : list;
    if (b->key_bytes == 0)
        b->key_bytes = 1;
    return 0;
}

int solver_board_build(solver_board *b, const soko_level *lvl)
{
    memset(b, 0, sizeof *b);
    b->width = lvl->width;
    b->height = lvl->height;
    if (number_squares(b, lvl) < 0 || compute_distances(b) < 0 || make_keys(b) < 0) {
        solver_board_free(b);
        return -1;
    }
    uint64_t n = b->nsq;
    b->bytes = (uint64_t)b->width * b->height * 2 + n * (2 + 8 + 2 + 1 + 1 + 16 + 2 + 2 + 4) +
               n * b->nboxes * 2;
    return 0;
}

void solver_board_free(solver_board *b)
{
    free(b->cell);
    free(b->square);
    free(b->nb);
    free(b->goal);
    free(b->dead);
    free(b->goals);
    free(b->dist);
    free(b->zbox);
    free(b->zplayer);
    free(b->live);
    free(b->live_square);
    free(b->side);
    memset(b, 0, sizeof *b);
}

static int compare_squares(const void *a, const void *b)
{
    return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

void solver_board_pack(const solver_board *b, const uint16_t *box, uint8_t *key)
{
    memset(key, 0, b->key_bytes);
    if (b->key_bitset) {
        for (uint32_t i = 0; i < b->nboxes; i++) {
            uint16_t l = b->live[box[i]];
            key[l >> 3] |= (uint8_t)(1u << (l & 7));
        }
        return;
    }
    uint16_t sorted[MAX_BOXES];
    memcpy(sorted, box, b->nboxes * sizeof *box);
    qsort(sorted, b->nboxes, sizeof *sorted, compare_squares);
    for (uint32_t i = 0; i < b->nboxes; i++) {
        if (b->wide_list) {
            key[2 * i] = (uint8_t)(sorted[i] & 0xFF);
            key[2 * i + 1] = (uint8_t)(sorted[i] >> 8);
        } else {
            key[i] = (uint8_t)sorted[i];
        }
    }
}

void solver_board_unpack(const solver_board *b, const uint8_t *key, uint16_t *box)
{
    if (b->key_bitset) {
        uint32_t k = 0;
        for (uint32_t i = 0; i < b->key_bytes; i++) {
            unsigned byte = key[i];
            while (byte != 0) {
                unsigned bit = (unsigned)__builtin_ctz(byte);
                box[k++] = b->live_square[i * 8 + bit];
                byte &= byte - 1;
            }
        }
        return;
    }
    for (uint32_t i = 0; i < b->nboxes; i++)
        box[i] = b->wide_list ? (uint16_t)(key[2 * i] | key[2 * i + 1] << 8) : key[i];
}
