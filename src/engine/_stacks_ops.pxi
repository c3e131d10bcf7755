# Dipole's side of GameOps (_game.pxd): the C functions the one search calls, over Pos and Move.
# Included into _stacks.pyx.


cdef int _op_generate(const void* ctx, const void* pos, SMove* out) noexcept nogil:
    return generate(<const Rules*>ctx, <const Pos*>pos, <Move*>out, 0)


cdef int _op_captures(const void* ctx, const void* pos, SMove* out) noexcept nogil:
    return generate(<const Rules*>ctx, <const Pos*>pos, <Move*>out, 1)


cdef int _op_has_quiet(const void* ctx, const void* pos) noexcept nogil:
    cdef const Pos* p = <const Pos*>pos
    return p.stacks[0] != 0 and p.stacks[1] != 0       # there is always a move or a pass


cdef void _op_make(const void* ctx, void* pos, const SMove* m, void* undo) noexcept nogil:
    make(<const Rules*>ctx, <Pos*>pos, <const Move*>m, <Undo*>undo)


cdef void _op_unmake(const void* ctx, void* pos, const SMove* m, const void* undo) noexcept nogil:
    unmake(<const Rules*>ctx, <Pos*>pos, <const Move*>m, <const Undo*>undo)


cdef u64 _op_key(const void* pos) noexcept nogil:
    return (<const Pos*>pos).key


cdef int _op_evaluate(const void* ctx, const void* pos) noexcept nogil:
    return evaluate(<const Rules*>ctx, <const Pos*>pos)


cdef int _op_features(const void* ctx, const void* pos, Feature* out, int* phase) noexcept nogil:
    return features(<const Rules*>ctx, <const Pos*>pos, out, phase)


cdef int _op_rule_end(const void* ctx, const void* pos) noexcept nogil:
    return rule_end(<const Rules*>ctx, <const Pos*>pos)


cdef int _op_draw_result(const void* ctx, const void* pos) noexcept nogil:
    return RULE_DRAW


cdef int _op_reversible(const void* pos) noexcept nogil:
    return 0                                  # no move can be undone: no repetition


cdef int _op_is_capture(const SMove* m) noexcept nogil:
    return (<const Move*>m).kind == KIND_CAPTURE


cdef int _op_capture_count(const SMove* m) noexcept nogil:
    return (<const Move*>m).n


cdef int _op_history_index(const SMove* m) noexcept nogil:
    cdef const Move* s = <const Move*>m
    return (s.frm * 64 + (s.to if s.to < 64 else s.n)) & 4095


cdef int _op_same_move(const SMove* a, const SMove* b) noexcept nogil:
    cdef const Move* x = <const Move*>a
    cdef const Move* y = <const Move*>b
    return x.frm == y.frm and x.to == y.to and x.n == y.n and x.kind == y.kind


cdef void _fill_ops(int vid):
    cdef GameOps* o = &OPS[vid]
    memset(o, 0, sizeof(GameOps))       # what is not set below is NULL or 0
    o.pos_size = sizeof(Pos)
    o.ctx = &RULES[vid]
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
    o.features = _op_features
    o.learned = RULES[vid].learned
    o.perft = _op_perft


cdef u64 _op_perft(const void* ctx, void* pos, int depth, SMove* stack) noexcept nogil:
    """The family's own perft (the last ply counted in bulk) for _game.game_perft."""
    return perft(<const Rules*>ctx, <Pos*>pos, depth, <Move*>stack)


assert sizeof(Move) == sizeof(SMove) and sizeof(Undo) <= UNDO_MAX and sizeof(Pos) <= POS_MAX
