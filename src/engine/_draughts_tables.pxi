# Endgame tables of the draughts family: retrograde analysis, one material slice at a time.
#
# A slice is a material signature (white men, white kings, black men, black kings); its positions
# are indexed by the combinations of each group's squares (colex rank over the squares the group
# may stand on: men never on their own crowning row; kings over the squares the men leave free,
# Black's also over those White's kings leave) and the side to move. White and black men on the
# same square make some indices invalid; they are marked and skipped. A value is one byte: 0 a
# draw, 1 + n a game that ends n plies from here with best play (won for the side to move when n
# is odd, lost when even), 254 an invalid index. A slice with a distance past 252 plies (none up
# to 6 pieces; checkers 8 pieces has 291) is built again with two bytes a value, 0xFFFE invalid.
#
# Building a slice: one forward pass generates every position's moves with the native generator.
# Moves that leave the slice (captures, promotions) are looked up in the slices built before it;
# moves inside it are counted. Then positions are settled in order of distance: a lost position
# makes each in-slice predecessor won one ply later; a won one takes one from each predecessor's
# count of unsettled moves, and a predecessor whose moves are all wins for the opponent is lost
# one ply after the longest of them. Predecessors come from "unmoves" (a piece of the side that
# just moved stepped back along its own move directions), legal when the position they come from
# has no capture, so every rule set of the family needs nothing of its own. What is left unsettled is a draw.
# The positions of one distance are found by scanning the values for its code, so a build holds
# three bytes a position (the value, the count, the longest out-of-slice loss) and no queue, and
# both passes split the slice into ranges that threads share (settling with atomic writes).
# Move-count draw rules are not part of the tables (see docs/egdb.md).
#
# A slice is attached either as its raw bytes (what a build makes) or compressed
# (_draughts_tables_packed.pxi): win/draw/loss in two bits, the distances of won positions apart; positions
# with a capture and lost positions' distances are not stored but worked out from the successors
# when asked for.
#
# Included into _draughts.pyx (the 64-bit build only): it builds on the family's own generate, make and unmake.


from libc.stdint cimport uint16_t, uint32_t
from libc.stdlib cimport calloc
from libc.string cimport memchr, memcpy

import numpy as np

from ._game cimport ProbeSource

cdef extern from "_atomic.h" nogil:
    unsigned char atomic_dec_u8(uint8_t* p)
    int atomic_cas_u8(uint8_t* p, uint8_t expected, uint8_t desired)
    int atomic_cas_u16(uint16_t* p, uint16_t expected, uint16_t desired)

cdef extern from "_memory.h" nogil:
    void prefetch_write(const void* p)

include "_draughts_tables_packed.pxi"

cdef enum:
    MAXP = 8                  # pieces of one group a table can hold
    # A value as the functions below pass it (an int): DRAW, or plies + 1 of a game that ends
    # (won when plies is odd); the rest are above any distance.
    DRAW = 0
    INVALID = 0x10000         # an index whose groups overlap
    UNKNOWN = 0x10001         # no table holds the position (during a build: not settled yet)
    WIN_ANY = 0x10002         # won, lost: a compressed slice's answer when no distance is asked
    LOSS_ANY = 0x10003
    # A value as a slice stores it: a byte, or two where a distance passes MAX_PLIES (a wide
    # slice), the two highest numbers of either width standing for INVALID and UNKNOWN.
    MAX_PLIES = 252           # the longest distance a byte holds
    MAX_PLIES_WIDE = 509      # ... and two (a compressed slice keeps (plies - 1) / 2 of a win
                              # in a byte, 255 meaning "as the entry before" while writing)
    REPEAT = 255              # that mark
    # What a compressed slice unpacked for verify (unpack_range) holds where its files keep no
    # value (two-byte entries, above any distance): "lost", and "has a capture"; a lookup
    # works these out from the successors, as a probe of the compressed slice does.
    CAPTURE_MARK = 0xFFFC
    LOSS_MARK = 0xFFFD
    MAX_RESOLVE = 32          # successors followed from a compressed slice's position, deepest
    WDL_SLOTS = 16384         # cache of decoded blocks: win/draw/loss (4 kB each: 64 MB),
    DIST_SLOTS = 64           # distances (256 kB each: 16 MB)
    WDL_BLOCK_BYTES = 1 << 12
    BUILD_BYTES = 3           # memory a build needs an entry: the value, cnt and outmax
    DIST_BLOCK_BYTES = 1 << 18

ctypedef struct Ctx:
    const Rules* R
    int nsq
    int nmen[2]
    int men_sq[2][64]         # dense index -> bit, men of each side
    int men_dense[2][64]      # bit -> dense index (-1: a man cannot stand there)
    int all_sq[64]
    int all_dense[64]
    int max_pieces            # the most pieces of a built or loaded slice
    int static_ends           # has_static_ends(R): else rule_draw never ends a table position
    int narrow_plies          # the longest distance a build keeps in bytes (MAX_PLIES)
    uint8_t* vals[MAXP + 1][MAXP + 1][MAXP + 1][MAXP + 1]          # raw slices: a byte ...
    uint16_t* vals16[MAXP + 1][MAXP + 1][MAXP + 1][MAXP + 1]       # ... or two an entry
    Packed* wdl[MAXP + 1][MAXP + 1][MAXP + 1][MAXP + 1]     # compressed slices
    Packed* dist[MAXP + 1][MAXP + 1][MAXP + 1][MAXP + 1]
    BlockCache* wdl_cache
    BlockCache* dist_cache
    Decoders decoders

cdef u64 BINOM[65][MAXP + 2]


cdef void _init_binomials():
    cdef int n, k
    for n in range(65):
        for k in range(MAXP + 2):
            if k == 0:
                BINOM[n][k] = 1
            elif n == 0:
                BINOM[n][k] = 0
            else:
                BINOM[n][k] = BINOM[n - 1][k - 1] + BINOM[n - 1][k]


_init_binomials()


# -- indexing ---------------------------------------------------------------------------------

cdef inline u64 slice_size(const Ctx* c, int wm, int wk, int bm, int bk) noexcept nogil:
    return (BINOM[c.nmen[0]][wm] * BINOM[c.nmen[1]][bm] * BINOM[c.nsq - wm - bm][wk]
            * BINOM[c.nsq - wm - bm - wk][bk] * 2)


cdef inline u64 rank_set(u64 bits, const int* dense) noexcept nogil:
    cdef u64 r = 0
    cdef int i = 1
    while bits:
        r += BINOM[dense[bb_lsb(bits)]][i]
        bits &= bits - 1
        i += 1
    return r


cdef inline u64 rank_free(u64 bits, u64 taken, const int* dense) noexcept nogil:
    """rank_set over the squares not in taken (dense numbers the squares of the board)."""
    cdef u64 r = 0
    cdef int i = 1, b
    while bits:
        b = bb_lsb(bits)
        r += BINOM[dense[b] - bb_popcount(taken & (((<u64>1) << b) - 1))][i]
        bits &= bits - 1
        i += 1
    return r


cdef inline u64 unrank_set(u64 r, int k, int n, const int* sq) noexcept nogil:
    """The set of k of the n squares sq[0..n-1] with colex rank r (r < C(n, k)). Its squares
    come highest first, each searched downward from the one before (fewer steps than upward
    from the bottom); the last one is r itself, as C(d, 1) = d."""
    cdef u64 bits = 0
    cdef int kk, d = n - 1
    for kk in range(k, 1, -1):
        while BINOM[d][kk] > r:
            d -= 1
        r -= BINOM[d][kk]
        bits |= (<u64>1) << sq[d]
        d -= 1
    if k > 0:
        bits |= (<u64>1) << sq[r]
    return bits


cdef inline void set_pos(Pos* p, u64 white, u64 black, u64 kings, int stm) noexcept nogil:
    memset(p, 0, sizeof(Pos))
    p.pieces[0] = white
    p.pieces[1] = black
    p.kings = kings
    p.stm = stm
    p.special = -1


cdef inline u64 pos_index(const Ctx* c, const Pos* p, int wm, int bm, int wk,
                          int bk) noexcept nogil:
    cdef u64 men = (p.pieces[0] | p.pieces[1]) & ~p.kings, wkings = p.pieces[0] & p.kings
    cdef u64 r = rank_set(p.pieces[0] & ~p.kings, c.men_dense[0])
    r = r * BINOM[c.nmen[1]][bm] + rank_set(p.pieces[1] & ~p.kings, c.men_dense[1])
    r = r * BINOM[c.nsq - wm - bm][wk] + rank_free(wkings, men, c.all_dense)
    r = r * BINOM[c.nsq - wm - bm - wk][bk] + rank_free(p.pieces[1] & p.kings, men | wkings,
                                                       c.all_dense)
    return r * 2 + p.stm


cdef inline void free_squares(const Ctx* c, u64 taken, int* out) noexcept nogil:
    """The squares of the board not in taken, in board order (dense numbering for kings)."""
    cdef int d, n = 0
    for d in range(c.nsq):
        if not (taken >> c.all_sq[d]) & 1:
            out[n] = c.all_sq[d]
            n += 1


