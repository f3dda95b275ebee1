/* Paths: the player's walks, and the pushes that bring one box somewhere.
 *
 * Tie-breaks, the same on every build and whatever calls came before:
 * - A walk is the first of the shortest walks when they are compared step by
 *   step in the order up < right < down < left: a search labels the squares
 *   that can lie on a shortest walk with their distance to the target, then
 *   the walk takes at each square the first direction that gets one step
 *   closer.
 * - A box path has the fewest pushes, then the fewest moves. Between equal
 *   ones, each push keeps the state it was first reached from in queue order
 *   (states are queued in the order they are pushed to, the pushes of a state
 *   tried up, right, down, left), the last push is the one whose player stands
 *   on the first side in that order, and every walk between pushes follows the
 *   walk rule above.
 *
 * Walks use A* with the straight-line (Manhattan) distance, which labels far
 * fewer squares than a breadth-first search on open boards.
 *
 * The search for a box treats the other boxes as walls. The player's area
 * (free squares, the moving box's start square counted free) is cut into
 * blocks (biconnected components) by one depth-first search: with the box on
 * b, two squares next to b are joined by a walk iff their edges to b lie in
 * the same block. So the box's reach is a search over (box square, player's
 * side) states that needs no flood fill. A push path first counts pushes
 * over the same states, then marks the states that lie on some path with the
 * fewest pushes, and counts moves on those alone, layer by layer: the walk
 * between two sides is two steps round a free corner, four round a free
 * flank, or else a small A* search that stops once the sides the blocks
 * promise are found. The blocks, and a whole reach search, are kept in the
 * scratch for the next call on the same board and box.
 *
 * This relies on what soko_level_parse guarantees: a square the player can
 * stand on is enclosed, so its four neighbours are on the board. Only a box
 * on the border (decoration) has to be checked for. */
#include "path.h"

#define BLOCKING (SOKO_WALL | SOKO_OUTSIDE | SOKO_BOX)

/* A flag in next_dir once the depth-first search is over: a cut vertex. */
#define CUT 0x80u

/* The most stamps one call can take: one per state, a few more. */
#define STAMPS_PER_CALL (SOKO_MAX_CELLS * 8u)

/* The board as one call sees it: the box being moved does not count as an
 * obstacle on its start square (`lifted`). */
typedef struct view {
    const uint8_t *cell;
    uint32_t size;
    int32_t off[4];
    soko_cell lifted;
    soko_cell player;
} view;

static void view_init(view *v, const soko_game *g, soko_cell lifted)
{
    int32_t w = g->level->width;
    v->cell = g->cell;
    v->size = (uint32_t)w * g->level->height;
    v->off[SOKO_UP] = -w;
    v->off[SOKO_RIGHT] = 1;
    v->off[SOKO_DOWN] = w;
    v->off[SOKO_LEFT] = -1;
    v->lifted = lifted;
    v->player = g->player;
}

static uint32_t step(const view *v, uint32_t c, unsigned d)
{
    return (uint32_t)((int32_t)c + v->off[d]);
}

/* True when the player may stand on c while the moving box is on `placed`. */
static bool is_free(const view *v, uint32_t c, uint32_t placed)
{
    if (c == placed)
        return false;
    return !(v->cell[c] & BLOCKING) || c == v->lifted;
}

static bool on_border(const view *v, uint32_t c)
{
    uint32_t w = (uint32_t)v->off[SOKO_DOWN];
    uint32_t x = c % w;
    return c < w || c >= v->size - w || x == 0 || x == w - 1;
}

/* Makes sure the stamps a call takes from here on are all new: stale marks
 * are only ever smaller than them. */
static void begin(soko_path_scratch *s)
{
    if (s->stamp > UINT32_MAX - STAMPS_PER_CALL) {
        __builtin_memset(s->state_mark, 0, sizeof s->state_mark);
        __builtin_memset(s->cell_mark, 0, sizeof s->cell_mark);
        __builtin_memset(s->area_mark, 0, sizeof s->area_mark);
        __builtin_memset(s->flow_mark, 0, sizeof s->flow_mark);
        s->blocks_area = 0;
        s->explored = 0;
        s->stamp = 0;
    }
}

