#include "solver_boards.h"

#include "check.h"
#include "reader.h"
#include "test_rand.h"

#include <stdlib.h>
#include <string.h>

const char SOLVER_HALL_OVER_ROOM[] = "##############\n"
                                     "#@           #\n"
                                     "# $ $ $ $ $  #\n"
                                     "#  $ $ $ $ $ #\n"
                                     "# $ $        #\n"
                                     "#            #\n"
                                     "######  ######\n"
                                     "   #       #\n"
                                     "   # ......#\n"
                                     "   # ......#\n"
                                     "   #########\n";

const char SOLVER_NO_ROOM_HALL[] = "################\n"
                                   "#       #      #\n"
                                   "# $$       $$  #\n"
                                   "#   #$     #   #\n"
                                   "#    $.....    #\n"
                                   "# $#$ .#.#.  # #\n"
                                   "#   $ ..... $  #\n"
                                   "#   $ $      $ #\n"
                                   "#   @    #     #\n"
                                   "################\n";

uint32_t solver_each_board(const char *file, solver_board_fn fn, void *ctx)
{
    size_t len;
    char *text = read_file(shared_path(file), &len);
    if (text == NULL)
        return 0;
    static soko_reader reader;
    static soko_entry entry;
    static soko_level lvl;
    uint32_t counted = 0;
    soko_reader_init(&reader, text, (uint32_t)len);
    while (soko_reader_next(&reader, &entry) == 1 && check_failures_in_test == 0) {
        soko_error err;
        if (soko_level_parse(&lvl, text + entry.board.off, entry.board.len, entry.board_line,
                             &err) != SOKO_OK)
            continue;
        solver_board b;
        if (solver_board_build(&b, &lvl) < 0)
            continue;
        counted += fn(file, entry.number, &b, ctx);
        solver_board_free(&b);
    }
    free(text);
    return counted;
}

void solver_start_boxes(const soko_level *lvl, const solver_board *b, uint16_t *boxes)
{
    uint32_t n = 0;
    for (uint32_t s = 0; s < b->nsq; s++)
        if ((lvl->cell[b->cell[s]] & SOKO_BOX) && n++ < b->nboxes)
            boxes[n - 1] = (uint16_t)s;
    CHECK_INT(n, b->nboxes);
}

uint32_t solver_random_position(const solver_board *b, uint32_t *rng, uint16_t *occ, uint16_t *box,
                                uint16_t *player)
{
    memset(occ, 0, (b->nsq + 1) * sizeof *occ);
    uint32_t placed = 0;
    for (uint32_t tries = 0; placed < b->nboxes && tries < 100000; tries++) {
        uint16_t s = (uint16_t)test_rand(rng, b->nsq);
        if (b->dead[s] || occ[s] != 0)
            continue;
        occ[s] = (uint16_t)(placed + 1);
        box[placed++] = s;
    }
    do
        *player = (uint16_t)test_rand(rng, b->nsq);
    while (occ[*player] != 0);
    return placed;
}
