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
#endif
