/* Chunks of history, packed a byte an entry and deflated.
 *
 * Why bytes and deflate rather than a fixed code of a few bits an entry: a
 * direction and a push flag fit in 4 bits, but restarts and multi-pushes
 * need an escape, and 4 bits at the longest history is still 2 MiB a game.
 * Deflate does better on both kinds of play a client can send: a random
 * walk of legal steps, the least compressible, takes about 2.2 bits an
 * entry with Huffman codes alone (LZ77 matches make it 2.7), and walking
 * back and forth takes almost nothing with LZ77 (1.5 bits with Huffman
 * codes alone). So a chunk is coded with Huffman codes alone, and again
 * with LZ77 when that gave less than two bits an entry. */
#include "play/history.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define ESCAPE 0xFEu
#define RESTART 0xFFu
#define MAX_SHORT_PUSH 62u

size_t history_pack(const soko_entry_t *e, uint32_t n, uint8_t *out)
{
    size_t len = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (e[i] == SOKO_ENTRY_RESTART) {
            out[len++] = RESTART;
        } else if (SOKO_ENTRY_PUSHED(e[i]) <= MAX_SHORT_PUSH) {
            out[len++] = (uint8_t)e[i];
        } else {
            out[len++] = ESCAPE;
            out[len++] = (uint8_t)(e[i] & 0xFF);
            out[len++] = (uint8_t)(e[i] >> 8);
        }
    }
    return len;
}

int32_t history_unpack(const uint8_t *in, size_t len, soko_entry_t *out, uint32_t cap)
{
    uint32_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (n == cap)
            return -1;
        if (in[i] == RESTART) {
            out[n++] = SOKO_ENTRY_RESTART;
        } else if (in[i] != ESCAPE) {
            out[n++] = in[i];
        } else {
            if (len - i < 3)
                return -1;
            soko_entry_t e = (soko_entry_t)(in[i + 1] | (unsigned)in[i + 2] << 8);
            /* Only a push of more boxes than a byte holds is escaped. */
            if (e == SOKO_ENTRY_RESTART || SOKO_ENTRY_PUSHED(e) <= MAX_SHORT_PUSH)
                return -1;
            out[n++] = e;
            i += 2;
        }
    }
    return (int32_t)n;
}

/* Makes room for slots [0, i]; false out of memory. */
static int reserve(struct history *h, uint32_t i)
{
    if (i < h->cap)
        return 0;
    uint32_t cap = h->cap > 0 ? h->cap : 16;
    while (cap <= i)
        cap *= 2;
    struct history_chunk *c = realloc(h->chunk, (size_t)cap * sizeof *c);
    if (c == NULL)
        return -1;
    memset(c + h->cap, 0, (size_t)(cap - h->cap) * sizeof *c);
    h->bytes += (size_t)(cap - h->cap) * sizeof *c;
    h->chunk = c;
    h->cap = cap;
    return 0;
}

/* Each thread deflates and inflates with streams and buffers of its own,
 * made once: made and freed for every chunk, their hundreds of KiB would
 * scatter the chunks kept over a heap that cannot shrink. */
struct coder {
    z_stream def, inf;
    uint8_t packed[HISTORY_PACKED_MAX(HISTORY_CHUNK) + 1];
    uint8_t out[HISTORY_PACKED_MAX(HISTORY_CHUNK) + 1024];
};

static pthread_key_t coder_key;
static pthread_once_t coder_once = PTHREAD_ONCE_INIT;

static void free_coder(void *arg)
{
    struct coder *c = arg;
    deflateEnd(&c->def);
    inflateEnd(&c->inf);
    free(c);
}

static void make_key(void)
{
    pthread_key_create(&coder_key, free_coder);
}

