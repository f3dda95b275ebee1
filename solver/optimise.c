/* The optimiser: a shorter solution near a given one.
 *
 * As YASC's optimiser does, it searches the positions "in the vicinity" of
 * those the given solution passes through: a position is in the vicinity
 * of the k-th round when its boxes are those of a position along the
 * solution with at most `boxes` of them moved elsewhere, each within
 * `radius` squares of where it was (Manhattan distance on the board). An
 * A* search over pushes, the player standing on an exact square and each
 * push costing the walk to it plus one step, finds the cheapest solution
 * whose positions all lie in the vicinity. Its positions along the given
 * solution are all in it, so it never finds a longer one.
 *
 * The rounds go from narrow to wide. A round that finds a better solution
 * runs again around it; one that finds none hands over to the next. The
 * limits of the call stop them all. Every result is replayed on the core
 * (solver_solution_build), so a bug can cost only a missed saving. */
#include "internal.h"
#include "lurd.h"

#include <stdlib.h>
#include <string.h>

/* The rounds: how many boxes may be off the solution's squares, and how
 * far from them. */
static const struct {
    uint8_t boxes;
    uint16_t radius;
} rounds[] = {
    {0, 0}, {1, 2}, {1, SOLVER_FAR}, {2, 2}, {2, 4}, {2, SOLVER_FAR},
};

#define NROUNDS (sizeof rounds / sizeof rounds[0])

/* An open-list item: the first part of f in its top 20 bits, the second
 * in the next 20, the node in the low 24. */
#define COST_BITS 20
#define COST_MAX ((1u << COST_BITS) - 1)
#define NODE_BITS 24
#define NODE_MAX ((1u << NODE_BITS) - 1)

/* Expansions between looks at the clock. */
#define CLOCK_EVERY 1024

/* Reasons of a result. */
static const char REASON_SHORTER[] = "a shorter solution was found";
static const char REASON_NONE[] = "no shorter solution in the vicinity searched";
static const char REASON_LIMITS[] = "the limits stopped the search";

/* One box set of the vicinity's centre with the squares of up to two of
 * its boxes left out (SOLVER_NONE when fewer): `key` is the Zobrist hash
 * of the boxes kept. */
typedef struct near_entry {
    uint64_t key;
    uint16_t left[2];
} near_entry;

/* The vicinity: an open-addressing set of entries, several of a key
 * allowed (one per set of boxes left out), and a filter of their keys,
 * one bit each, about eight bits an entry. Most positions a round makes
 * up are not in the vicinity, and a look-up of each pair of their boxes
 * then reads the filter, small enough to stay in the cache, instead of a
 * slot of the set, many times its size. */
typedef struct vicinity {
    near_entry *slot;
    uint32_t mask;
    uint32_t count;
    uint64_t *filter;
    uint32_t filter_mask; /* of a bit's number */
    uint8_t boxes;
    uint16_t radius;
} vicinity;

/* The call's state. Path positions are the box sets after each push of the
 * best solution so far: path[k * nboxes ...], k = 0 .. npushes. */
typedef struct optimiser {
    const solver_board *b;
    const soko_level *lvl;
    const solver_options *opt;
    int metric;
    double started;
    uint64_t memory; /* bytes for one round's table */
    uint64_t nodes;  /* positions stored in all rounds */
    bool stopped;    /* a limit was reached */
    uint16_t *hmin;  /* square -> fewest pushes to any goal */
    uint16_t *start; /* the start's boxes */
    uint16_t player;
    /* the best solution so far: its pushes, box square before and after */
    uint16_t *from, *to;
    uint32_t npushes;
    uint32_t cost[2]; /* in the metric's order */
    solver_result best;
    /* work space */
    uint16_t *occ, *box, *child;
    uint32_t *dist;
    uint16_t *queue;
    uint8_t *key;
} optimiser;

static bool out_of_time(optimiser *o)
{
    const solver_options *opt = o->opt;
    if (opt->cancel != NULL && *opt->cancel != 0)
        return true;
    return opt->time_limit > 0 && solver_clock() - o->started > opt->time_limit;
}

static bool near(const solver_board *b, uint16_t radius, uint16_t x, uint16_t y)
{
    if (radius == SOLVER_FAR)
        return true;
    int xc = b->cell[x], yc = b->cell[y];
    int w = (int)b->width;
    int dx = xc % w - yc % w, dy = xc / w - yc / w;
    return (uint32_t)(abs(dx) + abs(dy)) <= radius;
}

