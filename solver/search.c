/* One search: best-first over pushes. A node is a box set with the player's
 * normalised square. One or more open lists order the same nodes by their
 * own mixes of g (pushes made), h (the matching bound), the areas the boxes
 * cut off and the boxes off goals, and are popped in turn; a feature-space
 * list sorts them into cells by boxes home, areas cut off and boxes out of
 * the goal rooms' plans first, and takes the cells in turn. Pushes onto dead squares, into freeze
 * deadlocks, into goals walled off by frozen boxes, or into positions
 * without an assignment of boxes to goals are never stored; a PI-corral
 * narrows the pushes tried; a corral whose boxes cannot reach goals on
 * their own closes a node (and, when the call asks, becomes a pattern no
 * later position may hold); boxes entering goal rooms go on to their
 * goals, and boxes entering tunnels through them; and a packing advisor
 * brings the box nearest a goal room's next goal there in one move. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Assignments kept for nodes stored lately: a node expanded soon after it
 * was stored (a child of a recent expansion, often) skips its full solve.
 * Several open lists take turns, so "lately" spans thousands of nodes: up
 * to MATCH_CACHE of them, within MATCH_CACHE_BYTES and a sixteenth of the
 * search's memory. */
#define MATCH_CACHE 4096
#define MATCH_CACHE_BYTES ((uint64_t)4 << 20)

/* A feature-space list's cells: boxes home by areas cut off by boxes out
 * of plan by room links blocked, these many counts of areas, of boxes out
 * of plan and of links (the last one for these many and more). */
#define CELL_REGIONS 8
#define CELL_PLAN 3
#define CELL_LINKS 3

/* The kept assignments, flat: slot k's duals and matches at k * (n + 1). */
typedef struct match_cache {
    uint32_t n;     /* boxes */
    uint32_t slots; /* a power of two */
    uint32_t *node; /* the node of each slot, or SOLVER_NIL */
    int64_t *u, *v, *cost;
    uint32_t *p;
    uint16_t *box; /* the node's boxes in the order of the rows */
    uint64_t bytes;
} match_cache;

struct search {
    const solver_search_args *args;
    int status;         /* the outcome, once over */
    const char *reason; /* and why */
    bool over;
    uint32_t turn; /* the open list popped next */
    const solver_board *b;
    solver_table table;
    solver_open open[SOLVER_MAX_QUEUES];
    solver_cells cells[SOLVER_MAX_QUEUES]; /* for the feature-space lists */
    solver_fill reach;                     /* the expanded node's player area */
    uint16_t reach_least;                  /* its smallest square */
    solver_fill child;                     /* a child's player area, or what it adds to reach's */
    bool child_grown;                      /* whether child holds only what it adds */
    solver_corral corral;
    solver_match match; /* the expanded node's assignment */
    solver_match trial; /* a child's */
    bool match_ready;   /* whether `match` holds the expanded node's assignment */
    match_cache cache;  /* assignments of recently stored nodes */
    solver_macros macros;
    solver_fixed fixed;
    solver_sub sub;
    solver_patterns patterns; /* learnt deadlocks, when the search learns them */
    bool learn;
    bool plan;      /* the feature-space lists take boxes out of plan as a feature */
    bool use_links; /* and room links blocked */
    solver_links links;
    solver_relevance rel; /* no table when the search makes no relevance cuts */
    bool macro_used;      /* a macro or a cut narrowed the search: exhausting it proves nothing */
    uint16_t *box;        /* the expanded node's boxes, in the order of its assignment's rows */
    uint16_t *occ;        /* box number + 1 on each square, 0 when empty */
    uint8_t *key;
    uint8_t *freeze_work;
    solver_push *pushes;
    uint64_t *rank; /* the rank of each push, while they are ordered */
    uint16_t *near; /* the fewest pushes from each square to a goal, for push_rank */
    uint64_t budget;
    const char *stop; /* why the search stopped early, or NULL */
    uint32_t found;   /* the solved node, or SOLVER_NIL */
};

typedef struct search search;

double solver_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Sets up a cache of at most `cap` bytes (but 256 slots at least). */
static int cache_init(match_cache *c, uint32_t n, uint64_t cap)
{
    uint64_t entry =
        (uint64_t)(n + 1) * (2 * sizeof(int64_t) + sizeof(uint32_t) + sizeof(uint16_t));
    c->n = n;
    c->slots = MATCH_CACHE;
    while (c->slots > 256 && c->slots * entry > cap)
        c->slots /= 2;
    c->bytes = c->slots * (entry + sizeof *c->node + sizeof *c->cost);
    size_t rows = (size_t)c->slots * (n + 1);
    c->node = malloc(c->slots * sizeof *c->node);
    c->cost = malloc(c->slots * sizeof *c->cost);
    c->u = malloc(rows * sizeof *c->u);
    c->v = malloc(rows * sizeof *c->v);
    c->p = malloc(rows * sizeof *c->p);
    c->box = malloc(rows * sizeof *c->box);
    if (!c->node || !c->cost || !c->u || !c->v || !c->p || !c->box)
        return -1;
    memset(c->node, 0xFF, c->slots * sizeof *c->node);
    return 0;
}

static void cache_free(match_cache *c)
{
    free(c->node);
    free(c->cost);
    free(c->u);
    free(c->v);
    free(c->p);
    free(c->box);
    memset(c, 0, sizeof *c);
}

