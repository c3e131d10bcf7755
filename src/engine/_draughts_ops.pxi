# The draughts family's entries in the search's position interface (_game.pxd).

cdef GameOps OPS[MAX_VARIANTS]
# ProbCut's margin, centi-men per ply of depth (the figure Scan 2.0 publishes in its source).
cdef int PROBCUT_MARGIN = 5


cdef int _op_generate(const void* ctx, const void* pos, SMove* out) noexcept nogil:
    return generate(<const Pos*>pos, <const Rules*>ctx, <Move*>out)


cdef int _op_generate_captures(const void* ctx, const void* pos, SMove* out) noexcept nogil:
    cdef Gen g
    g.path_mode = 0
    return gen_captures(<const Pos*>pos, <const Rules*>ctx, <Move*>out, &g)


cdef int _op_has_quiet_move(const void* ctx, const void* pos) noexcept nogil:
    cdef const Rules* R = <const Rules*>ctx
    cdef const Pos* p = <const Pos*>pos
    cdef int us = p.stm, i
    cdef Bits empty = R.valid & ~(p.pieces[0] | p.pieces[1])
    cdef Bits men = p.pieces[us] & ~p.kings, kings = free_kings(p, R, us)
    for i in range(R.n_man_move):
        if step(R, men, R.man_move[us][i]) & empty:
            return 1
    for i in range(R.n_king_dir):
        if step(R, kings, R.king_dir[i]) & empty:
            return 1
    if R.lateral and (step(R, kings & R.promo[us], 8) | step(R, kings & R.promo[us], 9)) & empty:
        return 1
    return 0


cdef int _op_generate_promotions(const void* ctx, const void* pos, SMove* out) noexcept nogil:
    """The quiet moves that crown a man: quiescence searches them after standing pat (Scan
    does the same), since a man about to crown is worth far more than a static count says."""
    cdef const Rules* R = <const Rules*>ctx
    cdef const Pos* p = <const Pos*>pos
    cdef int us = p.stm, i, d, n = 0
    cdef Bits empty = R.valid & ~(p.pieces[0] | p.pieces[1])
    cdef Bits men = p.pieces[us] & ~p.kings
    for i in range(R.n_man_move):
        d = R.man_move[us][i]
        n = add_targets(<Move*>out, n, step(R, men, d) & empty & R.promo[us], R.delta[d],
                        R.promo[us])
    return n


cdef inline int offers_exchange(const Rules* R, Bits ours, Bits theirs, Bits man,
                                int us) noexcept nogil:
    """Whether our `man` (one square of `ours`, the position after our move) can be taken at
    once by a man of `theirs`, and every such single jump can be answered by a man of ours
    taking the taker. A filter, not a proof (the taker may jump on, or be made to capture
    elsewhere): quiescence plays the exchange out."""
    cdef Bits empty = R.valid & ~(ours | theirs), taker, land, empty_after
    cdef int i, j, c, c2, attacked = 0, answered
    for i in range(R.n_man_cap):
        c = R.man_cap[us ^ 1][i]
        taker = step(R, man, R.opposite[c]) & theirs
        land = step(R, man, c) & empty
        if not (taker and land):
            continue
        attacked = 1
        # After the jump: our man gone, the taker's square empty, the taker on `land`.
        empty_after = (empty | man | taker) & ~land
        answered = 0
        for j in range(R.n_man_cap):
            c2 = R.man_cap[us][j]
            if (step(R, land, R.opposite[c2]) & ours & ~man) and (step(R, land, c2) & empty_after):
                answered = 1
                break
        if not answered:
            return 0
    return attacked


