/* Glicko-2 ratings (glicko.c): Glickman's system, as lichess rates its
 * puzzles, for the matches between a player and a level that rated
 * attempts are (ratings.h, docs/ratings.md). Pure arithmetic: no storage,
 * no clock, no state. */
#ifndef SOKOD_GLICKO_H
#define SOKOD_GLICKO_H

/* A rating on the Glicko scale (1500 the middle, as Elo's), its
 * deviation (the uncertainty: one standard deviation, in rating points)
 * and its volatility (how erratic the rated one's strength is). */
struct glicko {
    double rating;
    double deviation;
    double volatility;
};

/* The system's constants (docs/ratings.md says why these). */
#define GLICKO_RATING 1500.0       /* a new player's rating */
#define GLICKO_DEVIATION_MAX 350.0 /* a new player's deviation, and the cap */
#define GLICKO_DEVIATION_MIN 45.0  /* the floor: a rating never stops moving */
#define GLICKO_VOLATILITY 0.06     /* every new rating's volatility */
#define GLICKO_TAU 0.5             /* how fast volatility may change */

/* A new player's rating: GLICKO_RATING, GLICKO_DEVIATION_MAX, GLICKO_VOLATILITY. */
struct glicko glicko_new(void);

/* The chance that a beats b: from 0 to 1, both deviations counted. */
double glicko_expected(const struct glicko *a, const struct glicko *b);

/* Widens g's deviation for `periods` rating periods without a match (one
 * period a day in sokod), up to GLICKO_DEVIATION_MAX. Does nothing for 0
 * periods or fewer. */
void glicko_age(struct glicko *g, double periods);

/* One rating period of one match between a and b, a scoring `score` (1 a
 * win, 0 a loss, 0.5 a draw): both are updated from their values before
 * the match, the deviations kept within [GLICKO_DEVIATION_MIN,
 * GLICKO_DEVIATION_MAX]. This function can't fail. */
void glicko_match(struct glicko *a, struct glicko *b, double score);

#endif
