# Compressed table slices: values packed at a fixed width (2 bits for win/draw/loss, 8 for the
# distances of won positions), cut into blocks of a fixed number of entries, each block a zlib
# stream of its own (so a probe inflates one block, and zlib's Adler-32 check of the stream
# catches a corrupt block). The files are written by engine/egdb.py with Python's zlib and read
# here through zlib's own uncompress(), whose address Python hands over (no header or link-time
# library is needed to build the package). Inflated blocks stay in a small direct-mapped cache
# shared by the search threads; each slot has a spin lock held only while it is read or filled.

from libc.stdint cimport uint32_t, uint64_t

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
    static inline void egdb_count(volatile unsigned long long* counter) {
        __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
    }
    """
    void egdb_lock(volatile int* lock) noexcept nogil
    void egdb_unlock(volatile int* lock) noexcept nogil
    void egdb_count(volatile unsigned long long* counter) noexcept nogil

# zlib: int uncompress(Bytef* dest, uLongf* destLen, const Bytef* source, uLong sourceLen)
ctypedef int (*InflateFn)(unsigned char* dest, unsigned long* dest_len,
                          const unsigned char* source, unsigned long source_len) noexcept nogil

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

ctypedef struct CacheSlot:
    u64 tag                       # id << 32 | block, plus one; 0 = empty
    int lock
    uint8_t* buf

ctypedef struct BlockCache:
    CacheSlot* slots
    int nslots                    # a power of two
    uint32_t buf_bytes            # the largest inflated block a slot holds
    unsigned long long corrupt    # blocks that failed to inflate (zlib's check), ever


cdef BlockCache* cache_new(int nslots, uint32_t buf_bytes) noexcept nogil:
    cdef BlockCache* cache = <BlockCache*>calloc(1, sizeof(BlockCache))
    cdef int i
    if cache == NULL:
        return NULL
    cache.slots = <CacheSlot*>calloc(nslots, sizeof(CacheSlot))
    if cache.slots == NULL:
        free(cache)
        return NULL
    cache.nslots = nslots
    cache.buf_bytes = buf_bytes
    for i in range(nslots):
        cache.slots[i].buf = <uint8_t*>malloc(buf_bytes)
        if cache.slots[i].buf == NULL:
            cache_free(cache)
            return NULL
    return cache


cdef void cache_free(BlockCache* cache) noexcept nogil:
    cdef int i
    if cache == NULL:
        return
    for i in range(cache.nslots):
        free(cache.slots[i].buf)
    free(cache.slots)
    free(cache)


cdef inline int packed_read(const uint8_t* buf, int bits, u64 at) noexcept nogil:
    if bits == 8:
        return buf[at]
    return (buf[at >> 2] >> ((at & 3) * 2)) & 3


cdef int packed_get(const Packed* P, BlockCache* cache, InflateFn inflate, u64 idx) noexcept nogil:
    """Entry idx of a compressed slice, or -1 when its block does not inflate to its size."""
    cdef uint32_t block = <uint32_t>(idx // P.per_block)
    cdef u64 at = idx % P.per_block
    cdef u64 tag = ((<u64>P.id << 32) | block) + 1
    cdef CacheSlot* slot = &cache.slots[(tag * 0x9E3779B97F4A7C15ULL) >> 40 & (cache.nslots - 1)]
    cdef unsigned long size
    cdef int value, err
    egdb_lock(&slot.lock)
    if slot.tag != tag:
        size = cache.buf_bytes
        err = inflate(slot.buf, &size, P.data + P.offsets[block],
                      <unsigned long>(P.offsets[block + 1] - P.offsets[block]))
        if err != 0 or size != (P.block_bytes if block + 1 < P.nblocks else P.last_bytes):
            slot.tag = 0
            egdb_unlock(&slot.lock)
            egdb_count(&cache.corrupt)
            return -1
        slot.tag = tag
    value = packed_read(slot.buf, P.bits, at)
    egdb_unlock(&slot.lock)
    return value
