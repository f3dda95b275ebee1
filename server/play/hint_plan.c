/* The rest of the solution each game's last hint came from: a small table
 * of slots by game id, behind one lock (hints are rare and slow anyway). */
#include "play/hint_plan.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Games whose plans are kept at once; another game in the same slot
 * replaces one, which then only costs its next hint a search. */
#define PLAN_SLOTS 1024

struct plan {
    int64_t game_id; /* 0: empty */
    uint64_t hash;
    char *rest;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct plan slots[PLAN_SLOTS];

static struct plan *slot_of(int64_t game_id)
{
    return &slots[(uint64_t)game_id % PLAN_SLOTS];
}

void hint_plan_put(int64_t game_id, uint64_t hash, const char *rest)
{
    char *copy = rest != NULL && rest[0] != '\0' ? strdup(rest) : NULL;
    pthread_mutex_lock(&lock);
    struct plan *p = slot_of(game_id);
    char *old = p->rest;
    *p = copy != NULL ? (struct plan){game_id, hash, copy} : (struct plan){0, 0, NULL};
    pthread_mutex_unlock(&lock);
    free(old);
}

char *hint_plan_take(int64_t game_id, uint64_t hash)
{
    char *rest = NULL;
    pthread_mutex_lock(&lock);
    struct plan *p = slot_of(game_id);
    if (p->game_id == game_id) {
        if (p->hash == hash)
            rest = p->rest;
        else
            free(p->rest);
        *p = (struct plan){0, 0, NULL};
    }
    pthread_mutex_unlock(&lock);
    return rest;
}

void hint_plan_clear(void)
{
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < PLAN_SLOTS; i++) {
        free(slots[i].rest);
        slots[i] = (struct plan){0, 0, NULL};
    }
    pthread_mutex_unlock(&lock);
}
