/* Glicko-2 (glicko.h), as Glickman describes it in "Example of the
 * Glicko-2 system" (2012): steps 2 to 8 for a period of one match. */
#include "play/glicko.h"

#include <math.h>

/* Glicko-2's own scale: rating points per unit. */
#define SCALE 173.7178
/* When the volatility's iteration stops. */
#define EPSILON 0.000001
/* At most this many steps of it: it converges in a handful. */
#define STEPS_MAX 100

struct glicko glicko_new(void)
{
    return (struct glicko){GLICKO_RATING, GLICKO_DEVIATION_MAX, GLICKO_VOLATILITY};
}

static double g_of(double phi)
{
    return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (M_PI * M_PI));
}

static double clamp(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

double glicko_expected(const struct glicko *a, const struct glicko *b)
{
    double phi = sqrt(a->deviation * a->deviation + b->deviation * b->deviation) / SCALE;
    return 1.0 / (1.0 + exp(-g_of(phi) * (a->rating - b->rating) / SCALE));
}

void glicko_age(struct glicko *g, double periods)
{
    if (!(periods > 0))
        return;
    double phi = g->deviation / SCALE;
    double wide = sqrt(phi * phi + periods * g->volatility * g->volatility) * SCALE;
    g->deviation = clamp(wide, GLICKO_DEVIATION_MIN, GLICKO_DEVIATION_MAX);
}

/* Step 5: the new volatility, by the Illinois algorithm. */
static double new_volatility(double phi, double sigma, double v, double delta)
{
    double a = log(sigma * sigma), tau2 = GLICKO_TAU * GLICKO_TAU;
    double d2 = delta * delta, p2 = phi * phi;
#define F(x)                                                                                       \
    (exp(x) * (d2 - p2 - v - exp(x)) / (2.0 * (p2 + v + exp(x)) * (p2 + v + exp(x))) -             \
     ((x)-a) / tau2)
    double A = a, B;
    if (d2 > p2 + v) {
        B = log(d2 - p2 - v);
    } else {
        int k = 1;
        while (F(a - k * GLICKO_TAU) < 0 && k < STEPS_MAX)
            k++;
        B = a - k * GLICKO_TAU;
    }
    double fA = F(A), fB = F(B);
    for (int i = 0; i < STEPS_MAX && fabs(B - A) > EPSILON; i++) {
        double C = A + (A - B) * fA / (fB - fA), fC = F(C);
        if (fC * fB <= 0) {
            A = B;
            fA = fB;
        } else {
            fA /= 2;
        }
        B = C;
        fB = fC;
    }
#undef F
    return exp(A / 2);
}

/* Steps 2 to 8 for `self` against `other`, both as they stood before. */
static struct glicko updated(const struct glicko *self, const struct glicko *other, double score)
{
    double mu = (self->rating - GLICKO_RATING) / SCALE, phi = self->deviation / SCALE;
    double mu_j = (other->rating - GLICKO_RATING) / SCALE, phi_j = other->deviation / SCALE;
    double g = g_of(phi_j);
    double e = 1.0 / (1.0 + exp(-g * (mu - mu_j)));
    double v = 1.0 / (g * g * e * (1.0 - e));
    double delta = v * g * (score - e);
    double sigma = new_volatility(phi, self->volatility, v, delta);
    double phi_star = sqrt(phi * phi + sigma * sigma);
    double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    double mu_new = mu + phi_new * phi_new * g * (score - e);
    return (struct glicko){
        .rating = GLICKO_RATING + SCALE * mu_new,
        .deviation = clamp(SCALE * phi_new, GLICKO_DEVIATION_MIN, GLICKO_DEVIATION_MAX),
        .volatility = sigma,
    };
}

void glicko_match(struct glicko *a, struct glicko *b, double score)
{
    struct glicko a2 = updated(a, b, score);
    struct glicko b2 = updated(b, a, 1.0 - score);
    *a = a2;
    *b = b2;
}
