# The C-level position interface between the one search and every family of rules.
#
# A family (draughts, stacks, placement chess, ...) fills one GameOps table with plain C
# functions over its own position struct; the search sees positions and moves only as bytes.
# Moves are 16-byte blobs: every family's move struct is exactly that wide, since generators
# write arrays of them into the search's buffers. Positions take at most POS_MAX bytes, undo
# records at most UNDO_MAX bytes, all copied by value.
from libc.stdint cimport uint8_t, uint64_t
from libc.stdlib cimport lldiv

ctypedef uint64_t u64

cdef enum:
    SEARCH_MAX_MOVES = 1024  # moves per position a generator may write (Super Dimensiones: a
                             # declined capture times up to six reinforcement squares)
    POS_MAX = 256
    UNDO_MAX = 64

# What a rule (other than "no legal move") says about the position, for the side to move.
cdef enum:
    RULE_NONE = 0
    RULE_DRAW = 1
    RULE_LOSS = 2
    RULE_WIN = 3

# What end_score answers while the game goes on.
cdef enum:
    END_NONE = 1 << 30

# The learned linear evaluation of the games without board regions (Dipole, Superajedrez,
# Super Dimensiones; docs/learning.md). A family lists a position's features as (row, count)
# pairs, counts from White's (player 1's) view: its own pieces count +1, the other side's -1.
# The value is the sum of each row's weight times its count, an opening and an ending weight
# blended by the phase. The family's code that lists the features serves both the search and
# training (linear.py), so the two never disagree.
cdef enum:
    LINEAR_SCALE = 16        # stored weight = centi-units x LINEAR_SCALE
    LINEAR_MAX_FEATURES = 256

ctypedef struct Feature:
    int row
    int count

ctypedef struct LinearEval:
    int rows                 # 0: no learned weights, the hand-set evaluation plays
    int phase_max            # the phase at the start (opening weights only)
    int* weights             # rows x 2: opening, ending


cdef inline int linear_value(const LinearEval* L, const Feature* f, int n, int phase) noexcept nogil:
    """White's value in centi-units of the listed features at `phase` (0 ending .. phase_max);
    truncated towards zero (C's lldiv: a .pxd's inline function does not get its module's
    cdivision), so that the mirrored position's value is exactly the negation."""
    cdef long long opening = 0, ending = 0
    cdef int i
    if phase > L.phase_max:
        phase = L.phase_max
    for i in range(n):
        opening += <long long>L.weights[2 * f[i].row] * f[i].count
        ending += <long long>L.weights[2 * f[i].row + 1] * f[i].count
    return <int>lldiv(opening * phase + ending * (L.phase_max - phase),
                      <long long>L.phase_max * LINEAR_SCALE).quot


ctypedef struct SMove:
    uint8_t bytes[16]

