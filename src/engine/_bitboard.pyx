# cython: language_level=3
"""Python-visible helpers over the shared bit layer (used by tools and tests, never by hot code)."""

from ._bitboard cimport u64, bb_popcount, bb_lsb, splitmix64


def popcount(u64 b) -> int:
    return bb_popcount(b)


def bits(u64 b) -> list:
    """The indices of the set bits of ``b``, lowest first."""
    out = []
    while b:
        out.append(bb_lsb(b))
        b &= b - 1
    return out


def zobrist_sequence(u64 seed, int count) -> list:
    """The first ``count`` keys that the rules modules draw from ``seed``."""
    cdef u64 state = seed
    return [splitmix64(&state) for _ in range(count)]
