/* Goal rooms: an area holding goals (and no box at the start, nor the
 * player) that the rest of the level reaches only through a few squares in
 * a row, its entrances (which may be goals: they fill after the room). Every
 * box pushed in through an entrance goes straight on to the next goal of a
 * packing order fixed in advance, when the way there is open. A backward
 * pass finds the order: from the full room (the rest of the level empty),
 * take out a box that can still be brought in from an entrance with the
 * others in place, the player walking out again. Taking a box out never
 * stops another, so the pass fails only when no order exists.
 *
 * On request (SOLVER_WITH_REPLAN) an order that breaks is worked out
 * again: when the boxes in a room all stand on goals that are not a start
 * of its order (a box came in by single pushes, as the boxes standing on
 * the entrances at the start must in XSokoban 24), the same pass orders
 * the goals left with those held, and the macros and the advisor go on
 * by that order. The orders are kept by the set of goals held.
 *
 * On request (SOLVER_WITH_HELD) a room may hold boxes at the start when
 * they all stand on goals (as XSokoban 48's rooms of boxes home and goals
 * free, in a checkerboard): its order starts with their goals, as though
 * filled already, and the pass orders the others with those held. It
 * does not pay yet: XSokoban 48 still needs its boxes home moved, and at
 * 500,000 positions (XSokoban) and 200,000 (Sasquatch) the levels solved
 * are the same, the few it changes taking more positions (XSokoban 49:
 * 177,140 against 127,306). */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Boards beyond this many squares get no rooms: the search for them is
 * quadratic. */
#define MAX_SQUARES 2500
/* Rooms beyond this many squares are not packed: their pass is too slow. */
#define MAX_ROOM 160
/* The longest row of entrance squares tried as a cut... */
#define MAX_CUT 3
/* ...and the most entrance squares of a room made of goals alone. */
#define MAX_BOUNDARY 12
/* Orders worked out again kept per room: a power of two. */
#define PLAN_SLOTS 4096

typedef struct finder {
    const solver_board *b;
    const uint8_t *start_box; /* 1 where a box stands at the start */
    uint16_t start_player;
    bool held; /* a room may hold boxes on goals at the start */
    uint16_t *queue;
    uint8_t *in;  /* the area being examined */
    uint8_t *cut; /* the entrance squares being tried */
} finder;

typedef struct candidate {
    uint16_t cut[MAX_BOUNDARY];
    uint8_t ncut;
    uint16_t seed; /* a square of the room */
    uint32_t size;
} candidate;

/* Fills the part of the floor without the cut squares that holds `seed`,
 * into f->queue and f->in. Returns its size, or 0 when it holds a box (but
 * on a goal, when f->held allows it) or the player or no empty goal, is too
 * big, or some cut square does not touch it (then a shorter cut finds it). */
static uint32_t area(finder *f, const uint16_t *cut, uint32_t ncut, uint16_t seed)
{
    const solver_board *b = f->b;
    memset(f->in, 0, b->nsq);
    uint32_t head = 0, tail = 0, goals = 0, held = 0;
    for (uint32_t k = 0; k < ncut; k++)
        f->in[cut[k]] = 1; /* walls while filling */
    if (f->in[seed])
        return 0;
    f->in[seed] = 1;
    f->queue[tail++] = seed;
    bool clean = true;
    while (head < tail && clean) {
        uint16_t s = f->queue[head++];
        goals += b->goal[s];
        held += f->start_box[s] && b->goal[s];
        clean = (!f->start_box[s] || (f->held && b->goal[s])) && s != f->start_player &&
                tail <= MAX_ROOM;
        for (int e = 0; e < 4; e++) {
            uint16_t t = b->nb[s * 4 + e];
            if (t == SOLVER_NONE || f->in[t])
                continue;
            f->in[t] = 1;
            f->queue[tail++] = t;
        }
    }
    for (uint32_t k = 0; k < ncut; k++)
        f->in[cut[k]] = 0;
    if (!clean || goals == held)
        return 0;
    for (uint32_t k = 0; k < ncut; k++) {
        bool touches = false;
        for (int e = 0; e < 4; e++) {
            uint16_t t = b->nb[cut[k] * 4 + e];
            touches = touches || (t != SOLVER_NONE && f->in[t]);
        }
        if (!touches)
            return 0;
    }
    return tail;
}

