/* Box paths (solver_boxpath_find, and solver_boxpath_find_in given the
 * player's area) agree with a plain search over (box square, player side)
 * states that fills the player's whole area after every push: the same
 * number of pushes, the same pushes and the same end square of the player,
 * on random positions of real levels. */
#include "check.h"
#include "internal.h"
#include "solver_boards.h"
#include "test_rand.h"

#include <stdlib.h>
#include <string.h>

static uint32_t rng = 0x3C6EF372u;

/* The plain search: returns the pushes, with path[k] the state before push
 * k and *end the player's last square, or -1. prev holds nsq * 4 states;
 * area nsq + 1 bytes, fill nsq + 1 squares. */
static int plain_path(const solver_board *b, const uint16_t *occ, uint16_t from, uint16_t to,
                      uint16_t player, uint32_t *prev, uint32_t *queue, uint8_t *area,
                      uint16_t *fill, uint32_t *path, uint16_t *end)
{
    for (uint32_t k = 0; k < b->nsq * 4; k++)
        prev[k] = SOLVER_NIL;
    if (from == to) {
        *end = player;
        return 0;
    }
    solver_boxpath bp = {.area = area, .fill = fill};
    solver_boxpath_area(&bp, b, occ, player, from);
    uint32_t head = 0, tail = 0, goal = SOLVER_NIL;
    for (int d = 0; d < 4; d++) {
        uint16_t q = b->nb[from * 4 + d];
        if (q != SOLVER_NONE && area[q]) {
            prev[from * 4u + (uint32_t)d] = from * 4u + (uint32_t)d;
            queue[tail++] = from * 4u + (uint32_t)d;
        }
    }
    while (head < tail && goal == SOLVER_NIL) {
        uint32_t st = queue[head++];
        uint16_t x = (uint16_t)(st / 4), y = b->nb[x * 4 + ((st % 4) ^ 2)];
        if (y == SOLVER_NONE || occ[y])
            continue;
        solver_boxpath_area(&bp, b, occ, x, y);
        for (int d = 0; d < 4 && goal == SOLVER_NIL; d++) {
            uint16_t q = b->nb[y * 4 + d];
            uint32_t next = y * 4u + (uint32_t)d;
            if (q == SOLVER_NONE || !area[q] || prev[next] != SOLVER_NIL)
                continue;
            prev[next] = st;
            queue[tail++] = next;
            if (y == to)
                goal = next;
        }
    }
    if (goal == SOLVER_NIL)
        return -1;
    uint32_t n = 0;
    for (uint32_t st = goal; prev[st] != st; st = prev[st])
        n++;
    uint32_t k = n;
    for (uint32_t st = goal; prev[st] != st; st = prev[st])
        path[--k] = prev[st];
    *end = (uint16_t)(path[n - 1] / 4);
    return (int)n;
}

/* Work space of the plain search, and the player's area for
 * solver_boxpath_find_in. */
typedef struct plain {
    uint32_t *prev, *queue, *path;
    uint8_t *area;
    uint16_t *fill;
    solver_fill reach;
} plain;

/* Compares a box path found (got pushes, bp->path, the player ending on
 * end) with the plain search's; `how` names the call. Returns whether
 * they agree on a path found. */
static bool same_path(const char *name, uint32_t number, const char *how, uint16_t from,
                      uint16_t to, uint16_t player, const solver_boxpath *bp, int got, uint16_t end,
                      const plain *pl, int want, uint16_t want_end)
{
    CHECK_MSG(got == want, "%s %u: %s: box %u to %u, player on %u: %d pushes, expected %d", name,
              number, how, from, to, player, got, want);
    if (got != want || got < 0)
        return false;
    CHECK_MSG(end == want_end, "%s %u: %s: box %u to %u: player ends on %u, expected %u", name,
              number, how, from, to, end, want_end);
    for (int i = 0; i < got; i++)
        CHECK_MSG(bp->path[i] == pl->path[i], "%s %u: %s: box %u to %u: push %d is %u, expected %u",
                  name, number, how, from, to, i, bp->path[i], pl->path[i]);
    return true;
}

