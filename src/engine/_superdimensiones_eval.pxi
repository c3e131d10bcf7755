# What a Super Dimensiones position is worth (docs/superdimensiones.md, "Position value").
#
# The value for the player to move is the sum over the two sub-games of what each is worth to
# that player: a finished sub-game SUBGAME_WIN for a win, 0 for a draw, -SUBGAME_WIN for a loss;
# an open one its static evaluation, kept inside (-OPEN_LIMIT, OPEN_LIMIT) so that no open
# sub-game ever looks as good as a won one. Under conquistar more pieces and queens are better;
# under distraer the goal is to have the fewest (pieces, value), so material counts against.

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


cdef int evaluate(const Rules* R, const Pos* p) noexcept nogil:
    cdef int g, total = 0
    for g in range(2):
        if p.ended[g] != OPEN:
            total += result_value(p.ended[g])
        else:
            total += subgame_eval(R, p, g)
    return total if side_to_move(p) == 0 else -total


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