/* Keeps node i's assignment m and its boxes in the order of m's rows. */
static void cache_put(match_cache *c, uint32_t i, const solver_match *m, const uint16_t *box)
{
    uint32_t slot = i & (c->slots - 1);
    size_t at = (size_t)slot * (m->n + 1), n = m->n + 1;
    c->node[slot] = i;
    c->cost[slot] = m->cost;
    memcpy(&c->u[at], m->u, n * sizeof *m->u);
    memcpy(&c->v[at], m->v, n * sizeof *m->v);
    memcpy(&c->p[at], m->p, n * sizeof *m->p);
    memcpy(&c->box[at], box, m->n * sizeof *box);
}

/* When node i's assignment is kept, copies it into m and its boxes into
 * box (either may be NULL) and returns true. */
static bool cache_get(const match_cache *c, uint32_t i, solver_match *m, uint16_t *box)
{
    uint32_t slot = i & (c->slots - 1);
    if (c->node[slot] != i)
        return false;
    if (m != NULL) {
        size_t at = (size_t)slot * (m->n + 1), n = m->n + 1;
        m->cost = c->cost[slot];
        memcpy(m->u, &c->u[at], n * sizeof *m->u);
        memcpy(m->v, &c->v[at], n * sizeof *m->v);
        memcpy(m->p, &c->p[at], n * sizeof *m->p);
    }
    if (box != NULL)
        memcpy(box, &c->box[(size_t)slot * (c->n + 1)], c->n * sizeof *box);
    return true;
}

static int setup(search *s, const solver_search_args *args)
{
    memset(s, 0, sizeof *s);
    s->args = args;
    s->b = args->board;
    s->found = SOLVER_NIL;
    const solver_board *b = s->b;
    s->box = malloc((b->nboxes + 1) * sizeof *s->box);
    s->occ = calloc(b->nsq + 1, sizeof *s->occ);
    s->key = malloc(b->key_bytes);
    s->freeze_work = calloc(b->nsq + 1, 1);
    s->pushes = malloc(((size_t)b->nboxes * 4 + 4) * sizeof *s->pushes);
    s->rank = malloc(((size_t)b->nboxes * 4 + 4) * sizeof *s->rank);
    s->near = malloc((b->nsq + 1) * sizeof *s->near);
    if (s->box == NULL || s->occ == NULL || s->key == NULL || s->freeze_work == NULL ||
        s->pushes == NULL || s->rank == NULL || s->near == NULL)
        return -1;
    for (uint32_t x = 0; x < b->nsq; x++) {
        uint16_t near = SOLVER_FAR;
        for (uint32_t g = 0; g < b->nboxes; g++)
            if (b->dist[(size_t)x * b->nboxes + g] < near)
                near = b->dist[(size_t)x * b->nboxes + g];
        s->near[x] = near;
    }
    uint64_t cap = args->memory / 16 < MATCH_CACHE_BYTES ? args->memory / 16 : MATCH_CACHE_BYTES;
    if (cache_init(&s->cache, b->nboxes, cap) < 0 || solver_fixed_init(&s->fixed, b) < 0)
        return -1;
    /* cuts go with the macros: a search without them is the one that proves */
    if (args->macros && (args->options->with & SOLVER_WITH_RELEVANCE) &&
        solver_relevance_init(&s->rel, b) < 0)
        return -1;
    /* a pattern holds whatever the table holds: no bound or cut made it */
    s->learn = !(args->options->without & SOLVER_WITHOUT_PATTERNS);
    if (s->learn && solver_patterns_init(&s->patterns, b, args->memory / 32) < 0)
        return -1;
    /* the caches and the work space take a share too */
    uint64_t fixed = s->cache.bytes + s->fixed.bytes + s->rel.bytes + s->patterns.bytes +
                     (uint64_t)b->nsq * 64 + ((uint64_t)1 << 20);
    s->budget = args->memory > fixed ? args->memory - fixed : 0;
    if (solver_table_init(&s->table, b->key_bytes, s->budget) < 0 ||
        solver_fill_init(&s->reach, b->nsq) < 0 || solver_fill_init(&s->child, b->nsq) < 0 ||
        solver_corral_init(&s->corral, b) < 0 || solver_match_init(&s->match, b->nboxes) < 0 ||
        solver_match_init(&s->trial, b->nboxes) < 0)
        return -1;
    if (solver_sub_init(&s->sub, b) < 0)
        return -1;
    s->plan = args->macros && !(args->options->without & SOLVER_WITHOUT_PLAN);
    s->use_links = (args->options->with & SOLVER_WITH_LINKS) != 0;
    if (s->use_links && solver_links_init(&s->links, b) < 0)
        return -1;
    uint32_t ncells = (b->nboxes + 1) * CELL_REGIONS * (s->plan ? CELL_PLAN : 1) *
                      (s->use_links ? CELL_LINKS : 1);
    for (uint32_t q = 0; q < args->queues; q++)
        if (args->cells[q] && solver_cells_init(&s->cells[q], ncells) < 0)
            return -1;
    if (s->learn)
        s->sub.learn = &s->patterns;
    if (args->macros && solver_macros_build(&s->macros, b, args->boxes, args->player,
                                            (args->options->with & SOLVER_WITH_HELD) != 0) < 0)
        return -1;
    s->macros.replan = (args->options->with & SOLVER_WITH_REPLAN) != 0;
    if (args->macros && !(args->options->without & SOLVER_WITHOUT_ORDER) &&
        !(args->options->without & SOLVER_WITHOUT_ADVICE) &&
        solver_order_build(&s->macros, args->boxes, args->player) < 0)
        return -1;
    return 0;
}

