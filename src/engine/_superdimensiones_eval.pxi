# What a Super Dimensiones position is worth (docs/superdimensiones.md, "Position value").
#
# The value for the player to move is the sum over the two sub-games of what each is worth to
# that player: a finished sub-game SUBGAME_WIN for a win, 0 for a draw, -SUBGAME_WIN for a loss;
# an open one its static evaluation, kept inside (-OPEN_LIMIT, OPEN_LIMIT) so that no open
# sub-game ever looks as good as a won one. Under conquistar more pieces and queens are better;
# under distraer the goal is to have the fewest (pieces, value), so material counts against.
# Once weights are loaded (linear.py), an open sub-game's value is the learned linear one over
# the features below, kept inside the same bounds.

cdef enum:
    SUBGAME_WIN = 1000
    OPEN_LIMIT = 750


cdef int mobility(const Rules* R, const Pos* p, int t) noexcept nogil:
    """The squares team t's pieces can step or slide to (captures and ally jumps aside)."""
    cdef u64 own = p.team[t], empty = ~(p.team[0] | p.team[1] | p.team[2] | p.team[3])
    cdef int s, i, d, to, n = 0, queen
    while own:
        s = bb_lsb(own)
        own &= own - 1
        queen = (p.queens >> s) & 1
        for i in range(4 if queen else R.n_man_dirs):
            d = R.queen_dirs[i] if queen else R.man_dirs[t >> 1][i]
            to = R.step[s][d]
            while to != NONE and (empty & bit(to)):
                n += 1
                if not (queen and R.real):
                    break
                to = R.step[to][d]
    return n


cdef int subgame_eval(const Rules* R, const Pos* p, int g) noexcept nogil:
    """An open sub-game for player 1 (its team g against team g | 2)."""
    cdef u64 mine = p.team[g], theirs = p.team[g | 2], men, worst
    cdef int v, s, advance = 0, loss, mob
    v = (bb_popcount(mine) - bb_popcount(theirs)) * R.w_man \
        + (bb_popcount(mine & p.queens) - bb_popcount(theirs & p.queens)) * R.w_queen
    if R.conquer:
        men = mine & ~p.queens
        while men:
            s = bb_lsb(men)
            men &= men - 1
            advance += s // 6
        men = theirs & ~p.queens
        while men:
            s = bb_lsb(men)
            men &= men - 1
            advance -= 5 - s // 6
        v += advance * R.w_advance
    else:
        v = -v
    # A team without a move has finished its sub-game: lost under conquistar, won under distraer.
    mob = (mobility(R, p, g) - mobility(R, p, g | 2)) * R.w_mobility
    v += mob if R.conquer else -mob
    if p.huff and (p.turn & 1) == g:
        # The opponent is about to pick the piece a declined capture costs: the most valuable.
        loss = R.w_man + (R.w_queen if p.huff & p.queens else 0)
        v += -loss if p.turn == g else loss
    if v > OPEN_LIMIT:
        return OPEN_LIMIT
    if v < -OPEN_LIMIT:
        return -OPEN_LIMIT
    return v


cdef inline int result_value(int result) noexcept nogil:
    """A finished sub-game for player 1."""
    if result == WON_BY_1:
        return SUBGAME_WIN
    if result == WON_BY_2:
        return -SUBGAME_WIN
    return 0


# -- the learned evaluation's rows ----------------------------------------------------------------
# A man-square and a queen-square table (as the piece's player sees the board: player 2's
# mirrored by the symmetry that takes each team's start to its opponent's, a half turn in the
# western formation, a flip of the ranks in the eastern) for each pair of goal and formation
# cards; then, for each of the 32 rule sets, the terms of the hand-set evaluation; then a
# finished sub-game.

cdef enum:
    SQUARE_TABLES = 4 * 2 * NSQ          # (conquistar, eastern) x (man, queen) x square
    SET_MEN = 0
    SET_QUEENS = 1
    SET_ADVANCE = 2                      # rows the men have advanced
    SET_MOBILITY = 3
    SET_HUFF = 4                         # a huff pending against the player (-1) or for it (+1)
    SET_HUFF_QUEEN = 5                   # ... with a queen among the candidates
    SET_TERMS = 6
    ROW_ENDED = SQUARE_TABLES + N_CARD_SETS * SET_TERMS     # a sub-game won by player 1 (+1)
    LINEAR_ROWS = ROW_ENDED + 1
    PHASE_MAX = 24                       # pieces on the board at the start

SET_TERM_NAMES = ("men", "queens", "advance", "mobility", "huff", "huff_queen")


