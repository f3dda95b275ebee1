/* Counts per key in a chained hash table under one lock. */
#include "http/address_count.h"

#include "base/client_ip.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ADDRESS_COUNT_BUCKETS 1024u

struct entry {
    char key[CLIENT_IP_KEY_MAX];
    unsigned held;
    struct entry *next;
};

struct address_count {
    pthread_mutex_t lock;
    unsigned per_key, total, held;
    struct entry *bucket[ADDRESS_COUNT_BUCKETS];
};

struct address_count *address_count_new(unsigned per_key, unsigned total)
{
    struct address_count *ac = calloc(1, sizeof *ac);
    if (ac == NULL)
        return NULL;
    pthread_mutex_init(&ac->lock, NULL);
    ac->per_key = per_key;
    ac->total = total;
    return ac;
}

void address_count_free(struct address_count *ac)
{
    if (ac == NULL)
        return;
    for (unsigned b = 0; b < ADDRESS_COUNT_BUCKETS; b++) {
        while (ac->bucket[b] != NULL) {
            struct entry *e = ac->bucket[b];
            ac->bucket[b] = e->next;
            free(e);
        }
    }
    pthread_mutex_destroy(&ac->lock);
    free(ac);
}

static unsigned bucket_of(const char *key)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)key; *p != '\0'; p++)
        h = (h ^ *p) * 16777619u;
    return h % ADDRESS_COUNT_BUCKETS;
}

/* The entry of key, or NULL; *link is where it hangs. Lock held. */
static struct entry *find(struct address_count *ac, const char *key, struct entry ***link)
{
    struct entry **p = &ac->bucket[bucket_of(key)];
    while (*p != NULL && strncmp((*p)->key, key, sizeof(*p)->key - 1) != 0)
        p = &(*p)->next;
    *link = p;
    return *p;
}

static enum address_count_result decide(struct address_count *ac, const char *key, bool take)
{
    pthread_mutex_lock(&ac->lock);
    struct entry **link;
    struct entry *e = find(ac, key, &link);
    enum address_count_result r = ADDRESS_COUNT_OK;
    if (e != NULL && e->held >= ac->per_key)
        r = ADDRESS_COUNT_KEY_FULL;
    else if (ac->held >= ac->total)
        r = ADDRESS_COUNT_TOTAL_FULL;
    if (r == ADDRESS_COUNT_OK && take && e == NULL) {
        e = calloc(1, sizeof *e);
        if (e == NULL) {
            r = ADDRESS_COUNT_TOTAL_FULL;
        } else {
            snprintf(e->key, sizeof e->key, "%s", key);
            *link = e;
        }
    }
    if (r == ADDRESS_COUNT_OK && take) {
        e->held++;
        ac->held++;
    }
    pthread_mutex_unlock(&ac->lock);
    return r;
}

enum address_count_result address_count_take(struct address_count *ac, const char *key)
{
    return decide(ac, key, true);
}

enum address_count_result address_count_check(struct address_count *ac, const char *key)
{
    return decide(ac, key, false);
}

void address_count_release(struct address_count *ac, const char *key)
{
    pthread_mutex_lock(&ac->lock);
    struct entry **link;
    struct entry *e = find(ac, key, &link);
    if (e != NULL) {
        ac->held--;
        if (--e->held == 0) {
            *link = e->next;
            free(e);
        }
    }
    pthread_mutex_unlock(&ac->lock);
}
