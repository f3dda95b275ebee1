/* The rating model (server/play/glicko.c, server/play/rating_rules.c):
 * single matches move ratings the expected way; on a seeded simulation of
 * players of known strength on levels of known difficulty, the ratings
 * order both as their true values do (Spearman's rank correlation above
 * 0.8), strong players beat hard levels more often, and a level's rating
 * settles. A failure prints the seed and the figures. */
#include "play/glicko.h"
#include "play/rating_rules.h"

#include "check.h"
#include "test_rand.h"

#include <math.h>
#include <stdlib.h>

#define PLAYERS 60
#define LEVELS 120
#define ATTEMPTS 40000
#define SEED 20260314u

static void a_win_raises_the_winner_and_lowers_the_loser(void)
{
    struct glicko p = glicko_new(), l = glicko_new();
    glicko_match(&p, &l, 1.0);
    note("after a win: player %.1f (%.1f), level %.1f (%.1f)", p.rating, p.deviation, l.rating,
         l.deviation);
    CHECK(p.rating > GLICKO_RATING);
    CHECK(l.rating < GLICKO_RATING);
    CHECK(p.deviation < GLICKO_DEVIATION_MAX);
    CHECK(l.deviation < GLICKO_DEVIATION_MAX);
    struct glicko q = glicko_new(), m = glicko_new();
    glicko_match(&q, &m, 0.0);
    CHECK(q.rating < GLICKO_RATING);
    CHECK(m.rating > GLICKO_RATING);
    /* Glickman's paper: the same win moves a sure rating less. */
    struct glicko sure = {1500, 60, GLICKO_VOLATILITY}, other = glicko_new();
    glicko_match(&sure, &other, 1.0);
    CHECK_MSG(sure.rating - GLICKO_RATING < p.rating - GLICKO_RATING,
              "a rating of deviation 60 moved %.1f, one of 350 moved %.1f",
              sure.rating - GLICKO_RATING, p.rating - GLICKO_RATING);
}

static void beating_a_harder_level_is_worth_more(void)
{
    struct glicko a = {1500, 100, GLICKO_VOLATILITY}, b = a;
    struct glicko hard = {1900, 100, GLICKO_VOLATILITY}, easy = {1100, 100, GLICKO_VOLATILITY};
    glicko_match(&a, &hard, 1.0);
    glicko_match(&b, &easy, 1.0);
    CHECK_MSG(a.rating - 1500 > b.rating - 1500, "beating 1900 gave %.1f, beating 1100 gave %.1f",
              a.rating - 1500, b.rating - 1500);
    CHECK(glicko_expected(&(struct glicko){1900, 50, 0.06}, &(struct glicko){1500, 50, 0.06}) >
          0.8);
}

static void idle_periods_widen_the_deviation_up_to_the_cap(void)
{
    struct glicko g = {1500, 50, GLICKO_VOLATILITY};
    glicko_age(&g, 0);
    CHECK(g.deviation == 50);
    glicko_age(&g, 30);
    note("after 30 idle periods: %.1f", g.deviation);
    CHECK(g.deviation > 50);
    glicko_age(&g, 1e9);
    CHECK(g.deviation == GLICKO_DEVIATION_MAX);
}

/* Spearman's rank correlation of x and y (n values, no ties expected). */
static double spearman(const double *x, const double *y, int n)
{
    double *rx = calloc((size_t)n, sizeof *rx), *ry = calloc((size_t)n, sizeof *ry);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            rx[i] += x[j] < x[i];
            ry[i] += y[j] < y[i];
        }
    double d2 = 0;
    for (int i = 0; i < n; i++)
        d2 += (rx[i] - ry[i]) * (rx[i] - ry[i]);
    free(rx);
    free(ry);
    return 1.0 - 6.0 * d2 / ((double)n * ((double)n * n - 1));
}

static double uniform(uint32_t *s)
{
    return (test_rand(s, 1u << 30) + 0.5) / (double)(1u << 30);
}