/* A push into the room: from an entrance square to a room square, with a
 * square behind for the player. */
typedef struct entry {
    uint16_t from, to;
} entry;

/* The pushes that bring a box pushed in by entry e on to goal g, with the
 * goals marked in occ full, the rest of the level empty, and the player
 * able to walk out again afterwards; -1 when there are none. */
static int entry_path(const solver_board *b, const solver_room *room, entry e, uint16_t g,
                      solver_boxpath *bp, uint16_t *occ)
{
    if (occ[e.to])
        return -1;
    uint16_t end;
    int p = solver_boxpath_find(bp, b, occ, e.to, g, e.from, &end);
    if (p < 0)
        return -1;
    occ[g] = 1;
    solver_boxpath_area(bp, b, occ, end, SOLVER_NONE);
    occ[g] = 0;
    for (uint32_t k = 0; k < room->ngates; k++)
        if (bp->area[room->gate[k]])
            return p;
    return -1;
}

/* Puts goals[0..n) of the room in the order they fill, boxes coming in by
 * the entries, with the goals held[0..nheld) full all along. Returns 0, or
 * -1 when no order exists. */
static int order_goals(const solver_board *b, const solver_room *room, const entry *entries,
                       uint32_t ne, solver_boxpath *bp, uint16_t *occ, uint16_t *goals, uint32_t n,
                       const uint16_t *held, uint32_t nheld)
{
    memset(occ, 0, b->nsq * sizeof *occ);
    for (uint32_t k = 0; k < n; k++)
        occ[goals[k]] = 1;
    for (uint32_t k = 0; k < nheld; k++)
        occ[held[k]] = 1;
    for (uint32_t left = n; left > 0; left--) {
        /* the goal packed last among those left: reached from the most
         * entries, then with the fewest pushes, so that deep goals fill first */
        int best = -1, best_entries = 0, best_pushes = 0;
        for (uint32_t i = 0; i < left; i++) {
            uint16_t g = goals[i];
            occ[g] = 0;
            int reached = 0, pushes = 0;
            for (uint32_t k = 0; k < ne; k++) {
                int p = entry_path(b, room, entries[k], g, bp, occ);
                reached += p >= 0;
                pushes += p >= 0 ? p : 0;
            }
            occ[g] = 1;
            if (reached > 0 && (best < 0 || reached > best_entries ||
                                (reached == best_entries && pushes < best_pushes))) {
                best = (int)i;
                best_entries = reached;
                best_pushes = pushes;
            }
        }
        if (best < 0)
            return -1;
        uint16_t g = goals[best];
        goals[best] = goals[left - 1];
        goals[left - 1] = g;
        occ[g] = 0;
    }
    return 0;
}

/* Works out the packing order of the room, boxes coming in by the entries:
 * the goals that hold boxes at the start (start_box) first, as though
 * filled already, then the others. Returns 0, or -1 when no order exists. */
static int packing_order(const solver_board *b, solver_room *room, const entry *entries,
                         uint32_t ne, solver_boxpath *bp, uint16_t *occ, const uint8_t *start_box)
{
    uint32_t n = 0, held = 0;
    for (uint32_t k = 0; k < room->size; k++) {
        uint16_t s = room->squares[k];
        if (b->goal[s] && start_box[s])
            room->order[held++] = s;
    }
    n = held;
    for (uint32_t k = 0; k < room->size; k++) {
        uint16_t s = room->squares[k];
        if (b->goal[s] && !start_box[s])
            room->order[n++] = s;
    }
    room->ngoals = n;
    return order_goals(b, room, entries, ne, bp, occ, room->order + held, n - held, room->order,
                       held);
}

static void free_room(solver_room *room)
{
    free(room->order);
    free(room->squares);
    free(room->entries);
    free(room->plans);
}

/* True when the room (marked in `in`) is a dead end: its entrances all open
 * onto one and the same area, so that filling it cuts no way through. */