/* This thread's coder; NULL out of memory. */
static struct coder *coder(void)
{
    pthread_once(&coder_once, make_key);
    struct coder *c = pthread_getspecific(coder_key);
    if (c != NULL)
        return c;
    c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    if (deflateInit2(&c->def, 1, Z_DEFLATED, 15, 8, Z_HUFFMAN_ONLY) != Z_OK) {
        free(c);
        return NULL;
    }
    if (inflateInit2(&c->inf, 15) != Z_OK) {
        deflateEnd(&c->def);
        free(c);
        return NULL;
    }
    pthread_setspecific(coder_key, c);
    return c;
}

/* Deflates c->packed[0..len) with `level` and `strategy` into c->out;
 * returns the length, or 0 when it does not fit there. */
static size_t deflate_with(struct coder *c, size_t len, int level, int strategy)
{
    z_stream *z = &c->def;
    if (deflateReset(z) != Z_OK || deflateParams(z, level, strategy) != Z_OK)
        return 0;
    z->next_in = c->packed;
    z->avail_in = (uInt)len;
    z->next_out = c->out;
    z->avail_out = (uInt)sizeof c->out;
    if (deflate(z, Z_FINISH) != Z_STREAM_END)
        return 0;
    return z->total_out;
}

int history_store(struct history *h, uint32_t i, const soko_entry_t *e, uint32_t n)
{
    struct coder *c = coder();
    if (c == NULL || n > HISTORY_CHUNK || reserve(h, i) != 0)
        return -1;
    size_t len = history_pack(e, n, c->packed);
    size_t zlen = deflate_with(c, len, 1, Z_HUFFMAN_ONLY);
    if (zlen > 0 && zlen * 4 < n) {
        /* Under two bits an entry: repetitive play, which LZ77 matches
         * take further. Deflated again only if that is smaller. */
        uint8_t *huffman = malloc(zlen);
        if (huffman == NULL)
            return -1;
        memcpy(huffman, c->out, zlen);
        size_t lz = deflate_with(c, len, 1, Z_DEFAULT_STRATEGY);
        if (lz == 0 || lz >= zlen)
            memcpy(c->out, huffman, zlen);
        else
            zlen = lz;
        free(huffman);
    }
    uint8_t *z = zlen > 0 ? malloc(zlen) : NULL;
    if (z == NULL)
        return -1;
    memcpy(z, c->out, zlen);
    history_drop(h, i);
    h->chunk[i] = (struct history_chunk){.z = z, .zlen = (uint32_t)zlen, .n = n};
    h->bytes += zlen;
    if (i >= h->nchunks)
        h->nchunks = i + 1;
    return 0;
}

/* True when chunk i is stored. */
bool history_has(const struct history *h, uint32_t i)
{
    return i < h->nchunks && h->chunk[i].z != NULL;
}

int32_t history_load(const struct history *h, uint32_t i, soko_entry_t *out)
{
    struct coder *c = coder();
    if (c == NULL || i >= h->nchunks || h->chunk[i].z == NULL)
        return -1;
    const struct history_chunk *chunk = &h->chunk[i];
    z_stream *z = &c->inf;
    if (inflateReset(z) != Z_OK)
        return -1;
    z->next_in = chunk->z;
    z->avail_in = chunk->zlen;
    z->next_out = c->packed;
    z->avail_out = (uInt)sizeof c->packed;
    if (inflate(z, Z_FINISH) != Z_STREAM_END)
        return -1;
    int32_t n = history_unpack(c->packed, z->total_out, out, HISTORY_CHUNK);
    return n == (int32_t)chunk->n ? n : -1;
}

void history_drop(struct history *h, uint32_t i)
{
    if (i >= h->nchunks || h->chunk[i].z == NULL)
        return;
    h->bytes -= h->chunk[i].zlen;
    free(h->chunk[i].z);
    h->chunk[i] = (struct history_chunk){0};
}

void history_cut(struct history *h, uint32_t i)
{
    while (h->nchunks > i) {
        history_drop(h, h->nchunks - 1);
        h->nchunks--;
    }
}

void history_free(struct history *h)
{
    history_cut(h, 0);
    free(h->chunk);
    *h = (struct history){0};
}
