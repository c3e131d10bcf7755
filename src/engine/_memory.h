/* Memory for the transposition table: a big block read at random, one bucket (64 bytes, one
 * cache line) per probe. Aligned so that no bucket straddles two cache lines, and on Linux
 * backed by huge pages where the system allows it (transparent huge pages in "madvise" mode
 * give them only to blocks that ask), so that a probe does not also miss the TLB. */
#ifndef ENGINE_MEMORY_H
#define ENGINE_MEMORY_H
#include <stdlib.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define TT_HUGE_PAGE ((size_t)2 * 1024 * 1024)

static inline void* tt_alloc(size_t bytes) {
    void* p = NULL;
    size_t align = bytes >= TT_HUGE_PAGE ? TT_HUGE_PAGE : 64;
    if (posix_memalign(&p, align, bytes) != 0)
        return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= TT_HUGE_PAGE)
        madvise(p, bytes, MADV_HUGEPAGE);    /* a hint: without huge pages all still works */
#endif
    return p;
}

/* A hint to start loading the bucket of a position the search is about to enter, so that the
 * load overlaps the work done before the probe (the game's end rules, the repetition test).
 * Reading from memory is the single largest cost of a probe; the hint changes no value. */
static inline void tt_prefetch(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}

/* The same for an entry about to be written: a table build settling a position touches its
 * predecessors' entries, scattered over the slice, and asks for all of them at once. */
static inline void prefetch_write(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p, 1);
#else
    (void)p;
#endif
}
#endif
