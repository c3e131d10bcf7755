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
"""

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
    int reductions            # late-move reductions on (a switch so that matches can test them)
    int null_move             # null-move pruning on, where the game allows it (a switch too)
    int probcut               # ProbCut on, where the game asks for it (a switch too)
    int in_probcut            # > 0 inside a ProbCut search: no ProbCut there (as in Scan)
    int early_reductions      # early reductions on, where the game asks for them (a switch too)
    int qs_promotions         # quiescence crowns men, where the game lists such moves (a switch)
    int qs_exchanges          # quiescence offers exchanges, where the game lists them (a switch)
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
    u64* eval_cache           # EVAL_CACHE_SIZE entries: key's high 48 bits | value + 32768


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


# -- transposition table ----------------------------------------------------------------------

cdef inline int score_to_tt(int score, int ply) noexcept nogil:
    if score >= TABLE_BOUND:
        return score + ply
    if score <= -TABLE_BOUND:
        return score - ply
    return score


cdef inline int score_from_tt(int score, int ply) noexcept nogil:
    if score >= TABLE_BOUND:
        return score - ply
    if score <= -TABLE_BOUND:
        return score + ply
    return score


cdef inline u64 tt_data(const TTEntry* e) noexcept nogil:
    """The entry's 8 bytes after the key, as one word."""
    return (<const u64*>e)[1]


cdef inline TTEntry* tt_bucket(Search* S, u64 key) noexcept nogil:
    """The bucket (BUCKET entries, one cache line) where a position's entry lives."""
    return &S.tt[(key & S.tt_mask) * BUCKET]


cdef inline u64* busy_slot_of(Search* S, u64 key) noexcept nogil:
    """The entry of the threads' table of busy positions where a position is marked."""
    return &S.busy[key & (BUSY_SIZE - 1)]


cdef inline TTEntry* tt_probe(Search* S, u64 key) noexcept nogil:
    cdef TTEntry* bucket = tt_bucket(S, key)
    cdef int i
    for i in range(BUCKET):
        if (bucket[i].key ^ tt_data(&bucket[i])) == key and bucket[i].bound:
            return &bucket[i]
    return NULL


cdef inline void tt_store(Search* S, u64 key, int score, int depth, int bound, int move,
                          int ply) noexcept nogil:
    """Replace the same position, else the shallowest entry, preferring stale generations."""
    cdef TTEntry* bucket = tt_bucket(S, key)
    cdef TTEntry* victim = &bucket[0]
    cdef int i, worth, best_worth = 1 << 30
    for i in range(BUCKET):
        if (bucket[i].key ^ tt_data(&bucket[i])) == key:
            victim = &bucket[i]
            if move == NO_MOVE:
                move = bucket[i].move          # keep the old best move of this position
            break
        worth = bucket[i].depth - (32 if bucket[i].generation != S.generation else 0)
        if worth < best_worth:
            best_worth = worth
            victim = &bucket[i]
    victim.score = <int16_t>score_to_tt(score, ply)
    victim.depth = <uint8_t>(depth if depth > 0 else 0)
    victim.bound = <uint8_t>bound
    victim.move = <uint8_t>move
    victim.generation = S.generation
    victim.pad = 0
    victim.key = key ^ tt_data(victim)


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
        if S.qs_promotions and S.ops.generate_promotions != NULL:
            n = S.ops.generate_promotions(S.ctx, S.pos, moves)
        if S.qs_exchanges and S.ops.generate_exchanges != NULL:
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
    if S.null_move and S.ops.make_null != NULL and not pv_node and not checked and depth >= 3 \
            and not S.nulled[ply] and -MATE_BOUND < beta < MATE_BOUND \
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
    if S.probcut and S.ops.probcut_margin and not pv_node and not checked and depth >= 3 \
            and S.in_probcut == 0 and -MATE_BOUND < beta < MATE_BOUND - depth * S.ops.probcut_margin:
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
        if S.ops.wide and S.reductions and not pv_node and not checked and depth <= 3 and quiet \
                and not gives_check and i >= 4 + 3 * depth * depth and best > -MATE_BOUND:
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
            if S.reductions and S.early_reductions and S.ops.early_reductions and not pv_node \
                    and depth >= LMR_MIN_DEPTH \
                    and quiet:
                reduction = 1 if i < 6 else 2
            elif S.reductions and depth >= LMR_MIN_DEPTH and i >= LMR_FIRST_MOVE and quiet \
                    and not checked and not gives_check:
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