static uint32_t next_stamp(soko_path_scratch *s)
{
    return ++s->stamp;
}

/* The fewest steps from c to the nearest of the goals if nothing stood in
 * the way: the A* estimate, consistent and never too high. Rows come from a
 * multiplication by the width's reciprocal (exact for every cell index
 * below 2^16 and width up to SOKO_MAX_WIDTH), not a division. */
typedef struct estimate {
    uint32_t width;
    uint64_t inverse;
    int32_t x[4], y[4];
    int n;
} estimate;

static void estimate_init(estimate *e, const view *v, const uint32_t *goals, int n)
{
    e->width = (uint32_t)v->off[SOKO_DOWN];
    e->inverse = ((1ull << 32) + e->width - 1) / e->width;
    e->n = n;
    for (int i = 0; i < n; i++) {
        uint32_t row = (uint32_t)((goals[i] * e->inverse) >> 32);
        e->y[i] = (int32_t)row;
        e->x[i] = (int32_t)(goals[i] - row * e->width);
    }
}

static uint16_t estimate_of(const estimate *e, uint32_t c)
{
    uint32_t row = (uint32_t)((c * e->inverse) >> 32);
    int32_t x = (int32_t)(c - row * e->width), y = (int32_t)row, best = INT32_MAX;
    for (int i = 0; i < e->n; i++) {
        int32_t dx = x - e->x[i], dy = y - e->y[i];
        int32_t h = (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
        best = h < best ? h : best;
    }
    return (uint16_t)best;
}

/* Labels free squares with their walking distance from `from` (the moving
 * box standing on `placed`), by A* towards goals[0..n) (1 <= n <= 4),
 * until the goals are labelled and every square that can lie on a shortest
 * walk to one of them is labelled with its true distance (every label
 * equal to a neighbour's minus one is true, so trace() follows true
 * distances). Returns the stamp that marks the labels in cell_mark and
 * cell_dist; goals that cannot be reached stay unmarked.
 *
 * The goals are all of one colour of the board's chessboard, so a step
 * changes the estimate f = distance + guess by 0 or 2: the open squares sit
 * in two stacks, those at the current f and those at f + 2. */
static uint32_t label(const view *v, soko_path_scratch *s, uint32_t from, uint32_t placed,
                      const uint32_t *goals, int n)
{
    uint32_t stamp = next_stamp(s);
    uint32_t *mark = s->cell_mark;
    uint16_t *dist = s->cell_dist, *guess = s->cell_guess;
    uint16_t *now = s->cell_queue, *later = s->cell_later;
    estimate e;
    estimate_init(&e, v, goals, n);

    uint32_t f = estimate_of(&e, from), n_now = 0, n_later = 0;
    mark[from] = stamp;
    dist[from] = 0;
    guess[from] = (uint16_t)f;
    now[n_now++] = (uint16_t)from;
    for (;;) {
        while (n_now > 0) {
            uint32_t c = now[--n_now];
            if (dist[c] + guess[c] != f) /* improved since: seen at a lower f */
                continue;
            uint16_t next = (uint16_t)(dist[c] + 1);
            for (unsigned d = 0; d < 4; d++) {
                uint32_t nb = step(v, c, d);
                if (!is_free(v, nb, placed))
                    continue;
                if (mark[nb] != stamp) {
                    mark[nb] = stamp;
                    guess[nb] = estimate_of(&e, nb);
                } else if (dist[nb] <= next) {
                    continue;
                }
                dist[nb] = next;
                if (next + guess[nb] == f)
                    now[n_now++] = (uint16_t)nb;
                else
                    later[n_later++] = (uint16_t)nb;
            }
        }
        /* Every square with f up to here is final: a goal labelled within
         * it is at its true distance. */
        bool done = true;
        for (int i = 0; i < n; i++)
            done = done && mark[goals[i]] == stamp && dist[goals[i]] <= f;
        if (done || n_later == 0)
            break;
        uint16_t *swap = now;
        now = later;
        later = swap;
        n_now = n_later;
        n_later = 0;
        f += 2;
    }
    return stamp;
}

/* Writes the walk from `from` down the labels of `stamp` to their root,
 * taking at each square the first direction that gets one step closer. */
static void trace(const view *v, const soko_path_scratch *s, uint32_t stamp, uint32_t from,
                  uint8_t *out)
{
    uint32_t c = from, len = s->cell_dist[from];
    for (uint32_t i = 0; i < len; i++) {
        unsigned d = 0;
        uint32_t nb = c;
        for (; d < 4; d++) {
            nb = step(v, c, d);
            if (s->cell_mark[nb] == stamp && s->cell_dist[nb] + 1u == s->cell_dist[c])
                break;
        }
        out[i] = (uint8_t)d;
        c = nb;
    }
}

/* Writes the walk from `from` to `to` (the moving box on `placed`) so that it
 * ends just before dirs[end]. Returns where the walk starts in dirs, or
 * SOKO_E_NO_PATH when `from` cannot get there or the walk does not fit. */
static int32_t walk_before(const view *v, soko_path_scratch *s, uint32_t from, uint32_t to,
                           uint32_t placed, uint8_t *dirs, uint32_t end)
{
    uint32_t stamp = label(v, s, to, placed, &from, 1);
    if (s->cell_mark[from] != stamp || s->cell_dist[from] > end)
        return SOKO_E_NO_PATH;
    uint32_t start = end - s->cell_dist[from];
    trace(v, s, stamp, from, dirs + start);
    return (int32_t)start;
}

SOKO_EXPORT("soko_path_walk")
int32_t soko_path_walk(const soko_game *g, soko_cell target, soko_path_scratch *s, uint8_t *dirs,
                       uint32_t cap)
{
    view v;
    view_init(&v, g, SOKO_NO_CELL);
    if (target >= v.size)
        return SOKO_E_RANGE;
    if (!is_free(&v, target, SOKO_NO_CELL))
        return SOKO_E_NO_PATH;
    if (target == g->player)
        return 0;
    begin(s);
    uint32_t player = g->player;
    uint32_t stamp = label(&v, s, target, SOKO_NO_CELL, &player, 1);
    if (s->cell_mark[player] != stamp)
        return SOKO_E_NO_PATH;
    if (s->cell_dist[player] > cap)
        return SOKO_E_FULL;
    trace(&v, s, stamp, player, dirs);
    return s->cell_dist[player];
}

/* An iterative depth-first search from the box's square over the area it can
 * move in (free squares, its own counted free), computing discovery order
 * and low points; then, in discovery order, the block of each tree edge (a
 * child whose subtree reaches no higher than its parent opens a block,
 * otherwise the edge shares its parent's edge's block) and the root's child
 * above each square; then the side classes of every square (see
 * side_class). Returns the stamp that marks the area in area_mark. */
static uint32_t find_blocks(const view *v, soko_path_scratch *s, uint32_t root)
{
    uint32_t area = next_stamp(s);
    uint32_t *mark = s->area_mark;
    uint16_t *stack = s->state_queue, *order = s->cell_queue;
    uint16_t *disc = s->disc, *low = s->low, *parent = s->parent, *block = s->block;
    uint32_t time = 0, depth = 0;

    mark[root] = area;
    disc[root] = low[root] = 0;
    parent[root] = SOKO_NO_CELL;
    s->next_dir[root] = 0;
    order[time++] = (uint16_t)root;
    stack[depth++] = (uint16_t)root;
    while (depth > 0) {
        uint32_t c = stack[depth - 1], p = parent[c], nb = c;
        unsigned d = s->next_dir[c];
        uint16_t lc = low[c];
        for (; d < 4; d++) {
            nb = step(v, c, d);
            if (!is_free(v, nb, SOKO_NO_CELL))
                continue;
            if (mark[nb] != area)
                break;
            if (disc[nb] < lc && nb != p)
                lc = disc[nb];
        }
        low[c] = lc;
        if (d < 4) {
            s->next_dir[c] = (uint8_t)(d + 1);
            mark[nb] = area;
            disc[nb] = low[nb] = (uint16_t)time;
            parent[nb] = (uint16_t)c;
            s->next_dir[nb] = 0;
            order[time++] = (uint16_t)nb;
            stack[depth++] = (uint16_t)nb;
            continue;
        }
        depth--;
        if (p != SOKO_NO_CELL && lc < low[p])
            low[p] = lc;
    }

    /* next_dir is spent: its high bit now flags the squares where blocks
     * meet (cut vertices), the root among them. */
    uint16_t blocks = 0;
    s->next_dir[root] = CUT;
    for (uint32_t i = 1; i < time; i++) {
        uint32_t c = order[i], p = parent[c];
        if (low[c] >= disc[p]) {
            block[c] = blocks++;
            s->next_dir[p] = CUT;
        } else {
            block[c] = block[p];
        }
        s->top[c] = p == root ? (uint16_t)c : s->top[p];
    }

    /* The edge between neighbours a and b lies in the block of the tree edge
     * into its deeper end: a depth-first search leaves only tree edges and
     * edges to ancestors, and a back edge closes a cycle through that tree
     * edge. Sides whose edges share a block form one class; away from cut
     * vertices all of a square's edges share one block. */
    for (uint32_t i = 0; i < time; i++) {
        uint32_t c = order[i];
        uint32_t blk[4];
        unsigned open = 0;
        for (unsigned d = 0; d < 4; d++) {
            uint32_t nb = step(v, c, d);
            if (mark[nb] == area)
                open |= 1u << d;
        }
        uint16_t packed = 0;
        if (s->next_dir[c] != CUT) {
            for (unsigned d = 0; d < 4; d++) {
                if (open & (1u << d))
                    packed = (uint16_t)(packed | open << (4 * d));
            }
            s->sides[c] = packed;
            continue;
        }
        for (unsigned d = 0; d < 4; d++) {
            uint32_t nb = step(v, c, d);
            blk[d] = (open & (1u << d)) ? block[disc[nb] > disc[c] ? nb : c] : UINT32_MAX;
        }
        for (unsigned d = 0; d < 4; d++) {
            if (blk[d] == UINT32_MAX)
                continue;
            for (unsigned e = 0; e < 4; e++) {
                if (blk[e] == blk[d])
                    packed = (uint16_t)(packed | 1u << (4 * d + e));
            }
        }
        s->sides[c] = packed;
    }
    return area;
}

/* True when the first n bytes of a and b are equal. */
static bool same_bytes(const uint8_t *a, const uint8_t *b, uint32_t n)
{
    uint32_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x, y;
        __builtin_memcpy(&x, a + i, 8);
        __builtin_memcpy(&y, b + i, 8);
        if (x != y)
            return false;
    }
    for (; i < n; i++) {
        if (a[i] != b[i])
            return false;
    }
    return true;
}

