/* Private declarations shared by the solver's files. Squares are the floor
 * cells inside the walls, numbered in reading order (so the top-left-most
 * square of an area has the smallest number); boxes live on squares. */
#ifndef SOLVER_INTERNAL_H
#define SOLVER_INTERNAL_H

#include "level.h"
#include "solver.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SOLVER_NONE 0xFFFFu /* no square */
#define SOLVER_FAR 0xFFFFu  /* a distance that is never reached */

/* The level seen by the search: its squares and what never changes. */
typedef struct solver_board {
    uint32_t width, height; /* of the level */
    uint32_t nsq;           /* squares */
    uint32_t nboxes;        /* boxes, equal to goals */
    uint16_t *cell;         /* square -> level cell */
    uint16_t *square;       /* level cell -> square, or SOLVER_NONE */
    uint16_t *nb;           /* nb[s * 4 + d]: the square next to s in direction d, or NONE */
    uint8_t *goal;          /* 1 on goal squares */
    uint8_t *dead;          /* 1 where a box can never reach any goal */
    uint16_t *goals;        /* the goal squares, nboxes of them */
    uint16_t *dist;         /* dist[s * nboxes + g]: fewest pushes from s to goals[g], or FAR */
    uint8_t *side;          /* side[s * 4 + d]: the part of the floor without s that the
                               neighbour on side d is in, named by its smallest side; 0xFF
                               where there is no neighbour */
    uint64_t *zbox;         /* Zobrist keys of a box on each square */
    uint64_t *zplayer;      /* Zobrist keys of the normalised player on each square */
    uint16_t *live;         /* square -> index among squares that are not dead, or NONE */
    uint16_t *live_square;  /* that index -> square */
    uint32_t nlive;
    uint32_t key_bytes; /* bytes of a packed box set */
    bool key_bitset;    /* packed as a bitset over live squares, else a sorted list */
    bool wide_list;     /* a sorted list of 16-bit squares, else of bytes */
    uint64_t bytes;     /* memory the board holds */
} solver_board;

/* Analyses lvl: squares, neighbours, goals, push distances, dead squares and
 * keys. Boxes are not part of the board. Returns 0, or -1 when memory runs
 * out or the level has more boxes than the solver handles (the board is then
 * released). */
int solver_board_build(solver_board *b, const soko_level *lvl);

/* Releases what solver_board_build allocated. Accepts a zeroed board. */
void solver_board_free(solver_board *b);

/* Packs a set of boxes (squares in any order, none dead) into key_bytes bytes. */
void solver_board_pack(const solver_board *b, const uint16_t *box, uint8_t *key);

/* Unpacks a key into the boxes' squares in ascending order. */
void solver_board_unpack(const solver_board *b, const uint8_t *key, uint16_t *box);

/* Work space for flood fills over squares, reused between calls. */
typedef struct solver_fill {
    uint32_t *mark; /* mark[s] == stamp when s was reached in the current fill */
    uint32_t stamp;
    uint16_t *queue;
    uint32_t n;    /* squares the marks cover (all, and one more) */
    uint32_t size; /* squares the last fill reached (solver_reach and solver_reach_push) */
} solver_fill;

int solver_fill_init(solver_fill *f, uint32_t nsq);
void solver_fill_free(solver_fill *f);

/* Starts a new fill: every mark becomes stale. */
void solver_fill_begin(solver_fill *f);

/* The squares the player reaches from `start` around boxes (occ[s] != 0),
 * marked in f with a new stamp, their number in f->size. Returns the
 * smallest square reached, the player's normalised position. */
uint16_t solver_reach(const solver_board *b, const uint16_t *occ, uint16_t start, solver_fill *f);

/* The player's area after the push of a box from `from` to `to` (occ
 * already showing it, the player on `from`), given `before`, the area
 * before the push, and its smallest square `least`. Returns the player's
 * normalised square. When *grown is set, `after` marks only the squares
 * the push added and the area is those plus the squares of `before` other
 * than `to`; otherwise `after` marks the whole area. Either way
 * after->size is the size of the whole area. */
uint16_t solver_reach_push(const solver_board *b, const uint16_t *occ, const solver_fill *before,
                           uint16_t least, uint16_t from, uint16_t to, solver_fill *after,
                           bool *grown);

