# cython: language_level=3, boundscheck=False, wraparound=False
"""Tic-tac-toe as a game of the engine: the example of docs/adding-a-game.md.

Everything a game needs is here and in tictactoe.py: the position and move structs, the C
functions of GameOps that the one search calls, and a board class over GameBoard (which brings
push, pop, copy, repetitions and perft). Nothing in the engine's package names this game.

Squares a1..c3 are bits 0..8 (file + 3 * rank). A FEN is the ranks from 3 down to 1, then the
side to move: ``x.o/.x./... o``. X moves first and plays White.
"""

from libc.stdint cimport uint8_t, uint16_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset

from engine._game cimport (GameBoard, GameOps, SMove, u64, RULE_NONE, RULE_DRAW, RULE_LOSS,
                           SEARCH_MAX_MOVES, UNDO_MAX, POS_MAX)

from engine.errors import IllegalMoveError, InvalidFenError
from engine.types import Color, Outcome, Termination


ctypedef struct TPos:
    uint16_t cells[2]          # the squares of X (0) and O (1)
    int stm
    u64 key

ctypedef struct TMove:         # 16 bytes, like every game's move (GameOps' SMove)
    uint8_t square
    uint8_t pad[15]

assert sizeof(TMove) == sizeof(SMove) and sizeof(TPos) <= POS_MAX


cdef uint16_t LINES[8]
LINES[:] = [0x007, 0x038, 0x1C0, 0x049, 0x092, 0x124, 0x111, 0x054]
cdef uint16_t FULL = 0x1FF
cdef u64 Z_SQUARE[2][9]
cdef u64 Z_SIDE


cdef u64 _next(u64* state) noexcept nogil:
    """splitmix64: Zobrist keys that are the same in every run."""
    state[0] += <u64>0x9E3779B97F4A7C15
    cdef u64 z = state[0]
    z = (z ^ (z >> 30)) * <u64>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <u64>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef void _init_keys():
    global Z_SIDE
    cdef u64 state = 2024
    cdef int s, b
    for s in range(2):
        for b in range(9):
            Z_SQUARE[s][b] = _next(&state)
    Z_SIDE = _next(&state)


_init_keys()


cdef inline int has_line(uint16_t cells) noexcept nogil:
    cdef int i
    for i in range(8):
        if cells & LINES[i] == LINES[i]:
            return 1
    return 0


# -- GameOps ----------------------------------------------------------------------------------

cdef int t_generate(const void* ctx, const void* pos, SMove* out) noexcept nogil:
    cdef const TPos* p = <const TPos*>pos
    if has_line(p.cells[p.stm ^ 1]):
        return 0                                   # the game is over
    cdef uint16_t empty = FULL & ~(p.cells[0] | p.cells[1])
    cdef int n = 0, b
    for b in range(9):
        if empty >> b & 1:
            memset(&out[n], 0, sizeof(SMove))
            (<TMove*>&out[n]).square = b
            n += 1
    return n


cdef int t_no_captures(const void* ctx, const void* pos, SMove* out) noexcept nogil:
    return 0


cdef int t_has_quiet_move(const void* ctx, const void* pos) noexcept nogil:
    cdef const TPos* p = <const TPos*>pos
    return (p.cells[0] | p.cells[1]) != FULL and not has_line(p.cells[p.stm ^ 1])


cdef void t_make(const void* ctx, void* pos, const SMove* m, void* undo) noexcept nogil:
    cdef TPos* p = <TPos*>pos
    cdef int b = (<const TMove*>m).square
    p.cells[p.stm] |= 1 << b
    p.key ^= Z_SQUARE[p.stm][b] ^ Z_SIDE
    p.stm ^= 1


cdef void t_unmake(const void* ctx, void* pos, const SMove* m, const void* undo) noexcept nogil:
    cdef TPos* p = <TPos*>pos
    cdef int b = (<const TMove*>m).square
    p.stm ^= 1
    p.cells[p.stm] &= ~(1 << b)
    p.key ^= Z_SQUARE[p.stm][b] ^ Z_SIDE


cdef u64 t_key(const void* pos) noexcept nogil:
    return (<const TPos*>pos).key


cdef int t_evaluate(const void* ctx, const void* pos) noexcept nogil:
    """Lines still open to the side to move less those open to the other, ten points each."""
    cdef const TPos* p = <const TPos*>pos
    cdef int i, score = 0
    for i in range(8):
        if not p.cells[p.stm ^ 1] & LINES[i]:
            score += 10
        if not p.cells[p.stm] & LINES[i]:
            score -= 10
    return score


cdef int t_rule_end(const void* ctx, const void* pos) noexcept nogil:
    cdef const TPos* p = <const TPos*>pos
    if has_line(p.cells[p.stm ^ 1]):
        return RULE_LOSS                           # the other side has three in a row
    if (p.cells[0] | p.cells[1]) == FULL:
        return RULE_DRAW
    return RULE_NONE


cdef int t_draw_result(const void* ctx, const void* pos) noexcept nogil:
    return RULE_DRAW


cdef int t_reversible(const void* pos) noexcept nogil:
    return 0                                       # no move can be undone: no repetition


cdef int t_zero(const SMove* m) noexcept nogil:
    return 0


cdef int t_history_index(const SMove* m) noexcept nogil:
    return (<const TMove*>m).square


cdef int t_same_move(const SMove* a, const SMove* b) noexcept nogil:
    return (<const TMove*>a).square == (<const TMove*>b).square


