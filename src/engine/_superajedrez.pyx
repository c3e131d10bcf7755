# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Superajedrez: chess in which every piece but the king is placed from a reserve (RULES.md §7).

A position is twelve 64-bit bitboards (square = 8 * rank + file, a1 = 0), a piece per square, both
reserves, castling state, the en-passant square and the move counters. Sliders use magic
bitboards (the magics are found at import with a fixed-seed generator, so every machine gets the
same tables). Moves are generated legal: board moves are checked against the squares the enemy
attacks after the move, which in this game include the enemy's *protected reserved squares*
(its own starting squares while it still holds a reserve piece that could be placed there).
"""

from libc.stdint cimport uint8_t, uint16_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset

from ._bitboard cimport u64, bb_popcount, bb_lsb, splitmix64
from ._game cimport (GameBoard, GameOps, SMove, RULE_NONE, RULE_DRAW, RULE_LOSS, RULE_WIN,
                     SEARCH_MAX_MOVES, UNDO_MAX, POS_MAX,
                     Feature, LinearEval, LINEAR_MAX_FEATURES, linear_value,
                     register_perft_stop)

import numpy as np

from .errors import IllegalMoveError, InvalidFenError, UnknownVariantError, is_digits
from .types import Color, Outcome, Termination
from .evaluation import SUPERAJEDREZ_WEIGHTS

cdef enum:
    PAWN = 0
    KNIGHT = 1
    BISHOP = 2
    ROOK = 3
    QUEEN = 4
    KING = 5
    NOSQ = 64
    # Move kinds. A placement that lands on an enemy piece is a reserved-space capture.
    MK_NORMAL = 0
    MK_DOUBLE = 1            # two-square pawn move
    MK_EP = 2
    MK_PROMO = 3
    MK_CASTLE = 4            # rook from its corner
    MK_CASTLE_DROP = 5       # rook from the reserve, placed on f1 / d1
    MK_DROP = 6
    # Castling state, per side s shifted by 3 * s: king never moved, rook on h / a never moved.
    CS_KING = 1
    CS_H = 2
    CS_A = 4

cdef u64 FILE_A = 0x0101010101010101
cdef u64 RANK_1 = 0xFF
cdef u64 DARK = 0xAA55AA55AA55AA55   # a1 is dark: bit 0 set
cdef u64 LIGHT = ~DARK

ctypedef struct Pos:
    u64 pieces[2][6]
    u64 occ[2]
    u64 promoted              # pieces that were promoted (the bishop colour rule ignores them)
    u64 key
    uint8_t board[64]         # 0 = empty, else 1 + type + 8 * colour
    uint8_t reserve[2][5]     # counts by type, pawn to queen
    uint8_t castle
    uint8_t stm
    uint8_t ep                # the square passed over by the last two-square pawn move, or NOSQ
    uint8_t ep_keyed          # whether ep is part of the key (an enemy pawn could take there)
    uint16_t halfmove         # plies since the last capture, pawn move or placement
    uint16_t fullmove

ctypedef struct Move:
    uint8_t frm               # NOSQ for placements
    uint8_t to
    uint8_t kind
    uint8_t piece             # the type moved or placed
    uint8_t captured          # 1 + type of the captured piece, 0 if none
    uint8_t promo             # the promotion type (MK_PROMO)
    uint8_t colour
    uint8_t pad[9]            # every family's move is exactly one SMove (16 bytes) wide

ctypedef struct Undo:
    u64 key
    u64 promoted
    uint16_t halfmove
    uint16_t fullmove
    uint8_t castle
    uint8_t ep
    uint8_t ep_keyed
    uint8_t captured_code

ctypedef struct CEval:
    int value[5]              # board value by type
    int reserve_value[5]
    int pst_mg[6][64]         # from White's side; Black reads the mirrored square
    int pst_eg[6][64]
    int mobility[6]
    int drop_check            # per safe square from which an enemy reserve piece would give check
    int zone_attack           # per square next to the king attacked by an enemy piece
    int exposed               # per piece standing on an enemy protected reserved square
    int held_square           # per own protected reserved square
    int passed[8]             # passed pawn by relative rank
    int doubled
    int tempo
    int phase_total           # non-pawn material (board and reserve) of the start

# -- tables -----------------------------------------------------------------------------------

cdef u64 KNIGHT_ATT[64]
cdef u64 KING_ATT[64]
cdef u64 PAWN_ATT[2][64]
cdef u64 BETWEEN[64][64]
cdef u64 PASSED_MASK[2][64]
cdef u64 ROOK_MASK[64]
cdef u64 BISHOP_MASK[64]
cdef u64 ROOK_MAGIC[64]
cdef u64 BISHOP_MAGIC[64]
cdef int MAGICS_SEARCHED = 0      # squares whose stored magic failed its check at import
cdef int ROOK_SHIFT[64]
cdef int BISHOP_SHIFT[64]
cdef int ROOK_OFFSET[64]
cdef int BISHOP_OFFSET[64]
cdef u64 ROOK_TABLE[102400]
cdef u64 BISHOP_TABLE[5248]
cdef uint8_t CASTLE_KEEP[64]     # castling bits that survive a piece leaving or being taken on sq
# Reserved squares by side and type (pawn to queen); the king's square is never protected.
cdef u64 RESERVED[2][5]
cdef u64 PAWN_DROP[2]            # ranks 2-4 (Black 7-5)
cdef u64 PROMO_RANK[2]
cdef int HOME_RANK[2]
cdef u64 ZP[2][6][64]
cdef u64 ZRES[2][5][17]
cdef u64 ZCASTLE[64]
cdef u64 ZEP[64]
cdef u64 ZSIDE
cdef CEval EV
cdef GameOps OPS
cdef LinearEval LEARNED        # the learned evaluation's weights (rows 0: the hand-set one plays)

cdef int ROOK_DF[4]
cdef int ROOK_DR[4]
cdef int BISHOP_DF[4]
cdef int BISHOP_DR[4]
ROOK_DF[:] = [1, -1, 0, 0]
ROOK_DR[:] = [0, 0, 1, -1]
BISHOP_DF[:] = [1, 1, -1, -1]
BISHOP_DR[:] = [1, -1, 1, -1]


cdef u64 slide(int sq, u64 occ, const int* df, const int* dr, int edges) noexcept nogil:
    """Ray attacks from sq over occ (slow; for building tables). With edges=0 the last square of
    each ray is left out: the relevant-occupancy mask of a magic."""
    cdef u64 out = 0
    cdef int d, f, r, nf, nr
    for d in range(4):
        f = sq & 7
        r = sq >> 3
        while True:
            nf = f + df[d]
            nr = r + dr[d]
            if nf < 0 or nf > 7 or nr < 0 or nr > 7:
                break
            if not edges and (nf + df[d] < 0 or nf + df[d] > 7 or nr + dr[d] < 0 or nr + dr[d] > 7):
                break
            f = nf
            r = nr
            out |= (<u64>1) << (8 * r + f)
            if (occ >> (8 * r + f)) & 1:
                break
    return out


include "_superajedrez_magics.pxi"


cdef int find_magics(u64* masks, u64* magics, int* shifts, int* offsets, u64* table,
                     const int* df, const int* dr, const u64* known, u64* state,
                     int* searched) noexcept nogil:
    """Fill one slider's magic tables, each square's magic the known one when it checks, else
    one searched for; returns the table size used and counts the squares searched."""
    cdef u64 occs[4096]
    cdef u64 ref[4096]
    cdef u64 used[4096]
    cdef int epoch[4096]
    cdef int sq, n, i, bits, attempt, ok, offset = 0
    cdef u64 occ, magic, idx
    memset(epoch, 0, sizeof(epoch))
    attempt = 0
    for sq in range(64):
        masks[sq] = slide(sq, 0, df, dr, 0)
        bits = bb_popcount(masks[sq])
        shifts[sq] = 64 - bits
        offsets[sq] = offset
        n = 0
        occ = 0
        while True:
            occs[n] = occ
            ref[n] = slide(sq, occ, df, dr, 1)
            n += 1
            occ = (occ - masks[sq]) & masks[sq]
            if occ == 0:
                break
        magic = known[sq]                    # the stored one first
        while True:
            if magic == 0:
                magic = splitmix64(state) & splitmix64(state) & splitmix64(state)
            ok = bb_popcount((masks[sq] * magic) & <u64>0xFF00000000000000) >= 6
            if ok:
                attempt += 1
                for i in range(n):
                    idx = (occs[i] * magic) >> shifts[sq]
                    if epoch[idx] < attempt:
                        epoch[idx] = attempt
                        used[idx] = ref[i]
                    elif used[idx] != ref[i]:
                        ok = 0
                        break
            if ok:
                break
            if magic == known[sq]:
                searched[0] += 1             # the stored magic failed: search from the seed
            magic = 0
        magics[sq] = magic
        for i in range(n):
            table[offset + ((occs[i] * magic) >> shifts[sq])] = ref[i]
        offset += 1 << bits
    return offset


cdef inline u64 rook_att(int sq, u64 occ) noexcept nogil:
    return ROOK_TABLE[ROOK_OFFSET[sq] + (((occ & ROOK_MASK[sq]) * ROOK_MAGIC[sq]) >> ROOK_SHIFT[sq])]


cdef inline u64 bishop_att(int sq, u64 occ) noexcept nogil:
    return BISHOP_TABLE[BISHOP_OFFSET[sq]
                        + (((occ & BISHOP_MASK[sq]) * BISHOP_MAGIC[sq]) >> BISHOP_SHIFT[sq])]


cdef void _init_tables() noexcept nogil:
    cdef u64 state = 0x5375706572416A65     # fixed seed: the same magics and keys everywhere
    cdef int sq, f, r, i, t, s, d, nf, nr, k
    cdef int kdf[8]
    cdef int kdr[8]
    cdef int ndf[8]
    cdef int ndr[8]
    kdf[:] = [1, 1, 1, 0, 0, -1, -1, -1]
    kdr[:] = [1, 0, -1, 1, -1, 1, 0, -1]
    ndf[:] = [1, 2, 2, 1, -1, -2, -2, -1]
    ndr[:] = [2, 1, -1, -2, -2, -1, 1, 2]
    for sq in range(64):
        f = sq & 7
        r = sq >> 3
        KNIGHT_ATT[sq] = 0
        KING_ATT[sq] = 0
        for i in range(8):
            nf = f + kdf[i]
            nr = r + kdr[i]
            if 0 <= nf < 8 and 0 <= nr < 8:
                KING_ATT[sq] |= (<u64>1) << (8 * nr + nf)
            nf = f + ndf[i]
            nr = r + ndr[i]
            if 0 <= nf < 8 and 0 <= nr < 8:
                KNIGHT_ATT[sq] |= (<u64>1) << (8 * nr + nf)
        PAWN_ATT[0][sq] = 0
        PAWN_ATT[1][sq] = 0
        for d in range(-1, 2, 2):
            if 0 <= f + d < 8:
                if r < 7:
                    PAWN_ATT[0][sq] |= (<u64>1) << (8 * (r + 1) + f + d)
                if r > 0:
                    PAWN_ATT[1][sq] |= (<u64>1) << (8 * (r - 1) + f + d)
        # Squares ahead on the own and both neighbouring files: no enemy pawn there = passed.
        PASSED_MASK[0][sq] = 0
        PASSED_MASK[1][sq] = 0
        for nf in range(f - 1, f + 2):
            if 0 <= nf < 8:
                for nr in range(r + 1, 8):
                    PASSED_MASK[0][sq] |= (<u64>1) << (8 * nr + nf)
                for nr in range(0, r):
                    PASSED_MASK[1][sq] |= (<u64>1) << (8 * nr + nf)
    cdef int searched = 0
    find_magics(ROOK_MASK, ROOK_MAGIC, ROOK_SHIFT, ROOK_OFFSET, ROOK_TABLE, ROOK_DF, ROOK_DR,
                KNOWN_ROOK_MAGIC, &state, &searched)
    find_magics(BISHOP_MASK, BISHOP_MAGIC, BISHOP_SHIFT, BISHOP_OFFSET, BISHOP_TABLE, BISHOP_DF,
                BISHOP_DR, KNOWN_BISHOP_MAGIC, &state, &searched)
    if searched == 0:
        state = KNOWN_STATE_AFTER_MAGICS      # where the search from the seed would have left it
    global MAGICS_SEARCHED
    MAGICS_SEARCHED = searched
    cdef u64 ray
    for sq in range(64):
        for t in range(64):
            BETWEEN[sq][t] = 0
            if sq == t:
                continue
            if (rook_att(sq, 0) >> t) & 1:
                BETWEEN[sq][t] = rook_att(sq, (<u64>1) << t) & rook_att(t, (<u64>1) << sq)
            elif (bishop_att(sq, 0) >> t) & 1:
                BETWEEN[sq][t] = bishop_att(sq, (<u64>1) << t) & bishop_att(t, (<u64>1) << sq)
    for sq in range(64):
        CASTLE_KEEP[sq] = 0x3F
    CASTLE_KEEP[4] = 0x3F & ~(CS_KING | CS_H | CS_A)
    CASTLE_KEEP[7] = 0x3F & ~CS_H
    CASTLE_KEEP[0] = 0x3F & ~CS_A
    CASTLE_KEEP[60] = 0x3F & ~((CS_KING | CS_H | CS_A) << 3)
    CASTLE_KEEP[63] = 0x3F & ~(CS_H << 3)
    CASTLE_KEEP[56] = 0x3F & ~(CS_A << 3)
    for s in range(2):
        k = 0 if s == 0 else 56                  # the side's first rank
        RESERVED[s][PAWN] = (RANK_1 << 8) if s == 0 else (RANK_1 << 48)
        RESERVED[s][KNIGHT] = ((<u64>1) << (k + 1)) | ((<u64>1) << (k + 6))
        RESERVED[s][BISHOP] = ((<u64>1) << (k + 2)) | ((<u64>1) << (k + 5))
        RESERVED[s][ROOK] = ((<u64>1) << k) | ((<u64>1) << (k + 7))
        RESERVED[s][QUEEN] = (<u64>1) << (k + 3)
        PAWN_DROP[s] = (<u64>0xFFFFFF00) if s == 0 else (<u64>0xFFFFFF) << 32
        PROMO_RANK[s] = (RANK_1 << 56) if s == 0 else RANK_1
        HOME_RANK[s] = k
    for s in range(2):
        for t in range(6):
            for sq in range(64):
                ZP[s][t][sq] = splitmix64(&state)
        for t in range(5):
            for i in range(17):
                ZRES[s][t][i] = splitmix64(&state)
    for i in range(64):
        ZCASTLE[i] = splitmix64(&state)
        ZEP[i] = splitmix64(&state)
    global ZSIDE
    ZSIDE = splitmix64(&state)


_init_tables()
magics_searched = MAGICS_SEARCHED     # squares whose stored magic failed (0: none was searched)


# -- position queries -------------------------------------------------------------------------

cdef inline u64 attackers(const Pos* p, int side, int sq, u64 occ, u64 keep) noexcept nogil:
    """The board pieces of `side` (restricted to `keep`) attacking sq over occupancy occ."""
    cdef const u64* b = p.pieces[side]
    return keep & ((PAWN_ATT[side ^ 1][sq] & b[PAWN]) | (KNIGHT_ATT[sq] & b[KNIGHT])
                   | (KING_ATT[sq] & b[KING])
                   | (bishop_att(sq, occ) & (b[BISHOP] | b[QUEEN]))
                   | (rook_att(sq, occ) & (b[ROOK] | b[QUEEN])))


cdef inline u64 bishop_colours(const Pos* p, int side, u64 removed) noexcept nogil:
    """Where a reserve bishop of `side` may be placed: not on the colour of an original (never
    promoted) bishop of its side still on the board."""
    cdef u64 b = p.pieces[side][BISHOP] & ~p.promoted & ~removed, allowed = ~(<u64>0)
    if b & DARK:
        allowed &= LIGHT
    if b & LIGHT:
        allowed &= DARK
    return allowed


cdef inline u64 protected_squares(const Pos* p, int side, u64 removed) noexcept nogil:
    """The reserved squares of `side` that it protects (RULES.md §7.5): those on which a piece of
    its reserve could be placed. `removed` leaves out a piece about to be captured."""
    cdef const uint8_t* r = p.reserve[side]
    cdef u64 m = 0
    if r[PAWN]:
        m |= RESERVED[side][PAWN]
    if r[KNIGHT]:
        m |= RESERVED[side][KNIGHT]
    if r[BISHOP]:
        m |= RESERVED[side][BISHOP] & bishop_colours(p, side, removed)
    if r[ROOK]:
        m |= RESERVED[side][ROOK]
    if r[QUEEN]:
        m |= RESERVED[side][QUEEN]
    return m


cdef inline int king_square(const Pos* p, int side) noexcept nogil:
    return bb_lsb(p.pieces[side][KING])


cdef inline int in_check(const Pos* p) noexcept nogil:
    cdef int us = p.stm, ksq = king_square(p, us)
    cdef u64 occ = p.occ[0] | p.occ[1]
    if (protected_squares(p, us ^ 1, 0) >> ksq) & 1:
        return 1
    return attackers(p, us ^ 1, ksq, occ, ~(<u64>0)) != 0


cdef inline int safe_after(const Pos* p, int us, int ksq, u64 occ, u64 removed,
                           u64 prot_them) noexcept nogil:
    """Whether our king on ksq is safe once the board has occupancy occ and the enemy piece on
    `removed` (a mask, maybe 0) is gone. Taking an original bishop can free the enemy's colour
    rule and so protect another of its reserved squares."""
    cdef int them = us ^ 1
    if removed and (p.pieces[them][BISHOP] & ~p.promoted & removed):
        prot_them = protected_squares(p, them, removed)
    if (prot_them >> ksq) & 1:
        return 0
    return attackers(p, them, ksq, occ, ~removed) == 0


# -- generation -------------------------------------------------------------------------------

cdef inline int add(Move* out, int n, int frm, int to, int kind, int piece, int captured,
                    int promo, int colour) noexcept nogil:
    if n < SEARCH_MAX_MOVES:
        out[n].frm = <uint8_t>frm
        out[n].to = <uint8_t>to
        out[n].kind = <uint8_t>kind
        out[n].piece = <uint8_t>piece
        out[n].captured = <uint8_t>captured
        out[n].promo = <uint8_t>promo
        out[n].colour = <uint8_t>colour
        return n + 1
    return n


cdef inline int captured_at(const Pos* p, int sq) noexcept nogil:
    """1 + type of the piece on sq (0 if empty); callers only ask about enemy squares."""
    return (p.board[sq] & 7) if p.board[sq] else 0


cdef int generate(const Pos* p, Move* out, int captures_only) noexcept nogil:
    """The legal moves of the side to move; with captures_only, only captures (by move or by
    placement on a reserved square) and queen promotions."""
    cdef int us = p.stm, them = p.stm ^ 1, n = 0, ksq, frm, to, t, cap, sniper, k, pr
    cdef u64 occ = p.occ[0] | p.occ[1], own = p.occ[us], enemy = p.occ[them]
    cdef u64 prot_them = protected_squares(p, them, 0)
    cdef u64 checkers, pinned = 0, snipers, b, targets, bits, fb, tb, drop_target, empty = ~occ
    cdef int checked, safe_by_default
    ksq = king_square(p, us)
    checkers = attackers(p, them, ksq, occ, ~(<u64>0))
    checked = checkers != 0 or ((prot_them >> ksq) & 1)
    # Pinned pieces: the only piece between our king and an enemy slider.
    snipers = ((rook_att(ksq, 0) & (p.pieces[them][ROOK] | p.pieces[them][QUEEN]))
               | (bishop_att(ksq, 0) & (p.pieces[them][BISHOP] | p.pieces[them][QUEEN])))
    while snipers:
        sniper = bb_lsb(snipers)
        snipers &= snipers - 1
        b = BETWEEN[ksq][sniper] & occ
        if b and (b & (b - 1)) == 0:
            pinned |= b & own

    # Board moves of every piece but the king; a move needs the full test only in check, for a
    # pinned piece, or when it takes an original enemy bishop (see safe_after).
    cdef const u64* mine = p.pieces[us]
    cdef int fwd = 8 if us == 0 else -8
    cdef u64 pawns = mine[PAWN]
    cdef u64 start_rank = (RANK_1 << 8) if us == 0 else (RANK_1 << 48)
    while pawns:
        frm = bb_lsb(pawns)
        pawns &= pawns - 1
        fb = (<u64>1) << frm
        safe_by_default = not checked and not (pinned & fb)
        # Captures (and capture-promotions).
        targets = PAWN_ATT[us][frm] & enemy & ~p.pieces[them][KING]
        while targets:
            to = bb_lsb(targets)
            targets &= targets - 1
            tb = (<u64>1) << to
            cap = captured_at(p, to)
            if not ((safe_by_default and cap != 1 + BISHOP)
                    or safe_after(p, us, ksq, (occ ^ fb), tb, prot_them)):
                continue
            if (tb & PROMO_RANK[us]):
                n = add(out, n, frm, to, MK_PROMO, PAWN, cap, QUEEN, us)
                if not captures_only:
                    for pr in range(ROOK, KNIGHT - 1, -1):
                        n = add(out, n, frm, to, MK_PROMO, PAWN, cap, pr, us)
            else:
                n = add(out, n, frm, to, MK_NORMAL, PAWN, cap, 0, us)
        # En passant: the captured pawn leaves a square of its own, so always test.
        if p.ep != NOSQ and (PAWN_ATT[us][frm] >> p.ep) & 1:
            to = p.ep
            tb = (<u64>1) << (to - fwd)
            if safe_after(p, us, ksq, (occ ^ fb ^ tb) | ((<u64>1) << to), tb, prot_them):
                n = add(out, n, frm, to, MK_EP, PAWN, 1 + PAWN, 0, us)
        # Pushes.
        to = frm + fwd
        tb = (<u64>1) << to
        if empty & tb:
            if safe_by_default or safe_after(p, us, ksq, occ ^ fb ^ tb, 0, prot_them):
                if tb & PROMO_RANK[us]:
                    n = add(out, n, frm, to, MK_PROMO, PAWN, 0, QUEEN, us)
                    if not captures_only:
                        for pr in range(ROOK, KNIGHT - 1, -1):
                            n = add(out, n, frm, to, MK_PROMO, PAWN, 0, pr, us)
                elif not captures_only:
                    n = add(out, n, frm, to, MK_NORMAL, PAWN, 0, 0, us)
            if not captures_only and (fb & start_rank) and (empty >> (to + fwd)) & 1:
                tb = (<u64>1) << (to + fwd)
                if safe_by_default or safe_after(p, us, ksq, occ ^ fb ^ tb, 0, prot_them):
                    n = add(out, n, frm, to + fwd, MK_DOUBLE, PAWN, 0, 0, us)

    for t in range(KNIGHT, KING):
        bits = mine[t]
        while bits:
            frm = bb_lsb(bits)
            bits &= bits - 1
            fb = (<u64>1) << frm
            if t == KNIGHT:
                targets = KNIGHT_ATT[frm]
            elif t == BISHOP:
                targets = bishop_att(frm, occ)
            elif t == ROOK:
                targets = rook_att(frm, occ)
            else:
                targets = bishop_att(frm, occ) | rook_att(frm, occ)
            targets &= ~own & ~p.pieces[them][KING]
            if captures_only:
                targets &= enemy
            safe_by_default = not checked and not (pinned & fb)
            while targets:
                to = bb_lsb(targets)
                targets &= targets - 1
                tb = (<u64>1) << to
                cap = captured_at(p, to)
                if (safe_by_default and cap != 1 + BISHOP) \
                        or safe_after(p, us, ksq, (occ ^ fb) | tb, tb & enemy, prot_them):
                    n = add(out, n, frm, to, MK_NORMAL, t, cap, 0, us)

    # King moves: the destination must be safe with the king gone from its square.
    targets = KING_ATT[ksq] & ~own & ~p.pieces[them][KING]
    if captures_only:
        targets &= enemy
    fb = (<u64>1) << ksq
    while targets:
        to = bb_lsb(targets)
        targets &= targets - 1
        tb = (<u64>1) << to
        if safe_after(p, us, to, (occ ^ fb) | tb, tb & enemy, prot_them):
            n = add(out, n, ksq, to, MK_NORMAL, KING, captured_at(p, to), 0, us)

    # Reserved-space captures: a reserve piece placed on its own protected starting square, on
    # an enemy piece (never the king). Occupancy is unchanged, so only a check needs testing.
    cdef const uint8_t* res = p.reserve[us]
    cdef u64 prot_us
    for t in range(QUEEN, -1, -1):
        if not res[t]:
            continue
        targets = RESERVED[us][t] & enemy & ~p.pieces[them][KING]
        if t == BISHOP:
            targets &= bishop_colours(p, us, 0)
        while targets:
            to = bb_lsb(targets)
            targets &= targets - 1
            tb = (<u64>1) << to
            cap = captured_at(p, to)
            if (not checked and cap != 1 + BISHOP) or safe_after(p, us, ksq, occ, tb, prot_them):
                n = add(out, n, NOSQ, to, MK_DROP, t, cap, 0, us)
    if captures_only:
        return n

    # Castling, standard or with the rook from the reserve; out of and through check is allowed,
    # only the king's destination must be safe (RULES.md §7.7).
    cdef int home = HOME_RANK[us]
    cdef u64 e_sq, g_sq, f_sq, c_sq, d_sq, corner
    if (p.castle >> (3 * us)) & CS_KING:
        e_sq = (<u64>1) << (home + 4)
        f_sq = (<u64>1) << (home + 5)
        g_sq = (<u64>1) << (home + 6)
        d_sq = (<u64>1) << (home + 3)
        c_sq = (<u64>1) << (home + 2)
        if not (occ & (f_sq | g_sq)):
            if (p.castle >> (3 * us)) & CS_H:
                corner = (<u64>1) << (home + 7)
                if safe_after(p, us, home + 6, occ ^ e_sq ^ g_sq ^ corner ^ f_sq, 0, prot_them):
                    n = add(out, n, home + 4, home + 6, MK_CASTLE, KING, 0, 0, us)
            if res[ROOK] and safe_after(p, us, home + 6, occ ^ e_sq ^ g_sq ^ f_sq, 0, prot_them):
                n = add(out, n, home + 4, home + 6, MK_CASTLE_DROP, KING, 0, 0, us)
        if not (occ & (d_sq | c_sq | ((<u64>1) << (home + 1)))):
            if (p.castle >> (3 * us)) & CS_A:
                corner = (<u64>1) << home
                if safe_after(p, us, home + 2, occ ^ e_sq ^ c_sq ^ corner ^ d_sq, 0, prot_them):
                    n = add(out, n, home + 4, home + 2, MK_CASTLE, KING, 0, 0, us)
            if res[ROOK] and safe_after(p, us, home + 2, occ ^ e_sq ^ c_sq ^ d_sq, 0, prot_them):
                n = add(out, n, home + 4, home + 2, MK_CASTLE_DROP, KING, 0, 0, us)

    # Placements on empty squares. In check only an interposition can help: between our king
    # and a single sliding checker.
    if not checked:
        drop_target = empty
    elif checkers and (checkers & (checkers - 1)) == 0 and not ((prot_them >> ksq) & 1):
        drop_target = BETWEEN[ksq][bb_lsb(checkers)]
    else:
        drop_target = 0
    if res[QUEEN] and (drop_target & RESERVED[us][QUEEN]):
        n = add(out, n, NOSQ, bb_lsb(RESERVED[us][QUEEN]), MK_DROP, QUEEN, 0, 0, us)
    for t in range(ROOK, -1, -1):
        if not res[t]:
            continue
        targets = drop_target
        if t == BISHOP:
            targets &= bishop_colours(p, us, 0)
        elif t == PAWN:
            targets &= PAWN_DROP[us]
        while targets:
            to = bb_lsb(targets)
            targets &= targets - 1
            n = add(out, n, NOSQ, to, MK_DROP, t, 0, 0, us)
    return n


cdef int has_legal_move(const Pos* p) noexcept nogil:
    cdef Move buf[SEARCH_MAX_MOVES]
    return generate(p, buf, 0) > 0


# -- make / unmake ----------------------------------------------------------------------------

cdef inline void put(Pos* p, int side, int t, int sq) noexcept nogil:
    cdef u64 b = (<u64>1) << sq
    p.pieces[side][t] |= b
    p.occ[side] |= b
    p.board[sq] = <uint8_t>(1 + t + 8 * side)
    p.key ^= ZP[side][t][sq]


cdef inline void take(Pos* p, int side, int t, int sq) noexcept nogil:
    cdef u64 b = (<u64>1) << sq
    p.pieces[side][t] &= ~b
    p.occ[side] &= ~b
    p.board[sq] = 0
    p.key ^= ZP[side][t][sq]


cdef inline void set_reserve(Pos* p, int side, int t, int count) noexcept nogil:
    p.key ^= ZRES[side][t][p.reserve[side][t]] ^ ZRES[side][t][count]
    p.reserve[side][t] = <uint8_t>count


cdef void make(Pos* p, const Move* m, Undo* u) noexcept nogil:
    cdef int us = p.stm, them = us ^ 1, ct, home = HOME_RANK[us], mid
    cdef u64 tb = (<u64>1) << m.to, fb
    u.key = p.key
    u.promoted = p.promoted
    u.halfmove = p.halfmove
    u.fullmove = p.fullmove
    u.castle = p.castle
    u.ep = p.ep
    u.ep_keyed = p.ep_keyed
    u.captured_code = p.board[m.to] if m.kind != MK_EP else 0
    if p.ep_keyed:
        p.key ^= ZEP[p.ep]
    p.ep = NOSQ
    p.ep_keyed = 0
    p.key ^= ZCASTLE[p.castle]
    p.halfmove += 1
    if m.kind == MK_DROP:
        if p.board[m.to]:
            ct = (p.board[m.to] - 1) & 7
            take(p, them, ct, m.to)
            p.promoted &= ~tb
        set_reserve(p, us, m.piece, p.reserve[us][m.piece] - 1)
        put(p, us, m.piece, m.to)
        p.castle &= CASTLE_KEEP[m.to]
        # A rook placed on its own corner may castle the standard way while it stays there.
        if m.piece == ROOK and (p.castle >> (3 * us)) & CS_KING:
            if m.to == home + 7:
                p.castle |= CS_H << (3 * us)
            elif m.to == home:
                p.castle |= CS_A << (3 * us)
        p.halfmove = 0
    elif m.kind == MK_CASTLE or m.kind == MK_CASTLE_DROP:
        take(p, us, KING, m.frm)
        put(p, us, KING, m.to)
        mid = (m.frm + m.to) // 2
        if m.kind == MK_CASTLE:
            take(p, us, ROOK, home + 7 if m.to > m.frm else home)
        else:
            set_reserve(p, us, ROOK, p.reserve[us][ROOK] - 1)
            p.halfmove = 0
        put(p, us, ROOK, mid)
        p.castle &= ~((CS_KING | CS_H | CS_A) << (3 * us))
    else:
        fb = (<u64>1) << m.frm
        if m.kind == MK_EP:
            take(p, them, PAWN, m.to - 8 if us == 0 else m.to + 8)
        elif p.board[m.to]:
            ct = (p.board[m.to] - 1) & 7
            take(p, them, ct, m.to)
            p.promoted &= ~tb
        take(p, us, m.piece, m.frm)
        if m.kind == MK_PROMO:
            put(p, us, m.promo, m.to)
            p.promoted |= tb
        else:
            put(p, us, m.piece, m.to)
            if p.promoted & fb:
                p.promoted ^= fb | tb
        if m.piece == PAWN or m.captured:
            p.halfmove = 0
        p.castle &= CASTLE_KEEP[m.frm] & CASTLE_KEEP[m.to]
        if m.kind == MK_DOUBLE:
            p.ep = <uint8_t>((m.frm + m.to) // 2)
            if PAWN_ATT[us][p.ep] & p.pieces[them][PAWN]:
                p.ep_keyed = 1
                p.key ^= ZEP[p.ep]
    p.key ^= ZCASTLE[p.castle] ^ ZSIDE
    if us == 1:
        p.fullmove += 1
    p.stm = them


cdef void unmake(Pos* p, const Move* m, const Undo* u) noexcept nogil:
    cdef int them = p.stm, us = them ^ 1, home = HOME_RANK[us], ct
    p.stm = us
    if m.kind == MK_DROP:
        take(p, us, m.piece, m.to)
        p.reserve[us][m.piece] += 1
        if u.captured_code:
            ct = (u.captured_code - 1) & 7
            put(p, them, ct, m.to)
    elif m.kind == MK_CASTLE or m.kind == MK_CASTLE_DROP:
        take(p, us, ROOK, (m.frm + m.to) // 2)
        take(p, us, KING, m.to)
        put(p, us, KING, m.frm)
        if m.kind == MK_CASTLE:
            put(p, us, ROOK, home + 7 if m.to > m.frm else home)
        else:
            p.reserve[us][ROOK] += 1
    else:
        take(p, us, m.promo if m.kind == MK_PROMO else m.piece, m.to)
        put(p, us, m.piece, m.frm)
        if m.kind == MK_EP:
            put(p, them, PAWN, m.to - 8 if us == 0 else m.to + 8)
        elif u.captured_code:
            put(p, them, (u.captured_code - 1) & 7, m.to)
    p.key = u.key
    p.promoted = u.promoted
    p.halfmove = u.halfmove
    p.fullmove = u.fullmove
    p.castle = u.castle
    p.ep = u.ep
    p.ep_keyed = u.ep_keyed


cdef u64 compute_key(const Pos* p) noexcept nogil:
    cdef u64 key = ZCASTLE[p.castle]
    cdef int sq, s, t
    for sq in range(64):
        if p.board[sq]:
            s = (p.board[sq] - 1) >> 3
            t = (p.board[sq] - 1) & 7
            key ^= ZP[s][t][sq]
    for s in range(2):
        for t in range(5):
            key ^= ZRES[s][t][p.reserve[s][t]]
    if p.ep_keyed:
        key ^= ZEP[p.ep]
    if p.stm:
        key ^= ZSIDE
    return key


# -- end of game ------------------------------------------------------------------------------

cdef int insufficient_material(const Pos* p) noexcept nogil:
    """K v K, K + one minor piece v K (reserves count as material), K+B v K+B with both bishops
    on the board on one colour and empty reserves (RULES.md §7.8)."""
    cdef int s, others = 0
    cdef int minors[2]
    cdef u64 bishops
    for s in range(2):
        minors[s] = bb_popcount(p.pieces[s][KNIGHT] | p.pieces[s][BISHOP]) \
            + p.reserve[s][KNIGHT] + p.reserve[s][BISHOP]
        others += bb_popcount(p.pieces[s][PAWN] | p.pieces[s][ROOK] | p.pieces[s][QUEEN]) \
            + p.reserve[s][PAWN] + p.reserve[s][ROOK] + p.reserve[s][QUEEN]
    if others:
        return 0
    if minors[0] + minors[1] <= 1:
        return 1
    if minors[0] == 1 and minors[1] == 1:
        bishops = p.pieces[0][BISHOP] | p.pieces[1][BISHOP]
        if bb_popcount(bishops) == 2 and ((bishops & DARK) == bishops or (bishops & LIGHT) == bishops):
            return 1
    return 0


cdef int rule_end(const Pos* p) noexcept nogil:
    """The draws by rule: insufficient material, and 50 moves each without capture, pawn move or
    placement (a mate given on the last of them still counts)."""
    if insufficient_material(p):
        return RULE_DRAW
    if p.halfmove >= 100:
        if in_check(p) and not has_legal_move(p):
            return RULE_LOSS
        return RULE_DRAW
    return RULE_NONE


include "_superajedrez_eval.pxi"


cdef volatile int perft_stop = 0   # set through _game by engine.stop_perft(): abandon a perft
register_perft_stop(&perft_stop)


cdef unsigned long long perft(Pos* p, int depth, Move* stack) noexcept nogil:
    cdef int n, i
    cdef unsigned long long total = 0
    cdef Undo u
    if depth <= 0:
        return 1
    n = generate(p, stack, 0)
    if depth == 1:
        return n
    if perft_stop:
        return 0
    for i in range(n):
        make(p, &stack[i], &u)
        total += perft(p, depth - 1, stack + n)
        unmake(p, &stack[i], &u)
    return total


include "_superajedrez_ops.pxi"


_load_weights()
_fill_ops()
LEARNED.phase_max = PHASE_MAX


include "_superajedrez_board.pxi"
