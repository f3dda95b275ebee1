/* What a rated attempt is worth, and where a level's rating starts
 * (rating_rules.c): the rules of docs/ratings.md that are not Glicko-2's
 * own. Pure arithmetic, as glicko.h. */
#ifndef SOKOD_RATING_RULES_H
#define SOKOD_RATING_RULES_H

#include "play/glicko.h"

#include <stdbool.h>
#include <stdint.h>

/* A solve within this many times the level's typical time is the
 * player's win; a slower one, or a game given up, is the level's. */
#define RATING_TIME_FACTOR 3.0
/* Solves a level needs before its own typical time replaces its prior's. */
#define RATING_TYPICAL_SOLVES 3
/* A game left unsolved counts as given up once it has this many log
 * entries (fewer: a look, not an attempt). */
#define RATING_GIVEN_UP_ENTRIES 10

/* What sokod knows of a level before anyone played it. */
struct rating_level_facts {
    uint32_t boxes;
    const char *comment;       /* a generated level's says "difficulty score N." */
    const char *solver_status; /* "none", "solvable", "unsolvable" or "unknown" */
    uint32_t solver_pushes;    /* of the solver's solution, when solvable */
};

/* Where a level's rating starts: from its generator's score when its
 * comment carries one (*prior "generator"), else from the upload check's
 * solver (*prior "solver": its solution's pushes, or a hard level's
 * rating when the solver ran out of time), else from its boxes (*prior
 * "none"). Sets *effort to the effort the rating was drawn from. */
struct glicko rating_prior(const struct rating_level_facts *f, const char **prior,
                           uint32_t *effort);

/* A level's typical solving time in seconds: the geometric mean of its
 * rated solves' times once it has RATING_TYPICAL_SOLVES of them
 * (log_seconds the sum of their natural logarithms), else a guess from
 * the effort of its prior. */
double rating_typical_seconds(uint32_t solves, double log_seconds, uint32_t effort);

/* The player's score of an attempt: 1 when it was solved without hints
 * within RATING_TIME_FACTOR times `typical` seconds, else 0. */
double rating_score(bool solved, bool hinted, double seconds, double typical);

/* A plain word for a rating: "beginner", "easy", "medium", "hard" or
 * "expert". */
const char *rating_label(double rating);

#endif