/* The blocks of the box's area, found again only when the board or the box
 * differs from the last time (the player's square does not matter). A
 * whole search made on them by soko_path_box_reach is kept too, for the
 * push paths that usually follow it. */
static uint32_t area_of(const view *v, soko_path_scratch *s, uint32_t box)
{
    if (s->blocks_area != 0 && s->blocks_box == box && s->blocks_size == v->size &&
        s->blocks_width == (uint32_t)v->off[SOKO_DOWN] &&
        same_bytes(s->blocks_cell, v->cell, v->size))
        return s->blocks_area;
    uint32_t area = find_blocks(v, s, box);
    s->explored = 0;
    __builtin_memcpy(s->blocks_cell, v->cell, v->size);
    s->blocks_area = area;
    s->blocks_box = (uint16_t)box;
    s->blocks_size = v->size;
    s->blocks_width = (uint16_t)v->off[SOKO_DOWN];
    return area;
}

/* With the box on b and the player on its side `side`, the sides (bit d for
 * the square next to b in direction d) the player can walk to, its own
 * included; 0 when that side is not in the area. */
static unsigned side_class(const soko_path_scratch *s, uint32_t b, unsigned side)
{
    return (s->sides[b] >> (4 * side)) & 15u;
}

/* The sides of the box on its start square that the player can walk to:
 * those under the same child of the root as the player. */