static bool dead_end(const solver_board *b, const uint8_t *in, const candidate *c, uint16_t *queue,
                     uint16_t *seen)
{
    memset(seen, 0, b->nsq * sizeof *seen);
    uint32_t head = 0, tail = 0;
    seen[c->cut[0]] = 1;
    queue[tail++] = c->cut[0];
    while (head < tail) {
        uint16_t s = queue[head++];
        for (int d = 0; d < 4; d++) {
            uint16_t t = b->nb[s * 4 + d];
            if (t == SOLVER_NONE || in[t] || seen[t])
                continue;
            seen[t] = 1;
            queue[tail++] = t;
        }
    }
    for (uint32_t k = 1; k < c->ncut; k++)
        if (!seen[c->cut[k]])
            return false;
    return true;
}

/* Keeps the room of candidate c when it overlaps no room kept before, is a
 * dead end and its packing order exists. Returns -1 only when memory runs
 * out. */
static int try_room(solver_macros *m, finder *f, solver_boxpath *bp, uint16_t *occ,
                    const candidate *c)
{
    const solver_board *b = f->b;
    uint32_t size = area(f, c->cut, c->ncut, c->seed);
    if (size == 0)
        return 0;
    for (uint32_t k = 0; k < size; k++)
        if (m->room_of[f->queue[k]] != SOLVER_NONE)
            return 0;
    for (uint32_t k = 0; k < c->ncut; k++)
        if (m->room_of[c->cut[k]] != SOLVER_NONE || m->entrance_of[c->cut[k]] != SOLVER_NONE)
            return 0;
    if (!dead_end(b, f->in, c, bp->fill, occ))
        return 0;
    solver_room room = {.size = size, .ngates = c->ncut};
    memcpy(room.gate, c->cut, c->ncut * sizeof *c->cut);
    entry entries[4 * MAX_BOUNDARY];
    uint32_t ne = 0;
    for (uint32_t k = 0; k < c->ncut; k++) {
        uint16_t e = c->cut[k];
        for (int d = 0; d < 4; d++) {
            uint16_t r = b->nb[e * 4 + d], behind = b->nb[e * 4 + (d ^ 2)];
            if (r != SOLVER_NONE && f->in[r] && behind != SOLVER_NONE && !f->in[behind])
                entries[ne++] = (entry){e, r};
        }
    }
    if (ne == 0)
        return 0;
    room.order = malloc((size + 1) * sizeof *room.order);
    room.squares = malloc((size + 1) * sizeof *room.squares);
    room.entries = malloc(2 * ne * sizeof *room.entries);
    if (!room.order || !room.squares || !room.entries) {
        free_room(&room);
        return -1;
    }
    room.nentries = ne;
    for (uint32_t k = 0; k < ne; k++) {
        room.entries[2 * k] = entries[k].from;
        room.entries[2 * k + 1] = entries[k].to;
    }
    memcpy(room.squares, f->queue, size * sizeof *room.squares);
    if (packing_order(b, &room, entries, ne, bp, occ, f->start_box) < 0) {
        free_room(&room);
        return 0;
    }
    solver_room *grown = realloc(m->room, (m->nrooms + 1) * sizeof *grown);
    if (grown == NULL) {
        free_room(&room);
        return -1;
    }
    m->room = grown;
    for (uint32_t k = 0; k < size; k++)
        m->room_of[room.squares[k]] = (uint16_t)m->nrooms;
    for (uint32_t k = 0; k < c->ncut; k++)
        m->entrance_of[c->cut[k]] = (uint16_t)m->nrooms;
    m->room[m->nrooms++] = room;
    return 0;
}

static int by_size_descending(const void *a, const void *b)
{
    const candidate *p = a, *q = b;
    if (p->size != q->size)
        return p->size < q->size ? 1 : -1;
    if (p->ncut != q->ncut)
        return p->ncut < q->ncut ? -1 : 1;
    for (uint32_t k = 0; k < p->ncut; k++)
        if (p->cut[k] != q->cut[k])
            return p->cut[k] < q->cut[k] ? -1 : 1;
    return p->seed < q->seed ? -1 : p->seed > q->seed;
}

