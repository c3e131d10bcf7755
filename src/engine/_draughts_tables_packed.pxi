# Compressed table slices: values packed at a fixed width (2 bits for win/draw/loss, 8 for the
# distances of won positions), cut into blocks of a fixed number of entries, each block a zlib
# stream of its own (so a probe inflates one block, and the stream's Adler-32 check catches a
# corrupt block). The files are written by engine/egdb.py with Python's zlib. They are read
# here by libdeflate where it is installed (about twice zlib's speed on these small blocks) and
# otherwise by zlib's own uncompress(); Python hands over the functions' addresses, so no
# header or link-time library is needed to build the package.
#
# Inflated blocks stay in a cache shared by the search threads: sets of CACHE_WAYS blocks, a
# block's set chosen by a hash of its slice and number, the least recently read block of a set
# replaced. Inflating is the whole cost of a compressed probe (7-15 us a block of 8,192 entries,
# where a cached read takes a few ns), and a search from a 6-7 piece position touches tens of
# thousands of blocks, so the cache is large (64 MB) and misses mostly blocks never read before:
# like the hash table, its memory is made resident (on huge pages where the system allows)
# when the tables are loaded. Each set has a spin lock held only while it is read or filled.

from libc.stdint cimport uint32_t, uint64_t

cdef extern from "_memory.h" nogil:
    void* tt_alloc(size_t bytes)

cdef extern from *:
    """
    static inline void egdb_lock(volatile int* lock) {
        while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE)) {
            while (__atomic_load_n(lock, __ATOMIC_RELAXED)) { }
        }
    }
    static inline void egdb_unlock(volatile int* lock) {
        __atomic_store_n(lock, 0, __ATOMIC_RELEASE);
    }
    static inline int egdb_try_lock(volatile int* lock) {
        return !__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE);
    }
    static inline void egdb_count(volatile unsigned long long* counter) {
        __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
    }
    """
    void egdb_lock(volatile int* lock) noexcept nogil
    void egdb_unlock(volatile int* lock) noexcept nogil
    int egdb_try_lock(volatile int* lock) noexcept nogil
    void egdb_count(volatile unsigned long long* counter) noexcept nogil

# zlib: int uncompress(Bytef* dest, uLongf* destLen, const Bytef* source, uLong sourceLen)
ctypedef int (*InflateFn)(unsigned char* dest, unsigned long* dest_len,
                          const unsigned char* source, unsigned long source_len) noexcept nogil
# libdeflate: enum libdeflate_result libdeflate_zlib_decompress(struct libdeflate_decompressor*,
# const void* in, size_t in_nbytes, void* out, size_t out_nbytes_avail, size_t* actual_out);
# a decompressor serves one call at a time.
ctypedef int (*DeflateFn)(void* decompressor, const void* source, size_t source_len,
                          void* dest, size_t dest_len, size_t* got) noexcept nogil
ctypedef void* (*DeflateAllocFn)() noexcept nogil
ctypedef void (*DeflateFreeFn)(void* decompressor) noexcept nogil

cdef enum:
    DECOMPRESSORS = 8             # libdeflate decompressors, for threads inflating at once

ctypedef struct Inflater:
    InflateFn uncompress          # zlib's: any number of threads at once
    DeflateFn deflate             # libdeflate's, NULL when it is not installed
    DeflateFreeFn deflate_free
    void* decompressors[DECOMPRESSORS]
    int locks[DECOMPRESSORS]


cdef void free_decompressors(Inflater* inf) noexcept nogil:
    cdef int i
    inf.deflate = NULL
    for i in range(DECOMPRESSORS):
        if inf.decompressors[i] != NULL:
            inf.deflate_free(inf.decompressors[i])
            inf.decompressors[i] = NULL


cdef int inflate_block(Inflater* inf, uint8_t* dest, unsigned long* size, const uint8_t* source,
                       unsigned long source_len) noexcept nogil:
    """Inflate one zlib stream into dest (size: its room in, the bytes written out); 0 when the
    stream is whole and its check agrees. libdeflate when a decompressor is free, else zlib."""
    cdef int i, err
    cdef size_t got = 0
    if inf.deflate != NULL:
        for i in range(DECOMPRESSORS):
            if egdb_try_lock(&inf.locks[i]):
                err = inf.deflate(inf.decompressors[i], source, source_len, dest, size[0], &got)
                egdb_unlock(&inf.locks[i])
                size[0] = got
                return err
    return inf.uncompress(dest, size, source, source_len)

