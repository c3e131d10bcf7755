# The transposition table: buckets of four entries on one cache line, written without locks.
# Included by _search.pyx.

cdef inline int score_to_tt(int score, int ply) noexcept nogil:
    if score >= TABLE_BOUND:
        return score + ply
    if score <= -TABLE_BOUND:
        return score - ply
    return score


cdef inline int score_from_tt(int score, int ply) noexcept nogil:
    if score >= TABLE_BOUND:
        return score - ply
    if score <= -TABLE_BOUND:
        return score + ply
    return score


cdef inline u64 tt_data(const TTEntry* e) noexcept nogil:
    """The entry's 8 bytes after the key, as one word."""
    return (<const u64*>e)[1]


cdef inline TTEntry* tt_bucket(Search* S, u64 key) noexcept nogil:
    """The bucket (BUCKET entries, one cache line) where a position's entry lives."""
    return &S.tt[(key & S.tt_mask) * BUCKET]


cdef inline u64* busy_slot_of(Search* S, u64 key) noexcept nogil:
    """The entry of the threads' table of busy positions where a position is marked."""
    return &S.busy[key & (BUSY_SIZE - 1)]


cdef inline TTEntry* tt_probe(Search* S, u64 key) noexcept nogil:
    cdef TTEntry* bucket = tt_bucket(S, key)
    cdef int i
    for i in range(BUCKET):
        if (bucket[i].key ^ tt_data(&bucket[i])) == key and bucket[i].bound:
            return &bucket[i]
    return NULL


cdef inline void tt_store(Search* S, u64 key, int score, int depth, int bound, int move,
                          int ply) noexcept nogil:
    """Replace the same position, else the shallowest entry, preferring stale generations."""
    cdef TTEntry* bucket = tt_bucket(S, key)
    cdef TTEntry* victim = &bucket[0]
    cdef int i, worth, best_worth = 1 << 30
    for i in range(BUCKET):
        if (bucket[i].key ^ tt_data(&bucket[i])) == key:
            victim = &bucket[i]
            if move == NO_MOVE:
                move = bucket[i].move          # keep the old best move of this position
            break
        worth = bucket[i].depth - (32 if bucket[i].generation != S.generation else 0)
        if worth < best_worth:
            best_worth = worth
            victim = &bucket[i]
    victim.score = <int16_t>score_to_tt(score, ply)
    victim.depth = <uint8_t>(depth if depth > 0 else 0)
    victim.bound = <uint8_t>bound
    victim.move = <uint8_t>move
    victim.generation = S.generation
    victim.pad = 0
    victim.key = key ^ tt_data(victim)