cdef GameOps OPS
memset(&OPS, 0, sizeof(GameOps))                   # every optional entry NULL or 0
OPS.pos_size = sizeof(TPos)
OPS.generate = t_generate
OPS.generate_captures = t_no_captures
OPS.has_quiet_move = t_has_quiet_move
OPS.make = t_make
OPS.unmake = t_unmake
OPS.key = t_key
OPS.evaluate = t_evaluate
OPS.rule_end = t_rule_end
OPS.draw_result = t_draw_result
OPS.reversible = t_reversible
OPS.is_capture = t_zero
OPS.capture_count = t_zero
OPS.history_index = t_history_index
OPS.same_move = t_same_move


# -- the Python face ----------------------------------------------------------------------------

cdef str _name(int b):
    return "abc"[b % 3] + str(b // 3 + 1)


class Spec:
    """What the front ends read of a game besides its board: its name, title, first player, and
    for the pictures and the web board the board's size (files and ranks)."""
    name = "tictactoe"
    title = "Tic-tac-toe"
    first_player = 0
    size = 3


cdef class TicTacToeMove:
    cdef TMove m

    def __str__(self):
        return _name(self.m.square)

    def __repr__(self):
        return f"Move('{self}')"

    def __eq__(self, other):
        return isinstance(other, TicTacToeMove) and (<TicTacToeMove>other).m.square == self.m.square

    def __hash__(self):
        return self.m.square

    @property
    def to_square(self) -> str:
        """The square a move takes (the web board clicks it)."""
        return _name(self.m.square)


cdef class TicTacToeBoard(GameBoard):
    cdef TPos pos
    cdef SMove* buf
    spec = Spec

    def __cinit__(self, *args, **kwargs):
        self.position = &self.pos
        self.ops = &OPS
        self.buf = <SMove*>malloc(SEARCH_MAX_MOVES * sizeof(SMove))
        if not self.buf:
            raise MemoryError()

    def __dealloc__(self):
        free(self.buf)

    def __init__(self, variant="tictactoe", fen=None):
        self.set_fen(".../.../... x" if fen is None else fen)

    def set_fen(self, fen):
        if not isinstance(fen, str):
            raise InvalidFenError(f"a FEN must be a string, not {type(fen).__name__}")
        fields = fen.split()
        rows = fields[0].split("/") if fields else []
        if len(fields) != 2 or fields[1] not in ("x", "o") or len(rows) != 3 \
                or any(len(r) != 3 or set(r) - set("xo.") for r in rows):
            raise InvalidFenError(f"FEN {fen!r}: expected three rows of x, o and . then x or o")
        cdef TPos p
        memset(&p, 0, sizeof(TPos))
        p.stm = 0 if fields[1] == "x" else 1
        p.key = Z_SIDE if p.stm else 0
        cdef int b
        for rank, row in zip((2, 1, 0), rows):
            for f, c in enumerate(row):
                if c != ".":
                    b = 3 * rank + f
                    p.cells["xo".index(c)] |= 1 << b
                    p.key ^= Z_SQUARE["xo".index(c)][b]
        self.pos = p
        self._clear_history()

    def piece_map(self) -> dict:
        """Square name -> piece as the pictures read one: 'wX' for X (the first player), 'bO'."""
        out = {}
        for b in range(9):
            if self.pos.cells[0] >> b & 1:
                out[_name(b)] = "wX"
            elif self.pos.cells[1] >> b & 1:
                out[_name(b)] = "bO"
        return out

    def fen(self) -> str:
        rows = []
        for rank in (2, 1, 0):
            rows.append("".join("x" if self.pos.cells[0] >> (3 * rank + f) & 1 else
                                "o" if self.pos.cells[1] >> (3 * rank + f) & 1 else "."
                                for f in range(3)))
        return "/".join(rows) + " " + "xo"[self.pos.stm]

    def legal_moves(self) -> list:
        cdef int n = t_generate(NULL, &self.pos, self.buf), i
        out = []
        for i in range(n):
            mv = TicTacToeMove.__new__(TicTacToeMove)
            (<TicTacToeMove>mv).m = (<TMove*>&self.buf[i])[0]
            out.append(mv)
        return out

    def parse_move(self, text) -> TicTacToeMove:
        for mv in self.legal_moves():
            if str(mv) == str(text).strip():
                return mv
        raise IllegalMoveError(f"{text!r} is not a legal move in {self.fen()}")

    cdef int _move_kind(self, object move):
        return 1 if isinstance(move, TicTacToeMove) else 0     # GameBoard finds the legal one

    cdef const SMove* _move_data(self, object move):
        return <const SMove*>&(<TicTacToeMove>move).m

    @property
    def variant(self) -> str:
        return "tictactoe"

    @property
    def turn(self) -> Color:
        return Color(self.pos.stm)

    def evaluate(self) -> int:
        return t_evaluate(NULL, &self.pos)

    def outcome(self):
        if has_line(self.pos.cells[self.pos.stm ^ 1]):
            return Outcome(Termination.GAME_RULE, Color(self.pos.stm ^ 1), detail="three in a row")
        if (self.pos.cells[0] | self.pos.cells[1]) == FULL:
            return Outcome(Termination.NO_MOVES, None)
        return None

    def __str__(self):
        return "\n".join(" ".join(row) for row in self.fen().split()[0].split("/"))

    def __repr__(self):
        return f"Board('tictactoe', {self.fen()!r})"
