# The draughts family at C level: rules as a table, the position, moves, make/unmake, on boards
# of up to 64 bits (every variant but Canadian: `_draughts_wide.pxd` is the same code on 128).
# The search (and anything else hot) reaches these through GameOps; Python through DraughtsBoard.
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t
from ._bitboard cimport u64
from ._game cimport GameBoard, GameOps, SMove

ctypedef u64 Bits             # a set of squares, one bit each (geometry.py's layout)

cdef enum:
    NBITS = 64
    MAX_BIT = 64              # squares of a board are bits below this

include "_draughts_types.pxi"

ctypedef struct Move:
    u64 captured
    uint8_t frm
    uint8_t to
    uint8_t promote

cdef inline Bits captured_of(const Move* m) noexcept nogil:
    return m.captured

cdef inline void set_captured(Move* m, Bits c) noexcept nogil:
    m.captured = c

cdef inline int history_slot(int frm, int to) noexcept nogil:
    """The search's history table row (0..4095) of a move between two squares."""
    return frm * 64 + to

cdef inline u64 gather_window(Bits b, int shift) noexcept nogil:
    """The 64 bits of b from `shift` up, where the learned evaluation gathers a region."""
    return b >> shift

include "_draughts_decls.pxi"
