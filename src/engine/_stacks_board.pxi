# The Python face of the stack games: StackMove and StackBoard, FEN and move strings, perft.


cdef class StackMove:
    """A Dipole move: ``e1-e5`` (basic or merge), ``c3xc5`` (capture), ``e1-off5`` (bear-off of 5
    checkers) or ``pass``."""

    cdef Move m
    cdef object spec
    cdef u64 key

    def __init__(self):
        raise TypeError("moves come from Board.legal_moves() or Board.parse_move()")

    cdef _name(self, int bit):
        f, r = self.spec.geometry.coords[bit]
        return "abcdefghij"[f] + str(r + 1)

    @property
    def from_square(self):
        return None if self.m.kind == KIND_PASS else self._name(self.m.frm)

    @property
    def to_square(self):
        return self._name(self.m.to) if self.m.kind in (KIND_MOVE, KIND_CAPTURE) else None

    @property
    def count(self) -> int:
        """How many checkers move."""
        return self.m.n

    @property
    def is_capture(self) -> bool:
        return self.m.kind == KIND_CAPTURE

    @property
    def is_bear_off(self) -> bool:
        return self.m.kind == KIND_OFF

    @property
    def is_pass(self) -> bool:
        return self.m.kind == KIND_PASS

    @property
    def captured(self) -> list:
        return [self.to_square] if self.m.kind == KIND_CAPTURE else []

    def hub(self) -> str:
        return str(self)

    def __str__(self):
        if self.m.kind == KIND_PASS:
            return "pass"
        if self.m.kind == KIND_OFF:
            return f"{self._name(self.m.frm)}-off{self.m.n}"
        sep = "x" if self.m.kind == KIND_CAPTURE else "-"
        return f"{self._name(self.m.frm)}{sep}{self._name(self.m.to)}"

    def __repr__(self):
        return f"Move('{self}')"

    def __eq__(self, other):
        if not isinstance(other, StackMove):
            return NotImplemented
        cdef StackMove o = other
        return (o.spec is self.spec and o.m.frm == self.m.frm and o.m.to == self.m.to
                and o.m.n == self.m.n and o.m.kind == self.m.kind)

    def __hash__(self):
        return hash((self.spec.name, self.m.frm, self.m.to, self.m.n, self.m.kind))


cdef StackMove _wrap(object spec, const Move* m, u64 key):
    cdef StackMove mv = StackMove.__new__(StackMove)
    mv.m = m[0]
    memset(mv.m.pad, 0, sizeof(mv.m.pad))
    mv.spec = spec
    mv.key = key
    return mv


