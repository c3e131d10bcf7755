# Super Dimensiones' side of GameOps (_game.pxd): the C functions the one search calls, over Pos
# and Move. Included into _superdimensiones.pyx.


cdef int _op_generate(const void* ctx, const void* pos, SMove* out) noexcept nogil:
    return generate(<const Rules*>ctx, <const Pos*>pos, <Move*>out, 0)


cdef int _op_captures(const void* ctx, const void* pos, SMove* out) noexcept nogil:
    return generate(<const Rules*>ctx, <const Pos*>pos, <Move*>out, 1)


cdef int _op_has_quiet(const void* ctx, const void* pos) noexcept nogil:
    return not game_over(<const Pos*>pos)   # blocked teams end their sub-game in make


cdef void _op_make(const void* ctx, void* pos, const SMove* m, void* undo) noexcept nogil:
    make(<const Rules*>ctx, <Pos*>pos, <const Move*>m, <Pos*>undo)


cdef void _op_unmake(const void* ctx, void* pos, const SMove* m, const void* undo) noexcept nogil:
    unmake(<Pos*>pos, <const Pos*>undo)


cdef u64 _op_key(const void* pos) noexcept nogil:
    return (<const Pos*>pos).key


cdef int _op_evaluate(const void* ctx, const void* pos) noexcept nogil:
    return evaluate(<const Rules*>ctx, <const Pos*>pos)


cdef int _op_features(const void* ctx, const void* pos, Feature* out, int* phase) noexcept nogil:
    return features(<const Rules*>ctx, <const Pos*>pos, out, phase)


cdef int _op_rule_end(const void* ctx, const void* pos) noexcept nogil:
    return RULE_NONE                 # the game's ends are scored by _op_end_score


cdef int _op_draw_result(const void* ctx, const void* pos) noexcept nogil:
    return RULE_DRAW


cdef int _op_end_score(const void* ctx, const void* pos, int repeated) noexcept nogil:
    return end_score(<const Rules*>ctx, <const Pos*>pos, repeated)


cdef int _op_player(const void* pos) noexcept nogil:
    return side_to_move(<const Pos*>pos)


cdef int _op_forced(const void* ctx, const void* pos) noexcept nogil:
    return (<const Pos*>pos).huff != 0      # a huff choice must be played out


cdef int _op_reversible(const void* pos) noexcept nogil:
    return (<const Pos*>pos).rev


cdef int _op_is_capture(const SMove* m) noexcept nogil:
    cdef int kind = (<const Move*>m).kind
    return kind == KIND_CAPTURE or kind == KIND_HUFF


cdef int _op_capture_count(const SMove* m) noexcept nogil:
    cdef const Move* d = <const Move*>m
    return d.ncap * 4 + d.nqueens if d.kind == KIND_CAPTURE else 1


cdef int _op_history_index(const SMove* m) noexcept nogil:
    cdef const Move* d = <const Move*>m
    return (d.kind * 1296 + d.frm * 36 + d.to) & 4095


cdef int _op_same_move(const SMove* a, const SMove* b) noexcept nogil:
    cdef const Move* x = <const Move*>a
    cdef const Move* y = <const Move*>b
    return (x.frm == y.frm and x.to == y.to and x.kind == y.kind and x.captured == y.captured
            and x.penalty == y.penalty and x.penalty_sq == y.penalty_sq and x.promote == y.promote)


cdef void _fill_ops(int cards):
    cdef GameOps* o = &OPS[cards]
    memset(o, 0, sizeof(GameOps))       # what is not set below is NULL or 0
    o.pos_size = sizeof(Pos)
    o.ctx = &RULES[cards]
    o.generate = _op_generate
    o.generate_captures = _op_captures
    o.has_quiet_move = _op_has_quiet
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
    o.in_check = _op_forced
    o.player = _op_player
    o.end_score = _op_end_score
    o.features = _op_features
    o.learned = RULES[cards].learned
    o.perft = _op_perft


cdef u64 _op_perft(const void* ctx, void* pos, int depth, SMove* stack) noexcept nogil:
    """The family's own perft (the last ply counted in bulk) for _game.game_perft."""
    return perft(<const Rules*>ctx, <Pos*>pos, depth, <Move*>stack)


assert sizeof(Move) == sizeof(SMove) and sizeof(Pos) <= UNDO_MAX and sizeof(Pos) <= POS_MAX
