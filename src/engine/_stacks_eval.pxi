# Dipole's evaluation: checkers, their advance, stacks left en prise and mobility, weighed by
# the variant's row (evaluation.py). Included into _stacks.pyx.


cdef inline int mobility(const Rules* R, const Pos* p, int side) noexcept nogil:
    return side_moves(R, p, side, NULL, 0)


cdef int evaluate(const Rules* R, const Pos* p) noexcept nogil:
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
