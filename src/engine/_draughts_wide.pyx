# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The draughts family on boards of more than 64 bits (Canadian draughts, 12x12): the very code
of `_draughts` (move generation, make/unmake, draw rules, evaluation, the search's interface,
the Python board), built on 128-bit sets of squares. No endgame tables: a 12x12 board's are out
of reach, and their index assumes 64 bits."""

from ._bitboard cimport (u64, wide_popcount as bb_popcount, wide_lsb as bb_lsb,
                         wide_msb as bb_msb, splitmix64)

include "_draughts_core.pxi"
include "_draughts_network.pxi"
include "_draughts_eval.pxi"
include "_draughts_ops.pxi"
include "_draughts_board.pxi"
