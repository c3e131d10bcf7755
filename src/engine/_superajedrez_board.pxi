# The Python face of Superajedrez: SuperajedrezMove and SuperajedrezBoard, FEN, move strings
# (UCI-style for engines, Spanish algebraic for game records), game end, perft.

import re as _re

START_FEN = "4k3/8/8/8/8/8/8/4K3[QRRBBNNPPPPPPPPqrrbbnnpppppppp] w KQkq - 0 1"
_LETTERS = "PNBRQK"                     # by type, English (FEN and UCI)
_SPANISH = ("", "C", "A", "T", "D", "R")  # by type, Spanish algebraic (pawn: no letter)
_START_COUNT = (8, 2, 2, 2, 1)          # each side's pieces of each type, pawn to queen
_FILES = "abcdefgh"


class SuperajedrezSpec:
    """What the rest of the package needs to know about the variant."""
    name = "superajedrez"
    title = "Superajedrez"
    start_fen = START_FEN
    first_player = 0                    # White moves first
    size = 8


_SPEC = SuperajedrezSpec()


def superajedrez_variants() -> list:
    return [_SPEC.name]


cdef inline str _sq(int sq):
    return _FILES[sq & 7] + str((sq >> 3) + 1)


def _parse_square(text):
    if len(text) != 2 or text[0] not in _FILES or text[1] not in "12345678":
        return None
    return _FILES.index(text[0]) + 8 * (int(text[1]) - 1)


cdef class SuperajedrezMove:
    """A Superajedrez move. ``str()`` is the engine form (NOTATION.md): ``e2e4``, ``e7e8q``,
    ``N@f3`` (placement), ``Q@d1`` (reserved-space capture), ``e1g1`` (castling with the rook on
    its corner) and ``e1g1r`` (castling with the rook from the reserve)."""

    cdef Move m

    def __init__(self):
        raise TypeError("moves come from Board.legal_moves() or Board.parse_move()")

    @property
    def from_square(self):
        """The square left, or None for a placement."""
        return None if self.m.frm == NOSQ else _sq(self.m.frm)

    @property
    def to_square(self):
        return _sq(self.m.to)

    @property
    def piece(self) -> str:
        """The piece moved or placed, as an upper-case letter (P N B R Q K)."""
        return _LETTERS[self.m.piece]

    @property
    def promotion(self):
        """The letter of the piece a pawn becomes, or None."""
        return _LETTERS[self.m.promo] if self.m.kind == MK_PROMO else None

    @property
    def is_capture(self) -> bool:
        return self.m.captured != 0

    @property
    def is_placement(self) -> bool:
        """A piece placed from the reserve (including a reserved-space capture and castling with
        the rook from the reserve)."""
        return self.m.kind == MK_DROP or self.m.kind == MK_CASTLE_DROP

    @property
    def is_castling(self) -> bool:
        return self.m.kind == MK_CASTLE or self.m.kind == MK_CASTLE_DROP

    @property
    def is_en_passant(self) -> bool:
        return self.m.kind == MK_EP

    @property
    def captured(self) -> list:
        """The square of the piece taken ([] if none); en passant names the pawn's square."""
        if not self.m.captured:
            return []
        if self.m.kind == MK_EP:
            return [_sq(self.m.to - 8 if self.m.colour == 0 else self.m.to + 8)]
        return [_sq(self.m.to)]

    def uci(self) -> str:
        return str(self)

    def __str__(self):
        if self.m.kind == MK_DROP:
            return f"{_LETTERS[self.m.piece]}@{_sq(self.m.to)}"
        text = _sq(self.m.frm) + _sq(self.m.to)
        if self.m.kind == MK_PROMO:
            text += _LETTERS[self.m.promo].lower()
        elif self.m.kind == MK_CASTLE_DROP:
            text += "r"
        return text

    def __repr__(self):
        return f"Move('{self}')"

    def __eq__(self, other):
        if not isinstance(other, SuperajedrezMove):
            return NotImplemented
        cdef SuperajedrezMove o = other
        return (o.m.frm == self.m.frm and o.m.to == self.m.to and o.m.kind == self.m.kind
                and o.m.piece == self.m.piece and o.m.promo == self.m.promo
                and o.m.colour == self.m.colour)

    def __hash__(self):
        return hash((self.m.frm, self.m.to, self.m.kind, self.m.piece, self.m.promo, self.m.colour))


