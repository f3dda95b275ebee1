/* The small searches for corral deadlocks (solver_sub_deadlock) keep each
 * state's player area instead of filling it again when the state is
 * taken up: every area they read agrees with a fresh fill, on random
 * positions of real levels. */
#include "check.h"
#include "internal.h"
#include "solver_boards.h"

#include <stdlib.h>

static uint32_t rng = 0x3C6EF372u;

/* Places the level's boxes at random on squares that are not dead and the
 * player on a free square, then runs the corral check after every push of
 * that position. */
static void check_random_position(const solver_board *b, solver_sub *sb, uint16_t *occ,
                                  uint16_t *box, solver_fill *before, solver_fill *after)
{
    uint16_t player;
    uint32_t placed = solver_random_position(b, &rng, occ, box, &player);
    solver_reach(b, occ, player, before);
    for (uint32_t i = 0; i < placed; i++) {
        uint16_t from = box[i];
        for (int d = 0; d < 4; d++) {
            uint16_t behind = b->nb[from * 4 + (d ^ 2)], to = b->nb[from * 4 + d];
            if (behind == SOLVER_NONE || to == SOLVER_NONE || occ[to] != 0 || b->dead[to] ||
                before->mark[behind] != before->stamp)
                continue;
            occ[from] = 0;
            occ[to] = (uint16_t)(i + 1);
            solver_reach(b, occ, from, after);
            solver_sub_deadlock(sb, b, occ, after, to, from);
            occ[to] = 0;
            occ[from] = (uint16_t)(i + 1);
        }
    }
}

typedef struct tally {
    uint32_t positions; /* per level */
    uint64_t checked, wrong;
} tally;

static uint32_t check_board(const char *file, uint32_t number, const solver_board *b, void *ctx)
{
    tally *t = ctx;
    uint16_t *occ = calloc(b->nsq + 1, sizeof *occ);
    uint16_t *box = malloc((b->nboxes + 1) * sizeof *box);
    solver_fill before, after;
    solver_sub sb;
    bool ok = occ != NULL && box != NULL;
    ok = solver_fill_init(&before, b->nsq) == 0 && ok;
    ok = solver_fill_init(&after, b->nsq) == 0 && ok;
    ok = solver_sub_init(&sb, b) == 0 && ok;
    CHECK_MSG(ok, "%s %u: out of memory", file, number);
    sb.check_areas = true;
    for (uint32_t p = 0; ok && p < t->positions; p++)
        check_random_position(b, &sb, occ, box, &before, &after);
    CHECK_MSG(sb.areas_wrong == 0,
              "%s %u: %llu of the %llu areas the small searches read differ from a fresh fill",
              file, number, (unsigned long long)sb.areas_wrong,
              (unsigned long long)sb.areas_checked);
    t->checked += sb.areas_checked;
    t->wrong += sb.areas_wrong;
    solver_sub_free(&sb);
    solver_fill_free(&before);
    solver_fill_free(&after);
    free(occ);
    free(box);
    return 1;
}

static void the_areas_small_searches_keep_match_fresh_fills(void)
{
    tally t = {.positions = 30};
    solver_each_board("levels/Microban_155.xsb", check_board, &t);
    t.positions = 15;
    solver_each_board("levels/XSokoban_90.xsb", check_board, &t);
    /* enough states taken up, most of them children with kept areas */
    CHECK_MSG(t.checked > 100000, "only %llu areas were read", (unsigned long long)t.checked);
    CHECK(t.wrong == 0);
}

int main(void)
{
    RUN(the_areas_small_searches_keep_match_fresh_fills);
    return check_finish();
}
