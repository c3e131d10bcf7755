# Superajedrez's side of GameOps (_game.pxd): the C functions the one search calls, over Pos and
# Move. Included into _superajedrez.pyx.


cdef int _op_generate(const void* ctx, const void* pos, SMove* out) noexcept nogil:
    return generate(<const Pos*>pos, <Move*>out, 0)


cdef int _op_captures(const void* ctx, const void* pos, SMove* out) noexcept nogil:
    return generate(<const Pos*>pos, <Move*>out, 1)


cdef int _op_has_quiet(const void* ctx, const void* pos) noexcept nogil:
    cdef const Pos* p = <const Pos*>pos
    cdef int us = p.stm
    cdef u64 empty = ~(p.occ[0] | p.occ[1])
    # Out of check a rook, knight or bishop in reserve always has an empty square somewhere.
    if not in_check(p) and (p.reserve[us][ROOK] or p.reserve[us][KNIGHT]
                            or (p.reserve[us][PAWN] and (empty & PAWN_DROP[us]))):
        return 1
    return has_legal_move(p)


cdef void _op_make(const void* ctx, void* pos, const SMove* m, void* undo) noexcept nogil:
    make(<Pos*>pos, <const Move*>m, <Undo*>undo)


cdef void _op_unmake(const void* ctx, void* pos, const SMove* m, const void* undo) noexcept nogil:
    unmake(<Pos*>pos, <const Move*>m, <const Undo*>undo)


cdef u64 _op_key(const void* pos) noexcept nogil:
    return (<const Pos*>pos).key


cdef int _op_evaluate(const void* ctx, const void* pos) noexcept nogil:
    return evaluate(<const Pos*>pos)


cdef int _op_features(const void* ctx, const void* pos, Feature* out, int* phase) noexcept nogil:
    return features(<const Pos*>pos, out, phase)


cdef int _op_rule_end(const void* ctx, const void* pos) noexcept nogil:
    return rule_end(<const Pos*>pos)


cdef int _op_draw_result(const void* ctx, const void* pos) noexcept nogil:
    return RULE_DRAW


cdef int _op_reversible(const void* pos) noexcept nogil:
    return (<const Pos*>pos).halfmove


cdef int _op_in_check(const void* ctx, const void* pos) noexcept nogil:
    return in_check(<const Pos*>pos)


cdef int _op_is_capture(const SMove* m) noexcept nogil:
    cdef const Move* c = <const Move*>m
    return c.captured != 0 or (c.kind == MK_PROMO and c.promo == QUEEN)


cdef int ORDER_VALUE[7]          # by `captured` (1 + type): nothing, P, N, B, R, Q, K
ORDER_VALUE[:] = [0, 1, 3, 3, 5, 9, 0]


cdef int _op_capture_count(const SMove* m) noexcept nogil:
    """The ordering key of a capture: most valuable victim first, then the least valuable
    taker (for a reserved-space capture, the type placed); queen promotions rank with them."""
    cdef const Move* c = <const Move*>m
    cdef int score = ORDER_VALUE[c.captured] * 16 - c.piece
    if c.kind == MK_PROMO and c.promo == QUEEN:
        score += 8 * 16
    return score + 16


cdef int _op_history_index(const SMove* m) noexcept nogil:
    cdef const Move* c = <const Move*>m
    return ((c.colour * 12 + c.piece + (6 if c.frm == NOSQ else 0)) * 64 + c.to) & 4095


cdef int _op_same_move(const SMove* a, const SMove* b) noexcept nogil:
    cdef const Move* x = <const Move*>a
    cdef const Move* y = <const Move*>b
    return (x.frm == y.frm and x.to == y.to and x.kind == y.kind and x.piece == y.piece
            and x.promo == y.promo and x.colour == y.colour)


cdef int _op_make_null(const void* ctx, void* pos, void* undo) noexcept nogil:
    """Pass, for null-move pruning: only with a piece other than king and pawns on the board or
    anything in reserve (then a real move is hardly ever worse than passing)."""
    cdef Pos* p = <Pos*>pos
    cdef Undo* u = <Undo*>undo
    cdef int us = p.stm
    cdef const uint8_t* r = p.reserve[us]
    if not (p.pieces[us][KNIGHT] | p.pieces[us][BISHOP] | p.pieces[us][ROOK] | p.pieces[us][QUEEN]) \
            and not (r[0] | r[1] | r[2] | r[3] | r[4]):
        return 0
    u.key = p.key
    u.halfmove = p.halfmove
    u.ep = p.ep
    u.ep_keyed = p.ep_keyed
    if p.ep_keyed:
        p.key ^= ZEP[p.ep]
    p.ep = NOSQ
    p.ep_keyed = 0
    p.halfmove = 0            # no repetition is looked for across a pass
    p.stm = us ^ 1
    p.key ^= ZSIDE
    return 1


cdef void _op_unmake_null(const void* ctx, void* pos, const void* undo) noexcept nogil:
    cdef Pos* p = <Pos*>pos
    cdef const Undo* u = <const Undo*>undo
    p.stm ^= 1
    p.key = u.key
    p.halfmove = u.halfmove
    p.ep = u.ep
    p.ep_keyed = u.ep_keyed


cdef void _fill_ops():
    cdef GameOps* o = &OPS
    memset(o, 0, sizeof(GameOps))       # what is not set below is NULL or 0
    o.pos_size = sizeof(Pos)
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
    o.in_check = _op_in_check
    o.make_null = _op_make_null
    o.unmake_null = _op_unmake_null
    o.wide = 1
    o.features = _op_features
    o.learned = &LEARNED
    o.perft = _op_perft


cdef u64 _op_perft(const void* ctx, void* pos, int depth, SMove* stack) noexcept nogil:
    """The family's own perft (the last ply counted in bulk) for _game.game_perft."""
    return perft(<Pos*>pos, depth, <Move*>stack)


assert sizeof(Move) == sizeof(SMove) and sizeof(Undo) <= UNDO_MAX and sizeof(Pos) <= POS_MAX