cdef int _op_generate_exchanges(const void* ctx, const void* pos, SMove* out) noexcept nogil:
    """With no king on the board, the men's quiet moves that offer a one-for-one exchange
    (offers_exchange): quiescence may search them after standing pat, as Scan does, since an
    exchange is as forcing as a capture. Crowning moves are left to generate_promotions."""
    cdef const Rules* R = <const Rules*>ctx
    cdef const Pos* p = <const Pos*>pos
    cdef int us = p.stm, i, d, t, n = 0
    cdef Bits empty = R.valid & ~(p.pieces[0] | p.pieces[1])
    cdef Bits men = p.pieces[us], targets, tb, fb
    cdef Move* moves = <Move*>out
    if p.kings:
        return 0
    for i in range(R.n_man_move):
        d = R.man_move[us][i]
        targets = step(R, men, d) & empty & ~R.promo[us]
        while targets and n < MAX_MOVES:
            t = bb_lsb(targets)
            targets &= targets - 1
            tb = (<Bits>1) << t
            fb = step(R, tb, R.opposite[d])
            if offers_exchange(R, p.pieces[us] ^ fb ^ tb, p.pieces[us ^ 1], tb, us):
                moves[n].frm = <uint8_t>bb_lsb(fb)
                moves[n].to = <uint8_t>t
                set_captured(&moves[n], 0)
                moves[n].promote = 0
                n += 1
    return n


cdef void _op_make(const void* ctx, void* pos, const SMove* m, void* undo) noexcept nogil:
    make(<Pos*>pos, <const Rules*>ctx, <const Move*>m, <Undo*>undo)


cdef void _op_unmake(const void* ctx, void* pos, const SMove* m, const void* undo) noexcept nogil:
    unmake(<Pos*>pos, <const Rules*>ctx, <const Move*>m, <const Undo*>undo)


cdef u64 _op_key(const void* pos) noexcept nogil:
    return (<const Pos*>pos).key


cdef u64 _op_key_after(const void* ctx, const void* pos, const SMove* sm) noexcept nogil:
    """GameOps.key_after: set only for rules whose key holds only the pieces and the side to move
    (not Chapinas' numbers, not Frisian's king streaks)."""
    return key_after_move(<const Pos*>pos, <const Move*>sm)


cdef int _op_evaluate(const void* ctx, const void* pos) noexcept nogil:
    return evaluate(<const Rules*>ctx, <const Pos*>pos)


cdef int _op_evaluate_quiet(const void* ctx, const void* pos) noexcept nogil:
    return evaluate_as(<const Rules*>ctx, <const Pos*>pos, 1)


cdef int _values_result(const Rules* R, const Pos* p) noexcept nogil:
    """Chapinas: a draw is decided by the sums of piece numbers (RULES.md §2.3)."""
    if not R.value_tiebreak:
        return RULE_DRAW
    cdef int mine = _number_sum(p, p.stm), theirs = _number_sum(p, p.stm ^ 1)
    if mine > theirs:
        return RULE_WIN
    if mine < theirs:
        return RULE_LOSS
    return RULE_DRAW


cdef int _op_draw_result(const void* ctx, const void* pos) noexcept nogil:
    return _values_result(<const Rules*>ctx, <const Pos*>pos)


cdef int _op_rule_end(const void* ctx, const void* pos) noexcept nogil:
    cdef const Rules* R = <const Rules*>ctx
    cdef const Pos* p = <const Pos*>pos
    if R.win_rule == WIN_LOSING and not (side_can_capture(p, R, p.stm)
                                         or _op_has_quiet_move(ctx, pos)):
        return RULE_WIN          # antidraughts: the side that cannot move has won
    cdef int code = rule_draw(p, R)
    if code == END_NONE:
        return RULE_NONE
    if code == END_LONE_PIECE or code == END_FIRST_KING:
        return RULE_LOSS
    return _values_result(<const Rules*>ctx, <const Pos*>pos)


cdef int _op_reversible(const void* pos) noexcept nogil:
    return (<const Pos*>pos).reversible


cdef int _op_since_capture(const void* pos) noexcept nogil:
    return (<const Pos*>pos).since_capture


cdef int _men_step_back(const Rules* R) noexcept nogil:
    """Whether a man can step one way and then back (Turkish men move sideways)."""
    cdef int i, j
    for i in range(R.n_man_move):
        for j in range(R.n_man_move):
            if R.man_move[0][j] == R.opposite[R.man_move[0][i]]:
                return 1
    return 0


