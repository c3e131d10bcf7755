# The Python face of the draughts family: Move and DraughtsBoard objects, FEN and move strings,
# perft. Included into both builds (_draughts.pyx, _draughts_wide.pyx) so that it calls the C
# functions directly; nothing here runs inside move generation or search.


from .errors import IllegalMoveError, InvalidFenError, UnknownVariantError, is_digits
from .types import Color, Outcome, Termination
from .rulesets import DRAUGHTS_VARIANTS
from .geometry import FILES

cdef dict _SPEC_BY_ID = {}
cdef dict _ID_BY_NAME = {}
for _name, _spec in DRAUGHTS_VARIANTS.items():
    # Each build plays the variants of its width: boards of one word the 64-bit one.
    if _spec.geometry.words != NBITS // 64:
        continue
    _vid = register_rules(_spec)
    _fill_ops(_vid, _spec.selective_search)
    _ID_BY_NAME[_name] = _vid
    _SPEC_BY_ID[_vid] = _spec

_PATH_CAP = 64       # landing paths kept per ambiguous move


def draughts_variants() -> list:
    return list(_ID_BY_NAME)


def draughts_variant_id(name) -> int:
    """The index of a variant's rules in the native table (for the endgame tables)."""
    return _ID_BY_NAME[name]


cdef class DraughtsMove:
    """One legal move: origin, destination, captured pieces. ``str(move)`` is the canonical string
    (NOTATION.md). Squares are numbers in numbered variants and names (``d4``) elsewhere."""

    cdef Move m
    cdef object spec
    cdef u64 key           # key of the position the move was generated in
    cdef tuple _path       # landing squares as bits, origin first, when the short form is ambiguous
    cdef object _text

    def __init__(self):
        raise TypeError("moves come from Board.legal_moves() or Board.parse_move()")

    cdef _name(self, int bit):
        return self.spec.square_names[bit]

    cdef _external(self, int bit):
        name = self.spec.square_names[bit]
        return int(name) if self.spec.numbered else name

    @property
    def from_square(self):
        return self._external(self.m.frm)

    @property
    def to_square(self):
        return self._external(self.m.to)

    @property
    def captured(self) -> list:
        """The captured squares, in canonical square order."""
        bits = []
        cdef Bits c = captured_of(&self.m)
        while c:
            bits.append(bb_lsb(c))
            c &= c - 1
        bits.sort(key=self.spec.order_key)
        return [self._external(b) for b in bits]

    @property
    def is_capture(self) -> bool:
        return captured_of(&self.m) != 0

    @property
    def promotes(self) -> bool:
        return self.m.promote != 0

    @property
    def path(self):
        """The full landing path (origin first) when the canonical string needs it, else None."""
        if self._path is None:
            return None
        return tuple(self._external(b) for b in self._path)

    def hub(self) -> str:
        """Hub protocol form: origin, destination, then every captured square (``28x19x23``)."""
        if not captured_of(&self.m):
            return f"{self._name(self.m.frm)}-{self._name(self.m.to)}"
        parts = [self._name(self.m.frm), self._name(self.m.to)]
        parts += [str(c) for c in self.captured]
        return "x".join(parts)

    def __str__(self):
        if self._text is None:
            if not captured_of(&self.m):
                self._text = f"{self._name(self.m.frm)}-{self._name(self.m.to)}"
            elif self._path is not None:
                self._text = "x".join(self._name(b) for b in self._path)
            else:
                self._text = f"{self._name(self.m.frm)}x{self._name(self.m.to)}"
        return self._text

    def __repr__(self):
        return f"Move('{self}')"

    def __eq__(self, other):
        if not isinstance(other, DraughtsMove):
            return NotImplemented
        cdef DraughtsMove o = other
        return (o.spec is self.spec and o.m.frm == self.m.frm and o.m.to == self.m.to
                and captured_of(&o.m) == captured_of(&self.m))

    def __hash__(self):
        return hash((self.spec.name, self.m.frm, self.m.to, captured_of(&self.m)))


