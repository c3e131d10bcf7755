/* Bit tricks used by every rules module. Kept in C so that Cython code calls them as
 * plain inline functions with no Python overhead. */
#ifndef ENGINE_BITOPS_H
#define ENGINE_BITOPS_H
#include <stdint.h>

static inline int bb_popcount(uint64_t b) { return __builtin_popcountll(b); }
/* Index of the lowest / highest set bit; b must not be 0. */
static inline int bb_lsb(uint64_t b) { return __builtin_ctzll(b); }
static inline int bb_msb(uint64_t b) { return 63 - __builtin_clzll(b); }

/* The same on 128 bits (boards wider than 64 squares: Canadian draughts' 12x12). */
typedef unsigned __int128 u128;
static inline int wide_popcount(u128 b) {
    return __builtin_popcountll((uint64_t)b) + __builtin_popcountll((uint64_t)(b >> 64));
}
static inline int wide_lsb(u128 b) {
    uint64_t lo = (uint64_t)b;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}
static inline int wide_msb(u128 b) {
    uint64_t hi = (uint64_t)(b >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)b);
}
#endif
