/* Giving the allocator's free pages back to the system.
 *
 * glibc's malloc serves each thread from an arena (up to eight per core)
 * and keeps what is freed there for later mallocs; it gives memory back to
 * the system only from the top of an arena, so a hole between blocks still
 * in use stays resident however large it is. sokod's cached games are many
 * small blocks (deflated chunks of a few KiB) held for long, and between
 * them go the buffers of requests and of games rebuilt from their log, 32
 * to 128 KiB each: once games leave the cache, the holes they and those
 * buffers leave are most of the heap. Measured on a Release build with
 * --game-cache-mb 32, 40 games filled to the history cap at once left 36
 * MiB free in the arenas, all resident, beside 38 MiB in use; 120 at once,
 * more than 180 MiB resident in all (bench/bench_memory_games.mjs).
 *
 * malloc_trim(0) gives back every whole page of every free block of every
 * arena (with madvise), at a cost that grows with the free blocks, a few
 * milliseconds for hundreds of them; so it runs once per HEAP_TRIM_BYTES
 * freed in bulk, not on every free.
 *
 * The buffers of a request a step of a long game makes (its body of up to
 * 128 KiB, the parsed text, the decoded steps, the copies the committer
 * and the listeners keep: some 400 KiB) live until it is answered, and a
 * request waiting for its commit holds them. glibc maps blocks of 128 KiB
 * and more apart, but raises that size to the largest block freed (up to
 * 32 MiB), so after the first such free they too come from the arenas and
 * leave holes there when no game leaves the cache to trim them. A fixed
 * threshold of 64 KiB keeps them mapped apart: unmapped when freed, for a
 * few system calls per request of tens of thousands of steps. A game's raw
 * window of history (64 KiB once it holds 16,384 entries) may be mapped,
 * a mapping per such game in the cache, rounded up by one page that the
 * cache does not count (6%). */
#include "base/heap.h"

#include <stdatomic.h>
#include <stdbool.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

static atomic_size_t pending; /* bytes freed in bulk since the last trim */
static atomic_bool trimming;  /* one trim at a time */

void heap_setup(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, (int)HEAP_MAP_BYTES);
#endif
}

void heap_freed(size_t bytes)
{
    if (bytes == 0)
        return;
    if (atomic_fetch_add(&pending, bytes) + bytes < HEAP_TRIM_BYTES)
        return;
    if (atomic_exchange(&trimming, true))
        return; /* another thread trims now, and sees these bytes freed */
    atomic_store(&pending, 0);
#ifdef __GLIBC__
    malloc_trim(0);
#endif
    atomic_store(&trimming, false);
}
