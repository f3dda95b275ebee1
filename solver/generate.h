/* The level generator: solvable Sokoban levels from a seed.
 *
 * A level is built in three steps, in the spirit of Taylor and Parberry's
 * "Procedural generation of Sokoban levels": a room is carved in the asked
 * area, goals are placed in it, and a breadth-first search pulls the boxes
 * back from the solved position. Every position that search reaches is
 * solvable, and its depth is the fewest pushes that solve it; the generator
 * keeps the position whose solution scores highest (pushes, box lines, box
 * changes and the positions a breadth-first search needs), over several
 * rooms. The search is bounded by a number of positions, never by time, and
 * the pseudo-random numbers are the generator's own integer sequence, so the
 * same seed and options give the same level, byte for byte, on every
 * machine. Native only (it allocates); calls in several threads are safe. */
#ifndef SOKO_GENERATE_H
#define SOKO_GENERATE_H

#include <stdbool.h>
#include <stdint.h>

/* Bounds of what can be asked for. */
#define GEN_MIN_SIDE 5
#define GEN_MAX_SIDE 40
#define GEN_MAX_BOXES 8

/* Room shapes; GEN_SHAPE_ANY lets the seed choose one per room. */
enum {
    GEN_SHAPE_ANY = 0,
    GEN_SHAPE_OPEN = 1,  /* an open hall with pillars and short walls */
    GEN_SHAPE_ROOMS = 2, /* overlapping rectangular rooms */
    GEN_SHAPE_CAVE = 3,  /* a winding cave dug by a random walk */
    GEN_SHAPE_TILES = 4, /* 3x3 tiles of walls and floor, fitted together */
    GEN_SHAPE_COUNT = 5
};

/* What to generate. Fill it with gen_options_default, then change fields. */
typedef struct gen_options {
    uint64_t seed;
    uint16_t width, height; /* the largest board, outer walls included */
    uint16_t boxes;
    uint8_t shape;         /* GEN_SHAPE_... */
    uint32_t candidates;   /* rooms whose best positions compete (at least 1) */
    uint32_t min_score;    /* rooms are tried (up to 8 times more) until one reaches it */
    uint64_t node_limit;   /* positions of the pull search per room */
    uint64_t verify_nodes; /* when not 0, the solver checks the level within this many */
} gen_options;

/* A generated level. Strings come from malloc and belong to the level (free
 * them with gen_level_free). */
typedef struct gen_level {
    char *board;    /* rows of the community text format, each ending in '\n' */
    char *solution; /* a solution in LURD (pushes upper case), fewest pushes */
    uint16_t width, height, boxes;
    uint8_t shape;          /* the room's shape */
    uint32_t moves, pushes; /* of the solution */
    uint32_t box_lines;     /* runs of pushes of one box in one direction */
    uint32_t box_changes;   /* times the pushed box changes */
    uint64_t effort;        /* positions closer to solved than the start */
    uint32_t score;         /* the difficulty score the candidates compete on */
    uint32_t rooms;         /* rooms tried */
    int solver_status;      /* SOLVER_... when verify_nodes was set, else -1 */
    uint64_t solver_nodes;  /* positions the solver stored to solve it */
} gen_level;

/* Failures of gen_generate. */
enum {
    GEN_OK = 0,
    GEN_E_OPTIONS = -1,   /* a size, box count or shape out of bounds */
    GEN_E_MEMORY = -2,    /* out of memory */
    GEN_E_NOT_FOUND = -3, /* no room gave a level (or none reached min_score) */
    GEN_E_VERIFY = -4     /* the core or the solver refused the level: a bug */
};

/* Defaults: seed 1, 12x12, 3 boxes, any shape, 4 candidates, no minimum
 * score, 300000 positions per room, no solver check. Cannot fail. */
void gen_options_default(gen_options *opt);

/* Generates one level. Returns GEN_OK and fills *out (release it with
 * gen_level_free), or a negative GEN_E_... code, and then *out is cleared.
 * The result depends only on the options' values. */
int gen_generate(const gen_options *opt, gen_level *out);

/* Frees what a level owns and clears it. Accepts a cleared level. */
void gen_level_free(gen_level *lvl);

/* The name of a shape ("open", "rooms", "cave", "tiles", or "any"); NULL
 * when out of range. */
const char *gen_shape_name(int shape);

/* The shape of a name, or -1 when it names none. */
int gen_shape_from_name(const char *name);

/* A message for a GEN_E_... code. Never NULL. */
const char *gen_error_name(int code);

#endif