static void teardown(search *s)
{
    solver_table_free(&s->table);
    for (uint32_t q = 0; q < SOLVER_MAX_QUEUES; q++) {
        solver_open_free(&s->open[q]);
        solver_cells_free(&s->cells[q]);
    }
    solver_fill_free(&s->reach);
    solver_fill_free(&s->child);
    solver_corral_free(&s->corral);
    solver_match_free(&s->match);
    solver_match_free(&s->trial);
    cache_free(&s->cache);
    solver_macros_free(&s->macros);
    solver_fixed_free(&s->fixed);
    solver_sub_free(&s->sub);
    solver_patterns_free(&s->patterns);
    solver_relevance_free(&s->rel);
    solver_links_free(&s->links);
    free(s->box);
    free(s->occ);
    free(s->key);
    free(s->freeze_work);
    free(s->pushes);
    free(s->rank);
    free(s->near);
}

static uint64_t box_hash(const solver_board *b, const uint16_t *box)
{
    uint64_t h = 0;
    for (uint32_t i = 0; i < b->nboxes; i++)
        h ^= b->zbox[box[i]];
    return h;
}

/* Queues a node in every open list: smaller priority first; among equals,
 * smaller h, then the newest node. A feature-space list puts it in its
 * cell, ordered by its weight, then its priority, then the newest. */
static int enqueue(search *s, uint32_t i)
{
    const solver_node *n = solver_table_node(&s->table, i);
    const solver_search_args *a = s->args;
    uint64_t open_bytes = 0;
    for (uint32_t q = 0; q < a->queues; q++) {
        uint64_t off_goals = s->b->nboxes > n->on_goals ? s->b->nboxes - n->on_goals : 0;
        uint64_t f = (uint64_t)a->g_weight[q] * n->g + (uint64_t)a->h_weight[q] * n->h +
                     (uint64_t)a->r_weight[q] * n->regions + (uint64_t)a->p_weight[q] * off_goals;
        int err;
        if (a->cells[q]) {
            uint32_t regions = n->regions < CELL_REGIONS ? n->regions : CELL_REGIONS - 1;
            uint64_t item = ((uint64_t)n->weight << 56) | ((f > 0xFFFFFF ? 0xFFFFFF : f) << 32) |
                            (SOLVER_NIL - i);
            uint32_t cell = n->on_goals * CELL_REGIONS + regions;
            if (s->plan)
                cell = cell * CELL_PLAN + (n->plan < CELL_PLAN ? n->plan : CELL_PLAN - 1);
            if (s->use_links)
                cell = cell * CELL_LINKS + (n->links < CELL_LINKS ? n->links : CELL_LINKS - 1);
            err = solver_cells_push(&s->cells[q], cell, item);
            open_bytes += s->cells[q].bytes;
        } else {
            uint64_t item =
                ((f > 0xFFFF ? 0xFFFF : f) << 48) | ((uint64_t)n->h << 32) | (SOLVER_NIL - i);
            err = solver_open_push(&s->open[q], item);
            open_bytes += (uint64_t)s->open[q].cap * sizeof *s->open[q].item;
        }
        if (err < 0) {
            s->stop = "memory limit";
            return -1;
        }
    }
    /* the open lists and the table share one budget */
    s->table.budget = s->budget > open_bytes ? s->budget - open_bytes : 0;
    return 0;
}

static bool out_of_time(search *s)
{
    const solver_options *opt = s->args->options;
    if (opt->cancel != NULL && *opt->cancel != 0) {
        s->stop = "cancelled";
        return true;
    }
    if (opt->time_limit > 0 && solver_clock() - s->args->started > opt->time_limit) {
        s->stop = "time limit";
        return true;
    }
    return false;
}

/* Every push from the expanded position: the player reaches the square
 * behind the box, and the square ahead is free and not dead. */
static uint32_t all_pushes(search *s)
{
    const solver_board *b = s->b;
    uint32_t n = 0;
    for (uint32_t i = 0; i < b->nboxes; i++) {
        uint16_t x = s->box[i];
        for (int d = 0; d < 4; d++) {
            uint16_t from = b->nb[x * 4 + (d ^ 2)], to = b->nb[x * 4 + d];
            if (from == SOLVER_NONE || to == SOLVER_NONE || s->occ[to] != 0 || b->dead[to] ||
                s->reach.mark[from] != s->reach.stamp)
                continue;
            s->pushes[n++] = (solver_push){x, (uint8_t)d};
        }
    }
    return n;
}

/* Whether the child's player area holds x (an empty square). */
static bool in_child_area(const search *s, uint32_t x, uint32_t stamp)
{
    return s->child.mark[x] == stamp || (s->child_grown && s->reach.mark[x] == s->reach.stamp);
}

/* Counts the area of empty squares outside the player's holding x, when x
 * is one not counted yet (marked with the fill's stamp as they are
 * counted). Returns the squares of that area, 0 when x is none. */