cdef inline int decode(const Ctx* c, u64 idx, int wm, int wk, int bm, int bk, Pos* p) noexcept nogil:
    """The position at idx of the slice; 0 if its groups overlap."""
    cdef int stm = idx & 1
    idx >>= 1
    cdef u64 n_bk = BINOM[c.nsq - wm - bm - wk][bk], n_wk = BINOM[c.nsq - wm - bm][wk]
    cdef u64 n_bm = BINOM[c.nmen[1]][bm]
    cdef u64 r_bk = idx % n_bk
    idx //= n_bk
    cdef u64 r_wk = idx % n_wk
    idx //= n_wk
    cdef u64 r_bm = idx % n_bm
    idx //= n_bm
    cdef u64 wmen = unrank_set(idx, wm, c.nmen[0], c.men_sq[0])
    cdef u64 bmen = unrank_set(r_bm, bm, c.nmen[1], c.men_sq[1])
    if wmen & bmen:
        return 0
    # Kings over the free squares, in board order.
    cdef int free_sq[64]
    free_squares(c, wmen | bmen, free_sq)
    cdef u64 wkings = unrank_set(r_wk, wk, c.nsq - wm - bm, free_sq)
    free_squares(c, wmen | bmen | wkings, free_sq)
    cdef u64 bkings = unrank_set(r_bk, bk, c.nsq - wm - bm - wk, free_sq)
    set_pos(p, wmen | wkings, bmen | bkings, wkings | bkings, stm)
    return 1


ctypedef struct DecodeCache:
    # What decode works out for every entry sharing the index's upper part (all but Black's
    # kings and the side to move): kept between entries of a pass in index order.
    u64 upper                 # (idx >> 1) // (Black's king combinations); ~0: nothing kept
    u64 first                 # upper * (Black's king combinations): its first idx >> 1
    int ok                    # the men of both sides do not overlap
    u64 pieces[2]             # White's men and kings, Black's men
    u64 kings
    int free_sq[64]           # the squares Black's kings may take, in board order


cdef inline void decode_cache_init(DecodeCache* cache) noexcept nogil:
    cache.upper = <u64>-1


cdef inline int decode_next(const Ctx* c, u64 idx, int wm, int wk, int bm, int bk, Pos* p,
                            DecodeCache* cache, int whole) noexcept nogil:
    """decode, for passes in index order: the men and White's kings are decoded once for all
    the entries that share them (Black's kings vary fastest), which saves most of the
    divisions and square lists. whole: the rest of p is cleared as set_pos does (what the
    generator reads); else only its pieces, kings and side to move are set (what unmoves read:
    clearing the rest costs settling several per cent)."""
    cdef u64 i = idx >> 1
    cdef u64 n_bk = BINOM[c.nsq - wm - bm - wk][bk]
    cdef u64 upper = cache.upper
    cdef u64 q, r_wk, r_bm, wmen, bmen, wkings
    cdef int free_sq[64]
    if upper == <u64>-1 or i - cache.first >= n_bk:      # (a division only where it changes)
        upper = i // n_bk
        cache.upper = upper
        cache.first = upper * n_bk
        q = upper
        r_wk = q % BINOM[c.nsq - wm - bm][wk]
        q //= BINOM[c.nsq - wm - bm][wk]
        r_bm = q % BINOM[c.nmen[1]][bm]
        q //= BINOM[c.nmen[1]][bm]
        wmen = unrank_set(q, wm, c.nmen[0], c.men_sq[0])
        bmen = unrank_set(r_bm, bm, c.nmen[1], c.men_sq[1])
        cache.ok = (wmen & bmen) == 0
        if cache.ok:
            free_squares(c, wmen | bmen, free_sq)
            wkings = unrank_set(r_wk, wk, c.nsq - wm - bm, free_sq)
            free_squares(c, wmen | bmen | wkings, cache.free_sq)
            cache.pieces[0] = wmen | wkings
            cache.pieces[1] = bmen
            cache.kings = wkings
    if not cache.ok:
        return 0
    cdef u64 bkings = unrank_set(i - cache.first, bk, c.nsq - wm - bm - wk, cache.free_sq)
    if whole:
        set_pos(p, cache.pieces[0], cache.pieces[1] | bkings, cache.kings | bkings, idx & 1)
    else:
        p.pieces[0] = cache.pieces[0]
        p.pieces[1] = cache.pieces[1] | bkings
        p.kings = cache.kings | bkings
        p.stm = idx & 1
    return 1


ctypedef fused value_t:
    uint8_t
    uint16_t


cdef inline int stored_top(value_t* width) noexcept nogil:
    """UNKNOWN as a slice of this width stores it (its highest number; INVALID one less, and
    NO_LOSS the same in outmax)."""
    if value_t is uint8_t:
        return 0xFF
    else:
        return 0xFFFF


cdef inline int stored_max_plies(const Ctx* c, value_t* width) noexcept nogil:
    """The longest distance a build stores in values of this width."""
    if value_t is uint8_t:
        return c.narrow_plies
    else:
        return MAX_PLIES_WIDE


cdef inline int stored_code(const value_t* val, u64 idx) noexcept nogil:
    """A stored value as an int code (INVALID, UNKNOWN for the highest two numbers)."""
    cdef int v = val[idx], top = stored_top(<value_t*>NULL)
    if v >= top - 1:
        return UNKNOWN if v == top else INVALID
    return v


cdef inline int cas_value(value_t* p, int expected, int desired) noexcept nogil:
    if value_t is uint8_t:
        return atomic_cas_u8(p, <uint8_t>expected, <uint8_t>desired)
    else:
        return atomic_cas_u16(p, <uint16_t>expected, <uint16_t>desired)


cdef inline u64 find_value(const value_t* val, int code, u64 idx, u64 hi) noexcept nogil:
    """The first entry of idx..hi-1 holding code, or hi."""
    cdef const uint8_t* hit
    cdef uint16_t wanted = <uint16_t>code
    cdef int j, seen
    if value_t is uint8_t:
        hit = <const uint8_t*>memchr(val + idx, code, hi - idx)
        return hi if hit == NULL else <u64>(hit - val)
    else:
        # Runs of 64 entries compared without an early exit, which the compiler turns into
        # vector code (a settling step scans the whole slice: 3-4x faster than one by one).
        while idx + 64 <= hi:
            seen = 0
            for j in range(64):
                seen |= val[idx + j] == wanted
            if seen:
                break
            idx += 64
        while idx < hi and val[idx] != wanted:
            idx += 1
        return idx


cdef int any_code(const Ctx* c, const Pos* p, int need_plies, int depth) noexcept nogil:
    """The table value of any position of the variant, as an int code, UNKNOWN when
    no table holds it. From a compressed slice: WIN_ANY or LOSS_ANY when need_plies is 0, and
    UNKNOWN for a position with a capture when depth is -1."""
    cdef u64 w = p.pieces[0], b = p.pieces[1], k = p.kings
    if p.pieces[p.stm] == 0:
        return 1                               # no pieces: lost now
    if p.pieces[p.stm ^ 1] == 0:
        return UNKNOWN
    cdef int wm = bb_popcount(w & ~k), wk = bb_popcount(w & k)
    cdef int bm = bb_popcount(b & ~k), bk = bb_popcount(b & k)
    if wm > MAXP or wk > MAXP or bm > MAXP or bk > MAXP:
        return UNKNOWN
    if c.vals[wm][wk][bm][bk] != NULL:
        return stored_code(c.vals[wm][wk][bm][bk], pos_index(c, p, wm, bm, wk, bk))
    cdef int code
    cdef uint16_t* slot
    if c.vals16[wm][wk][bm][bk] != NULL:
        slot = c.vals16[wm][wk][bm][bk] + pos_index(c, p, wm, bm, wk, bk)
        code = stored_code(slot, 0)
        if code == LOSS_MARK or code == CAPTURE_MARK:         # an unpacked compressed slice
            return marked_code(c, p, slot, need_plies, depth)
        return code
    if c.wdl[wm][wk][bm][bk] != NULL:
        return packed_code(c, p, wm, wk, bm, bk, need_plies, depth)
    return UNKNOWN


cdef inline int lookup(const Ctx* c, const Pos* p) noexcept nogil:
    """The exact table value of any position (the distance included), UNKNOWN when no table
    holds it."""
    return any_code(c, p, 1, 0)


cdef int marked_code(const Ctx* c, const Pos* p, uint16_t* slot, int need_plies,
                     int depth) noexcept nogil:
    """A marked entry of an unpacked compressed slice (see unpack_range), from the successors;
    the value found is written in its place, so that the next read finds it (several threads
    may write one entry: they write the same value). A position marked lost keeps its mark
    unless it is found lost (verify reports the mark then)."""
    cdef Pos q
    cdef int mark = slot[0], code
    if mark == LOSS_MARK and not need_plies:
        return LOSS_ANY
    set_pos(&q, p.pieces[0], p.pieces[1], p.kings, p.stm)     # move counters play no part
    code = successor_code(c, &q, need_plies, depth)
    if need_plies and code < INVALID and (mark == CAPTURE_MARK or
                                          (code != DRAW and (code - 1) % 2 == 0)):
        slot[0] = <uint16_t>code
    return code


