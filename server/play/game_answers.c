/* A few compressed answers of long games, the most recently made kept.
 *
 * The bound: MAX_ANSWERS answers and MAX_BYTES in all, besides answers
 * that left the kept ones while a request still sends them (each goes
 * with its last reference). A game at the history cap answers some 8.4 MB
 * of JSON, 2 to 3 MB compressed (the history and the LURD since the last
 * restart are mostly the same letters, further apart than deflate's
 * window). Sharing the bytes keeps what a client can make sokod hold
 * while it reads slowly to one copy per version of a game, and an answer
 * inflated for a client without gzip costs one z_stream (some 40 KiB),
 * not the whole text. */
#include "play/game_answers.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define MAX_ANSWERS 8
#define MAX_BYTES ((size_t)24 << 20)

struct shared {
    struct game_answer pub; /* first: a reference is its address */
    uint8_t *bytes;
    unsigned refs; /* requests sending it, and one while it is kept */
};

struct slot {
    struct game_answers_key key;
    struct shared *answer; /* NULL: a free slot */
    uint64_t made;         /* order of making: the smallest leaves first */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct slot kept[MAX_ANSWERS];
static size_t total;
static uint64_t made;

static bool same(const struct game_answers_key *a, const struct game_answers_key *b)
{
    return a->id == b->id && a->user_id == b->user_id && a->seq == b->seq && a->hints == b->hints;
}

/* Drops one reference; the caller frees the answer when this returns it.
 * Lock held. */
static struct shared *unref(struct shared *s)
{
    return --s->refs == 0 ? s : NULL;
}

static void free_shared(struct shared *s)
{
    if (s != NULL) {
        free(s->bytes);
        free(s);
    }
}

const struct game_answer *game_answers_find(const struct game_answers_key *k)
{
    struct shared *found = NULL;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_ANSWERS && found == NULL; i++) {
        if (kept[i].answer != NULL && same(&kept[i].key, k)) {
            found = kept[i].answer;
            found->refs++;
        }
    }
    pthread_mutex_unlock(&lock);
    return found != NULL ? &found->pub : NULL;
}

void game_answers_release(const struct game_answer *a)
{
    if (a == NULL)
        return;
    struct shared *s = (struct shared *)(uintptr_t)a;
    pthread_mutex_lock(&lock);
    struct shared *gone = unref(s);
    pthread_mutex_unlock(&lock);
    free_shared(gone);
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

/* Empties a slot; returns its answer when that was the last reference, for
 * the caller to free once the lock is let go. Lock held. */
static struct shared *drop(struct slot *sl)
{
    total -= sl->answer->pub.zlen;
    struct shared *gone = unref(sl->answer);
    *sl = (struct slot){0};
    return gone;
}

/* The slot for a new answer of k: k's older version, a free slot, or the
 * oldest answer's, emptied (what must be freed goes in *gone). Lock held. */
static struct slot *slot_for(const struct game_answers_key *k, struct shared **gone)
{
    struct slot *oldest = &kept[0];
    for (int i = 0; i < MAX_ANSWERS; i++) {
        if (kept[i].answer == NULL || kept[i].key.id == k->id) {
            if (kept[i].answer != NULL)
                *gone = drop(&kept[i]);
            return &kept[i];
        }
        if (kept[i].made < oldest->made)
            oldest = &kept[i];
    }
    *gone = drop(oldest);
    return oldest;
}

const struct game_answer *game_answers_put(const struct game_answers_key *k, const char *text,
                                           size_t len)
{
    struct shared *s = calloc(1, sizeof *s);
    size_t n = 0;
    uint8_t *z = s != NULL ? gzip(text, len, &n) : NULL;
    if (z == NULL) {
        free(s);
        return NULL;
    }
    s->bytes = z;
    s->pub = (struct game_answer){.z = z, .zlen = n, .text_len = len};
    s->refs = 2; /* kept, and the caller's */
    struct shared *gone[MAX_ANSWERS + 1] = {NULL};
    unsigned ngone = 0;
    pthread_mutex_lock(&lock);
    struct slot *sl = slot_for(k, &gone[ngone++]);
    *sl = (struct slot){.key = *k, .answer = s, .made = ++made};
    total += n;
    /* Past the bytes' bound, the oldest others leave. */
    while (total > MAX_BYTES) {
        struct slot *oldest = NULL;
        for (int i = 0; i < MAX_ANSWERS; i++) {
            if (kept[i].answer != NULL && &kept[i] != sl &&
                (oldest == NULL || kept[i].made < oldest->made))
                oldest = &kept[i];
        }
        if (oldest == NULL)
            break;
        gone[ngone++] = drop(oldest);
    }
    pthread_mutex_unlock(&lock);
    for (unsigned i = 0; i < ngone; i++)
        free_shared(gone[i]);
    return &s->pub;
}

long game_answers_inflate(const struct game_answer *a, void **stream, uint64_t pos, char *buf,
                          size_t max)
{
    z_stream *s = *stream;
    if (s == NULL) {
        s = calloc(1, sizeof *s);
        if (s == NULL || inflateInit2(s, 15 + 16) != Z_OK) {
            free(s);
            return -1;
        }
        s->next_in = (Bytef *)(uintptr_t)a->z;
        s->avail_in = (uInt)a->zlen;
        *stream = s;
    }
    if (pos != s->total_out)
        return -1; /* only in order: nothing before is kept */
    s->next_out = (Bytef *)buf;
    s->avail_out = (uInt)max;
    int rc = inflate(s, Z_NO_FLUSH);
    long n = (long)(max - s->avail_out);
    if ((rc != Z_OK && rc != Z_STREAM_END) || (n == 0 && rc != Z_STREAM_END))
        return -1;
    return n;
}

void game_answers_inflate_end(void **stream)
{
    z_stream *s = *stream;
    if (s != NULL) {
        inflateEnd(s);
        free(s);
    }
    *stream = NULL;
}

void game_answers_clear(void)
{
    struct shared *gone[MAX_ANSWERS] = {NULL};
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_ANSWERS; i++) {
        if (kept[i].answer != NULL)
            gone[i] = drop(&kept[i]);
    }
    total = 0;
    made = 0;
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < MAX_ANSWERS; i++)
        free_shared(gone[i]);
}