static uint32_t count_area(search *s, uint32_t x, uint32_t stamp)
{
    const solver_board *b = s->b;
    solver_fill *f = &s->child;
    if (s->occ[x] != 0 || in_child_area(s, x, stamp) || f->mark[x] == f->stamp)
        return 0;
    uint32_t head = 0, tail = 0;
    f->mark[x] = f->stamp;
    f->queue[tail++] = (uint16_t)x;
    while (head < tail) {
        uint16_t q = f->queue[head++];
        for (int d = 0; d < 4; d++) {
            uint16_t t = b->nb[q * 4 + d];
            if (t == SOLVER_NONE || s->occ[t] != 0 || f->mark[t] == f->stamp)
                continue;
            f->mark[t] = f->stamp;
            f->queue[tail++] = t;
        }
    }
    return tail;
}

/* The areas of empty squares outside the player's (marked in s->child,
 * with s->reach when the child only grew it): a position cut into many
 * pieces is hard to play on. The squares outside number the squares less
 * the boxes and the player's area: there are often none, and the count
 * ends once it has met them all. An area the player cannot reach is
 * walled off by boxes, so the squares next to boxes are looked at first;
 * the scan of every square finds the areas of floor walled off from the
 * start, if any. */
static uint8_t count_regions(search *s)
{
    const solver_board *b = s->b;
    solver_fill *f = &s->child;
    uint32_t stamp = f->stamp, regions = 0;
    uint32_t taken = b->nboxes + f->size;
    uint32_t outside = b->nsq > taken ? b->nsq - taken : 0;
    if (outside == 0)
        return 0;
    /* squares outside the player's area get the next stamp when counted */
    f->stamp++;
    if (f->stamp == 0)
        return 0;
    uint32_t met = 0;
    for (uint32_t k = 0; k < b->nboxes && met < outside; k++) {
        for (int d = 0; d < 4 && met < outside; d++) {
            uint16_t x = b->nb[s->box[k] * 4 + d];
            uint32_t size = x == SOLVER_NONE ? 0 : count_area(s, x, stamp);
            met += size;
            regions += size > 0;
        }
    }
    for (uint32_t x = 0; x < b->nsq && met < outside; x++) {
        uint32_t size = count_area(s, x, stamp);
        met += size;
        regions += size > 0;
    }
    return (uint8_t)(regions < 255 ? regions : 255);
}

/* Boxes out of the goal rooms' plans (after the out-of-plan feature of
 * Festival's FESS search), for a room not yet full: the boxes on its
 * entrances, which stop the boxes behind them from coming in, and, when
 * the boxes inside do not hold a start of its packing order, those too:
 * they must come out again, or be packed against the order, before the
 * room's macros and advice can go on. */
static uint8_t out_of_plan(search *s)
{
    solver_macros *m = &s->macros;
    uint32_t count = 0;
    for (uint32_t r = 0; r < m->nrooms; r++) {
        const solver_room *room = &m->room[r];
        uint32_t inside = 0, home = 0;
        for (uint32_t k = 0; k < room->size; k++) {
            uint16_t x = room->squares[k];
            inside += s->occ[x] != 0;
            home += s->occ[x] != 0 && s->b->goal[x];
        }
        if (home == room->ngoals)
            continue;
        for (uint32_t k = 0; k < room->ngates; k++)
            count += s->occ[room->gate[k]] != 0;
        if (inside > 0 && solver_macros_next_goal(m, s->occ, r) == SOLVER_NONE)
            count += inside;
    }
    return (uint8_t)(count < 15 ? count : 15);
}

/* Whether square x is near where one of the last RELEVANCE_MEMORY pushes
 * up to node i left its box. */
static bool near_recent(const search *s, uint32_t i, uint16_t x)
{
    for (uint32_t k = 0; k < (uint32_t)RELEVANCE_MEMORY && i != SOLVER_NIL; k++) {
        const solver_node *n = solver_table_node(&s->table, i);
        if (n->to == SOLVER_NONE)
            return true;
        if (solver_relevance_near(&s->rel, x, n->to))
            return true;
        i = n->parent;
    }
    return false;
}

/* Moves the box on `from` to `to` in `pushes` pushes from the expanded
 * node `parent`, the player ending on `player` (SOLVER_NONE for one push:
 * then on `from`, the area derived from the parent's): stores the position
 * it leads to when it is new (or reached in fewer pushes) and not lost.
 * Returns true when that position is not lost (stored now or before). */