/* Adds a candidate for each area the cut squares close off. */
static int add_candidates(finder *f, const uint16_t *cut, uint32_t ncut, candidate **cand,
                          uint32_t *count, uint32_t *cap)
{
    const solver_board *b = f->b;
    uint32_t first = *count;
    for (uint32_t k = 0; k < ncut; k++) {
        for (int d = 0; d < 4; d++) {
            uint16_t seed = b->nb[cut[k] * 4 + d];
            if (seed == SOLVER_NONE)
                continue;
            bool known = false;
            for (uint32_t i = first; i < *count && !known; i++)
                known = (*cand)[i].seed == seed;
            if (known)
                continue;
            uint32_t size = area(f, cut, ncut, seed);
            if (size == 0)
                continue;
            /* the area found from another seed already */
            for (uint32_t i = first; i < *count && !known; i++)
                known = f->in[(*cand)[i].seed];
            if (known)
                continue;
            if (*count == *cap) {
                uint32_t more = *cap ? *cap * 2 : 64;
                candidate *grown = realloc(*cand, more * sizeof *grown);
                if (grown == NULL)
                    return -1;
                *cand = grown;
                *cap = more;
            }
            candidate c = {.ncut = (uint8_t)ncut, .seed = seed, .size = size};
            memcpy(c.cut, cut, ncut * sizeof *cut);
            (*cand)[(*count)++] = c;
        }
    }
    return 0;
}

/* The area of goals holding goal x, grown by `layers` rings of the squares
 * around it, as a candidate room whose entrances are the squares around
 * that; false when there are too many of them. Marks the goals in `seen`. */
static bool goal_area(finder *f, uint16_t x, uint32_t layers, candidate *c, uint8_t *seen)
{
    const solver_board *b = f->b;
    memset(f->in, 0, b->nsq);
    uint32_t head = 0, tail = 0;
    seen[x] = 1;
    f->in[x] = 1;
    f->queue[tail++] = x;
    while (head < tail) {
        uint16_t s = f->queue[head++];
        for (int d = 0; d < 4; d++) {
            uint16_t t = b->nb[s * 4 + d];
            if (t == SOLVER_NONE || f->in[t] || !b->goal[t])
                continue;
            seen[t] = 1;
            f->in[t] = 1;
            f->queue[tail++] = t;
        }
    }
    /* squares enclosed by the area (every neighbour in it, or a wall)
     * join it: a room with a hole is entered around the hole, not from it */
    for (bool grew = true; grew;) {
        grew = false;
        for (uint32_t k = 0; k < tail; k++) {
            uint16_t s = f->queue[k];
            for (int d = 0; d < 4; d++) {
                uint16_t t = b->nb[s * 4 + d];
                if (t == SOLVER_NONE || f->in[t])
                    continue;
                bool enclosed = true;
                for (int e = 0; e < 4 && enclosed; e++) {
                    uint16_t u = b->nb[t * 4 + e];
                    enclosed = u == SOLVER_NONE || f->in[u];
                }
                if (enclosed) {
                    f->in[t] = 1;
                    f->queue[tail++] = t;
                    grew = true;
                }
            }
        }
    }
    for (uint32_t ring = 0; ring < layers; ring++) {
        uint32_t end = tail;
        for (uint32_t k = 0; k < end; k++) {
            uint16_t s = f->queue[k];
            for (int d = 0; d < 4; d++) {
                uint16_t t = b->nb[s * 4 + d];
                if (t == SOLVER_NONE || f->in[t])
                    continue;
                f->in[t] = 1;
                f->queue[tail++] = t;
            }
        }
    }
    c->ncut = 0;
    c->seed = x;
    c->size = tail;
    for (uint32_t k = 0; k < tail; k++) {
        uint16_t s = f->queue[k];
        for (int d = 0; d < 4; d++) {
            uint16_t t = b->nb[s * 4 + d];
            if (t == SOLVER_NONE || f->in[t])
                continue;
            if (c->ncut == MAX_BOUNDARY)
                return false;
            f->in[t] = 1; /* counted once */
            c->cut[c->ncut++] = t;
        }
    }
    return c->ncut > 0;
}

