/* The arithmetic of one rated attempt: glicko_match (both sides' Glicko-2
 * update, the volatility's iteration included) on seeded players and
 * levels, wins and losses mixed. Prints the mean time per attempt in
 * nanoseconds; never fails on a time. The database's part of an attempt
 * is bench_ratings.sh's. */
#include "play/glicko.h"

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define SIDES 256
#define ATTEMPTS 2000000

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(void)
{
    struct glicko player[SIDES], level[SIDES];
    for (int i = 0; i < SIDES; i++) {
        player[i] = glicko_new();
        level[i] = (struct glicko){900 + 5 * i, 250, GLICKO_VOLATILITY};
    }
    uint64_t rng = 0x853C49E6748FEA9Bull;
    double sum = 0;
    double t0 = now_s();
    for (int a = 0; a < ATTEMPTS; a++) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        int p = (int)((rng >> 33) % SIDES), l = (int)((rng >> 20) % SIDES);
        double score =
            glicko_expected(&player[p], &level[l]) > (double)((rng >> 8) % 1000) / 1000.0;
        glicko_match(&player[p], &level[l], score);
        sum += player[p].rating;
    }
    double t1 = now_s();
    printf("glicko_match: %.0f ns per attempt (%d attempts in %.3f s; checksum %.0f)\n",
           1e9 * (t1 - t0) / ATTEMPTS, ATTEMPTS, t1 - t0, sum / ATTEMPTS);
    return 0;
}
