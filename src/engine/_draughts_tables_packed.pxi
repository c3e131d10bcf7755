# Compressed table slices: values packed at a fixed width (2 bits for win/draw/loss, 8 for the
# distances of won positions), cut into blocks of a fixed number of entries, each block
# compressed on its own (so a probe decodes one block) and given a 32-bit check of its stored
# bytes (so a corrupt block is never read as values). Win/draw/loss blocks are LZ4 (the search
# decodes these: in its cold case decoding zlib blocks was the whole of what compressed tables
# cost against raw ones, and LZ4 decodes several times faster; docs/egdb.md); distance blocks,
# read only to answer Tables.probe, solve and verify, are zstd, which
# packs them a sixth smaller than zlib did. The files are written by engine/egdb/codecs.py; both
# libraries are the system's (liblz4, libzstd), their functions' addresses handed over from
# Python, so no header or link-time library is needed to build the package.
#
# Decoded blocks stay in a cache shared by the search threads: sets of CACHE_WAYS blocks, a
# block's set chosen by a hash of its slice and number, the least recently read block of a set
# replaced. A search from a 6-7 piece position touches tens of thousands of blocks, and a
# game's next search most of the same ones, so the cache is large (64 MB) and misses mostly
# blocks never read before: like the hash table, its memory is made resident (on huge pages
# where the system allows) when the tables are loaded. Each set has a spin lock held only
# while it is read or filled.

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
    /* A cache set's version, odd while a block is written into it: a reader that sees the
     * same even version before and after its reads read a block as it stood (a seqlock). */
    static inline unsigned egdb_seq_begin(const volatile unsigned* version) {
        return __atomic_load_n(version, __ATOMIC_ACQUIRE);
    }
    static inline int egdb_seq_same(const volatile unsigned* version, unsigned start) {
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        return __atomic_load_n(version, __ATOMIC_RELAXED) == start;
    }
    static inline void egdb_seq_bump(volatile unsigned* version) {
        __atomic_store_n(version, *version + 1, __ATOMIC_RELEASE);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
    /* A read block made the set's most recent, without a lock: a lost update only makes the
     * replacement a little less exact. */
    static inline void egdb_touch(volatile unsigned* clock, volatile unsigned* used) {
        unsigned now = __atomic_load_n(clock, __ATOMIC_RELAXED) + 1;
        __atomic_store_n(clock, now, __ATOMIC_RELAXED);
        __atomic_store_n(used, now, __ATOMIC_RELAXED);
    }
    /* The check of a block's stored bytes: two lanes of multiply-and-fold over 8-byte words
     * (each step a bijection of the lane, so any one changed word changes the result), folded
     * to 32 bits. About 0.1 us for a 1 kB block; the writer calls the same function. */
    static inline unsigned int egdb_block_check(const unsigned char* p, size_t n) {
        const unsigned long long K = 0x9E3779B97F4A7C15ULL;
        unsigned long long a = 0x243F6A8885A308D3ULL ^ n, b = 0x13198A2E03707344ULL, w;
        size_t i = 0;
        for (; i + 16 <= n; i += 16) {
            __builtin_memcpy(&w, p + i, 8);
            a = (a ^ w) * K; a ^= a >> 29;
            __builtin_memcpy(&w, p + i + 8, 8);
            b = (b ^ w) * K; b ^= b >> 29;
        }
        for (; i < n; i++) {
            a = (a ^ p[i]) * K; a ^= a >> 29;
        }
        a = (a ^ (b * K)) * K;
        return (unsigned int)(a ^ (a >> 32));
    }
    """
    void egdb_lock(volatile int* lock) noexcept nogil
    void egdb_unlock(volatile int* lock) noexcept nogil
    int egdb_try_lock(volatile int* lock) noexcept nogil
    void egdb_count(volatile unsigned long long* counter) noexcept nogil
    unsigned egdb_seq_begin(const unsigned* version) noexcept nogil
    int egdb_seq_same(const unsigned* version, unsigned start) noexcept nogil
    void egdb_seq_bump(unsigned* version) noexcept nogil
    void egdb_touch(unsigned* clock, unsigned* used) noexcept nogil
    uint32_t egdb_block_check(const uint8_t* p, size_t n) noexcept nogil

# liblz4: int LZ4_decompress_safe(const char* src, char* dst, int srcSize, int dstCapacity),
# the bytes written or a negative number for a malformed block.
ctypedef int (*Lz4DecodeFn)(const char* source, char* dest, int source_len,
                            int dest_len) noexcept nogil
# libzstd: size_t ZSTD_decompressDCtx(ZSTD_DCtx*, void* dst, size_t dstCapacity,
# const void* src, size_t srcSize), an error code that ZSTD_isError() tells apart; a context
# serves one call at a time.
ctypedef size_t (*ZstdDecodeFn)(void* context, void* dest, size_t dest_len, const void* source,
                                size_t source_len) noexcept nogil
ctypedef unsigned (*ZstdIsErrorFn)(size_t code) noexcept nogil
ctypedef void* (*ZstdNewFn)() noexcept nogil
ctypedef size_t (*ZstdFreeFn)(void* context) noexcept nogil

cdef enum:
    CODEC_LZ4 = 1
    CODEC_ZSTD = 2
    ZSTD_CONTEXTS = 8             # zstd contexts, for threads decoding distances at once

ctypedef struct Decoders:
    Lz4DecodeFn lz4
    ZstdDecodeFn zstd
    ZstdIsErrorFn zstd_is_error
    ZstdFreeFn zstd_free
    void* contexts[ZSTD_CONTEXTS]
    int locks[ZSTD_CONTEXTS]


cdef void free_decoders(Decoders* dec) noexcept nogil:
    cdef int i
    for i in range(ZSTD_CONTEXTS):
        if dec.contexts[i] != NULL:
            dec.zstd_free(dec.contexts[i])
            dec.contexts[i] = NULL
    dec.lz4 = NULL
    dec.zstd = NULL


ctypedef struct Packed:
    const uint8_t* data           # the blocks, one after another
    const uint64_t* offsets       # block b is data[offsets[b] : offsets[b + 1]]
    const uint32_t* checks        # egdb_block_check of each block's bytes
    int codec                     # CODEC_LZ4 or CODEC_ZSTD
    u64 entries
    uint32_t per_block            # entries per block
    uint32_t nblocks
    uint32_t block_bytes          # bytes of a decoded block
    uint32_t last_bytes           # bytes of the last one
    int bits                      # 2 or 8
    int id                        # tells this slice's blocks apart in the cache
    u64 half                      # entries stored by side to move: entry idx is at
                                  # idx / 2 (even: White to move) or half + idx / 2 (odd);
                                  # 0: stored in index order (files before DIMTBZ03)

cdef enum:
    CACHE_WAYS = 8                # blocks of a set

ctypedef struct CacheSet:
    u64 tag[CACHE_WAYS]           # id << 32 | block, plus one; 0 = empty
    uint32_t used[CACHE_WAYS]     # the set's clock when each was last read
    uint32_t clock
    int lock                      # writers (a miss) hold it
    unsigned version              # see egdb_seq_begin: readers of a held block take no lock

ctypedef struct BlockCache:
    CacheSet* sets
    uint8_t* bufs                 # nsets * CACHE_WAYS buffers of buf_bytes, set by set
    int nsets                     # a power of two
    uint32_t buf_bytes            # the largest decoded block a slot holds
    unsigned long long corrupt    # blocks whose check failed or that did not decode, ever
    unsigned long long decoded    # blocks decoded, ever (the cache's misses)


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


cdef int decode_block(const Packed* P, Decoders* dec, uint32_t block, uint8_t* dest,
                      size_t room) noexcept nogil:
    """Decode block `block` of P into dest: 0 when its check agrees and it decodes to its
    size, -1 otherwise (a corrupt block)."""
    cdef const uint8_t* source = P.data + P.offsets[block]
    cdef size_t n = <size_t>(P.offsets[block + 1] - P.offsets[block])
    cdef size_t want = P.block_bytes if block + 1 < P.nblocks else P.last_bytes
    cdef size_t got
    cdef int i, written
    if egdb_block_check(source, n) != P.checks[block]:
        return -1
    if P.codec == CODEC_LZ4:                    # the bytes written, or < 0 for a bad block
        written = dec.lz4(<const char*>source, <char*>dest, <int>n, <int>room)
        return 0 if written >= 0 and <size_t>written == want else -1
    while True:                                 # a free zstd context (decoding takes < 1 ms)
        for i in range(ZSTD_CONTEXTS):
            if egdb_try_lock(&dec.locks[i]):
                got = dec.zstd(dec.contexts[i], dest, room, source, n)
                egdb_unlock(&dec.locks[i])
                return 0 if not dec.zstd_is_error(got) and got == want else -1


cdef inline int packed_read(const uint8_t* buf, int bits, u64 at) noexcept nogil:
    if bits == 8:
        return buf[at]
    return (buf[at >> 2] >> ((at & 3) * 2)) & 3


cdef int packed_get(const Packed* P, BlockCache* cache, Decoders* dec, u64 idx) noexcept nogil:
    """Entry idx of a compressed slice, or -1 when its block is corrupt."""
    if P.half:
        idx = (idx >> 1) + (idx & 1) * P.half
    cdef uint32_t block = <uint32_t>(idx // P.per_block)
    cdef u64 at = idx % P.per_block
    cdef u64 tag = ((<u64>P.id << 32) | block) + 1
    cdef int s = <int>((tag * 0x9E3779B97F4A7C15ULL) >> 32) & (cache.nsets - 1)
    cdef CacheSet* cs = &cache.sets[s]
    cdef uint8_t* buf
    cdef int value, way, w
    cdef unsigned start = egdb_seq_begin(&cs.version)
    if not (start & 1):                         # a held block is read without the lock
        for w in range(CACHE_WAYS):
            if cs.tag[w] == tag:
                buf = cache.bufs + (<size_t>s * CACHE_WAYS + w) * cache.buf_bytes
                value = packed_read(buf, P.bits, at)
                if egdb_seq_same(&cs.version, start):
                    egdb_touch(&cs.clock, &cs.used[w])
                    return value
                break
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
        egdb_count(&cache.decoded)
        egdb_seq_bump(&cs.version)              # odd: readers without the lock retry
        cs.tag[way] = 0
        if decode_block(P, dec, block, buf, cache.buf_bytes) != 0:
            cs.used[way] = 0
            egdb_seq_bump(&cs.version)
            egdb_unlock(&cs.lock)
            egdb_count(&cache.corrupt)
            return -1
        cs.tag[way] = tag
        egdb_seq_bump(&cs.version)
    else:
        buf = cache.bufs + (<size_t>s * CACHE_WAYS + way) * cache.buf_bytes
    cs.clock += 1
    cs.used[way] = cs.clock
    value = packed_read(buf, P.bits, at)
    egdb_unlock(&cs.lock)
    return value