static unsigned start_sides(const view *v, const soko_path_scratch *s, uint32_t area, uint32_t box)
{
    uint32_t player = v->player;
    if (s->area_mark[player] != area)
        return 0;
    unsigned mask = 0;
    for (unsigned d = 0; d < 4; d++) {
        uint32_t nb = step(v, box, d);
        if (s->area_mark[nb] == area && s->top[nb] == s->top[player])
            mask |= 1u << d;
    }
    return mask;
}

/* The lowest side of a non-empty mask. */
static unsigned first_side(unsigned mask)
{
    unsigned d = 0;
    while (!(mask & (1u << d)))
        d++;
    return d;
}

/* Marks every state of a class with `mark` and `pushes`. */
static void mark_class(soko_path_scratch *s, uint32_t b, unsigned cls, uint32_t mark,
                       uint16_t pushes)
{
    for (unsigned d = 0; d < 4; d++) {
        if (cls & (1u << d)) {
            s->state_mark[b * 4u + d] = mark;
            s->state_pushes[b * 4u + d] = pushes;
        }
    }
}

/* Breadth-first search over classes of states (the sides of one class are
 * equivalent as far as pushes go), from the box's start with the player on
 * `sides`: marks every state reached with `seen` and its fewest pushes, and
 * sets reach[] (when given) for every square the box gets to. Stops after
 * the layer in which the box first gets to `target`, and returns that
 * number of pushes, or UINT32_MAX when it never gets there. */
