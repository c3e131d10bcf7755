# The helper threads: lazy SMP over the shared table, busy positions put off, finished
# iterations handed to the main search. Included by _search.pyx.

cdef Search* new_search() noexcept nogil:
    """A zeroed Search with its move buffers, or NULL when memory runs out."""
    cdef Search* S = <Search*>malloc(sizeof(Search))
    if S == NULL:
        return NULL
    memset(S, 0, sizeof(Search))
    S.moves = <SMove*>malloc(MAX_PLY * SEARCH_MAX_MOVES * sizeof(SMove))
    S.order = <int*>malloc(MAX_PLY * SEARCH_MAX_MOVES * sizeof(int))
    S.gen_index = <int*>malloc(MAX_PLY * SEARCH_MAX_MOVES * sizeof(int))
    S.deferred = <int*>malloc(MAX_PLY * SEARCH_MAX_MOVES * sizeof(int))
    S.eval_cache = <u64*>malloc(EVAL_CACHE_SIZE * sizeof(u64))
    if S.moves == NULL or S.order == NULL or S.gen_index == NULL or S.deferred == NULL \
            or S.eval_cache == NULL:
        free_search(S)
        return NULL
    return S


cdef void free_search(Search* S) noexcept nogil:
    """Free a Search and its buffers (not the table: the main search owns it)."""
    if S != NULL:
        free(S.moves)
        free(S.order)
        free(S.gen_index)
        free(S.deferred)
        free(S.eval_cache)
        free(S)


cdef void prepare_helper(Search* S, Search* H) noexcept nogil:
    """Give a helper the main search's root, switches and table; its killers start empty, its
    history stays its own from search to search."""
    H.ops = S.ops
    H.ctx = S.ctx
    memcpy(H.pos, S.pos, POS_MAX)
    memcpy(H.keys, S.keys, sizeof(S.keys))
    H.root_index = S.root_index
    H.nodes = 0
    memset(H.eval_cache, 0, EVAL_CACHE_SIZE * sizeof(u64))
    H.seldepth = 0
    H.stop = 0
    H.in_probcut = 0
    H.main_search = <void*>S
    H.node_limit = S.node_limit     # helpers stop themselves when all threads' nodes reach it
    H.check_limits = 1 if S.node_limit else 0
    H.deadline = 0
    memcpy(H.switches, S.switches, sizeof(S.switches))
    H.probe = S.probe
    H.probe_ctx = S.probe_ctx
    H.tb_hits = 0
    H.tt = S.tt
    H.tt_mask = S.tt_mask
    H.generation = S.generation
    H.nroot = S.nroot
    memcpy(H.root_moves, S.root_moves, sizeof(S.root_moves))
    memset(H.killers, 0, sizeof(H.killers))
    memset(H.nulled, 0, sizeof(H.nulled))
    H.helpers = NULL
    H.nhelpers = 0
    H.busy = S.busy


cdef void hand_over(Search* H, int depth, int score) noexcept nogil:
    """A helper finished iteration `depth` (an exact score): give the result to the main search
    and, if the main search is still on that iteration, end it there (stop = 2): it takes this
    one instead and goes on to the next. So a fixed depth is reached when the first thread
    reaches it, and the main search is never held back by a subtree a helper already finished."""
    cdef Search* S = <Search*>H.main_search
    if not S.takeover or depth < S.depth or H.pv_len[0] < 1:
        return
    spin_lock(&S.shared_lock)
    if depth > S.shared_depth:
        S.shared_depth = depth
        S.shared_score = score
        S.shared_pv_len = H.pv_len[0]
        memcpy(S.shared_pv, H.pv[0], H.pv_len[0] * sizeof(SMove))
        atomic_cas_int(&S.stop, 0, 2)      # a real stop (1) stays as it is
    spin_unlock(&S.shared_lock)


cdef int take_helper_iteration(Search* S, int depth) noexcept nogil:
    """The main search takes a helper's finished iteration of `depth` or deeper: its score and
    line into S.taken_*, its best move brought to the front of the root moves; the depth taken,
    or 0 if there is none. Either way a pending hand-over (stop = 2) is cleared."""
    cdef int i, taken_depth = 0
    spin_lock(&S.shared_lock)
    if S.shared_depth >= depth:
        taken_depth = S.shared_depth
        S.taken_score = S.shared_score
        S.taken_pv_len = S.shared_pv_len
        memcpy(S.taken_pv, S.shared_pv, S.shared_pv_len * sizeof(SMove))
    atomic_cas_int(&S.stop, 2, 0)
    spin_unlock(&S.shared_lock)
    if not taken_depth:
        return 0
    for i in range(S.nroot):
        if memcmp(&S.root_moves[i], &S.taken_pv[0], sizeof(SMove)) == 0:
            break
    else:
        return 0                # cannot happen: the helpers search the same root moves
    S.root_scores[i] = S.taken_score
    root_move_to_front(S, i, 0)
    return taken_depth
