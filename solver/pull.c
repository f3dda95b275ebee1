/* The search from the other end: boxes pulled back from the solved
 * position towards the start's box squares until a position it stores is
 * one a forward search stored too. A pull moves a box one square towards
 * the player, who steps back one square, which must be free. Read
 * backwards, the pull of a box from a to b is a push from b to a: the
 * forward path to the meeting position followed by the pulls reversed is a
 * solution.
 *
 * Positions are keyed as the forward tables key them (the same hash,
 * normalised player and packed box set), so that each side looks its new
 * positions up in the other's table: every position this search stores
 * is looked up in the forward tables, and at each of its turns every
 * position the forward searches stored since its last turn is looked up in
 * its own. A box pulled onto a square from which it can never be pulled
 * to any start square is never stored (its own dead squares), and the
 * order is best first by pulls made and a bound: the boxes matched to the
 * start squares by pull distance. It starts from every area the player
 * can stand in around the solved boxes. Running out of positions proves
 * nothing here: its only verdict is a solution. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* The forward searches whose tables it looks positions up in, at most. */
#define PULL_PEERS 8

/* Its order: PULL_G * g + PULL_H * h, g the pulls made, h the bound. */
#define PULL_G 1
#define PULL_H 3

struct solver_pull {
    const solver_search_args *args;
    const solver_board *b;
    /* b seen from the other end: the start's box squares as goals, pull
     * distances to them and its own dead squares; the rest is b's */
    solver_board back;
    solver_table table;
    solver_open open;
    solver_fill reach, child;
    solver_match match, trial;
    uint16_t *box, *occ;
    uint8_t *key;
    uint64_t budget;
    bool over;
    const char *stop; /* why it stopped, or NULL */
    solver_search *const *fore;
    uint32_t nfore;
    uint32_t looked[PULL_PEERS]; /* nodes of each forward table looked up so far */
    uint32_t met;                /* its node where the searches met, or SOLVER_NIL */
    uint32_t met_peer, met_node; /* the forward search and its node there */
};

typedef struct solver_pull pull;

/* Fewest pushes that bring a box from `start` to every square (the player
 * on any side at first, walking around the box only), into dist[x *
 * stride]: a pull from x back to start takes as many. */
static void pushes_from(const solver_board *b, uint16_t start, uint16_t *dist, uint32_t stride,
                        uint16_t *state, uint32_t *queue)
{
    uint32_t n = b->nsq, head = 0, tail = 0;
    for (uint32_t i = 0; i < n * 4; i++)
        state[i] = SOLVER_FAR;
    for (int d = 0; d < 4; d++) {
        uint8_t part = b->side[start * 4 + d];
        if (part != 0xFF && state[start * 4 + part] == SOLVER_FAR) {
            state[start * 4 + part] = 0;
            queue[tail++] = start * 4u + part;
        }
    }
    while (head < tail) {
        uint32_t st = queue[head++];
        uint16_t x = (uint16_t)(st / 4);
        uint8_t part = (uint8_t)(st % 4);
        for (int d = 0; d < 4; d++) {
            /* the player pushes from the side opposite d */
            int behind = d ^ 2;
            uint16_t y = b->nb[x * 4 + d];
            if (y == SOLVER_NONE || b->nb[x * 4 + behind] == SOLVER_NONE ||
                b->side[x * 4 + behind] != part)
                continue;
            uint32_t next = y * 4u + b->side[y * 4 + behind];
            if (state[next] != SOLVER_FAR)
                continue;
            state[next] = (uint16_t)(state[st] + 1);
            queue[tail++] = next;
        }
    }
    for (uint32_t x = 0; x < n; x++) {
        uint16_t best = SOLVER_FAR;
        for (int k = 0; k < 4; k++)
            if (state[x * 4 + k] < best)
                best = state[x * 4 + k];
        dist[(size_t)x * stride] = best;
    }
}

/* Builds p->back from the board and the start's boxes. Returns 0, or -1
 * when memory runs out. */
static int build_back(pull *p)
{
    const solver_board *b = p->b;
    solver_board *k = &p->back;
    uint32_t n = b->nsq, boxes = b->nboxes;
    *k = *b;
    k->goal = calloc(n + 1, 1);
    k->dead = calloc(n + 1, 1);
    k->goals = malloc((boxes + 1) * sizeof *k->goals);
    k->dist = malloc(((size_t)n * boxes + 1) * sizeof *k->dist);
    uint16_t *state = malloc(((size_t)n * 4 + 1) * sizeof *state);
    uint32_t *queue = malloc(((size_t)n * 4 + 1) * sizeof *queue);
    int rc = k->goal && k->dead && k->goals && k->dist && state && queue ? 0 : -1;
    for (uint32_t g = 0; rc == 0 && g < boxes; g++) {
        uint16_t s = p->args->boxes[g];
        k->goals[g] = s;
        k->goal[s] = 1;
        pushes_from(b, s, &k->dist[g], boxes, state, queue);
    }
    for (uint32_t x = 0; rc == 0 && x < n; x++) {
        bool reached = false;
        for (uint32_t g = 0; g < boxes && !reached; g++)
            reached = k->dist[(size_t)x * boxes + g] != SOLVER_FAR;
        k->dead[x] = !reached;
    }
    free(state);
    free(queue);
    return rc;
}