cdef int packed_code(const Ctx* c, const Pos* p, int wm, int wk, int bm, int bk, int need_plies,
                     int depth) noexcept nogil:
    """A position of a compressed slice. Its entry holds win/draw/loss unless a rule ends the
    game there or it has a capture (then the entry holds whatever compressed best); a won
    position's distance is in the distance slice; the rest comes from the successors."""
    cdef Pos q
    cdef int rule, w, s
    set_pos(&q, p.pieces[0], p.pieces[1], p.kings, p.stm)     # move counters play no part
    if c.static_ends:
        rule = rule_draw(&q, c.R)
        if rule == END_LONE_PIECE:
            return 1
        if rule != END_NONE:
            return DRAW
    if has_capture(&q, c.R):
        if depth < 0:                          # the search's probe: it searches the capture
            return UNKNOWN
        return successor_code(c, &q, need_plies, depth)
    cdef u64 idx = pos_index(c, &q, wm, bm, wk, bk)
    w = packed_get(c.wdl[wm][wk][bm][bk], c.wdl_cache, &c.decoders, idx)
    if w < 0:
        return UNKNOWN
    if w == 0:
        return DRAW
    if not need_plies:
        return WIN_ANY if w == 1 else LOSS_ANY
    if w == 2:
        return successor_code(c, &q, need_plies, depth)
    if c.dist[wm][wk][bm][bk] == NULL:
        return UNKNOWN
    s = packed_get(c.dist[wm][wk][bm][bk], c.dist_cache, &c.decoders, idx)
    if s < 0:
        return UNKNOWN
    return 2 * s + 2                           # plies 2s + 1, stored as plies + 1


cdef int successor_code(const Ctx* c, Pos* q, int need_plies, int depth) noexcept nogil:
    """The retrograde rule over q's moves (as expected_code), for what a compressed slice does
    not store; q has no rule ending and is left unchanged."""
    cdef Move moves[MAX_MOVES]
    cdef Undo u
    cdef int n, i, code, best_win = 0, worst = 0, any_draw = 0, any_win = 0
    if depth >= MAX_RESOLVE:
        return UNKNOWN
    n = generate(q, c.R, moves)
    if n == 0:
        return 1
    for i in range(n):
        make(q, c.R, &moves[i], &u)
        code = any_code(c, q, need_plies, depth + 1)
        unmake(q, c.R, &moves[i], &u)
        if code == UNKNOWN or code == INVALID:
            return UNKNOWN
        if code == DRAW:
            any_draw = 1
        elif code == LOSS_ANY:
            any_win = 1
        elif code == WIN_ANY:
            pass
        elif (code - 1) % 2 == 0:              # the successor is lost for its side to move
            any_win = 1
            if best_win == 0 or code < best_win:
                best_win = code
        elif code > worst:
            worst = code
    if not need_plies:
        return WIN_ANY if any_win else DRAW if any_draw else LOSS_ANY
    if best_win:
        return best_win + 1
    if any_draw:
        return DRAW
    return worst + 1


# -- building ---------------------------------------------------------------------------------

ctypedef struct Unmove:
    u64 index                 # the predecessor's entry in the slice
    u64 moved                 # the pieces of the side that moved, as they stood before it
    u64 kings                 # ... and the kings


cdef int predecessors(const Ctx* c, const Pos* p, int wm, int wk, int bm, int bk,
                      Unmove* out) noexcept nogil:
    """The positions of the same slice from which one quiet move of the side that just moved
    may lead to p: the generator's quiet moves run backwards (a man steps back against one of
    its move directions, a king slides back along its own, flying or not, and Chapinas' lateral
    move). Such a move is legal exactly when the position it is played from has no capture,
    captures being compulsory in every draughts game; that test is left to the caller
    (unmove_captures), which needs it only for a few of them (see settle_range). Writes them to
    out; returns how many."""
    cdef const Rules* R = c.R
    cdef int y = p.stm ^ 1, n = 0, s, t, i, d, j
    cdef u64 occ = p.pieces[0] | p.pieces[1], empty = R.valid & ~occ
    cdef u64 pieces = p.pieces[y], targets, blk, ray, sb, tb
    cdef Pos q                # only its pieces, kings and side to move are set and read
    q.pieces[y ^ 1] = p.pieces[y ^ 1]
    q.stm = y
    # A king's move leaves the men where they are: the index's part for them (and for
    # White's kings when Black moved) is worked out once (see pos_index), not per unmove.
    cdef u64 men = occ & ~p.kings, wkings = p.pieces[0] & p.kings
    cdef u64 n_wk = BINOM[c.nsq - wm - bm][wk], n_bk = BINOM[c.nsq - wm - bm - wk][bk]
    cdef u64 head = (rank_set(p.pieces[0] & ~p.kings, c.men_dense[0]) * BINOM[c.nmen[1]][bm]
                     + rank_set(p.pieces[1] & ~p.kings, c.men_dense[1])) * n_wk
    if y == 1:
        head = (head + rank_free(wkings, men, c.all_dense)) * n_bk
    while pieces:
        s = bb_lsb(pieces)
        pieces &= pieces - 1
        sb = (<u64>1) << s
        targets = 0
        if p.kings & sb:
            for i in range(R.n_king_dir):
                d = R.king_dir[i]
                if R.flying:
                    ray = R.ray[d][s]
                    blk = ray & occ
                    if blk:
                        j = bb_lsb(blk) if R.up[d] else bb_msb(blk)
                        ray &= ~(R.ray[d][j] | ((<u64>1) << j))
                    targets |= ray
                else:
                    targets |= ((sb & R.canstep[d]) << R.lsh[d]) >> R.rsh[d]
            if R.lateral and (sb & R.promo[y]):
                targets |= ((sb & R.canstep[8]) << R.lsh[8]) >> R.rsh[8]
                targets |= ((sb & R.canstep[9]) << R.lsh[9]) >> R.rsh[9]
            targets &= empty
        else:
            for i in range(R.n_man_move):
                d = R.opposite[R.man_move[y][i]]
                targets |= ((sb & R.canstep[d]) << R.lsh[d]) >> R.rsh[d]
            targets &= empty & ~R.promo[y]
        q.kings = p.kings
        while targets:
            t = bb_lsb(targets)
            targets &= targets - 1
            tb = (<u64>1) << t
            q.pieces[y] = p.pieces[y] ^ (sb | tb)
            if not p.kings & sb:
                out[n].index = pos_index(c, &q, wm, bm, wk, bk)
            elif y == 1:
                q.kings = p.kings ^ (sb | tb)
                out[n].index = (head + rank_free(q.pieces[1] & q.kings, men | wkings,
                                                 c.all_dense)) * 2 + 1
            else:
                q.kings = p.kings ^ (sb | tb)
                out[n].index = ((head + rank_free(q.pieces[0] & q.kings, men, c.all_dense))
                                * n_bk + rank_free(p.pieces[1] & p.kings,
                                                   men | (q.pieces[0] & q.kings),
                                                   c.all_dense)) * 2
            out[n].moved = q.pieces[y]
            out[n].kings = q.kings
            n += 1
    return n


cdef inline int unmove_captures(const Ctx* c, const Pos* p, const Unmove* u) noexcept nogil:
    """Whether the predecessor u of p has a capture (so that its move to p is not legal)."""
    cdef Pos q
    q.pieces[p.stm] = p.pieces[p.stm]
    q.pieces[p.stm ^ 1] = u.moved
    q.kings = u.kings
    q.stm = p.stm ^ 1
    return has_capture(&q, c.R)


cdef int first_pass(const Ctx* c, int wm, int wk, int bm, int bk, value_t* val, uint8_t* cnt,
                    value_t* outmax, u64 lo, u64 hi, u64* pending) noexcept nogil:
    """The build's forward pass over entries lo..hi-1: each position's moves out of the slice
    are looked up in the slices below, its moves inside it counted (cnt). val gets the final
    value where it is known now (invalid, drawn by a rule, lost with no move), the shortest win
    through a move out of the slice (a tentative value: a shorter one may be found inside), or
    the loss one ply after the longest out-of-slice win of the opponent when no move stays
    inside; else UNKNOWN. outmax keeps that longest win, or NO_LOSS when a move out of the
    slice reaches a draw. pending[code] counts the entries given each code. Entries lo..hi-1
    are the only ones written, so ranges can run in parallel. Returns 0 or an error of _ERRORS
    (-2 where a distance needs a wider value than val's)."""
    cdef Move moves[MAX_MOVES]
    cdef Pos p, q
    cdef u64 idx
    cdef int n, i, code, best_win, inside, rule, longest_out, no_loss
    cdef int top = stored_top(val), max_plies = stored_max_plies(c, val)
    cdef int out_limit = max_plies
    cdef DecodeCache cache
    cdef Gen gen
    gen.path_mode = 0
    if value_t is uint8_t:
        out_limit = max_plies - 1
    decode_cache_init(&cache)
    # Cleared once: nothing below changes p but its pieces, kings and side to move, which each
    # entry sets (successors are made on a copy of those three).
    set_pos(&p, 0, 0, 0, 0)
    for idx in range(lo, hi):
        if not decode_next(c, idx, wm, wk, bm, bk, &p, &cache, 0):
            val[idx] = <value_t>(top - 1)              # INVALID
            continue
        rule = rule_draw(&p, c.R)          # only Turkish material rules fire with zero counters
        if rule != END_NONE and rule != END_LONE_PIECE:
            val[idx] = DRAW
            continue
        n = 0
        if rule != END_LONE_PIECE:
            n = gen_captures(&p, c.R, moves, &gen)
            if n == 0:
                if promoting_steps(&p, c.R):
                    n = gen_quiet(&p, c.R, moves)
                else:
                    # Every move stays in the slice (most positions): counted, not written out.
                    inside = quiet_count(&p, c.R)
                    if inside > 254:
                        return -4
                    if inside:
                        cnt[idx] = <uint8_t>inside
                        outmax[idx] = 0
                        val[idx] = <value_t>top
                        continue
        if n == 0:
            val[idx] = 1                   # lost now
            pending[1] += 1
            continue
        best_win = UNKNOWN
        inside = longest_out = no_loss = 0
        for i in range(n):
            if moves[i].captured == 0 and not moves[i].promote:
                inside += 1
                continue
            q.pieces[0] = p.pieces[0]
            q.pieces[1] = p.pieces[1]
            q.kings = p.kings
            q.stm = p.stm
            move_board(&q, &moves[i])      # a table's value depends on nothing else
            code = lookup(c, &q)
            if code == UNKNOWN or code == INVALID:
                return -3
            if code == DRAW:
                no_loss = 1
            elif (code - 1) % 2 == 0:          # the opponent is lost: we win one ply later
                if code < best_win:
                    best_win = code
            elif code - 1 > longest_out:
                longest_out = code - 1
        if inside > 254:
            return -4
        # Past the width: a win through a move out (maybe replaced later by a shorter one
        # inside), or the longest win of the opponent when every move may lose. A byte-wide
        # build also refuses a longest win of exactly its limit: a loss after it would pass
        # the limit at any settling step, and this way only steps from the limit's on can
        # (the build widens its values before such a step; see _build).
        if (best_win != UNKNOWN and best_win > max_plies
                or not no_loss and longest_out > out_limit):
            return -2
        cnt[idx] = <uint8_t>inside
        outmax[idx] = <value_t>top if no_loss else <value_t>longest_out     # top: NO_LOSS
        code = UNKNOWN
        if best_win != UNKNOWN:
            code = best_win + 1
        elif inside == 0 and not no_loss:
            if longest_out + 1 > max_plies:
                return -2
            code = longest_out + 2
        if code == UNKNOWN:
            # Every move out of the slice and one of them a draw: a draw, final now. So an
            # entry left unknown always has a move inside, hence no capture (see settle_range).
            val[idx] = <value_t>(top if inside else DRAW)
        else:
            val[idx] = <value_t>code
            pending[code] += 1
    return 0


