# The draughts family's code (`_draughts_core.pxi` and the files it names) built on 128-bit sets
# of squares, for boards of more than 64 playable squares: Canadian draughts' 12x12 (72
# squares, bits 0-76 in geometry.py's layout). `_draughts.pxd` is the same on 64 bits.
from libc.stdint cimport uint8_t, int8_t, int16_t, uint16_t, int32_t
from ._bitboard cimport u64, u128
from ._game cimport GameBoard, GameOps, SMove

ctypedef u128 Bits

cdef enum:
    NBITS = 128
    MAX_BIT = 78              # history_slot and Move's captured set hold squares below this

include "_draughts_types.pxi"

# The search's moves are 16 bytes: the captured set as 64 + 16 bits.
ctypedef struct Move:
    u64 captured_lo
    uint16_t captured_hi
    uint8_t frm
    uint8_t to
    uint8_t promote

cdef inline Bits captured_of(const Move* m) noexcept nogil:
    return (<Bits>m.captured_hi << 64) | m.captured_lo

cdef inline void set_captured(Move* m, Bits c) noexcept nogil:
    m.captured_lo = <u64>c
    m.captured_hi = <uint16_t>(c >> 64)

cdef inline int history_slot(int frm, int to) noexcept nogil:
    """The search's history table row (0..4095): squares below 78, so frm * 52 + to < 4096."""
    return frm * 52 + to

cdef inline u64 gather_window(Bits b, int shift) noexcept nogil:
    """The 64 bits of b from `shift` up, where the learned evaluation gathers a region."""
    return <u64>(b >> shift)

include "_draughts_decls.pxi"
