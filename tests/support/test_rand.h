/* The tests' pseudo-random numbers: xorshift32 from a state each test file
 * seeds itself, so that a failing run replays the same positions. */
#ifndef SOKO_TEST_RAND_H
#define SOKO_TEST_RAND_H

#include <stdint.h>

/* Advances *state (which must not be 0) and returns a number below n (n > 0).
 * This function can't fail. */
uint32_t test_rand(uint32_t *state, uint32_t n);

#endif