static uint64_t box_hash(const solver_board *b, const uint16_t *box)
{
    uint64_t h = 0;
    for (uint32_t i = 0; i < b->nboxes; i++)
        h ^= b->zbox[box[i]];
    return h;
}

/* The filter's bit of a key, from bits the slots' index does not use. */
static uint32_t filter_bit(const vicinity *v, uint64_t key)
{
    return (uint32_t)(key >> 32) & v->filter_mask;
}

/* Adds an entry unless the same one is there. Returns 0, or -1 when the
 * set is full (it is sized beforehand, so only on a bug). */
static int vicinity_add(vicinity *v, uint64_t key, uint16_t a, uint16_t c)
{
    if (v->count >= v->mask)
        return -1;
    uint32_t bit = filter_bit(v, key);
    v->filter[bit / 64] |= (uint64_t)1 << (bit % 64);
    for (uint32_t i = (uint32_t)key & v->mask;; i = (i + 1) & v->mask) {
        near_entry *e = &v->slot[i];
        if (e->key == 0) {
            e->key = key;
            e->left[0] = a;
            e->left[1] = c;
            v->count++;
            return 0;
        }
        if (e->key == key && e->left[0] == a && e->left[1] == c)
            return 0;
    }
}

/* A key of 0 marks an empty slot, so such a key is stored as 1 (a false
 * match costs only a wider search). */
static uint64_t entry_key(uint64_t key)
{
    return key != 0 ? key : 1;
}

static void vicinity_free(vicinity *v)
{
    free(v->slot);
    free(v->filter);
    memset(v, 0, sizeof *v);
}

/* Builds the vicinity of the best solution's positions for round r.
 * Returns 0, or -1 when it would not fit the memory or memory runs out. */
static int vicinity_build(optimiser *o, vicinity *v, uint32_t r)
{
    const solver_board *b = o->b;
    uint32_t n = b->nboxes;
    uint64_t per = rounds[r].boxes == 0 ? 1 : rounds[r].boxes == 1 ? n : (uint64_t)n * (n - 1) / 2;
    uint64_t most = per * (o->npushes + 1);
    uint64_t slots = 16;
    while (slots < most * 2)
        slots *= 2;
    /* 4 bits a slot, 8 or more an entry: a filter of one bit a key passes
     * about 1 key in 9 that is not there */
    uint64_t bits = slots * 4;
    if (slots * sizeof(near_entry) + bits / 8 > o->memory / 4 || slots > (1u << 30))
        return -1;
    memset(v, 0, sizeof *v);
    v->slot = calloc(slots, sizeof *v->slot);
    v->filter = calloc(bits / 64, sizeof *v->filter);
    if (v->slot == NULL || v->filter == NULL) {
        vicinity_free(v);
        return -1;
    }
    v->mask = (uint32_t)(slots - 1);
    v->filter_mask = (uint32_t)(bits - 1);
    v->boxes = rounds[r].boxes;
    v->radius = rounds[r].radius;
    uint16_t *box = o->box;
    memcpy(box, o->start, n * sizeof *box);
    for (uint32_t k = 0; k <= o->npushes; k++) {
        if (k > 0) {
            for (uint32_t i = 0; i < n; i++) {
                if (box[i] == o->from[k - 1]) {
                    box[i] = o->to[k - 1];
                    break;
                }
            }
        }
        uint64_t h = box_hash(b, box);
        int rc = 0;
        if (v->boxes == 0)
            rc = vicinity_add(v, entry_key(h), SOLVER_NONE, SOLVER_NONE);
        for (uint32_t i = 0; i < n && v->boxes >= 1 && rc == 0; i++) {
            uint64_t without_i = h ^ b->zbox[box[i]];
            if (v->boxes == 1) {
                rc = vicinity_add(v, entry_key(without_i), box[i], SOLVER_NONE);
                continue;
            }
            /* a pair is stored once, its squares in ascending order */
            for (uint32_t j = i + 1; j < n && rc == 0; j++) {
                uint16_t lo = box[i] < box[j] ? box[i] : box[j];
                uint16_t high = box[i] < box[j] ? box[j] : box[i];
                rc = vicinity_add(v, entry_key(without_i ^ b->zbox[box[j]]), lo, high);
            }
        }
        if (rc < 0) {
            vicinity_free(v);
            return -1;
        }
    }
    return 0;
}

