/* The process's heap: giving back to the system what the allocator keeps
 * of large frees (glibc's malloc keeps freed memory in its arenas). */
#ifndef SOKOD_HEAP_H
#define SOKOD_HEAP_H

#include <stddef.h>

/* Blocks of this size and more are mapped apart from the arenas. */
#define HEAP_MAP_BYTES ((size_t)64 << 10)

/* Bytes freed in bulk between two returns of the heap's free pages. */
#define HEAP_TRIM_BYTES ((size_t)8 << 20)

/* Sets the allocator up at start-up, before any thread is made: blocks of
 * HEAP_MAP_BYTES and more (request bodies and the copies of their steps)
 * are mapped on their own and unmapped when freed. This function can't
 * fail; it does nothing without glibc. */
void heap_setup(void);

/* Notes that `bytes` were just freed in bulk (games leaving the cache);
 * once HEAP_TRIM_BYTES have been since the last time, gives the free pages
 * of every arena back to the system (malloc_trim). Call without holding a
 * lock others wait on: a trim takes a few milliseconds. Thread-safe; this
 * function can't fail. */
void heap_freed(size_t bytes);

#endif
