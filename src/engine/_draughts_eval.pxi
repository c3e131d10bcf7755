# The draughts evaluation. Three kinds, over the same bitboards (a network, when one is installed,
# see _draughts_network.pxi; else the patterns below, else the hand-set terms):
# - learned (when a weights file is loaded, see patterns.py): the board is covered by regions
#   of 8 squares; each region's men (empty / White / Black: an index in base 3) selects a learned
#   weight, for White as it stands and for Black on the board turned 180 degrees with colours
#   swapped, so the value is colour-symmetric by construction; a learned value for a king on each
#   square (as its owner sees the board); learned whole-board terms (material, king mobility and
#   the part of it a man could capture on, free runners, side to move, balance, a first king,
#   kings on the long diagonal, a capture threat); opening and ending weights blended by the
#   number of pieces; and, where the weights file asks for it, drawish material scaled down.
# - hand-set: a few whole-board terms with the weights of evaluation.py (the fallback, and the
#   baseline that the learned evaluation is measured against).

from libc.stdint cimport int16_t, int32_t
import numpy as np
from .evaluation import DRAUGHTS_WEIGHTS


cdef void _fill_eval_tables(Rules* R, spec) except *:
    """Precompute the masks the evaluation uses for one variant."""
    cdef int side, b, i
    cdef Bits frontier, cone, nxt
    g = spec.geometry
    size = spec.size
    w = DRAUGHTS_WEIGHTS[spec.name]
    R.ranks = size
    R.w_man = w["man"]
    R.w_king = w["king"]
    R.w_tempo = w["tempo"]
    R.w_back_rank = w["back_rank"]
    R.w_centre = w["centre"]
    R.w_balance = w["balance"]
    R.w_king_mobility = w["king_mobility"]
    for i in range(4):
        R.w_runaway[i] = w["runaway"][i]
    R.lone_king_draw = w["lone_king_draw"]
    R.w_piece_numbers = w.get("piece_numbers", 0)
    for b, (f, r) in g.coords.items():
        for side in range(2):
            dist = r if side == 0 else size - 1 - r
            R.rank_mask[side][dist] |= (<Bits>1) << b
            R.rows_to_go[side][b] = size - 1 - dist
            for i in range(4):
                if (size - 1 - dist) >> i & 1:
                    R.tempo_plane[side][i] |= (<Bits>1) << b
            if 1 <= size - 1 - dist <= 3:
                R.near_crowning[side] |= (<Bits>1) << b
        if size // 2 - 2 <= f <= size // 2 + 1 and size // 2 - 2 <= r <= size // 2 + 1:
            R.centre |= (<Bits>1) << b
        R.wing[0 if f < size // 2 else 1] |= (<Bits>1) << b
        if f == r or f + r == size - 1:
            R.long_diagonal |= (<Bits>1) << b
    # The cone of a man: every square its forward steps reach, step after step.
    for side in range(2):
        for b in g.coords:
            cone = 0
            frontier = (<Bits>1) << b
            while frontier:
                nxt = 0
                for i in range(R.n_man_move):
                    nxt |= step(R, frontier, R.man_move[side][i])
                nxt &= ~cone
                cone |= nxt
                frontier = nxt
            R.cone[side][b] = cone


cdef inline int region_index(const int* squares, int n, Bits own, Bits other) noexcept nogil:
    """The base-3 index of a region's men: sum over its squares of 3^k * (0 empty, 1 own man,
    2 the other side's man); kings count as empty (the whole-board terms value them)."""
    cdef int idx = 0, k, b
    for k in range(n - 1, -1, -1):
        b = squares[k]
        idx = idx * 3 + <int>((own >> b) & 1) + 2 * <int>((other >> b) & 1)
    return idx


cdef inline Bits man_attacked(const Rules* R, const Pos* p, int s) noexcept nogil:
    """The empty squares where a piece of side s could be taken at once by a man of the other
    side: a man of it one step before the square along one of its capture directions, an empty
    square after it. In Italian draughts men never take kings: none."""
    cdef Bits occ = p.pieces[0] | p.pieces[1]
    cdef Bits empty = R.valid & ~occ, attacked = 0
    cdef Bits men = p.pieces[s ^ 1] & ~p.kings
    cdef int i, c
    if R.kings_immune:
        return 0
    for i in range(R.n_man_cap):
        c = R.man_cap[s ^ 1][i]
        attacked |= step(R, men, c) & step(R, empty, R.opposite[c])
    return attacked & empty


cdef inline void dense_terms(const Rules* R, const Pos* p, int s, int* out,
                             bint no_capture=0) noexcept nogil:
    """Side s's whole-board counts, in the order of patterns.DENSE_TERMS (out[6], the side to
    move, is the caller's): men, kings, king mobility, free runners 1/2/3 rows away; balance
    (men on one half of the board less those on the other, unsigned), whether it has a king,
    kings on a long diagonal, whether it could capture if it were to move (a threat: the
    evaluation is asked about quiet positions, so for the side to move this is 0; `no_capture`:
    the caller knows that side has none), and the squares of the king mobility where a man
    could take the king (Scan's "denied" squares)."""
    cdef Bits occ = p.pieces[0] | p.pieces[1]
    cdef Bits empty = R.valid & ~occ
    cdef Bits men = p.pieces[s] & ~p.kings, kings = p.pieces[s] & p.kings, kk, runners, reach
    cdef Bits attacked = man_attacked(R, p, s) if kings else 0
    cdef int k, i, d, mobility = 0, exposed = 0
    out[0] = bb_popcount(men)
    out[1] = bb_popcount(kings)
    kk = kings
    while kk:
        k = bb_lsb(kk)
        kk &= kk - 1
        reach = 0                 # one king's directions reach disjoint squares: count once
        for i in range(R.n_king_dir):
            d = R.king_dir[i]
            if R.flying:
                reach |= king_slide(R, k, d, occ)
            else:
                reach |= step(R, (<Bits>1) << k, d) & empty
        mobility += bb_popcount(reach)
        exposed += bb_popcount(reach & attacked)
    out[2] = mobility
    out[11] = exposed
    out[3] = 0
    out[4] = 0
    out[5] = 0
    runners = men & R.near_crowning[s]
    while runners:
        k = bb_lsb(runners)
        runners &= runners - 1
        if not (R.cone[s][k] & occ):
            out[2 + R.rows_to_go[s][k]] += 1
    out[6] = 0
    k = bb_popcount(men & R.wing[0]) - bb_popcount(men & R.wing[1])
    out[7] = k if k >= 0 else -k
    out[8] = 1 if kings else 0
    out[9] = bb_popcount(kings & R.long_diagonal)
    out[10] = 0 if no_capture else side_can_capture(p, R, s)


cdef inline int lone_king_holds(const Rules* R, const Pos* p) noexcept nogil:
    """Kings only, and a lone king against few kings: it holds (see evaluation.py)."""
    cdef int s
    if p.kings != (p.pieces[0] | p.pieces[1]):
        return 0
    for s in range(2):
        if bb_popcount(p.pieces[s]) == 1 and bb_popcount(p.pieces[s ^ 1]) <= R.lone_king_draw:
            return 1
    return 0


cdef inline int drawish_divisor(const Pos* p, long value) noexcept nogil:
    """How much to scale down White's value `value` for drawish material (Scan's rule, a fact of
    flying-king endgames): the side ahead has three pieces or fewer and the other a king, 8;
    kings equal and men within one, 2; otherwise 1."""
    cdef int ahead = 0 if value > 0 else 1
    cdef int nwk = bb_popcount(p.pieces[0] & p.kings), nbk = bb_popcount(p.pieces[1] & p.kings)
    cdef int men_gap = bb_popcount(p.pieces[0] & ~p.kings) - bb_popcount(p.pieces[1] & ~p.kings)
    if value == 0 or not (p.pieces[ahead ^ 1] & p.kings):
        return 1
    if bb_popcount(p.pieces[ahead]) <= 3:
        return 8
    if nwk == nbk and -1 <= men_gap <= 1:
        return 2
    return 1


cdef inline int tempo_count(const Rules* R, const Pos* p) noexcept nogil:
    """The rows that the men of both sides still have to go to be crowned (Scan's "pip"): the
    learned evaluation's phase when its file asks for it. Kings count nothing."""
    cdef int s, k, total = 0
    cdef Bits men
    for s in range(2):
        men = p.pieces[s] & ~p.kings
        for k in range(4):
            total += bb_popcount(men & R.tempo_plane[s][k]) << k
    return total


cdef int pattern_eval(const Rules* R, const Pos* p, bint quiet) noexcept nogil:
    """The learned evaluation for the side to move, in centi-men (`quiet`: that side has no
    capture, so its capture threat is not tested)."""
    cdef Bits wmen = p.pieces[0] & ~p.kings, bmen = p.pieces[1] & ~p.kings
    cdef const short* w = R.pat_w
    cdef long opening = 0, ending = 0
    cdef long long packed = 0, apart
    cdef const int32_t* pk = R.pat_packed
    cdef int r, j, i, b, d, sign, phase, start = R.pat_phase_start
    cdef int white[N_DENSE]
    cdef int black[N_DENSE]
    cdef u64 mask, magic, gw, gb
    cdef Bits kings
    cdef const unsigned short* tab
    cdef const unsigned short* tab_turned
    if R.pat_shared:
        # One mask, magic number and table for every White's view, one table for every
        # Black's view (pat_shared).
        mask = R.pat_mask[0][0]
        magic = R.pat_magic[0][0]
        tab = R.pat_tables[R.pat_tab[0][0]]
        tab_turned = R.pat_tables[R.pat_tab[R.pat_partner[0]][1]]
        for r in range(R.pat_n):
            # Two bytes, White's and Black's men on the region's squares, serve White's view of
            # this region and Black's view of its partner (_pair_views).
            gw = ((gather_window(wmen, R.pat_shift[r][0]) & mask) * magic) >> 56
            gb = ((gather_window(bmen, R.pat_shift[r][0]) & mask) * magic) >> 56
            packed += pk[R.pat_offset[r] + tab[gw] + 2 * tab[gb]]
            packed -= pk[R.pat_partner_offset[r] + tab_turned[gb] + 2 * tab_turned[gw]]
        # packed = opening sum << shift + ending sum, the ending sum inside +-2^(shift - 1):
        # its low bits, read as signed, are the ending sum (arithmetic shifts, as every
        # compiler this builds with does them).
        apart = ((packed + (1LL << (R.pat_pack_shift - 1))) & ((1LL << R.pat_pack_shift) - 1)) \
            - (1LL << (R.pat_pack_shift - 1))
        ending += apart
        opening += (packed - apart) >> R.pat_pack_shift
    for r in range(0 if R.pat_shared else R.pat_n):
        # region_index(R.pat_sq[r], ..., wmen, bmen), gathered by the magic (see Rules)
        mask = R.pat_mask[r][0]
        magic = R.pat_magic[r][0]
        tab = R.pat_tables[R.pat_tab[r][0]]
        j = R.pat_offset[r] + tab[((gather_window(wmen, R.pat_shift[r][0]) & mask) * magic) >> 56] \
            + 2 * tab[((gather_window(bmen, R.pat_shift[r][0]) & mask) * magic) >> 56]
        opening += w[2 * j]
        ending += w[2 * j + 1]
        # region_index(R.pat_rot[r], ..., bmen, wmen): Black's view
        mask = R.pat_mask[r][1]
        magic = R.pat_magic[r][1]
        tab = R.pat_tables[R.pat_tab[r][1]]
        j = R.pat_offset[r] + tab[((gather_window(bmen, R.pat_shift[r][1]) & mask) * magic) >> 56] \
            + 2 * tab[((gather_window(wmen, R.pat_shift[r][1]) & mask) * magic) >> 56]
        opening -= w[2 * j]
        ending -= w[2 * j + 1]
    for r in range(2):                              # the king-square table, side r's view
        kings = p.pieces[r] & p.kings
        sign = 1 - 2 * r
        while kings:
            b = bb_lsb(kings)
            kings &= kings - 1
            j = R.pat_kings + R.pat_king_sq[r][b]
            opening += sign * w[2 * j]
            ending += sign * w[2 * j + 1]
    dense_terms(R, p, 0, white, quiet and p.stm == 0)
    dense_terms(R, p, 1, black, quiet and p.stm == 1)
    j = R.pat_dense
    white[6] = 1 if p.stm == 0 else 0               # the side-to-move term, White's view
    black[6] = 1 - white[6]
    for i in range(N_DENSE):
        d = white[i] - black[i]
        if d:                                       # most terms are equal for both sides
            opening += d * w[2 * (j + i)]
            ending += d * w[2 * (j + i) + 1]
    phase = tempo_count(R, p) if R.pat_phase_tempo else bb_popcount(p.pieces[0] | p.pieces[1])
    if phase > start:
        phase = start
    opening = opening * phase + ending * (start - phase)
    # One division, truncating toward zero (cdivision): the mirrored position gets the exact
    # negation, whatever the divisor.
    opening = opening // (16 * start * (drawish_divisor(p, opening) if R.pat_drawish else 1))
    return <int>opening if p.stm == 0 else -<int>opening


cdef int evaluate(const Rules* R, const Pos* p) noexcept nogil:
    """Static value for the side to move, in centi-men."""
    return evaluate_as(R, p, 0)


cdef int evaluate_as(const Rules* R, const Pos* p, bint quiet) noexcept nogil:
    """evaluate; `quiet`: the side to move has no capture (the value is the same, found faster:
    the search's quiescence knows it at its quiet leaves)."""
    cdef int values = 0
    if R.net_h or R.pat_n:
        if R.numbered and R.w_piece_numbers:
            values = (_number_sum(p, p.stm) - _number_sum(p, p.stm ^ 1)) * R.w_piece_numbers
        # A lone king that holds leaves only Chapinas' tiebreak, the sums of piece numbers
        # (as in the hand-set evaluation).
        if lone_king_holds(R, p):
            return values
        if R.net_h:
            if R.net_over_patterns and R.pat_n:
                values += pattern_eval(R, p, quiet)
            return network_eval(R, p) + values
        return pattern_eval(R, p, quiet) + values
    return hand_eval(R, p)


cdef int hand_eval(const Rules* R, const Pos* p) noexcept nogil:
    """The hand-set evaluation, for the side to move, in centi-men."""
    cdef int score[2]
    cdef int s, i, d, k, n, left, right, rows
    cdef Bits occ = p.pieces[0] | p.pieces[1]
    cdef Bits empty = R.valid & ~occ
    cdef Bits men, kings, kk, runners
    cdef int values = 0
    if R.numbered and R.w_piece_numbers:
        values = (_number_sum(p, p.stm) - _number_sum(p, p.stm ^ 1)) * R.w_piece_numbers
    if p.kings == occ:
        # Kings only: a lone king against few kings holds (see evaluation.py).
        for s in range(2):
            if bb_popcount(p.pieces[s]) == 1 and bb_popcount(p.pieces[s ^ 1]) <= R.lone_king_draw:
                return values
    for s in range(2):
        men = p.pieces[s] & ~p.kings
        kings = p.pieces[s] & p.kings
        n = bb_popcount(men) * R.w_man + bb_popcount(kings) * R.w_king
        for i in range(1, 10):
            n += bb_popcount(men & R.rank_mask[s][i]) * i * R.w_tempo
        if not (p.pieces[s ^ 1] & p.kings):
            n += bb_popcount(men & R.rank_mask[s][0]) * R.w_back_rank
        n += bb_popcount(men & R.centre) * R.w_centre
        left = bb_popcount(men & R.wing[0])
        right = bb_popcount(men & R.wing[1])
        n += (left - right if left > right else right - left) * R.w_balance
        kk = kings
        while kk:
            k = bb_lsb(kk)
            kk &= kk - 1
            for i in range(R.n_king_dir):
                d = R.king_dir[i]
                if R.flying:
                    n += bb_popcount(king_slide(R, k, d, occ)) * R.w_king_mobility
                else:
                    n += bb_popcount(step(R, (<Bits>1) << k, d) & empty) * R.w_king_mobility
        runners = men & R.near_crowning[s]
        while runners:
            k = bb_lsb(runners)
            runners &= runners - 1
            if not (R.cone[s][k] & occ):
                rows = R.rows_to_go[s][k]
                n += R.w_runaway[rows]
        score[s] = n
    return score[p.stm] - score[p.stm ^ 1] + values


cdef inline int _number_sum(const Pos* p, int side) noexcept nogil:
    cdef int total = 0
    cdef Bits c = p.pieces[side]
    while c:
        total += p.num[bb_lsb(c)]
        c &= c - 1
    return total


# -- the learned evaluation's Python face (patterns.py) -------------------------------------------

_PATTERN_WEIGHTS = {}           # variant id -> the weights array the native table points into
_PACKED_WEIGHTS = {}            # variant id -> its region rows packed a pair a word (pat_packed)


def _pack_shift(region_weights, sizes) -> int:
    """The shift that packs each (opening, ending) pair of the region rows into one int32
    word, opening << shift plus ending, such that the sum of the words of every view the
    evaluation reads (each region twice, once in each colour's view) still gives both sums
    back: the endings' sum, at most twice the sum of each region's largest |ending|, inside
    +-2^(shift - 1). 0 when no shift does (the evaluation then reads the pairs one by one)."""
    w = np.asarray(region_weights, dtype=np.int64)
    if not len(w):
        return 0
    bound, start = 0, 0
    for size in sizes:
        bound += int(np.abs(w[start:start + size, 1]).max())
        start += size
    bound *= 2
    most_opening, most_ending = int(np.abs(w[:, 0]).max()), int(np.abs(w[:, 1]).max())
    for shift in range(1, 31):
        if bound < (1 << (shift - 1)) and (most_opening << shift) + most_ending < (1 << 31):
            return shift
    return 0


def _set_patterns(int vid, list regions, list rotated, list king_rows, int n_king_rows, weights,
                  int phase_start, bint drawish, bint tempo=False):
    """Install a layout (regions of square bits, their 180-degree turns; each side's row of the
    king-square table for every bit, of n_king_rows rows) and its weights (int16, shape (n, 2):
    opening, ending; the region rows, the king-square rows, the last N_DENSE rows the
    whole-board terms) for one variant; every board and search of the variant uses them from
    now on. The phase blends opening and ending values: pieces on the board or, with `tempo`,
    the rows the men still have to go; `phase_start` is its value at the start."""
    cdef Rules* R = &RULES[vid]
    cdef int r, k, v, offset = 0
    cdef int shifted[REGION_SQUARES]
    cdef const short[:, ::1] view = weights
    cdef const int32_t[::1] packed_view
    if len(regions) > MAX_REGIONS or len(regions) != len(rotated):
        raise ValueError(f"at most {MAX_REGIONS} regions")
    for r in range(len(regions)):
        if not 1 <= len(regions[r]) <= REGION_SQUARES or len(rotated[r]) != len(regions[r]):
            raise ValueError(f"a region has 1 to {REGION_SQUARES} squares")
        offset += _pow3(len(regions[r]))
    if len(king_rows) != 2 or any(len(rows) != NBITS or not all(0 <= x < n_king_rows for x in rows)
                                  for rows in king_rows):
        raise ValueError(f"king rows: two lists of {NBITS} rows in 0..{n_king_rows - 1}")
    if any(not 0 <= b < NBITS or not (R.valid >> b) & 1
           for squares in regions + rotated for b in squares):
        raise ValueError("a region names a square that is not on the board")
    if view.shape[0] != offset + n_king_rows + N_DENSE or view.shape[1] != 2:
        raise ValueError(f"expected {offset + n_king_rows + N_DENSE} x 2 weights, "
                         f"not {view.shape[0]} x {view.shape[1]}")
    if phase_start < 1:
        raise ValueError("the phase at the start must be 1 or more")
    R.pat_n = 0                       # nothing reads a half-written layout
    offset = 0
    magics = {}                       # (mask of a view's shifted squares, squares) -> magic
    for r in range(len(regions)):
        R.pat_len[r] = len(regions[r])
        for k in range(R.pat_len[r]):
            R.pat_sq[r][k] = regions[r][k]
            R.pat_rot[r][k] = rotated[r][k]
        R.pat_offset[r] = offset
        offset += _pow3(R.pat_len[r])
        for v, squares in enumerate((regions[r], rotated[r])):
            # The region is gathered from one 64-bit word of the board: its squares from the
            # lowest one up.
            shift = min(squares)
            if max(squares) - shift >= 64:
                raise ValueError(f"region {r}: its squares span more than 64 bits")
            for k in range(R.pat_len[r]):
                shifted[k] = squares[k] - shift
            R.pat_shift[r][v] = shift
            mask = 0
            for b in squares:
                mask |= 1 << (b - shift)
            if (mask, len(squares)) in magics:    # the search is deterministic: one per mask
                R.pat_mask[r][v] = mask
                R.pat_magic[r][v] = magics[mask, len(squares)]
            elif _find_magic(shifted, R.pat_len[r], &R.pat_mask[r][v], &R.pat_magic[r][v]):
                magics[mask, len(squares)] = R.pat_magic[r][v]
            else:
                raise ValueError(f"region {r}: no magic number gathers its squares")
    _pair_views(R, len(regions))
    _share_tables(R, len(regions))
    if R.pat_shared and not _views_uniform(R, len(regions)):
        R.pat_shared = 0
    rows = np.asarray(weights)[:offset].astype(np.int64)
    R.pat_pack_shift = _pack_shift(rows, [_pow3(len(squares)) for squares in regions])
    if R.pat_pack_shift:
        packed = np.ascontiguousarray((rows[:, 0] << R.pat_pack_shift) + rows[:, 1], dtype=np.int32)
        packed_view = packed
        _PACKED_WEIGHTS[vid] = packed
        R.pat_packed = &packed_view[0]
    else:
        R.pat_shared = 0          # the loop that reads the pairs of pat_w one by one
        R.pat_packed = NULL
        _PACKED_WEIGHTS.pop(vid, None)
    R.pat_kings = offset
    for k in range(NBITS):
        R.pat_king_sq[0][k] = king_rows[0][k]
        R.pat_king_sq[1][k] = king_rows[1][k]
    R.pat_dense = offset + n_king_rows
    R.pat_drawish = drawish
    R.pat_phase_tempo = tempo
    R.pat_phase_start = phase_start
    _PATTERN_WEIGHTS[vid] = weights
    R.pat_w = &view[0, 0]
    R.pat_n = len(regions)


cdef void _pair_views(Rules* R, int nreg) noexcept nogil:
    """Where Black's view of each region covers the squares of White's view of another (the
    layouts of patterns.py are closed under the 180-degree turn), pair them and gather that
    view with its partner's magic number: the evaluation then gathers each set of squares once
    and reads both views from the two bytes (pat_shared)."""
    cdef int r, q
    cdef bint taken[MAX_REGIONS]
    R.pat_shared = 0
    for q in range(nreg):
        taken[q] = False
    for r in range(nreg):
        R.pat_partner[r] = -1
        for q in range(nreg):
            if not taken[q] and R.pat_mask[q][1] == R.pat_mask[r][0] \
                    and R.pat_shift[q][1] == R.pat_shift[r][0]:
                taken[q] = True
                R.pat_partner[r] = q
                break
        if R.pat_partner[r] < 0:
            return
    for r in range(nreg):
        R.pat_magic[R.pat_partner[r]][1] = R.pat_magic[r][0]
        R.pat_partner_offset[r] = R.pat_offset[R.pat_partner[r]]
    R.pat_shared = 1


cdef bint _views_uniform(const Rules* R, int nreg) noexcept nogil:
    """Whether every White's view is gathered by one mask and magic number into one table, and
    every Black's view (of the partners) read through one table: the paired loop's condition."""
    cdef int r
    for r in range(nreg):
        if R.pat_mask[r][0] != R.pat_mask[0][0] or R.pat_magic[r][0] != R.pat_magic[0][0] \
                or R.pat_tab[r][0] != R.pat_tab[0][0] \
                or R.pat_tab[R.pat_partner[r]][1] != R.pat_tab[R.pat_partner[0]][1]:
            return False
    return True


cdef void _share_tables(Rules* R, int nreg) noexcept nogil:
    """Fill each view's table, one for all views alike (_views_alike): a table depends on
    nothing else. View t is view t % 2 of region t // 2."""
    cdef int t, e, k, ntab = 0
    cdef int shifted[REGION_SQUARES]
    for t in range(2 * nreg):
        R.pat_tab[t // 2][t % 2] = -1
        for e in range(t):
            if _views_alike(R, e // 2, e % 2, t // 2, t % 2):
                R.pat_tab[t // 2][t % 2] = R.pat_tab[e // 2][e % 2]
                break
        if R.pat_tab[t // 2][t % 2] < 0:
            for k in range(R.pat_len[t // 2]):
                shifted[k] = _view_square(R, t // 2, t % 2, k) - R.pat_shift[t // 2][t % 2]
            _fill_tab(shifted, R.pat_len[t // 2], R.pat_mask[t // 2][t % 2],
                      R.pat_magic[t // 2][t % 2], R.pat_tables[ntab])
            R.pat_tab[t // 2][t % 2] = ntab
            ntab += 1


cdef bint _views_alike(const Rules* R, int q, int u, int r, int v) noexcept nogil:
    """Whether view u of region q and view v of region r have the same squares from their
    lowest one, in the same order, gathered by the same magic number."""
    cdef int k
    if R.pat_len[q] != R.pat_len[r] or R.pat_magic[q][u] != R.pat_magic[r][v] \
            or R.pat_mask[q][u] != R.pat_mask[r][v]:
        return False
    for k in range(R.pat_len[r]):
        if _view_square(R, q, u, k) - R.pat_shift[q][u] \
                != _view_square(R, r, v, k) - R.pat_shift[r][v]:
            return False
    return True


cdef inline int _view_square(const Rules* R, int r, int v, int k) noexcept nogil:
    """The k-th square of view v of region r (0: White's, pat_sq; 1: Black's, pat_rot)."""
    return R.pat_sq[r][k] if v == 0 else R.pat_rot[r][k]


def _pattern_tables(int vid):
    """How many gather tables the installed layout of a variant reads (0: none installed)."""
    cdef const Rules* R = &RULES[vid]
    return len({R.pat_tab[r][v] for r in range(R.pat_n) for v in range(2)})


def _pattern_pack_shift(int vid):
    """The shift of the installed layout's packed region weights (0: read pair by pair)."""
    return RULES[vid].pat_pack_shift if RULES[vid].pat_shared else 0


def _clear_patterns(int vid):
    """Back to the hand-set evaluation for one variant."""
    RULES[vid].pat_n = 0
    RULES[vid].pat_w = NULL
    RULES[vid].pat_packed = NULL
    _PATTERN_WEIGHTS.pop(vid, None)
    _PACKED_WEIGHTS.pop(vid, None)


def _pattern_features(int vid, list regions, list rotated, const u64[:, ::1] white,
                      const u64[:, ::1] black, const u64[:, ::1] kings, const uint8_t[::1] stm):
    """The learned evaluation's features of N positions (for training), computed by the same
    code the evaluation runs: (White's region indices [N, R], Black's [N, R], both without the
    region offsets; whole-board terms White minus Black [N, N_DENSE], the side to move +1 for
    White; pieces on the board [N]). Boards are [N, words] arrays of 64-bit words, lowest
    first: one word a board on this build's narrow boards, NBITS / 64 at most."""
    cdef const Rules* R = &RULES[vid]
    cdef Py_ssize_t n = white.shape[0], i
    cdef int r, k, w, nreg = len(regions), words = white.shape[1]
    cdef int sq[MAX_REGIONS][REGION_SQUARES]
    cdef int rot[MAX_REGIONS][REGION_SQUARES]
    cdef int length[MAX_REGIONS]
    cdef int wd[N_DENSE]
    cdef int bd[N_DENSE]
    cdef Pos p
    cdef Bits wmen, bmen
    if nreg > MAX_REGIONS:
        raise ValueError(f"at most {MAX_REGIONS} regions")
    if not (black.shape[0] == n and kings.shape[0] == n and stm.shape[0] == n):
        raise ValueError("white, black, kings and stm must have the same length")
    if not (1 <= words <= NBITS // 64 and black.shape[1] == words and kings.shape[1] == words):
        raise ValueError(f"boards must be [N, words] arrays of 1 to {NBITS // 64} words")
    for r in range(nreg):
        length[r] = len(regions[r])
        for k in range(length[r]):
            sq[r][k] = regions[r][k]
            rot[r][k] = rotated[r][k]
    own_idx = np.zeros((n, nreg), dtype=np.int32)
    other_idx = np.zeros((n, nreg), dtype=np.int32)
    dense = np.zeros((n, N_DENSE), dtype=np.int32)
    pieces = np.zeros(n, dtype=np.int32)
    cdef int32_t[:, ::1] oi = own_idx
    cdef int32_t[:, ::1] ti = other_idx
    cdef int32_t[:, ::1] dn = dense
    cdef int32_t[::1] pc = pieces
    with nogil:
        for i in range(n):
            memset(&p, 0, sizeof(Pos))
            for w in range(words):
                p.pieces[0] |= (<Bits>white[i, w]) << (64 * w)
                p.pieces[1] |= (<Bits>black[i, w]) << (64 * w)
                p.kings |= (<Bits>kings[i, w]) << (64 * w)
            p.stm = stm[i]
            wmen = p.pieces[0] & ~p.kings
            bmen = p.pieces[1] & ~p.kings
            for r in range(nreg):
                oi[i, r] = region_index(sq[r], length[r], wmen, bmen)
                ti[i, r] = region_index(rot[r], length[r], bmen, wmen)
            dense_terms(R, &p, 0, wd)
            dense_terms(R, &p, 1, bd)
            for k in range(N_DENSE):
                dn[i, k] = wd[k] - bd[k]
            dn[i, 6] = 1 if stm[i] == 0 else -1
            pc[i] = bb_popcount(p.pieces[0] | p.pieces[1])
    return own_idx, other_idx, dense, pieces


cdef bint _find_magic(const int* squares, int n, u64* mask, u64* magic) noexcept nogil:
    """Find a magic number that maps every subset of the region's squares to its own value of
    the top byte of (subset * magic). Deterministic (one mask, one magic number); False if
    none is found (squares repeated, or more than 8 of them)."""
    cdef u64 m = 0, s, g, candidate, state = 0x9E3779B97F4A7C15
    cdef int k, tries
    cdef u64 owner[256]
    cdef bint ok
    for k in range(n):
        if (m >> squares[k]) & 1:
            return False
        m |= (<u64>1) << squares[k]
    if n > 8:
        return False
    for tries in range(10000000):
        candidate = splitmix64(&state) & splitmix64(&state) & splitmix64(&state)
        for k in range(256):
            owner[k] = <u64>-1
        ok = True
        s = 0
        while True:                   # every subset of m (carry-rippler)
            g = (s * candidate) >> 56
            if owner[g] != <u64>-1 and owner[g] != s:
                ok = False
                break
            owner[g] = s
            s = (s - m) & m
            if s == 0:
                break
        if not ok:
            continue
        mask[0] = m
        magic[0] = candidate
        return True
    return False


cdef void _fill_tab(const int* squares, int n, u64 m, u64 magic,
                    unsigned short* tab) noexcept nogil:
    """For every subset of the squares (mask m), tab[top byte of subset * magic] = its base-3
    weight in the order of `squares` (sum of 3^k over its squares k); 0 at the other bytes."""
    cdef u64 s = 0
    cdef int k, g
    cdef unsigned short value
    for g in range(256):
        tab[g] = 0
    while True:                       # every subset of m (carry-rippler)
        value = 0
        for k in range(n):
            if (s >> squares[k]) & 1:
                value += <unsigned short>_pow3(k)
        tab[(s * magic) >> 56] = value
        s = (s - m) & m
        if s == 0:
            break


cdef int _pow3(int k) noexcept nogil:
    cdef int out = 1
    while k > 0:
        out *= 3
        k -= 1
    return out