# -- threads ----------------------------------------------------------------------------------

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
    H.reductions = S.reductions
    H.null_move = S.null_move
    H.probcut = S.probcut
    H.early_reductions = S.early_reductions
    H.qs_promotions = S.qs_promotions
    H.qs_exchanges = S.qs_exchanges
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


cdef void helper_search(Search* H, int max_depth) noexcept nogil:
    """Iterative deepening of a helper until the main search stops it, never an iteration behind
    the main search's: level with it, the threads share its work through the table of busy
    positions (docs/results.md, threads). Only the transposition table keeps what it finds."""
    cdef Search* S = <Search*>H.main_search
    cdef int d = 1
    cdef int score, prev = 0, alpha, beta, delta, done = 0
    while d <= max_depth and not H.stop:
        if d < S.depth:
            d = S.depth                # fallen behind the main search: catch up
        delta = ASPIRATION_WINDOW
        if done and d >= 5 and -MATE_BOUND < prev < MATE_BOUND:
            alpha = prev - delta
            beta = prev + delta
        else:
            alpha = -INF
            beta = INF
        while True:
            score = search_root(H, alpha, beta, d, 0)
            if H.stop:
                return
            if score <= alpha and alpha > -INF:
                alpha = score - delta if score - delta > -INF else -INF
                delta *= 2
            elif score >= beta and beta < INF:
                beta = score + delta if score + delta < INF else INF
                delta *= 2
            else:
                break
        prev = score
        done = 1
        hand_over(H, d, score)
        d += 1


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


# -- Python face ------------------------------------------------------------------------------

TABLE_WIN_BOUND = TABLE_BOUND    # a score above this (and below a mate) is a win the tables
                                 # proved without giving its distance


def _move_orders(GameBoard board, int tt_move, killer_moves, history):
    """For tests: the search's ordering numbers of the board's moves, as its game's
    order_moves gives them and as order_moves (here) asks them move by move: (fast, generic);
    fast is None where the game has none. killer_moves: two indexes into the move list (-1: no
    killer yet); history: 4096 ints."""
    cdef const GameOps* ops = board.search_ops()
    cdef SMove moves[SEARCH_MAX_MOVES]
    cdef SMove killers[2]
    cdef int hist[4096]
    cdef int order[SEARCH_MAX_MOVES]
    cdef int n = ops.generate(ops.ctx, board.search_position(), moves), i, k
    if len(history) != 4096:
        raise ValueError("history must hold 4096 numbers")
    for i in range(4096):
        hist[i] = history[i]
    memset(killers, 0, sizeof(killers))
    for k in range(2):
        if 0 <= killer_moves[k] < n:
            killers[k] = moves[killer_moves[k]]
    order_moves(ops, moves, n, tt_move, killers, hist, order)
    generic = [order[i] for i in range(n)]
    if ops.order_moves == NULL:
        return None, generic
    ops.order_moves(moves, n, tt_move, killers, hist, order)
    return [order[i] for i in range(n)], generic


def _table_move(tables, board, result):
    """The search's result, its move replaced by the one the tables' distances call best when
    they hold the root as won or lost: the fastest win, or the slowest loss. Probing
    compressed tables, the search sees only "won" inside them, and can shuffle in a won
    position until a move-count rule draws the game (docs/egdb.md); raw tables give the same
    move as the search."""
    if not hasattr(tables, "best_move") or board.variant != tables.variant:
        return result
    root = tables.probe(board)
    if root is None or root.result == "draw":
        return result
    found = tables.best_move(board, root)
    if found is None or found[0] == result.best_move:
        return result
    best = found[0]
    line = PVLine(result.score, result.mate, [best])
    return _dataclass_replace(result, best_move=best, pv=[best], lines=[line])


