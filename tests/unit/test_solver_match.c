/* The lower bound's assignment (solver_match_solve and _update) on random
 * box placements of real levels: the duals stay feasible and tight on the
 * matched pairs, an update after one box moves agrees with a solve from
 * scratch, and on few boxes the bound is the cheapest of all assignments. */
#include "check.h"
#include "internal.h"
#include "solver_boards.h"
#include "test_rand.h"

#include <stdlib.h>
#include <string.h>

static uint32_t rng = 0xA54FF53Au;

static int64_t cost(const solver_board *b, const uint16_t *box, uint32_t row, uint32_t goal)
{
    uint16_t d = b->dist[box[row] * b->nboxes + goal];
    return d == SOLVER_FAR ? -1 : d;
}

/* The cheapest assignment by trying them all (few boxes only), or
 * SOLVER_BOUND_DEAD when every one holds a pair that cannot be. */
static uint32_t cheapest(const solver_board *b, const uint16_t *box, uint32_t row, uint32_t taken)
{
    if (row == b->nboxes)
        return 0;
    uint32_t best = SOLVER_BOUND_DEAD;
    for (uint32_t g = 0; g < b->nboxes; g++) {
        int64_t c = cost(b, box, row, g);
        if ((taken >> g & 1) || c < 0)
            continue;
        uint32_t rest = cheapest(b, box, row + 1, taken | 1u << g);
        if (rest != SOLVER_BOUND_DEAD && rest + (uint32_t)c < best)
            best = rest + (uint32_t)c;
    }
    return best;
}

/* Whether the duals are feasible (u + v never above a pair's cost) and
 * tight on the matched pairs, every goal matched to a distinct box. */
static void check_duals(const char *name, uint32_t number, const solver_match *m,
                        const solver_board *b, const uint16_t *box, const char *after)
{
    uint32_t n = m->n;
    uint8_t *seen = calloc(n + 1, 1);
    CHECK(seen != NULL);
    for (uint32_t j = 1; j <= n && seen != NULL && check_failures_in_test == 0; j++) {
        uint32_t i = m->p[j];
        CHECK_MSG(i >= 1 && i <= n && !seen[i], "%s %u after %s: goal %u has row %u", name, number,
                  after, j, i);
        if (i >= 1 && i <= n)
            seen[i] = 1;
        for (uint32_t r = 1; r <= n; r++) {
            int64_t c = cost(b, box, r - 1, j - 1);
            if (c < 0)
                continue;
            int64_t slack = c - m->u[r] - m->v[j];
            CHECK_MSG(slack >= 0, "%s %u after %s: pair (%u, %u) has slack %lld", name, number,
                      after, r, j, (long long)slack);
            CHECK_MSG(r != i || slack == 0, "%s %u after %s: matched pair (%u, %u) has slack %lld",
                      name, number, after, r, j, (long long)slack);
        }
    }
    free(seen);
}

/* Places the boxes at random off dead squares, solves, then moves boxes
 * one at a time and updates. Returns the updates checked. */
static uint32_t check_random_position(const char *name, uint32_t number, const solver_board *b,
                                      solver_match *m, solver_match *fresh, uint16_t *box,
                                      uint8_t *used)
{
    memset(used, 0, b->nsq + 1);
    for (uint32_t k = 0; k < b->nboxes; k++) {
        uint16_t s;
        do
            s = (uint16_t)test_rand(&rng, b->nsq);
        while (b->dead[s] || used[s]);
        used[s] = 1;
        box[k] = s;
    }
    uint32_t bound = solver_match_solve(m, b, box);
    if (bound != SOLVER_BOUND_DEAD)
        check_duals(name, number, m, b, box, "a solve");
    if (b->nboxes <= 7)
        CHECK_MSG(bound == cheapest(b, box, 0, 0), "%s %u: bound %u, cheapest assignment %u", name,
                  number, bound, cheapest(b, box, 0, 0));
    uint32_t checked = 0;
    for (uint32_t step = 0; step < 12 && bound != SOLVER_BOUND_DEAD; step++) {
        uint32_t row = test_rand(&rng, b->nboxes);
        uint16_t s = (uint16_t)test_rand(&rng, b->nsq);
        if (b->dead[s] || used[s])
            continue;
        used[box[row]] = 0;
        used[s] = 1;
        box[row] = s;
        bound = solver_match_update(m, b, box, row);
        uint32_t want = solver_match_solve(fresh, b, box);
        CHECK_MSG(bound == want, "%s %u: update of box %u to %u: bound %u, a solve gives %u", name,
                  number, row, s, bound, want);
        if (bound != SOLVER_BOUND_DEAD)
            check_duals(name, number, m, b, box, "an update");
        checked++;
    }
    return checked;
}

/* Checks *(uint32_t *)positions random placements on one level. */
static uint32_t check_board(const char *file, uint32_t number, const solver_board *b,
                            void *positions)
{
    solver_match m, fresh;
    uint16_t *box = malloc((b->nboxes + 1) * sizeof *box);
    uint8_t *used = malloc(b->nsq + 1);
    bool ok = solver_match_init(&m, b->nboxes) == 0 && solver_match_init(&fresh, b->nboxes) == 0 &&
              box != NULL && used != NULL;
    CHECK(ok);
    uint32_t checked = 0;
    for (uint32_t p = 0; ok && p < *(uint32_t *)positions && check_failures_in_test == 0; p++)
        checked += check_random_position(file, number, b, &m, &fresh, box, used);
    solver_match_free(&m);
    solver_match_free(&fresh);
    free(box);
    free(used);
    return checked;
}

/* Checks random placements on every level of a shared collection. */
static uint32_t check_collection(const char *file, uint32_t positions)
{
    return solver_each_board(file, check_board, &positions);
}

static void the_bound_is_the_cheapest_assignment_with_tight_duals(void)
{
    uint32_t checked = check_collection("levels/Microban_155.xsb", 10);
    checked += check_collection("levels/XSokoban_90.xsb", 4);
    CHECK_MSG(checked > 5000, "only %u updates checked", checked);
}

int main(void)
{
    RUN(the_bound_is_the_cheapest_assignment_with_tight_duals);
    return check_finish();
}