static void simulated_players_and_levels_are_ordered_by_strength(void)
{
    uint32_t seed = SEED;
    double strength[PLAYERS], difficulty[LEVELS];
    struct glicko player[PLAYERS], level[LEVELS];
    /* True values spread from 900 to 2100, drawn in a shuffled order. */
    for (int i = 0; i < PLAYERS; i++) {
        strength[i] = 900 + 1200.0 * uniform(&seed);
        player[i] = glicko_new();
    }
    for (int i = 0; i < LEVELS; i++) {
        difficulty[i] = 900 + 1200.0 * uniform(&seed);
        level[i] = glicko_new();
    }
    /* The level followed for convergence: the one nearest the middle. */
    int watched = 0;
    for (int i = 1; i < LEVELS; i++)
        if (fabs(difficulty[i] - 1500) < fabs(difficulty[watched] - 1500))
            watched = i;
    double history[ATTEMPTS];
    int nhistory = 0;
    long strong_wins = 0, strong_games = 0, weak_wins = 0, weak_games = 0;
    for (int a = 0; a < ATTEMPTS; a++) {
        int p = (int)test_rand(&seed, PLAYERS), l = (int)test_rand(&seed, LEVELS);
        /* The player solves in time with Elo's chance of beating the level. */
        double chance = 1.0 / (1.0 + pow(10.0, (difficulty[l] - strength[p]) / 400.0));
        double score = uniform(&seed) < chance ? 1.0 : 0.0;
        if (difficulty[l] > 1700) {
            if (strength[p] > 1700) {
                strong_games++;
                strong_wins += score > 0;
            } else if (strength[p] < 1300) {
                weak_games++;
                weak_wins += score > 0;
            }
        }
        glicko_match(&player[p], &level[l], score);
        if (l == watched)
            history[nhistory++] = level[l].rating;
    }
    double pr[PLAYERS], lr[LEVELS];
    for (int i = 0; i < PLAYERS; i++)
        pr[i] = player[i].rating;
    for (int i = 0; i < LEVELS; i++)
        lr[i] = level[i].rating;
    double rho_players = spearman(strength, pr, PLAYERS);
    double rho_levels = spearman(difficulty, lr, LEVELS);
    note("seed %u, %d players and %d levels from 900 to 2100, %d attempts", SEED, PLAYERS, LEVELS,
         ATTEMPTS);
    note("Spearman: players %.3f, levels %.3f", rho_players, rho_levels);
    CHECK_MSG(rho_players > 0.8, "players' ratings rank correlation %.3f, not above 0.8",
              rho_players);
    CHECK_MSG(rho_levels > 0.8, "levels' ratings rank correlation %.3f, not above 0.8", rho_levels);
    /* Strong players beat hard levels more often than weak ones. */
    double strong = (double)strong_wins / (double)strong_games;
    double weak = (double)weak_wins / (double)weak_games;
    note("hard levels beaten: %.2f by strong players, %.2f by weak ones", strong, weak);
    CHECK(strong > weak);
    /* The watched level settles: its deviation fell from the start's,
     * and over its last quarter of attempts its rating stays within a
     * band of a few deviations at the floor's width. */
    CHECK_MSG(nhistory > 100, "the watched level had %d attempts", nhistory);
    double lo = 1e9, hi = -1e9, mean = 0;
    for (int i = nhistory * 3 / 4; i < nhistory; i++) {
        lo = history[i] < lo ? history[i] : lo;
        hi = history[i] > hi ? history[i] : hi;
        mean += history[i];
    }
    mean /= nhistory - nhistory * 3 / 4;
    double early_lo = 1e9, early_hi = -1e9;
    for (int i = 0; i < nhistory / 4; i++) {
        early_lo = history[i] < early_lo ? history[i] : early_lo;
        early_hi = history[i] > early_hi ? history[i] : early_hi;
    }
    note("watched level: true %.0f, %d attempts, last quarter %.0f to %.0f (mean %.0f), first "
         "quarter %.0f to %.0f, deviation %.1f",
         difficulty[watched], nhistory, lo, hi, mean, early_lo, early_hi, level[watched].deviation);
    CHECK(level[watched].deviation < 100);
    CHECK_MSG(hi - lo < 4 * GLICKO_DEVIATION_MIN + 100,
              "the watched level still moved %.0f points in its last quarter", hi - lo);
    CHECK_MSG(hi - lo < early_hi - early_lo, "it moved %.0f late, %.0f early", hi - lo,
              early_hi - early_lo);
    /* Ratings are relative: the watched level is where the others of its
     * difficulty are, within the band the levels spread over by rank. */
    double offset = 0;
    for (int i = 0; i < LEVELS; i++)
        offset += lr[i] - difficulty[i];
    offset /= LEVELS;
    CHECK_MSG(fabs(mean - offset - difficulty[watched]) < 200,
              "watched level settled at %.0f, true %.0f, levels' offset %.0f", mean,
              difficulty[watched], offset);
}