ctypedef struct Packed:
    const uint8_t* data           # the blocks, one after another
    const uint64_t* offsets       # block b is data[offsets[b] : offsets[b + 1]]
    u64 entries
    uint32_t per_block            # entries per block
    uint32_t nblocks
    uint32_t block_bytes          # bytes of an inflated block
    uint32_t last_bytes           # bytes of the last one
    int bits                      # 2 or 8
    int id                        # tells this slice's blocks apart in the cache

cdef enum:
    CACHE_WAYS = 8                # blocks of a set

ctypedef struct CacheSet:
    u64 tag[CACHE_WAYS]           # id << 32 | block, plus one; 0 = empty
    uint32_t used[CACHE_WAYS]     # the set's clock when each was last read
    uint32_t clock
    int lock

ctypedef struct BlockCache:
    CacheSet* sets
    uint8_t* bufs                 # nsets * CACHE_WAYS buffers of buf_bytes, set by set
    int nsets                     # a power of two
    uint32_t buf_bytes            # the largest inflated block a slot holds
    unsigned long long corrupt    # blocks that failed to inflate (zlib's check), ever
    unsigned long long inflated   # blocks inflated, ever (the cache's misses)


cdef BlockCache* cache_new(int nslots, uint32_t buf_bytes) noexcept nogil:
    """A cache of at least CACHE_WAYS blocks (nslots rounded down to whole sets; the number of
    sets must be a power of two). Its memory is read at random, as the transposition table's,
    so it comes from the same allocator (huge pages where the system gives them: without, the
    first touch of each 4 KB page of the 64 MB and the TLB misses of the reads cost about 2 %
    of a search's time), and is written through once here, so that the search does not pay
    the first touch of each page either (as the hash table is cleared before a search)."""
    cdef BlockCache* cache = <BlockCache*>calloc(1, sizeof(BlockCache))
    if cache == NULL:
        return NULL
    cache.nsets = nslots // CACHE_WAYS if nslots >= CACHE_WAYS else 1
    cache.buf_bytes = buf_bytes
    cache.sets = <CacheSet*>tt_alloc(<size_t>cache.nsets * sizeof(CacheSet))
    cache.bufs = <uint8_t*>tt_alloc(<size_t>cache.nsets * CACHE_WAYS * buf_bytes)
    if cache.sets == NULL or cache.bufs == NULL:
        cache_free(cache)
        return NULL
    memset(cache.sets, 0, <size_t>cache.nsets * sizeof(CacheSet))
    memset(cache.bufs, 0, <size_t>cache.nsets * CACHE_WAYS * buf_bytes)
    return cache


cdef void cache_free(BlockCache* cache) noexcept nogil:
    if cache == NULL:
        return
    free(cache.bufs)
    free(cache.sets)
    free(cache)


cdef inline int packed_read(const uint8_t* buf, int bits, u64 at) noexcept nogil:
    if bits == 8:
        return buf[at]
    return (buf[at >> 2] >> ((at & 3) * 2)) & 3


cdef int packed_get(const Packed* P, BlockCache* cache, Inflater* inflater, u64 idx) noexcept nogil:
    """Entry idx of a compressed slice, or -1 when its block does not inflate to its size."""
    cdef uint32_t block = <uint32_t>(idx // P.per_block)
    cdef u64 at = idx % P.per_block
    cdef u64 tag = ((<u64>P.id << 32) | block) + 1
    cdef int s = <int>((tag * 0x9E3779B97F4A7C15ULL) >> 32) & (cache.nsets - 1)
    cdef CacheSet* cs = &cache.sets[s]
    cdef uint8_t* buf
    cdef unsigned long size
    cdef int value, err, way, w
    egdb_lock(&cs.lock)
    way = -1
    for w in range(CACHE_WAYS):
        if cs.tag[w] == tag:
            way = w
            break
    if way < 0:                                 # a miss: the least recently read block goes
        way = 0
        for w in range(1, CACHE_WAYS):
            if cs.used[w] < cs.used[way]:
                way = w
        buf = cache.bufs + (<size_t>s * CACHE_WAYS + way) * cache.buf_bytes
        size = cache.buf_bytes
        egdb_count(&cache.inflated)
        err = inflate_block(inflater, buf, &size, P.data + P.offsets[block],
                            <unsigned long>(P.offsets[block + 1] - P.offsets[block]))
        if err != 0 or size != (P.block_bytes if block + 1 < P.nblocks else P.last_bytes):
            cs.tag[way] = 0
            cs.used[way] = 0
            egdb_unlock(&cs.lock)
            egdb_count(&cache.corrupt)
            return -1
        cs.tag[way] = tag
    else:
        buf = cache.bufs + (<size_t>s * CACHE_WAYS + way) * cache.buf_bytes
    cs.clock += 1
    cs.used[way] = cs.clock
    value = packed_read(buf, P.bits, at)
    egdb_unlock(&cs.lock)
    return value
