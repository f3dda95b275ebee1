/* Corral deadlocks, found by a small search on a few boxes. Whatever solves
 * a position also brings any subset of its boxes onto goals once the other
 * boxes are taken off the board (they only ever stood in the way). So when
 * the boxes of the corral next to the box just pushed cannot all reach
 * goals on their own, the position is lost. The small search is a greedy
 * best-first search bounded in nodes: when it runs out, nothing is
 * concluded. Verdicts are cached by the boxes' squares and the player's
 * normalised square; lost sets are also learnt as patterns when asked. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define SUB_NODES 300
#define SUB_SLOTS 2048 /* hash slots of the small search, a power of two */
#define CACHE_BITS 16

enum { VERDICT_NONE = 0, VERDICT_OPEN = 1, VERDICT_LOST = 2 };

typedef struct sub_state {
    uint16_t box[SOLVER_SUB_BOXES];
    uint16_t player;
    uint16_t h;
} sub_state;

typedef struct cache_entry {
    uint64_t hash;
    uint16_t box[SOLVER_SUB_BOXES];
    uint16_t player;
    uint8_t n;
    uint8_t verdict;
} cache_entry;

struct solver_sub_work {
    cache_entry *cache;
    sub_state *node;
    uint32_t count;
    uint32_t *slot;
    uint64_t *heap;
    uint32_t heap_len;
    uint16_t *occ;
    uint8_t *freeze;
    uint16_t *mindist;
    uint32_t *comp;
    uint32_t stamp;
    uint16_t *queue;
    solver_fill fill;  /* the expanded state's player area */
    solver_fill child; /* a new state's, as solver_reach_push leaves it */
    /* Each state's player area, `words` bits words from node * words: a
     * state popped marks its area from these bits instead of filling it
     * again (most of the small search's time went to those fills). */
    uint64_t *areas;
    uint32_t words;
};

int solver_sub_init(solver_sub *sb, const solver_board *b)
{
    memset(sb, 0, sizeof *sb);
    struct solver_sub_work *w = calloc(1, sizeof *w);
    if (w == NULL)
        return -1;
    sb->work = w;
    w->cache = calloc((size_t)1 << CACHE_BITS, sizeof *w->cache);
    w->node = malloc(SUB_NODES * sizeof *w->node);
    w->slot = malloc(SUB_SLOTS * sizeof *w->slot);
    w->heap = malloc(SUB_NODES * 4 * 8 * sizeof *w->heap);
    w->occ = calloc(b->nsq + 1, sizeof *w->occ);
    w->freeze = calloc(b->nsq + 1, 1);
    w->mindist = malloc((b->nsq + 1) * sizeof *w->mindist);
    w->comp = calloc(b->nsq + 1, sizeof *w->comp);
    w->queue = malloc((b->nsq + 1) * sizeof *w->queue);
    w->words = (b->nsq + 63) / 64;
    w->areas = malloc((size_t)SUB_NODES * w->words * sizeof *w->areas);
    if (!w->cache || !w->node || !w->slot || !w->heap || !w->occ || !w->freeze || !w->mindist ||
        !w->comp || !w->queue || !w->areas || solver_fill_init(&w->fill, b->nsq) < 0 ||
        solver_fill_init(&w->child, b->nsq) < 0)
        return -1;
    for (uint32_t s = 0; s < b->nsq; s++) {
        uint16_t best = SOLVER_FAR;
        for (uint32_t g = 0; g < b->nboxes; g++)
            if (b->dist[s * b->nboxes + g] < best)
                best = b->dist[s * b->nboxes + g];
        w->mindist[s] = best;
    }
    sb->bytes = ((uint64_t)1 << CACHE_BITS) * sizeof *w->cache +
                (uint64_t)SUB_NODES * w->words * sizeof *w->areas;
    return 0;
}

