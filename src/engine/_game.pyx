# cython: language_level=3
"""The base class of every family's board (see _game.pxd): the history of moves played, taking
them back, repetitions, copies, and a perft over GameOps that any game gets for free."""

from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy

import numpy as np

from .errors import IllegalMoveError, PerftStopped


cdef volatile int perft_stop = 0
cdef volatile int* family_stops[16]     # the flags the families' own perfts read
cdef int n_family_stops = 0


cdef void register_perft_stop(volatile int* flag) noexcept nogil:
    global n_family_stops
    if n_family_stops < 16:
        family_stops[n_family_stops] = flag
        n_family_stops += 1


cdef void _set_perft_stop(int value) noexcept nogil:
    global perft_stop
    cdef int i
    perft_stop = value
    for i in range(n_family_stops):
        family_stops[i][0] = value


cdef int _perft_stopped() noexcept nogil:
    cdef int i
    if perft_stop:
        return 1
    for i in range(n_family_stops):
        if family_stops[i][0]:
            return 1
    return 0


cdef class GameBoard:
    def __cinit__(self, *args, **kwargs):
        self.cap = 64
        self.played = <SMove*>malloc(self.cap * sizeof(SMove))
        self.undos = <uint8_t*>malloc(self.cap * UNDO_MAX)
        self.keys = <u64*>malloc((self.cap + 1) * sizeof(u64))
        if not (self.played and self.undos and self.keys):
            raise MemoryError()
        self._stack = []
        self.nply = 0

    def __dealloc__(self):
        free(self.played)
        free(self.undos)
        free(self.keys)

    # -- the history ------------------------------------------------------------------------

    cdef int _reserve(self, int plies) except -1:
        """Room for the given number of plies."""
        if plies < self.cap:
            return 0
        cdef int cap = self.cap
        while cap <= plies:
            cap *= 2
        cdef SMove* played = <SMove*>realloc(self.played, cap * sizeof(SMove))
        if not played:
            raise MemoryError()
        self.played = played
        cdef uint8_t* undos = <uint8_t*>realloc(self.undos, cap * UNDO_MAX)
        if not undos:
            raise MemoryError()
        self.undos = undos
        cdef u64* keys = <u64*>realloc(self.keys, (cap + 1) * sizeof(u64))
        if not keys:
            raise MemoryError()
        self.keys = keys
        self.cap = cap
        return 0

    cdef _play(self, const SMove* m, object move):
        """Play a move already known to be legal."""
        self._reserve(self.nply + 1)
        self.played[self.nply] = m[0]
        self.ops.make(self.ops.ctx, self.position, &self.played[self.nply],
                      self.undos + self.nply * UNDO_MAX)
        self.nply += 1
        self.keys[self.nply] = self.ops.key(self.position)
        self._stack.append(move)

    cdef _clear_history(self):
        """The position was just set: it is the first of the game."""
        self.nply = 0
        self.keys[0] = self.ops.key(self.position)
        self._stack = []

    def push(self, move):
        """Play a move (a Move of this position or any move string the game accepts) and
        return it. An illegal move raises IllegalMoveError and leaves the board as it was."""
        mv = self._checked_move(move)
        self._play(self._move_data(mv), mv)
        return mv

    def pop(self):
        """Take back the last move and return it."""
        if self.nply == 0:
            raise IndexError("pop from a board with no moves played")
        self.nply -= 1
        self.ops.unmake(self.ops.ctx, self.position, &self.played[self.nply],
                        self.undos + self.nply * UNDO_MAX)
        return self._stack.pop()

    def is_legal(self, move) -> bool:
        try:
            self._checked_move(move)
        except IllegalMoveError:
            return False
        return True

    @property
    def move_stack(self) -> list:
        """The moves played since the position was set, the first first."""
        return list(self._stack)

    @property
    def ply(self) -> int:
        """Plies played since the position was set."""
        return self.nply

    def copy(self):
        """An independent board with the same position and history."""
        cdef GameBoard b = type(self).__new__(type(self))
        self._copy_state(b)
        b._reserve(self.nply)
        memcpy(b.played, self.played, self.nply * sizeof(SMove))
        memcpy(b.undos, self.undos, self.nply * UNDO_MAX)
        memcpy(b.keys, self.keys, (self.nply + 1) * sizeof(u64))
        b.nply = self.nply
        b._stack = list(self._stack)
        return b

    def __copy__(self):
        return self.copy()

    def zobrist_hash(self) -> int:
        """The 64-bit key of the position (kept up to date by make/unmake)."""
        return self.ops.key(self.position)

    def repetitions(self) -> int:
        """How many times the current position (side to move included) has occurred since the
        position was set and the last irreversible move."""
        cdef int count = 1, i = self.nply - 1
        cdef int oldest = self.nply - self.ops.reversible(self.position)
        while i >= 0 and i >= oldest:
            if self.keys[i] == self.keys[self.nply]:
                count += 1
            i -= 1
        return count

    # -- the end of the game (each family's outcome() decides) ------------------------------

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def result(self) -> str:
        """'1-0', '0-1', '1/2-1/2', or '*' while the game goes on."""
        o = self.outcome()
        return "*" if o is None else o.result()

    def termination(self):
        o = self.outcome()
        return None if o is None else o.termination

    # -- family hooks -----------------------------------------------------------------------

    cdef int _move_kind(self, object move):
        return 1

    cdef const SMove* _move_data(self, object move):
        return NULL

    cdef _copy_rules(self, GameBoard other):
        pass

    cdef object _checked_move(self, object move):
        """The legal Move that a Move or a move string names: a Move generated in this very
        position as it is, another Move of the family if it equals a legal one."""
        if isinstance(move, str):
            return self.parse_move(move)
        cdef int kind = self._move_kind(move)
        if kind == 0:
            raise TypeError(f"push() takes a Move or a move string, not {type(move).__name__}")
        if kind == 2:
            return move
        for other in self.legal_moves():
            if other == move:
                return other
        raise IllegalMoveError(f"{move} is not a legal move in {self.fen()}")

    cdef _copy_state(self, GameBoard other):
        """The position and the rules into a fresh board of the same class."""
        self._copy_rules(other)
        other.ops = self.ops
        memcpy(other.position, self.position, self.ops.pos_size)

    # -- what the search needs --------------------------------------------------------------

    cdef const GameOps* search_ops(self):
        return self.ops

    cdef const void* search_position(self):
        return self.position

    cdef int search_history(self, u64* out, int capacity):
        cdef int first = self.nply - self.ops.reversible(self.position)
        if first < 0:
            first = 0
        if self.nply + 1 - first > capacity:
            first = self.nply + 1 - capacity
        cdef int i
        for i in range(first, self.nply + 1):
            out[i - first] = self.keys[i]
        return self.nply + 1 - first

    cdef object wrap_search_move(self, const SMove* m):
        for mv in self.legal_moves():
            if self.ops.same_move(self._move_data(mv), m):
                return mv
        return None

    # -- the learned linear evaluation (linear.py) ------------------------------------------
    # The weights belong to the variant: loading them changes every board and search of it.

    def _native_position(self) -> bytes:
        """The C position as bytes (endgame tables and self-play files read it directly)."""
        return (<char*>self.position)[:self.ops.pos_size]

    def _has_linear(self) -> bool:
        return self.ops.features != NULL and self.ops.learned != NULL

    def _set_linear(self, weights):
        """Make the variant's evaluation the learned one with these weights (int16, rows x 2,
        in 1/LINEAR_SCALE centi-units), checked against the layout by linear.py."""
        if not self._has_linear():
            raise ValueError("this game has no learned linear evaluation")
        cdef const short[:, ::1] w = np.ascontiguousarray(weights, dtype=np.int16)
        if w.shape[1] != 2 or w.shape[0] < 1:
            raise ValueError(f"weights must have shape (rows, 2), not {tuple(weights.shape)}")
        cdef int* table = <int*>malloc(w.shape[0] * 2 * sizeof(int))
        if not table:
            raise MemoryError()
        cdef Py_ssize_t i
        for i in range(w.shape[0]):
            table[2 * i] = w[i, 0]
            table[2 * i + 1] = w[i, 1]
        cdef LinearEval* L = self.ops.learned
        cdef int* old = L.weights
        L.rows = 0                               # the evaluation never sees a half-made table
        L.weights = table
        L.rows = w.shape[0]
        free(old)

    def _clear_linear(self):
        """Back to the variant's hand-set evaluation."""
        if not self._has_linear():
            return
        cdef LinearEval* L = self.ops.learned
        cdef int* old = L.weights
        L.rows = 0
        L.weights = NULL
        free(old)

    def _linear_fixed_rows(self) -> list:
        """Rows of the learned evaluation whose values the search does not read from the
        weights (Super Dimensiones' finished sub-game, always 1000): training keeps them at
        the prior."""
        return []

    def _linear_phase_max(self) -> int:
        return self.ops.learned.phase_max if self._has_linear() else 0

    def _linear_features(self, positions):
        """The features of positions given as their native bytes (uint8 array [N, pos_size]),
        as the search lists them: (row of the position, feature row, count) arrays of the
        non-zero counts, and the phase of every position."""
        if not self._has_linear():
            raise ValueError("this game has no learned linear evaluation")
        cdef const unsigned char[:, ::1] data = np.ascontiguousarray(positions, dtype=np.uint8)
        if data.shape[0] and data.shape[1] != self.ops.pos_size:
            raise ValueError(f"positions of {data.shape[1]} bytes, this game's are "
                             f"{self.ops.pos_size}")
        cdef Py_ssize_t count = data.shape[0], i, used = 0, cap = 1 << 16
        cdef Feature buffer[LINEAR_MAX_FEATURES]
        cdef int n, k, ph
        phase = np.zeros(count, dtype=np.int32)
        which = np.zeros(cap, dtype=np.int64)
        rows = np.zeros(cap, dtype=np.int32)
        counts = np.zeros(cap, dtype=np.int32)
        cdef int[::1] phase_view = phase
        cdef long long[::1] which_view = which
        cdef int[::1] rows_view = rows, counts_view = counts
        cdef void* pos = malloc(POS_MAX)
        if not pos:
            raise MemoryError()
        try:
            for i in range(count):
                memcpy(pos, &data[i, 0], self.ops.pos_size)     # aligned, as the search's are
                n = self.ops.features(self.ops.ctx, pos, buffer, &ph)
                phase_view[i] = ph
                if used + n > cap:
                    cap = 2 * (used + n)
                    which, rows, counts = (np.resize(a, cap) for a in (which, rows, counts))
                    which_view, rows_view, counts_view = which, rows, counts
                for k in range(n):
                    if buffer[k].count:
                        which_view[used] = i
                        rows_view[used] = buffer[k].row
                        counts_view[used] = buffer[k].count
                        used += 1
        finally:
            free(pos)
        return which[:used].copy(), rows[:used].astype(np.int64), counts[:used].astype(np.float64), phase

    def _repr_svg_(self):
        """The position as an SVG picture (engine.svg.board): notebooks draw the board."""
        from .svg import board as picture
        return picture(self)


