/* A game's history kept compact: chunks of HISTORY_CHUNK entries, each
 * packed at a byte an entry and deflated. game_play keeps the chunks near
 * the cursor raw, where the core plays on them, and the rest here. */
#ifndef SOKOD_HISTORY_H
#define SOKOD_HISTORY_H

#include "soko.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Entries in a chunk: 32 KiB raw, a few KiB deflated. */
#define HISTORY_CHUNK 16384u

/* The most bytes history_pack writes for n entries. */
#define HISTORY_PACKED_MAX(n) ((size_t)(n)*3u)

struct history_chunk {
    uint8_t *z;    /* the deflated bytes, malloc'd; NULL: not stored here */
    uint32_t zlen; /* their length */
    uint32_t n;    /* entries in the chunk */
};

struct history {
    struct history_chunk *chunk; /* chunk i holds entries [i * HISTORY_CHUNK, ...) */
    uint32_t nchunks;            /* slots in use, stored or not */
    uint32_t cap;                /* slots allocated */
    size_t bytes;                /* the deflated bytes held, with the slots */
};

/* Packs n entries at one byte each: a step that pushes at most 62 boxes is
 * (pushed << 2 | direction), a restart 0xFF, a longer push 0xFE and the
 * entry's two bytes. Writes at most HISTORY_PACKED_MAX(n) bytes to out and
 * returns their number. Cannot fail. */
size_t history_pack(const soko_entry_t *e, uint32_t n, uint8_t *out);

/* Unpacks `len` bytes written by history_pack into at most `cap` entries.
 * Returns the number of entries, or -1 when the bytes are not a packing or
 * hold more than cap entries. */
int32_t history_unpack(const uint8_t *in, size_t len, soko_entry_t *out, uint32_t cap);

/* Stores entries e[0..n) (n <= HISTORY_CHUNK) as chunk i, replacing what
 * it held; chunks below i that were never stored stay empty slots. Returns
 * 0, or -1 out of memory (then chunk i is left as it was). */
int history_store(struct history *h, uint32_t i, const soko_entry_t *e, uint32_t n);

/* Copies stored chunk i into out (room for HISTORY_CHUNK entries). Returns
 * the number of entries, or -1 when chunk i is not stored or out of memory. */
int32_t history_load(const struct history *h, uint32_t i, soko_entry_t *out);

/* True when chunk i is stored. */
bool history_has(const struct history *h, uint32_t i);

/* Frees stored chunk i (if any); the slot stays. */
void history_drop(struct history *h, uint32_t i);

/* Frees every chunk from i on and their slots. */
void history_cut(struct history *h, uint32_t i);

/* Frees everything h holds and empties it. */
void history_free(struct history *h);

#endif
