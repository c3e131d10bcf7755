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
                     SEARCH_MAX_MOVES, UNDO_MAX, POS_MAX)

from .errors import IllegalMoveError, InvalidFenError, PerftStopped, UnknownVariantError
from .geometry import build_geometry
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

ctypedef struct SRules:
    int size
    int nsq
    int total                               # checkers per side at the start
    uint8_t dest[NSD][64][MAXH + 1]         # target bit, OFF or BAD
    int forward[2][NSD]                     # 1 if the direction is forward for the side
    int advance[2][64]                      # rows from the side's own first row
    int w_checker
    int w_advance
    int w_attacked
    int w_stack
    int w_mobility

ctypedef struct SPos:
    u64 stacks[2]
    u64 key
    int stm
    uint8_t height[64]

ctypedef struct StMove:
    uint8_t frm
    uint8_t to
    uint8_t n
    uint8_t kind
    uint8_t pad[12]           # every family's move is exactly one SMove (16 bytes) wide

ctypedef struct SUndo:
    u64 key
    uint8_t captured

cdef SRules SRULES[MAX_STACK_VARIANTS]
cdef GameOps SOPS[MAX_STACK_VARIANTS]
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

cdef inline int add(StMove* out, int n, int frm, int to, int count, int kind) noexcept nogil:
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


