# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""One alpha-beta search for every game.

The search sees a position only through the GameOps table of its family (_game.pxd): generate,
make, unmake, key, evaluate, the game's own end rules. It is principal-variation search with
iterative deepening and aspiration windows, a transposition table, move ordering by TT move,
captures, killers and history, late-move reductions of quiet moves, and a quiescence search that
plays out pending captures (in draughts they are compulsory, so a leaf is never in the middle of an
exchange; its stand-pat values come through a small per-thread cache, since the same leaves
recur in every iteration). Wins and losses are scored with their distance. Everything below the
Python Engine class is C-level and runs without the GIL; `Engine.stop()` from another thread
ends it at once.

Threads: with `threads` > 1, helper searches of the same root run beside the main one in threads
of their own, each with its own stacks, killers and history, all sharing the transposition table
(lazy SMP) and searching the main search's iteration. They also share a small table of the
positions being searched (Kerrigan's simplified ABDADA): a move other than the first whose
position another thread is searching is put off until the node's other moves are done, so that
the threads spread over the siblings instead of all searching the same subtree, and the move put
off often finds the other thread's result in the table; at the root too. The first thread to
finish an iteration sets the pace: a helper that finishes the main search's iteration first hands
its result over (`hand_over`), and the main search takes it and goes on to the next. The main
thread alone keeps the time and reports the move. Table entries are written without locks: an
entry's key is stored XORed with its data, so an entry torn by two threads writing at once fails
the key check instead of giving one position another's score (Hyatt and Mann's lockless hashing).