cdef SuperajedrezMove _wrap_chess(const Move* m):
    cdef SuperajedrezMove mv = SuperajedrezMove.__new__(SuperajedrezMove)
    mv.m = m[0]
    memset(mv.m.pad, 0, sizeof(mv.m.pad))
    return mv


cdef class SuperajedrezBoard(GameBoard):
    """A game of Superajedrez: the position, the moves played since it was set, the reserves."""

    cdef Pos pos
    cdef Move* buf
    cdef readonly object spec

    def __cinit__(self, *args, **kwargs):
        self.position = &self.pos
        self.ops = &OPS
        self.buf = <Move*>malloc(SEARCH_MAX_MOVES * sizeof(Move))
        if not self.buf:
            raise MemoryError()
        self.spec = _SPEC

    def __dealloc__(self):
        free(self.buf)

    def __init__(self, variant="superajedrez", fen=None):
        if variant != _SPEC.name:
            raise UnknownVariantError(f"unknown variant {variant!r}")
        self.set_fen(START_FEN if fen is None else fen)

    # -- position strings -------------------------------------------------------------------

    def set_fen(self, fen):
        """Set the position from a FEN with the reserve in brackets (NOTATION.md); the history is
        cleared. On error InvalidFenError is raised and nothing changes."""
        cdef Pos p = _parse_fen(fen)
        self.pos = p
        self._clear_history()

    def fen(self) -> str:
        cdef int r, f, sq, empty, s, t
        rows = []
        for r in range(7, -1, -1):
            row, empty = "", 0
            for f in range(8):
                sq = 8 * r + f
                if not self.pos.board[sq]:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                s = (self.pos.board[sq] - 1) >> 3
                t = (self.pos.board[sq] - 1) & 7
                row += _LETTERS[t] if s == 0 else _LETTERS[t].lower()
                if (self.pos.promoted >> sq) & 1:
                    row += "~"
            if empty:
                row += str(empty)
            rows.append(row)
        reserve = ""
        for s in range(2):
            for t in (QUEEN, ROOK, BISHOP, KNIGHT, PAWN):
                letter = _LETTERS[t] if s == 0 else _LETTERS[t].lower()
                reserve += letter * self.pos.reserve[s][t]
        castling = self._castling_field()
        ep = "-" if self.pos.ep == NOSQ else _sq(self.pos.ep)
        side = "w" if self.pos.stm == 0 else "b"
        return (f"{'/'.join(rows)}[{reserve}] {side} {castling} {ep} "
                f"{self.pos.halfmove} {self.pos.fullmove}")

    cdef str _castling_field(self):
        out = ""
        cdef int s, bits
        for s in range(2):
            bits = self.pos.castle >> (3 * s)
            if not bits & CS_KING:
                continue
            if bits & CS_H or self.pos.reserve[s][ROOK]:
                out += "K" if s == 0 else "k"
            if bits & CS_A or self.pos.reserve[s][ROOK]:
                out += "Q" if s == 0 else "q"
        return out or "-"

    # -- moves ------------------------------------------------------------------------------

    def legal_moves(self) -> list:
        cdef int n = generate(&self.pos, self.buf, 0)
        cdef int i
        return [_wrap_chess(&self.buf[i]) for i in range(n)]

    def parse_move(self, text) -> SuperajedrezMove:
        """The legal move that ``text`` names: the engine form (``e2e4``, ``e7e8q``, ``N@f3``,
        ``e1g1``, ``e1g1r``) or Spanish algebraic (``0-Cf3``, ``Cf3``, ``exd5``, ``0-0``)."""
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move must be a string, not {type(text).__name__}")
        s = text.strip()
        if not s:
            raise IllegalMoveError("empty move string")
        if len(s) > 2 and s[1] == "@" and s[0] in "pnbrqPNBRQ":
            s = s[0].upper() + s[1:]           # placements: either case of the letter
        legal = self.legal_moves()
        for mv in legal:
            if str(mv) == s:
                return mv
        bare = s.rstrip("+#")
        for mv in legal:
            if self.san(mv).rstrip("+#") == bare:
                return mv
        if not (_re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbnQRBN]?", s)
                or _re.fullmatch(r"[PNBRQ]@[a-h][1-8]", s)):
            # Not the engine form: say so unless it reads as Spanish algebraic.
            if not _re.fullmatch(r"(0-)?[RDTAC]?[a-h]?[1-8]?x?[a-h][1-8](=[DTAC])?[+#]*|0-0(-0)?(\(T\))?[+#]*", s):
                raise IllegalMoveError(f"move {text!r} is not of the form e2e4, e7e8q, N@f3, "
                                       f"e1g1r or Spanish algebraic (0-Cf3, Cxf3, 0-0)")
        raise IllegalMoveError(f"{text!r} is not a legal move in {self.fen()}")

    cdef int _move_kind(self, object move):
        return 1 if isinstance(move, SuperajedrezMove) else 0

    cdef const SMove* _move_data(self, object move):
        return <const SMove*>&(<SuperajedrezMove>move).m


    # -- Spanish algebraic ------------------------------------------------------------------

    def san(self, move) -> str:
        """The move in Spanish algebraic notation (RULES.md §7.9): ``Cf3``, ``exd5``, ``e8=D``,
        ``0-Cf3`` (placement), ``0-b2``, ``0-Dxd1`` (reserved-space capture), ``0-0``, ``0-0-0``,
        with ``+`` for check and ``#`` for mate. When castling is legal both with the rook on its
        corner and with a rook from the reserve, the second is written ``0-0(T)``."""
        cdef SuperajedrezMove mv = self._checked_move(move)
        cdef Move* m = &mv.m
        legal = self.legal_moves()
        if m.kind == MK_CASTLE or m.kind == MK_CASTLE_DROP:
            text = "0-0" if m.to > m.frm else "0-0-0"
            if m.kind == MK_CASTLE_DROP and any(
                    (<SuperajedrezMove>o).m.kind == MK_CASTLE and (<SuperajedrezMove>o).m.to == m.to
                    for o in legal):
                text += "(T)"
        elif m.kind == MK_DROP:
            text = "0-" + _SPANISH[m.piece] + ("x" if m.captured else "") + _sq(m.to)
        elif m.piece == PAWN:
            text = (_FILES[m.frm & 7] + "x" if m.captured else "") + _sq(m.to)
            if m.kind == MK_PROMO:
                text += "=" + _SPANISH[m.promo]
        else:
            rivals = [(<SuperajedrezMove>o).m.frm for o in legal
                      if (<SuperajedrezMove>o).m.piece == m.piece and (<SuperajedrezMove>o).m.to == m.to
                      and (<SuperajedrezMove>o).m.frm != m.frm and (<SuperajedrezMove>o).m.frm != NOSQ
                      and (<SuperajedrezMove>o).m.kind == MK_NORMAL]
            hint = ""
            if rivals:
                if all((r & 7) != (m.frm & 7) for r in rivals):
                    hint = _FILES[m.frm & 7]
                elif all((r >> 3) != (m.frm >> 3) for r in rivals):
                    hint = str((m.frm >> 3) + 1)
                else:
                    hint = _sq(m.frm)
            text = _SPANISH[m.piece] + hint + ("x" if m.captured else "") + _sq(m.to)
        cdef Undo u
        make(&self.pos, m, &u)
        if in_check(&self.pos):
            text += "+" if has_legal_move(&self.pos) else "#"
        unmake(&self.pos, m, &u)
        return text

    def evaluate(self) -> int:
        """The static evaluation for the side to move, in centipawns."""
        return evaluate(&self.pos)

    def _linear_layout(self) -> list:
        return linear_layout()

    def _linear_prior(self):
        return linear_prior()

    # -- state ------------------------------------------------------------------------------

    @property
    def variant(self) -> str:
        return _SPEC.name

    @property
    def turn(self) -> Color:
        return Color(self.pos.stm)

    @property
    def halfmove_clock(self) -> int:
        """Plies since the last capture, pawn move or placement (the 50-move rule)."""
        return self.pos.halfmove

    @property
    def fullmove_number(self) -> int:
        return self.pos.fullmove

    def recompute_hash(self) -> int:
        return compute_key(&self.pos)

    def is_check(self) -> bool:
        """Whether the side to move is in check (by a board piece or standing on a protected
        reserved square of the opponent)."""
        return bool(in_check(&self.pos))

    def reserve(self, color) -> dict:
        """{'Q': n, 'R': n, 'B': n, 'N': n, 'P': n}: the pieces ``color`` still has to place."""
        cdef int s = int(color)
        if s not in (0, 1):
            raise ValueError("color must be WHITE (0) or BLACK (1)")
        return {_LETTERS[t]: self.pos.reserve[s][t] for t in (QUEEN, ROOK, BISHOP, KNIGHT, PAWN)}

    def protected_squares(self, color) -> list:
        """The reserved squares of ``color`` that it protects now (RULES.md §7.5), sorted."""
        cdef int s = int(color)
        if s not in (0, 1):
            raise ValueError("color must be WHITE (0) or BLACK (1)")
        cdef u64 m = protected_squares(&self.pos, s, 0)
        return [_sq(sq) for sq in range(64) if (m >> sq) & 1]

    def piece_map(self) -> dict:
        """{square: letter}: upper case White, lower case Black, ``~`` after a promoted piece."""
        out = {}
        cdef int sq, s, t
        for sq in range(64):
            if self.pos.board[sq]:
                s = (self.pos.board[sq] - 1) >> 3
                t = (self.pos.board[sq] - 1) & 7
                out[_sq(sq)] = (_LETTERS[t] if s == 0 else _LETTERS[t].lower()) \
                    + ("~" if (self.pos.promoted >> sq) & 1 else "")
        return out

    def outcome(self):
        """The Outcome if the game has ended: checkmate, stalemate, threefold repetition,
        insufficient material or the 50-move rule (RULES.md §7.8); else None."""
        cdef int us = self.pos.stm
        if not has_legal_move(&self.pos):
            if in_check(&self.pos):
                return Outcome(Termination.CHECKMATE, Color(us ^ 1))
            return Outcome(Termination.STALEMATE, None)
        if insufficient_material(&self.pos):
            return Outcome(Termination.INSUFFICIENT_MATERIAL, None)
        if self.repetitions() >= 3:
            return Outcome(Termination.REPETITION, None)
        if self.pos.halfmove >= 100:
            return Outcome(Termination.FIFTY_MOVES, None)
        return None

    # -- display ----------------------------------------------------------------------------

    def __str__(self):
        rows = []
        pm = self.piece_map()
        for r in range(7, -1, -1):
            cells = [pm.get(_FILES[f] + str(r + 1), ".")[0] for f in range(8)]
            rows.append(f"{r + 1} " + " ".join(cells))
        rows.append("  " + " ".join(_FILES))
        for s, name in ((0, "White"), (1, "Black")):
            held = "".join(k * v for k, v in self.reserve(s).items())
            rows.append(f"{name} reserve: {held or '-'}")
        rows.append(f"{self.turn} to move" + (", in check" if self.is_check() else ""))
        return "\n".join(rows)

    def __repr__(self):
        return f"Board('superajedrez', {self.fen()!r})"