ctypedef struct GameOps:
    size_t pos_size
    const void* ctx                       # the family's rules table for this variant
    int captures_forced                   # a capture, when there is one, must be played
    # Legal moves; captures only (for quiescence: when captures_forced these are all legal moves).
    int (*generate)(const void* ctx, const void* pos, SMove* out) noexcept nogil
    int (*generate_captures)(const void* ctx, const void* pos, SMove* out) noexcept nogil
    # Whether a non-capturing move exists (quiescence leaves: no move at all is a loss).
    int (*has_quiet_move)(const void* ctx, const void* pos) noexcept nogil
    # The quiet moves that crown a man (draughts), which quiescence searches after standing
    # pat when no capture is on; NULL where the game has none worth it.
    int (*generate_promotions)(const void* ctx, const void* pos, SMove* out) noexcept nogil
    # The quiet moves that offer a one-for-one exchange (draughts, no king on the board), which
    # quiescence may search after standing pat too; none of them crowns. NULL elsewhere.
    int (*generate_exchanges)(const void* ctx, const void* pos, SMove* out) noexcept nogil
    void (*make)(const void* ctx, void* pos, const SMove* m, void* undo) noexcept nogil
    void (*unmake)(const void* ctx, void* pos, const SMove* m, const void* undo) noexcept nogil
    u64 (*key)(const void* pos) noexcept nogil
    # The key the position would have after move m, without making it: the search asks it for
    # a node's moves before searching them, to start loading their table buckets early (the
    # bucket's load from memory is the largest single cost of a node). NULL: no early load.
    u64 (*key_after)(const void* ctx, const void* pos, const SMove* m) noexcept nogil
    int (*evaluate)(const void* ctx, const void* pos) noexcept nogil   # side to move, centi-men
    # The same value for a position whose side to move has no capture (quiescence's quiet
    # leaves), where knowing that saves work (draughts: the capture threat's test for the side
    # to move); NULL: evaluate.
    int (*evaluate_quiet)(const void* ctx, const void* pos) noexcept nogil
    # Game-specific end rules (move limits, lone pieces ...): a RULE_* code.
    int (*rule_end)(const void* ctx, const void* pos) noexcept nogil
    # How a repetition or a drawn rule ends for the side to move: RULE_DRAW, or a win/loss
    # where a tiebreak decides draws (Chapinas).
    int (*draw_result)(const void* ctx, const void* pos) noexcept nogil
    # Plies back to which a repetition is looked for: since the last move that cannot be undone
    # (or further: older positions are only compared, never matched).
    int (*reversible)(const void* pos) noexcept nogil
    int (*is_capture)(const SMove* m) noexcept nogil
    int (*capture_count)(const SMove* m) noexcept nogil
    int (*history_index)(const SMove* m) noexcept nogil  # 0..4095, for the history heuristic
    int (*same_move)(const SMove* a, const SMove* b) noexcept nogil
    # The search's move ordering in one call (NULL: the search asks the four functions above
    # move by move): order[i] = 1 << 30 for the TT move (index tt_move), (1 << 28) + the count
    # of pieces taken for a capture, 1 << 27 and 1 << 26 for the two killers, else
    # history[history_index]. The same numbers as the search's own loop, with no call a move.
    void (*order_moves)(const SMove* moves, int n, int tt_move, const SMove* killers,
                        const int* history, int* order) noexcept nogil
    # Games with check (Superajedrez): whether the side to move is in check; NULL elsewhere.
    # With it the search extends checks, searches evasions in quiescence, and scores a position
    # without a legal move as a loss only in check (stalemate is a draw). Super Dimensiones
    # answers 1 while a huff choice is pending: like an evasion, it must be played out.
    int (*in_check)(const void* ctx, const void* pos) noexcept nogil
    # Null move (the side to move passes), for null-move pruning; NULL where zugzwang is common
    # (draughts). make_null returns 0 and changes nothing when passing would be unsound here.
    int (*make_null)(const void* ctx, void* pos, void* undo) noexcept nogil
    void (*unmake_null)(const void* ctx, void* pos, const void* undo) noexcept nogil
    # Games with very many moves per position (placements): deeper late-move reductions and
    # move-count pruning of late quiet moves near the leaves.
    int wide
    # Narrow games measured to gain from Scan-style selectivity (the draughts rows whose table
    # says selective_search), 0 elsewhere:
    # probcut_margin > 0: at non-PV nodes of depth >= 3, a search of 40 % of the depth against
    # beta + depth * margin (centi-men) that holds it cuts the node (ProbCut); early_reductions:
    # at non-PV nodes every quiet move after the first is searched one ply shallower first (two
    # from the seventh), not only from the fourth.
    int probcut_margin
    int early_reductions
    # Games where one player may move twice in a row (Super Dimensiones: the huff choice, then
    # the opponent's own move): the player (0 or 1) who moves in pos. NULL = strict alternation.
    # A child with the same player to move is searched without negating its score.
    int (*player)(const void* pos) noexcept nogil
    # Games scored by points rather than won or lost (Super Dimensiones: the sum of two
    # sub-games' results): the final score for the side to move when the game ends in pos, or
    # ends there by repetition (`repeated`), else END_NONE. NULL elsewhere: rule_end and
    # draw_result decide. Scores from it stay well inside the mate range.
    int (*end_score)(const void* ctx, const void* pos, int repeated) noexcept nogil
    # Games with a learned linear evaluation (Dipole, Superajedrez, Super Dimensiones): the
    # features of a position (White's view; returns how many, at most LINEAR_MAX_FEATURES, and
    # sets the phase) and the weights the family's evaluate reads once loaded; NULL elsewhere.
    int (*features)(const void* ctx, const void* pos, Feature* out, int* phase) noexcept nogil
    LinearEval* learned
    # Optional: the family's own perft, counting the last ply in bulk (game_perft uses it where
    # set, else walks generate/make/unmake). `stack` holds (depth + 1) * SEARCH_MAX_MOVES moves;
    # it returns early, with any count, once perft_stopped() is true.
    u64 (*perft)(const void* ctx, void* pos, int depth, SMove* stack) noexcept nogil


# engine.stop_perft() from another thread stops every perft, of any family, at its next node: a
# family with its own perft (GameOps.perft) registers its module's flag here once, and reads
# that flag (a plain global, the cheapest test at each node); game_perft clears and reads them.
cdef void register_perft_stop(volatile int* flag) noexcept nogil


cdef class GameBoard:
    """Base of every family's board: the move history and what the search needs from it.

    A family's board class holds its position struct and sets `ops` (its variant's GameOps)
    and `position` (the address of that struct inside the object); this base then plays and
    takes back moves through the ops, keeps the keys for repetitions, copies boards and counts
    perft. The family supplies the strings (FEN, moves), the legal moves and the game's end."""
    cdef const GameOps* ops
    cdef void* position
    cdef SMove* played          # the moves played since the position was set, for pop
    cdef uint8_t* undos         # their undo records, UNDO_MAX bytes each
    cdef u64* keys              # keys[i] = the key after i plies; keys[nply] is the current one
    cdef int nply
    cdef int cap
    cdef list _stack            # the Move objects played

    cdef int _reserve(self, int plies) except -1
    cdef _play(self, const SMove* m, object move)
    cdef _clear_history(self)
    # Family hooks.
    cdef int _move_kind(self, object move)              # 0 not a Move of the family, 1 one,
                                                        # 2 one generated in this very position
    cdef const SMove* _move_data(self, object move)     # the C move inside one of its Moves
    cdef _copy_rules(self, GameBoard other)             # the family's rules into a fresh board
    # Done here from the hooks above; a family may still replace them.
    cdef object _checked_move(self, object move)        # the legal Move a Move or string names
    cdef _copy_state(self, GameBoard other)             # rules and position into a fresh board
    # What the search calls.
    cdef const GameOps* search_ops(self)
    cdef const void* search_position(self)
    cdef int search_history(self, u64* out, int capacity)   # keys since the last irreversible move
    cdef object wrap_search_move(self, const SMove* m)      # the legal Move equal to m


# Exact results from outside the search (endgame tables): RULE_WIN / RULE_LOSS / RULE_DRAW for
# the side to move and the plies to the end, or RULE_NONE when the position is not covered.
ctypedef int (*ProbeFn)(const void* ctx, const void* pos, int* plies) noexcept nogil


cdef class ProbeSource:
    """What the search asks for exact results; `variant` names the game it covers."""
    cdef ProbeFn probe_fn
    cdef const void* probe_ctx
    cdef readonly object variant