/* Whether an entry under `key` lets the boxes x (and c, or NONE) stand
 * where the entry's left-out boxes stood. */
static bool vicinity_holds(const optimiser *o, const vicinity *v, uint64_t key, uint16_t x,
                           uint16_t c)
{
    key = entry_key(key);
    uint32_t bit = filter_bit(v, key);
    if (!(v->filter[bit / 64] & ((uint64_t)1 << (bit % 64))))
        return false;
    for (uint32_t i = (uint32_t)key & v->mask;; i = (i + 1) & v->mask) {
        const near_entry *e = &v->slot[i];
        if (e->key == 0)
            return false;
        if (e->key != key)
            continue;
        if (c == SOLVER_NONE) {
            if (x == SOLVER_NONE || near(o->b, v->radius, x, e->left[0]))
                return true;
        } else if ((near(o->b, v->radius, x, e->left[0]) && near(o->b, v->radius, c, e->left[1])) ||
                   (near(o->b, v->radius, x, e->left[1]) && near(o->b, v->radius, c, e->left[0]))) {
            return true;
        }
    }
}

/* Whether the boxes box[0..n) (hash h) are in the vicinity. */
static bool vicinity_has(const optimiser *o, const vicinity *v, const uint16_t *box, uint64_t h)
{
    const solver_board *b = o->b;
    uint32_t n = b->nboxes;
    if (v->boxes == 0)
        return vicinity_holds(o, v, h, SOLVER_NONE, SOLVER_NONE);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t hi = h ^ b->zbox[box[i]];
        if (v->boxes == 1) {
            if (vicinity_holds(o, v, hi, box[i], SOLVER_NONE))
                return true;
            continue;
        }
        for (uint32_t j = i + 1; j < n; j++) {
            if (vicinity_holds(o, v, hi ^ b->zbox[box[j]], box[i], box[j]))
                return true;
        }
    }
    return false;
}

/* The per-node costs a round keeps beside its table, grown with it. */
typedef struct costs {
    uint32_t (*c)[2];
    uint32_t cap;
} costs;

static int costs_reserve(costs *c, uint32_t i)
{
    if (i < c->cap)
        return 0;
    uint32_t cap = c->cap ? c->cap * 2 : 4096;
    while (cap <= i)
        cap *= 2;
    uint32_t(*grown)[2] = realloc(c->c, (size_t)cap * sizeof *grown);
    if (grown == NULL)
        return -1;
    c->c = grown;
    c->cap = cap;
    return 0;
}

static uint64_t open_item(const uint32_t f[2], uint32_t node)
{
    uint64_t a = f[0] > COST_MAX ? COST_MAX : f[0];
    uint64_t c = f[1] > COST_MAX ? COST_MAX : f[1];
    return a << (64 - COST_BITS) | c << NODE_BITS | node;
}

static bool cheaper(const uint32_t a[2], const uint32_t c[2])
{
    return a[0] < c[0] || (a[0] == c[0] && a[1] < c[1]);
}

/* The player's walking distance to every square of its area (FAR
 * elsewhere), around the boxes of o->occ. */
static void walk_distances(optimiser *o, uint16_t player)
{
    const solver_board *b = o->b;
    for (uint32_t s = 0; s < b->nsq; s++)
        o->dist[s] = SOLVER_FAR;
    uint32_t head = 0, tail = 0;
    o->dist[player] = 0;
    o->queue[tail++] = player;
    while (head < tail) {
        uint16_t s = o->queue[head++];
        for (int d = 0; d < 4; d++) {
            uint16_t t = b->nb[s * 4 + d];
            if (t == SOLVER_NONE || o->occ[t] || o->dist[t] != SOLVER_FAR)
                continue;
            o->dist[t] = o->dist[s] + 1;
            o->queue[tail++] = t;
        }
    }
}

/* Keeps the solution through node `goal` of t when it replays and is
 * cheaper than the best. Returns 1 when kept, 0 when not, -1 when memory
 * runs out. */
