# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The draughts family on boards of up to 64 bits (every variant but Canadian): move generation,
make/unmake, the draw rules, the evaluation, the search's interface, the Python board and the
endgame tables. The code is shared with `_draughts_wide` (128 bits); this file only picks the
bit functions for 64-bit sets of squares."""

from ._bitboard cimport u64, bb_popcount, bb_lsb, bb_msb, splitmix64

include "_draughts_core.pxi"
include "_draughts_network.pxi"
include "_draughts_eval.pxi"
include "_draughts_ops.pxi"
include "_draughts_board.pxi"
include "_draughts_tables.pxi"