/* The Hungarian assignment of boxes to goals by push distance: the lower
 * bound. Duals and matches are kept so that a position differing in one box
 * is re-solved in O(n^2). */
typedef struct solver_match {
    uint32_t n;
    int64_t *u, *v; /* potentials of rows (boxes) and columns (goals), 1-based */
    uint32_t *p;    /* p[j]: the row matched to column j, 1-based; p[0] is work space */
    int64_t *minv;  /* work space */
    uint32_t *way;  /* work space */
    uint8_t *used;  /* work space */
    uint32_t *rows; /* work space */
    int64_t cost;   /* the matching's total */
} solver_match;

#define SOLVER_BOUND_DEAD 0xFFFFu /* no assignment of boxes to goals exists */

int solver_match_init(solver_match *m, uint32_t n);
void solver_match_free(solver_match *m);

/* Copies the duals and matches of src into dst (same n). */
void solver_match_copy(solver_match *dst, const solver_match *src);

/* Solves the assignment of the boxes box[0..n) from scratch. Returns the
 * bound (total pushes) or SOLVER_BOUND_DEAD. */
uint32_t solver_match_solve(solver_match *m, const solver_board *b, const uint16_t *box);

/* Re-solves after box number `row` (0-based) moved: box[] already holds its
 * new square, m holds the optimum before the move. Returns the new bound or
 * SOLVER_BOUND_DEAD. */
uint32_t solver_match_update(solver_match *m, const solver_board *b, const uint16_t *box,
                             uint32_t row);

/* Results of solver_freeze_check. */
enum {
    SOLVER_MOVABLE = 0,         /* the box may still move */
    SOLVER_FROZEN_ON_GOALS = 1, /* it never moves again, nor the boxes holding it: all on goals */
    SOLVER_FROZEN_OFF_GOAL = 2  /* one of them is off a goal: the position is lost */
};

/* Whether the box on `s` can ever move again (moving onto a dead square does
 * not count), held by walls, dead squares and other such boxes. occ[s] != 0
 * marks boxes; work holds nsq bytes, all zero, and is left zero. */
int solver_freeze_check(const solver_board *b, const uint16_t *occ, uint16_t s, uint8_t *work);

/* Work space for the check of goals walled off by frozen boxes. */
typedef struct solver_fixed {
    uint8_t *wall; /* 1 on squares of frozen boxes */
    uint8_t *mark; /* squares from which the goal being examined is reached */
    uint16_t *queue;
    uint8_t *edge;    /* edge[i * n + j]: box i can reach goal j */
    uint16_t *boxes;  /* the boxes that may move */
    uint16_t *goals;  /* the goals they must fill */
    uint16_t *owner;  /* the box matched to each goal, or NONE */
    uint8_t *visited; /* goals seen by the current augmenting search */
    uint32_t n;       /* boxes, or 0 when the level is too big for the check */
    /* The squares each goal is reached from, kept for a few sets of frozen
     * boxes: slot k holds the set's key, and in `sets` the set itself
     * followed by one set of squares per goal left, `words` words each. */
    uint32_t words;
    uint32_t slots; /* a power of two */
    uint64_t *keys;
    uint8_t *valid;
    uint64_t *sets;
    uint64_t bytes; /* memory held */
} solver_fixed;

/* Bytes the fixed check's cache may hold, unless one entry is larger. */
#define SOLVER_FIXED_CACHE_BYTES ((uint64_t)1 << 20)

int solver_fixed_init(solver_fixed *fx, const solver_board *b);
void solver_fixed_free(solver_fixed *fx);

/* True when the boxes that can still move cannot all reach distinct goals
 * among those not held by frozen boxes, the frozen boxes taken as walls:
 * the position is lost. Boxes are box[0..nboxes) with occ as for
 * solver_freeze_check; work as there. */
bool solver_fixed_deadlock(solver_fixed *fx, const solver_board *b, const uint16_t *occ,
                           const uint16_t *box, uint8_t *work);

/* One push: the box on `box` moves one square in direction dir. */
typedef struct solver_push {
    uint16_t box;
    uint8_t dir;
} solver_push;