static uint32_t explore(const view *v, soko_path_scratch *s, uint32_t area, uint32_t box,
                        unsigned sides, uint32_t seen, uint32_t target, uint8_t *reach,
                        uint32_t *count)
{
    uint32_t head = 0, tail = 0;
    mark_class(s, box, sides, seen, 0);
    s->state_queue[tail++] = (uint16_t)(box * 4u + first_side(sides));
    for (uint16_t layer = 1; head < tail; layer++) {
        bool found = false;
        for (uint32_t end = tail; head < end; head++) {
            uint32_t x = s->state_queue[head], b = x >> 2;
            unsigned cls = side_class(s, b, x & 3u);
            for (unsigned t = 0; t < 4; t++) {
                if (!(cls & (1u << t)))
                    continue;
                uint32_t to = step(v, b, t ^ 2u), y = to * 4u + t;
                if (s->area_mark[to] != area || s->state_mark[y] == seen)
                    continue;
                mark_class(s, to, side_class(s, to, t), seen, layer);
                s->state_queue[tail++] = (uint16_t)y;
                found = found || to == target;
                if (reach != NULL && !reach[to]) {
                    reach[to] = 1;
                    (*count)++;
                }
            }
        }
        if (found)
            return layer;
    }
    return UINT32_MAX;
}

SOKO_EXPORT("soko_path_box_reach")
int32_t soko_path_box_reach(const soko_game *g, soko_cell box, soko_path_scratch *s, uint8_t *reach)
{
    view v;
    view_init(&v, g, box);
    if (box >= v.size || !(v.cell[box] & SOKO_BOX))
        return SOKO_E_RANGE;
    __builtin_memset(reach, 0, v.size);
    reach[box] = 1;
    if (on_border(&v, box))
        return 1;
    begin(s);
    uint32_t area = area_of(&v, s, box), count = 1;
    unsigned sides = start_sides(&v, s, area, box);
    if (sides == 0)
        return 1;
    uint32_t seen = next_stamp(s);
    explore(&v, s, area, box, sides, seen, SOKO_NO_CELL, reach, &count);
    s->explored = seen;
    s->explored_sides = (uint8_t)sides;
    return (int32_t)count;
}

/* Walking distances, with the box on b, from its side `from` to each side in
 * `want` (sides the blocks say are joined to it): two steps round a free
 * corner, four round a free flank to the opposite side (no walk can be
 * shorter on a grid), else a small search that stops once all are found. */