static bool try_move(search *s, uint32_t parent, uint64_t parent_hash, uint16_t from, uint16_t to,
                     uint32_t pushes, uint16_t player)
{
    const solver_board *b = s->b;
    uint32_t row = s->occ[from] - 1u;
    bool single = player == SOLVER_NONE;
    if (single)
        player = from;
    s->occ[from] = 0;
    s->occ[to] = (uint16_t)(row + 1);
    s->box[row] = to;
    bool kept = false;
    int frozen = solver_freeze_check(b, s->occ, to, s->freeze_work);
    if (frozen == SOLVER_FROZEN_OFF_GOAL ||
        (frozen == SOLVER_FROZEN_ON_GOALS &&
         solver_fixed_deadlock(&s->fixed, b, s->occ, s->box, s->freeze_work)))
        goto undo;
    if (s->learn && solver_patterns_match(&s->patterns, s->occ, to, player))
        goto undo;

    if (!single) {
        s->child_grown = false;
        player = solver_reach(b, s->occ, player, &s->child);
    } else {
        player = solver_reach_push(b, s->occ, &s->reach, s->reach_least, from, to, &s->child,
                                   &s->child_grown);
    }
    uint64_t hash = parent_hash ^ b->zbox[from] ^ b->zbox[to] ^ b->zplayer[player];
    solver_board_pack(b, s->box, s->key);
    solver_node *pn = solver_table_node(&s->table, parent);
    uint32_t g32 = pn->g + pushes;
    uint16_t g = (uint16_t)(g32 > 0xFFFF ? 0xFFFF : g32);
    uint32_t seen = solver_table_find(&s->table, hash, player, s->key);
    if (seen != SOLVER_NIL) {
        solver_node *n = solver_table_node(&s->table, seen);
        /* A shorter path re-routes the node. Only a push-optimal search must
         * expand it again: elsewhere the solution merely gets shorter. The
         * parent's g is below the node's, so the chain of parents stays
         * free of cycles. */
        if (n->g > g) {
            n->g = g;
            n->parent = parent;
            n->from = from;
            n->to = to;
            if (s->args->options->optimal || !n->closed) {
                n->closed = 0;
                enqueue(s, seen);
            }
        }
        kept = true;
        goto undo;
    }

    if (!s->match_ready) {
        /* the boxes as they were before this push */
        s->box[row] = from;
        if (!cache_get(&s->cache, parent, &s->match, NULL))
            solver_match_solve(&s->match, b, s->box);
        s->match_ready = true;
        s->box[row] = to;
    }
    solver_match_copy(&s->trial, &s->match);
    uint32_t h = solver_match_update(&s->trial, b, s->box, row);
    if (h == SOLVER_BOUND_DEAD)
        goto undo;
    uint32_t i = solver_table_add(&s->table, hash, player, s->key);
    if (i == SOLVER_NIL) {
        s->stop = "memory limit";
        goto undo;
    }
    (*s->args->nodes)++;
    solver_node *n = solver_table_node(&s->table, i);
    n->parent = parent;
    n->g = g;
    n->h = (uint16_t)h;
    cache_put(&s->cache, i, &s->trial, s->box);
    n->from = from;
    n->to = to;
    n->regions = count_regions(s);
    n->plan = s->plan ? out_of_plan(s) : 0;
    if (s->use_links) {
        uint32_t blocked = solver_links_blocked(&s->links, s->box, b->nboxes);
        n->links = (uint8_t)(blocked < 7 ? blocked : 7);
    }
    n->on_goals = (uint16_t)(pn->on_goals + b->goal[to] - b->goal[from]);
    /* a push that brings a box home or joins areas is progress */
    bool progress = n->on_goals > pn->on_goals || n->regions < pn->regions;
    n->weight = (uint8_t)(pn->weight + (!progress && pn->weight < 255));
    /* a box taken on by a macro ends a piece of work: any push may follow */
    if (!single) {
        n->run = RELEVANCE_RUN;
    } else if (s->rel.dist == NULL || near_recent(s, parent, from)) {
        n->run = (uint8_t)(pn->run < 255 ? pn->run + 1 : 255);
    } else {
        n->run = 0;
    }
    /* a push-optimal search may only stop when a solved node is popped */
    if (h == 0 && !s->args->options->optimal)
        s->found = i;
    else
        enqueue(s, i);
    kept = true;
undo:
    s->box[row] = from;
    s->occ[to] = 0;
    s->occ[from] = (uint16_t)(row + 1);
    return kept;
}

/* Tries one push from the expanded node `parent`: stores the position it
 * leads to when it is new (or reached in fewer pushes) and not lost.
 * Returns true when a goal-room macro took the box on to its goal and the
 * position it leads to is not lost (stored now or before). */
static bool try_push(search *s, uint32_t parent, uint64_t parent_hash, solver_push push)
{
    const solver_board *b = s->b;
    uint16_t from = push.box, to = b->nb[from * 4 + push.dir];
    uint32_t row = s->occ[from] - 1u;
    s->occ[from] = 0;
    s->occ[to] = (uint16_t)(row + 1);
    uint16_t player = from, goal;
    int extra = s->macros.nrooms > 0
                    ? solver_macros_room_push(&s->macros, b, s->occ, from, to, &goal, &player)
                    : -1;
    bool room = extra >= 0;
    if (extra < 0 && s->args->macros)
        extra = solver_tunnel_push(b, s->occ, from, to, push.dir, &goal, &player);
    s->occ[to] = 0;
    s->occ[from] = (uint16_t)(row + 1);
    if (extra < 0)
        return try_move(s, parent, parent_hash, from, to, 1, SOLVER_NONE) && room;
    s->macro_used = true;
    return try_move(s, parent, parent_hash, from, goal, 1 + (uint32_t)extra, player) && room;
}

/* Whether the push takes a box from an entrance of a goal room into it: the
 * pushes a goal macro may apply to. */
static bool enters_room(const search *s, solver_push push)
{
    const solver_macros *m = &s->macros;
    uint16_t to = s->b->nb[push.box * 4 + push.dir];
    return m->nrooms > 0 && m->room_of[to] != SOLVER_NONE &&
           m->entrance_of[push.box] == m->room_of[to];
}

/* Relevance cuts: unless node i's push ended a run of RELEVANCE_RUN near
 * ones, keeps only the pushes near its last pushes (and those into goal
 * rooms), in their order, when there are any. Returns how many are left. */