/* Work space for corral analysis. */
typedef struct solver_corral {
    uint32_t *comp; /* component stamp of each square */
    uint32_t stamp;
    uint16_t *queue;
    solver_push *best;
    solver_push *cand;
} solver_corral;

int solver_corral_init(solver_corral *c, const solver_board *b);
void solver_corral_free(solver_corral *c);

/* Looks for a PI-corral in the position (boxes in occ, the player's reach
 * marked in fill with its current stamp). Returns -1 when there is none;
 * otherwise the pushes that solutions may start with are in c->best and
 * their number is returned: 0 means the position is lost. */
int solver_corral_find(solver_corral *c, const solver_board *b, const uint16_t *occ,
                       const solver_fill *reach);

/* One stored position. Its packed box set lives beside it in the table. */
typedef struct solver_node {
    uint64_t hash;      /* Zobrist hash of the boxes and the normalised player */
    uint32_t parent;    /* the node it was reached from, or SOLVER_NIL */
    uint32_t next;      /* the link to the next node in the same hash bucket (see table.c) */
    uint16_t player;    /* the player's normalised square */
    uint16_t g;         /* pushes from the start along the best path known */
    uint16_t h;         /* the lower bound on the pushes still needed */
    uint16_t from;      /* the box move from the parent: the box's square before... */
    uint16_t to;        /* ...and after it */
    uint16_t on_goals;  /* boxes on goals */
    uint8_t closed : 1; /* expanded, and not reopened since */
    uint8_t plan : 4;   /* boxes out of the goal rooms' plans (see search.c), at most 15 */
    uint8_t links : 3;  /* room links holding a box (see links.c), at most 7 */
    uint8_t regions;    /* areas of empty squares the player cannot reach, at most 255 */
    uint8_t run;        /* pushes near their last one since one that was not, at most 255 */
    uint8_t weight;     /* pushes from the start that brought no box home and joined no areas */
} solver_node;

#define SOLVER_NIL 0xFFFFFFFFu

/* The transposition table: every position stored, found by hash. */
typedef struct solver_table {
    uint32_t key_bytes;
    uint32_t count;
    solver_node **nodes; /* chunks of nodes */
    uint8_t **keys;      /* chunks of packed box sets */
    uint32_t nchunks, chunk_cap;
    uint64_t slots;      /* nodes the chunks hold; a last chunk smaller than the others ends them */
    uint32_t *bucket;    /* links to the first node of each chain (see table.c) */
    uint32_t nbuckets;   /* a power of two */
    uint32_t index_bits; /* bits of a link holding a node's number */
    uint32_t tag_mask;   /* bits of a link holding its node's hash tag */
    uint64_t bytes;      /* memory held */
    uint64_t budget;     /* memory it may hold */
} solver_table;

int solver_table_init(solver_table *t, uint32_t key_bytes, uint64_t budget);
void solver_table_free(solver_table *t);

/* The node with this hash, player and box set, or SOLVER_NIL. */
uint32_t solver_table_find(const solver_table *t, uint64_t hash, uint16_t player,
                           const uint8_t *key);

/* Stores a new node (the caller fills its other fields) and returns its
 * number, or SOLVER_NIL when the memory budget or malloc runs out. */
uint32_t solver_table_add(solver_table *t, uint64_t hash, uint16_t player, const uint8_t *key);

solver_node *solver_table_node(const solver_table *t, uint32_t i);
const uint8_t *solver_table_key(const solver_table *t, uint32_t i);

/* The open list: a binary heap of (priority, node) pairs, smallest first. */
typedef struct solver_open {
    uint64_t *item;
    uint32_t count, cap;
} solver_open;

/* Adds an item; returns 0, or -1 when memory runs out. */
int solver_open_push(solver_open *o, uint64_t item);

/* Removes and returns the smallest item; the list must not be empty. */
uint64_t solver_open_pop(solver_open *o);
void solver_open_free(solver_open *o);

/* The feature-space list (after Festival's FESS search): the positions
 * fall into cells by their features (boxes home, areas cut off), each cell
 * a heap of its own, and the cells are popped in turn, one position each.
 * A cell of a few positions gets as many turns as one of millions: the
 * search keeps trying every kind of progress instead of digging where the
 * bound looks best. */
