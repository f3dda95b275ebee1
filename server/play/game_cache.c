/* The live game cache: a hash table of games, least recently used first out. */
#include "play/game_cache.h"

#include "base/heap.h"
#include "base/metrics.h"
#include "storage/storage_codes.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define BUCKETS 1024

/* The cache is bounded in bytes, not in games: a game costs about 33 KiB
 * and its history, which play_bytes counts and game_play keeps compact
 * (at most about 1 MiB at the longest history). Every game played right
 * now should fit, or each of its entries pays for a replay of its log:
 * the default holds some 3,800 ordinary games, or over 100 at the cap. */
static size_t limit = (size_t)GAME_CACHE_DEFAULT_MB << 20;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct live_game *bucket[BUCKETS];
static struct live_game lru = {.prev = &lru, .next = &lru}; /* most recent after the head */
static size_t total;                                        /* the sum of the games' `bytes` */
static bool filled; /* said once: memory stops growing with new games here */

static unsigned slot(int64_t id)
{
    return (unsigned)((uint64_t)id * 0x9E3779B97F4A7C15ull >> 54) % BUCKETS;
}

static void lru_unlink(struct live_game *g)
{
    g->prev->next = g->next;
    g->next->prev = g->prev;
}

static void lru_push_front(struct live_game *g)
{
    g->next = lru.next;
    g->prev = &lru;
    lru.next->prev = g;
    lru.next = g;
}

static void unchain(struct live_game *g)
{
    struct live_game **p = &bucket[slot(g->id)];
    while (*p != g)
        p = &(*p)->chain;
    *p = g->chain;
}

static void destroy(struct live_game *g)
{
    pthread_mutex_destroy(&g->lock);
    play_free(g);
    free(g);
}

/* Drops unused games from the cold end until the cache fits its bound.
 * Returns the bytes freed, for heap_freed once the cache is unlocked: the
 * allocator keeps what a game held, and what was freed between its blocks,
 * until it is told to give it back. */
static size_t evict(void)
{
    size_t freed = 0;
    if (total > limit && !filled) {
        filled = true;
        fprintf(stderr,
                "sokod: the game cache is full (%zu MiB); from now on the least recently "
                "played leave memory\n",
                limit >> 20);
    }
    struct live_game *g = lru.prev;
    while (total > limit && g != &lru) {
        struct live_game *colder = g->prev;
        if (g->refs == 0) {
            lru_unlink(g);
            unchain(g);
            total -= g->bytes;
            freed += g->bytes;
            destroy(g);
        }
        g = colder;
    }
    metrics_game_cache_bytes(total);
    return freed;
}

void game_cache_setup(size_t bytes)
{
    pthread_mutex_lock(&cache_lock);
    limit = bytes;
    pthread_mutex_unlock(&cache_lock);
}

int64_t game_cache_seq(int64_t id)
{
    int64_t seq = -1;
    pthread_mutex_lock(&cache_lock);
    struct live_game *g = bucket[slot(id)];
    while (g != NULL && g->id != id)
        g = g->chain;
    if (g != NULL && pthread_mutex_trylock(&g->lock) == 0) {
        if (g->valid)
            seq = g->seq;
        pthread_mutex_unlock(&g->lock);
    }
    pthread_mutex_unlock(&cache_lock);
    return seq;
}

int game_cache_acquire(int64_t id, struct live_game **out)
{
    size_t freed = 0;
    pthread_mutex_lock(&cache_lock);
    struct live_game *g = bucket[slot(id)];
    while (g != NULL && g->id != id)
        g = g->chain;
    if (g == NULL) {
        g = calloc(1, sizeof *g);
        if (g == NULL) {
            pthread_mutex_unlock(&cache_lock);
            return STORAGE_ERROR;
        }
        g->id = id;
        g->bytes = sizeof *g;
        pthread_mutex_init(&g->lock, NULL);
        g->chain = bucket[slot(id)];
        bucket[slot(id)] = g;
        lru_push_front(g);
        total += g->bytes;
        /* Held first, so that making room never frees the game itself. */
        g->refs++;
        freed = evict();
    } else {
        lru_unlink(g);
        lru_push_front(g);
        g->refs++;
    }
    pthread_mutex_unlock(&cache_lock);
    heap_freed(freed);

    pthread_mutex_lock(&g->lock);
    if (!g->valid) {
        int status = play_rebuild(g);
        if (status != STORAGE_OK) {
            game_cache_release(g);
            return status;
        }
    }
    *out = g;
    return STORAGE_OK;
}

void game_cache_release(struct live_game *g)
{
    /* Counted under the game's lock: its history may have grown or shrunk. */
    size_t bytes = sizeof *g + play_bytes(g);
    pthread_mutex_unlock(&g->lock);
    pthread_mutex_lock(&cache_lock);
    total = total - g->bytes + bytes;
    g->bytes = bytes;
    g->refs--;
    size_t freed = evict();
    pthread_mutex_unlock(&cache_lock);
    heap_freed(freed);
}

void game_cache_clear(void)
{
    pthread_mutex_lock(&cache_lock);
    struct live_game *g = lru.next;
    while (g != &lru) {
        struct live_game *next = g->next;
        destroy(g);
        g = next;
    }
    lru.next = lru.prev = &lru;
    for (unsigned i = 0; i < BUCKETS; i++)
        bucket[i] = NULL;
    total = 0;
    pthread_mutex_unlock(&cache_lock);
}