static int keep_solution(optimiser *o, const solver_table *t, uint32_t goal)
{
    uint32_t n = 0;
    for (uint32_t i = goal; solver_table_node(t, i)->parent != SOLVER_NIL;
         i = solver_table_node(t, i)->parent)
        n++;
    uint16_t *from = malloc((n + 1) * sizeof *from);
    uint16_t *to = malloc((n + 1) * sizeof *to);
    if (from == NULL || to == NULL) {
        free(from);
        free(to);
        return -1;
    }
    uint32_t k = n;
    for (uint32_t i = goal; solver_table_node(t, i)->parent != SOLVER_NIL;
         i = solver_table_node(t, i)->parent) {
        const solver_node *node = solver_table_node(t, i);
        k--;
        from[k] = node->from;
        to[k] = node->to;
    }
    solver_result r;
    memset(&r, 0, sizeof r);
    int rc = solver_solution_build(o->b, o->lvl, from, to, n, false, &r);
    uint32_t cost[2] = {r.moves, r.pushes};
    if (o->metric == SOLVER_METRIC_PUSHES) {
        cost[0] = r.pushes;
        cost[1] = r.moves;
    }
    if (rc < 0 || !cheaper(cost, o->cost)) {
        free(r.lurd);
        free(from);
        free(to);
        return 0; /* a solution that did not replay (a bug) is only not kept */
    }
    free(o->best.lurd);
    o->best.lurd = r.lurd;
    o->best.moves = r.moves;
    o->best.pushes = r.pushes;
    o->cost[0] = cost[0];
    o->cost[1] = cost[1];
    free(o->from);
    free(o->to);
    o->from = from;
    o->to = to;
    o->npushes = n;
    return 1;
}

/* Round r: the cheapest solution within the vicinity v. Returns 1 when it
 * found one cheaper than the best (now the best), 0 when there is none,
 * -1 when a limit stopped it (o->stopped) or memory ran out. */
static int search_round(optimiser *o, const vicinity *v)
{
    const solver_board *b = o->b;
    uint32_t n = b->nboxes;
    bool by_pushes = o->metric == SOLVER_METRIC_PUSHES;
    solver_table t;
    solver_open open = {0};
    costs c = {0};
    int result = -1;
    if (solver_table_init(&t, b->key_bytes, o->memory) < 0)
        goto done;
    uint32_t h0 = 0;
    for (uint32_t i = 0; i < n; i++)
        h0 += o->hmin[o->start[i]];
    uint64_t bh = box_hash(b, o->start);
    solver_board_pack(b, o->start, o->key);
    uint32_t root = solver_table_add(&t, bh ^ b->zplayer[o->player], o->player, o->key);
    if (root == SOLVER_NIL || costs_reserve(&c, root) < 0)
        goto done;
    solver_table_node(&t, root)->parent = SOLVER_NIL;
    solver_table_node(&t, root)->h = (uint16_t)h0;
    c.c[root][0] = c.c[root][1] = 0;
    o->nodes++;
    if (solver_open_push(&open, open_item((uint32_t[2]){h0, h0}, root)) < 0)
        goto done;
    uint32_t expansions = 0;
    result = 0;
    while (open.count > 0) {
        if (++expansions % CLOCK_EVERY == 0 && out_of_time(o)) {
            o->stopped = true;
            result = -1;
            break;
        }
        uint64_t item = solver_open_pop(&open);
        uint32_t i = (uint32_t)(item & NODE_MAX);
        solver_node *node = solver_table_node(&t, i);
        if (node->closed)
            continue;
        node->closed = 1;
        uint32_t g[2] = {c.c[i][0], c.c[i][1]};
        uint32_t f[2] = {g[0] + node->h, g[1] + node->h};
        if (!cheaper(f, o->cost))
            break; /* nothing cheaper is left in the vicinity */
        if (node->h == 0) {
            result = keep_solution(o, &t, i);
            break;
        }
        uint16_t player = node->player;
        uint32_t h = node->h;
        solver_board_unpack(b, solver_table_key(&t, i), o->box);
        for (uint32_t k = 0; k < n; k++)
            o->occ[o->box[k]] = 1;
        walk_distances(o, player);
        uint64_t parent_hash = node->hash ^ b->zplayer[player];
        for (uint32_t k = 0; k < n && result == 0; k++) {
            uint16_t y = o->box[k];
            for (int d = 0; d < 4; d++) {
                uint16_t side = b->nb[y * 4 + (d ^ 2)];
                uint16_t to = b->nb[y * 4 + d];
                if (side == SOLVER_NONE || to == SOLVER_NONE || o->dist[side] == SOLVER_FAR ||
                    o->occ[to] || b->dead[to])
                    continue;
                memcpy(o->child, o->box, n * sizeof *o->child);
                o->child[k] = to;
                uint64_t ch = parent_hash ^ b->zbox[y] ^ b->zbox[to];
                if (!vicinity_has(o, v, o->child, ch))
                    continue;
                uint32_t walk = o->dist[side] + 1;
                uint32_t cg[2] = {g[0] + (by_pushes ? 1 : walk), g[1] + (by_pushes ? walk : 1)};
                uint32_t chh = h - o->hmin[y] + o->hmin[to];
                uint32_t cf[2] = {cg[0] + chh, cg[1] + chh};
                if (!cheaper(cf, o->cost))
                    continue;
                solver_board_pack(b, o->child, o->key);
                uint64_t hash = ch ^ b->zplayer[y];
                uint32_t j = solver_table_find(&t, hash, y, o->key);
                if (j == SOLVER_NIL) {
                    j = solver_table_add(&t, hash, y, o->key);
                    if (j == SOLVER_NIL || j > NODE_MAX) {
                        o->stopped = true;
                        result = -1;
                        break;
                    }
                    o->nodes++;
                    if (costs_reserve(&c, j) < 0) {
                        result = -1;
                        break;
                    }
                    solver_table_node(&t, j)->h = (uint16_t)chh;
                } else if (solver_table_node(&t, j)->closed || !cheaper(cg, c.c[j])) {
                    continue;
                }
                solver_node *cn = solver_table_node(&t, j);
                cn->parent = i;
                cn->from = y;
                cn->to = to;
                c.c[j][0] = cg[0];
                c.c[j][1] = cg[1];
                if (solver_open_push(&open, open_item(cf, j)) < 0) {
                    result = -1;
                    break;
                }
                if (o->opt->node_limit > 0 && o->nodes >= o->opt->node_limit) {
                    o->stopped = true;
                    result = -1;
                    break;
                }
            }
        }
        for (uint32_t k = 0; k < n; k++)
            o->occ[o->box[k]] = 0;
        if (result < 0)
            break;
    }
done:
    free(c.c);
    solver_open_free(&open);
    solver_table_free(&t);
    return result;
}