def _mate_distance(int score):
    """Moves (not plies) to the end for a won (> 0) or lost (< 0) score, else None."""
    if score >= MATE_BOUND:
        return (MATE - score + 1) // 2
    if score <= -MATE_BOUND:
        return -((MATE + score) // 2)
    return None


cdef class Engine:
    """The search, with its transposition table: ``Engine(hash_mb=64)``.

    ``search(board, ...)`` returns a SearchResult; ``stop()`` (from another thread) ends a running
    search at once with the best move found so far; ``new_game()`` clears what was learnt.
    ``eval_file``: a learned evaluation's weights file (weights.py) to load first; weights
    belong to a variant, not to one Engine, so every search of that variant uses them."""

    cdef Search* S
    cdef void* helper_searches[MAX_THREADS]   # Search* of the helper threads (threads - 1)
    cdef u64* busy                            # the threads' shared table of busy positions
    cdef int nthreads
    cdef readonly int hash_mb
    cdef readonly int handovers               # iterations the last search took from a helper
    cdef object _lock
    cdef public bint searching
    cdef ProbeSource _tables
    cdef object _tables_owner

    def __cinit__(self, *args, **kwargs):
        self.S = new_search()
        if self.S == NULL:
            raise MemoryError()
        self.nthreads = 1

    def __init__(self, hash_mb=64, reductions=True, null_move=True, probcut=True,
                 early_reductions=True, qs_promotions=False, eval_file=None, threads=1,
                 qs_exchanges=False):
        self._lock = _threading.Lock()
        if eval_file is not None:
            from . import weights
            weights.load(eval_file)
        self.resize(hash_mb)
        self.reductions = reductions
        self.null_move = null_move
        self.probcut = probcut
        self.early_reductions = early_reductions
        self.qs_promotions = qs_promotions
        self.qs_exchanges = qs_exchanges
        self.threads = threads

    @property
    def threads(self) -> int:
        """Search threads (1 to 64): the main search and threads - 1 helpers sharing its
        transposition table (lazy SMP, see the module's docstring). 1 by default."""
        return self.nthreads

    @threads.setter
    def threads(self, value):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_THREADS:
            raise ValueError(f"threads must be 1 to {MAX_THREADS}, not {value!r}")
        self._not_searching("change the number of threads")
        cdef int i
        cdef Search* H
        for i in range(self.nthreads - 1, value - 1, -1):        # fewer: free the extra ones
            free_search(<Search*>self.helper_searches[i - 1])
            self.helper_searches[i - 1] = NULL
        if value > 1 and self.busy == NULL:
            self.busy = <u64*>malloc(BUSY_SIZE * sizeof(u64))
            if self.busy == NULL:
                raise MemoryError("cannot allocate the threads' shared table")
        for i in range(self.nthreads, value):                   # more: allocate
            H = new_search()
            if H == NULL:
                self.nthreads = i
                raise MemoryError("cannot allocate another search thread")
            self.helper_searches[i - 1] = H
        self.nthreads = value

    @property
    def early_reductions(self) -> bool:
        """Whether, in the games that ask for it (draughts), every quiet move after the first at
        a non-PV node is reduced, not only from the fourth, as Scan does. On by default: with
        ProbCut, it gains against Scan 2.0 in International and in self-play in checkers and
        Russian, and does not lose in Spanish and Gothic; Turkish, where it loses, does not ask
        for it (its row's ``selective_search``; docs/results.md). A switch so matches
        can test it."""
        return bool(self.S.early_reductions)

    @early_reductions.setter
    def early_reductions(self, value):
        self.S.early_reductions = 1 if value else 0

    @property
    def qs_promotions(self) -> bool:
        """Whether quiescence, at a quiet node, also searches the moves that crown a man (in the
        games that list them: draughts), as Scan does. Off by default: +24 Elo in self-play at
        100,000 nodes a move, but no gain against Scan 2.0 at 0.1 s (docs/results.md); a
        switch so matches can test it."""
        return bool(self.S.qs_promotions)

    @qs_promotions.setter
    def qs_promotions(self, value):
        self.S.qs_promotions = 1 if value else 0

    @property
    def qs_exchanges(self) -> bool:
        """Whether quiescence, at a quiet node with no king on the board, also searches the men's
        moves that offer a one-for-one exchange (draughts), as Scan does. Off by default: +33
        Elo in self-play at 100,000 nodes a move, but +0.0 % a game against Scan 2.0 at 0.1 s
        (docs/results.md); a switch so that matches can test it."""
        return bool(self.S.qs_exchanges)

    @qs_exchanges.setter
    def qs_exchanges(self, value):
        self.S.qs_exchanges = 1 if value else 0

    @property
    def probcut(self) -> bool:
        """Whether ProbCut (a shallow search that holds beta by a margin cuts the node) is used
        in the games that ask for it (draughts), as Scan does. On by default, with early
        reductions (see there for the matches that chose it); a switch so matches can test it."""
        return bool(self.S.probcut)

    @probcut.setter
    def probcut(self, value):
        self.S.probcut = 1 if value else 0

    @property
    def null_move(self) -> bool:
        """Whether null-move pruning is used in the games that allow it (Superajedrez; never in
        draughts, where zugzwang is everywhere). On by default; a switch so matches can test it."""
        return bool(self.S.null_move)

    @null_move.setter
    def null_move(self, value):
        self.S.null_move = 1 if value else 0

    @property
    def reductions(self) -> bool:
        """Whether late quiet moves are searched with reduced depth first (on by default; a
        self-play match with it off measures what it gains)."""
        return bool(self.S.reductions)

    @reductions.setter
    def reductions(self, value):
        self.S.reductions = 1 if value else 0

    @property
    def tablebases(self):
        """Endgame tables (engine.egdb.Tables) the search probes for exact results in their
        variant's positions, or None."""
        return self._tables_owner

    @tablebases.setter
    def tablebases(self, tables):
        self._not_searching("change the endgame tables")
        if tables is None:
            self._tables = None
            self._tables_owner = None
            return
        native = getattr(tables, "native", tables)
        if not isinstance(native, ProbeSource):
            raise TypeError("tablebases must be engine.egdb.Tables or None")
        self._tables = native
        self._tables_owner = tables

    def __dealloc__(self):
        cdef int i
        for i in range(self.nthreads - 1):
            free_search(<Search*>self.helper_searches[i])
        free(self.busy)
        if self.S != NULL:
            free(self.S.tt)
            free_search(self.S)

    def resize(self, hash_mb):
        """Set the transposition table size in MB (rounded down to a power of two of buckets);
        this clears it."""
        if not isinstance(hash_mb, int) or hash_mb < 1 or hash_mb > 65536:
            raise ValueError(f"hash size must be 1 to 65536 MB, not {hash_mb!r}")
        self._not_searching("resize the hash table")
        cdef u64 buckets = 1
        cdef u64 bytes_wanted = <u64>hash_mb * 1024 * 1024
        while buckets * 2 * BUCKET * sizeof(TTEntry) <= bytes_wanted:
            buckets *= 2
        cdef TTEntry* tt = <TTEntry*>tt_alloc(buckets * BUCKET * sizeof(TTEntry))
        if tt == NULL:
            raise MemoryError(f"cannot allocate a {hash_mb} MB hash table")
        free(self.S.tt)
        self.S.tt = tt
        self.S.tt_mask = buckets - 1
        self.hash_mb = hash_mb
        self.new_game()

    def new_game(self):
        """Forget the transposition table, killers and history (a new game starts)."""
        self._not_searching("start a new game")
        cdef int i
        memset(self.S.tt, 0, (self.S.tt_mask + 1) * BUCKET * sizeof(TTEntry))
        memset(self.S.history, 0, sizeof(self.S.history))
        memset(self.S.killers, 0, sizeof(self.S.killers))
        for i in range(self.nthreads - 1):
            memset((<Search*>self.helper_searches[i]).history, 0, sizeof(self.S.history))
        self.S.generation = 0

    def _not_searching(self, what):
        if self.searching:
            raise RuntimeError(f"cannot {what} while this engine is searching: stop() it first")

    def stop(self):
        """End the running search as soon as possible (safe from any thread)."""
        self.S.stop = 1

    def _helper(self, int index, int max_depth):
        """A helper thread's body: its search runs without the GIL until the main one stops it."""
        cdef Search* H = <Search*>self.helper_searches[index]
        with nogil:
            helper_search(H, max_depth)

    def hashfull(self) -> int:
        """Per mille of the first thousand entries used by the current search."""
        cdef int used = 0, i
        cdef u64 total = (self.S.tt_mask + 1) * BUCKET
        cdef int sample = 1000 if total > 1000 else <int>total
        for i in range(sample):
            if self.S.tt[i].bound and self.S.tt[i].generation == self.S.generation:
                used += 1
        return used * 1000 // sample

    def search(self, board, depth=None, nodes=None, movetime=None, wtime=None, btime=None,
               winc=0, binc=0, movestogo=None, infinite=False, multipv=1, info=None,
               asked_at=None):
        """Search ``board`` (left unchanged) and return a SearchResult.

        Limits: ``depth`` (plies), ``nodes``, ``movetime`` (seconds), or a clock: ``wtime`` /
        ``btime`` (seconds left), ``winc`` / ``binc`` (increment), ``movestogo``. With none of
        them, or ``infinite=True``, it runs until ``stop()`` (or to the maximum depth).
        ``multipv`` > 1 searches the best N moves. ``info(SearchInfo)`` is called after every
        finished iteration. ``asked_at``: the ``time.monotonic()`` reading when the move was
        asked for; time limits count from then (default: from the call)."""
        if not isinstance(board, GameBoard):
            raise TypeError("search() needs an engine Board")
        if multipv < 1:
            raise ValueError("multipv must be 1 or more")
        for name, value in (("depth", depth), ("nodes", nodes), ("movetime", movetime),
                            ("wtime", wtime), ("btime", btime), ("movestogo", movestogo)):
            if value is not None and value < 0:
                raise ValueError(f"{name} must not be negative")
        if depth is not None and not 1 <= depth <= MAX_PLY - 2:
            raise ValueError(f"depth must be 1 to {MAX_PLY - 2}, not {depth}")
        if nodes is not None and nodes < 1:
            raise ValueError("nodes must be 1 or more")
        if not self._lock.acquire(blocking=False):
            raise RuntimeError("this engine is already searching (use one Engine per thread)")
        try:
            result = self._search(board, depth, nodes, movetime, wtime, btime, winc, binc,
                                  movestogo, infinite, multipv, info, asked_at)
        finally:
            self._lock.release()
        if self._tables_owner is not None and multipv == 1 and result.best_move is not None:
            result = _table_move(self._tables_owner, board, result)
        return result

    def _search(self, board, depth, nodes, movetime, wtime, btime, winc, binc, movestogo,
                infinite, multipv, info, asked_at):
        cdef GameBoard gb = board
        cdef Search* S = self.S
        cdef const GameOps* ops = gb.search_ops()
        S.ops = ops
        S.ctx = ops.ctx
        memcpy(S.pos, gb.search_position(), ops.pos_size)
        cdef int nhist = gb.search_history(S.keys, MAX_HISTORY)
        S.root_index = nhist - 1
        S.nodes = 0
        # Emptied for each search: the game, its weights or its rules may have changed since.
        memset(S.eval_cache, 0, EVAL_CACHE_SIZE * sizeof(u64))
        S.seldepth = 0
        S.stop = 0
        S.in_probcut = 0
        S.check_limits = 0
        S.node_limit = nodes if nodes else 0
        S.generation = (S.generation + 1) & 0xFF
        memset(S.killers, 0, sizeof(S.killers))
        memset(S.nulled, 0, sizeof(S.nulled))
        S.tb_hits = 0
        S.probe = NULL
        if self._tables is not None and self._tables.variant == board.variant:
            S.probe = self._tables.probe_fn
            S.probe_ctx = self._tables.probe_ctx
        S.nroot = ops.generate(ops.ctx, S.pos, S.root_moves)
        # The budget counts from when the move was asked for (timeman.py): a protocol passes
        # the arrival of its `go` line, so time lost before this point is not lost on the clock.
        start_mono = asked_at if asked_at is not None and asked_at <= now() else now()
        clock = wtime if int(board.turn) == 0 else btime
        inc = (winc if int(board.turn) == 0 else binc) or 0
        soft, hard = _time_budget(None if infinite else clock, inc, movestogo, movetime)
        S.deadline = start_mono + hard if hard is not None else 0
        start = _time.perf_counter() - (now() - start_mono)
        max_depth = depth if depth else MAX_PLY - 2
        if infinite:
            max_depth = MAX_PLY - 2
        multipv = min(multipv, S.nroot) if S.nroot else 1

        if S.nroot == 0:
            if ops.end_score != NULL:
                final = ops.end_score(ops.ctx, S.pos, 0)
                final = 0 if final == END_NONE else final
            else:
                final = -MATE if ops.in_check == NULL or ops.in_check(ops.ctx, S.pos) else 0
            return SearchResult(None, final, _mate_distance(final), 0, 0, 0, 0.0, [], [])

        lines = []
        best_raw = None
        completed = 0
        cdef int score, alpha, beta, delta, d, pv_idx, i
        helpers = []
        S.helpers = self.helper_searches
        S.nhelpers = self.nthreads - 1
        S.busy = NULL
        if S.nhelpers:
            S.busy = self.busy
            memset(S.busy, 0, BUSY_SIZE * sizeof(u64))
        for i in range(S.nhelpers):
            prepare_helper(S, <Search*>self.helper_searches[i])
            helpers.append(_threading.Thread(target=self._helper, args=(i, max_depth), daemon=True))
        S.takeover = 1 if S.nhelpers and multipv == 1 else 0
        self.handovers = 0
        S.shared_lock = 0
        S.shared_depth = 0
        started = False
        self.searching = True
        try:
            d = 0
            while d < max_depth:
                d += 1
                iteration_lines = []
                S.depth = d
                taken = self._helper_iteration(d)      # a helper may have finished it already
                if taken is not None:
                    d, score, pv = taken
                    iteration_lines.append((score, pv))
                for pv_idx in range(multipv if taken is None else 0):   # else nothing to search
                    prev = S.root_scores[pv_idx] if completed else 0
                    delta = ASPIRATION_WINDOW
                    if d >= 5 and abs(prev) < MATE_BOUND:
                        alpha, beta = max(prev - delta, -INF), min(prev + delta, INF)
                    else:
                        alpha, beta = -INF, INF
                    while True:
                        with nogil:
                            score = search_root(S, alpha, beta, d, pv_idx)
                        if S.stop:
                            break
                        if score <= alpha and alpha > -INF:
                            alpha = max(score - delta, -INF)
                            delta *= 2
                        elif score >= beta and beta < INF:
                            beta = min(score + delta, INF)
                            delta *= 2
                        else:
                            break
                    if S.stop:
                        break       # stopped (1) or handed a helper's iteration (2, below)
                    pv = [(<char*>&S.pv[0][i])[:sizeof(SMove)] for i in range(S.pv_len[0])]
                    iteration_lines.append((score, pv))
                if S.stop == 2:
                    # A helper finished this iteration first: its result stands for the main
                    # search's (whose partial work is in the table). A helper's result for an
                    # earlier iteration, handed over as this one began, is not enough: redo it.
                    taken = self._helper_iteration(d)
                    if taken is None:
                        d -= 1
                        continue
                    d, score, pv = taken
                    iteration_lines = [(score, pv)]
                if S.stop == 1 and completed:
                    # An unfinished iteration still counts when the previous best move was
                    # searched to the end and another move beat it.
                    if (multipv == 1 and not iteration_lines and S.root_done >= 2
                            and S.pv_len[0] > 0 and S.root_scores[0] > -INF):
                        pv = [(<char*>&S.pv[0][i])[:sizeof(SMove)] for i in range(S.pv_len[0])]
                        if pv[0] != best_raw:
                            lines = [self._line(board, S.root_scores[0], pv)]
                    break
                if len(iteration_lines) > 1:
                    self._sort_lines(iteration_lines)
                S.check_limits = 1
                if not started:
                    # The helpers join once the first iteration, which always completes, is done.
                    for thread in helpers:
                        thread.start()
                    started = True
                if len(iteration_lines) == multipv:
                    completed = d
                    lines = [self._line(board, s, pv) for s, pv in iteration_lines]
                    best_raw = iteration_lines[0][1][0] if iteration_lines[0][1] else None
                    elapsed = _time.perf_counter() - start
                    if info is not None:
                        info(SearchInfo(d, S.seldepth, total_nodes(S), elapsed, self.hashfull(),
                                        lines, S.tb_hits))
                if S.stop == 1:
                    break
                elapsed = _time.perf_counter() - start
                if soft is not None and elapsed >= soft * SOFT_SHARE and not infinite:
                    break
                if S.nroot == 1 and (soft is not None) and not infinite:
                    break          # a forced move needs no more thought against the clock
                if S.node_limit and total_nodes(S) >= S.node_limit:
                    break
                if (abs(lines[0].score) >= MATE_BOUND and not infinite and depth is None
                        and d > 2 * abs(lines[0].mate) + 4):
                    break          # the win or loss is proven; deeper search changes nothing
        finally:
            for i in range(S.nhelpers):
                (<Search*>self.helper_searches[i]).stop = 1
            if started:
                for thread in helpers:
                    thread.join()
            self.searching = False
        nodes = total_nodes(S)
        thread_nodes = [S.nodes]
        for i in range(S.nhelpers):
            thread_nodes.append((<Search*>S.helpers[i]).nodes)
        S.nhelpers = 0
        elapsed = _time.perf_counter() - start
        if not lines:
            # Stopped before the first iteration finished: the first legal move, unscored.
            lines = [self._line(board, 0, [(<char*>&S.root_moves[0])[:sizeof(SMove)]])]
        best = lines[0]
        return SearchResult(best.move, best.score, best.mate, completed, S.seldepth, nodes,
                            elapsed, best.pv, lines, self.hashfull(), S.tb_hits, tuple(thread_nodes))

    cdef object _helper_iteration(self, int depth):
        """A helper's finished iteration of `depth` or deeper, as (depth, score, pv), with its
        best move brought to the front of the root moves; None if there is none. Either way a
        pending hand-over (stop = 2) is cleared."""
        cdef Search* S = self.S
        cdef SMove pv[MAX_PLY + 1]
        cdef int i, n = 0, score = 0, taken_depth = 0
        spin_lock(&S.shared_lock)
        if S.shared_depth >= depth:
            taken_depth = S.shared_depth
            score = S.shared_score
            n = S.shared_pv_len
            memcpy(pv, S.shared_pv, n * sizeof(SMove))
        atomic_cas_int(&S.stop, 2, 0)
        spin_unlock(&S.shared_lock)
        if not taken_depth:
            return None
        for i in range(S.nroot):
            if memcmp(&S.root_moves[i], &pv[0], sizeof(SMove)) == 0:
                break
        else:
            return None         # cannot happen: the helpers search the same root moves
        S.root_scores[i] = score
        root_move_to_front(S, i, 0)
        self.handovers += 1
        return taken_depth, score, [(<char*>&pv[i])[:sizeof(SMove)] for i in range(n)]

    cdef void _sort_lines(self, list lines):
        """MultiPV lines best first (searches of later lines can find higher scores), with the
        root moves reordered to match."""
        cdef int i, j, n = len(lines)
        cdef SMove tmp[SEARCH_MAX_MOVES]
        order = sorted(range(n), key=lambda k: -lines[k][0])
        for i in range(n):
            tmp[i] = self.S.root_moves[order[i]]
        for i in range(n):
            self.S.root_moves[i] = tmp[i]
            self.S.root_scores[i] = lines[order[i]][0]
        lines[:] = [lines[k] for k in order]

    cdef object _line(self, board, int score, list pv):
        """A PVLine with the moves as the board's Move objects, played out on a copy."""
        cdef SMove m
        cdef GameBoard copy = board.copy()
        moves = []
        for raw in pv:
            memcpy(&m, <const char*>raw, sizeof(SMove))
            mv = copy.wrap_search_move(&m)
            if mv is None:
                break
            moves.append(mv)
            copy.push(mv)
        return PVLine(score, _mate_distance(score), moves)
