/* The rules of rated attempts and of levels' priors (rating_rules.h). */
#include "play/rating_rules.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Rating points per point of effort (a generator's score, or pushes and
 * boxes), from RATING_EASIEST up, and the cap. */
#define RATING_EASIEST 1000.0
#define RATING_PER_EFFORT 4.0
#define RATING_HARDEST 2400.0
/* A level the solver could not settle in its time: hard. */
#define RATING_UNSETTLED 2200.0
/* A prior's deviation: how much it is trusted. */
#define DEVIATION_GENERATOR 250.0
#define DEVIATION_SOLVER 250.0
#define DEVIATION_UNSETTLED 300.0
#define DEVIATION_NONE 300.0

/* The score a generated level's comment carries, or -1. */
static long generator_score(const char *comment)
{
    static const char mark[] = "difficulty score ";
    const char *at = comment != NULL ? strstr(comment, mark) : NULL;
    if (at == NULL)
        return -1;
    at += sizeof mark - 1;
    if (*at < '0' || *at > '9')
        return -1;
    char *end;
    long v = strtol(at, &end, 10);
    return v >= 0 && v < 100000 ? v : -1;
}

static struct glicko from_effort(uint32_t effort, double deviation)
{
    double r = RATING_EASIEST + RATING_PER_EFFORT * effort;
    return (struct glicko){r < RATING_HARDEST ? r : RATING_HARDEST, deviation, GLICKO_VOLATILITY};
}

struct glicko rating_prior(const struct rating_level_facts *f, const char **prior, uint32_t *effort)
{
    long score = generator_score(f->comment);
    if (score >= 0) {
        *prior = "generator";
        *effort = (uint32_t)score;
        return from_effort(*effort, DEVIATION_GENERATOR);
    }
    const char *status = f->solver_status != NULL ? f->solver_status : "none";
    if (strcmp(status, "solvable") == 0) {
        *prior = "solver";
        *effort = f->solver_pushes + 4 * f->boxes;
        return from_effort(*effort, DEVIATION_SOLVER);
    }
    if (strcmp(status, "unknown") == 0 || strcmp(status, "unsolvable") == 0) {
        *prior = "solver";
        *effort = (uint32_t)((RATING_UNSETTLED - RATING_EASIEST) / RATING_PER_EFFORT);
        return (struct glicko){RATING_UNSETTLED, DEVIATION_UNSETTLED, GLICKO_VOLATILITY};
    }
    *prior = "none";
    *effort = 12 * f->boxes;
    return from_effort(*effort, DEVIATION_NONE);
}

double rating_typical_seconds(uint32_t solves, double log_seconds, uint32_t effort)
{
    if (solves >= RATING_TYPICAL_SOLVES)
        return exp(log_seconds / solves);
    return 20.0 + 2.0 * effort;
}

double rating_score(bool solved, bool hinted, double seconds, double typical)
{
    return solved && !hinted && seconds <= RATING_TIME_FACTOR * typical ? 1.0 : 0.0;
}

const char *rating_label(double rating)
{
    return rating < 1150   ? "beginner"
           : rating < 1400 ? "easy"
           : rating < 1650 ? "medium"
           : rating < 1900 ? "hard"
                           : "expert";
}