/* Decodes and replays the given solution: its pushes go to o->from and
 * o->to, its text (plain letters) and counts to o->best. Returns 0, or -1
 * with *reason set when it is no solution of the level or memory runs
 * out. */
static int read_given(optimiser *o, const char *lurd, uint32_t len, const char **reason)
{
    const solver_board *b = o->b;
    uint8_t *steps = malloc(SOKO_MAX_HISTORY);
    soko_entry_t *history = malloc(SOKO_MAX_HISTORY * sizeof *history);
    soko_game *g = malloc(sizeof *g);
    *reason = "out of memory";
    int rc = -1;
    if (steps == NULL || history == NULL || g == NULL)
        goto done;
    soko_error err;
    int32_t n = soko_lurd_decode(lurd, len, 1, steps, SOKO_MAX_HISTORY, &err);
    *reason = "the solution given cannot be read";
    if (n < 0)
        goto done;
    soko_game_init(g, o->lvl, SOKO_RULE_STANDARD, history, SOKO_MAX_HISTORY);
    o->from = malloc(((size_t)n + 1) * sizeof *o->from);
    o->to = malloc(((size_t)n + 1) * sizeof *o->to);
    *reason = "out of memory";
    if (o->from == NULL || o->to == NULL)
        goto done;
    uint32_t pushes = 0;
    *reason = "the solution given does not solve the level";
    for (int32_t k = 0; k < n; k++) {
        int d = steps[k] & 3;
        soko_cell box = soko_level_neighbour(o->lvl, g->player, d);
        int r = soko_game_step(g, d);
        if (r < 0)
            goto done;
        if (r == SOKO_PUSHED) {
            soko_cell dest = soko_level_neighbour(o->lvl, box, d);
            o->from[pushes] = b->square[box];
            o->to[pushes] = b->square[dest];
            if (b->dead[o->to[pushes]])
                goto done; /* the solver's dead squares would be wrong */
            pushes++;
        }
    }
    if (!soko_game_solved(g))
        goto done;
    o->npushes = pushes;
    char *text = malloc((size_t)g->moves + 1);
    *reason = "out of memory";
    if (text == NULL)
        goto done;
    int32_t tl = soko_lurd_encode(g, text, g->moves + 1);
    if (tl < 0) {
        free(text);
        goto done;
    }
    text[tl] = '\0';
    o->best.lurd = text;
    o->best.moves = g->moves;
    o->best.pushes = g->pushes;
    bool by_pushes = o->metric == SOLVER_METRIC_PUSHES;
    o->cost[0] = by_pushes ? g->pushes : g->moves;
    o->cost[1] = by_pushes ? g->moves : g->pushes;
    rc = 0;
done:
    free(steps);
    free(history);
    free(g);
    return rc;
}

