# Dipole's evaluation: checkers, their advance, stacks left en prise and mobility, weighed by
# the variant's row (evaluation.py); or, once weights are loaded (linear.py), the learned
# linear evaluation over the features below. Included into _stacks.pyx.

# The learned evaluation's rows, for a board of nsq squares: per square (as its owner sees the
# board) the checkers and the stacks standing there, then the whole-board terms.
cdef enum:
    TERM_MOBILITY = 0         # moves available
    TERM_ATTACKED = 1         # checkers of the side not to move that can be taken at once
    TERM_TEMPO = 2            # the side to move
    TERM_HEIGHT = 3           # stacks of height 1, 2, ... 6 or more: six rows
    HEIGHT_ROWS = 6
    TERMS = TERM_HEIGHT + HEIGHT_ROWS

LINEAR_TERMS = ("mobility", "attacked", "side_to_move",
                *(f"height_{h}" for h in range(1, HEIGHT_ROWS)), f"height_{HEIGHT_ROWS}+")


cdef inline int mobility(const Rules* R, const Pos* p, int side) noexcept nogil:
    return side_moves(R, p, side, NULL, 0)


cdef int attacked_checkers(const Rules* R, const Pos* p) noexcept nogil:
    """Checkers of the side not to move in stacks the side to move can capture at once."""
    cdef int s = p.stm, e, h, d, k, t, total = 0
    cdef u64 c = p.stacks[s]
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
                    total += p.height[t]
    return total


cdef int features(const Rules* R, const Pos* p, Feature* out, int* phase) noexcept nogil:
    """The learned evaluation's features (White's view); returns how many."""
    cdef int s, b, h, n = 0, sign, checkers = 0
    cdef int heights[HEIGHT_ROWS]
    cdef u64 c
    for h in range(HEIGHT_ROWS):
        heights[h] = 0
    for s in range(2):
        sign = 1 if s == 0 else -1
        c = p.stacks[s]
        while c:
            b = bb_lsb(c)
            c &= c - 1
            h = p.height[b]
            checkers += h
            out[n].row = R.seen[s][b]
            out[n].count = sign * h
            out[n + 1].row = R.nsq + R.seen[s][b]
            out[n + 1].count = sign
            n += 2
            heights[min(h, HEIGHT_ROWS) - 1] += sign
        out[n].row = 2 * R.nsq + TERM_MOBILITY
        out[n].count = sign * mobility(R, p, s)
        n += 1
    out[n].row = 2 * R.nsq + TERM_ATTACKED
    out[n].count = attacked_checkers(R, p) * (1 if p.stm == 1 else -1)
    out[n + 1].row = 2 * R.nsq + TERM_TEMPO
    out[n + 1].count = 1 if p.stm == 0 else -1
    n += 2
    for h in range(HEIGHT_ROWS):
        out[n].row = 2 * R.nsq + TERM_HEIGHT + h
        out[n].count = heights[h]
        n += 1
    phase[0] = checkers
    return n


cdef int evaluate(const Rules* R, const Pos* p) noexcept nogil:
    """Checkers on the board, their advance, stacks left where the opponent can take them, and
    mobility."""
    cdef int score[2]
    cdef int s, b, h, n, phase
    cdef u64 c
    cdef Feature listed[LINEAR_MAX_FEATURES]
    if R.learned.rows:
        n = features(R, p, listed, &phase)
        s = linear_value(R.learned, listed, n, phase)
        return s if p.stm == 0 else -s
    for s in range(2):
        score[s] = mobility(R, p, s) * R.w_mobility
        c = p.stacks[s]
        while c:
            b = bb_lsb(c)
            c &= c - 1
            h = p.height[b]
            score[s] += h * (R.w_checker + R.advance[s][b] * R.w_advance) + R.w_stack
    # Checkers of the side not to move that the side to move can capture at once.
    score[p.stm ^ 1] -= attacked_checkers(R, p) * R.w_attacked
    return score[p.stm] - score[p.stm ^ 1]


def linear_layout(int vid) -> list:
    """The names of the learned evaluation's rows (for the weights file's layout): squares
    named as White sees the board."""
    coords = _SPEC_BY_ID[vid].geometry.coords
    squares = [algebraic(*coords[b]) for b in sorted(coords)]
    return ([f"checkers_{s}" for s in squares] + [f"stack_{s}" for s in squares]
            + list(LINEAR_TERMS))


def linear_prior(int vid):
    """The hand-set evaluation as learned weights (centi-units, opening = ending): where
    training starts and what its penalty pulls towards."""
    cdef const Rules* R = &RULES[vid]
    cdef int b
    prior = np.zeros((2 * R.nsq + TERMS, 2))
    for b in range(64):
        if R.dest[0][b][0] == BAD:                   # a square of the board
            prior[R.seen[0][b]] = R.w_checker + R.advance[0][b] * R.w_advance
            prior[R.nsq + R.seen[0][b]] = R.w_stack
    prior[2 * R.nsq + TERM_MOBILITY] = R.w_mobility
    prior[2 * R.nsq + TERM_ATTACKED] = -R.w_attacked
    return prior