void solver_sub_free(solver_sub *sb)
{
    struct solver_sub_work *w = sb->work;
    if (w != NULL) {
        free(w->cache);
        free(w->node);
        free(w->slot);
        free(w->heap);
        free(w->occ);
        free(w->freeze);
        free(w->mindist);
        free(w->comp);
        free(w->queue);
        free(w->areas);
        solver_fill_free(&w->fill);
        solver_fill_free(&w->child);
        free(w);
    }
    memset(sb, 0, sizeof *sb);
}

static void sort_squares(uint16_t *a, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0 && a[j - 1] > a[j]; j--) {
            uint16_t t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
}

static uint64_t state_hash(const solver_board *b, const uint16_t *box, uint32_t n, uint16_t player)
{
    uint64_t h = b->zplayer[player];
    for (uint32_t i = 0; i < n; i++)
        h ^= b->zbox[box[i]];
    return h;
}

static void heap_push(struct solver_sub_work *w, uint64_t item)
{
    uint32_t i = w->heap_len++;
    while (i > 0 && w->heap[(i - 1) / 2] > item) {
        w->heap[i] = w->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    w->heap[i] = item;
}

static uint64_t heap_pop(struct solver_sub_work *w)
{
    uint64_t top = w->heap[0], last = w->heap[--w->heap_len];
    uint32_t i = 0, n = w->heap_len;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && w->heap[c + 1] < w->heap[c])
            c++;
        if (last <= w->heap[c])
            break;
        w->heap[i] = w->heap[c];
        i = c;
    }
    if (n > 0)
        w->heap[i] = last;
    return top;
}

enum { ADD_SEEN = 0, ADD_NEW = 1, ADD_FULL = 2 };

/* Adds a state unless seen (its area is then the caller's to store at
 * node w->count - 1). Returns ADD_FULL when the node budget is spent. */
static int add_state(struct solver_sub_work *w, const solver_board *b, const sub_state *st,
                     uint32_t n)
{
    uint64_t h = state_hash(b, st->box, n, st->player);
    uint32_t i = (uint32_t)h & (SUB_SLOTS - 1);
    while (w->slot[i] != SOLVER_NIL) {
        const sub_state *o = &w->node[w->slot[i]];
        if (o->player == st->player && memcmp(o->box, st->box, n * sizeof *st->box) == 0)
            return ADD_SEEN;
        i = (i + 1) & (SUB_SLOTS - 1);
    }
    if (w->count == SUB_NODES)
        return ADD_FULL;
    w->node[w->count] = *st;
    w->slot[i] = w->count;
    heap_push(w, ((uint64_t)st->h << 32) | w->count);
    w->count++;
    return ADD_NEW;
}

/* Sets the bits of squares queue[0..count) in area. */
static void area_add(uint64_t *area, const uint16_t *queue, uint32_t count)
{
    for (uint32_t k = 0; k < count; k++)
        area[queue[k] / 64] |= (uint64_t)1 << (queue[k] % 64);
}

/* Marks node k's area in w->fill, as solver_reach would have. */
static void area_load(struct solver_sub_work *w, uint32_t k)
{
    const uint64_t *area = &w->areas[(size_t)k * w->words];
    solver_fill *f = &w->fill;
    solver_fill_begin(f);
    uint32_t size = 0;
    for (uint32_t j = 0; j < w->words; j++) {
        for (uint64_t bits = area[j]; bits != 0; bits &= bits - 1) {
            f->mark[j * 64 + (uint32_t)__builtin_ctzll(bits)] = f->stamp;
            size++;
        }
    }
    f->size = size;
}

/* For tests (sb->check_areas): counts whether the area loaded in w->fill
 * for a state whose boxes occ shows, and its normalised player, are those
 * of a fresh fill (made in w->child, free at this point). */