static void free_back(solver_board *k)
{
    free(k->goal);
    free(k->dead);
    free(k->goals);
    free(k->dist);
    memset(k, 0, sizeof *k);
}

static int setup(pull *p, const solver_search_args *args)
{
    memset(p, 0, sizeof *p);
    p->args = args;
    p->b = args->board;
    p->met = SOLVER_NIL;
    const solver_board *b = p->b;
    p->box = malloc((b->nboxes + 1) * sizeof *p->box);
    p->occ = calloc(b->nsq + 1, sizeof *p->occ);
    p->key = malloc(b->key_bytes);
    if (p->box == NULL || p->occ == NULL || p->key == NULL || build_back(p) < 0)
        return -1;
    uint64_t fixed = (uint64_t)b->nsq * b->nboxes * 2 + (uint64_t)b->nsq * 64 + ((uint64_t)1 << 16);
    p->budget = args->memory > fixed ? args->memory - fixed : 0;
    if (solver_table_init(&p->table, b->key_bytes, p->budget) < 0 ||
        solver_fill_init(&p->reach, b->nsq) < 0 || solver_fill_init(&p->child, b->nsq) < 0 ||
        solver_match_init(&p->match, b->nboxes) < 0 || solver_match_init(&p->trial, b->nboxes) < 0)
        return -1;
    return 0;
}

static void teardown(pull *p)
{
    solver_table_free(&p->table);
    solver_open_free(&p->open);
    solver_fill_free(&p->reach);
    solver_fill_free(&p->child);
    solver_match_free(&p->match);
    solver_match_free(&p->trial);
    free_back(&p->back);
    free(p->box);
    free(p->occ);
    free(p->key);
}

/* Queues node i, smaller PULL_G * g + PULL_H * h first, then smaller h,
 * then the newest. */
static int enqueue(pull *p, uint32_t i)
{
    const solver_node *n = solver_table_node(&p->table, i);
    uint64_t f = (uint64_t)PULL_G * n->g + (uint64_t)PULL_H * n->h;
    if (f > 0xFFFF)
        f = 0xFFFF;
    if (solver_open_push(&p->open, (f << 48) | ((uint64_t)n->h << 32) | (SOLVER_NIL - i)) < 0) {
        p->stop = "memory limit";
        return -1;
    }
    uint64_t open_bytes = (uint64_t)p->open.cap * sizeof *p->open.item;
    p->table.budget = p->budget > open_bytes ? p->budget - open_bytes : 0;
    return 0;
}

/* Whether a forward search stored the position (hash, player, key): the
 * two ends meet there. Notes where when they do. */
static bool meets(pull *p, uint32_t i, uint64_t hash, uint16_t player, const uint8_t *key)
{
    for (uint32_t k = 0; k < p->nfore; k++) {
        if (p->fore[k] == NULL)
            continue;
        uint32_t j = solver_table_find(solver_search_table(p->fore[k]), hash, player, key);
        if (j != SOLVER_NIL) {
            p->met = i;
            p->met_peer = k;
            p->met_node = j;
            return true;
        }
    }
    return false;
}

/* Looks up in its table the positions the forward searches stored since
 * its last turn. */
static void look_up_forward(pull *p)
{
    for (uint32_t k = 0; k < p->nfore && p->met == SOLVER_NIL; k++) {
        if (p->fore[k] == NULL)
            continue;
        const solver_table *t = solver_search_table(p->fore[k]);
        for (uint32_t j = p->looked[k]; j < t->count; j++) {
            const solver_node *n = solver_table_node(t, j);
            uint32_t i = solver_table_find(&p->table, n->hash, n->player, solver_table_key(t, j));
            if (i != SOLVER_NIL) {
                p->met = i;
                p->met_peer = k;
                p->met_node = j;
                break;
            }
        }
        p->looked[k] = t->count;
    }
}

/* Stores the solved position once for every area the player can stand
 * in. Returns 0, or -1 when memory runs out. */