cdef inline int seen_by_player_2(const Rules* R, int s) noexcept nogil:
    return 6 * (5 - s // 6) + s % 6 if R.eastern else NSQ - 1 - s


cdef int subgame_features(const Rules* R, const Pos* p, int g, Feature* out) noexcept nogil:
    """An open sub-game's features for player 1 (its team g against team g | 2)."""
    cdef int table = (2 * R.conquer + R.eastern) * 2 * NSQ, base = SQUARE_TABLES + R.cards * SET_TERMS
    cdef int k, t, s, n = 0, sign, advance = 0, huff
    cdef u64 pieces
    for k in range(2):
        t = g | (2 * k)
        sign = 1 if k == 0 else -1
        pieces = p.team[t]
        while pieces:
            s = bb_lsb(pieces)
            pieces &= pieces - 1
            out[n].row = table + (NSQ if (p.queens >> s) & 1 else 0) \
                + (s if t == g else seen_by_player_2(R, s))
            out[n].count = sign
            n += 1
            if not (p.queens >> s) & 1:
                advance += s // 6 if t == g else -(5 - s // 6)
    out[n].row = base + SET_MEN
    out[n].count = bb_popcount(p.team[g]) - bb_popcount(p.team[g | 2])
    out[n + 1].row = base + SET_QUEENS
    out[n + 1].count = bb_popcount(p.team[g] & p.queens) - bb_popcount(p.team[g | 2] & p.queens)
    out[n + 2].row = base + SET_ADVANCE
    out[n + 2].count = advance
    out[n + 3].row = base + SET_MOBILITY
    out[n + 3].count = mobility(R, p, g) - mobility(R, p, g | 2)
    huff = 0
    if p.huff and (p.turn & 1) == g:
        huff = -1 if p.turn == g else 1
    out[n + 4].row = base + SET_HUFF
    out[n + 4].count = huff
    out[n + 5].row = base + SET_HUFF_QUEEN
    out[n + 5].count = huff if p.huff & p.queens else 0
    return n + 6


cdef inline int pieces_on_board(const Pos* p) noexcept nogil:
    return bb_popcount(p.team[0] | p.team[1] | p.team[2] | p.team[3])


cdef int features(const Rules* R, const Pos* p, Feature* out, int* phase) noexcept nogil:
    """The learned evaluation's features (player 1's view): each open sub-game's, and the
    results of the finished ones; returns how many."""
    cdef int g, n = 0, result
    for g in range(2):
        if p.ended[g] == OPEN:
            n += subgame_features(R, p, g, out + n)
        else:
            result = result_value(p.ended[g])
            out[n].row = ROW_ENDED
            out[n].count = 1 if result > 0 else -1 if result < 0 else 0
            n += 1
    phase[0] = pieces_on_board(p)
    return n


cdef int evaluate(const Rules* R, const Pos* p) noexcept nogil:
    cdef int g, n, v, total = 0
    cdef Feature listed[LINEAR_MAX_FEATURES]
    for g in range(2):
        if p.ended[g] != OPEN:
            total += result_value(p.ended[g])
        elif R.learned.rows:
            n = subgame_features(R, p, g, listed)
            v = linear_value(R.learned, listed, n, pieces_on_board(p))
            total += OPEN_LIMIT if v > OPEN_LIMIT else -OPEN_LIMIT if v < -OPEN_LIMIT else v
        else:
            total += subgame_eval(R, p, g)
    return total if side_to_move(p) == 0 else -total


def linear_layout() -> list:
    """The names of the learned evaluation's rows (for the weights file's layout)."""
    names = [f"{goal}_{formation}_{piece}_{'abcdef'[s % 6]}{1 + s // 6}"
             for goal in ("distraer", "conquistar") for formation in ("western", "eastern")
             for piece in ("man", "queen") for s in range(NSQ)]
    names += [f"{cards}_{term}" for cards in card_sets() for term in SET_TERM_NAMES]
    names.append("subgame_won")
    assert len(names) == LINEAR_ROWS
    return names


def linear_prior():
    """The hand-set evaluation as learned weights (hundredths of a man): where training starts
    and what its penalty pulls towards."""
    prior = np.zeros((LINEAR_ROWS, 2))
    cdef int cards, base, against
    cdef const Rules* R
    for cards in range(N_CARD_SETS):
        R = &RULES[cards]
        base = SQUARE_TABLES + cards * SET_TERMS
        against = 1 if R.conquer else -1                 # distraer: material counts against
        prior[base + SET_MEN] = against * R.w_man
        prior[base + SET_QUEENS] = against * R.w_queen
        prior[base + SET_ADVANCE] = R.w_advance if R.conquer else 0
        prior[base + SET_MOBILITY] = against * R.w_mobility
        prior[base + SET_HUFF] = R.w_man
        prior[base + SET_HUFF_QUEEN] = R.w_queen
    prior[ROW_ENDED] = SUBGAME_WIN
    return prior


cdef int end_score(const Rules* R, const Pos* p, int repeated) noexcept nogil:
    """The final score for the player to move when the game ends here: both sub-games over,
    or (repeated) a repetition, which ends every open sub-game by score; else END_NONE."""
    cdef int g, total = 0
    if not game_over(p) and not repeated:
        return END_NONE
    for g in range(2):
        if p.ended[g] != OPEN:
            total += result_value(p.ended[g])
        else:
            total += result_value(scored_result(R, p, g))
    return total if side_to_move(p) == 0 else -total
