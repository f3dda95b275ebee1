/* Things held per client at once (connections, live streams): a count per
 * key, a cap per key and a cap on the total. Unlike a rate limit, what is
 * taken is given back when it ends. A key is kept only while it holds
 * something, so the table is as large as what is held. Thread-safe. */
#ifndef SOKOD_ADDRESS_COUNT_H
#define SOKOD_ADDRESS_COUNT_H

#include <stdbool.h>

struct address_count;

enum address_count_result {
    ADDRESS_COUNT_OK,         /* taken */
    ADDRESS_COUNT_KEY_FULL,   /* the key holds per_key already */
    ADDRESS_COUNT_TOTAL_FULL, /* all keys together hold total already */
};

/* A counter allowing per_key at once per key and total at once over all
 * keys. NULL when out of memory. */
struct address_count *address_count_new(unsigned per_key, unsigned total);

/* Frees the counter; what is still held is forgotten. NULL is allowed. */
void address_count_free(struct address_count *ac);

/* Takes one for key when both caps allow it. Out of memory refuses as
 * ADDRESS_COUNT_TOTAL_FULL. */
enum address_count_result address_count_take(struct address_count *ac, const char *key);

/* Like address_count_take without taking: what a take would answer now. */
enum address_count_result address_count_check(struct address_count *ac, const char *key);

/* Gives back one taken for key. */
void address_count_release(struct address_count *ac, const char *key);

#endif