typedef struct solver_cells {
    solver_open *cell;
    uint32_t ncells;
    uint32_t cursor; /* the cell popped last */
    uint32_t count;  /* items in all the cells */
    uint64_t bytes;  /* memory the heaps hold */
} solver_cells;

int solver_cells_init(solver_cells *c, uint32_t ncells);
void solver_cells_free(solver_cells *c);

/* Adds an item to a cell (the last one when `cell` is beyond them).
 * Returns 0, or -1 when memory runs out. */
int solver_cells_push(solver_cells *c, uint32_t cell, uint64_t item);

/* Removes the smallest item of the next cell after the last one popped
 * that holds any. The list must not be empty. */
uint64_t solver_cells_pop(solver_cells *c);

/* Work space for box paths. */
typedef struct solver_boxpath {
    uint32_t *prev; /* the state each state was reached from */
    uint32_t *queue;
    uint32_t *path; /* the states before each push of the last path found */
    uint8_t *area;  /* the player's area around the box */
    uint16_t *fill;
    uint8_t *near; /* per square, the sides of a box there the player reached (see boxpath.c) */
} solver_boxpath;

int solver_boxpath_init(solver_boxpath *bp, const solver_board *b);
void solver_boxpath_free(solver_boxpath *bp);

/* Marks in bp->area the squares the player reaches from `start` around the
 * boxes of occ (not 0 where a box stands) and one more box on `box`. */
void solver_boxpath_area(solver_boxpath *bp, const solver_board *b, const uint16_t *occ,
                         uint16_t start, uint16_t box);

/* The fewest pushes that bring the box on `from` to `to`, the player starting
 * on `player` and the other boxes (occ, which must not mark `from`) staying
 * put. Returns their number, with bp->path[k] = box square * 4 + player side
 * before push k and *player_end where the player stands after the last;
 * -1 when the box cannot get there. */
int solver_boxpath_find(solver_boxpath *bp, const solver_board *b, const uint16_t *occ,
                        uint16_t from, uint16_t to, uint16_t player, uint16_t *player_end);

/* Keeps the `cap` boxes nearest a goal among those offered in turn:
 * near[0..*count) in ascending dist. Offers x at distance d; the
 * farthest falls off once cap are kept, and ties keep the earlier. */
void solver_nearest_offer(uint16_t *near, uint32_t *dist, uint32_t *count, uint32_t cap, uint16_t x,
                          uint32_t d);

/* solver_boxpath_find when the player's area with the box on `from` is
 * known already: `area` marks it (with its stamp), and holds `player`. */
int solver_boxpath_find_in(solver_boxpath *bp, const solver_board *b, const uint16_t *occ,
                           uint16_t from, uint16_t to, const solver_fill *area, uint16_t player,
                           uint16_t *player_end);

/* A goal room and the order its goals are filled in (see macro.c). */
#define SOLVER_MAX_ENTRIES 16

/* The most orders a room works out again in one search: a pass costs a
 * box path from each entrance to each goal left at each of its steps, and
 * a big room whose boxes come in out of order meets thousands of sets of
 * goals held (XSokoban 42: over 4,600 at 500,000 positions, 17.5 s
 * against 1.8 without re-planning). The levels re-planning helps need
 * fewer than 120. */
#define SOLVER_PLAN_PASSES 256

/* A goal the room fills next once it holds a set of goals that is not a
 * start of its order: a packing order worked out again (see macro.c). */
typedef struct solver_plan {
    uint64_t held; /* the hash of the goals held (0: an empty slot) */
    uint16_t next; /* the goal filled next, or NONE when no order is left */
} solver_plan;

typedef struct solver_room {
    uint32_t size; /* squares of the room */
    uint16_t *squares;
    uint32_t ngoals;
    uint16_t *order; /* the goals, first filled first */
    uint32_t ngates;
    uint16_t gate[SOLVER_MAX_ENTRIES]; /* the squares around the room, its entrances */
    uint32_t nentries;
    uint16_t *entries;  /* the pushes in: entrance square and room square, in pairs */
    solver_plan *plans; /* orders worked out again, by the goals held */
    uint32_t passes;    /* orders worked out again so far (see macro.c) */
} solver_room;