static void priors_follow_the_generator_score_and_the_solver(void)
{
    const char *prior;
    uint32_t effort;
    struct rating_level_facts gen_easy = {3, "Seed 1, cave shape, difficulty score 10.", "none", 0};
    struct rating_level_facts gen_hard = {6, "Seed 2, cave shape, difficulty score 300.", "none",
                                          0};
    struct glicko e = rating_prior(&gen_easy, &prior, &effort);
    CHECK_STR(prior, "generator");
    CHECK_INT(effort, 10);
    struct glicko h = rating_prior(&gen_hard, &prior, &effort);
    CHECK(h.rating > e.rating);
    struct rating_level_facts short_solve = {4, "", "solvable", 20};
    struct rating_level_facts long_solve = {12, "", "solvable", 250};
    struct rating_level_facts unsettled = {12, "", "unknown", 0};
    struct glicko s = rating_prior(&short_solve, &prior, &effort);
    CHECK_STR(prior, "solver");
    struct glicko l = rating_prior(&long_solve, &prior, &effort);
    struct glicko u = rating_prior(&unsettled, &prior, &effort);
    note("priors: generated %.0f and %.0f, solved in 20 and 250 pushes %.0f and %.0f, "
         "unsettled %.0f",
         e.rating, h.rating, s.rating, l.rating, u.rating);
    CHECK(s.rating < l.rating);
    CHECK(u.rating > s.rating);
    CHECK(u.deviation >= l.deviation);
    struct rating_level_facts unknown = {2, "", "none", 0};
    rating_prior(&unknown, &prior, &effort);
    CHECK_STR(prior, "none");
}

static void a_slow_or_helped_solve_is_the_levels_win(void)
{
    CHECK(rating_score(true, false, 100, 60) == 1.0);
    CHECK(rating_score(true, false, 60 * RATING_TIME_FACTOR + 1, 60) == 0.0);
    CHECK(rating_score(true, true, 10, 60) == 0.0);
    CHECK(rating_score(false, false, 10, 60) == 0.0);
    /* The typical time: a guess until enough solves, then their
     * geometric mean. */
    double guess = rating_typical_seconds(2, 2 * log(1000.0), 50);
    CHECK(guess != 1000.0);
    double mean = rating_typical_seconds(3, log(10.0) + log(100.0) + log(1000.0), 50);
    CHECK_MSG(fabs(mean - 100.0) < 1e-6, "typical of 10, 100, 1000 s is %.3f", mean);
}

static void labels_rise_with_the_rating(void)
{
    CHECK_STR(rating_label(1000), "beginner");
    CHECK_STR(rating_label(1500), "medium");
    CHECK_STR(rating_label(2300), "expert");
}

int main(void)
{
    RUN(a_win_raises_the_winner_and_lowers_the_loser);
    RUN(beating_a_harder_level_is_worth_more);
    RUN(idle_periods_widen_the_deviation_up_to_the_cap);
    RUN(simulated_players_and_levels_are_ordered_by_strength);
    RUN(priors_follow_the_generator_score_and_the_solver);
    RUN(a_slow_or_helped_solve_is_the_levels_win);
    RUN(labels_rise_with_the_rating);
    return check_finish();
}