static void area_check(solver_sub *sb, struct solver_sub_work *w, const solver_board *b,
                       uint16_t player)
{
    uint16_t least = solver_reach(b, w->occ, player, &w->child);
    bool same = least == player && w->child.size == w->fill.size;
    for (uint32_t x = 0; x < b->nsq && same; x++)
        same = (w->child.mark[x] == w->child.stamp) == (w->fill.mark[x] == w->fill.stamp);
    sb->areas_checked++;
    sb->areas_wrong += !same;
}

/* Stores the area of the state just added, a child of node `parent`
 * whose push left `to` taken: the child's fill as solver_reach_push left
 * it, whole or only what the push added to the parent's area. */
static void area_store_child(struct solver_sub_work *w, uint32_t parent, uint16_t to, bool grown)
{
    uint64_t *area = &w->areas[(size_t)(w->count - 1) * w->words];
    const uint64_t *from = &w->areas[(size_t)parent * w->words];
    if (!grown) {
        memset(area, 0, w->words * sizeof *area);
        area_add(area, w->child.queue, w->child.size);
        return;
    }
    memcpy(area, from, w->words * sizeof *area);
    bool inside = (area[to / 64] >> (to % 64)) & 1;
    area[to / 64] &= ~((uint64_t)1 << (to % 64));
    /* the squares the push added, first in the child's queue */
    area_add(area, w->child.queue, w->child.size - (w->fill.size - inside));
}

/* The small search: VERDICT_OPEN when the boxes reach goals or the budget
 * runs out, VERDICT_LOST when every position reachable is explored. */
static int search_subset(solver_sub *sb, const solver_board *b, const sub_state *root, uint32_t n)
{
    struct solver_sub_work *w = sb->work;
    w->count = 0;
    w->heap_len = 0;
    for (uint32_t i = 0; i < SUB_SLOTS; i++)
        w->slot[i] = SOLVER_NIL;
    /* the root's area is w->fill's, as the caller's fill left it */
    add_state(w, b, root, n);
    memset(w->areas, 0, w->words * sizeof *w->areas);
    area_add(w->areas, w->fill.queue, w->fill.size);
    while (w->heap_len > 0) {
        uint32_t k = (uint32_t)heap_pop(w);
        sub_state st = w->node[k];
        if (st.h == 0)
            return VERDICT_OPEN;
        for (uint32_t i = 0; i < n; i++)
            w->occ[st.box[i]] = (uint16_t)(i + 1);
        /* the state's normalised player is its area's smallest square */
        area_load(w, k);
        uint16_t least = st.player;
        if (sb->check_areas)
            area_check(sb, w, b, least);
        uint32_t mark = w->fill.stamp;
        bool budget = true;
        for (uint32_t i = 0; i < n && budget; i++) {
            uint16_t x = st.box[i];
            for (int d = 0; d < 4 && budget; d++) {
                uint16_t from = b->nb[x * 4 + (d ^ 2)], to = b->nb[x * 4 + d];
                if (from == SOLVER_NONE || to == SOLVER_NONE || w->occ[to] || b->dead[to] ||
                    w->fill.mark[from] != mark)
                    continue;
                w->occ[x] = 0;
                w->occ[to] = (uint16_t)(i + 1);
                if (solver_freeze_check(b, w->occ, to, w->freeze) != SOLVER_FROZEN_OFF_GOAL) {
                    sub_state next = st;
                    next.box[i] = to;
                    next.h = (uint16_t)(st.h - w->mindist[x] + w->mindist[to]);
                    /* derived from the expanded state's area: most
                     * pushes leave it whole, and then only the square the
                     * box left needs a look */
                    bool grown;
                    next.player =
                        solver_reach_push(b, w->occ, &w->fill, least, x, to, &w->child, &grown);
                    sort_squares(next.box, n);
                    int added = add_state(w, b, &next, n);
                    if (added == ADD_NEW)
                        area_store_child(w, k, to, grown);
                    budget = added != ADD_FULL;
                }
                w->occ[to] = 0;
                w->occ[x] = (uint16_t)(i + 1);
            }
        }
        for (uint32_t i = 0; i < n; i++)
            w->occ[st.box[i]] = 0;
        if (!budget)
            return VERDICT_OPEN;
    }
    return VERDICT_LOST;
}

