/* The Sokoban solver: finds a solution of a level, or of a game from where it
 * stands, under the standard rule; and shortens a solution it is given.
 *
 * Native only (it allocates): a search over pushes with a transposition
 * table, a minimum-matching lower bound, packing progress, a feature-space
 * list that takes every kind of progress in turn (boxes home, areas cut
 * off, boxes out of the goal rooms' plans), dead squares, freeze
 * deadlocks, PI-corral pruning, deadlock patterns learnt during the search,
 * goal-room and tunnel macros, and a search pulling boxes back from the
 * solved position to meet the others; relevance cuts, packing orders
 * worked out again, room links blocked as a feature and goal rooms
 * holding boxes home at the start on request. The optimiser searches the
 * positions near those of a given solution. Each call owns all of its
 * memory, so calls in several threads at once are safe. Solutions are
 * LURD text that replays on the core. */
#ifndef SOLVER_H
#define SOLVER_H

#include "game.h"

#include <stdint.h>

/* What a search concluded. */
enum {
    SOLVER_SOLVED = 0,     /* a solution was found */
    SOLVER_UNSOLVABLE = 1, /* the search proved that there is none */
    SOLVER_UNKNOWN = 2     /* a limit stopped the search first */
};

/* Techniques a call can do without, for measuring what each one buys. */
enum {
    SOLVER_WITHOUT_GOAL_CUTS = 1u << 0,  /* try every push even where one fills a goal room */
    SOLVER_WITHOUT_PACKING = 1u << 1,    /* no open list that takes the most boxes home first */
    SOLVER_WITHOUT_PUSH_ORDER = 1u << 2, /* pushes tried in the order of the boxes' rows */
    SOLVER_WITHOUT_PATTERNS = 1u << 3,   /* no deadlock patterns learnt from corral searches */
    SOLVER_WITHOUT_FEATURES = 1u << 4,   /* no feature-space list taking every cell in turn */
    SOLVER_WITHOUT_PULL = 1u << 5,       /* no search from the solved position meeting the others */
    SOLVER_WITHOUT_ADVICE = 1u << 6,     /* no box brought to a goal room's next goal in one move */
    SOLVER_WITHOUT_PLAN = 1u << 7,       /* no feature of boxes out of the goal rooms' plans */
    SOLVER_WITHOUT_ORDER = 1u << 8 /* no advice by a packing order of all goals without rooms */
};

/* Techniques on trial, off unless a call asks for them: measured, they do
 * not pay on the whole yet. */
enum {
    SOLVER_WITH_RELEVANCE = 1u << 0, /* relevance cuts: pushes far off the last ones wait */
    SOLVER_WITH_REPLAN = 1u << 1,    /* a room's packing order worked out again when it breaks */
    SOLVER_WITH_LINKS = 1u << 2,     /* a feature of passages between rooms that boxes block */
    SOLVER_WITH_HELD = 1u << 3       /* goal rooms holding boxes on goals at the start */
};

/* How one call searches, and its bounds. A zero limit means "no limit",
 * except memory_limit, where 0 means the default (SOLVER_DEFAULT_MEMORY). */
typedef struct solver_options {
    double time_limit;          /* seconds of wall-clock time */
    uint64_t memory_limit;      /* bytes for the search's tables */
    uint64_t node_limit;        /* positions stored */
    const volatile int *cancel; /* when not NULL, the search stops soon after *cancel != 0 */
    bool optimal;               /* find a solution with the fewest pushes (much slower) */
    uint32_t without;           /* SOLVER_WITHOUT_* bits; 0 for the full solver */
    uint32_t with;              /* SOLVER_WITH_* bits; 0 for the full solver */
} solver_options;

#define SOLVER_DEFAULT_MEMORY ((uint64_t)1 << 30)

/* The outcome of one call. lurd is a NUL-terminated string owned by the
 * result (free it with solver_result_free); it is NULL unless solved. */
typedef struct solver_result {
    int status;         /* SOLVER_SOLVED, SOLVER_UNSOLVABLE or SOLVER_UNKNOWN */
    const char *reason; /* why the status is UNKNOWN or UNSOLVABLE, in words; never NULL */
    char *lurd;         /* the steps, pushes in upper case */
    uint32_t moves;     /* steps in lurd */
    uint32_t pushes;    /* pushes in lurd */
    uint64_t nodes;     /* positions the search stored */
    double seconds;     /* wall-clock time of the call */
} solver_result;

/* Options for a fast search with no bound on time or nodes and the default
 * memory. Cannot fail. */
void solver_options_default(solver_options *opt);

/* Solves `lvl` from its start position. Fills *out (which the caller then
 * releases with solver_result_free) and returns out->status. A level that
 * starts solved gets an empty solution. opt may be NULL for the defaults. */
int solver_solve_level(const soko_level *lvl, const solver_options *opt, solver_result *out);

/* Solves the game from its current position (boxes and player where they
 * are now; the game is not changed). The solution continues the game: play
 * it on g to reach the solved position. A game under the multi-push rule is
 * solved under the standard rule, whose solutions replay under both; it is
 * then never called unsolvable, only unknown. Returns out->status. */
int solver_solve_game(const soko_game *g, const solver_options *opt, solver_result *out);

/* A hint for the game's current position: out->lurd holds the steps up to
 * and including the next push of a solution (a walk and one push), with
 * moves and pushes counting those steps only. When the position is already
 * solved the hint is empty; when no solution exists the status says
 * SOLVER_UNSOLVABLE (the position is lost). Returns out->status. */
int solver_hint(const soko_game *g, const solver_options *opt, solver_result *out);

/* What the optimiser makes fewer first. */
enum {
    SOLVER_METRIC_MOVES = 0, /* moves, then pushes */
    SOLVER_METRIC_PUSHES = 1 /* pushes, then moves */
};

/* Looks for a solution of lvl shorter in `metric` than the given one
 * (lurd[0..len), LURD text as soko_lurd_decode reads it), among the
 * positions near those it passes through: boxes moved off their squares
 * along it, a few at a time and a few squares away, then more and
 * farther, as YASC's optimiser does (see optimise.c). Each better solution
 * found becomes the centre of the next search. opt's time, memory, node
 * limits and cancel flag bound the call (its other fields are not used;
 * NULL for no bound but the default memory). Fills *out: SOLVER_SOLVED
 * with out->lurd a solution replayed on the core, never longer in the
 * metric than the given one (which it is, written plainly, when nothing
 * shorter was found; out->reason says which); or SOLVER_UNKNOWN when the
 * text is not a solution of lvl or memory runs out, with out->reason
 * saying so. Release out with solver_result_free. Returns out->status. */
int solver_optimise(const soko_level *lvl, const char *lurd, uint32_t len, int metric,
                    const solver_options *opt, solver_result *out);

/* Frees what a result owns and clears it. Accepts a cleared result. */
void solver_result_free(solver_result *r);

/* A short name of a status: "solved", "unsolvable" or "unknown". */
const char *solver_status_name(int status);

#endif
