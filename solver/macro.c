/* Goal rooms: an area holding goals (and no box at the start, nor the
 * player) that the rest of the level reaches through one square, its
 * entrance (which may be a goal itself: it is filled after the room). Every box that enters is
 * pushed straight on to the next goal of a packing order fixed in advance, which a backward pass
 * finds: from the full room, take out a box that can still be brought in from the entrance with the
 * others in place, and the player can still walk out. Taking a box out never stops another, so the
 * pass fails only when no order exists. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Squares beyond which the quadratic room search is not worth its time. */
#define MAX_SQUARES 4000

typedef struct finder {
    const solver_board *b;
    const uint8_t *start_box; /* 1 where a box stands at the start */
    uint16_t start_player;
    uint16_t *queue;
    uint8_t *in; /* the component being examined */
} finder;

/* The component of the floor without `x` entered from side d, in f->queue
 * (its length returned) and marked in f->in. Returns 0 when it holds a box or
 * the player, or no goal: no room then. */
static uint32_t component(finder *f, uint16_t x, int d)
{
    const solver_board *b = f->b;
    memset(f->in, 0, b->nsq);
    uint32_t head = 0, tail = 0, goals = 0;
    uint16_t first = b->nb[x * 4 + d];
    f->in[first] = 1;
    f->in[x] = 1; /* a wall while filling; cleared below */
    f->queue[tail++] = first;
    bool clean = true;
    while (head < tail) {
        uint16_t s = f->queue[head++];
        goals += b->goal[s];
        if (f->start_box[s] || s == f->start_player)
            clean = false;
        for (int e = 0; e < 4; e++) {
            uint16_t t = b->nb[s * 4 + e];
            if (t == SOLVER_NONE || f->in[t])
                continue;
            f->in[t] = 1;
            f->queue[tail++] = t;
        }
    }
    f->in[x] = 0;
    return clean && goals > 0 ? tail : 0;
}

/* Works out the packing order of a room whose squares are marked in `in`;
 * fills the room's order, pushes and player squares. Returns 0, or -1 when
 * the room cannot be packed from its entrance. */
static int packing_order(const solver_board *b, solver_room *room, const uint8_t *in,
                         solver_boxpath *bp, uint8_t *occ)
{
    uint32_t n = 0;
    for (uint32_t s = 0; s < b->nsq; s++) {
        /* outside the room and its entrance, every square is a wall */
        occ[s] = !in[s] && s != room->entrance;
        if (in[s] && b->goal[s])
            occ[s] = 1, room->order[n++] = (uint16_t)s;
    }
    room->ngoals = n;
    for (uint32_t left = n; left > 0; left--) {
        /* the goal packed last among those left: the one reached with the
         * fewest pushes, so that deep goals fill first */
        int best = -1, best_pushes = 0;
        uint16_t best_end = 0;
        for (uint32_t k = 0; k < left; k++) {
            uint16_t g = room->order[k];
            occ[g] = 0;
            uint16_t end;
            /* while the square inside the entrance is full, nothing gets past it */
            int pushes = occ[room->inside] ? -1
                                           : solver_boxpath_find(bp, b, occ, room->inside, g,
                                                                 room->entrance, &end);
            if (pushes >= 0) {
                solver_boxpath_area(bp, b, occ, end, g);
                if (!bp->area[room->entrance])
                    pushes = -1;
            }
            occ[g] = 1;
            if (pushes >= 0 && (best < 0 || pushes < best_pushes)) {
                best = (int)k;
                best_pushes = pushes;
                best_end = end;
            }
        }
        if (best < 0)
            return -1;
        uint16_t g = room->order[best];
        room->order[best] = room->order[left - 1];
        room->order[left - 1] = g;
        room->pushes[left - 1] = (uint16_t)best_pushes;
        room->player[left - 1] = best_end;
        occ[g] = 0;
    }
    return 0;
}

static void free_room(solver_room *room)
{
    free(room->order);
    free(room->pushes);
    free(room->player);
    free(room->squares);
}

/* Keeps the room entered from x on side d when its packing order exists and
 * it overlaps no room kept before. */