/* The cache entry of these boxes and player square: the entry that holds
 * them, or the slot they now take (its verdict cleared). */
static cache_entry *lookup(struct solver_sub_work *w, const solver_board *b, const sub_state *st,
                           uint32_t n)
{
    uint64_t key = state_hash(b, st->box, n, st->player);
    cache_entry *e = &w->cache[key & (((uint64_t)1 << CACHE_BITS) - 1)];
    if (e->verdict != VERDICT_NONE && e->hash == key && e->n == n && e->player == st->player &&
        memcmp(e->box, st->box, n * sizeof *st->box) == 0)
        return e;
    e->hash = key;
    e->n = (uint8_t)n;
    e->player = st->player;
    memcpy(e->box, st->box, n * sizeof *st->box);
    e->verdict = VERDICT_NONE;
    return e;
}

bool solver_sub_deadlock(solver_sub *sb, const solver_board *b, const uint16_t *occ,
                         const solver_fill *reach, uint16_t pushed, uint16_t player)
{
    struct solver_sub_work *w = sb->work;
    /* the corral: squares the player cannot reach, boxes included, that
     * hold the box just pushed */
    w->stamp++;
    if (w->stamp == 0) {
        memset(w->comp, 0, (b->nsq + 1) * sizeof *w->comp);
        w->stamp = 1;
    }
    sub_state root;
    uint32_t n = 0, head = 0, tail = 0;
    bool off_goal = false;
    w->comp[pushed] = w->stamp;
    w->queue[tail++] = pushed;
    while (head < tail) {
        uint16_t s = w->queue[head++];
        if (occ[s] != 0) {
            if (n == SOLVER_SUB_BOXES)
                return false;
            root.box[n++] = s;
            off_goal = off_goal || !b->goal[s];
        }
        for (int d = 0; d < 4; d++) {
            uint16_t t = b->nb[s * 4 + d];
            if (t == SOLVER_NONE || reach->mark[t] == reach->stamp || w->comp[t] == w->stamp)
                continue;
            w->comp[t] = w->stamp;
            w->queue[tail++] = t;
        }
    }
    if (!off_goal || n == b->nboxes)
        return false;
    sort_squares(root.box, n);
    sb->checks++;
    /* the verdict is a function of the boxes and the player's square, so
     * the player's square in the whole position names it as well as the
     * normalised one does, and spares a fill on most checks */
    root.player = player;
    cache_entry *raw = lookup(w, b, &root, n);
    if (raw->verdict != VERDICT_NONE) {
        sb->hits++;
        return raw->verdict == VERDICT_LOST;
    }
    for (uint32_t i = 0; i < n; i++)
        w->occ[root.box[i]] = 1;
    root.player = solver_reach(b, w->occ, player, &w->fill);
    uint32_t h = 0;
    for (uint32_t i = 0; i < n; i++) {
        w->occ[root.box[i]] = 0;
        h += w->mindist[root.box[i]];
    }
    root.h = (uint16_t)h;
    cache_entry *e = lookup(w, b, &root, n);
    int verdict = e->verdict;
    if (verdict != VERDICT_NONE) {
        sb->hits++;
    } else {
        verdict = search_subset(sb, b, &root, n);
        e->verdict = (uint8_t)verdict;
        if (verdict == VERDICT_LOST && sb->learn != NULL)
            solver_patterns_learn(sb->learn, b, root.box, n, root.player);
    }
    /* the raw entry may have been evicted by the normalised one */
    root.player = player;
    raw = lookup(w, b, &root, n);
    raw->verdict = (uint8_t)verdict;
    sb->lost += verdict == VERDICT_LOST;
    return verdict == VERDICT_LOST;
}