# ---------------------------------------------------------------------------------------------
# Perft over GameOps: every game counts its leaves with no code of its own. A family may give a
# faster one that counts the last ply in bulk (GameOps.perft).

cdef unsigned long long _perft(const GameOps* ops, void* pos, int depth, SMove* moves,
                               uint8_t* undo) noexcept nogil:
    cdef int n = ops.generate(ops.ctx, pos, moves), i
    if depth == 1 or perft_stop:
        return n
    cdef unsigned long long total = 0
    for i in range(n):
        ops.make(ops.ctx, pos, &moves[i], undo)
        total += _perft(ops, pos, depth - 1, moves + SEARCH_MAX_MOVES, undo + UNDO_MAX)
        ops.unmake(ops.ctx, pos, &moves[i], undo)
    return total


def game_perft(GameBoard board, int depth, bint bulk=True) -> int:
    """Leaves of the move tree of the given depth from the board's position (legal moves only;
    the game's draw rules do not stop it), by the family's own counter (GameOps.perft) where it
    has one, else, or with bulk=False, by generate/make/unmake (the tests compare the two)."""
    if depth < 0:
        raise ValueError("perft depth must be 0 or more")
    if depth == 0:
        return 1
    cdef uint8_t pos[POS_MAX]
    memcpy(pos, board.position, board.ops.pos_size)
    cdef const GameOps* ops = board.ops
    cdef unsigned long long n
    cdef uint8_t* block
    if bulk and ops.perft != NULL:
        # The position goes first in a malloc'd block (aligned for any family's struct, 128-bit
        # boards included), the move stack after it.
        block = <uint8_t*>malloc(POS_MAX + (depth + 1) * SEARCH_MAX_MOVES * sizeof(SMove))
        if not block:
            raise MemoryError()
        memcpy(block, board.position, ops.pos_size)
        _set_perft_stop(0)
        with nogil:
            n = ops.perft(ops.ctx, block, depth, <SMove*>(block + POS_MAX))
        free(block)
        if _perft_stopped():
            raise PerftStopped("perft stopped")
        return n
    cdef SMove* moves = <SMove*>malloc(depth * SEARCH_MAX_MOVES * sizeof(SMove))
    cdef uint8_t* undo = <uint8_t*>malloc(depth * UNDO_MAX)
    if not (moves and undo):
        free(moves)
        free(undo)
        raise MemoryError()
    _set_perft_stop(0)
    with nogil:
        n = _perft(ops, pos, depth, moves, undo)
    free(moves)
    free(undo)
    if _perft_stopped():
        raise PerftStopped("perft stopped")
    return n