cdef int _op_is_capture(const SMove* m) noexcept nogil:
    return captured_of(<const Move*>m) != 0


cdef int _op_capture_count(const SMove* m) noexcept nogil:
    return bb_popcount(captured_of(<const Move*>m))


cdef int _op_history_index(const SMove* m) noexcept nogil:
    return history_slot((<const Move*>m).frm, (<const Move*>m).to)


cdef int _op_same_move(const SMove* a, const SMove* b) noexcept nogil:
    cdef const Move* x = <const Move*>a
    cdef const Move* y = <const Move*>b
    # One expression, no early exit: its branches were mispredicted often (killer tests).
    return (x.frm == y.frm) & (x.to == y.to) & (captured_of(x) == captured_of(y))


cdef void _op_order_moves(const SMove* moves, int n, int tt_move, const SMove* killers,
                          const int* history, int* order) noexcept nogil:
    """GameOps.order_moves: the search's own numbers (its order_moves), with no call a move."""
    cdef const Move* m = <const Move*>moves
    cdef const Move* k0 = <const Move*>&killers[0]
    cdef const Move* k1 = <const Move*>&killers[1]
    cdef int i
    cdef Bits taken
    for i in range(n):
        taken = captured_of(&m[i])
        if taken:
            order[i] = (1 << 28) + bb_popcount(taken)
        elif m[i].frm == k0.frm and m[i].to == k0.to and captured_of(k0) == 0:
            order[i] = 1 << 27
        elif m[i].frm == k1.frm and m[i].to == k1.to and captured_of(k1) == 0:
            order[i] = 1 << 26
        else:
            order[i] = history[history_slot(m[i].frm, m[i].to)]
    if 0 <= tt_move < n:
        order[tt_move] = 1 << 30


cdef void _fill_ops(int vid, bint selective):
    cdef GameOps* o = &OPS[vid]
    memset(o, 0, sizeof(GameOps))       # what is not set below is NULL or 0
    o.pos_size = sizeof(Pos)
    o.ctx = &RULES[vid]
    o.captures_forced = 1
    o.generate = _op_generate
    o.generate_captures = _op_generate_captures
    o.has_quiet_move = _op_has_quiet_move
    o.generate_promotions = _op_generate_promotions
    o.generate_exchanges = _op_generate_exchanges
    o.make = _op_make
    o.unmake = _op_unmake
    o.key = _op_key
    o.key_after = NULL                   # keys that also hold numbers or streaks: none
    if not (RULES[vid].numbered or RULES[vid].king_streak):
        o.key_after = _op_key_after
    o.evaluate = _op_evaluate
    o.evaluate_quiet = _op_evaluate_quiet
    o.rule_end = _op_rule_end
    o.draw_result = _op_draw_result
    # The window in which a position can recur. Where men can step sideways and back, a man's
    # move does not make the earlier positions unreachable, so the window runs from the last
    # capture (longer than needed: positions before a forward step never match, they are only
    # compared); the draw count of moves without a man move (Pos.reversible) is unchanged.
    o.reversible = _op_since_capture if _men_step_back(&RULES[vid]) else _op_reversible
    o.is_capture = _op_is_capture
    o.capture_count = _op_capture_count
    o.history_index = _op_history_index
    o.same_move = _op_same_move
    o.order_moves = _op_order_moves
    o.probcut_margin = PROBCUT_MARGIN if selective else 0
    o.early_reductions = 1 if selective else 0
    o.perft = _op_perft


cdef u64 _op_perft(const void* ctx, void* pos, int depth, SMove* stack) noexcept nogil:
    """The family's own perft (the last ply counted in bulk) for _game.game_perft."""
    return perft(<Pos*>pos, <const Rules*>ctx, depth, <Move*>stack)


assert sizeof(Move) == sizeof(SMove) and sizeof(Undo) <= UNDO_MAX and sizeof(Pos) <= POS_MAX