cdef inline int longer_win(int v, int d, int top) noexcept nogil:
    """Whether stored value v is a win longer than d + 1 plies (a tentative one, through a move
    out of the slice, that a win at d + 1 replaces)."""
    return v > d + 2 and v != top - 1 and v % 2 == 0


cdef int settle_range(const Ctx* c, int wm, int wk, int bm, int bk, value_t* val, uint8_t* cnt,
                      const value_t* outmax, int d, u64 lo, u64 hi, u64* pending) noexcept nogil:
    """One step of settling by distance, after first_pass, over entries lo..hi-1: every entry
    holding code d + 1 is final (a shorter win would have been found at an earlier d). A lost
    one makes each unsettled predecessor won at d + 1 (replacing a longer tentative win); a won
    one takes one from each unsettled predecessor's count, and one left with no move is lost
    one ply after the longest of its moves' wins. New codes are d + 2 or more, so the step
    never meets its own writes. Ranges of one step run in parallel: predecessors are written
    with atomic operations. The entries of code d + 1 are found by scanning val, so the build
    needs no queue: 3 bytes an entry in all (val, cnt, outmax; 5 for two-byte values).
    pending[code] counts codes given (replaced tentative wins included: it only tells which
    steps to run). Returns 0 or -2 (a distance past val's width)."""
    cdef Pos p
    cdef u64 idx = lo, qi
    cdef Unmove preds[MAX_MOVES]
    cdef int j, np, v, plies
    cdef int top = stored_top(val), max_plies = stored_max_plies(c, val)
    cdef DecodeCache cache
    decode_cache_init(&cache)
    while idx < hi:
        idx = find_value(val, d + 1, idx, hi)
        if idx == hi:
            break
        decode_next(c, idx, wm, wk, bm, bk, &p, &cache, 0)    # the hits come in index order
        idx += 1
        np = predecessors(c, &p, wm, wk, bm, bk, preds)
        # The predecessors' entries lie anywhere in the slice: ask for all of them before
        # reading the first, so that their cache misses overlap.
        for j in range(np):
            prefetch_write(val + preds[j].index)
            if d % 2:
                prefetch_write(cnt + preds[j].index)
        for j in range(np):
            qi = preds[j].index
            v = val[qi]
            # A candidate with a capture is no predecessor. An unknown entry has a move inside
            # the slice, hence no capture (first_pass): only a tentative win needs the test.
            if d % 2 == 0:
                # Won one ply later, unless settled already or a win as short is known (a
                # pending loss cannot have a winning move: it is never a predecessor here).
                if v != top and (not longer_win(v, d, top)
                                 or unmove_captures(c, &p, &preds[j])):
                    continue
                while v == top or longer_win(v, d, top):
                    if d + 1 > max_plies:
                        return -2
                    if cas_value(&val[qi], v, d + 2):
                        pending[d + 2] += 1
                        break
                    v = val[qi]
            elif v == top and atomic_dec_u8(&cnt[qi]) == 0 and outmax[qi] != top:
                # The last of its moves found won for the opponent (one thread sees the zero).
                plies = (d if d > outmax[qi] else outmax[qi]) + 1
                if plies > max_plies:
                    return -2
                val[qi] = <value_t>(plies + 1)
                pending[plies + 1] += 1
    return 0


cdef void finish_values(value_t* val, u64 size, u64* counts) noexcept nogil:
    """After settling: what is still unknown is a draw. counts = (wins, draws, losses, invalid,
    longest plies)."""
    cdef u64 idx
    cdef int v, top = stored_top(val)
    memset(counts, 0, 5 * sizeof(u64))
    for idx in range(size):
        v = val[idx]
        if v == top:
            val[idx] = v = DRAW
        if v == top - 1:
            counts[3] += 1
        elif v == DRAW:
            counts[1] += 1
        else:
            counts[0 if (v - 1) % 2 else 2] += 1
            if <u64>(v - 1) > counts[4]:
                counts[4] = v - 1


# -- verifying --------------------------------------------------------------------------------

cdef int expected_code(const Ctx* c, Pos* p) noexcept nogil:
    """The value the retrograde rule gives p from its successors' stored values (all slices
    attached): a lone-piece loss or no move = lost now; else the shortest win through a lost
    successor, else a draw if a successor is drawn, else lost one ply after the longest loss.
    -1 when a successor is not held by the tables."""
    cdef int rule = rule_draw(p, c.R), code
    if rule == END_LONE_PIECE:
        return 1
    if rule != END_NONE:
        return DRAW
    code = successor_code(c, p, 1, 0)
    return -1 if code == UNKNOWN else code


cdef int verify_range(const Ctx* c, int wm, int wk, int bm, int bk, const value_t* val,
                      u64 start, u64 stop, u64* wrong, int max_wrong, u64* counts) noexcept nogil:
    """Check entries start..stop-1 of a slice (val[0] is entry start) against expected_code (an
    invalid index must hold INVALID). counts = (checked, wrong, underived: a successor holds no
    value, a corrupt entry or a missing slice, so the entry's value cannot be worked out); the
    first max_wrong wrong indices go to `wrong`. Returns 0."""
    cdef Pos p
    cdef u64 idx
    cdef int want, stored
    counts[0] = counts[1] = counts[2] = 0
    for idx in range(start, stop):
        if not decode(c, idx, wm, wk, bm, bk, &p):
            want = INVALID
        else:
            want = expected_code(c, &p)
            if want < 0:
                counts[0] += 1
                counts[2] += 1
                continue
        counts[0] += 1
        stored = stored_code(val, idx - start)
        if stored == CAPTURE_MARK:             # an unpacked slice stores nothing here
            continue
        if stored == LOSS_MARK and want != DRAW and want < INVALID and (want - 1) % 2 == 0:
            continue                           # ... and "lost" without the distance
        if stored != want:
            if counts[1] < <u64>max_wrong:
                wrong[counts[1]] = idx
            counts[1] += 1
    return 0


cdef void stream_range(const Ctx* c, int wm, int wk, int bm, int bk, const value_t* val,
                       uint8_t* w, uint8_t* dd, u64 lo, u64 hi, u64 half) noexcept nogil:
    """What a compressed slice stores of entries lo..hi-1 (see streams), entry idx at
    idx / 2 + (idx odd) * half: w 0 draw, 1 win, 2 loss; dd (plies - 1) / 2 of a win; REPEAT
    where nothing need be stored."""
    cdef u64 idx, at
    cdef Pos p
    cdef int v, rule
    cdef DecodeCache cache
    decode_cache_init(&cache)
    for idx in range(lo, hi):
        at = (idx >> 1) + (idx & 1) * half
        w[at] = dd[at] = REPEAT
        v = stored_code(val, idx)
        if v != INVALID and decode_next(c, idx, wm, wk, bm, bk, &p, &cache, 1):
            rule = rule_draw(&p, c.R)
            if rule != END_NONE or not has_capture(&p, c.R):
                if v == DRAW:
                    w[at] = 0
                elif (v - 1) % 2:
                    w[at] = 1
                    dd[at] = <uint8_t>((v - 2) >> 1)
                else:
                    w[at] = 2


