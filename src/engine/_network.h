/* The network evaluation's arithmetic (see _draughts_network.pxi and network.py), in
 * integers. On x86-64 the usual sizes (a first layer of a multiple of 16 neurons, a second of
 * 8) run AVX2 kernels written with intrinsics where the processor has AVX2 (checked once);
 * other sizes and processors run plain loops, which GCC on x86-64 Linux also builds twice, for
 * AVX2 and the baseline (target_clones). Every path gives the same integers.
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

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define NET_HAVE_AVX2_KERNEL 1
static int net_avx2(void) {
    static int known = -1;
    if (known < 0) known = __builtin_cpu_supports("avx2") ? 1 : 0;
    return known;
}

/* net_rows for h a multiple of 16: each register of 16 sums stays in a register across every
 * row, where the plain loop loads and stores all h sums once a row. */
__attribute__((target("avx2")))
static void net_rows_avx2(int16_t* acc, const int16_t* w1, int h, const int* add, int nadd,
                          const int* sub, int nsub) {
    for (int c = 0; c < h; c += 16) {
        __m256i t = _mm256_loadu_si256((const __m256i*)(acc + c));
        for (int a = 0; a < nadd; a++)
            t = _mm256_add_epi16(t, _mm256_loadu_si256((const __m256i*)(w1 + (long)add[a] * h + c)));
        for (int a = 0; a < nsub; a++)
            t = _mm256_sub_epi16(t, _mm256_loadu_si256((const __m256i*)(w1 + (long)sub[a] * h + c)));
        _mm256_storeu_si256((__m256i*)(acc + c), t);
    }
}
#endif