static void side_dists(const view *v, soko_path_scratch *s, uint32_t area, uint32_t b,
                       unsigned from, unsigned want, uint32_t dist[4])
{
    uint32_t start = step(v, b, from), goals[4];
    int n = 0;
    for (unsigned t = 0; t < 4; t++) {
        if (!(want & (1u << t)))
            continue;
        bool near = false;
        if (t == (from ^ 2u)) {
            for (unsigned k = 1; k <= 3 && !near; k += 2) {
                unsigned m = (from + k) & 3u;
                uint32_t mid = step(v, b, m);
                near = s->area_mark[step(v, start, m)] == area && s->area_mark[mid] == area &&
                       s->area_mark[step(v, mid, t)] == area;
            }
            dist[t] = 4;
        } else {
            near = s->area_mark[step(v, start, t)] == area;
            dist[t] = 2;
        }
        if (!near)
            goals[n++] = step(v, b, t);
    }
    if (n == 0)
        return;
    uint32_t stamp = label(v, s, start, b, goals, n);
    for (int i = 0; i < n; i++) {
        unsigned t = 0;
        while (step(v, b, t) != goals[i])
            t++;
        dist[t] = s->cell_mark[goals[i]] == stamp ? s->cell_dist[goals[i]] : UINT32_MAX / 4;
    }
}

/* Writes the steps to the state `last` found by the search: from the end,
 * each push and the walk round the box before it, then the first walk. */
static int32_t write_push_path(const view *v, soko_path_scratch *s, uint32_t box, uint32_t last,
                               uint8_t *dirs)
{
    uint32_t end = s->state_moves[last], y = last;
    while (s->state_pushes[y] > 0) {
        uint32_t x = s->state_link[y], b = x >> 2;
        unsigned from = x & 3u, side = y & 3u;
        dirs[--end] = (uint8_t)(side ^ 2u);
        if (from != side) {
            int32_t at = walk_before(v, s, step(v, b, from), step(v, b, side), b, dirs, end);
            if (at < 0)
                return at;
            end = (uint32_t)at;
        }
        y = x;
    }
    int32_t at = walk_before(v, s, v->player, step(v, box, y & 3u), box, dirs, end);
    if (at != 0) /* the lengths did not add up: cannot happen */
        return SOKO_E_NO_PATH;
    return (int32_t)s->state_moves[last];
}

/* Marks every state of a class in flow_mark. */
static void flow_class(soko_path_scratch *s, uint32_t b, unsigned cls, uint32_t mark)
{
    for (unsigned d = 0; d < 4; d++) {
        if (cls & (1u << d))
            s->flow_mark[b * 4u + d] = mark;
    }
}

/* Marks with `dag` the classes of states (found by explore with `seen`)
 * that lie on some path with the fewest pushes to the target: back from the
 * target's states with the fewest pushes, a state one push earlier that
 * pushes into a marked one is marked. Returns false when the box never gets
 * to the target. */
static bool mark_dag(const view *v, soko_path_scratch *s, uint32_t target, uint32_t seen,
                     uint32_t dag)
{
    uint32_t head = 0, tail = 0, fewest = UINT32_MAX;
    for (unsigned d = 0; d < 4; d++) {
        uint32_t y = target * 4u + d;
        if (s->state_mark[y] == seen && s->state_pushes[y] < fewest)
            fewest = s->state_pushes[y];
    }
    if (fewest == UINT32_MAX)
        return false;
    for (unsigned d = 0; d < 4; d++) {
        uint32_t y = target * 4u + d;
        if (s->state_mark[y] != seen || s->state_pushes[y] != fewest || s->flow_mark[y] == dag)
            continue;
        flow_class(s, target, side_class(s, target, d), dag);
        s->state_queue[tail++] = (uint16_t)y;
    }
    while (head < tail) {
        uint32_t y = s->state_queue[head++], to = y >> 2;
        uint16_t pushes = s->state_pushes[y];
        if (pushes == 0)
            continue;
        unsigned cls = side_class(s, to, y & 3u);
        for (unsigned t = 0; t < 4; t++) {
            if (!(cls & (1u << t)))
                continue;
            /* The player stands where the box was, and pushed from beyond. */
            uint32_t b = step(v, to, t), x = b * 4u + t;
            if (s->state_mark[x] != seen || s->state_pushes[x] + 1u != pushes ||
                s->flow_mark[x] == dag)
                continue;
            flow_class(s, b, side_class(s, b, t), dag);
            s->state_queue[tail++] = (uint16_t)x;
        }
    }
    return true;
}

