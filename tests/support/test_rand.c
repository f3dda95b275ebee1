#include "test_rand.h"

uint32_t test_rand(uint32_t *state, uint32_t n)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x % n;
}
