/* The transposition table: nodes and their packed box sets in chunks that
 * never move, chained in hash buckets that double as the table fills, all
 * within a memory budget.
 *
 * A link to a node (a bucket's head, a node's next) holds, beside the
 * node's number plus one, a tag of its hash and whether the chain goes on
 * after it. A lookup that misses (most do: the other end's search looks
 * every position it makes up in the forward searches' tables) then skips
 * the last node of a chain, often the only one, without reading it: each
 * node read is a cache miss in a big table. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_BITS 16
#define CHUNK (1u << CHUNK_BITS)
/* A budget too small for a whole chunk still gets one this big at least. */
#define SMALL_CHUNK 1024u

/* A link's low index_bits bits hold the node's number plus one (0 is no
 * link), the next bit is set when the chain goes on after the node, and
 * the bits above are the same bits of the high half of its hash. */
#define MAX_INDEX_BITS 31u

static uint32_t link_tag(const solver_table *t, uint64_t hash)
{
    return (uint32_t)(hash >> 32) & t->tag_mask;
}

/* The link to node i (with this hash) put before the chain `rest`. */
static uint32_t make_link(const solver_table *t, uint64_t hash, uint32_t i, uint32_t rest)
{
    uint32_t more = rest != 0 ? 1u << t->index_bits : 0;
    return link_tag(t, hash) | more | (i + 1);
}

/* Sizes the links for the most nodes the budget holds. */
static void size_links(solver_table *t)
{
    uint64_t most = t->budget / sizeof(solver_node) + 1;
    uint32_t bits = 1;
    while (bits < MAX_INDEX_BITS && (most >> bits) != 0)
        bits++;
    t->index_bits = bits;
    t->tag_mask = bits + 1 < 32 ? ~((2u << bits) - 1) : 0;
}

int solver_table_init(solver_table *t, uint32_t key_bytes, uint64_t budget)
{
    memset(t, 0, sizeof *t);
    t->key_bytes = key_bytes;
    t->budget = budget;
    size_links(t);
    t->nbuckets = 1u << 12;
    t->bucket = malloc(t->nbuckets * sizeof *t->bucket);
    if (t->bucket == NULL)
        return -1;
    memset(t->bucket, 0, t->nbuckets * sizeof *t->bucket);
    t->bytes = t->nbuckets * sizeof *t->bucket;
    return 0;
}

void solver_table_free(solver_table *t)
{
    for (uint32_t i = 0; i < t->nchunks; i++) {
        free(t->nodes[i]);
        free(t->keys[i]);
    }
    free(t->nodes);
    free(t->keys);
    free(t->bucket);
    memset(t, 0, sizeof *t);
}

solver_node *solver_table_node(const solver_table *t, uint32_t i)
{
    return &t->nodes[i >> CHUNK_BITS][i & (CHUNK - 1)];
}

const uint8_t *solver_table_key(const solver_table *t, uint32_t i)
{
    return &t->keys[i >> CHUNK_BITS][(size_t)(i & (CHUNK - 1)) * t->key_bytes];
}

uint32_t solver_table_find(const solver_table *t, uint64_t hash, uint16_t player,
                           const uint8_t *key)
{
    uint32_t index_mask = (1u << t->index_bits) - 1, more = 1u << t->index_bits;
    uint32_t tag = link_tag(t, hash);
    uint32_t link = t->bucket[hash & (t->nbuckets - 1)];
    while (link != 0) {
        bool same = (link & t->tag_mask) == tag;
        if (!same && (link & more) == 0)
            return SOLVER_NIL;
        uint32_t i = (link & index_mask) - 1;
        const solver_node *n = solver_table_node(t, i);
        if (same && n->hash == hash && n->player == player &&
            memcmp(solver_table_key(t, i), key, t->key_bytes) == 0)
            return i;
        link = n->next;
    }
    return SOLVER_NIL;
}

/* Doubles the buckets when chains grow past one node on average. */
static int grow_buckets(solver_table *t)
{
    uint64_t more = (uint64_t)t->nbuckets * sizeof *t->bucket;
    if (t->nbuckets >= (1u << 31) || t->bytes + 2 * more > t->budget)
        return 0; /* longer chains are slower but still correct */
    uint32_t n = t->nbuckets * 2;
    uint32_t *bucket = malloc((size_t)n * sizeof *bucket);
    if (bucket == NULL)
        return 0;
    memset(bucket, 0, (size_t)n * sizeof *bucket);
    for (uint32_t i = 0; i < t->count; i++) {
        solver_node *node = solver_table_node(t, i);
        uint32_t b = (uint32_t)(node->hash & (n - 1));
        node->next = bucket[b];
        bucket[b] = make_link(t, node->hash, i, node->next);
    }
    free(t->bucket);
    t->bucket = bucket;
    t->nbuckets = n;
    t->bytes += more;
    return 0;
}

/* Adds a chunk of CHUNK nodes, or, when the budget holds fewer (but
 * SMALL_CHUNK at least), a smaller one that is the last: the nodes of a
 * chunk never move, and numbers map to chunks by CHUNK_BITS. Returns 0, or
 * -1 when the budget or malloc runs out. */
static int add_chunk(solver_table *t)
{
    if (t->slots & (CHUNK - 1))
        return -1; /* a smaller chunk ended the table */
    uint64_t node = sizeof(solver_node) + t->key_bytes;
    uint64_t room = t->budget > t->bytes ? (t->budget - t->bytes) / node : 0;
    uint32_t count = room < CHUNK ? (uint32_t)room : CHUNK;
    if (count < SMALL_CHUNK)
        return -1;
    uint64_t size = count * node;
    if (t->nchunks == t->chunk_cap) {
        uint32_t cap = t->chunk_cap ? t->chunk_cap * 2 : 16;
        solver_node **nodes = realloc(t->nodes, cap * sizeof *nodes);
        if (nodes == NULL)
            return -1;
        t->nodes = nodes;
        uint8_t **keys = realloc(t->keys, cap * sizeof *keys);
        if (keys == NULL)
            return -1;
        t->keys = keys;
        t->chunk_cap = cap;
    }
    solver_node *n = malloc((size_t)count * sizeof *n);
    uint8_t *k = malloc((size_t)count * t->key_bytes);
    if (n == NULL || k == NULL) {
        free(n);
        free(k);
        return -1;
    }
    t->nodes[t->nchunks] = n;
    t->keys[t->nchunks] = k;
    t->nchunks++;
    t->slots += count;
    t->bytes += size;
    return 0;
}

uint32_t solver_table_add(solver_table *t, uint64_t hash, uint16_t player, const uint8_t *key)
{
    if (t->count >= (1u << t->index_bits) - 1)
        return SOLVER_NIL; /* more than the budget the links were sized for */
    if (t->count >= t->slots && add_chunk(t) < 0)
        return SOLVER_NIL;
    if (t->count >= t->nbuckets)
        grow_buckets(t);
    uint32_t i = t->count++;
    solver_node *n = solver_table_node(t, i);
    memset(n, 0, sizeof *n);
    n->hash = hash;
    n->player = player;
    memcpy((uint8_t *)solver_table_key(t, i), key, t->key_bytes);
    uint32_t b = (uint32_t)(hash & (t->nbuckets - 1));
    n->next = t->bucket[b];
    t->bucket[b] = make_link(t, hash, i, n->next);
    return i;
}