static uint32_t relevance_cut(search *s, uint32_t i, solver_push *pushes, uint32_t count)
{
    const solver_node *n = solver_table_node(&s->table, i);
    if (s->rel.dist == NULL || n->to == SOLVER_NONE || n->run >= RELEVANCE_RUN)
        return count;
    uint32_t near = 0;
    for (uint32_t k = 0; k < count; k++)
        near += near_recent(s, i, pushes[k].box) || enters_room(s, pushes[k]);
    if (near == 0 || near == count)
        return count;
    uint32_t kept = 0;
    for (uint32_t k = 0; k < count; k++)
        if (near_recent(s, i, pushes[k].box) || enters_room(s, pushes[k]))
            pushes[kept++] = pushes[k];
    s->macro_used = true;
    return kept;
}

/* Tries the pushes of the expanded node. Goal cuts: the pushes into goal
 * rooms go first, and when one of them fills the room's next goal without
 * losing the position, the others are not tried. A box brought home that
 * way is rarely wrong, and the macros' search proves nothing by failing
 * anyway (the call then searches without them). */
static void try_pushes(search *s, uint32_t i, uint64_t hash, const solver_push *pushes,
                       uint32_t count)
{
    bool cuts = s->macros.nrooms > 0 && !(s->args->options->without & SOLVER_WITHOUT_GOAL_CUTS);
    bool home = false;
    for (uint32_t k = 0; cuts && k < count && s->found == SOLVER_NIL && s->stop == NULL; k++)
        if (enters_room(s, pushes[k]) && try_push(s, i, hash, pushes[k]))
            home = true;
    if (home)
        return;
    for (uint32_t k = 0; k < count && s->found == SOLVER_NIL && s->stop == NULL; k++)
        if (!cuts || !enters_room(s, pushes[k]))
            try_push(s, i, hash, pushes[k]);
}

/* The boxes the packing advisor tries for a room, nearest its next goal
 * first, until one gets there. The nearest are often held by others: at
 * 500,000 positions four tries solve XSokoban 37 besides the 57 levels
 * two solved, most of those in fewer positions (18.5 million in all
 * against 19.1); eight solve the same. */
#define ADVICE_TRIES 4

/* Whether the box on x may be moved by the advisor for room r (a room
 * number, or SOLVER_NONE for the order over all goals): not when it stands
 * in that room, or on a goal of the order's filled start (`filled` goals). */
static bool advice_keeps(const solver_macros *m, uint16_t x, uint32_t r, uint32_t filled)
{
    if (r != SOLVER_NONE)
        return m->room_of[x] == r;
    return m->order_rank[x] != SOLVER_NONE && m->order_rank[x] < filled;
}

/* Brings the box nearest `goal` that the advisor may move (see
 * advice_keeps) there in one move, a child of node i, when it can get
 * there with the others in place. */
static void advise_goal(search *s, uint32_t i, uint64_t hash, uint16_t goal, uint32_t r,
                        uint32_t filled)
{
    const solver_board *b = s->b;
    solver_macros *m = &s->macros;
    uint16_t player = solver_table_node(&s->table, i)->player;
    uint32_t g = 0;
    while (b->goals[g] != goal)
        g++;
    uint16_t near[ADVICE_TRIES];
    uint32_t dist[ADVICE_TRIES], count = 0;
    for (uint32_t k = 0; k < b->nboxes; k++) {
        uint16_t x = s->box[k];
        uint32_t d = b->dist[(size_t)x * b->nboxes + g];
        if (advice_keeps(m, x, r, filled) || d == SOLVER_FAR)
            continue;
        solver_nearest_offer(near, dist, &count, ADVICE_TRIES, x, d);
    }
    for (uint32_t k = 0; k < count; k++) {
        uint16_t x = near[k], end, kept = s->occ[x];
        s->occ[x] = 0;
        /* the player's area with the box on x is the node's own */
        int pushes = solver_boxpath_find_in(&m->path, b, s->occ, x, goal, &s->reach, player, &end);
        s->occ[x] = kept;
        if (pushes > 0) {
            try_move(s, i, hash, x, goal, (uint32_t)pushes, end);
            break;
        }
    }
}

/* The packing advisor (after Festival's FESS search): for each goal room
 * whose next goal is free, the nearest box that can be pushed there with
 * the others in place goes there in one move, a child beside those of
 * single pushes. A box far from the room then comes home in one step of
 * the search, where its pushes one by one would each wait their turn. A
 * level with a packing order over all goals instead of rooms gets the same
 * for the order's next goal, while the boxes home are those of the order's
 * filled start and no others (a box home out of order stops it, as a
 * room's boxes out of its order stop the room's advice). */
static void advise(search *s, uint32_t i, uint64_t hash)
{
    solver_macros *m = &s->macros;
    for (uint32_t r = 0; r < m->nrooms && s->found == SOLVER_NIL && s->stop == NULL; r++) {
        uint16_t goal = solver_macros_next_goal(m, s->occ, r);
        if (goal != SOLVER_NONE)
            advise_goal(s, i, hash, goal, r, 0);
    }
    if (m->norder > 0 && s->found == SOLVER_NIL && s->stop == NULL) {
        uint32_t filled = solver_order_filled(m, s->occ), home = 0;
        for (uint32_t k = 0; k < s->b->nboxes; k++)
            home += s->b->goal[s->box[k]];
        if (filled < m->norder && home == filled)
            advise_goal(s, i, hash, m->order[filled], SOLVER_NONE, filled);
    }
}