SOKO_EXPORT("soko_path_box_push")
int32_t soko_path_box_push(const soko_game *g, soko_cell box, soko_cell target,
                           soko_path_scratch *s, uint8_t *dirs, uint32_t cap)
{
    view v;
    view_init(&v, g, box);
    if (box >= v.size || !(v.cell[box] & SOKO_BOX) || target >= v.size)
        return SOKO_E_RANGE;
    if (target == box)
        return 0;
    if (!is_free(&v, target, SOKO_NO_CELL) || on_border(&v, box))
        return SOKO_E_NO_PATH;
    begin(s);
    uint32_t area = area_of(&v, s, box);
    unsigned sides = s->area_mark[target] == area ? start_sides(&v, s, area, box) : 0;
    if (sides == 0)
        return SOKO_E_NO_PATH;

    /* First the fewest pushes, class by class, and the states on the paths
     * that have that many: only those need their moves counted. */
    uint32_t seen = s->explored;
    if (seen == 0 || s->explored_sides != sides) {
        seen = next_stamp(s);
        s->explored = 0; /* its marks are about to be overwritten */
        explore(&v, s, area, box, sides, seen, target, NULL, NULL);
    }
    uint32_t dag = next_stamp(s), done = next_stamp(s);
    if (!mark_dag(&v, s, target, seen, dag))
        return SOKO_E_NO_PATH;

    /* Layer 0: the player walks to each side it can reach. */
    uint32_t goals[4];
    int n = 0;
    for (unsigned d = 0; d < 4; d++) {
        if (sides & (1u << d))
            goals[n++] = step(&v, box, d);
    }
    label(&v, s, v.player, box, goals, n);
    uint32_t head = 0, tail = 0;
    for (unsigned d = 0; d < 4; d++) {
        if (!(sides & (1u << d)))
            continue;
        uint32_t y = box * 4u + d;
        s->flow_mark[y] = done;
        s->state_moves[y] = s->cell_dist[step(&v, box, d)];
        s->state_queue[tail++] = (uint16_t)y;
    }

    /* Every transition is one push and the queue is first in, first out, so
     * the states of one push count are all expanded, their moves final,
     * before any state with one push more. */
    while (head < tail) {
        uint32_t x = s->state_queue[head++], b = x >> 2;
        unsigned from = x & 3u, cls = side_class(s, b, from), pushable = 0;
        uint16_t next = (uint16_t)(s->state_pushes[x] + 1u);
        for (unsigned t = 0; t < 4; t++) {
            uint32_t y = step(&v, b, t ^ 2u) * 4u + t;
            if ((cls & (1u << t)) && (s->flow_mark[y] == dag || s->flow_mark[y] == done) &&
                s->state_pushes[y] == next)
                pushable |= 1u << t;
        }
        if (pushable == 0)
            continue;
        uint32_t dist[4] = {0, 0, 0, 0};
        side_dists(&v, s, area, b, from, pushable & ~(1u << from), dist);
        for (unsigned t = 0; t < 4; t++) {
            if (!(pushable & (1u << t)))
                continue;
            uint32_t y = step(&v, b, t ^ 2u) * 4u + t;
            uint32_t cost = s->state_moves[x] + dist[t] + 1;
            if (s->flow_mark[y] != done) {
                s->flow_mark[y] = done;
                s->state_moves[y] = cost;
                s->state_link[y] = (uint16_t)x;
                s->state_queue[tail++] = (uint16_t)y;
            } else if (cost < s->state_moves[y]) {
                s->state_moves[y] = cost;
                s->state_link[y] = (uint16_t)x;
            }
        }
    }

    uint32_t last = UINT32_MAX;
    for (unsigned d = 0; d < 4; d++) {
        uint32_t y = (uint32_t)target * 4u + d;
        if (s->flow_mark[y] == done &&
            (last == UINT32_MAX || s->state_moves[y] < s->state_moves[last]))
            last = y;
    }
    if (last == UINT32_MAX) /* the search above reached it: cannot happen */
        return SOKO_E_NO_PATH;
    if (s->state_moves[last] > cap)
        return SOKO_E_FULL;
    return write_push_path(&v, s, box, last, dirs);
}
