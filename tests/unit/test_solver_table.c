/* The transposition table finds every position it stored, under its own
 * number, and no other: through chains of nodes sharing a bucket, hashes
 * that differ only in the bits a link keeps as its tag, hashes that are
 * equal for other players or box sets, the buckets' growth, and a budget
 * that runs out. */
#include "check.h"
#include "internal.h"
#include "test_rand.h"

#include <stdlib.h>
#include <string.h>

#define KEY_BYTES 5

static uint32_t rng = 0xBB67AE85u;

static uint64_t random_hash(void)
{
    uint64_t hi = test_rand(&rng, 1u << 30) ^ ((uint64_t)test_rand(&rng, 4) << 30);
    uint64_t lo = test_rand(&rng, 1u << 30) ^ ((uint64_t)test_rand(&rng, 4) << 30);
    return hi << 32 | lo;
}

/* The stored positions: hash, player and key of node i. */
typedef struct stored {
    uint32_t n, cap;
    uint64_t *hash;
    uint16_t *player;
    uint8_t *key;
} stored;

static void key_of(uint32_t k, uint8_t *key)
{
    for (int b = 0; b < KEY_BYTES; b++)
        key[b] = (uint8_t)(k >> (8 * (b % 4)) ^ b);
}

/* Adds a position and checks it gets the next number. */
static bool add(solver_table *t, stored *s, uint64_t hash, uint16_t player, uint32_t keyno)
{
    uint8_t key[KEY_BYTES];
    key_of(keyno, key);
    uint32_t i = solver_table_add(t, hash, player, key);
    if (i == SOLVER_NIL)
        return false;
    CHECK_MSG(i == s->n, "node stored as %u, expected %u", i, s->n);
    if (s->n == s->cap)
        return false;
    s->hash[s->n] = hash;
    s->player[s->n] = player;
    memcpy(&s->key[(size_t)s->n * KEY_BYTES], key, KEY_BYTES);
    s->n++;
    return true;
}

/* Every stored position is found under its number; the same hash with
 * another player or box set is not found. */
static void check_all_found(const solver_table *t, const stored *s, const char *what)
{
    for (uint32_t i = 0; i < s->n && check_failures_in_test == 0; i++) {
        const uint8_t *key = &s->key[(size_t)i * KEY_BYTES];
        uint32_t got = solver_table_find(t, s->hash[i], s->player[i], key);
        CHECK_MSG(got == i, "%s: node %u of %u (hash %016llx) found as %u", what, i, s->n,
                  (unsigned long long)s->hash[i], got);
        got = solver_table_find(t, s->hash[i], (uint16_t)(s->player[i] + 1000), key);
        CHECK_MSG(got == SOLVER_NIL, "%s: node %u found for another player as %u", what, i, got);
        uint8_t other[KEY_BYTES];
        memcpy(other, key, KEY_BYTES);
        other[KEY_BYTES - 1] ^= 0x80;
        got = solver_table_find(t, s->hash[i], s->player[i], other);
        CHECK_MSG(got == SOLVER_NIL, "%s: node %u found for another box set as %u", what, i, got);
    }
}

static void stored_init(stored *s, uint32_t cap)
{
    s->n = 0;
    s->cap = cap;
    s->hash = malloc(cap * sizeof *s->hash);
    s->player = malloc(cap * sizeof *s->player);
    s->key = malloc((size_t)cap * KEY_BYTES);
    CHECK(s->hash != NULL && s->player != NULL && s->key != NULL);
}

static void stored_free(stored *s)
{
    free(s->hash);
    free(s->player);
    free(s->key);
}

/* Nodes in long chains: many share the low bits that pick a bucket, with
 * high halves that differ in every bit in turn, and some share the whole
 * hash with another player or box set. Checked before and after the
 * buckets grow. */
static void positions_sharing_buckets_are_told_apart(void)
{
    solver_table t;
    CHECK(solver_table_init(&t, KEY_BYTES, (uint64_t)64 << 20) == 0);
    stored s;
    stored_init(&s, 1u << 18);
    uint32_t keyno = 0;
    for (uint32_t group = 0; group < 64; group++) {
        uint64_t lo = random_hash() & 0xFFFFFFFFu;
        for (int bit = 0; bit < 32; bit++) {
            uint64_t hash = ((uint64_t)1 << (32 + bit)) | lo;
            CHECK(add(&t, &s, hash, (uint16_t)group, keyno++));
            CHECK(add(&t, &s, hash, (uint16_t)(group + 1), keyno++));
            CHECK(add(&t, &s, hash, (uint16_t)group, keyno++));
        }
    }
    check_all_found(&t, &s, "chains");
    uint32_t chained = s.n;
    while (s.n < 200000 && check_failures_in_test == 0)
        CHECK(add(&t, &s, random_hash(), (uint16_t)test_rand(&rng, 500), keyno++));
    CHECK_MSG(t.nbuckets >= s.n, "%u buckets for %u nodes", t.nbuckets, s.n);
    check_all_found(&t, &s, "grown");
    uint32_t missing = 0;
    for (uint32_t k = 0; k < 100000; k++) {
        uint8_t key[KEY_BYTES];
        key_of(keyno + k, key);
        missing += solver_table_find(&t, random_hash(), 7, key) == SOLVER_NIL;
    }
    CHECK_MSG(missing == 100000, "%u of 100000 absent positions found", 100000 - missing);
    CHECK(chained < s.n);
    stored_free(&s);
    solver_table_free(&t);
}

/* A budget for some tens of thousands of nodes: the table stores until it
 * runs out, refuses the next one, and still finds all it stored. */
static void a_full_table_finds_all_it_stored(void)
{
    uint64_t budgets[] = {(uint64_t)1 << 20, (uint64_t)3 << 20, ((uint64_t)5 << 20) + 12345};
    for (uint32_t k = 0; k < 3; k++) {
        solver_table t;
        CHECK(solver_table_init(&t, KEY_BYTES, budgets[k]) == 0);
        stored s;
        stored_init(&s, 1u << 20);
        uint32_t keyno = 0;
        while (add(&t, &s, random_hash(), (uint16_t)test_rand(&rng, 500), keyno++))
            ;
        uint64_t node = sizeof(solver_node) + KEY_BYTES;
        CHECK_MSG(s.n + 2 * 1024 >= budgets[k] / node * 7 / 8 && s.n < s.cap,
                  "budget %llu: %u nodes stored", (unsigned long long)budgets[k], s.n);
        CHECK_MSG(t.bytes <= budgets[k], "budget %llu: %llu bytes held",
                  (unsigned long long)budgets[k], (unsigned long long)t.bytes);
        check_all_found(&t, &s, "full");
        stored_free(&s);
        solver_table_free(&t);
    }
}

int main(void)
{
    RUN(positions_sharing_buckets_are_told_apart);
    RUN(a_full_table_finds_all_it_stored);
    return check_finish();
}