/* The rank of a push in the order pushes are tried, smallest first. The
 * open lists pop the newest of equal nodes first, so among children they
 * rank alike the push tried last is searched first: the box pushed last
 * (it keeps moving while nothing better is known, as a player would push
 * it), then the box that lands nearest a goal (it finishes what it
 * started), then the larger square and direction, only to fix the order. */
static uint64_t push_rank(const search *s, solver_push push, uint16_t last)
{
    const solver_board *b = s->b;
    uint32_t near = s->near[b->nb[push.box * 4 + push.dir]];
    return ((uint64_t)(push.box == last) << 40) | ((uint64_t)(SOLVER_FAR - near) << 20) |
           ((uint64_t)push.box << 2) | push.dir;
}

/* Sorts the pushes by push_rank (an insertion sort: they are few). The
 * order would otherwise follow the rows of the node's assignment, which
 * depend on whether it was kept in the cache: an accident, not a rule. */
static void order_pushes(search *s, solver_push *pushes, uint32_t count, uint16_t last)
{
    uint64_t *rank = s->rank;
    for (uint32_t k = 0; k < count; k++) {
        solver_push p = pushes[k];
        uint64_t r = push_rank(s, p, last);
        uint32_t j = k;
        for (; j > 0 && rank[j - 1] > r; j--) {
            rank[j] = rank[j - 1];
            pushes[j] = pushes[j - 1];
        }
        rank[j] = r;
        pushes[j] = p;
    }
}

static void expand(search *s, uint32_t i)
{
    const solver_board *b = s->b;
    solver_node *n = solver_table_node(&s->table, i);
    n->closed = 1;
    uint16_t player = n->player;
    uint64_t hash = n->hash ^ b->zplayer[player];
    /* the rows of a kept assignment keep their order */
    if (!cache_get(&s->cache, i, NULL, s->box))
        solver_board_unpack(b, solver_table_key(&s->table, i), s->box);
    for (uint32_t k = 0; k < b->nboxes; k++)
        s->occ[s->box[k]] = (uint16_t)(k + 1);
    s->reach_least = solver_reach(b, s->occ, player, &s->reach);

    uint32_t count = 0;
    if (n->to != SOLVER_NONE && solver_sub_deadlock(&s->sub, b, s->occ, &s->reach, n->to, player))
        goto done;
    solver_push *pushes = s->pushes;
    int corral = solver_corral_find(&s->corral, b, s->occ, &s->reach);
    if (corral >= 0) {
        count = (uint32_t)corral;
        pushes = s->corral.best;
    } else {
        /* a PI-corral's pushes are all needed: none is cut */
        count = relevance_cut(s, i, pushes, all_pushes(s));
    }
    if (!(s->args->options->without & SOLVER_WITHOUT_PUSH_ORDER))
        order_pushes(s, pushes, count, n->to);
    s->match_ready = false;
    try_pushes(s, i, hash, pushes, count);
    if (!(s->args->options->without & SOLVER_WITHOUT_ADVICE) && s->args->macros &&
        s->found == SOLVER_NIL && s->stop == NULL)
        advise(s, i, hash);
done:
    for (uint32_t k = 0; k < b->nboxes; k++)
        s->occ[s->box[k]] = 0;
}

/* Collects the box moves from the start to node i. */
static int collect(const search *s, uint32_t i, solver_moves *moves)
{
    uint32_t n = 0;
    for (uint32_t k = i; solver_table_node(&s->table, k)->parent != SOLVER_NIL;
         k = solver_table_node(&s->table, k)->parent)
        n++;
    moves->from = malloc((n + 1) * sizeof *moves->from);
    moves->to = malloc((n + 1) * sizeof *moves->to);
    if (moves->from == NULL || moves->to == NULL) {
        free(moves->from);
        free(moves->to);
        moves->from = moves->to = NULL;
        return -1;
    }
    moves->n = n;
    for (uint32_t k = i; n > 0; k = solver_table_node(&s->table, k)->parent) {
        const solver_node *node = solver_table_node(&s->table, k);
        n--;
        moves->from[n] = node->from;
        moves->to[n] = node->to;
    }
    return 0;
}

/* Stores the start position; returns its node or SOLVER_NIL, with *status
 * set when the start already decides the search. */