static int add_roots(pull *p)
{
    const solver_board *b = p->b;
    uint8_t *seen = calloc(b->nsq + 1, 1);
    if (seen == NULL)
        return -1;
    memcpy(p->box, b->goals, b->nboxes * sizeof *p->box);
    uint64_t boxes = 0;
    for (uint32_t k = 0; k < b->nboxes; k++) {
        p->occ[p->box[k]] = (uint16_t)(k + 1);
        boxes ^= b->zbox[p->box[k]];
    }
    uint32_t h = solver_match_solve(&p->match, &p->back, p->box);
    solver_board_pack(b, p->box, p->key);
    int rc = 0;
    for (uint32_t s = 0; s < b->nsq && h != SOLVER_BOUND_DEAD && rc == 0; s++) {
        if (p->occ[s] != 0 || seen[s])
            continue;
        /* the squares before s are boxes or in areas already stored, so s
         * is the smallest square of its area */
        solver_reach(b, p->occ, (uint16_t)s, &p->reach);
        for (uint32_t x = s; x < b->nsq; x++)
            seen[x] |= p->reach.mark[x] == p->reach.stamp;
        uint32_t i = solver_table_add(&p->table, boxes ^ b->zplayer[s], (uint16_t)s, p->key);
        if (i == SOLVER_NIL) {
            rc = -1;
            break;
        }
        (*p->args->nodes)++;
        solver_node *n = solver_table_node(&p->table, i);
        n->parent = SOLVER_NIL;
        n->h = (uint16_t)h;
        n->from = n->to = SOLVER_NONE;
        rc = enqueue(p, i);
    }
    for (uint32_t k = 0; k < b->nboxes; k++)
        p->occ[p->box[k]] = 0;
    free(seen);
    return rc;
}

/* Tries the pull of box number `row` from `from` to `to`, the player
 * stepping back onto `back`, from the expanded node `parent` (whose boxes
 * hash to `boxes`): stores the position it leads to when it is new and
 * the boxes can still all be pulled to start squares, and looks it up in
 * the forward tables. */
static void try_pull(pull *p, uint32_t parent, uint64_t boxes, uint32_t row, uint16_t from,
                     uint16_t to, uint16_t back)
{
    const solver_board *b = p->b;
    p->occ[from] = 0;
    p->occ[to] = (uint16_t)(row + 1);
    p->box[row] = to;
    uint16_t player = solver_reach(b, p->occ, back, &p->child);
    uint64_t hash = boxes ^ b->zbox[from] ^ b->zbox[to] ^ b->zplayer[player];
    solver_board_pack(b, p->box, p->key);
    const solver_node *pn = solver_table_node(&p->table, parent);
    uint16_t g = (uint16_t)(pn->g < 0xFFFF ? pn->g + 1 : 0xFFFF);
    uint32_t seen = solver_table_find(&p->table, hash, player, p->key);
    if (seen != SOLVER_NIL) {
        /* a shorter way re-routes it; the parent's g is below its own, so
         * the chain of parents stays free of cycles */
        solver_node *n = solver_table_node(&p->table, seen);
        if (n->g > g) {
            n->g = g;
            n->parent = parent;
            n->from = from;
            n->to = to;
            if (!n->closed)
                enqueue(p, seen);
        }
        goto undo;
    }
    solver_match_copy(&p->trial, &p->match);
    uint32_t h = solver_match_update(&p->trial, &p->back, p->box, row);
    if (h == SOLVER_BOUND_DEAD)
        goto undo;
    uint32_t i = solver_table_add(&p->table, hash, player, p->key);
    if (i == SOLVER_NIL) {
        p->stop = "memory limit";
        goto undo;
    }
    (*p->args->nodes)++;
    solver_node *n = solver_table_node(&p->table, i);
    n->parent = parent;
    n->g = g;
    n->h = (uint16_t)h;
    n->from = from;
    n->to = to;
    if (!meets(p, i, hash, player, p->key))
        enqueue(p, i);
undo:
    p->box[row] = from;
    p->occ[to] = 0;
    p->occ[from] = (uint16_t)(row + 1);
}

/* Tries every pull from node i: the player reaches the square next to a
 * box and the square behind that is free. */
