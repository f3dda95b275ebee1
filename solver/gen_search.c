/* The generator's pull search: breadth first from the solved position, the
 * player pulling boxes instead of pushing them. A pull undoes a push, so
 * every position found is solvable, and the depth at which the search first
 * finds it is the fewest pushes that solve it. Positions are told apart by
 * their boxes and the area the player can walk in (named by its first
 * cell), and stored in the order found, so that index order is depth order. */
#include "gen_internal.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

/* How many of the deepest positions have their solutions scored. */
#define SCORED_MAX 2000

typedef struct search {
    const gen_room *room;
    uint16_t k;
    int off[4]; /* cell offsets of the four directions, SOKO_UP first */
    uint32_t count, cap;
    uint16_t *boxes; /* k sorted cells per position */
    uint16_t *area;  /* the first cell of the player's area */
    uint16_t *at;    /* where the player stands after the pull */
    uint32_t *parent;
    uint16_t *depth;
    uint16_t *pulled; /* the pulled box's cell in the parent */
    uint8_t *dir;     /* the direction of the pull */
    uint32_t *table;  /* index + 1 of positions, 0 for empty */
    uint32_t mask;
    uint8_t occupied[GEN_MAX_CELLS];
    uint32_t reach[GEN_MAX_CELLS]; /* stamps of the expanded position's area */
    uint32_t walk[GEN_MAX_CELLS];  /* stamps of a child's area */
    uint16_t queue[GEN_MAX_CELLS];
    uint32_t stamp;
} search;

static uint64_t key_hash(const uint16_t *boxes, uint16_t k, uint16_t area)
{
    uint64_t h = area;
    for (uint16_t i = 0; i < k; i++)
        h = (h ^ boxes[i]) * 0x100000001B3ull;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 32);
}

/* Floods the player's area from `from` around walls and boxes into marks
 * with a new stamp; returns its first cell (the smallest index). */
static uint16_t flood(search *s, uint32_t *marks, uint16_t from)
{
    uint32_t stamp = ++s->stamp;
    uint32_t head = 0, tail = 0;
    uint16_t first = from;
    s->queue[tail++] = from;
    marks[from] = stamp;
    while (head < tail) {
        uint16_t c = s->queue[head++];
        if (c < first)
            first = c;
        for (int d = 0; d < 4; d++) {
            uint16_t n = (uint16_t)(c + s->off[d]);
            if (s->room->floor[n] && !s->occupied[n] && marks[n] != stamp) {
                marks[n] = stamp;
                s->queue[tail++] = n;
            }
        }
    }
    return first;
}

/* Adds a position unless it is known; returns false when the store is full. */
static bool add(search *s, const uint16_t *boxes, uint16_t area, uint16_t at, uint32_t parent,
                uint16_t pulled, uint8_t dir)
{
    uint32_t slot = (uint32_t)key_hash(boxes, s->k, area) & s->mask;
    for (;; slot = (slot + 1) & s->mask) {
        uint32_t e = s->table[slot];
        if (e == 0)
            break;
        e--;
        if (s->area[e] == area && memcmp(s->boxes + (size_t)e * s->k, boxes, s->k * 2u) == 0)
            return true;
    }
    if (s->count == s->cap)
        return false;
    uint32_t i = s->count++;
    s->table[slot] = i + 1;
    memcpy(s->boxes + (size_t)i * s->k, boxes, s->k * 2u);
    s->area[i] = area;
    s->at[i] = at;
    s->parent[i] = parent;
    s->depth[i] = parent == NONE ? 0 : (uint16_t)(s->depth[parent] + 1);
    s->pulled[i] = pulled;
    s->dir[i] = dir;
    return true;
}