static int optimiser_init(optimiser *o, const solver_board *b)
{
    uint32_t n = b->nboxes, nsq = b->nsq;
    o->hmin = malloc((nsq + 1) * sizeof *o->hmin);
    o->start = malloc((n + 1) * sizeof *o->start);
    o->occ = calloc(nsq + 1, sizeof *o->occ);
    o->box = malloc((n + 1) * sizeof *o->box);
    o->child = malloc((n + 1) * sizeof *o->child);
    o->dist = malloc((nsq + 1) * sizeof *o->dist);
    o->queue = malloc((nsq + 1) * sizeof *o->queue);
    o->key = malloc(b->key_bytes + 1);
    if (!o->hmin || !o->start || !o->occ || !o->box || !o->child || !o->dist || !o->queue ||
        !o->key)
        return -1;
    for (uint32_t s = 0; s < nsq; s++) {
        uint16_t least = SOLVER_FAR;
        for (uint32_t k = 0; k < n; k++) {
            uint16_t d = b->dist[s * n + k];
            if (d < least)
                least = d;
        }
        o->hmin[s] = least;
    }
    uint32_t k = 0;
    for (uint32_t s = 0; s < nsq; s++) {
        if ((o->lvl->cell[b->cell[s]] & SOKO_BOX) && k < n)
            o->start[k++] = (uint16_t)s;
    }
    o->player = b->square[o->lvl->player];
    return k == n && o->player != SOLVER_NONE ? 0 : -1;
}

static void optimiser_free(optimiser *o)
{
    free(o->hmin);
    free(o->start);
    free(o->occ);
    free(o->box);
    free(o->child);
    free(o->dist);
    free(o->queue);
    free(o->key);
    free(o->from);
    free(o->to);
}

/* The rounds, from the first, each run again while it finds better. */
static void run_rounds(optimiser *o)
{
    bool improved = false;
    for (uint32_t r = 0; r < NROUNDS && !o->stopped;) {
        vicinity v;
        if (vicinity_build(o, &v, r) < 0) {
            /* the next rounds' vicinities are no smaller */
            o->stopped = true;
            break;
        }
        int found = search_round(o, &v);
        vicinity_free(&v);
        if (found > 0)
            improved = true;
        else if (found == 0)
            r++;
        else
            break;
    }
    o->best.reason = improved ? REASON_SHORTER : o->stopped ? REASON_LIMITS : REASON_NONE;
}

int solver_optimise(const soko_level *lvl, const char *lurd, uint32_t len, int metric,
                    const solver_options *opt, solver_result *out)
{
    double started = solver_clock();
    memset(out, 0, sizeof *out);
    out->status = SOLVER_UNKNOWN;
    out->reason = "out of memory";
    solver_options none;
    if (opt == NULL) {
        solver_options_default(&none);
        opt = &none;
    }
    solver_board b;
    if (solver_board_build(&b, lvl) < 0) {
        out->reason = "out of memory, or more boxes than the solver handles";
        out->seconds = solver_clock() - started;
        return out->status;
    }
    optimiser o;
    memset(&o, 0, sizeof o);
    o.b = &b;
    o.lvl = lvl;
    o.opt = opt;
    o.metric = metric;
    o.started = started;
    uint64_t limit = opt->memory_limit ? opt->memory_limit : SOLVER_DEFAULT_MEMORY;
    o.memory = limit > b.bytes ? (limit - b.bytes) / 2 : 0;
    const char *reason = "out of memory";
    if (optimiser_init(&o, &b) == 0 && read_given(&o, lurd, len, &reason) == 0) {
        run_rounds(&o);
        *out = o.best;
        out->status = SOLVER_SOLVED;
    } else {
        free(o.best.lurd);
        out->reason = reason;
    }
    out->nodes = o.nodes;
    optimiser_free(&o);
    solver_board_free(&b);
    out->seconds = solver_clock() - started;
    return out->status;
}
