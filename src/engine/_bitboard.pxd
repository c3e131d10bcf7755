# Bit tricks and key generation shared by every rules module (C level, no Python objects).
from libc.stdint cimport uint64_t

ctypedef uint64_t u64

cdef extern from "_bitops.h" nogil:
    int bb_popcount(u64 b)
    int bb_lsb(u64 b)
    int bb_msb(u64 b)
    # 128-bit sets of squares (C's unsigned __int128; Cython converts them to and from Python
    # ints by size, as it does every integer type it is told the name of).
    ctypedef unsigned long long u128
    int wide_popcount(u128 b)
    int wide_lsb(u128 b)
    int wide_msb(u128 b)

cdef inline u64 splitmix64(u64* state) noexcept nogil:
    """Deterministic 64-bit generator for Zobrist keys: the same keys on every machine."""
    state[0] += <u64>0x9E3779B97F4A7C15
    cdef u64 z = state[0]
    z = (z ^ (z >> 30)) * <u64>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <u64>0x94D049BB133111EB
    return z ^ (z >> 31)