cdef int side_moves(const SRules* R, const SPos* p, int side, StMove* out,
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


cdef int st_generate(const SRules* R, const SPos* p, StMove* out, int captures_only) noexcept nogil:
    """Legal moves (only captures if captures_only). No move at all once a side has no checkers;
    otherwise `pass` when nothing else is legal."""
    cdef int n
    if p.stacks[0] == 0 or p.stacks[1] == 0:
        return 0
    n = side_moves(R, p, p.stm, out, captures_only)
    if n == 0 and not captures_only:
        n = add(out, n, 0, 0, 0, KIND_PASS)
    return n


cdef void st_make(const SRules* R, SPos* p, const StMove* m, SUndo* u) noexcept nogil:
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


cdef void st_unmake(const SRules* R, SPos* p, const StMove* m, const SUndo* u) noexcept nogil:
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


cdef u64 st_compute_key(const SPos* p) noexcept nogil:
    cdef u64 key = ZS_SIDE if p.stm else 0, c
    cdef int s, b
    for s in range(2):
        c = p.stacks[s]
        while c:
            b = bb_lsb(c)
            c &= c - 1
            key ^= ZS[s][b][p.height[b]] ^ ZS[s][b][0]
    return key


cdef int checkers(const SPos* p, int side) noexcept nogil:
    cdef int total = 0
    cdef u64 c = p.stacks[side]
    while c:
        total += p.height[bb_lsb(c)]
        c &= c - 1
    return total


cdef int st_rule_end(const SRules* R, const SPos* p) noexcept nogil:
    """The side without checkers has lost (docs/rules-notes.md shows why a game always ends)."""
    if p.stacks[p.stm] == 0:
        return RULE_LOSS
    if p.stacks[p.stm ^ 1] == 0:
        return RULE_WIN
    return RULE_NONE


cdef inline int mobility(const SRules* R, const SPos* p, int side) noexcept nogil:
    return side_moves(R, p, side, NULL, 0)


cdef int st_evaluate(const SRules* R, const SPos* p) noexcept nogil:
    """Checkers on the board, their advance, stacks left where the opponent can take them, and
    mobility."""
    cdef int score[2]
    cdef int s, b, h, d, k, t, e
    cdef u64 c, cc
    for s in range(2):
        score[s] = mobility(R, p, s) * R.w_mobility
        c = p.stacks[s]
        while c:
            b = bb_lsb(c)
            c &= c - 1
            h = p.height[b]
            score[s] += h * (R.w_checker + R.advance[s][b] * R.w_advance) + R.w_stack
    # Stacks of the side not to move that the side to move can capture at once.
    s = p.stm
    c = p.stacks[s]
    while c:
        e = bb_lsb(c)
        c &= c - 1
        h = p.height[e]
        for d in range(NSD):
            for k in range(1, h + 1):
                t = R.dest[d][e][k]
                if t >= OFF:
                    continue
                if (p.stacks[s ^ 1] >> t) & 1 and p.height[t] <= k:
                    score[s ^ 1] -= p.height[t] * R.w_attacked
    return score[p.stm] - score[p.stm ^ 1]


cdef volatile int perft_stop = 0   # set by stop_perft() from another thread: abandon a perft


cdef unsigned long long st_perft(const SRules* R, SPos* p, int depth, StMove* stack) noexcept nogil:
    cdef int n, i
    cdef unsigned long long total = 0
    cdef SUndo u
    if depth <= 0:
        return 1
    n = st_generate(R, p, stack, 0)
    if depth == 1:
        return n
    if perft_stop:
        return 0
    for i in range(n):
        st_make(R, p, &stack[i], &u)
        total += st_perft(R, p, depth - 1, stack + n)
        st_unmake(R, p, &stack[i], &u)
    return total


# ---------------------------------------------------------------------------------------------
# The position interface for the search

cdef int _op_generate(const void* ctx, const void* pos, SMove* out) noexcept nogil:
    return st_generate(<const SRules*>ctx, <const SPos*>pos, <StMove*>out, 0)


cdef int _op_captures(const void* ctx, const void* pos, SMove* out) noexcept nogil:
    return st_generate(<const SRules*>ctx, <const SPos*>pos, <StMove*>out, 1)


cdef int _op_has_quiet(const void* ctx, const void* pos) noexcept nogil:
    cdef const SPos* p = <const SPos*>pos
    return p.stacks[0] != 0 and p.stacks[1] != 0       # there is always a move or a pass


cdef void _op_make(const void* ctx, void* pos, const SMove* m, void* undo) noexcept nogil:
    st_make(<const SRules*>ctx, <SPos*>pos, <const StMove*>m, <SUndo*>undo)


cdef void _op_unmake(const void* ctx, void* pos, const SMove* m, const void* undo) noexcept nogil:
    st_unmake(<const SRules*>ctx, <SPos*>pos, <const StMove*>m, <const SUndo*>undo)


cdef u64 _op_key(const void* pos) noexcept nogil:
    return (<const SPos*>pos).key


cdef int _op_evaluate(const void* ctx, const void* pos) noexcept nogil:
    return st_evaluate(<const SRules*>ctx, <const SPos*>pos)


cdef int _op_rule_end(const void* ctx, const void* pos) noexcept nogil:
    return st_rule_end(<const SRules*>ctx, <const SPos*>pos)


cdef int _op_draw_result(const void* ctx, const void* pos) noexcept nogil:
    return RULE_DRAW


cdef int _op_reversible(const void* pos) noexcept nogil:
    return 0                                  # no move can be undone: no repetition


cdef int _op_is_capture(const SMove* m) noexcept nogil:
    return (<const StMove*>m).kind == KIND_CAPTURE


cdef int _op_capture_count(const SMove* m) noexcept nogil:
    return (<const StMove*>m).n


cdef int _op_history_index(const SMove* m) noexcept nogil:
    cdef const StMove* s = <const StMove*>m
    return (s.frm * 64 + (s.to if s.to < 64 else s.n)) & 4095


cdef int _op_same_move(const SMove* a, const SMove* b) noexcept nogil:
    cdef const StMove* x = <const StMove*>a
    cdef const StMove* y = <const StMove*>b
    return x.frm == y.frm and x.to == y.to and x.n == y.n and x.kind == y.kind


cdef void _fill_ops(int vid):
    cdef GameOps* o = &SOPS[vid]
    o.pos_size = sizeof(SPos)
    o.ctx = &SRULES[vid]
    o.captures_forced = 0
    o.generate = _op_generate
    o.generate_captures = _op_captures
    o.has_quiet_move = _op_has_quiet
    o.generate_promotions = NULL
    o.make = _op_make
    o.unmake = _op_unmake
    o.key = _op_key
    o.evaluate = _op_evaluate
    o.rule_end = _op_rule_end
    o.draw_result = _op_draw_result
    o.reversible = _op_reversible
    o.is_capture = _op_is_capture
    o.capture_count = _op_capture_count
    o.history_index = _op_history_index
    o.same_move = _op_same_move
    o.in_check = NULL
    o.make_null = NULL
    o.unmake_null = NULL
    o.wide = 0
    o.player = NULL                      # strict alternation
    o.end_score = NULL


assert sizeof(StMove) == sizeof(SMove) and sizeof(SUndo) <= UNDO_MAX and sizeof(SPos) <= POS_MAX


# ---------------------------------------------------------------------------------------------
# Variants

cdef dict _ID_BY_NAME = {}
cdef dict _SPEC_BY_ID = {}


cdef int _register(spec) except -1:
    cdef int vid = len(_ID_BY_NAME)
    cdef SRules* R = &SRULES[vid]
    memset(R, 0, sizeof(SRules))
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
    for b, (f, r) in g.coords.items():
        R.advance[0][b] = r
        R.advance[1][b] = spec.size - 1 - r
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