cdef class StackBoard(GameBoard):
    """A game of Dipole: the position, the moves played since it was set, and the rules."""

    cdef Pos pos
    cdef const Rules* R
    cdef int vid
    cdef readonly object spec
    cdef Move* buf

    def __cinit__(self, *args, **kwargs):
        self.position = &self.pos
        self.buf = <Move*>malloc(SEARCH_MAX_MOVES * sizeof(Move))
        if not self.buf:
            raise MemoryError()

    def __dealloc__(self):
        free(self.buf)

    def __init__(self, variant="dipole", fen=None):
        if variant not in _ID_BY_NAME:
            raise UnknownVariantError(f"unknown variant {variant!r}")
        self.vid = _ID_BY_NAME[variant]
        self.R = &RULES[self.vid]
        self.spec = _SPEC_BY_ID[self.vid]
        self.ops = &OPS[self.vid]
        self.set_fen(self.spec.start_fen if fen is None else fen)

    # -- position strings -------------------------------------------------------------------

    def set_fen(self, fen):
        """Set the position from a FEN (``W:We1.12:Bd8.12``); the history is cleared. On error
        nothing changes."""
        cdef Pos p = self._parse_fen(fen)
        self.pos = p
        self._clear_history()

    cdef Pos _parse_fen(self, fen) except *:
        g = self.spec.geometry
        if not isinstance(fen, str):
            raise InvalidFenError(f"a FEN must be a string, not {type(fen).__name__}")
        parts = fen.strip().split(":")
        if len(parts) != 3:
            raise InvalidFenError(f"FEN {fen!r}: expected <side>:W<stacks>:B<stacks>")
        side = parts[0].strip()
        if side not in ("W", "B"):
            raise InvalidFenError(f"FEN {fen!r}: side to move must be W or B, not {side!r}")
        cdef Pos p
        memset(&p, 0, sizeof(Pos))
        p.stm = 0 if side == "W" else 1
        seen = set()
        for part in parts[1:]:
            part = part.strip()
            if not part or part[0] not in "WB" or part[0] in seen:
                raise InvalidFenError(f"FEN {fen!r}: expected one W list and one B list")
            seen.add(part[0])
            colour = 0 if part[0] == "W" else 1
            body = part[1:].strip()
            for token in body.split(",") if body else []:
                square, dot, height = token.strip().partition(".")
                fr = _square_coords(square)
                if fr is None or fr not in g.bit_at:
                    raise InvalidFenError(f"FEN {fen!r}: {square!r} is not a dark square of "
                                          f"{self.spec.name}")
                if not dot or not is_digits(height) or not 1 <= int(height) <= self.R.total:
                    raise InvalidFenError(f"FEN {fen!r}: stack {token.strip()!r} needs a height "
                                          f"1-{self.R.total}, as in e1.12")
                b = g.bit_at[fr]
                if ((p.stacks[0] | p.stacks[1]) >> b) & 1:
                    raise InvalidFenError(f"FEN {fen!r}: square {square} is given twice")
                p.stacks[colour] |= (<u64>1) << b
                p.height[b] = int(height)
        for colour in range(2):
            if checkers(&p, colour) > self.R.total:
                raise InvalidFenError(f"FEN {fen!r}: {'White' if colour == 0 else 'Black'} has "
                                      f"more than the {self.R.total} checkers a game starts with")
        p.key = compute_key(&p)
        return p

    def fen(self) -> str:
        g = self.spec.geometry
        out = ["W" if self.pos.stm == 0 else "B"]
        for colour in range(2):
            bits = [b for b in g.coords if (self.pos.stacks[colour] >> b) & 1]
            bits.sort(key=lambda b: (g.coords[b][1], g.coords[b][0]))
            items = [f"{_name_of(g.coords[b])}.{self.pos.height[b]}" for b in bits]
            out.append("WB"[colour] + ",".join(items))
        return ":".join(out)

    # -- moves ------------------------------------------------------------------------------

    def legal_moves(self) -> list:
        cdef int n = generate(self.R, &self.pos, self.buf, 0)
        cdef int i
        return [_wrap(self.spec, &self.buf[i], self.pos.key) for i in range(n)]

    def parse_move(self, text) -> StackMove:
        """The legal move that ``text`` names (``e1-e5``, ``c3xc5``, ``e1-off5``, ``pass``)."""
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move must be a string, not {type(text).__name__}")
        s = text.strip()
        if not s:
            raise IllegalMoveError("empty move string")
        for mv in self.legal_moves():
            if str(mv) == s:
                return mv
        if s != "pass" and "-off" not in s:
            sep = "x" if "x" in s else "-"
            parts = s.split(sep)
            if len(parts) != 2 or any(_square_coords(p) not in self.spec.geometry.bit_at for p in parts):
                raise IllegalMoveError(f"move {text!r} is not of the form a1-b2, a1xb2, a1-offN or pass")
        raise IllegalMoveError(f"{text!r} is not a legal move in {self.fen()}")

    cdef int _move_kind(self, object move):
        if not isinstance(move, StackMove):
            return 0
        cdef StackMove mv = move
        return 2 if mv.spec is self.spec and mv.key == self.pos.key else 1

    cdef const SMove* _move_data(self, object move):
        return <const SMove*>&(<StackMove>move).m

    cdef _copy_rules(self, GameBoard other):
        cdef StackBoard b = <StackBoard>other
        b.vid = self.vid
        b.R = self.R
        b.spec = self.spec

    # -- what the endgame tables and the evaluation read ---------------------------------------

    def evaluate(self) -> int:
        """The static evaluation for the side to move, in hundredths of a checker."""
        return evaluate(self.R, &self.pos)

    def _linear_layout(self) -> list:
        return linear_layout(self.vid)

    def _linear_prior(self):
        return linear_prior(self.vid)

    # -- state ------------------------------------------------------------------------------

    @property
    def variant(self) -> str:
        return self.spec.name

    @property
    def turn(self) -> Color:
        return Color(self.pos.stm)

    def recompute_hash(self) -> int:
        return compute_key(&self.pos)

    def piece_map(self) -> dict:
        """{square: 'w5' | 'b2'}: owner and height of each stack."""
        g = self.spec.geometry
        out = {}
        for b, fr in g.coords.items():
            for colour in range(2):
                if (self.pos.stacks[colour] >> b) & 1:
                    out[_name_of(fr)] = f"{'wb'[colour]}{self.pos.height[b]}"
        return out

    def checkers(self) -> tuple:
        """(White's, Black's) checkers on the board."""
        return (checkers(&self.pos, 0), checkers(&self.pos, 1))

    def outcome(self):
        """The game ends when a side has no checkers left: the other side wins."""
        if rule_end(self.R, &self.pos) == RULE_NONE:
            return None
        return Outcome(Termination.NO_PIECES, Color(0 if self.pos.stacks[1] == 0 else 1))

    def __str__(self):
        g = self.spec.geometry
        rows = []
        for rank in range(g.size - 1, -1, -1):
            cells = []
            for f in range(g.size):
                b = g.bit_at.get((f, rank))
                if b is None:
                    cells.append("   ")
                elif (self.pos.stacks[0] >> b) & 1:
                    cells.append(f"W{self.pos.height[b]:<2}")
                elif (self.pos.stacks[1] >> b) & 1:
                    cells.append(f"B{self.pos.height[b]:<2}")
                else:
                    cells.append(" . ")
            rows.append((f"{rank + 1:>2} " + " ".join(cells)).rstrip())
        rows.append("    " + "   ".join("abcdefghij"[:g.size]))
        rows.append(f"{self.turn} to move")
        return "\n".join(rows)

    def __repr__(self):
        return f"Board({self.spec.name!r}, {self.fen()!r})"


def _square_coords(name):
    if len(name) < 2 or name[0] not in "abcdefghij" or not is_digits(name[1:]):
        return None
    return "abcdefghij".index(name[0]), int(name[1:]) - 1


def _name_of(fr):
    return "abcdefghij"[fr[0]] + str(fr[1] + 1)