int solver_macros_build(solver_macros *m, const solver_board *b, const uint16_t *boxes,
                        uint16_t player, bool held)
{
    memset(m, 0, sizeof *m);
    m->b = b;
    m->room_of = malloc((b->nsq + 1) * sizeof *m->room_of);
    m->entrance_of = malloc((b->nsq + 1) * sizeof *m->entrance_of);
    m->work = malloc(3 * ((size_t)b->nsq + 1) * sizeof *m->work);
    if (m->room_of == NULL || m->entrance_of == NULL || m->work == NULL ||
        solver_boxpath_init(&m->path, b) < 0)
        return -1;
    for (uint32_t s = 0; s < b->nsq; s++)
        m->room_of[s] = m->entrance_of[s] = SOLVER_NONE;
    if (b->nsq > MAX_SQUARES)
        return 0;
    finder f = {.b = b, .start_player = player, .held = held};
    uint8_t *start_box = calloc(b->nsq + 1, 1);
    uint16_t *occ = malloc((b->nsq + 1) * sizeof *occ);
    uint8_t *seen = malloc(b->nsq + 1);
    f.queue = malloc((b->nsq + 1) * sizeof *f.queue);
    f.in = malloc(b->nsq + 1);
    candidate *cand = NULL;
    uint32_t ncand = 0, cap = 0;
    solver_boxpath bp;
    int rc = solver_boxpath_init(&bp, b);
    if (!start_box || !occ || !seen || !f.queue || !f.in)
        rc = -1;
    if (rc == 0) {
        for (uint32_t k = 0; k < b->nboxes; k++)
            start_box[boxes[k]] = 1;
        f.start_box = start_box;
        for (uint32_t x = 0; x < b->nsq && rc == 0; x++) {
            uint16_t cut[MAX_CUT] = {(uint16_t)x};
            rc = add_candidates(&f, cut, 1, &cand, &ncand, &cap);
            /* rows of two and three squares, across and down */
            for (int d = 1; d <= 2 && rc == 0; d++) {
                uint32_t len = 1;
                while (len < MAX_CUT && rc == 0) {
                    uint16_t next = b->nb[cut[len - 1] * 4 + d];
                    if (next == SOLVER_NONE)
                        break;
                    cut[len++] = next;
                    rc = add_candidates(&f, cut, len, &cand, &ncand, &cap);
                }
            }
        }
        /* and each area of goals, and that area grown by a ring or two,
         * entered from all around it */
        memset(seen, 0, b->nsq);
        for (uint32_t k = 0; k < 3 * b->nsq && rc == 0; k++) {
            uint32_t x = k / 3, layers = k % 3;
            candidate c;
            if (!b->goal[x] || (layers == 0 && seen[x]) ||
                !goal_area(&f, (uint16_t)x, layers, &c, seen))
                continue;
            if (ncand == cap) {
                uint32_t more = cap ? cap * 2 : 64;
                candidate *grown = realloc(cand, more * sizeof *grown);
                if (grown == NULL) {
                    rc = -1;
                    break;
                }
                cand = grown;
                cap = more;
            }
            cand[ncand++] = c;
        }
        if (rc == 0 && ncand > 0)
            qsort(cand, ncand, sizeof *cand, by_size_descending);
        for (uint32_t k = 0; k < ncand && rc == 0; k++)
            rc = try_room(m, &f, &bp, occ, &cand[k]);
    }
    solver_boxpath_free(&bp);
    free(start_box);
    free(occ);
    free(seen);
    free(cand);
    free(f.queue);
    free(f.in);
    return rc;
}

void solver_macros_free(solver_macros *m)
{
    for (uint32_t k = 0; k < m->nrooms; k++)
        free_room(&m->room[k]);
    free(m->room);
    free(m->room_of);
    free(m->entrance_of);
    free(m->work);
    free(m->order);
    free(m->order_rank);
    solver_boxpath_free(&m->path);
    memset(m, 0, sizeof *m);
}

/* The number of the goal of room r filled next, when the room holds the
 * goals before it in its order and `extra` boxes besides; otherwise -1. */
static int next_goal(const solver_macros *m, const uint16_t *occ, uint32_t r, uint32_t extra)
{
    const solver_room *room = &m->room[r];
    uint32_t boxes = 0;
    for (uint32_t i = 0; i < room->size; i++)
        boxes += occ[room->squares[i]] != 0;
    if (boxes < extra || boxes - extra >= room->ngoals)
        return -1;
    uint32_t j = boxes - extra;
    for (uint32_t i = 0; i < j; i++)
        if (occ[room->order[i]] == 0)
            return -1;
    return (int)j;
}

/* A set of goals held as a key of the plans: its hash, 0 (an empty
 * slot) taken as 1. */