cdef int stream_packed_range(const Ctx* c, int wm, int wk, int bm, int bk, uint8_t* w,
                             uint8_t* dd, u64 lo, u64 hi, u64 half) noexcept nogil:
    """stream_range for a compressed slice (to write it again, by side to move): the same
    places, each value read from the slice's own entry. 0, or -1 at a corrupt block."""
    cdef const Packed* P = c.wdl[wm][wk][bm][bk]
    cdef const Packed* D = c.dist[wm][wk][bm][bk]
    cdef u64 idx, at
    cdef Pos p
    cdef int v, s
    cdef DecodeCache cache
    decode_cache_init(&cache)
    for idx in range(lo, hi):
        at = (idx >> 1) + (idx & 1) * half
        w[at] = dd[at] = REPEAT
        if decode_next(c, idx, wm, wk, bm, bk, &p, &cache, 1):
            if rule_draw(&p, c.R) != END_NONE or not has_capture(&p, c.R):
                v = packed_get(P, c.wdl_cache, &c.decoders, idx)
                if v < 0:
                    return -1
                w[at] = <uint8_t>v
                if v == 1:
                    s = packed_get(D, c.dist_cache, &c.decoders, idx)
                    if s < 0:
                        return -1
                    dd[at] = <uint8_t>s
    return 0


cdef int unpack_range(const Ctx* c, int wm, int wk, int bm, int bk, uint16_t* out, u64 lo,
                      u64 hi) noexcept nogil:
    """Entries lo..hi-1 of a compressed slice as two-byte raw values (out[0] is entry lo), each
    read from the slice's own blocks, none worked out from successors: a won position's exact
    value, draws, a lone piece's loss; LOSS_MARK for the other losses and CAPTURE_MARK where
    the files keep nothing (see stream_range). Reading in index order decodes each block about
    once, where verifying through probes decodes a block for most successors. 0, or -1 at a
    corrupt block."""
    cdef const Packed* P = c.wdl[wm][wk][bm][bk]
    cdef const Packed* D = c.dist[wm][wk][bm][bk]
    cdef u64 idx
    cdef Pos p
    cdef int w, s, rule
    cdef DecodeCache cache
    decode_cache_init(&cache)
    for idx in range(lo, hi):
        if not decode_next(c, idx, wm, wk, bm, bk, &p, &cache, 1):
            out[idx - lo] = 0xFFFE                # INVALID as two bytes store it
            continue
        rule = rule_draw(&p, c.R)
        if rule == END_NONE and has_capture(&p, c.R):
            out[idx - lo] = CAPTURE_MARK
            continue
        w = packed_get(P, c.wdl_cache, &c.decoders, idx)
        if w < 0:
            return -1
        if w == 0:
            out[idx - lo] = DRAW
        elif w == 2:
            out[idx - lo] = 1 if rule == END_LONE_PIECE else LOSS_MARK
        else:
            if D == NULL:
                return -1
            s = packed_get(D, c.dist_cache, &c.decoders, idx)
            if s < 0:
                return -1
            out[idx - lo] = <uint16_t>(2 * s + 2)
    return 0


# -- probing ----------------------------------------------------------------------------------

cdef int probe_c(const void* ctx, const void* pos, int* plies) noexcept nogil:
    """The search's question: the exact result of pos if a table holds it; plies is -1 when a
    compressed slice answers (win/draw/loss without the distance). A compressed slice does not
    answer for a position with a capture: the search goes on into the capture, which is
    cheaper than working the value out here."""
    cdef const Ctx* c = <const Ctx*>ctx
    cdef const Pos* p = <const Pos*>pos
    if bb_popcount(p.pieces[0] | p.pieces[1]) > c.max_pieces:
        return RULE_NONE
    return code_to_rule(any_code(c, p, 0, -1), plies)


cdef int code_to_rule(int code, int* plies) noexcept nogil:
    if code == UNKNOWN or code == INVALID:
        return RULE_NONE
    if code == DRAW:
        return RULE_DRAW
    if code == WIN_ANY or code == LOSS_ANY:
        plies[0] = -1
        return RULE_WIN if code == WIN_ANY else RULE_LOSS
    plies[0] = code - 1
    return RULE_WIN if (code - 1) % 2 else RULE_LOSS


_ERRORS = {-1: "out of memory",
           -2: "a distance to the end longer than the values hold",
           -3: "a successor slice is missing (build the smaller slices first)",
           -4: "a position with more moves inside its slice than a build counts (254)"}


def _codes(values):
    """Stored values of either width as int codes: the inverse of _stored."""
    top = np.iinfo(values.dtype).max
    codes = values.astype(np.int32)
    codes[values == top - 1] = INVALID
    codes[values == top] = UNKNOWN
    return codes


def _stored(signature, codes, dtype):
    """Int codes (an array) as a slice of `dtype` stores them."""
    top = np.iinfo(dtype).max
    stored = codes.copy()
    stored[codes == INVALID] = top - 1
    stored[codes == UNKNOWN] = top
    if (stored > top).any():
        raise ValueError(f"slice {signature}: a distance past {top - 2} plies needs two-byte "
                         f"values")
    return stored.astype(dtype)


class _DistanceTooLong(RuntimeError):
    """A byte-wide build's first pass met a distance past MAX_PLIES (build then builds the
    slice in two bytes), or a build kept to bytes met one."""


def _widened(values):
    """A build's byte-wide array (values or outmax) as two bytes an entry, the stored
    sentinels moved to the top of the wider width. The byte-wide array is freed by the
    caller's dropping it: at most 3 + 2 + 1 bytes an entry meanwhile (wide_build_bytes)."""
    wide = np.empty(values.shape[0], dtype=np.uint16)
    cdef const uint8_t[::1] src = values
    cdef uint16_t[::1] dst = wide
    cdef u64 idx, n = values.shape[0]
    with nogil:
        for idx in range(n):
            dst[idx] = src[idx] if src[idx] < 0xFE else src[idx] + 0xFF00
    return wide


def _narrowed(values):
    """Finished two-byte values that fit in a byte, as bytes (the sentinels moved down)."""
    narrow = np.empty(values.shape[0], dtype=np.uint8)
    cdef const uint16_t[::1] src = values
    cdef uint8_t[::1] dst = narrow
    cdef u64 idx, n = values.shape[0]
    with nogil:
        for idx in range(n):
            dst[idx] = <uint8_t>(src[idx] if src[idx] < 0xFFFE else src[idx] - 0xFF00)
    return narrow


