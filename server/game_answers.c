/* A few compressed answers of long games, the most recently made kept.
 *
 * The bound: MAX_ANSWERS answers and MAX_BYTES in all. A game at the
 * history cap answers some 8.4 MB of JSON, 2 to 3 MB compressed (the
 * history and the LURD since the last restart are mostly the same letters,
 * further apart than deflate's window). */
#include "game_answers.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define MAX_ANSWERS 8
#define MAX_BYTES ((size_t)24 << 20)

struct answer {
    struct game_answers_key key;
    uint8_t *z; /* NULL: a free slot */
    size_t len;
    uint64_t made; /* order of making: the smallest leaves first */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct answer kept[MAX_ANSWERS];
static size_t total;
static uint64_t made;

static bool same(const struct game_answers_key *a, const struct game_answers_key *b)
{
    return a->id == b->id && a->user_id == b->user_id && a->seq == b->seq && a->hints == b->hints;
}

static uint8_t *copy(const uint8_t *z, size_t len)
{
    uint8_t *out = malloc(len);
    if (out != NULL)
        memcpy(out, z, len);
    return out;
}

uint8_t *game_answers_find(const struct game_answers_key *k, size_t *len)
{
    uint8_t *out = NULL;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_ANSWERS && out == NULL; i++) {
        if (kept[i].z != NULL && same(&kept[i].key, k)) {
            out = copy(kept[i].z, kept[i].len);
            *len = kept[i].len;
        }
    }
    pthread_mutex_unlock(&lock);
    return out;
}

char *game_answers_find_text(const struct game_answers_key *k, size_t *len)
{
    size_t zlen = 0;
    uint8_t *z = game_answers_find(k, &zlen);
    if (z == NULL)
        return NULL;
    /* The gzip trailer ends with the text's length, modulo 2^32. */
    size_t n = zlen >= 4 ? (size_t)z[zlen - 4] | (size_t)z[zlen - 3] << 8 |
                               (size_t)z[zlen - 2] << 16 | (size_t)z[zlen - 1] << 24
                         : 0;
    char *text = malloc(n + 1);
    z_stream s = {0};
    bool ok = text != NULL && inflateInit2(&s, 15 + 16) == Z_OK;
    if (ok) {
        s.next_in = z;
        s.avail_in = (uInt)zlen;
        s.next_out = (Bytef *)text;
        s.avail_out = (uInt)n;
        ok = inflate(&s, Z_FINISH) == Z_STREAM_END && s.total_out == n;
        inflateEnd(&s);
    }
    free(z);
    if (!ok) {
        free(text);
        return NULL;
    }
    text[n] = '\0';
    *len = n;
    return text;
}

/* Gzip at level 1: an answer is compressed once per version of a game and
 * the letters gain little from the slower levels. */
static uint8_t *gzip(const char *text, size_t len, size_t *zlen)
{
    z_stream z = {0};
    if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return NULL;
    uLong cap = deflateBound(&z, (uLong)len);
    uint8_t *out = malloc(cap);
    z.next_in = (Bytef *)(uintptr_t)text;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    if (out == NULL || deflate(&z, Z_FINISH) != Z_STREAM_END) {
        deflateEnd(&z);
        free(out);
        return NULL;
    }
    *zlen = z.total_out;
    deflateEnd(&z);
    uint8_t *fit = realloc(out, *zlen);
    return fit != NULL ? fit : out;
}

static void drop(struct answer *a)
{
    total -= a->len;
    free(a->z);
    *a = (struct answer){0};
}

/* The slot for a new answer of k: k's older version, a free slot, or the
 * oldest answer, dropped. */
static struct answer *slot_for(const struct game_answers_key *k)
{
    struct answer *oldest = &kept[0];
    for (int i = 0; i < MAX_ANSWERS; i++) {
        if (kept[i].z == NULL || kept[i].key.id == k->id) {
            if (kept[i].z != NULL)
                drop(&kept[i]);
            return &kept[i];
        }
        if (kept[i].made < oldest->made)
            oldest = &kept[i];
    }
    drop(oldest);
    return oldest;
}

uint8_t *game_answers_put(const struct game_answers_key *k, const char *text, size_t len,
                          size_t *zlen)
{
    size_t n = 0;
    uint8_t *z = gzip(text, len, &n);
    if (z == NULL)
        return NULL;
    uint8_t *out = copy(z, n);
    if (out == NULL) {
        free(z);
        return NULL;
    }
    *zlen = n;
    pthread_mutex_lock(&lock);
    struct answer *a = slot_for(k);
    *a = (struct answer){.key = *k, .z = z, .len = n, .made = ++made};
    total += n;
    /* Past the bytes' bound, the oldest others leave. */
    while (total > MAX_BYTES) {
        struct answer *oldest = NULL;
        for (int i = 0; i < MAX_ANSWERS; i++) {
            if (kept[i].z != NULL && &kept[i] != a &&
                (oldest == NULL || kept[i].made < oldest->made))
                oldest = &kept[i];
        }
        if (oldest == NULL)
            break;
        drop(oldest);
    }
    pthread_mutex_unlock(&lock);
    return out;
}

void game_answers_clear(void)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_ANSWERS; i++) {
        if (kept[i].z != NULL)
            drop(&kept[i]);
    }
    pthread_mutex_unlock(&lock);
}