/* Every pull from position i; false when the store filled up. */
static bool expand(search *s, uint32_t i)
{
    uint16_t k = s->k;
    uint16_t boxes[GEN_MAX_BOXES], child[GEN_MAX_BOXES];
    memcpy(boxes, s->boxes + (size_t)i * k, k * 2u);
    for (uint16_t b = 0; b < k; b++)
        s->occupied[boxes[b]] = 1;
    flood(s, s->reach, s->at[i]);
    uint32_t reach_stamp = s->stamp;
    bool room_left = true;
    for (uint16_t b = 0; b < k && room_left; b++) {
        for (int d = 0; d < 4 && room_left; d++) {
            uint16_t a = (uint16_t)(boxes[b] + s->off[d]);
            uint16_t c = (uint16_t)(a + s->off[d]);
            if (s->reach[a] != reach_stamp || !s->room->floor[c] || s->occupied[c])
                continue;
            /* The box follows the player from boxes[b] to a; keep the
             * cells sorted. */
            uint16_t n = 0;
            for (uint16_t j = 0; j < k; j++) {
                if (j != b)
                    child[n++] = boxes[j];
            }
            uint16_t pos = n;
            while (pos > 0 && child[pos - 1] > a) {
                child[pos] = child[pos - 1];
                pos--;
            }
            child[pos] = a;
            s->occupied[boxes[b]] = 0;
            s->occupied[a] = 1;
            uint16_t area = flood(s, s->walk, c);
            s->occupied[a] = 0;
            s->occupied[boxes[b]] = 1;
            room_left = add(s, child, area, c, i, boxes[b], (uint8_t)d);
        }
    }
    for (uint16_t b = 0; b < k; b++)
        s->occupied[boxes[b]] = 0;
    return room_left;
}

uint32_t gen_score(uint32_t pushes, uint32_t lines, uint32_t changes, uint64_t effort,
                   uint32_t on_goal)
{
    uint32_t log = 0;
    while (effort > 1) {
        effort >>= 1;
        log++;
    }
    uint32_t score = pushes + 2 * lines + 4 * changes + 3 * log;
    uint32_t penalty = 8 * on_goal;
    return score > penalty ? score - penalty : 0;
}

/* The forward solution of position i: the reverse of its pulls. */
static uint32_t solution(const search *s, uint32_t i, gen_push *out)
{
    uint32_t n = 0;
    for (uint32_t p = i; s->parent[p] != NONE; p = s->parent[p]) {
        uint8_t d = s->dir[p];
        out[n].from = (uint16_t)(s->pulled[p] + s->off[d]);
        out[n].dir = (uint8_t)(d ^ 2);
        n++;
    }
    return n;
}

static void measure(const search *s, const gen_push *push, uint32_t n, uint32_t *lines,
                    uint32_t *changes)
{
    *lines = 0;
    *changes = 0;
    for (uint32_t j = 0; j < n; j++) {
        bool same_box = j > 0 && push[j].from == push[j - 1].from + s->off[push[j - 1].dir];
        if (j > 0 && !same_box)
            (*changes)++;
        if (!same_box || push[j].dir != push[j - 1].dir)
            (*lines)++;
    }
}

static void release(search *s)
{
    free(s->boxes);
    free(s->area);
    free(s->at);
    free(s->parent);
    free(s->depth);
    free(s->pulled);
    free(s->dir);
    free(s->table);
}

/* The index of the first position of depth d (positions are stored in
 * depth order): the number of positions closer to solved. */
static uint32_t first_at_depth(const search *s, uint16_t d)
{
    uint32_t lo = 0, hi = s->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->depth[mid] < d)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Picks the best-scoring of the deepest positions into *out. */