static uint64_t plan_key(uint64_t hash)
{
    return hash != 0 ? hash : 1;
}

/* The goal room r fills next when the boxes in it but the one on `skip`
 * (NONE for none) all stand on goals that do not start its order: the
 * first of an order of the goals left worked out with those held, kept in
 * the room's plans with the goals held after each of its steps. NONE when
 * a box stands off a goal, no order is left, or the room has worked out
 * SOLVER_PLAN_PASSES orders already and not this one. */
static uint16_t replanned(solver_macros *m, const uint16_t *occ, uint32_t r, uint16_t skip)
{
    const solver_board *b = m->b;
    solver_room *room = &m->room[r];
    uint16_t *work = m->work, *held = work + b->nsq + 1, *goals = held + room->ngoals;
    uint32_t nheld = 0, n = 0;
    uint64_t held_hash = 0;
    for (uint32_t k = 0; k < room->ngoals; k++) {
        uint16_t g = room->order[k];
        if (occ[g] != 0 && g != skip) {
            held[nheld++] = g;
            held_hash ^= b->zbox[g];
        }
    }
    for (uint32_t i = 0; i < room->size; i++) {
        uint16_t x = room->squares[i];
        if (occ[x] != 0 && x != skip && !b->goal[x])
            return SOLVER_NONE;
    }
    if (nheld == room->ngoals)
        return SOLVER_NONE;
    uint64_t key = plan_key(held_hash);
    if (room->plans == NULL)
        room->plans = calloc(PLAN_SLOTS, sizeof *room->plans);
    if (room->plans == NULL)
        return SOLVER_NONE;
    solver_plan *slot = &room->plans[key & (PLAN_SLOTS - 1)];
    if (slot->held == key)
        return slot->next;
    if (room->passes == SOLVER_PLAN_PASSES)
        return SOLVER_NONE;
    room->passes++;
    for (uint32_t k = 0; k < room->ngoals; k++)
        if (occ[room->order[k]] == 0 || room->order[k] == skip)
            goals[n++] = room->order[k];
    entry entries[4 * MAX_BOUNDARY];
    for (uint32_t k = 0; k < room->nentries; k++)
        entries[k] = (entry){room->entries[2 * k], room->entries[2 * k + 1]};
    int rc = order_goals(b, room, entries, room->nentries, &m->path, work, goals, n, held, nheld);
    if (rc < 0) {
        slot->held = key;
        slot->next = SOLVER_NONE;
        return SOLVER_NONE;
    }
    /* the order holds for the goals held after each of its steps too */
    for (uint32_t k = 0; k < n; k++) {
        key = plan_key(held_hash);
        solver_plan *p = &room->plans[key & (PLAN_SLOTS - 1)];
        p->held = key;
        p->next = goals[k];
        held_hash ^= b->zbox[goals[k]];
    }
    return goals[0];
}

uint16_t solver_macros_next_goal(solver_macros *m, const uint16_t *occ, uint32_t r)
{
    int j = next_goal(m, occ, r, 0);
    if (j >= 0)
        return m->room[r].order[j];
    return m->replan ? replanned(m, occ, r, SOLVER_NONE) : SOLVER_NONE;
}

int solver_macros_room_push(solver_macros *m, const solver_board *b, uint16_t *occ, uint16_t from,
                            uint16_t to, uint16_t *goal, uint16_t *player)
{
    uint16_t r = m->room_of[to];
    if (r == SOLVER_NONE || m->entrance_of[from] != r)
        return -1;
    const solver_room *room = &m->room[r];
    /* the room must hold the first j goals of its order and the new box only */
    int next = next_goal(m, occ, r, 1);
    uint16_t target = next >= 0 ? room->order[next] : SOLVER_NONE;
    if (next < 0 && m->replan)
        target = replanned(m, occ, r, to);
    if (target == SOLVER_NONE)
        return -1;
    /* the way on is searched in the real position, other boxes in place */
    uint16_t kept = occ[to], end;
    occ[to] = 0;
    int pushes = solver_boxpath_find(&m->path, b, occ, to, target, from, &end);
    occ[to] = kept;
    if (pushes < 0)
        return -1;
    *goal = target;
    *player = pushes == 0 ? from : end;
    return pushes;
}
