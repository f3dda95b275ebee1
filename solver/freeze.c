/* Freeze deadlocks: boxes that can never move again because walls, dead
 * squares and other such boxes hold them on both axes. A frozen box off a
 * goal can never be solved. */
#include "internal.h"

/* Marks in the caller's work array: a box taken as a wall while its
 * neighbours are examined, so that a ring of boxes does not recurse forever. */
#define AS_WALL 1u

typedef struct freeze {
    const solver_board *b;
    const uint16_t *occ;
    uint8_t *wall;
    uint16_t seen[64]; /* boxes found frozen in the current proof */
    uint32_t nseen;
    uint32_t depth;
} freeze;

static bool frozen(freeze *f, uint16_t s);

static bool is_wall(const freeze *f, uint16_t s)
{
    return s == SOLVER_NONE || f->wall[s] == AS_WALL;
}

/* True when the box on s can never move along the axis (0: up/down,
 * 1: left/right). */
static bool blocked(freeze *f, uint16_t s, int axis)
{
    uint16_t a = f->b->nb[s * 4 + axis], c = f->b->nb[s * 4 + (axis + 2)];
    if (is_wall(f, a) || is_wall(f, c))
        return true;
    /* moving it either way would put it on a dead square */
    if (f->b->dead[a] && f->b->dead[c])
        return true;
    if (f->depth >= 48) /* too deep to prove: assume it can move */
        return false;
    f->wall[s] = AS_WALL;
    f->depth++;
    uint32_t keep = f->nseen;
    bool r = (f->occ[a] != 0 && frozen(f, a)) || (f->occ[c] != 0 && frozen(f, c));
    if (!r)
        f->nseen = keep;
    f->depth--;
    f->wall[s] = 0;
    return r;
}

static bool frozen(freeze *f, uint16_t s)
{
    uint32_t keep = f->nseen;
    if (!blocked(f, s, 0) || !blocked(f, s, 1)) {
        f->nseen = keep; /* a failed proof must not leave its boxes behind */
        return false;
    }
    if (f->nseen < sizeof f->seen / sizeof f->seen[0])
        f->seen[f->nseen++] = s;
    return true;
}

int solver_freeze_check(const solver_board *b, const uint16_t *occ, uint16_t s, uint8_t *work)
{
    freeze f = {.b = b, .occ = occ, .wall = work};
    if (!frozen(&f, s))
        return SOLVER_MOVABLE;
    for (uint32_t i = 0; i < f.nseen; i++)
        if (!b->goal[f.seen[i]])
            return SOLVER_FROZEN_OFF_GOAL;
    return SOLVER_FROZEN_ON_GOALS;
}