static int pick(search *s, const uint16_t *goal, gen_found *out)
{
    uint16_t deepest = s->depth[s->count - 1];
    if (deepest == 0)
        return GEN_E_NOT_FOUND;
    gen_push *push = malloc(sizeof *push * deepest);
    gen_push *best_push = malloc(sizeof *best_push * deepest);
    if (push == NULL || best_push == NULL) {
        free(push);
        free(best_push);
        return GEN_E_MEMORY;
    }
    uint8_t is_goal[GEN_MAX_CELLS] = {0};
    for (uint16_t g = 0; g < s->k; g++)
        is_goal[goal[g]] = 1;
    bool found = false;
    uint32_t scored = 0;
    for (uint32_t i = s->count; i-- > 0 && scored < SCORED_MAX;) {
        if (s->depth[i] + 2 < deepest)
            break;
        scored++;
        uint32_t n = solution(s, i, push);
        uint32_t lines, changes, on_goal = 0;
        measure(s, push, n, &lines, &changes);
        for (uint16_t b = 0; b < s->k; b++)
            on_goal += is_goal[s->boxes[(size_t)i * s->k + b]];
        /* Positions closer to solved: they come before the first one of
         * this depth, as the search stores them in depth order. */
        uint32_t effort = first_at_depth(s, s->depth[i]);
        uint32_t score = gen_score(n, lines, changes, effort, on_goal);
        if (!found || score > out->score) {
            found = true;
            memcpy(out->box, s->boxes + (size_t)i * s->k, s->k * 2u);
            out->player = s->at[i];
            out->pushes = n;
            memcpy(best_push, push, sizeof *push * n);
            out->box_lines = lines;
            out->box_changes = changes;
            out->effort = effort;
            out->score = score;
        }
    }
    free(push);
    out->push = best_push;
    return GEN_OK;
}

int gen_search(const gen_room *room, const uint16_t *goal, uint16_t boxes, uint64_t node_limit,
               gen_found *out)
{
    memset(out, 0, sizeof *out);
    search *s = calloc(1, sizeof *s);
    if (s == NULL)
        return GEN_E_MEMORY;
    s->room = room;
    s->k = boxes;
    s->off[0] = -(int)room->width;
    s->off[1] = 1;
    s->off[2] = room->width;
    s->off[3] = -1;
    s->cap = node_limit > 50000000 ? 50000000 : (uint32_t)node_limit;
    uint32_t slots = 1024;
    while (slots < s->cap * 2u)
        slots *= 2;
    s->mask = slots - 1;
    s->boxes = malloc((size_t)s->cap * boxes * 2u);
    s->area = malloc((size_t)s->cap * 2u);
    s->at = malloc((size_t)s->cap * 2u);
    s->parent = malloc((size_t)s->cap * 4u);
    s->depth = malloc((size_t)s->cap * 2u);
    s->pulled = malloc((size_t)s->cap * 2u);
    s->dir = malloc(s->cap);
    s->table = calloc(slots, 4);
    if (s->boxes == NULL || s->area == NULL || s->at == NULL || s->parent == NULL ||
        s->depth == NULL || s->pulled == NULL || s->dir == NULL || s->table == NULL) {
        release(s);
        free(s);
        return GEN_E_MEMORY;
    }
    /* The roots: boxes on the goals, the player in each area it can be in
     * when the last push has been made. */
    uint16_t sorted[GEN_MAX_BOXES];
    for (uint16_t i = 0; i < boxes; i++) {
        uint16_t pos = i;
        while (pos > 0 && sorted[pos - 1] > goal[i]) {
            sorted[pos] = sorted[pos - 1];
            pos--;
        }
        sorted[pos] = goal[i];
    }
    for (uint16_t i = 0; i < boxes; i++)
        s->occupied[sorted[i]] = 1;
    uint32_t seen = ++s->stamp;
    uint32_t cells = (uint32_t)room->width * room->height;
    for (uint32_t c = 0; c < cells && s->count < s->cap; c++) {
        if (!room->floor[c] || s->occupied[c] || s->walk[c] == seen)
            continue;
        /* One stamp for every root area, so that each is found once. */
        s->stamp--;
        uint16_t first = flood(s, s->walk, (uint16_t)c);
        add(s, sorted, first, first, NONE, 0, 0);
    }
    for (uint16_t i = 0; i < boxes; i++)
        s->occupied[sorted[i]] = 0;
    for (uint32_t i = 0; i < s->count; i++) {
        if (!expand(s, i))
            break;
    }
    int rc = s->count > 0 ? pick(s, goal, out) : GEN_E_NOT_FOUND;
    release(s);
    free(s);
    return rc;
}