cdef DraughtsMove _wrap_move(object spec, const Move* m, u64 key):
    cdef DraughtsMove mv = DraughtsMove.__new__(DraughtsMove)
    mv.m = m[0]
    mv.spec = spec
    mv.key = key
    return mv


cdef class DraughtsBoard(GameBoard):
    """A draughts-family game: the position, the moves played since it was set, and the rules."""

    cdef Pos pos
    cdef const Rules* R
    cdef int vid
    cdef readonly object spec
    cdef Move* buf            # scratch for generation
    cdef uint8_t* pathbuf

    def __cinit__(self, *args, **kwargs):
        self.position = &self.pos
        self.buf = <Move*>malloc(MAX_MOVES * sizeof(Move))
        self.pathbuf = <uint8_t*>malloc(_PATH_CAP * 64)
        if not (self.buf and self.pathbuf):
            raise MemoryError()

    def __dealloc__(self):
        free(self.buf)
        free(self.pathbuf)

    def __init__(self, variant="international", fen=None):
        if variant not in _ID_BY_NAME:
            raise UnknownVariantError(f"unknown variant {variant!r}")
        self.vid = _ID_BY_NAME[variant]
        self.R = rules_for(self.vid)
        self.spec = _SPEC_BY_ID[self.vid]
        self.ops = &OPS[self.vid]
        self.set_fen(self.spec.start_fen if fen is None else fen)

    # -- position strings -------------------------------------------------------------------

    def set_fen(self, fen):
        """Set the position from a FEN; the history is cleared. On error nothing changes."""
        cdef Pos p = self._parse_fen(fen)
        self.pos = p
        self._clear_history()

    cdef Pos _parse_fen(self, fen) except *:
        spec = self.spec
        if not isinstance(fen, str):
            raise InvalidFenError(f"a FEN must be a string, not {type(fen).__name__}")
        text = fen.strip()
        parts = text.split(":")
        if len(parts) != 3:
            raise InvalidFenError(f"FEN {fen!r}: expected <side>:W<pieces>:B<pieces>")
        side = parts[0].strip()
        if side not in ("W", "B"):
            raise InvalidFenError(f"FEN {fen!r}: side to move must be W or B, not {side!r}")
        cdef Pos p
        memset(&p, 0, sizeof(Pos))
        memset(p.num, -1, NBITS)
        p.stm = 0 if side == "W" else 1
        seen_colours = set()
        numbers = ({}, {})
        for part in parts[1:]:
            part = part.strip()
            if not part or part[0] not in "WB":
                raise InvalidFenError(f"FEN {fen!r}: piece list {part!r} must start with W or B")
            colour = 0 if part[0] == "W" else 1
            if colour in seen_colours:
                raise InvalidFenError(f"FEN {fen!r}: two piece lists for {'WB'[colour]}")
            seen_colours.add(colour)
            body = part[1:].strip()
            if not body:
                continue
            for token in body.split(","):
                for bit, king, number in self._parse_piece(fen, token.strip()):
                    b = (<Bits>1) << bit
                    if (p.pieces[0] | p.pieces[1]) & b:
                        raise InvalidFenError(
                            f"FEN {fen!r}: square {spec.square_names[bit]} is given twice")
                    if not king and b & self.R.promo[colour]:
                        raise InvalidFenError(
                            f"FEN {fen!r}: a {'White' if colour == 0 else 'Black'} man on "
                            f"{spec.square_names[bit]} stands on the crowning row")
                    p.pieces[colour] |= b
                    if king:
                        p.kings |= b
                    if number is not None:
                        if number in numbers[colour]:
                            raise InvalidFenError(
                                f"FEN {fen!r}: piece number {number} is used twice by "
                                f"{'White' if colour == 0 else 'Black'}")
                        numbers[colour][number] = bit
                        p.num[bit] = number
        for colour in range(2):
            if bb_popcount(p.pieces[colour]) > spec.max_pieces:
                raise InvalidFenError(
                    f"FEN {fen!r}: {'White' if colour == 0 else 'Black'} has "
                    f"{bb_popcount(p.pieces[colour])} pieces, more than the {spec.max_pieces} a "
                    f"game starts with")
        p.key = compute_key(&p, self.R)
        p.special = 0 if (self.R.forzosa or self.R.saque) and special_condition(&p, self.R) else -1
        return p

    cdef list _parse_piece(self, fen, str token):
        """(bit, is_king, number) for one FEN token; ranges expand to several pieces."""
        spec = self.spec
        if not token:
            raise InvalidFenError(f"FEN {fen!r}: empty piece in a list")
        king = token.startswith("K")
        body = token[1:] if king else token
        number = None
        if spec.numbered_pieces:
            name, dot, num_text = body.partition(".")
            if not dot or not is_digits(num_text) or not 0 <= int(num_text) <= 19:
                raise InvalidFenError(
                    f"FEN {fen!r}: piece {token!r} needs its number 0-19, as in 17.3 or K17.3")
            number = int(num_text)
            body = name
        elif "-" in body and spec.numbered:
            lo, _, hi = body.partition("-")
            if hi.startswith("K"):
                hi = hi[1:]
            if not (is_digits(lo) and is_digits(hi)) or lo not in spec.bit_of or hi not in spec.bit_of \
                    or int(lo) > int(hi):
                raise InvalidFenError(f"FEN {fen!r}: bad square range {token!r}")
            return [(spec.bit_of[str(n)], king, None) for n in range(int(lo), int(hi) + 1)]
        if body not in spec.bit_of:
            raise InvalidFenError(f"FEN {fen!r}: {body!r} is not a square of {spec.name}")
        return [(spec.bit_of[body], king, number)]

    def fen(self) -> str:
        spec = self.spec
        out = ["W" if self.pos.stm == 0 else "B"]
        cdef int colour
        for colour in range(2):
            bits = []
            c = self.pos.pieces[colour]
            while c:
                bits.append(bb_lsb(c))
                c &= c - 1
            bits.sort(key=spec.order_key)
            items = []
            for b in bits:
                text = ("K" if (self.pos.kings >> b) & 1 else "") + spec.square_names[b]
                if spec.numbered_pieces:
                    text += f".{self.pos.num[b]}"
                items.append(text)
            out.append("WB"[colour] + ",".join(items))
        return ":".join(out)

    # -- moves ------------------------------------------------------------------------------

    def legal_moves(self) -> list:
        cdef int n = generate(&self.pos, self.R, self.buf)
        cdef int i, j
        cdef u64 key = self.pos.key
        cdef list out = [_wrap_move(self.spec, &self.buf[i], key) for i in range(n)]
        if n > 1 and captured_of(&self.buf[0]):
            # Two captures with the same origin and destination need their full paths.
            for i in range(n):
                for j in range(n):
                    if i != j and self.buf[i].frm == self.buf[j].frm and self.buf[i].to == self.buf[j].to:
                        (<DraughtsMove>out[i])._path = self._canonical_path(&self.buf[i])
                        break
        return out

    def _exchange_offers(self) -> list:
        """The quiet moves quiescence may search as exchange offers (GameOps.generate_exchanges;
        for tests and analysis)."""
        cdef int n = _op_generate_exchanges(self.R, &self.pos, <SMove*>self.buf)
        cdef int i
        return [_wrap_move(self.spec, &self.buf[i], self.pos.key) for i in range(n)]

    cdef tuple _canonical_path(self, const Move* m):
        names = self.spec.square_names
        return min(("x".join([names[b] for b in path]), path) for path in self._paths(m))[1]

    def landing_paths(self, move) -> list:
        """Every way of playing a legal ``move`` square by square, as square names with the
        origin first: a plain move's two squares, or each landing path of a capture (a flying
        king may have several). What a board that a person clicks needs."""
        if isinstance(move, str) or not self.is_legal(move):
            move = self.parse_move(str(move))
        cdef DraughtsMove m = <DraughtsMove>move
        names = self.spec.square_names
        if not captured_of(&m.m):
            return [(names[m.m.frm], names[m.m.to])]
        return sorted(tuple(names[b] for b in path) for path in self._paths(&m.m))

    cdef list _paths(self, const Move* m):
        """Every landing path of capture m, each a tuple of bits with the origin first."""
        cdef int k = capture_paths(&self.pos, self.R, m, self.pathbuf, _PATH_CAP)
        cdef int i, j
        out = []
        for i in range(k):
            path = [m.frm]
            for j in range(64):
                if self.pathbuf[i * 64 + j] == 255:
                    break
                path.append(self.pathbuf[i * 64 + j])
            out.append(tuple(path))
        return out

    def parse_move(self, text) -> DraughtsMove:
        """The legal move that ``text`` names: the canonical form, the full landing path, or the
        Hub form (origin, destination, captured squares in any order)."""
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move must be a string, not {type(text).__name__}")
        s = text.strip()
        spec = self.spec
        if not s:
            raise IllegalMoveError("empty move string")
        is_capture = "x" in s
        if is_capture and "-" in s:
            raise IllegalMoveError(f"move {text!r} mixes '-' and 'x'")
        tokens = s.split("x" if is_capture else "-")
        for t in tokens:
            if t not in spec.bit_of:
                raise IllegalMoveError(f"move {text!r}: {t!r} is not a square of {spec.name}")
        bits = [spec.bit_of[t] for t in tokens]
        if len(bits) < 2 or (not is_capture and len(bits) != 2):
            raise IllegalMoveError(f"move {text!r} is not of the form a-b or axb[x...]")
        legal = self.legal_moves()
        cands = [m for m in legal if (<DraughtsMove>m).m.frm == bits[0]
                 and (captured_of(&(<DraughtsMove>m).m) != 0) == is_capture]
        found = []
        for mv in cands:
            m = <DraughtsMove>mv
            if len(bits) == 2:
                if m.m.to == bits[1]:
                    found.append(mv)
                continue
            # Full landing path?
            if m.m.to == bits[len(bits) - 1] and tuple(bits) in self._paths(&m.m):
                found.append(mv)
                continue
            # Hub form: origin, destination, captured squares.
            captured = 0
            for b in bits[2:]:
                captured |= (<Bits>1) << b
            if (m.m.to == bits[1] and captured == captured_of(&m.m)
                    and len(set(bits[2:])) == len(bits) - 2):
                found.append(mv)
        if not found:
            hint = "" if legal else " (the side to move has no legal move)"
            raise IllegalMoveError(f"{text!r} is not a legal move in {self.fen()}{hint}")
        if len(found) > 1:
            options = ", ".join(str(m) for m in found)
            raise IllegalMoveError(f"{text!r} is ambiguous here: it may be {options}")
        return found[0]

    cdef int _move_kind(self, object move):
        if not isinstance(move, DraughtsMove):
            return 0
        cdef DraughtsMove mv = move
        return 2 if mv.spec is self.spec and mv.key == self.pos.key else 1

    cdef const SMove* _move_data(self, object move):
        return <const SMove*>&(<DraughtsMove>move).m

    cdef _copy_rules(self, GameBoard other):
        cdef DraughtsBoard b = <DraughtsBoard>other
        b.vid = self.vid
        b.R = self.R
        b.spec = self.spec

    # -- what the endgame tables and the evaluation read ---------------------------------------

    def evaluate(self) -> int:
        """The static evaluation for the side to move, in centi-men (a man is 100)."""
        return evaluate(self.R, &self.pos)

    # -- state ------------------------------------------------------------------------------

    @property
    def variant(self) -> str:
        return self.spec.name

    @property
    def turn(self) -> Color:
        return Color(self.pos.stm)

    def recompute_hash(self) -> int:
        """The key computed from scratch (for checking the incremental one)."""
        return compute_key(&self.pos, self.R)

    @property
    def counters(self) -> dict:
        """The plies behind the draw rules: since the last capture or man move, since the last
        capture, since the material last changed, and the Forzosa/Saque count (-1 if none).
        Frisian adds ``king_streak``: per side, (the square of the king that made the side's
        last quiet moves, how many in a row) or None."""
        out = {
            "reversible": self.pos.reversible,
            "since_capture": self.pos.since_capture,
            "since_material": self.pos.since_material,
            "special": self.pos.special,
        }
        if self.R.king_streak:
            names = self.spec.square_names
            out["king_streak"] = tuple(
                ((int(names[self.pos.wolf[s]]) if self.spec.numbered else names[self.pos.wolf[s]]),
                 self.pos.streak[s]) if self.pos.streak[s] else None for s in range(2))
        return out

    def piece_map(self) -> dict:
        """{square: 'w' | 'b' (men) | 'W' | 'B' (kings)}; Chapinas adds '.n' piece numbers."""
        out = {}
        cdef int colour, b
        for colour in range(2):
            c = self.pos.pieces[colour]
            while c:
                b = bb_lsb(c)
                c &= c - 1
                sym = "wb"[colour]
                if (self.pos.kings >> b) & 1:
                    sym = sym.upper()
                if self.spec.numbered_pieces:
                    sym += f".{self.pos.num[b]}"
                name = self.spec.square_names[b]
                out[int(name) if self.spec.numbered else name] = sym
        return out

    def outcome(self):
        """The Outcome of the game if it has ended (by the variant's rules), else None."""
        cdef int us = self.pos.stm
        cdef int code = END_NONE
        # Who cannot move loses; in antidraughts, wins.
        cdef int stuck_winner = us if self.R.win_rule == WIN_LOSING else us ^ 1
        if self.pos.pieces[us] == 0:
            return Outcome(Termination.NO_PIECES, Color(stuck_winner))
        if generate(&self.pos, self.R, self.buf) == 0:
            return Outcome(Termination.NO_MOVES, Color(stuck_winner))
        if self.repetitions() >= 3:
            code = END_REPETITION
        else:
            code = rule_draw(&self.pos, self.R)
        if code == END_NONE:
            return None
        termination = Termination(code)
        if code == END_LONE_PIECE or code == END_FIRST_KING:
            return Outcome(termination, Color(us ^ 1))
        if self.spec.value_tiebreak:
            values = self._values()
            winner = None if values[0] == values[1] else Color(0 if values[0] > values[1] else 1)
            return Outcome(termination, winner, values)
        return Outcome(termination, None)

    cdef tuple _values(self):
        return (_number_sum(&self.pos, 0), _number_sum(&self.pos, 1))

    # -- display ----------------------------------------------------------------------------

    def __str__(self):
        """The board with White at the bottom; numbered boards show their square numbers on the
        right, and Chapinas the numbers of the pieces too."""
        cdef int number
        g = self.spec.geometry
        spec = self.spec
        rows = []
        for rank in range(g.size - 1, -1, -1):
            cells, numbers, pieces = [], [], []
            for f in range(g.size):
                b = g.bit_at.get((f, rank))
                if b is None:
                    cells.append(" ")
                    numbers.append("  ")
                    pieces.append("  ")
                    continue
                numbers.append(spec.square_names[b].rjust(2))
                number = self.pos.num[b]
                if (self.pos.pieces[0] >> b) & 1:
                    cells.append("W" if (self.pos.kings >> b) & 1 else "w")
                    pieces.append(str(number).rjust(2))
                elif (self.pos.pieces[1] >> b) & 1:
                    cells.append("B" if (self.pos.kings >> b) & 1 else "b")
                    pieces.append(str(number).rjust(2))
                else:
                    cells.append(".")
                    pieces.append(" .")
            row = f"{rank + 1:>2} " + " ".join(cells)
            if spec.numbered:
                row += "    " + " ".join(numbers)
            if spec.numbered_pieces:
                row += "    " + " ".join(pieces)
            rows.append(row.rstrip())
        files = "   " + " ".join(FILES[:g.size])
        if spec.numbered:
            files += " " * (4 + 2 * g.size - 1) + "  squares"
        if spec.numbered_pieces:
            files += " " * (4 + 3 * g.size - 1 - 9) + "pieces"
        rows.append(files)
        rows.append(f"{self.turn} to move")
        return "\n".join(rows)

    def __repr__(self):
        return f"Board({self.spec.name!r}, {self.fen()!r})"