typedef struct solver_macros {
    const solver_board *b;
    solver_boxpath path; /* work space for the pushes of a macro */
    uint32_t nrooms;
    solver_room *room;
    uint16_t *room_of;     /* the room of each square, or NONE */
    uint16_t *entrance_of; /* the room each square is an entrance of, or NONE */
    bool replan;           /* work the order out again when the room breaks it */
    uint16_t *work;        /* work space for that: 3 * (nsq + 1) squares */
    /* a packing order over all the goals, for a level without rooms (see
     * order.c): norder goals (0: none), and each square's place in it or NONE */
    uint32_t norder;
    uint16_t *order;
    uint16_t *order_rank;
} solver_macros;

/* Finds the goal rooms of the board for the start position (boxes and
 * player); with `held`, a room may hold boxes on goals at the start, its
 * order then starting with their goals. Returns 0 (perhaps with no
 * rooms), or -1 when memory runs out. */
int solver_macros_build(solver_macros *m, const solver_board *b, const uint16_t *boxes,
                        uint16_t player, bool held);
void solver_macros_free(solver_macros *m);

/* Works out the packing order over all the goals of a board without goal
 * rooms (m built by solver_macros_build, with no rooms), boxes coming from
 * the start position's squares, the player from its start square. Leaves
 * m->norder 0 when the board has rooms, is too big or has no such order.
 * Returns 0, or -1 when memory runs out. */
int solver_order_build(solver_macros *m, const uint16_t *boxes, uint16_t player);

/* How many goals of the order, from its first, hold boxes (occ marking
 * them): the next to fill is m->order[that] when it is below m->norder. */
uint32_t solver_order_filled(const solver_macros *m, const uint16_t *occ);

/* When the push from `from` to `to` takes a box into a goal room from one of
 * its entrances, the room holds exactly the goals filled so far and the box
 * can go on to the next goal: *goal and *player (where the player ends) are
 * set and the extra pushes returned. Otherwise returns -1. occ marks the
 * boxes after the push; it is used as work space and left as it was. */
int solver_macros_room_push(solver_macros *m, const solver_board *b, uint16_t *occ, uint16_t from,
                            uint16_t to, uint16_t *goal, uint16_t *player);

/* The goal room r fills next, when it holds the goals before it in its
 * packing order and no other box (occ marking the boxes); or, with
 * m->replan, when every box in it stands on a goal and an order of the
 * goals left exists with those held, the first of that order. Otherwise
 * SOLVER_NONE. */
uint16_t solver_macros_next_goal(solver_macros *m, const uint16_t *occ, uint32_t r);

/* When the push from `from` to `to` (direction dir) takes a box into a
 * tunnel off goal with the player walled in behind it, the box goes on
 * through the tunnel: *end (the box's last square) and *player (where the
 * player ends) are set and the extra pushes returned (see tunnel.c).
 * Otherwise returns -1. occ marks the boxes after the push. */
int solver_tunnel_push(const solver_board *b, const uint16_t *occ, uint16_t from, uint16_t to,
                       int dir, uint16_t *end, uint16_t *player);

/* Room links (see links.c): the passages one square wide that join two
 * parts of the floor or more. */
typedef struct solver_links {
    uint16_t *link_of; /* square -> its link, or NONE */
    uint32_t nlinks;
    uint8_t *seen; /* work space, zero between calls */
    uint64_t bytes;
} solver_links;

/* Finds the links of the board. Returns 0, or -1 when memory runs out. */
int solver_links_init(solver_links *l, const solver_board *b);
void solver_links_free(solver_links *l);

/* The links holding one of the boxes box[0..n) or more. */
uint32_t solver_links_blocked(solver_links *l, const uint16_t *box, uint32_t n);

/* Relevance cuts (see relevance.c): squares within RELEVANCE_NEAR steps of
 * each other are near; a push is near when its box is near where one of
 * the last RELEVANCE_MEMORY pushes left theirs; RELEVANCE_RUN near pushes
 * in a row earn a push that is not. */
#define RELEVANCE_NEAR 4
#define RELEVANCE_RUN 3
#define RELEVANCE_MEMORY 3

