# The draughts evaluation: a few whole-board terms over bitboards, weights from evaluation.py.

from .evaluation import DRAUGHTS_WEIGHTS


cdef void _fill_eval_tables(Rules* R, spec) except *:
    """Precompute the masks the evaluation uses for one variant."""
    cdef int side, b, i
    cdef u64 frontier, cone, nxt
    g = spec.geometry
    size = spec.size
    w = DRAUGHTS_WEIGHTS[spec.name]
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
            R.rank_mask[side][dist] |= (<u64>1) << b
            R.rows_to_go[side][b] = size - 1 - dist
            if 1 <= size - 1 - dist <= 3:
                R.near_crowning[side] |= (<u64>1) << b
        if size // 2 - 2 <= f <= size // 2 + 1 and size // 2 - 2 <= r <= size // 2 + 1:
            R.centre |= (<u64>1) << b
        R.wing[0 if f < size // 2 else 1] |= (<u64>1) << b
    # The cone of a man: every square its forward steps reach, step after step.
    for side in range(2):
        for b in g.coords:
            cone = 0
            frontier = (<u64>1) << b
            while frontier:
                nxt = 0
                for i in range(R.n_man_move):
                    nxt |= step(R, frontier, R.man_move[side][i])
                nxt &= ~cone
                cone |= nxt
                frontier = nxt
            R.cone[side][b] = cone


cdef int evaluate_pos(const Rules* R, const Pos* p) noexcept nogil:
    """Static value for the side to move, in centi-men."""
    cdef int score[2]
    cdef int s, i, d, k, n, left, right, rows
    cdef u64 occ = p.pieces[0] | p.pieces[1]
    cdef u64 empty = R.valid & ~occ
    cdef u64 men, kings, kk, runners
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
                    n += bb_popcount(step(R, (<u64>1) << k, d) & empty) * R.w_king_mobility
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
    cdef u64 c = p.pieces[side]
    while c:
        total += p.num[bb_lsb(c)]
        c &= c - 1
    return total
