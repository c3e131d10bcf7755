/* The network evaluation's arithmetic (see _draughts_network.pxi and network.py): integer
 * loops over fixed-stride rows that the compiler vectorises. Where GCC targets x86-64 Linux,
 * each kernel is built twice, for AVX2 and for the baseline, and the processor picks one when
 * the module loads (target_clones): the same integers either way.
 *
 * Each thread keeps the first layer's sums of the last position it evaluated (both colours'
 * views) with that position's pieces: the next evaluation, usually a few moves away in the
 * search tree, adds and subtracts the rows of the pieces that differ instead of summing every
 * piece again. */
#ifndef ENGINE_NETWORK_H
#define ENGINE_NETWORK_H
#include <stdint.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define NET_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define NET_CLONES
#endif

#define NET_CACHE_H 512          /* as NET_MAX_H */
#define NET_UNIT_C 127           /* a clamped activation of 1.0 */
#define NET_SHIFT_C 6            /* layers 2 and 3 weigh in 1/64 units */

typedef struct {
    const void* rules;           /* the variant's rules the sums belong to (NULL: none yet) */
    uint64_t generation;         /* ... and the network installed then */
    uint64_t planes[4][2];       /* White's men, White's kings, Black's men, Black's kings */
    int16_t acc[2][NET_CACHE_H]; /* layer 1's sums: White's view, Black's view */
} NetCache;

static __thread NetCache net_thread_cache;

static inline NetCache* net_cache(void) { return &net_thread_cache; }

/* acc[0..h) += the rows add[0..nadd) of w1 (a row is h wide), -= the rows sub[0..nsub). */
NET_CLONES static void net_rows(int16_t* acc, const int16_t* w1, int h, const int* add,
                                int nadd, const int* sub, int nsub) {
    for (int a = 0; a < nadd; a++) {
        const int16_t* row = w1 + (long)add[a] * h;
        for (int j = 0; j < h; j++) acc[j] = (int16_t)(acc[j] + row[j]);
    }
    for (int a = 0; a < nsub; a++) {
        const int16_t* row = w1 + (long)sub[a] * h;
        for (int j = 0; j < h; j++) acc[j] = (int16_t)(acc[j] - row[j]);
    }
}

/* The layers after the first: the side to move's sums `us` and the other's `them` (h each),
 * clamped; layer 2 (w2: h2 rows of 2h int16 weights), shifted and clamped; the output. */
NET_CLONES static int32_t net_output(const int16_t* us, const int16_t* them, int h,
                                     const int16_t* w2, const int32_t* b2, int h2,
                                     const int16_t* w3, int32_t b3) {
    int16_t h1[2 * NET_CACHE_H];
    /* Two plain loops of int16 min/max: each vectorises (one mixing both views would not). */
    for (int i = 0; i < h; i++) {
        int16_t v = us[i];
        v = v < 0 ? 0 : v;
        h1[i] = v > NET_UNIT_C ? NET_UNIT_C : v;
    }
    for (int i = 0; i < h; i++) {
        int16_t v = them[i];
        v = v < 0 ? 0 : v;
        h1[h + i] = v > NET_UNIT_C ? NET_UNIT_C : v;
    }
    int32_t out = b3;
    for (int k = 0; k < h2; k++) {
        const int16_t* w = w2 + (long)k * 2 * h;
        int32_t z = b2[k];
        for (int i = 0; i < 2 * h; i++) z += (int32_t)h1[i] * (int32_t)w[i];
        int32_t x = z >> NET_SHIFT_C;
        x = x < 0 ? 0 : x > NET_UNIT_C ? NET_UNIT_C : x;
        out += x * (int32_t)w3[k];
    }
    return out;
}
#endif