typedef struct solver_relevance {
    uint8_t *dist; /* steps between squares, nsq by nsq, 255 beyond RELEVANCE_NEAR;
                      NULL when the board is too big for cuts */
    uint32_t nsq;
    uint64_t bytes;
} solver_relevance;

/* Measures the steps between the board's squares, or leaves r->dist NULL
 * (no cuts) on a board too big. Returns 0, or -1 when memory runs out. */
int solver_relevance_init(solver_relevance *r, const solver_board *b);
void solver_relevance_free(solver_relevance *r);

/* Whether squares a and c are near; r->dist must not be NULL. */
bool solver_relevance_near(const solver_relevance *r, uint16_t a, uint16_t c);

/* The small searches for corral deadlocks (see subsearch.c). */
#define SOLVER_SUB_BOXES 6

typedef struct solver_sub {
    struct solver_sub_work *work;
    struct solver_patterns *learn; /* where lost sets are remembered, or NULL */
    uint64_t bytes;
    uint64_t checks, hits, lost; /* for tuning */
    /* For tests: each stored player area a small search reads is compared
     * with a fresh fill, and the comparisons and differences counted. */
    bool check_areas;
    uint64_t areas_checked, areas_wrong;
} solver_sub;

int solver_sub_init(solver_sub *sb, const solver_board *b);
void solver_sub_free(solver_sub *sb);

/* True when the boxes of the corral next to the box just pushed onto
 * `pushed` (the area the player cannot reach around it, reach marking the
 * player's area from `player`) can never all reach goals, even with every
 * other box taken off the board: the position is lost. False when they can,
 * or when that was not settled within a small budget. occ marks the boxes. */
bool solver_sub_deadlock(solver_sub *sb, const solver_board *b, const uint16_t *occ,
                         const solver_fill *reach, uint16_t pushed, uint16_t player);

/* Deadlock patterns learnt from the small searches (see pattern.c): sets of
 * at most SOLVER_SUB_BOXES boxes that cannot all reach goals with the
 * player in a given area around them. */
#define SOLVER_PATTERNS_MAX 16384

typedef struct solver_patterns {
    uint32_t n, cap; /* patterns stored, and room for them */
    uint32_t words;  /* 64-bit words of a player's area */
    uint16_t *box;   /* pattern k's squares from k * SOLVER_SUB_BOXES */
    uint8_t *count;  /* its boxes */
    uint64_t *area;  /* the squares of its player's area, words bits from k * words */
    uint32_t *next;  /* next[k * SOLVER_SUB_BOXES + i]: the next link on box i's square */
    uint32_t *head;  /* square -> first link, or SOLVER_NIL */
    uint16_t *occ;   /* work space, zero between calls */
    solver_fill fill;
    uint64_t bytes, hits;
} solver_patterns;

/* Sets up room for as many patterns as `budget` bytes hold (at most
 * SOLVER_PATTERNS_MAX). Returns 0, or -1 when memory runs out. */
int solver_patterns_init(solver_patterns *p, const solver_board *b, uint64_t budget);
void solver_patterns_free(solver_patterns *p);

/* Remembers that the boxes box[0..n) cannot all reach goals on their own
 * with the player on `player`. Does nothing once the room is full. */
void solver_patterns_learn(solver_patterns *p, const solver_board *b, const uint16_t *box,
                           uint32_t n, uint16_t player);

/* True when a pattern holding `to` is in the position (boxes in occ, the
 * player on `player`): the position is lost. */
bool solver_patterns_match(solver_patterns *p, const uint16_t *occ, uint16_t to, uint16_t player);

/* True when any pattern is in the position (boxes in occ, the player on
 * `player`): the whole check, for a position not reached by one push. */
bool solver_patterns_any(const solver_patterns *p, const uint16_t *occ, uint16_t player);

/* Turns the box moves of a solution into steps and LURD text: from[i] ->
 * to[i] is the i-th box move (one or more pushes of one box), played from
 * the position of `start` (its boxes and player). Fills out->lurd, moves and
 * pushes, having replayed every step on the core; with first_push_only,
 * stops after the first push. Returns 0, or -1 when memory runs out or a step
 * is refused (a bug: out->lurd then stays NULL). */
int solver_solution_build(const solver_board *b, const soko_level *start, const uint16_t *from,
                          const uint16_t *to, uint32_t n, bool first_push_only, solver_result *out);

