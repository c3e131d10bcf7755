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

/* Layer 2's sums z[0..h2) (starting from b2) over the 2h clamped inputs h1, with the weights
 * interleaved by pairs of inputs: w2p[(p * h2 + k) * 2 + j] weighs input 2p + j for neuron k. */
static void net_layer2_plain(const int16_t* h1, int h, const int16_t* w2p, int32_t* z, int h2) {
    for (int p = 0; p < h; p++) {
        int32_t a = h1[2 * p], b = h1[2 * p + 1];
        const int16_t* row = w2p + (long)p * h2 * 2;
        for (int k = 0; k < h2; k++) z[k] += a * row[2 * k] + b * row[2 * k + 1];
    }
}

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define NET_HAVE_AVX2_KERNEL 1
/* The same sums, eight neurons a register: one multiply-add of 16-bit pairs (vpmaddwd) per
 * pair of inputs and eight neurons. h2 must be a multiple of 8. */
__attribute__((target("avx2")))
static void net_layer2_avx2(const int16_t* h1, int h, const int16_t* w2p, int32_t* z, int h2) {
    if (h2 == 16) {
        /* The usual size, unrolled: two pairs of inputs a step, four independent sums. */
        __m256i a0 = _mm256_loadu_si256((const __m256i*)z), a1 = _mm256_loadu_si256((const __m256i*)(z + 8));
        __m256i c0 = _mm256_setzero_si256(), c1 = _mm256_setzero_si256();
        const uint32_t* pairs = (const uint32_t*)h1;        /* 2h int16 = h 32-bit pairs */
        int p = 0;
        for (; p + 1 < h; p += 2) {
            __m256i x = _mm256_set1_epi32((int32_t)pairs[p]);
            __m256i y = _mm256_set1_epi32((int32_t)pairs[p + 1]);
            const __m256i* row = (const __m256i*)(w2p + (long)p * 32);
            a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(x, _mm256_loadu_si256(row)));
            a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(x, _mm256_loadu_si256(row + 1)));
            c0 = _mm256_add_epi32(c0, _mm256_madd_epi16(y, _mm256_loadu_si256(row + 2)));
            c1 = _mm256_add_epi32(c1, _mm256_madd_epi16(y, _mm256_loadu_si256(row + 3)));
        }
        for (; p < h; p++) {
            __m256i x = _mm256_set1_epi32((int32_t)pairs[p]);
            const __m256i* row = (const __m256i*)(w2p + (long)p * 32);
            a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(x, _mm256_loadu_si256(row)));
            a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(x, _mm256_loadu_si256(row + 1)));
        }
        _mm256_storeu_si256((__m256i*)z, _mm256_add_epi32(a0, c0));
        _mm256_storeu_si256((__m256i*)(z + 8), _mm256_add_epi32(a1, c1));
        return;
    }
    __m256i acc[8];
    int nv = h2 / 8;
    for (int v = 0; v < nv; v++) acc[v] = _mm256_loadu_si256((const __m256i*)(z + 8 * v));
    for (int p = 0; p < h; p++) {
        uint32_t pair = (uint16_t)h1[2 * p] | ((uint32_t)(uint16_t)h1[2 * p + 1] << 16);
        __m256i x = _mm256_set1_epi32((int32_t)pair);
        const __m256i* row = (const __m256i*)(w2p + (long)p * h2 * 2);
        for (int v = 0; v < nv; v++)
            acc[v] = _mm256_add_epi32(acc[v], _mm256_madd_epi16(x, _mm256_loadu_si256(row + v)));
    }
    for (int v = 0; v < nv; v++) _mm256_storeu_si256((__m256i*)(z + 8 * v), acc[v]);
}

static int net_avx2(void) {
    static int known = -1;
    if (known < 0) known = __builtin_cpu_supports("avx2") ? 1 : 0;
    return known;
}
#endif

/* The layers after the first: the side to move's sums `us` and the other's `them` (h each),
 * clamped; layer 2 (weights interleaved by pairs of inputs, see net_layer2_plain), shifted and
 * clamped; the output. */
NET_CLONES static int32_t net_output(const int16_t* us, const int16_t* them, int h,
                                     const int16_t* w2p, const int32_t* b2, int h2,
                                     const int16_t* w3, int32_t b3) {
    int16_t h1[2 * NET_CACHE_H];
    int32_t z[64];
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
    for (int k = 0; k < h2; k++) z[k] = b2[k];
#ifdef NET_HAVE_AVX2_KERNEL
    if (h2 % 8 == 0 && net_avx2())
        net_layer2_avx2(h1, h, w2p, z, h2);
    else
#endif
        net_layer2_plain(h1, h, w2p, z, h2);
    int32_t out = b3;
    for (int k = 0; k < h2; k++) {
        int32_t x = z[k] >> NET_SHIFT_C;
        x = x < 0 ? 0 : x > NET_UNIT_C ? NET_UNIT_C : x;
        out += x * (int32_t)w3[k];
    }
    return out;
}
#endif