/* acc[0..h) += the rows add[0..nadd) of w1 (a row is h wide), -= the rows sub[0..nsub). */
NET_CLONES static void net_rows_plain(int16_t* acc, const int16_t* w1, int h, const int* add,
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

static inline void net_rows(int16_t* acc, const int16_t* w1, int h, const int* add, int nadd,
                            const int* sub, int nsub) {
#ifdef NET_HAVE_AVX2_KERNEL
    if ((h & 15) == 0 && net_avx2()) {
        net_rows_avx2(acc, w1, h, add, nadd, sub, nsub);
        return;
    }
#endif
    net_rows_plain(acc, w1, h, add, nadd, sub, nsub);
}

/* Layer 2's sums z[0..h2) (starting from b2) over the 2h clamped inputs h1 (bytes, 0..127,
 * zero past 2h up to a multiple of 4), with the int8 weights grouped by four inputs:
 * w2q[(g * h2 + k) * 4 + i] weighs input 4g + i for neuron k. */
static void net_layer2_plain(const uint8_t* h1, int groups, const int8_t* w2q, int32_t* z,
                             int h2) {
    for (int g = 0; g < groups; g++) {
        const uint8_t* x = h1 + 4 * g;
        const int8_t* row = w2q + (long)g * h2 * 4;
        for (int k = 0; k < h2; k++)
            z[k] += x[0] * row[4 * k] + x[1] * row[4 * k + 1] + x[2] * row[4 * k + 2]
                    + x[3] * row[4 * k + 3];
    }
}

/* The output from layer 2's sums: each shifted down (floor) and clamped to 0..127, weighed. */
static int32_t net_layer3_plain(const int32_t* z, int h2, const int16_t* w3, int32_t b3) {
    int32_t out = b3;
    for (int k = 0; k < h2; k++) {
        int32_t x = z[k] >> NET_SHIFT_C;
        x = x < 0 ? 0 : x > NET_UNIT_C ? NET_UNIT_C : x;
        out += x * (int32_t)w3[k];
    }
    return out;
}

#ifdef NET_HAVE_AVX2_KERNEL
/* Every layer after the first in AVX2, for h a multiple of 16 and h2 of 8: the clamped inputs
 * packed to bytes; layer 2 with one multiply-add of unsigned by signed bytes (vpmaddubsw: two
 * products summed in 16 bits, at most 2 x 127 x 128, so never saturated) and one of those
 * pairs into 32 bits (vpmaddwd by 1), four inputs and eight neurons a step; the output in
 * 32-bit lanes. The same integers as the plain loops. */
__attribute__((target("avx2")))
static int32_t net_output_avx2(const int16_t* us, const int16_t* them, int h,
                               const int8_t* w2q, const int32_t* b2, int h2,
                               const int16_t* w3, int32_t b3) {
    uint8_t h1[2 * NET_CACHE_H] __attribute__((aligned(32)));
    const __m256i zero = _mm256_setzero_si256(), unit = _mm256_set1_epi16(NET_UNIT_C);
    const __m256i ones = _mm256_set1_epi16(1);
    for (int view = 0; view < 2; view++) {
        const int16_t* sums = view ? them : us;
        for (int i = 0; i < h; i += 32) {
            /* The tail of a view of 16 mod 32 packs the next 16 as well: they are not read. */
            __m256i a = _mm256_loadu_si256((const __m256i*)(sums + i));
            __m256i b = i + 16 < h ? _mm256_loadu_si256((const __m256i*)(sums + i + 16)) : zero;
            a = _mm256_min_epi16(_mm256_max_epi16(a, zero), unit);
            b = _mm256_min_epi16(_mm256_max_epi16(b, zero), unit);
            /* packus interleaves the 128-bit lanes: put them back in order. */
            __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
            if (i + 16 < h)
                _mm256_storeu_si256((__m256i*)(h1 + view * h + i), packed);
            else
                _mm_storeu_si128((__m128i*)(h1 + view * h + i), _mm256_castsi256_si128(packed));
        }
    }
    int groups = h / 2;                    /* 2h inputs, four a group (an even number) */
    typedef int32_t net_quad __attribute__((may_alias));   /* four bytes of h1 read as one */
    const net_quad* quads = (const net_quad*)h1;
    __m256i acc[8];
    int nv = h2 / 8;
    if (h2 == 16) {
        /* The usual size in registers: two groups a step, four independent sums. */
        __m256i a0 = _mm256_loadu_si256((const __m256i*)b2);
        __m256i a1 = _mm256_loadu_si256((const __m256i*)(b2 + 8));
        __m256i c0 = zero, c1 = zero;
        for (int g = 0; g < groups; g += 2) {
            __m256i x = _mm256_set1_epi32(quads[g]), y = _mm256_set1_epi32(quads[g + 1]);
            const __m256i* row = (const __m256i*)(w2q + (long)g * 64);
            a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(_mm256_maddubs_epi16(x, _mm256_loadu_si256(row)), ones));
            a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(_mm256_maddubs_epi16(x, _mm256_loadu_si256(row + 1)), ones));
            c0 = _mm256_add_epi32(c0, _mm256_madd_epi16(_mm256_maddubs_epi16(y, _mm256_loadu_si256(row + 2)), ones));
            c1 = _mm256_add_epi32(c1, _mm256_madd_epi16(_mm256_maddubs_epi16(y, _mm256_loadu_si256(row + 3)), ones));
        }
        acc[0] = _mm256_add_epi32(a0, c0);
        acc[1] = _mm256_add_epi32(a1, c1);
    } else {
        for (int v = 0; v < nv; v++) acc[v] = _mm256_loadu_si256((const __m256i*)(b2 + 8 * v));
        for (int g = 0; g < groups; g++) {
            __m256i x = _mm256_set1_epi32(quads[g]);
            const __m256i* row = (const __m256i*)(w2q + (long)g * h2 * 4);
            for (int v = 0; v < nv; v++)
                acc[v] = _mm256_add_epi32(acc[v], _mm256_madd_epi16(
                    _mm256_maddubs_epi16(x, _mm256_loadu_si256(row + v)), ones));
        }
    }
    __m256i total = zero;
    const __m256i top = _mm256_set1_epi32(NET_UNIT_C);
    for (int v = 0; v < nv; v++) {
        __m256i x = _mm256_srai_epi32(acc[v], NET_SHIFT_C);
        x = _mm256_min_epi32(_mm256_max_epi32(x, zero), top);
        __m256i w = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i*)(w3 + 8 * v)));
        total = _mm256_add_epi32(total, _mm256_mullo_epi32(x, w));
    }
    __m128i t = _mm_add_epi32(_mm256_castsi256_si128(total), _mm256_extracti128_si256(total, 1));
    t = _mm_add_epi32(t, _mm_shuffle_epi32(t, 0x4E));
    t = _mm_add_epi32(t, _mm_shuffle_epi32(t, 0xB1));
    return b3 + _mm_cvtsi128_si32(t);
}
#endif

/* The layers after the first: the side to move's sums `us` and the other's `them` (h each),
 * clamped to 0..127; layer 2 (w2q: see net_layer2_plain), shifted and clamped; the output. */
static int32_t net_output(const int16_t* us, const int16_t* them, int h, const int8_t* w2q,
                          const int32_t* b2, int h2, const int16_t* w3, int32_t b3) {
#ifdef NET_HAVE_AVX2_KERNEL
    if (h % 16 == 0 && h2 % 8 == 0 && net_avx2())
        return net_output_avx2(us, them, h, w2q, b2, h2, w3, b3);
#endif
    uint8_t h1[2 * NET_CACHE_H + 4];
    int32_t z[64];
    for (int i = 0; i < h; i++) {
        int16_t v = us[i];
        h1[i] = (uint8_t)(v < 0 ? 0 : v > NET_UNIT_C ? NET_UNIT_C : v);
    }
    for (int i = 0; i < h; i++) {
        int16_t v = them[i];
        h1[h + i] = (uint8_t)(v < 0 ? 0 : v > NET_UNIT_C ? NET_UNIT_C : v);
    }
    for (int i = 2 * h; i < 2 * h + 4; i++) h1[i] = 0;
    for (int k = 0; k < h2; k++) z[k] = b2[k];
    net_layer2_plain(h1, (2 * h + 3) / 4, w2q, z, h2);
    return net_layer3_plain(z, h2, w3, b3);
}
#endif