static int try_room(solver_macros *m, finder *f, solver_boxpath *bp, uint8_t *occ, uint16_t x,
                    int d, uint32_t size)
{
    const solver_board *b = f->b;
    for (uint32_t k = 0; k < size; k++)
        if (m->room_of[f->queue[k]] != SOLVER_NONE)
            return 0;
    int inside_neighbours = 0;
    for (int e = 0; e < 4; e++) {
        uint16_t t = b->nb[x * 4 + e];
        inside_neighbours += t != SOLVER_NONE && f->in[t];
    }
    if (inside_neighbours != 1)
        return 0;
    solver_room room = {.entrance = x, .inside = b->nb[x * 4 + d], .size = size};
    room.order = malloc((size + 1) * sizeof *room.order);
    room.pushes = malloc((size + 1) * sizeof *room.pushes);
    room.player = malloc((size + 1) * sizeof *room.player);
    room.squares = malloc((size + 1) * sizeof *room.squares);
    if (!room.order || !room.pushes || !room.player || !room.squares) {
        free_room(&room);
        return -1;
    }
    memcpy(room.squares, f->queue, size * sizeof *room.squares);
    if (packing_order(b, &room, f->in, bp, occ) < 0) {
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
    m->room[m->nrooms++] = room;
    return 0;
}

typedef struct candidate {
    uint16_t x;
    uint8_t d;
    uint32_t size;
} candidate;

static int by_size_descending(const void *a, const void *b)
{
    const candidate *p = a, *q = b;
    if (p->size != q->size)
        return p->size < q->size ? 1 : -1;
    return p->x != q->x ? (p->x < q->x ? -1 : 1) : (int)p->d - (int)q->d;
}

int solver_macros_build(solver_macros *m, const solver_board *b, const uint16_t *boxes,
                        uint16_t player)
{
    memset(m, 0, sizeof *m);
    m->room_of = malloc((b->nsq + 1) * sizeof *m->room_of);
    if (m->room_of == NULL)
        return -1;
    for (uint32_t s = 0; s < b->nsq; s++)
        m->room_of[s] = SOLVER_NONE;
    if (b->nsq > MAX_SQUARES)
        return 0;
    finder f = {.b = b, .start_player = player};
    uint8_t *start_box = calloc(b->nsq + 1, 1);
    uint8_t *occ = malloc(b->nsq + 1);
    candidate *cand = malloc(((size_t)b->nsq * 4 + 1) * sizeof *cand);
    f.queue = malloc((b->nsq + 1) * sizeof *f.queue);
    f.in = malloc(b->nsq + 1);
    solver_boxpath bp;
    int rc = solver_boxpath_init(&bp, b);
    if (!start_box || !occ || !cand || !f.queue || !f.in)
        rc = -1;
    uint32_t ncand = 0;
    if (rc == 0) {
        for (uint32_t k = 0; k < b->nboxes; k++)
            start_box[boxes[k]] = 1;
        f.start_box = start_box;
        for (uint32_t x = 0; x < b->nsq; x++) {
            const uint8_t *side = &b->side[x * 4];
            for (int d = 0; d < 4; d++) {
                /* one candidate per part, and only where x splits the floor */
                bool split = false;
                for (int e = 0; e < 4; e++)
                    split = split || (side[e] != 0xFF && side[e] != side[d]);
                if (side[d] != d || !split)
                    continue;
                uint32_t size = component(&f, (uint16_t)x, d);
                if (size > 0)
                    cand[ncand++] = (candidate){(uint16_t)x, (uint8_t)d, size};
            }
        }
        qsort(cand, ncand, sizeof *cand, by_size_descending);
        for (uint32_t k = 0; k < ncand && rc == 0; k++) {
            component(&f, cand[k].x, cand[k].d);
            rc = try_room(m, &f, &bp, occ, cand[k].x, cand[k].d, cand[k].size);
        }
    }
    solver_boxpath_free(&bp);
    free(start_box);
    free(occ);
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
    memset(m, 0, sizeof *m);
}

int solver_macros_room_push(const solver_macros *m, const uint16_t *occ, uint16_t from, uint16_t to,
                            uint16_t *goal, uint16_t *player)
{
    uint16_t r = m->room_of[to];
    if (r == SOLVER_NONE || m->room[r].entrance != from)
        return -1;
    const solver_room *room = &m->room[r];
    /* the room must hold the first j goals of its order and the new box only */
    uint32_t boxes = 0;
    for (uint32_t k = 0; k < room->size; k++)
        boxes += occ[room->squares[k]] != 0;
    uint32_t j = boxes - 1;
    if (j >= room->ngoals)
        return -1;
    for (uint32_t k = 0; k < j; k++)
        if (occ[room->order[k]] == 0)
            return -1;
    if (room->order[j] != to && occ[room->order[j]] != 0)
        return -1;
    *goal = room->order[j];
    *player = room->pushes[j] == 0 ? from : room->player[j];
    return room->pushes[j];
}
