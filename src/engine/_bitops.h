/* Bit tricks used by every rules module. Kept in C so that Cython code calls them as
 * plain inline functions with no Python overhead. */
#ifndef ENGINE_BITOPS_H
#define ENGINE_BITOPS_H
#include <stdint.h>

static inline int bb_popcount(uint64_t b) { return __builtin_popcountll(b); }
/* Index of the lowest / highest set bit; b must not be 0. */
static inline int bb_lsb(uint64_t b) { return __builtin_ctzll(b); }
static inline int bb_msb(uint64_t b) { return 63 - __builtin_clzll(b); }
#endif
