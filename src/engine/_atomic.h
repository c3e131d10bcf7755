/* What the search threads share besides the transposition table: a flag that one thread sets in
 * another only if nothing else set it first (compare-and-swap), and a spin lock held for the few
 * microseconds a helper takes to copy a finished iteration into the main search. The table itself
 * needs neither (its entries are checked by key, see _search.pyx). An endgame table build's
 * threads settle the predecessors of one distance's positions together: a byte's count taken
 * down by one, and a value (a byte, or two) replaced only if it still holds what was read. */
#ifndef ENGINE_ATOMIC_H
#define ENGINE_ATOMIC_H

#if defined(_MSC_VER)
#include <intrin.h>
static inline int atomic_cas_int(volatile int* p, int expected, int desired) {
    return _InterlockedCompareExchange((volatile long*)p, desired, expected) == expected;
}
static inline void spin_lock(volatile int* p) {
    while (_InterlockedExchange((volatile long*)p, 1))
        while (*p) {}
}
static inline void spin_unlock(volatile int* p) { _InterlockedExchange((volatile long*)p, 0); }
static inline unsigned char atomic_dec_u8(volatile unsigned char* p) {
    return (unsigned char)(_InterlockedExchangeAdd8((volatile char*)p, -1) - 1);
}
static inline int atomic_cas_u8(volatile unsigned char* p, unsigned char expected,
                                unsigned char desired) {
    return (unsigned char)_InterlockedCompareExchange8((volatile char*)p, (char)desired,
                                                       (char)expected) == expected;
}
static inline int atomic_cas_u16(volatile unsigned short* p, unsigned short expected,
                                 unsigned short desired) {
    return (unsigned short)_InterlockedCompareExchange16((volatile short*)p, (short)desired,
                                                         (short)expected) == expected;
}
#else
/* GCC and Clang builtins: full barriers, so what was written under the lock is seen after it. */
static inline int atomic_cas_int(volatile int* p, int expected, int desired) {
    return __sync_bool_compare_and_swap(p, expected, desired);
}
static inline void spin_lock(volatile int* p) {
    while (__sync_lock_test_and_set(p, 1))
        while (*p) {}
}
static inline void spin_unlock(volatile int* p) { __sync_lock_release(p); }
static inline unsigned char atomic_dec_u8(volatile unsigned char* p) {
    return __sync_sub_and_fetch(p, 1);
}
static inline int atomic_cas_u8(volatile unsigned char* p, unsigned char expected,
                                unsigned char desired) {
    return __sync_bool_compare_and_swap(p, expected, desired);
}
static inline int atomic_cas_u16(volatile unsigned short* p, unsigned short expected,
                                 unsigned short desired) {
    return __sync_bool_compare_and_swap(p, expected, desired);
}
#endif
#endif
