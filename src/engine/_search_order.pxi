# Move ordering (TT move, captures, killers, history) and the choice of the next move.
# Included by _search.pyx.

cdef inline void order_moves(const GameOps* ops, const SMove* moves, int n, int tt_move,
                             const SMove* killers, const int* history, int* order) noexcept nogil:
    """The move ordering's numbers, asked of the game move by move (GameOps.order_moves, where
    a game has one, gives the same in one call)."""
    cdef int i
    for i in range(n):
        if i == tt_move:
            order[i] = 1 << 30
        elif ops.is_capture(&moves[i]):
            order[i] = (1 << 28) + ops.capture_count(&moves[i])
        elif ops.same_move(&moves[i], &killers[0]):
            order[i] = 1 << 27
        elif ops.same_move(&moves[i], &killers[1]):
            order[i] = 1 << 26
        else:
            order[i] = history[ops.history_index(&moves[i])]


cdef inline int pick_next(int* order, int start, int n) noexcept nogil:
    """Selection step: the index of the best-scored move from start on (the first of equals).
    The running best is kept in registers and chosen without a branch: the comparison
    depends on the scores and was mispredicted often."""
    cdef int best = start, i, top = order[start], higher
    for i in range(start + 1, n):
        higher = order[i] > top
        best = i if higher else best
        top = order[i] if higher else top
    return best


cdef inline void swap_moves(SMove* moves, int* order, int i, int j) noexcept nogil:
    cdef SMove m
    cdef int o
    if i != j:
        m = moves[i]
        moves[i] = moves[j]
        moves[j] = m
        o = order[i]
        order[i] = order[j]
        order[j] = o