class _SliceRanges:
    """A pass over a slice cut into ranges that `threads` threads share (about 16 a thread,
    so that a thread finishing early takes another), run on one thread pool for all the
    passes of a build. Used as a context manager: the pool ends with it."""

    def __init__(self, size, threads):
        step = max(1 << 16, -(-size // (16 * max(threads, 1))))
        self.ranges = [(i, lo, min(lo + step, size)) for i, lo in enumerate(range(0, size, step))]
        self.pool = None
        if threads > 1 and len(self.ranges) > 1:
            from concurrent.futures import ThreadPoolExecutor
            self.pool = ThreadPoolExecutor(max_workers=threads)

    def __len__(self):
        return len(self.ranges)

    def run(self, fn):
        """fn(i, lo, hi) for every range i (entries lo..hi-1); the list of what they return."""
        if self.pool is None:
            return [fn(*r) for r in self.ranges]
        return list(self.pool.map(lambda r: fn(*r), self.ranges))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.pool is not None:
            self.pool.shutdown()


cdef class DraughtsTableSet(ProbeSource):
    """The slices of one variant known to the native code: built here or attached from files.
    Used by engine.egdb; the search probes it through ProbeSource."""

    cdef Ctx* c
    cdef dict _arrays
    cdef dict _packed          # signature -> the arrays a compressed slice points into
    cdef int _next_id
    cdef int wdl_slots         # blocks the win/draw/loss cache holds

    def __cinit__(self, *args, **kwargs):
        self.c = <Ctx*>calloc(1, sizeof(Ctx))
        if self.c == NULL:
            raise MemoryError()
        self._arrays = {}
        self._packed = {}
        self.wdl_slots = WDL_SLOTS

    def __dealloc__(self):
        cdef int a, b, d, e
        if self.c == NULL:
            return
        for a in range(MAXP + 1):
            for b in range(MAXP + 1):
                for d in range(MAXP + 1):
                    for e in range(MAXP + 1):
                        free(self.c.wdl[a][b][d][e])
                        free(self.c.dist[a][b][d][e])
        cache_free(self.c.wdl_cache)
        cache_free(self.c.dist_cache)
        free_decoders(&self.c.decoders)
        free(self.c)

    def __init__(self, variant: str):
        cdef const Rules* R = rules_for(_ID_BY_NAME[variant])
        cdef Ctx* c = self.c
        cdef int s, b, n
        c.R = R
        c.static_ends = has_static_ends(R)
        c.narrow_plies = MAX_PLIES
        self.variant = variant
        n = 0
        for b in range(64):
            c.all_dense[b] = -1
            c.men_dense[0][b] = -1
            c.men_dense[1][b] = -1
            if (R.valid >> b) & 1:
                c.all_dense[b] = n
                c.all_sq[n] = b
                n += 1
        c.nsq = n
        for s in range(2):
            n = 0
            for b in range(64):
                if (R.valid >> b) & 1 and not (R.promo[s] >> b) & 1:
                    c.men_dense[s][b] = n
                    c.men_sq[s][n] = b
                    n += 1
            c.nmen[s] = n
        self.probe_fn = probe_c
        self.probe_ctx = self.c

    @staticmethod
    def limit() -> int:
        return MAXP

    def size(self, tuple signature) -> int:
        """Entries of a slice (positions, invalid ones included, times two sides to move)."""
        wm, wk, bm, bk = signature
        return slice_size(self.c, wm, wk, bm, bk)

    # -- the slices, as engine.egdb sees them: signatures, their names, their order ----------

    compressible = True            # egdb compress: win/draw/loss and distances apart
    file_bytes = 1                 # disk a raw file needs an entry (two where a distance
                                   # passes MAX_PLIES)
    build_bytes = BUILD_BYTES      # memory a build needs an entry of the slice it builds ...
    wide_build_bytes = 6           # ... and at most while two-byte values (a distance past
                                   # MAX_PLIES) replace the bytes (5 once they have)

    @staticmethod
    def slice_name(tuple signature) -> str:
        """``(1, 2, 0, 1)`` → ``'1m2k-0m1k'``: White's men and kings, then Black's."""
        wm, wk, bm, bk = signature
        return f"{wm}m{wk}k-{bm}m{bk}k"

    @staticmethod
    def parse_name(str name) -> tuple:
        """The signature a slice name stands for; ValueError when it names none."""
        white, black = name.split("-")
        if not (white.endswith("k") and black.endswith("k")):
            raise ValueError(f"{name!r} is not a slice name")
        wm, wk = white[:len(white) - 1].split("m")
        bm, bk = black[:len(black) - 1].split("m")
        return int(wm), int(wk), int(bm), int(bk)

    @staticmethod
    def build_group(tuple signature) -> tuple:
        """Slices of one group lead only to slices of earlier groups (captures lower the pieces,
        promotions the men), so a group's slices can be built side by side."""
        return (sum(signature), signature[0] + signature[2])

    @staticmethod
    def feeds(tuple group, tuple later) -> bool:
        """Whether a slice of build group `group` can be a successor of one of group `later`:
        a capture takes one piece or more, a promotion (with no capture) one man."""
        return group[0] < later[0] or group[0] == later[0] and group[1] == later[1] - 1

    def signatures(self, int pieces, bint kings_only=False) -> list:
        """Every slice with 2..pieces pieces and at least one a side, in build order (only those
        without men with ``kings_only``)."""
        white_men, black_men, squares = self.men_squares()
        limit = DraughtsTableSet.limit()
        out = []
        for total in range(2, pieces + 1):
            for wm in range(total + 1):
                for bm in range(total - wm + 1):
                    for wk in range(total - wm - bm + 1):
                        bk = total - wm - bm - wk
                        if wm + wk == 0 or bm + bk == 0 or max(wm, wk, bm, bk) > limit:
                            continue
                        if wm > white_men or bm > black_men or wm + bm + wk + bk > squares:
                            continue
                        if kings_only and wm + bm:
                            continue
                        out.append((wm, wk, bm, bk))
        out.sort(key=lambda sig: (DraughtsTableSet.build_group(sig), sig))
        return out

    @staticmethod
    def reachable(bytes position, tuple signature) -> bool:
        """Whether a game from this position (a board's _native_position) can reach the slice:
        no more men of a side than now, and no more pieces of a side."""
        if len(position) != sizeof(Pos):
            raise ValueError(f"a position of this family is {sizeof(Pos)} bytes, "
                             f"not {len(position)}")
        cdef const Pos* p = <const Pos*><const char*>position
        wm, bm = bb_popcount(p.pieces[0] & ~p.kings), bb_popcount(p.pieces[1] & ~p.kings)
        wk, bk = bb_popcount(p.pieces[0] & p.kings), bb_popcount(p.pieces[1] & p.kings)
        m, k, n, j = signature
        return m <= wm and m + k <= wm + wk and n <= bm and n + j <= bm + bk

    def position_text(self, tuple signature, u64 index) -> str:
        """A slice entry as a FEN the engine reads (for naming wrong positions)."""
        found = self.position(signature, index)
        if found is None:
            return f"entry {index} (an invalid index)"
        white, black, kings, stm = found
        names = _SPEC_BY_ID[_ID_BY_NAME[self.variant]].square_names

        def side(bits):
            return ",".join(("K" if kings >> b & 1 else "") + str(names[b])
                            for b in range(64) if bits >> b & 1)
        return f"{'WB'[stm]}:W{side(white)}:B{side(black)}"

    def men_squares(self) -> tuple:
        return (self.c.nmen[0], self.c.nmen[1], self.c.nsq)

    def attach(self, tuple signature, values):
        """Make a slice's values (a numpy array, maybe memory-mapped: uint8, or uint16 for a
        slice with a distance past MAX_PLIES) known."""
        wm, wk, bm, bk = signature
        if max(signature) > MAXP:
            raise ValueError(f"slice {signature}: at most {MAXP} pieces of a kind")
        if values.dtype not in (np.uint8, np.uint16) or values.ndim != 1 \
                or values.shape[0] != self.size(signature):
            raise ValueError(f"slice {signature}: expected {self.size(signature)} values of "
                             f"one or two bytes")
        cdef const uint8_t[::1] narrow
        cdef const uint16_t[::1] wide
        self._arrays[signature] = values
        self.c.vals[wm][wk][bm][bk] = NULL
        self.c.vals16[wm][wk][bm][bk] = NULL
        if values.dtype == np.uint8:
            narrow = values
            self.c.vals[wm][wk][bm][bk] = <uint8_t*>&narrow[0]
        else:
            wide = values
            self.c.vals16[wm][wk][bm][bk] = <uint16_t*>&wide[0]
        if wm + wk + bm + bk > self.c.max_pieces:
            self.c.max_pieces = wm + wk + bm + bk

    def _limit_narrow(self, int plies):
        """Keep at most `plies` in byte-wide values (default MAX_PLIES): for tests of the
        two-byte builds, which real tables need only past 7 pieces or so."""
        if not 1 <= plies <= MAX_PLIES:
            raise ValueError(f"a byte holds 1 to {MAX_PLIES} plies, not {plies}")
        self.c.narrow_plies = plies

    def build(self, tuple signature, int threads=1, wide=None):
        """Compute one slice (its successor slices must be attached); returns (values, counts)
        with counts = (wins, draws, losses, invalid entries, longest distance in plies). Each
        pass runs on `threads` threads, over ranges of the slice. The values are a byte an
        entry (uint8), unless a distance passes MAX_PLIES: then they are two (uint16, up to
        MAX_PLIES_WIDE). ``wide=None`` builds in bytes and widens the values where a distance
        would pass a byte, going on from there; ``True`` builds in two bytes from the start;
        ``False`` in bytes only (a distance past them is an error). Memory: build_bytes an
        entry in bytes, wide_build_bytes while widening or when wide."""
        if max(signature) > MAXP:
            raise ValueError(f"slice {signature}: at most {MAXP} pieces of a kind")
        try:
            return self._build(signature, threads, bool(wide), wide is None)
        except _DistanceTooLong:
            if wide is not None:
                raise
            # The first pass met a distance past a byte: no settling step was run yet.
            return self._build(signature, threads, True, False)

    def _build(self, tuple signature, int threads, bint wide, bint may_widen):
        size = self.size(signature)
        dtype = np.uint16 if wide else np.uint8
        max_plies = MAX_PLIES_WIDE if wide else self.c.narrow_plies
        values = np.empty(size, dtype=dtype)
        cnt = np.empty(size, dtype=np.uint8)
        outmax = np.empty(size, dtype=dtype)
        widened = False
        with _SliceRanges(size, threads) as ranges:
            pending = np.zeros((len(ranges), MAX_PLIES_WIDE + 2), dtype=np.uint64)
            errors = ranges.run(lambda i, lo, hi: self._pass(signature, values, cnt, outmax, -1,
                                                             lo, hi, pending[i]))
            if may_widen and -2 in errors:
                raise _DistanceTooLong()     # before any settling step: built again wide
            total = pending.sum(axis=0, dtype=np.uint64)
            d = 0
            while d <= max_plies and not any(errors):
                if total[d + 1]:
                    if d == max_plies and may_widen and not wide:
                        # The step would write a distance past a byte, and no earlier step
                        # could have (see first_pass): on in two bytes, from this step.
                        values = _widened(values)        # one at a time: see _widened
                        outmax = _widened(outmax)
                        wide = widened = True
                        max_plies = MAX_PLIES_WIDE
                    pending[:] = 0
                    errors = ranges.run(lambda i, lo, hi: self._pass(
                        signature, values, cnt, outmax, d, lo, hi, pending[i]))
                    total += pending.sum(axis=0, dtype=np.uint64)
                d += 1
        cnt = outmax = None                                  # freed before the last pass
        err = next((e for e in errors if e), 0)
        if err == -2:
            width = "two bytes" if wide else "a byte"
            raise (RuntimeError if wide or may_widen else _DistanceTooLong)(
                f"slice {signature}: a distance to the end longer than {max_plies} plies (more "
                f"than {width} a value holds)")
        if err:
            raise RuntimeError(f"slice {signature}: {_ERRORS[err]}")
        cdef uint8_t[::1] narrow
        cdef uint16_t[::1] wide_values
        cdef u64 counts[5]
        cdef u64 n = size
        if wide:
            wide_values = values
            with nogil:
                finish_values(&wide_values[0], n, counts)
            if widened and counts[4] <= <u64>self.c.narrow_plies:
                values = _narrowed(values)   # widened for nothing: the step wrote no distance
        else:
            narrow = values
            with nogil:
                finish_values(&narrow[0], n, counts)
        self.attach(signature, values)
        return values, tuple(counts[i] for i in range(5))

    def _pass(self, tuple signature, values, cnt, outmax, int d, u64 lo, u64 hi,
              uint64_t[::1] pending) -> int:
        """One thread's part of a build pass over entries lo..hi-1: first_pass when d is -1,
        else settle_range's step d. Its error code."""
        cdef int a = signature[0], b = signature[1], cc = signature[2], e = signature[3], err
        cdef uint8_t[::1] count = cnt
        cdef uint8_t[::1] v8
        cdef uint8_t[::1] o8
        cdef uint16_t[::1] v16
        cdef uint16_t[::1] o16
        if hi <= lo:
            return 0
        if values.dtype == np.uint8:
            v8, o8 = values, outmax
            with nogil:
                if d < 0:
                    err = first_pass(self.c, a, b, cc, e, &v8[0], &count[0], &o8[0], lo, hi,
                                     <u64*>&pending[0])
                else:
                    err = settle_range(self.c, a, b, cc, e, &v8[0], &count[0], &o8[0], d, lo,
                                       hi, <u64*>&pending[0])
        else:
            v16, o16 = values, outmax
            with nogil:
                if d < 0:
                    err = first_pass(self.c, a, b, cc, e, &v16[0], &count[0], &o16[0], lo, hi,
                                     <u64*>&pending[0])
                else:
                    err = settle_range(self.c, a, b, cc, e, &v16[0], &count[0], &o16[0], d, lo,
                                       hi, <u64*>&pending[0])
        return err

    def probe_position(self, bytes native, bint distance=True):
        """(RULE code, plies) for a position given as DraughtsBoard._native_position(); plies
        is -1 when a compressed slice answers and no distance was asked for."""
        cdef Pos p
        if len(native) != sizeof(Pos):
            raise ValueError("not a position of the draughts family")
        memcpy(&p, <const char*>native, sizeof(Pos))
        cdef int plies = 0, r
        if bb_popcount(p.pieces[0] | p.pieces[1]) > self.c.max_pieces:
            return RULE_NONE, 0
        with nogil:
            r = code_to_rule(any_code(self.c, &p, distance, 0), &plies)
        return r, plies

    def verify(self, tuple signature, start=0, stop=None, int max_wrong=10):
        """Re-derive entries start..stop of an attached slice from their successors (the
        retrograde rule, position by position); (checked, wrong count, first wrong indices,
        underived count: entries a successor of which holds no value). A compressed slice is
        checked through its values as probed (see expand)."""
        wm, wk, bm, bk = signature
        if signature not in self._arrays and signature not in self._packed:
            raise ValueError(f"slice {signature} is not attached")
        size = self.size(signature)
        stop = size if stop is None else min(stop, size)
        if signature in self._arrays:
            values = self._arrays[signature][start:stop]
        else:
            values = self.expand(signature, start, stop, np.uint16)
        cdef const uint8_t[::1] narrow
        cdef const uint16_t[::1] wide
        cdef u64 wrong[64]
        cdef u64 counts[3]
        cdef int a = wm, b = wk, cc = bm, d = bk, mw = min(max(max_wrong, 0), 64)
        cdef u64 lo = start, hi = stop
        if hi <= lo:
            return 0, 0, [], 0
        if values.dtype == np.uint8:
            narrow = values
            with nogil:
                verify_range(self.c, a, b, cc, d, &narrow[0], lo, hi, wrong, mw, counts)
        else:
            wide = values
            with nogil:
                verify_range(self.c, a, b, cc, d, &wide[0], lo, hi, wrong, mw, counts)
        return counts[0], counts[1], [wrong[i] for i in range(min(counts[1], mw))], counts[2]

    # -- compressed slices --

    def set_decoders(self, size_t lz4_decode, tuple zstd):
        """How compressed slices are read: the address of liblz4's LZ4_decompress_safe, and
        libzstd's (ZSTD_decompressDCtx, ZSTD_isError, ZSTD_createDCtx, ZSTD_freeDCtx)."""
        cdef Decoders* dec = &self.c.decoders
        cdef int i
        cdef size_t decode, is_error, create, release
        decode, is_error, create, release = zstd
        if not (lz4_decode and decode and is_error and create and release):
            raise ValueError("a decoder function is missing")
        if dec.lz4 != NULL:
            return                                 # set once, by the first compressed slice
        dec.zstd_free = <ZstdFreeFn>release
        for i in range(ZSTD_CONTEXTS):
            dec.contexts[i] = (<ZstdNewFn>create)()
            if dec.contexts[i] == NULL:
                free_decoders(dec)
                raise MemoryError()
        dec.zstd = <ZstdDecodeFn>decode
        dec.zstd_is_error = <ZstdIsErrorFn>is_error
        dec.lz4 = <Lz4DecodeFn>lz4_decode

    @staticmethod
    def block_check(const uint8_t[::1] data) -> int:
        """The 32-bit check a compressed file stores for a block of these bytes."""
        return egdb_block_check(&data[0] if data.shape[0] else NULL, data.shape[0])

    def set_cache_blocks(self, int blocks):
        """Hold at most `blocks` decoded win/draw/loss blocks (a power of two, at least 8;
        default WDL_SLOTS): a smaller cache for small memory, or for tests of its replacement.
        Empties the cache; call it while no search runs."""
        if blocks < CACHE_WAYS or blocks & (blocks - 1):
            raise ValueError(f"cache blocks: a power of two of at least {CACHE_WAYS}, not {blocks}")
        self.wdl_slots = blocks
        if self.c.wdl_cache != NULL:
            buf_bytes = self.c.wdl_cache.buf_bytes
            cache_free(self.c.wdl_cache)
            self.c.wdl_cache = cache_new(blocks, buf_bytes)
            if self.c.wdl_cache == NULL:
                raise MemoryError()

    @property
    def blocks_decoded(self) -> int:
        """Compressed blocks decoded by probes so far (each a miss of the block cache)."""
        cdef unsigned long long n = 0
        if self.c.wdl_cache != NULL:
            n += self.c.wdl_cache.decoded
        if self.c.dist_cache != NULL:
            n += self.c.dist_cache.decoded
        return n

    def streams(self, tuple signature, int threads=1):
        """What a compressed slice stores, from an attached raw slice or a compressed one
        with its distances (to write it again: egdb.compress does so for files in index
        order, written before DIMTBZ03): (wdl, dist), the entries by side to move: those
        with White to move (even indices) in index order, then those with Black to move.
        Neighbours in index order differ only in the side to move, whose values are
        unrelated; stored apart, each side's run of values compresses better (the
        win/draw/loss of 7-piece checkers to a third, distances 17 % smaller).
        wdl: two bits an entry, four entries a byte, the first in the low bits (0 draw, 1 win,
        2 loss); dist: a byte an entry, (plies - 1) / 2 of a win. Entries that need no value
        (invalid indices, positions with a capture; in dist, all but wins) repeat the value
        before them in this order, which compresses best. The positions are looked at on
        `threads` threads; the repeats are filled in afterwards, so the result does not
        depend on them."""
        if signature in self._arrays:
            source = self._stream_values
        elif signature in self._packed and self._packed[signature][1] is not None:
            source = self._stream_packed
        else:
            raise ValueError(f"slice {signature} is not attached (raw, or compressed with "
                             f"its distances)")
        size = self.size(signature)
        wdl = np.empty(size, dtype=np.uint8)
        dist = np.empty(size, dtype=np.uint8)
        with _SliceRanges(size, threads) as ranges:
            failed = ranges.run(lambda i, lo, hi: source(signature, wdl, dist, lo, hi))
        if any(failed):
            raise ValueError(f"slice {signature}: a corrupt block (bad_blocks names it)")
        cdef uint8_t[::1] w = wdl
        cdef uint8_t[::1] dd = dist
        cdef u64 idx, n = size
        cdef uint8_t last_w = 0, last_d = 0, quad = 0
        with nogil:
            for idx in range(n):
                if w[idx] != REPEAT:
                    last_w = w[idx]
                if dd[idx] == REPEAT:
                    dd[idx] = last_d
                else:
                    last_d = dd[idx]
                # Packed in place: byte idx / 4 lies at or before idx, already read.
                quad |= last_w << 2 * (idx & 3)
                if idx & 3 == 3 or idx == n - 1:
                    w[idx >> 2] = quad
                    quad = 0
        return wdl[:(size + 3) // 4], dist

    def _stream_values(self, tuple signature, uint8_t[::1] w, uint8_t[::1] dd, u64 lo, u64 hi):
        """streams' values of entries lo..hi-1, each at its place by side to move (see
        streams), REPEAT where the entry repeats the one before."""
        values = self._arrays[signature]
        cdef const uint8_t[::1] narrow
        cdef const uint16_t[::1] wide
        cdef int a = signature[0], b = signature[1], cc = signature[2], d = signature[3]
        cdef u64 half = w.shape[0] // 2
        if values.dtype == np.uint8:
            narrow = values
            with nogil:
                stream_range(self.c, a, b, cc, d, &narrow[0], &w[0], &dd[0], lo, hi, half)
        else:
            wide = values
            with nogil:
                stream_range(self.c, a, b, cc, d, &wide[0], &w[0], &dd[0], lo, hi, half)

    def _stream_packed(self, tuple signature, uint8_t[::1] w, uint8_t[::1] dd, u64 lo, u64 hi):
        """_stream_values from an attached compressed slice; True at a corrupt block."""
        cdef int a = signature[0], b = signature[1], cc = signature[2], d = signature[3], err
        cdef u64 half = w.shape[0] // 2
        with nogil:
            err = stream_packed_range(self.c, a, b, cc, d, &w[0], &dd[0], lo, hi, half)
        return err != 0

    def attach_packed(self, tuple signature, wdl, dist):
        """Make a compressed slice known: wdl and dist are (offsets, checks, data, per_block,
        by_side) with offsets a uint64 array of nblocks + 1 byte positions into data (uint8),
        checks the uint32 block_check of each block, and by_side whether the entries are
        stored White to move first, then Black (as streams writes them), or in index order;
        wdl's blocks are LZ4, dist's zstd. dist may be None (then no distances: probes that
        need one answer unknown)."""
        wm, wk, bm, bk = signature
        if max(signature) > MAXP:
            raise ValueError(f"slice {signature}: at most {MAXP} pieces of a kind")
        if self.c.decoders.lz4 == NULL:
            raise ValueError("set_decoders first")
        size = self.size(signature)
        cdef size_t wdl_packed = self._packed_new(signature, wdl, 2, size), dist_packed = 0
        if dist is not None:
            try:
                dist_packed = self._packed_new(signature, dist, 8, size)
            except BaseException:
                free(<Packed*>wdl_packed)
                raise
        # The caches' slots fit the largest blocks attached (re-made, empty, when a slice has
        # larger ones: attaching happens while no search runs).
        if self.c.wdl_cache == NULL or self.c.wdl_cache.buf_bytes < wdl[3] // 4:
            cache_free(self.c.wdl_cache)
            self.c.wdl_cache = cache_new(self.wdl_slots, wdl[3] // 4)
        if dist is not None and (self.c.dist_cache == NULL or self.c.dist_cache.buf_bytes < dist[3]):
            cache_free(self.c.dist_cache)
            self.c.dist_cache = cache_new(DIST_SLOTS, dist[3])
        if self.c.wdl_cache == NULL or (dist is not None and self.c.dist_cache == NULL):
            free(<Packed*>wdl_packed)
            free(<Packed*>dist_packed)
            raise MemoryError()
        free(self.c.wdl[wm][wk][bm][bk])
        free(self.c.dist[wm][wk][bm][bk])
        self.c.wdl[wm][wk][bm][bk] = <Packed*>wdl_packed
        self.c.dist[wm][wk][bm][bk] = <Packed*>dist_packed
        self._packed[signature] = (wdl, dist)
        self._arrays.pop(signature, None)
        self.c.vals[wm][wk][bm][bk] = NULL
        self.c.vals16[wm][wk][bm][bk] = NULL
        if wm + wk + bm + bk > self.c.max_pieces:
            self.c.max_pieces = wm + wk + bm + bk

    def _packed_new(self, tuple signature, stream, int bits, u64 entries) -> int:
        """A new Packed (its address) over a stream's arrays, after checking them."""
        offsets, checks, data, per_block, by_side = stream
        if by_side and entries % 2:
            raise ValueError(f"slice {signature}: {entries} entries cannot be stored by side")
        if offsets.dtype != np.uint64 or offsets.ndim != 1 or data.dtype != np.uint8 or \
                data.ndim != 1 or checks.dtype != np.uint32 or checks.ndim != 1:
            raise ValueError(f"slice {signature}: offsets must be uint64, checks uint32 and "
                             f"data uint8")
        if per_block <= 0 or per_block % 4 or \
                per_block * bits // 8 > (WDL_BLOCK_BYTES if bits == 2 else DIST_BLOCK_BYTES):
            raise ValueError(f"slice {signature}: {per_block} entries a block is not allowed")
        nblocks = (entries + per_block - 1) // per_block
        if offsets.shape[0] != nblocks + 1 or nblocks == 0:
            raise ValueError(f"slice {signature}: {offsets.shape[0] - 1} blocks, expected {nblocks}")
        if checks.shape[0] != nblocks:
            raise ValueError(f"slice {signature}: {checks.shape[0]} block checks, expected {nblocks}")
        if offsets[0] != 0 or np.any(np.diff(offsets.astype(np.int64)) <= 0) or offsets[nblocks] != data.shape[0]:
            raise ValueError(f"slice {signature}: block offsets out of order or past the data")
        cdef const uint64_t[::1] off = offsets
        cdef const uint32_t[::1] chk = checks
        cdef const uint8_t[::1] bytes_ = data
        cdef Packed* P = <Packed*>calloc(1, sizeof(Packed))
        if P == NULL:
            raise MemoryError()
        P.data = &bytes_[0]
        P.offsets = &off[0]
        P.checks = &chk[0]
        P.codec = CODEC_LZ4 if bits == 2 else CODEC_ZSTD
        P.entries = entries
        P.per_block = per_block
        P.nblocks = nblocks
        P.bits = bits
        P.block_bytes = per_block * bits // 8
        last = entries - (nblocks - 1) * per_block
        P.last_bytes = (last * bits + 7) // 8
        P.half = entries // 2 if by_side else 0
        self._next_id += 1
        P.id = self._next_id
        return <size_t>P

    def expand(self, tuple signature, start=0, stop=None, dtype=None):
        """Entries start..stop of an attached slice as raw values (what a build stores), of
        `dtype` (uint8 or uint16; default: the raw slice's, uint8 for a compressed one): from
        a compressed slice, each worked out as a probe does. ValueError when a distance does
        not fit in a byte."""
        wm, wk, bm, bk = signature
        size = self.size(signature)
        stop = size if stop is None else min(stop, size)
        if signature in self._arrays:
            values = self._arrays[signature][start:stop]
            if dtype is None or np.dtype(dtype) == values.dtype:
                return np.array(values)
            return _stored(signature, _codes(values), dtype)
        if signature not in self._packed:
            raise ValueError(f"slice {signature} is not attached")
        codes = np.empty(max(stop - start, 0), dtype=np.int32)
        if stop <= start:
            return codes.astype(dtype or np.uint8)
        cdef int[::1] o = codes
        cdef u64 idx, lo = start, hi = stop
        cdef Pos p
        cdef int a = wm, b = wk, cc = bm, d = bk
        with nogil:
            for idx in range(lo, hi):
                if not decode(self.c, idx, a, b, cc, d, &p):
                    o[idx - lo] = INVALID
                else:
                    o[idx - lo] = any_code(self.c, &p, 1, 0)
        return _stored(signature, codes, dtype or np.uint8)

    def unpack(self, tuple signature, uint16_t[::1] out, u64 start, u64 stop):
        """Fill out[0 : stop - start] with entries start..stop of a compressed slice as
        unpack_range reads them (what verify attaches in place of the slice, through attach:
        a lookup of a marked entry works it out from the successors)."""
        wm, wk, bm, bk = signature
        if signature not in self._packed:
            raise ValueError(f"slice {signature} is not attached compressed")
        stop = min(stop, self.size(signature))
        if stop <= start:
            return
        if <u64>out.shape[0] < stop - start:
            raise ValueError("the output array is too short")
        cdef int a = wm, b = wk, cc = bm, d = bk, err
        with nogil:
            err = unpack_range(self.c, a, b, cc, d, &out[0], start, stop)
        if err:
            raise RuntimeError(f"slice {self.slice_name(signature)}: a corrupt block")

    def detach_raw(self, tuple signature):
        """Forget the raw values attached for a slice that is also attached compressed (after
        verify's unpacking): lookups read the compressed slice again."""
        wm, wk, bm, bk = signature
        if signature not in self._packed:
            raise ValueError(f"slice {signature} is not attached compressed")
        self._arrays.pop(signature, None)
        self.c.vals[wm][wk][bm][bk] = NULL
        self.c.vals16[wm][wk][bm][bk] = NULL

    def bad_blocks(self, tuple signature) -> list:
        """The blocks of a compressed slice whose check fails or that do not decode to their
        size: (stream, block) pairs, stream 'wdl' or 'dist'."""
        wm, wk, bm, bk = signature
        if signature not in self._packed:
            raise ValueError(f"slice {signature} is not attached compressed")
        out = []
        cdef Packed* P
        cdef uint8_t* buf = <uint8_t*>malloc(DIST_BLOCK_BYTES)
        cdef uint32_t blk
        if buf == NULL:
            raise MemoryError()
        try:
            for k in range(2):
                P = self.c.wdl[wm][wk][bm][bk] if k == 0 else self.c.dist[wm][wk][bm][bk]
                name = "wdl" if k == 0 else "dist"
                if P == NULL:
                    continue
                for blk in range(P.nblocks):
                    if decode_block(P, &self.c.decoders, blk, buf, DIST_BLOCK_BYTES) != 0:
                        out.append((name, blk))
        finally:
            free(buf)
        return out

    @property
    def corrupt_blocks(self) -> int:
        """Corrupt blocks met while probing (their positions answered unknown)."""
        cdef unsigned long long n = 0
        if self.c.wdl_cache != NULL:
            n += self.c.wdl_cache.corrupt
        if self.c.dist_cache != NULL:
            n += self.c.dist_cache.corrupt
        return n

    def position(self, tuple signature, u64 index):
        """(white, black, kings, side to move) bitboards of a slice's entry, or None if invalid."""
        wm, wk, bm, bk = signature
        cdef Pos p
        if index >= self.size(signature) or not decode(self.c, index, wm, wk, bm, bk, &p):
            return None
        return p.pieces[0], p.pieces[1], p.kings, p.stm

    @property
    def max_pieces(self) -> int:
        return self.c.max_pieces