#define SOLVER_MAX_QUEUES 4

/* What a search needs besides the board. */
typedef struct solver_search_args {
    const solver_board *board;
    const uint16_t *boxes; /* the start position's boxes (squares) */
    uint16_t player;       /* the start player's square */
    const solver_options *options;
    double started;    /* solver_clock() when the call began */
    uint64_t memory;   /* bytes this search may hold */
    uint64_t *nodes;   /* positions stored by all the searches of the call */
    uint64_t node_cap; /* positions this search may store (0: no cap) */
    /* The open lists, popped in turn: list k orders nodes by
     * g_weight[k] * g + h_weight[k] * h + r_weight[k] * regions +
     * p_weight[k] * (boxes off goals) (then by h, newest first). */
    uint32_t queues;
    uint8_t g_weight[SOLVER_MAX_QUEUES];
    uint8_t h_weight[SOLVER_MAX_QUEUES];
    uint8_t r_weight[SOLVER_MAX_QUEUES];
    uint8_t p_weight[SOLVER_MAX_QUEUES];
    /* Whether list k is a feature-space list: its mix then orders the
     * positions within a cell, after their weight. */
    bool cells[SOLVER_MAX_QUEUES];
    bool macros; /* push boxes entering goal rooms and tunnels on */
} solver_search_args;

/* The box moves of a solution: from[i] -> to[i]. */
typedef struct solver_moves {
    uint16_t *from;
    uint16_t *to;
    uint32_t n;
} solver_moves;

/* The reason of a search that found nothing once goal-room macros had
 * narrowed it: a search without them may still find a solution. */
extern const char SOLVER_REASON_MACROS[];

/* The reason of a search that stored as many positions as it was allowed. */
extern const char SOLVER_REASON_CAP[];

/* One search, run a slice at a time so that several can take turns. */
typedef struct search solver_search;

/* Starts a search from the position in args (which must outlive it), the
 * start position already examined. Returns NULL when memory runs out. */
solver_search *solver_search_start(const solver_search_args *args);

/* Runs up to `expansions` expansions. Returns true once the search is over. */
bool solver_search_run(solver_search *s, uint32_t expansions);

/* How the search ended (SOLVER_UNKNOWN while it runs, or when a limit or
 * the macros stopped it), and why. */
int solver_search_status(const solver_search *s, const char **reason);

/* The box moves of the solution of a search that ended SOLVER_SOLVED; the
 * caller frees from and to. Returns 0, or -1 when memory runs out. */
int solver_search_moves(const solver_search *s, solver_moves *moves);

void solver_search_free(solver_search *s);

/* The deadlock patterns the search learnt, or NULL when it learns none. */
const solver_patterns *solver_search_patterns(const solver_search *s);

/* The table of positions the search stored. */
const solver_table *solver_search_table(const solver_search *s);

/* The search from the other end (see pull.c): boxes pulled back from the
 * solved position until it meets a position a forward search stored. */
typedef struct solver_pull solver_pull;

/* Starts it for the level and start position of args (which must outlive
 * it; the open-list weights and macros are not used), its roots stored.
 * Returns NULL when memory runs out. */
solver_pull *solver_pull_start(const solver_search_args *args);

/* Runs up to `expansions` expansions, looking positions up in the tables
 * of the forward searches fore[0..n) (NULL ones skipped; the array must
 * outlive the search). Returns true once it is over: met, or stopped by a
 * limit or by running out of positions, which proves nothing. */
bool solver_pull_run(solver_pull *p, solver_search *const *fore, uint32_t n, uint32_t expansions);

/* Forward search k started again: its table is a new one. */
void solver_pull_forget(solver_pull *p, uint32_t k);

/* Whether it met a forward search. */
bool solver_pull_met(const solver_pull *p);

/* The box moves of the solution through the meeting: the forward moves to
 * it, then the pulls reversed. The caller frees from and to. Returns 0, or
 * -1 when it has not met or memory runs out. */
int solver_pull_moves(const solver_pull *p, solver_moves *moves);

void solver_pull_free(solver_pull *p);

/* Seconds on a monotonic clock. */
double solver_clock(void);

#endif
