/* Tunnel macros. A tunnel square has walls on both sides across the
 * direction of a push: a box there moves only along the tunnel, and the
 * player behind it, walled in the same way, can only push it on or walk
 * back. A push that brings a box into a tunnel off goal, the player
 * following through a tunnel square, goes on through the tunnel until the
 * box leaves it, reaches a goal, or meets a box or a dead square. Searches
 * using this macro drop positions with a box parked inside a tunnel, so
 * their failure proves nothing (the caller then searches without macros). */
#include "internal.h"

/* Whether both neighbours of s across direction d are walls. */
static bool walled_across(const solver_board *b, uint16_t s, int d)
{
    return b->nb[s * 4 + ((d + 1) & 3)] == SOLVER_NONE &&
           b->nb[s * 4 + ((d + 3) & 3)] == SOLVER_NONE;
}

int solver_tunnel_push(const solver_board *b, const uint16_t *occ, uint16_t from, uint16_t to,
                       int dir, uint16_t *end, uint16_t *player)
{
    if (!walled_across(b, from, dir))
        return -1;
    uint16_t box = to, behind = from;
    int pushes = 0;
    while (!b->goal[box] && walled_across(b, box, dir)) {
        uint16_t next = b->nb[box * 4 + dir];
        if (next == SOLVER_NONE || occ[next] != 0 || b->dead[next])
            break;
        behind = box;
        box = next;
        pushes++;
    }
    if (pushes == 0)
        return -1;
    *end = box;
    *player = behind;
    return pushes;
}