cdef void _key_after_walk(const GameOps* ops, void* pos, int depth, SMove* moves, uint8_t* undo,
                         unsigned long long* counts) noexcept nogil:
    cdef int n = ops.generate(ops.ctx, pos, moves), i
    cdef u64 predicted
    for i in range(n):
        predicted = ops.key_after(ops.ctx, pos, &moves[i])
        ops.make(ops.ctx, pos, &moves[i], undo)
        counts[0] += 1
        if predicted != ops.key(pos):
            counts[1] += 1
        if depth > 1:
            _key_after_walk(ops, pos, depth - 1, moves + SEARCH_MAX_MOVES, undo + UNDO_MAX,
                            counts)
        ops.unmake(ops.ctx, pos, &moves[i], undo)


def game_key_after_check(GameBoard board, int depth) -> tuple:
    """(moves checked, mismatches): every move of the tree of the given depth from the board's
    position, GameOps.key_after's key against the key after making the move (tests). (0, 0)
    where the game has no key_after."""
    if depth < 1 or board.ops.key_after == NULL:
        return (0, 0)
    cdef uint8_t pos[POS_MAX]
    memcpy(pos, board.position, board.ops.pos_size)
    cdef SMove* moves = <SMove*>malloc(depth * SEARCH_MAX_MOVES * sizeof(SMove))
    cdef uint8_t* undo = <uint8_t*>malloc(depth * UNDO_MAX)
    cdef unsigned long long counts[2]
    if not (moves and undo):
        free(moves)
        free(undo)
        raise MemoryError()
    counts[0] = 0
    counts[1] = 0
    with nogil:
        _key_after_walk(board.ops, pos, depth, moves, undo, counts)
    free(moves)
    free(undo)
    return (counts[0], counts[1])


def game_stop_perft():
    """Abandon any perft running in another thread (it raises PerftStopped)."""
    _set_perft_stop(1)


cdef class ProbeSource:
    """Base of the endgame tables as the search sees them (see _game.pxd)."""
    pass
