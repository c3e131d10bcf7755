# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Stack games: Dipole on 8×8 and 10×10 (RULES.md §8).

A position is two bitboards of stacks (on the dark squares, in the same layout as the draughts
boards, see geometry.py) and a height per square. A move takes the top n checkers of a stack
exactly n squares along a line (light squares count, so straight moves need an even n):
forward or diagonally forward onto an empty square or an own stack, off the board (bear-off),
or in any of 8 directions onto an enemy stack no taller than n (capture). With no such move the
player passes. The target square of every (direction, square, distance) is precomputed.
"""

from libc.stdint cimport uint8_t, uint16_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memset, memcpy

import numpy as np

from ._bitboard cimport u64, bb_popcount, bb_lsb, splitmix64
from ._game cimport (GameBoard, GameOps, ProbeSource, SMove, RULE_NONE, RULE_DRAW, RULE_LOSS, RULE_WIN,
                     SEARCH_MAX_MOVES, UNDO_MAX, POS_MAX, Feature, LinearEval, LINEAR_MAX_FEATURES,
                     linear_value, register_perft_stop)

from .errors import IllegalMoveError, InvalidFenError, UnknownVariantError, is_digits
from .geometry import algebraic, build_geometry
from .types import Color, Outcome, Termination
from .rulesets import STACK_VARIANTS
from .evaluation import STACK_WEIGHTS

cdef enum:
    MAXH = 20               # the tallest possible stack: every checker of a side
    NSD = 8                 # directions: 4 diagonal, then 4 straight
    OFF = 254               # the line leaves the board
    BAD = 255               # odd straight distance: would end on a light square
    KIND_MOVE = 0           # basic move or merge
    KIND_CAPTURE = 1
    KIND_OFF = 2
    KIND_PASS = 3
    MAX_STACK_VARIANTS = 4

# Unit steps of the 8 directions as (file, rank); the last four are straight lines.
cdef int DF[8]
cdef int DR[8]
DF[:] = [1, -1, 1, -1, 0, 0, 1, -1]
DR[:] = [1, 1, -1, -1, 1, -1, 0, 0]

ctypedef struct Rules:
    int size
    int nsq
    int total                               # checkers per side at the start
    uint8_t dest[NSD][64][MAXH + 1]         # target bit, OFF or BAD
    int forward[2][NSD]                     # 1 if the direction is forward for the side
    int advance[2][64]                      # rows from the side's own first row
    int seen[2][64]                         # the square as the side sees the board (0..nsq-1)
    LinearEval* learned                     # the learned evaluation's weights (rows 0: none)
    int w_checker
    int w_advance
    int w_attacked
    int w_stack
    int w_mobility

ctypedef struct Pos:
    u64 stacks[2]
    u64 key
    int stm
    uint8_t height[64]

ctypedef struct Move:
    uint8_t frm
    uint8_t to
    uint8_t n
    uint8_t kind
    uint8_t pad[12]           # every family's move is exactly one SMove (16 bytes) wide

ctypedef struct Undo:
    u64 key
    uint8_t captured

cdef Rules RULES[MAX_STACK_VARIANTS]
cdef GameOps OPS[MAX_STACK_VARIANTS]
cdef LinearEval LEARNED[MAX_STACK_VARIANTS]
cdef u64 ZS[2][64][MAXH + 1]
cdef u64 ZS_SIDE


cdef void _init_keys():
    cdef u64 state = 0x5374616B73446970    # fixed seed, distinct from the draughts keys
    cdef int s, b, h
    for s in range(2):
        for b in range(64):
            for h in range(MAXH + 1):
                ZS[s][b][h] = splitmix64(&state)
    global ZS_SIDE
    ZS_SIDE = splitmix64(&state)


_init_keys()


# ---------------------------------------------------------------------------------------------
# Generation, make, unmake

cdef inline int add(Move* out, int n, int frm, int to, int count, int kind) noexcept nogil:
    """Write a move at index n (or only count it when out is NULL); returns the new count."""
    if out == NULL:
        return n + 1
    if n < SEARCH_MAX_MOVES:
        out[n].frm = <uint8_t>frm
        out[n].to = <uint8_t>to
        out[n].n = <uint8_t>count
        out[n].kind = <uint8_t>kind
        return n + 1
    return n


cdef int side_moves(const Rules* R, const Pos* p, int side, Move* out,
                    int captures_only) noexcept nogil:
    """The moves of `side` (as if it were to move) without the pass: written to out, or only
    counted when out is NULL."""
    cdef int n = 0, s, h, d, k, t
    cdef u64 ss = p.stacks[side], enemy = p.stacks[side ^ 1], tb
    cdef unsigned int offmask
    while ss:
        s = bb_lsb(ss)
        ss &= ss - 1
        h = p.height[s]
        offmask = 0
        for d in range(NSD):
            for k in range(1, h + 1):
                t = R.dest[d][s][k]
                if t == BAD:
                    continue
                if t == OFF:
                    if R.forward[side][d]:
                        offmask |= 1u << k
                    continue
                tb = (<u64>1) << t
                if tb & enemy:
                    if p.height[t] <= k:
                        n = add(out, n, s, t, k, KIND_CAPTURE)
                elif R.forward[side][d] and not captures_only:
                    n = add(out, n, s, t, k, KIND_MOVE)
        if not captures_only:
            # Leaving the board: one move per number of checkers, whatever the edge.
            while offmask:
                k = bb_lsb(offmask)
                offmask &= offmask - 1
                n = add(out, n, s, OFF, k, KIND_OFF)
    return n


cdef int generate(const Rules* R, const Pos* p, Move* out, int captures_only) noexcept nogil:
    """Legal moves (only captures if captures_only). No move at all once a side has no checkers;
    otherwise `pass` when nothing else is legal."""
    cdef int n
    if p.stacks[0] == 0 or p.stacks[1] == 0:
        return 0
    n = side_moves(R, p, p.stm, out, captures_only)
    if n == 0 and not captures_only:
        n = add(out, n, 0, 0, 0, KIND_PASS)
    return n


cdef void make(const Rules* R, Pos* p, const Move* m, Undo* u) noexcept nogil:
    cdef int us = p.stm, them = us ^ 1, h, rest, old
    cdef u64 key = p.key
    u.key = p.key
    u.captured = 0
    if m.kind != KIND_PASS:
        h = p.height[m.frm]
        rest = h - m.n
        key ^= ZS[us][m.frm][h] ^ ZS[us][m.frm][rest]
        p.height[m.frm] = <uint8_t>rest
        if rest == 0:
            p.stacks[us] &= ~((<u64>1) << m.frm)
        if m.kind == KIND_CAPTURE:
            u.captured = p.height[m.to]
            key ^= ZS[them][m.to][u.captured] ^ ZS[them][m.to][0] ^ ZS[us][m.to][m.n] ^ ZS[us][m.to][0]
            p.stacks[them] &= ~((<u64>1) << m.to)
            p.stacks[us] |= (<u64>1) << m.to
            p.height[m.to] = m.n
        elif m.kind == KIND_MOVE:
            old = p.height[m.to] if (p.stacks[us] >> m.to) & 1 else 0
            key ^= ZS[us][m.to][old] ^ ZS[us][m.to][old + m.n]
            p.height[m.to] = <uint8_t>(old + m.n)
            p.stacks[us] |= (<u64>1) << m.to
    p.key = key ^ ZS_SIDE
    p.stm = them


cdef void unmake(const Rules* R, Pos* p, const Move* m, const Undo* u) noexcept nogil:
    cdef int us = p.stm ^ 1, them = p.stm
    p.stm = us
    p.key = u.key
    if m.kind == KIND_PASS:
        return
    if m.kind == KIND_CAPTURE:
        p.stacks[us] &= ~((<u64>1) << m.to)
        p.stacks[them] |= (<u64>1) << m.to
        p.height[m.to] = u.captured
    elif m.kind == KIND_MOVE:
        p.height[m.to] -= m.n
        if p.height[m.to] == 0:
            p.stacks[us] &= ~((<u64>1) << m.to)
    p.height[m.frm] += m.n
    p.stacks[us] |= (<u64>1) << m.frm


cdef u64 compute_key(const Pos* p) noexcept nogil:
    cdef u64 key = ZS_SIDE if p.stm else 0, c
    cdef int s, b
    for s in range(2):
        c = p.stacks[s]
        while c:
            b = bb_lsb(c)
            c &= c - 1
            key ^= ZS[s][b][p.height[b]] ^ ZS[s][b][0]
    return key


cdef int checkers(const Pos* p, int side) noexcept nogil:
    cdef int total = 0
    cdef u64 c = p.stacks[side]
    while c:
        total += p.height[bb_lsb(c)]
        c &= c - 1
    return total


cdef int rule_end(const Rules* R, const Pos* p) noexcept nogil:
    """The side without checkers has lost (docs/rules-notes.md shows why a game always ends)."""
    if p.stacks[p.stm] == 0:
        return RULE_LOSS
    if p.stacks[p.stm ^ 1] == 0:
        return RULE_WIN
    return RULE_NONE


include "_stacks_eval.pxi"


cdef volatile int perft_stop = 0   # set through _game by engine.stop_perft(): abandon a perft
register_perft_stop(&perft_stop)


cdef unsigned long long perft(const Rules* R, Pos* p, int depth, Move* stack) noexcept nogil:
    cdef int n, i
    cdef unsigned long long total = 0
    cdef Undo u
    if depth <= 0:
        return 1
    n = generate(R, p, stack, 0)
    if depth == 1:
        return n
    if perft_stop:
        return 0
    for i in range(n):
        make(R, p, &stack[i], &u)
        total += perft(R, p, depth - 1, stack + n)
        unmake(R, p, &stack[i], &u)
    return total


include "_stacks_ops.pxi"


# ---------------------------------------------------------------------------------------------
# Variants

cdef dict _ID_BY_NAME = {}
cdef dict _SPEC_BY_ID = {}


cdef int _register(spec) except -1:
    cdef int vid = len(_ID_BY_NAME)
    cdef Rules* R = &RULES[vid]
    memset(R, 0, sizeof(Rules))
    g = build_geometry(spec.size, "dark")
    spec.geometry = g
    R.size = spec.size
    R.nsq = len(g.coords)
    R.total = spec.checkers
    cdef int d, b, k, f, r, tf, tr, side
    for d in range(NSD):
        for b, (f, r) in g.coords.items():
            R.dest[d][b][0] = BAD
            for k in range(1, MAXH + 1):
                if d >= 4 and k % 2:
                    R.dest[d][b][k] = BAD
                    continue
                tf, tr = f + DF[d] * k, r + DR[d] * k
                R.dest[d][b][k] = g.bit_at.get((tf, tr), OFF)
        # Forward: rank grows for White, shrinks for Black; diagonals and straight ahead.
        R.forward[0][d] = 1 if DR[d] == 1 else 0
        R.forward[1][d] = 1 if DR[d] == -1 else 0
    order = {b: i for i, b in enumerate(sorted(g.coords))}
    for b, (f, r) in g.coords.items():
        R.advance[0][b] = r
        R.advance[1][b] = spec.size - 1 - r
        R.seen[0][b] = order[b]
        R.seen[1][b] = order[g.bit_at[(spec.size - 1 - f, spec.size - 1 - r)]]
    R.learned = &LEARNED[vid]
    LEARNED[vid].phase_max = 2 * spec.checkers
    w = STACK_WEIGHTS[spec.name]
    R.w_checker = w["checker"]
    R.w_advance = w["advance"]
    R.w_attacked = w["attacked"]
    R.w_stack = w["stack"]
    R.w_mobility = w["mobility"]
    _fill_ops(vid)
    _ID_BY_NAME[spec.name] = vid
    _SPEC_BY_ID[vid] = spec
    return vid


for _spec in STACK_VARIANTS.values():
    _register(_spec)


def stack_variants() -> list:
    return list(_ID_BY_NAME)


include "_stacks_board.pxi"
include "_stacks_tables.pxi"