cdef Pos _parse_fen(fen) except *:
    if not isinstance(fen, str):
        raise InvalidFenError(f"a FEN must be a string, not {type(fen).__name__}")
    fields = fen.split()
    if len(fields) not in (4, 6):
        raise InvalidFenError(f"FEN {fen!r}: expected '<board>[<reserve>] <side> <castling> "
                              f"<en passant> [<halfmove> <fullmove>]'")
    placement = fields[0]
    match = _re.fullmatch(r"([^\[\]]*)\[([^\[\]]*)\]", placement)
    if not match:
        raise InvalidFenError(f"FEN {fen!r}: the board must end with the reserve in brackets, "
                              f"e.g. 4k3/8/8/8/8/8/8/4K3[QRRBBNNPPPPPPPPqrrbbnnpppppppp]")
    board_text, reserve_text = match.groups()
    cdef Pos p
    memset(&p, 0, sizeof(Pos))
    p.ep = NOSQ
    ranks = board_text.split("/")
    if len(ranks) != 8:
        raise InvalidFenError(f"FEN {fen!r}: the board needs 8 ranks separated by '/'")
    cdef int r, f, s, t, sq
    for r, rank_text in zip(range(7, -1, -1), ranks):
        f = 0
        i = 0
        while i < len(rank_text):
            ch = rank_text[i]
            i += 1
            if is_digits(ch):
                f += int(ch)
                continue
            if ch.upper() not in _LETTERS or f > 7:
                raise InvalidFenError(f"FEN {fen!r}: rank {r + 1}: bad piece {ch!r} or too many "
                                      f"squares")
            s = 0 if ch.isupper() else 1
            t = _LETTERS.index(ch.upper())
            sq = 8 * r + f
            p.pieces[s][t] |= (<u64>1) << sq
            p.occ[s] |= (<u64>1) << sq
            p.board[sq] = <uint8_t>(1 + t + 8 * s)
            if i < len(rank_text) and rank_text[i] == "~":
                i += 1
                if t in (PAWN, KING):
                    raise InvalidFenError(f"FEN {fen!r}: {ch}~ on {_sq(sq)}: only a queen, rook, "
                                          f"bishop or knight can be promoted")
                p.promoted |= (<u64>1) << sq
            f += 1
        if f != 8:
            raise InvalidFenError(f"FEN {fen!r}: rank {r + 1} has {f} squares, not 8")
    for ch in reserve_text:
        if ch.upper() not in "QRBNP":
            raise InvalidFenError(f"FEN {fen!r}: {ch!r} cannot be in a reserve (Q R B N P only)")
        s = 0 if ch.isupper() else 1
        p.reserve[s][_LETTERS.index(ch.upper())] += 1
        if p.reserve[s][_LETTERS.index(ch.upper())] > 16:
            raise InvalidFenError(f"FEN {fen!r}: too many {ch!r} in the reserve")
    name = ("White", "Black")
    for s in range(2):
        if bb_popcount(p.pieces[s][KING]) != 1:
            raise InvalidFenError(f"FEN {fen!r}: {name[s]} needs exactly one king on the board")
        if p.pieces[s][PAWN] & (RANK_1 | (RANK_1 << 56)):
            raise InvalidFenError(f"FEN {fen!r}: a {name[s]} pawn stands on the first or last rank")
        for t in range(5):
            count = bb_popcount(p.pieces[s][t] & ~p.promoted) + p.reserve[s][t]
            if count > _START_COUNT[t]:
                raise InvalidFenError(f"FEN {fen!r}: {name[s]} has {count} {_LETTERS[t]} "
                                      f"(unpromoted and in reserve), more than {_START_COUNT[t]}")
        if (bb_popcount(p.pieces[s][PAWN]) + p.reserve[s][PAWN]
                + bb_popcount(p.occ[s] & p.promoted)) > 8:
            raise InvalidFenError(f"FEN {fen!r}: {name[s]} has more pawns and promoted pieces "
                                  f"than its 8 pawns")
    side = fields[1]
    if side not in ("w", "b"):
        raise InvalidFenError(f"FEN {fen!r}: side to move must be w or b, not {side!r}")
    p.stm = 0 if side == "w" else 1
    # Castling: K/Q mean "still possible" (king never moved; a never-moved rook on the corner or
    # a rook in reserve). A rook in reserve can castle to either side, so it needs both letters.
    castling = fields[2]
    if castling != "-" and (not _re.fullmatch(r"K?Q?k?q?", castling) or not castling):
        raise InvalidFenError(f"FEN {fen!r}: castling field must be '-' or some of KQkq in "
                              f"that order, not {castling!r}")
    for s in range(2):
        kside = ("K", "k")[s] in castling
        qside = ("Q", "q")[s] in castling
        if not (kside or qside):
            continue
        home = HOME_RANK[s]
        if not (p.pieces[s][KING] >> (home + 4)) & 1:
            raise InvalidFenError(f"FEN {fen!r}: {name[s]} castling needs the king on "
                                  f"{_sq(home + 4)}")
        if p.reserve[s][ROOK] and not (kside and qside):
            raise InvalidFenError(f"FEN {fen!r}: a {name[s]} rook in reserve can castle to "
                                  f"either side: give both castling letters or none")
        p.castle |= CS_KING << (3 * s)
        for flag, corner, bit in ((kside, home + 7, CS_H), (qside, home, CS_A)):
            if not flag:
                continue
            if (p.pieces[s][ROOK] & ~p.promoted) >> corner & 1:
                p.castle |= bit << (3 * s)
            elif not p.reserve[s][ROOK]:
                raise InvalidFenError(f"FEN {fen!r}: {name[s]} castling towards {_sq(corner)} "
                                      f"needs a rook there or in reserve")
    ep = fields[3]
    if ep != "-":
        ep_sq = _parse_square(ep)
        if ep_sq is None:
            raise InvalidFenError(f"FEN {fen!r}: en-passant square must be '-' or a square, "
                                  f"not {ep!r}")
        sq = ep_sq
        # The pawn that just moved two squares stands in front of the square passed over.
        mover = p.stm ^ 1
        pawn_sq = sq + 8 if mover == 0 else sq - 8
        ok_rank = (sq >> 3) == (2 if mover == 0 else 5)
        if not ok_rank or not (p.pieces[mover][PAWN] >> pawn_sq) & 1 or p.board[sq] \
                or p.board[sq - 8 if mover == 0 else sq + 8]:
            raise InvalidFenError(f"FEN {fen!r}: no two-square pawn move can have passed over {ep}")
        p.ep = <uint8_t>sq
        p.ep_keyed = 1 if PAWN_ATT[mover][sq] & p.pieces[p.stm][PAWN] else 0
    if len(fields) == 6:
        if not is_digits(fields[4]) or not is_digits(fields[5]) or int(fields[5]) < 1:
            raise InvalidFenError(f"FEN {fen!r}: halfmove clock and fullmove number must be "
                                  f"whole numbers (fullmove from 1)")
        if int(fields[4]) > 9999 or int(fields[5]) > 9999:
            raise InvalidFenError(f"FEN {fen!r}: move counters above 9999")
        p.halfmove = int(fields[4])
        p.fullmove = int(fields[5])
    else:
        p.fullmove = 1
    # The side that just moved may not have left its king attacked.
    p.stm ^= 1
    if in_check(&p):
        raise InvalidFenError(f"FEN {fen!r}: the side not to move is in check")
    p.stm ^= 1
    p.key = compute_key(&p)
    return p