static uint32_t add_root(search *s, int *status, const char **reason)
{
    const solver_board *b = s->b;
    const solver_search_args *a = s->args;
    memcpy(s->box, a->boxes, b->nboxes * sizeof *s->box);
    for (uint32_t k = 0; k < b->nboxes; k++) {
        if (b->dead[s->box[k]]) {
            *status = SOLVER_UNSOLVABLE;
            *reason = "a box stands where it can never reach a goal";
            return SOLVER_NIL;
        }
    }
    for (uint32_t k = 0; k < b->nboxes; k++)
        s->occ[s->box[k]] = (uint16_t)(k + 1);
    const char *lost = NULL;
    for (uint32_t k = 0; k < b->nboxes && lost == NULL; k++)
        if (solver_freeze_check(b, s->occ, s->box[k], s->freeze_work) == SOLVER_FROZEN_OFF_GOAL)
            lost = "a box off goal can never move";
    if (lost == NULL && solver_fixed_deadlock(&s->fixed, b, s->occ, s->box, s->freeze_work))
        lost = "boxes that can never move wall goals off";
    uint32_t h = solver_match_solve(&s->match, b, s->box);
    if (lost == NULL && h == SOLVER_BOUND_DEAD)
        lost = "the boxes cannot all reach goals";
    uint16_t player = solver_reach(b, s->occ, a->player, &s->reach);
    for (uint32_t k = 0; k < b->nboxes; k++)
        s->occ[s->box[k]] = 0;
    if (lost != NULL) {
        *status = SOLVER_UNSOLVABLE;
        *reason = lost;
        return SOLVER_NIL;
    }
    solver_board_pack(b, s->box, s->key);
    uint64_t hash = box_hash(b, s->box) ^ b->zplayer[player];
    uint32_t i = solver_table_add(&s->table, hash, player, s->key);
    if (i == SOLVER_NIL) {
        *status = SOLVER_UNKNOWN;
        *reason = "memory limit";
        return SOLVER_NIL;
    }
    (*a->nodes)++;
    solver_node *n = solver_table_node(&s->table, i);
    n->parent = SOLVER_NIL;
    n->h = (uint16_t)h;
    for (uint32_t k = 0; k < b->nboxes; k++)
        n->on_goals = (uint16_t)(n->on_goals + b->goal[s->box[k]]);
    n->from = n->to = SOLVER_NONE;
    n->run = 255;
    if (h == 0)
        s->found = i;
    return i;
}

solver_search *solver_search_start(const solver_search_args *args)
{
    search *s = malloc(sizeof *s);
    if (s == NULL)
        return NULL;
    if (setup(s, args) < 0) {
        teardown(s);
        free(s);
        return NULL;
    }
    s->status = SOLVER_UNKNOWN;
    s->reason = "out of memory";
    uint32_t root = add_root(s, &s->status, &s->reason);
    if (root == SOLVER_NIL) {
        s->over = true;
    } else if (s->found != SOLVER_NIL) {
        s->over = true;
        s->status = SOLVER_SOLVED;
        s->reason = "solved";
    } else if (enqueue(s, root) < 0) {
        s->over = true;
        s->reason = s->stop;
    }
    return s;
}

/* Settles the outcome once the loop has stopped. */
static void conclude(search *s)
{
    s->over = true;
    if (s->found != SOLVER_NIL) {
        s->status = SOLVER_SOLVED;
        s->reason = "solved";
    } else if (s->stop != NULL) {
        s->status = SOLVER_UNKNOWN;
        s->reason = s->stop;
    } else if (s->macro_used) {
        s->status = SOLVER_UNKNOWN;
        s->reason = SOLVER_REASON_MACROS;
    } else {
        s->status = SOLVER_UNSOLVABLE;
        s->reason = "every position reachable from the start is lost";
    }
}

/* Items in open list q. */
static uint32_t queued(const search *s, uint32_t q)
{
    return s->args->cells[q] ? s->cells[q].count : s->open[q].count;
}

/* The next node of open list q, which must not be empty. */
static uint32_t dequeue(search *s, uint32_t q)
{
    uint64_t item =
        s->args->cells[q] ? solver_cells_pop(&s->cells[q]) : solver_open_pop(&s->open[q]);
    return SOLVER_NIL - (uint32_t)item;
}

bool solver_search_run(search *s, uint32_t expansions)
{
    if (s->over)
        return true;
    const solver_search_args *args = s->args;
    uint64_t node_limit = args->options->node_limit;
    for (uint32_t done = 0; done < expansions; done++) {
        /* every node sits in every list, so one empty list means all are */
        if (queued(s, s->turn) == 0 || s->found != SOLVER_NIL || s->stop != NULL)
            break;
        uint32_t i = dequeue(s, s->turn);
        s->turn = s->turn + 1 < args->queues ? s->turn + 1 : 0;
        solver_node *n = solver_table_node(&s->table, i);
        if (n->closed)
            continue;
        if (n->h == 0) {
            s->found = i;
            break;
        }
        expand(s, i);
        /* the clock after every expansion (a read costs a fraction of
         * one): the wall time a limit overruns by is the work between two
         * reads divided by the share of a core the search gets, which a
         * loaded machine makes small */
        if (out_of_time(s))
            break;
        if (node_limit != 0 && *args->nodes >= node_limit)
            s->stop = "node limit";
        if (args->node_cap != 0 && s->table.count >= args->node_cap)
            s->stop = SOLVER_REASON_CAP;
    }
    if (queued(s, s->turn) == 0 || s->found != SOLVER_NIL || s->stop != NULL)
        conclude(s);
    return s->over;
}

int solver_search_status(const search *s, const char **reason)
{
    *reason = s->reason;
    return s->over ? s->status : SOLVER_UNKNOWN;
}

int solver_search_moves(const search *s, solver_moves *moves)
{
    memset(moves, 0, sizeof *moves);
    if (s->found == SOLVER_NIL)
        return -1;
    return collect((search *)s, s->found, moves);
}

void solver_search_free(search *s)
{
    if (s == NULL)
        return;
    teardown(s);
    free(s);
}

const solver_patterns *solver_search_patterns(const solver_search *s)
{
    return s->learn ? &s->patterns : NULL;
}

const solver_table *solver_search_table(const solver_search *s)
{
    return &s->table;
}