static void expand(pull *p, uint32_t i)
{
    const solver_board *b = p->b;
    solver_node *n = solver_table_node(&p->table, i);
    n->closed = 1;
    solver_board_unpack(b, solver_table_key(&p->table, i), p->box);
    for (uint32_t k = 0; k < b->nboxes; k++)
        p->occ[p->box[k]] = (uint16_t)(k + 1);
    uint64_t boxes = n->hash ^ b->zplayer[n->player];
    solver_reach(b, p->occ, n->player, &p->reach);
    bool live = solver_match_solve(&p->match, &p->back, p->box) != SOLVER_BOUND_DEAD;
    for (uint32_t r = 0; live && r < b->nboxes && p->met == SOLVER_NIL && p->stop == NULL; r++) {
        uint16_t x = p->box[r];
        for (int d = 0; d < 4 && p->met == SOLVER_NIL && p->stop == NULL; d++) {
            uint16_t to = b->nb[x * 4 + d];
            if (to == SOLVER_NONE || p->reach.mark[to] != p->reach.stamp)
                continue;
            uint16_t back = b->nb[to * 4 + d];
            /* a box the forward board calls dead could not be packed; none
             * pulled from a goal ever stands there anyway */
            if (back == SOLVER_NONE || p->occ[back] != 0 || p->back.dead[to] || b->dead[to])
                continue;
            try_pull(p, i, boxes, r, x, to, back);
        }
    }
    for (uint32_t k = 0; k < b->nboxes; k++)
        p->occ[p->box[k]] = 0;
}

static bool out_of_time(pull *p)
{
    const solver_options *opt = p->args->options;
    if (opt->cancel != NULL && *opt->cancel != 0)
        p->stop = "cancelled";
    else if (opt->time_limit > 0 && solver_clock() - p->args->started > opt->time_limit)
        p->stop = "time limit";
    return p->stop != NULL;
}

solver_pull *solver_pull_start(const solver_search_args *args)
{
    pull *p = malloc(sizeof *p);
    if (p == NULL)
        return NULL;
    if (setup(p, args) < 0 || add_roots(p) < 0) {
        teardown(p);
        free(p);
        return NULL;
    }
    return p;
}

bool solver_pull_run(pull *p, solver_search *const *fore, uint32_t nfore, uint32_t expansions)
{
    if (p->over)
        return true;
    p->fore = fore;
    p->nfore = nfore < PULL_PEERS ? nfore : PULL_PEERS;
    look_up_forward(p);
    const solver_search_args *args = p->args;
    uint64_t node_limit = args->options->node_limit;
    for (uint32_t done = 0; done < expansions && p->met == SOLVER_NIL && p->stop == NULL; done++) {
        if (p->open.count == 0)
            break;
        uint32_t i = SOLVER_NIL - (uint32_t)solver_open_pop(&p->open);
        if (solver_table_node(&p->table, i)->closed)
            continue;
        expand(p, i);
        /* the clock after every expansion, as in search.c */
        if (out_of_time(p))
            break;
        if (node_limit != 0 && *args->nodes >= node_limit)
            p->stop = "node limit";
        if (args->node_cap != 0 && p->table.count >= args->node_cap)
            p->stop = SOLVER_REASON_CAP;
    }
    p->over = p->met != SOLVER_NIL || p->stop != NULL || p->open.count == 0;
    return p->over;
}

void solver_pull_forget(pull *p, uint32_t k)
{
    if (k < PULL_PEERS)
        p->looked[k] = 0;
}

bool solver_pull_met(const pull *p)
{
    return p->met != SOLVER_NIL;
}

/* The length of the chain of parents from node i of t. */
static uint32_t chain(const solver_table *t, uint32_t i)
{
    uint32_t n = 0;
    for (; solver_table_node(t, i)->parent != SOLVER_NIL; i = solver_table_node(t, i)->parent)
        n++;
    return n;
}

int solver_pull_moves(const pull *p, solver_moves *moves)
{
    memset(moves, 0, sizeof *moves);
    if (p->met == SOLVER_NIL)
        return -1;
    const solver_table *fore = solver_search_table(p->fore[p->met_peer]);
    uint32_t nf = chain(fore, p->met_node), nb = chain(&p->table, p->met);
    moves->from = malloc((nf + nb + 1) * sizeof *moves->from);
    moves->to = malloc((nf + nb + 1) * sizeof *moves->to);
    if (moves->from == NULL || moves->to == NULL) {
        free(moves->from);
        free(moves->to);
        moves->from = moves->to = NULL;
        return -1;
    }
    moves->n = nf + nb;
    /* the forward moves up to the meeting, last first */
    uint32_t k = nf;
    for (uint32_t i = p->met_node; k > 0; i = solver_table_node(fore, i)->parent) {
        const solver_node *n = solver_table_node(fore, i);
        k--;
        moves->from[k] = n->from;
        moves->to[k] = n->to;
    }
    /* then the pulls reversed, the last pull's first */
    k = nf;
    for (uint32_t i = p->met; k < nf + nb; i = solver_table_node(&p->table, i)->parent) {
        const solver_node *n = solver_table_node(&p->table, i);
        moves->from[k] = n->to;
        moves->to[k] = n->from;
        k++;
    }
    return 0;
}

void solver_pull_free(pull *p)
{
    if (p == NULL)
        return;
    teardown(p);
    free(p);
}