Files: this one holds the structs, the node's helpers, quiescence, negamax, the root and one
iteration (`iteration`); `_search_tt.pxi` the table, `_search_order.pxi` the move ordering,
`_search_threads.pxi` the helpers and their hand-overs, `_search_deepen.pxi` the iterative
deepening every thread runs (`deepen`), `_search_engine.pxi` the Python Engine and the main
search's reporter.
"""

from cpython.object cimport PyObject_GenericSetAttr
from libc.stdint cimport uint8_t, uint16_t, int16_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcmp, memcpy, memset
from libc.math cimport log
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

import threading as _threading
import time as _time
from dataclasses import replace as _dataclass_replace

from ._game cimport (GameBoard, GameOps, SMove, u64, SEARCH_MAX_MOVES, POS_MAX, UNDO_MAX,
                     RULE_NONE, RULE_DRAW, RULE_LOSS, RULE_WIN, END_NONE, ProbeFn, ProbeSource)

cdef extern from "_memory.h" nogil:
    void* tt_alloc(size_t bytes)
    void tt_prefetch(const void* p)

cdef extern from "_atomic.h" nogil:
    int atomic_cas_int(int* p, int expected, int desired)
    void spin_lock(int* p)
    void spin_unlock(int* p)

from .analysis import PVLine, SearchInfo, SearchResult
from .timeman import SOFT_SHARE, budget as _time_budget

cdef enum:
    MAX_PLY = 128
    MAX_HISTORY = 1024        # game positions kept for repetition checks
    INF = 32000
    MATE = 31000
    MATE_BOUND = 30000        # |score| above this is a win or loss with its distance
    TABLE_WIN = 29000         # won by the endgame tables, distance unknown (compressed tables)
    TABLE_BOUND = 28500       # |score| above this is a win or loss, with or without a distance
    BOUND_UPPER = 1
    BOUND_LOWER = 2
    BOUND_EXACT = 3
    BUCKET = 4
    NO_MOVE = 255
    MAX_THREADS = 64
    BUSY_SIZE = 1 << 15       # entries of the shared table of positions being searched
    PREFETCH_MOVES = 16       # a node's moves whose table buckets are loaded early
    EVAL_CACHE_SIZE = 1 << 12 # entries of each thread's cache of static values (32 kB)

# Search parameters, kept together so that a match can tune them.
cdef int ASPIRATION_WINDOW = 25
cdef int LMR_MIN_DEPTH = 3
cdef int LMR_FIRST_MOVE = 3         # moves before this index are never reduced
cdef int TIME_CHECK_NODES = 1023
cdef int DEFER_DEPTH = 3            # threads put off busy moves only at this depth and above
# Late-move reductions in wide games, by depth and move number: about ln(d) * ln(i) / 2.
cdef int LMR_WIDE[64][64]


cdef void _init_lmr():
    cdef int d, i
    for d in range(64):
        for i in range(64):
            LMR_WIDE[d][i] = 0 if d == 0 or i == 0 else <int>(0.5 + log(d) * log(i) / 2.0)


_init_lmr()


ctypedef struct TTEntry:
    u64 key                   # the position's key XOR the entry's other 8 bytes (see above)
    int16_t score
    uint8_t depth
    uint8_t bound
    uint8_t move              # index of the best move in the generated list, NO_MOVE if none
    uint8_t generation
    uint16_t pad


# The search's switches, each an index of Search.switches: the one table SWITCHES
# (_search_engine.pxi) gives each its name, default, protocol names and meaning, and Engine's
# keywords and attributes and the protocols' options (options.py) are made from it. A new
# switch is a name here, a row there, and the test in the search where its feature is.
cdef enum:
    SW_REDUCTIONS           # late-move reductions
    SW_NULL_MOVE            # null-move pruning, where the game allows it
    SW_PROBCUT              # ProbCut, where the game asks for it
    SW_EARLY_REDUCTIONS     # every quiet move after the first reduced, where the game asks
    SW_QS_PROMOTIONS        # quiescence crowns men, where the game lists such moves
    SW_QS_EXCHANGES         # quiescence offers exchanges, where the game lists them
    N_SWITCHES


ctypedef struct Search:
    const GameOps* ops
    const void* ctx
    uint8_t pos[POS_MAX]
    uint8_t undo[MAX_PLY + 1][UNDO_MAX]
    SMove* moves              # MAX_PLY * SEARCH_MAX_MOVES
    int* order                # ordering scores, parallel to moves
    int* gen_index            # each move's index in generation order (the TT names moves by it)
    u64 keys[MAX_HISTORY + MAX_PLY + 2]
    int root_index            # keys[root_index] is the root position's key
    SMove killers[MAX_PLY][2]
    int history[4096]
    SMove pv[MAX_PLY + 1][MAX_PLY + 1]
    int pv_len[MAX_PLY + 1]
    u64 nodes
    int seldepth
    int stop                  # 1: stop the search; 2: a helper finished the main's iteration
    int switches[N_SWITCHES]  # 1: the feature is on (SW_*)
    int in_probcut            # > 0 inside a ProbCut search: no ProbCut there (as in Scan)
    ProbeFn probe             # endgame tables for this search's game, or NULL
    const void* probe_ctx
    u64 tb_hits
    uint8_t nulled[MAX_PLY + 2]   # the move into this ply was a null move
    int check_limits          # 0 while the first iteration runs: it always completes
    u64 node_limit
    double deadline           # monotonic seconds; 0 = none
    TTEntry* tt
    u64 tt_mask               # buckets - 1
    uint8_t generation
    int nroot
    int root_done             # root moves searched to the end in the current iteration
    SMove root_moves[SEARCH_MAX_MOVES]
    int root_scores[SEARCH_MAX_MOVES]
    void** helpers            # the helper threads' Search structs (main thread only), or NULL
    int nhelpers
    void* main_search         # a helper's main Search (its node budget is the main one's)
    u64* busy                 # positions being searched by some thread (threads > 1), or NULL
    int* deferred             # MAX_PLY * SEARCH_MAX_MOVES: the moves put off at each ply
    int depth                 # the main search's iteration (helpers catch up with it)
    int takeover              # helpers hand the main search their finished iterations (multipv 1)
    int shared_lock           # spin lock over the four fields below (main search only)
    int shared_depth          # the deepest iteration a helper finished, 0 = none yet
    int shared_score
    int shared_pv_len
    SMove shared_pv[MAX_PLY + 1]
    int taken_score           # the helper's iteration the main search took last
    int taken_pv_len
    SMove taken_pv[MAX_PLY + 1]
    u64* eval_cache           # EVAL_CACHE_SIZE entries: key's high 48 bits | value + 32768


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


include "_search_tt.pxi"
include "_search_order.pxi"


# -- helpers ----------------------------------------------------------------------------------

cdef inline u64 total_nodes(Search* S) noexcept nogil:
    """Nodes of the main search and its helpers (read while they run: a count, not a sum)."""
    cdef u64 total = S.nodes
    cdef int i
    for i in range(S.nhelpers):
        total += (<Search*>S.helpers[i]).nodes
    return total


cdef inline void check_limits(Search* S) noexcept nogil:
    if not S.check_limits:
        return
    if S.node_limit and total_nodes(<Search*>S.main_search if S.main_search != NULL else S) \
            >= S.node_limit:
        S.stop = 1
    elif S.deadline > 0 and now() >= S.deadline:
        S.stop = 1

cdef inline void do_move(Search* S, int ply, const SMove* m) noexcept nogil:
    S.ops.make(S.ctx, S.pos, m, S.undo[ply])
    S.keys[S.root_index + ply + 1] = S.ops.key(S.pos)
    S.nodes += 1
    if (S.nodes & TIME_CHECK_NODES) == 0:
        check_limits(S)


cdef inline int static_value(Search* S, int ply, int quiet) noexcept nogil:
    """The evaluation of the position at `ply`, through a small cache: quiescence reaches the
    same quiet leaves again in every iteration, and the learned evaluations' weight loads are
    a large share of a node's time. An entry holds the key's high 48 bits and the value; its
    slot, the low bits; a value beyond 16 bits is not kept. The cache only saves time: every
    value it returns is the one `evaluate` would give (as the bench's signature shows). `quiet`:
    the side to move has no capture (GameOps.evaluate_quiet)."""
    cdef u64 key = S.keys[S.root_index + ply]
    cdef u64* slot = &S.eval_cache[key & (EVAL_CACHE_SIZE - 1)]
    cdef u64 entry = slot[0]
    cdef int value
    if entry != 0 and ((entry ^ key) >> 16) == 0:
        return <int>(entry & 0xFFFF) - 32768
    if quiet and S.ops.evaluate_quiet != NULL:
        value = S.ops.evaluate_quiet(S.ctx, S.pos)
    else:
        value = S.ops.evaluate(S.ctx, S.pos)
    if -32768 < value < 32768:
        slot[0] = (key & ~(<u64>0xFFFF)) | <u64>(value + 32768)
    return value


cdef inline void undo_move(Search* S, int ply, const SMove* m) noexcept nogil:
    S.ops.unmake(S.ctx, S.pos, m, S.undo[ply])


cdef inline int is_repetition(Search* S, int ply) noexcept nogil:
    cdef int idx = S.root_index + ply
    cdef int oldest = idx - S.ops.reversible(S.pos)
    cdef int i = idx - 2
    cdef u64 key = S.keys[idx]
    if oldest < 0:
        oldest = 0
    while i >= oldest:
        if S.keys[i] == key:
            return 1
        i -= 2
    return 0


cdef inline int rule_score(int result, int ply) noexcept nogil:
    if result == RULE_WIN:
        return MATE - ply
    if result == RULE_LOSS:
        return -MATE + ply
    return 0


cdef inline int side_in_check(Search* S) noexcept nogil:
    """Whether the side to move is in check (only games with check say so)."""
    return S.ops.in_check != NULL and S.ops.in_check(S.ctx, S.pos)


cdef inline int no_move_score(Search* S, int ply, int checked) noexcept nogil:
    """No legal move: lost, except in a game with check when not in check (stalemate)."""
    if S.ops.in_check == NULL or checked:
        return -MATE + ply
    return rule_score(S.ops.draw_result(S.ctx, S.pos), ply)


cdef inline int probe_score(Search* S, int ply) noexcept nogil:
    """The exact score from the endgame tables, or INF when they do not hold the position."""
    cdef int plies = 0
    cdef int r = S.probe(S.probe_ctx, S.pos, &plies)
    if r == RULE_NONE:
        return INF
    S.tb_hits += 1
    if plies < 0 and r != RULE_DRAW:           # won or lost, the distance not known
        return TABLE_WIN - ply if r == RULE_WIN else -TABLE_WIN + ply
    if r == RULE_WIN:
        return MATE - ply - plies
    if r == RULE_LOSS:
        return -MATE + ply + plies
    return rule_score(S.ops.draw_result(S.ctx, S.pos), ply)


cdef inline int node_end_score(Search* S, int ply) noexcept nogil:
    """The score of a node that the search does not expand: the game's own rules end the game
    here, the endgame tables know the exact result (they ignore move-count draw rules;
    docs/egdb.md), or the ply limit is reached. INF when the node is to be searched."""
    cdef int result, score
    if S.ops.end_score != NULL:
        score = S.ops.end_score(S.ctx, S.pos, 0)
        if score != END_NONE:
            return score
    result = S.ops.rule_end(S.ctx, S.pos)
    if result != RULE_NONE:
        return rule_score(result, ply)
    if S.probe != NULL and ply > 0:
        score = probe_score(S, ply)
        if score != INF:
            return score
    if ply >= MAX_PLY - 1:
        return S.ops.evaluate(S.ctx, S.pos)
    return INF


cdef inline int repetition_score(Search* S, int ply) noexcept nogil:
    """A repeated position ends the game: a draw, or what the game's points say."""
    if S.ops.end_score != NULL:
        return S.ops.end_score(S.ctx, S.pos, 1)
    return rule_score(S.ops.draw_result(S.ctx, S.pos), ply)


cdef inline int same_player(Search* S, int before) noexcept nogil:
    """Whether the player to move now (after a move) is `before`, the one who moved: only in
    games where a player can move twice in a row."""
    return S.ops.player != NULL and S.ops.player(S.pos) == before


cdef inline int mover(Search* S) noexcept nogil:
    return S.ops.player(S.pos) if S.ops.player != NULL else 0


cdef inline void update_pv(Search* S, int ply, const SMove* m) noexcept nogil:
    cdef int i
    S.pv[ply][ply] = m[0]
    for i in range(ply + 1, S.pv_len[ply + 1]):
        S.pv[ply][i] = S.pv[ply + 1][i]
    S.pv_len[ply] = S.pv_len[ply + 1] if S.pv_len[ply + 1] > ply + 1 else ply + 1


# -- quiescence -------------------------------------------------------------------------------

cdef int qsearch(Search* S, int alpha, int beta, int ply) noexcept nogil:
    cdef int n, i, j, score, best, checked, me
    cdef SMove* moves
    cdef int* order
    if ply > S.seldepth:
        S.seldepth = ply
    S.pv_len[ply] = ply
    score = node_end_score(S, ply)
    if score != INF:
        return score
    moves = S.moves + ply * SEARCH_MAX_MOVES
    order = S.order + ply * SEARCH_MAX_MOVES
    checked = side_in_check(S)
    if checked:
        # In check every evasion is searched, and standing pat is no option.
        n = S.ops.generate(S.ctx, S.pos, moves)
        if n == 0:
            return -MATE + ply
    else:
        n = S.ops.generate_captures(S.ctx, S.pos, moves)
    if n == 0:
        if not S.ops.has_quiet_move(S.ctx, S.pos):
            return no_move_score(S, ply, 0)
        best = static_value(S, ply, 1)          # not in check, and no capture: quiet
        if best >= beta:
            return best
        # A quiet node: stand pat, or play a quiet move that forces the play, where the game
        # lists such moves and the switches ask: crown a man, offer an exchange.
        if S.switches[SW_QS_PROMOTIONS] and S.ops.generate_promotions != NULL:
            n = S.ops.generate_promotions(S.ctx, S.pos, moves)
        if S.switches[SW_QS_EXCHANGES] and S.ops.generate_exchanges != NULL:
            n += S.ops.generate_exchanges(S.ctx, S.pos, moves + n)
        if n == 0:
            return best
        if best > alpha:
            alpha = best
    elif S.ops.captures_forced or checked:
        best = -INF               # the capture must be played: no standing pat
    else:
        best = static_value(S, ply, 0)
        if best >= beta:
            return best
        if best > alpha:
            alpha = best
    for i in range(n):
        order[i] = S.ops.capture_count(&moves[i])
    me = mover(S)
    for i in range(n):
        j = pick_next(order, i, n)
        swap_moves(moves, order, i, j)
        do_move(S, ply, &moves[i])
        if same_player(S, me):
            score = qsearch(S, alpha, beta, ply + 1)
        else:
            score = -qsearch(S, -beta, -alpha, ply + 1)
        undo_move(S, ply, &moves[i])
        if S.stop:
            return 0
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                update_pv(S, ply, &moves[i])
                if score >= beta:
                    break
    return best


# -- main search ------------------------------------------------------------------------------

cdef int negamax(Search* S, int alpha, int beta, int depth, int ply, int pv_node) noexcept nogil:
    cdef int n, i, j, score, best, bound, best_index, tt_move = NO_MOVE
    cdef int new_depth, reduction, is_cap, hidx, alpha0 = alpha, checked, gives_check, quiet
    cdef int me, same, margin
    cdef u64 key
    cdef TTEntry* e
    cdef SMove* moves
    cdef int* order
    cdef SMove best_move

    S.pv_len[ply] = ply
    # Draws and the game's own rules come first: they end the game here.
    if is_repetition(S, ply):
        return repetition_score(S, ply)
    score = node_end_score(S, ply)
    if score != INF:
        return score
    # No line from here can do better than winning at once or worse than losing at once.
    if alpha < -MATE + ply:
        alpha = -MATE + ply
    if beta > MATE - ply - 1:
        beta = MATE - ply - 1
    if alpha >= beta:
        return alpha

    checked = side_in_check(S)
    if checked and not S.ops.wide and ply < 2 * MAX_PLY // 3:
        depth += 1                   # check extension: every evasion is seen to the full depth
    if depth <= 0:
        return qsearch(S, alpha, beta, ply)
    if ply > S.seldepth:
        S.seldepth = ply

    key = S.keys[S.root_index + ply]
    e = tt_probe(S, key)
    if e != NULL:
        tt_move = e.move
        if not pv_node and e.depth >= depth:
            score = score_from_tt(e.score, ply)
            if (e.bound == BOUND_EXACT or (e.bound == BOUND_LOWER and score >= beta)
                    or (e.bound == BOUND_UPPER and score <= alpha)):
                return score

    # Null move: if passing still holds beta, a real move will too (not in zugzwang-prone games,
    # not in check, not twice in a row, not near mate scores).
    if S.switches[SW_NULL_MOVE] and S.ops.make_null != NULL and not pv_node and not checked \
            and depth >= 3 and not S.nulled[ply] and -MATE_BOUND < beta < MATE_BOUND \
            and static_value(S, ply, 0) >= beta \
            and S.ops.make_null(S.ctx, S.pos, S.undo[ply]):
        S.keys[S.root_index + ply + 1] = S.ops.key(S.pos)
        S.nodes += 1
        S.nulled[ply + 1] = 1
        score = -negamax(S, -beta, -beta + 1, depth - 3 - depth // 4, ply + 1, 0)
        S.nulled[ply + 1] = 0
        S.ops.unmake_null(S.ctx, S.pos, S.undo[ply])
        if S.stop:
            return 0
        if score >= beta:
            return beta if score >= MATE_BOUND else score

    # ProbCut: if a search of 40 % of the depth holds beta by a margin that grows with the
    # depth, the full search would hold beta too.
    if S.switches[SW_PROBCUT] and S.ops.probcut_margin and not pv_node and not checked \
            and depth >= 3 and S.in_probcut == 0 and -MATE_BOUND < beta < MATE_BOUND - depth * S.ops.probcut_margin:
        margin = depth * S.ops.probcut_margin
        S.in_probcut += 1
        score = negamax(S, beta + margin - 1, beta + margin, depth * 2 // 5, ply, 0)
        S.in_probcut -= 1
        if S.stop:
            return 0
        if score >= beta + margin:
            return score - margin

    moves = S.moves + ply * SEARCH_MAX_MOVES
    order = S.order + ply * SEARCH_MAX_MOVES
    n = S.ops.generate(S.ctx, S.pos, moves)
    if n == 0:
        return no_move_score(S, ply, checked)   # lost (or, in chess out of check, stalemate)
    if checked and S.ops.wide and n <= 3 and ply < 2 * MAX_PLY // 3:
        depth += 1                   # wide games extend only checks with few answers
    if n == 1 and ply < 2 * depth + 8:
        depth += 1                   # a forced move costs the opponent nothing to see

    # Ordering: the TT move, captures (more first), killers, then the history of quiet moves.
    if S.ops.order_moves != NULL:
        S.ops.order_moves(moves, n, tt_move, S.killers[ply], S.history, order)
    else:
        order_moves(S.ops, moves, n, tt_move, S.killers[ply], S.history, order)
    cdef int* gen_index = S.gen_index + ply * SEARCH_MAX_MOVES
    for i in range(n):
        gen_index[i] = i
    # The children will probe the table: start loading their buckets now, all at once, so
    # that the loads overlap each other and this node's work instead of each child waiting.
    if depth >= 2 and S.ops.key_after != NULL:
        for i in range(n if n < PREFETCH_MOVES else PREFETCH_MOVES):
            tt_prefetch(tt_bucket(S, S.ops.key_after(S.ctx, S.pos, &moves[i])))

    best = -INF
    best_index = NO_MOVE
    me = mover(S)
    # With threads, the moves (other than the first) whose positions another thread is
    # searching are put off to a second pass, after the others.
    cdef int* deferred = S.deferred + ply * SEARCH_MAX_MOVES
    cdef int ndeferred = 0, k = 0, may_defer = S.busy != NULL and depth >= DEFER_DEPTH
    cdef u64 child_key
    cdef u64* busy_slot = NULL
    while True:
        if k < n:
            i = k
            # The TT move is the only one ordered at 1 << 30: first without a scan.
            j = tt_move if k == 0 and tt_move < n else pick_next(order, i, n)
            if j != i:
                swap_moves(moves, order, i, j)
                hidx = gen_index[i]
                gen_index[i] = gen_index[j]
                gen_index[j] = hidx
        elif k - n < ndeferred:
            i = deferred[k - n]
        else:
            break
        k += 1
        is_cap = S.ops.is_capture(&moves[i])
        quiet = not is_cap and order[i] < (1 << 26)
        new_depth = depth - 1
        do_move(S, ply, &moves[i])
        if new_depth > 0:           # the child will probe the table (quiescence does not)
            tt_prefetch(tt_bucket(S, S.keys[S.root_index + ply + 1]))
        same = same_player(S, me)
        gives_check = side_in_check(S)
        # Wide games: near the leaves, late quiet moves that give no check are not searched.
        if S.ops.wide and S.switches[SW_REDUCTIONS] and not pv_node and not checked \
                and depth <= 3 and quiet and not gives_check and i >= 4 + 3 * depth * depth and best > -MATE_BOUND:
            undo_move(S, ply, &moves[i])
            continue
        if may_defer:
            child_key = S.keys[S.root_index + ply + 1]
            busy_slot = busy_slot_of(S, child_key)
            if i > 0 and k <= n and busy_slot[0] == child_key:
                undo_move(S, ply, &moves[i])
                deferred[ndeferred] = i
                ndeferred += 1
                continue
            busy_slot[0] = child_key
        if i == 0:
            score = child(S, alpha, beta, new_depth, ply + 1, pv_node, same)
        else:
            reduction = 0
            if S.switches[SW_REDUCTIONS] and S.switches[SW_EARLY_REDUCTIONS] \
                    and S.ops.early_reductions and not pv_node and depth >= LMR_MIN_DEPTH \
                    and quiet:
                reduction = 1 if i < 6 else 2
            elif S.switches[SW_REDUCTIONS] and depth >= LMR_MIN_DEPTH and i >= LMR_FIRST_MOVE \
                    and quiet and not checked and not gives_check:
                if S.ops.wide:
                    reduction = LMR_WIDE[depth if depth < 64 else 63][i if i < 64 else 63]
                    if pv_node and reduction > 0:
                        reduction -= 1
                    if reduction > new_depth - 1:
                        reduction = new_depth - 1 if new_depth > 1 else 0
                else:
                    reduction = 1 if i < 8 or depth < 6 else 2
            score = child(S, alpha, alpha + 1, new_depth - reduction, ply + 1, 0, same)
            if score > alpha and reduction:
                score = child(S, alpha, alpha + 1, new_depth, ply + 1, 0, same)
            if score > alpha and score < beta:
                score = child(S, alpha, beta, new_depth, ply + 1, 1, same)
        if may_defer and busy_slot[0] == child_key:
            busy_slot[0] = 0
        undo_move(S, ply, &moves[i])
        if S.stop:
            return 0
        if score > best:
            best = score
            best_index = gen_index[i]
            best_move = moves[i]
            if score > alpha:
                alpha = score
                update_pv(S, ply, &moves[i])
                if score >= beta:
                    if not is_cap:
                        if not S.ops.same_move(&moves[i], &S.killers[ply][0]):
                            S.killers[ply][1] = S.killers[ply][0]
                            S.killers[ply][0] = moves[i]
                        hidx = S.ops.history_index(&moves[i])
                        S.history[hidx] += depth * depth
                        if S.history[hidx] > (1 << 24):
                            for j in range(4096):
                                S.history[j] >>= 1
                    break
    if best >= beta:
        bound = BOUND_LOWER
    elif best > alpha0:
        bound = BOUND_EXACT
    else:
        bound = BOUND_UPPER
    # Where every move failed low, the highest of their upper bounds names no move worth trying
    # first next time: the entry keeps the move it had (as in Scan and Stockfish).
    tt_store(S, key, best, depth, bound,
             best_index if best_index < 256 and bound != BOUND_UPPER else NO_MOVE, ply)
    return best


cdef inline int child(Search* S, int alpha, int beta, int depth, int ply, int pv_node,
                      int same) noexcept nogil:
    """The score, for the player who just moved, of the position after the move: negated
    from the opponent's search, or as it is when the same player moves again."""
    if same:
        return negamax(S, alpha, beta, depth, ply, pv_node)
    return -negamax(S, -beta, -alpha, depth, ply, pv_node)


cdef inline void root_move_to_front(Search* S, int i, int first) noexcept nogil:
    """Move root move i (and its score) to index `first`, keeping the others' order."""
    cdef SMove m = S.root_moves[i]
    cdef int score = S.root_scores[i]
    while i > first:
        S.root_moves[i] = S.root_moves[i - 1]
        S.root_scores[i] = S.root_scores[i - 1]
        i -= 1
    S.root_moves[first] = m
    S.root_scores[first] = score


cdef int search_root(Search* S, int alpha, int beta, int depth, int first) noexcept nogil:
    """Search the root moves from index `first` on; the best one moves to `first` and its line to
    the PV. Moves that fail low keep -INF as their score and their previous relative order."""
    cdef int i, score, best = -INF, best_i = -1, same, me = mover(S)
    cdef int k = first, ndeferred = 0
    cdef int deferred[SEARCH_MAX_MOVES]
    cdef u64 child_key = 0
    cdef u64* busy_slot = NULL
    cdef SMove m
    S.pv_len[0] = 0
    S.root_done = 0
    for i in range(first, S.nroot):
        S.root_scores[i] = -INF
    # As in negamax: with threads, a move (other than the first) whose position another thread
    # is searching is put off until the others are done, so the threads split the root moves.
    while True:
        if k < S.nroot:
            i = k
        elif k - S.nroot < ndeferred:
            i = deferred[k - S.nroot]
        else:
            break
        k += 1
        m = S.root_moves[i]
        do_move(S, 0, &m)
        if S.busy != NULL:
            child_key = S.keys[S.root_index + 1]
            busy_slot = busy_slot_of(S, child_key)
            if i > first and k <= S.nroot and busy_slot[0] == child_key:
                undo_move(S, 0, &m)
                deferred[ndeferred] = i
                ndeferred += 1
                continue
            busy_slot[0] = child_key
        same = same_player(S, me)
        if i == first:
            score = child(S, alpha, beta, depth - 1, 1, 1, same)
        else:
            score = child(S, alpha, alpha + 1, depth - 1, 1, 0, same)
            if score > alpha and score < beta:
                score = child(S, alpha, beta, depth - 1, 1, 1, same)
        if busy_slot != NULL and busy_slot[0] == child_key:
            busy_slot[0] = 0
        undo_move(S, 0, &m)
        if S.stop:
            break
        S.root_done += 1
        if score > best:
            best = score
            if score > alpha or i == first:
                S.root_scores[i] = score
                best_i = i
                update_pv(S, 0, &m)
                if score > alpha:
                    alpha = score
                if score >= beta:
                    break
    if best_i > first:
        root_move_to_front(S, best_i, first)
    return best


cdef int iteration(Search* S, int depth, int first, int prev, int has_prev) noexcept nogil:
    """One iteration of the iterative deepening, the same for the main search and its helpers:
    the root moves from `first` searched to `depth` in an aspiration window around the previous
    iteration's score `prev` (from depth 5, where there is one and it is no mate), widened twice
    as far on the side that fails until the score falls inside. The caller reads S.stop after."""
    cdef int score, alpha = -INF, beta = INF, delta = ASPIRATION_WINDOW
    if has_prev and depth >= 5 and -MATE_BOUND < prev < MATE_BOUND:
        alpha = prev - delta if prev - delta > -INF else -INF
        beta = prev + delta if prev + delta < INF else INF
    while True:
        score = search_root(S, alpha, beta, depth, first)
        if S.stop:
            return score
        if score <= alpha and alpha > -INF:
            alpha = score - delta if score - delta > -INF else -INF
            delta *= 2
        elif score >= beta and beta < INF:
            beta = score + delta if score + delta < INF else INF
            delta *= 2
        else:
            return score


include "_search_threads.pxi"
include "_search_deepen.pxi"
include "_search_engine.pxi"