/* Places some of the level's boxes at random, then asks for the paths of
 * one of them to a few squares from a random player square. Returns the
 * paths compared. */
static uint32_t check_random_position(const char *name, uint32_t number, const solver_board *b,
                                      solver_boxpath *bp, plain *pl, uint16_t *occ)
{
    memset(occ, 0, (b->nsq + 1) * sizeof *occ);
    uint32_t boxes = 1 + test_rand(&rng, b->nboxes), placed = 0;
    uint16_t from = SOLVER_NONE;
    for (uint32_t tries = 0; placed < boxes && tries < 100000; tries++) {
        uint16_t s = (uint16_t)test_rand(&rng, b->nsq);
        if (b->dead[s] || occ[s] != 0)
            continue;
        occ[s] = 1;
        from = s;
        placed++;
    }
    if (from == SOLVER_NONE)
        return 0;
    occ[from] = 0; /* the box that moves is not among the others */
    uint16_t player;
    do
        player = (uint16_t)test_rand(&rng, b->nsq);
    while (occ[player] != 0 || player == from);
    /* the player's area with the box on `from`, as the search knows it */
    occ[from] = 1;
    solver_reach(b, occ, player, &pl->reach);
    occ[from] = 0;
    uint32_t compared = 0;
    for (int k = 0; k < 8; k++) {
        uint16_t to = (uint16_t)test_rand(&rng, b->nsq);
        uint16_t end_in = SOLVER_NONE, end = SOLVER_NONE, want_end = SOLVER_NONE;
        /* first, so that a fresh bp meets it before any other call */
        int got_in = solver_boxpath_find_in(bp, b, occ, from, to, &pl->reach, player, &end_in);
        int want = plain_path(b, occ, from, to, player, pl->prev, pl->queue, pl->area, pl->fill,
                              pl->path, &want_end);
        compared += same_path(name, number, "given the area", from, to, player, bp, got_in, end_in,
                              pl, want, want_end);
        int got = solver_boxpath_find(bp, b, occ, from, to, player, &end);
        compared += same_path(name, number, "from the player", from, to, player, bp, got, end, pl,
                              want, want_end);
    }
    return compared;
}

/* Checks *(uint32_t *)positions random positions on one level. */
static uint32_t check_board(const char *file, uint32_t number, const solver_board *b,
                            void *positions)
{
    solver_boxpath bp;
    size_t states = (size_t)b->nsq * 4 + 1;
    plain pl = {
        .prev = malloc(states * sizeof *pl.prev),
        .queue = malloc(states * sizeof *pl.queue),
        .path = malloc(states * sizeof *pl.path),
        .area = malloc(b->nsq + 1),
        .fill = malloc((b->nsq + 1) * sizeof *pl.fill),
    };
    uint16_t *occ = calloc(b->nsq + 1, sizeof *occ);
    bool ok = solver_boxpath_init(&bp, b) == 0 && pl.prev && pl.queue && pl.path && pl.area &&
              pl.fill && occ;
    ok = solver_fill_init(&pl.reach, b->nsq) == 0 && ok;
    CHECK(ok);
    uint32_t compared = 0;
    for (uint32_t p = 0; ok && p < *(uint32_t *)positions && check_failures_in_test == 0; p++)
        compared += check_random_position(file, number, b, &bp, &pl, occ);
    solver_boxpath_free(&bp);
    free(pl.prev);
    free(pl.queue);
    free(pl.path);
    free(pl.area);
    free(pl.fill);
    solver_fill_free(&pl.reach);
    free(occ);
    return compared;
}

/* Checks random positions on every level of a shared collection. */
static uint32_t check_collection(const char *file, uint32_t positions)
{
    return solver_each_board(file, check_board, &positions);
}

static void box_paths_match_a_search_filling_every_area(void)
{
    uint32_t compared = check_collection("levels/Microban_155.xsb", 10);
    compared += check_collection("levels/XSokoban_90.xsb", 10);
    CHECK_MSG(compared > 2000, "only %u paths found to compare", compared);
}

int main(void)
{
    RUN(box_paths_match_a_search_filling_every_area);
    return check_finish();
}
