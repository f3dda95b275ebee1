/* The live game cache: a hash table of games, least recently used first out. */
#include "game_cache.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define BUCKETS 1024
/* Games kept in memory when unused; each takes about 33 KiB and its
 * history. Every game played right now must fit, or each of its entries
 * pays for a replay of its whole log: 4,096 players at once is well past
 * what one sokod process serves. */
#define KEEP 4096

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct live_game *bucket[BUCKETS];
static struct live_game lru = {.prev = &lru, .next = &lru}; /* most recent after the head */
static unsigned count;
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

/* Drops unused games from the cold end until at most KEEP remain. */
static void evict(void)
{
    struct live_game *g = lru.prev;
    while (count > KEEP && g != &lru) {
        struct live_game *colder = g->prev;
        if (g->refs == 0) {
            lru_unlink(g);
            unchain(g);
            count--;
            destroy(g);
        }
        g = colder;
    }
}

int game_cache_acquire(int64_t id, struct live_game **out)
{
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
        pthread_mutex_init(&g->lock, NULL);
        g->chain = bucket[slot(id)];
        bucket[slot(id)] = g;
        lru_push_front(g);
        count++;
        if (count > KEEP && !filled) {
            filled = true;
            fprintf(stderr,
                    "sokod: the game cache is full (%d games); from now on the least recently "
                    "played leave memory\n",
                    KEEP);
        }
        evict();
    } else {
        lru_unlink(g);
        lru_push_front(g);
    }
    g->refs++;
    pthread_mutex_unlock(&cache_lock);

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
    pthread_mutex_unlock(&g->lock);
    pthread_mutex_lock(&cache_lock);
    g->refs--;
    if (count > KEEP)
        evict();
    pthread_mutex_unlock(&cache_lock);
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
    count = 0;
    pthread_mutex_unlock(&cache_lock);
}
