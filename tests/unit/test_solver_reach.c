/* The player's area after a push, derived from the area before it
 * (solver_reach_push), agrees with a fill from scratch: the same normalised
 * square, the same squares and their count, on random positions of real
 * levels. */
#include "check.h"
#include "internal.h"
#include "solver_boards.h"

#include <stdlib.h>

static uint32_t rng = 0x6A09E667u;

/* Whether the area after the push holds x, as solver_reach_push left it. */
static bool in_area(const solver_fill *before, const solver_fill *after, bool grown, uint32_t x)
{
    return after->mark[x] == after->stamp || (grown && before->mark[x] == before->stamp);
}

/* Places the level's boxes at random on squares that are not dead and the
 * player on a free square, then checks every push of that position. Returns
 * the pushes checked. */
static uint32_t check_random_position(const char *name, uint32_t number, const solver_board *b,
                                      uint16_t *occ, uint16_t *box, solver_fill *fills)
{
    uint16_t player;
    uint32_t placed = solver_random_position(b, &rng, occ, box, &player);
    solver_fill *before = &fills[0], *after = &fills[1], *full = &fills[2];
    uint16_t least = solver_reach(b, occ, player, before);
    uint32_t checked = 0;
    for (uint32_t i = 0; i < placed; i++) {
        uint16_t from = box[i];
        for (int d = 0; d < 4; d++) {
            uint16_t behind = b->nb[from * 4 + (d ^ 2)], to = b->nb[from * 4 + d];
            if (behind == SOLVER_NONE || to == SOLVER_NONE || occ[to] != 0 ||
                before->mark[behind] != before->stamp)
                continue;
            occ[from] = 0;
            occ[to] = (uint16_t)(i + 1);
            bool grown;
            uint16_t got = solver_reach_push(b, occ, before, least, from, to, after, &grown);
            uint16_t want = solver_reach(b, occ, from, full);
            CHECK_MSG(got == want, "%s %u: push %u->%u: normalised square %u, expected %u", name,
                      number, from, to, got, want);
            uint32_t size = 0;
            for (uint32_t x = 0; x < b->nsq; x++) {
                if (occ[x] != 0)
                    continue;
                bool a = in_area(before, after, grown, x), e = full->mark[x] == full->stamp;
                CHECK_MSG(a == e, "%s %u: push %u->%u: square %u %s the area, expected %s", name,
                          number, from, to, x, a ? "in" : "out of", e ? "in" : "out");
                size += e;
            }
            CHECK_MSG(full->size == size,
                      "%s %u: push %u->%u: a fresh fill counts %u squares, "
                      "it marked %u",
                      name, number, from, to, full->size, size);
            CHECK_MSG(after->size == size,
                      "%s %u: push %u->%u (%s): the area after it counts "
                      "%u squares, a fresh fill %u",
                      name, number, from, to, grown ? "grown" : "filled again", after->size, size);
            occ[to] = 0;
            occ[from] = (uint16_t)(i + 1);
            checked++;
        }
    }
    return checked;
}

/* Checks *(uint32_t *)positions random positions on one level. */
static uint32_t check_board(const char *file, uint32_t number, const solver_board *b,
                            void *positions)
{
    uint16_t *occ = calloc(b->nsq + 1, sizeof *occ);
    uint16_t *box = malloc((b->nboxes + 1) * sizeof *box);
    solver_fill fills[3];
    bool ok = occ != NULL && box != NULL;
    for (int k = 0; k < 3; k++)
        ok = solver_fill_init(&fills[k], b->nsq) == 0 && ok;
    CHECK(ok);
    uint32_t checked = 0;
    for (uint32_t p = 0; ok && p < *(uint32_t *)positions && check_failures_in_test == 0; p++)
        checked += check_random_position(file, number, b, occ, box, fills);
    for (int k = 0; k < 3; k++)
        solver_fill_free(&fills[k]);
    free(occ);
    free(box);
    return checked;
}

/* Checks random positions on every level of a shared collection. */
static uint32_t check_collection(const char *file, uint32_t positions)
{
    return solver_each_board(file, check_board, &positions);
}

static void the_area_after_a_push_matches_a_fresh_fill(void)
{
    uint32_t checked = check_collection("levels/Microban_155.xsb", 40);
    checked += check_collection("levels/XSokoban_90.xsb", 20);
    CHECK(checked > 10000);
}

int main(void)
{
    RUN(the_area_after_a_push_matches_a_fresh_fill);
    return check_finish();
}
