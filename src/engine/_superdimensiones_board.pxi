# The Python face of Super Dimensiones: SuperDimensionesMove and SuperDimensionesBoard, the FEN
# with its cards (NOTATION.md), move strings, the end of the game, perft.

import re as _re

_FILES = "abcdef"
_TEAMS = "abcd"
_CARDS_RE = _re.compile(r"[MI][DC][AU][WE][RS]")
_RESULT_CODES = {WON_BY_1: "1", WON_BY_2: "2", DRAWN: "="}
_CODE_RESULTS = {"1": WON_BY_1, "2": WON_BY_2, "=": DRAWN}
TEAM_NAMES = {"a": "A1", "b": "B1", "c": "A2", "d": "B2"}


class SuperDimensionesSpec:
    """What the rest of the package needs to know about the variant."""
    name = "superdimensiones"
    title = "Super Dimensiones"
    start_fen = WESTERN_START + " a MCAWR - 0 0"
    first_player = 0                    # player 1 (team A1) moves first
    size = 6


_SPEC = SuperDimensionesSpec()


def superdimensiones_variants() -> list:
    return [_SPEC.name]


def cards_index(str cards) -> int:
    """The rule-set index (0-31) of a card string such as ``ICUWR``."""
    if not isinstance(cards, str) or not _CARDS_RE.fullmatch(cards):
        raise InvalidFenError(f"cards {cards!r}: expected five letters, one per card: M or I, "
                              f"D or C, A or U, W or E, R or S (e.g. ICUWR)")
    return ((cards[0] == "I") * CARD_INTER | (cards[1] == "C") * CARD_CONQUER
            | (cards[2] == "U") * CARD_UNARMOURED | (cards[3] == "E") * CARD_EASTERN
            | (cards[4] == "S") * CARD_SYMBOLIC)


def cards_string(int index) -> str:
    return ("MI"[(index & CARD_INTER) != 0] + "DC"[(index & CARD_CONQUER) != 0]
            + "AU"[(index & CARD_UNARMOURED) != 0] + "WE"[(index & CARD_EASTERN) != 0]
            + "RS"[(index & CARD_SYMBOLIC) != 0])


def card_sets() -> list:
    """The 32 card strings, in rule-set index order."""
    return [cards_string(i) for i in range(N_CARD_SETS)]


def start_fen(str cards="MCAWR") -> str:
    """The start position of a card set (RULES.md §1.2): the formation card picks the layout."""
    cards_index(cards)
    board = EASTERN_START if cards[3] == "E" else WESTERN_START
    return f"{board} a {cards} - 0 0"


cdef inline str _sq(int s):
    return _FILES[s % 6] + str(s // 6 + 1)


def _parse_square(text):
    if len(text) != 2 or text[0] not in _FILES or text[1] not in "123456":
        return None
    return _FILES.index(text[0]) + 6 * (int(text[1]) - 1)


cdef class SuperDimensionesMove:
    """A Super Dimensiones move (NOTATION.md): ``b2-c3`` (step or slide), ``a1xe5`` /
    ``a1xc3xe5`` (capture), ``a1>a3>c3`` (ally-jump chain), ``huff-c3`` (the huff choice), and a
    declined capture under distraer with its penalty: ``c3-d4+c1`` (reinforcement on c1) or
    ``c3-d4=e1`` (the man on e1 crowned)."""

    cdef Move m
    cdef readonly str text
    cdef u64 key
    cdef readonly tuple paths     # every landing path of the move (captures and ally chains)

    def __init__(self):
        raise TypeError("moves come from Board.legal_moves() or Board.parse_move()")

    @property
    def from_square(self):
        return None if self.m.kind == KIND_HUFF else _sq(self.m.frm)

    @property
    def to_square(self):
        return None if self.m.kind == KIND_HUFF else _sq(self.m.to)

    @property
    def is_capture(self) -> bool:
        return self.m.kind == KIND_CAPTURE

    @property
    def is_ally_jump(self) -> bool:
        return self.m.kind == KIND_ALLY

    @property
    def is_huff(self) -> bool:
        """The opponent's choice of the piece a declined capture costs."""
        return self.m.kind == KIND_HUFF

    @property
    def captured(self) -> list:
        """The squares of the pieces taken (captures), or of the piece huffed."""
        if self.m.kind == KIND_HUFF:
            return [_sq(self.m.to)]
        if self.m.kind != KIND_CAPTURE:
            return []
        return [_sq(s) for s in range(NSQ) if (self.m.captured >> s) & 1]

    @property
    def promotes(self) -> bool:
        return bool(self.m.promote)

    @property
    def declines(self) -> bool:
        """Whether this move declines an obligatory capture (and pays its penalty)."""
        return self.m.penalty != PEN_NONE

    @property
    def penalty(self):
        """What declining costs: None, ('huff', square) when the piece is removed at once,
        ('huff-choice', [squares]) when the opponent picks, ('reinforce', square) or
        ('crown', square)."""
        p = self.m.penalty
        if p == PEN_HUFF_NOW:
            return ("huff", _sq(self.m.penalty_sq))
        if p == PEN_HUFF_CHOICE:
            return ("huff-choice", [_sq(s) for s in range(NSQ) if (self.m.captured >> s) & 1])
        if p == PEN_REINFORCE:
            return ("reinforce", _sq(self.m.penalty_sq))
        if p == PEN_CROWN:
            return ("crown", _sq(self.m.penalty_sq))
        return None

    def hub(self) -> str:
        return self.text

    def __str__(self):
        return self.text

    def __repr__(self):
        return f"Move('{self.text}')"

    def __eq__(self, other):
        if not isinstance(other, SuperDimensionesMove):
            return NotImplemented
        cdef SuperDimensionesMove o = other
        return _op_same_move(<const SMove*>&o.m, <const SMove*>&self.m) and o.key == self.key

    def __hash__(self):
        return hash((self.text, self.key))


cdef class SuperDimensionesBoard(GameBoard):
    """A game of Super Dimensiones under one of the 32 card sets: the position, the moves
    played since it was set, and the card set's rules."""

    cdef Pos pos
    cdef int card_index
    cdef const Rules* R
    cdef Move* buf
    cdef readonly object spec

    def __cinit__(self, *args, **kwargs):
        self.position = &self.pos
        self.buf = <Move*>malloc(SEARCH_MAX_MOVES * sizeof(Move))
        if not self.buf:
            raise MemoryError()
        self.spec = _SPEC

    def __dealloc__(self):
        free(self.buf)

    def __init__(self, variant="superdimensiones", fen=None):
        if variant != _SPEC.name:
            raise UnknownVariantError(f"unknown variant {variant!r}")
        self.set_fen(_SPEC.start_fen if fen is None else fen)

    # -- position strings -------------------------------------------------------------------

    def set_fen(self, fen):
        """Set the position from a FEN (NOTATION.md), or the start of a card set given by its
        five cards alone (``ICUWR``); the history is cleared. On error nothing changes.

        What the rules imply is applied at once: a sub-game where a team has no piece, or whose
        no-progress clock has run out, has ended; the token passes over ended sub-games and over
        a team without a legal move (which ends its sub-game)."""
        cdef Pos p
        cdef int cards = self._parse_fen(fen, &p)
        self.card_index = cards
        self.R = &RULES[cards]
        self.ops = &OPS[cards]
        self.pos = p
        self._clear_history()

    cdef int _parse_fen(self, fen, Pos* out) except -1:
        if not isinstance(fen, str):
            raise InvalidFenError(f"a FEN must be a string, not {type(fen).__name__}")
        text = fen.strip()
        if _CARDS_RE.fullmatch(text):
            text = start_fen(text)
        fields = text.split()
        if not 3 <= len(fields) <= 6:
            raise InvalidFenError(f"FEN {fen!r}: expected <board> <team> <cards> [<ended> "
                                  f"<clockA> <clockB>]")
        cdef int cards = cards_index(fields[2]) if _CARDS_RE.fullmatch(fields[2]) else -1
        if cards < 0:
            raise InvalidFenError(f"FEN {fen!r}: cards {fields[2]!r}: expected five letters, "
                                  f"M or I, D or C, A or U, W or E, R or S (e.g. ICUWR)")
        cdef const Rules* R = &RULES[cards]
        cdef Pos p
        memset(&p, 0, sizeof(Pos))
        rows = fields[0].split("/")
        if len(rows) != 6:
            raise InvalidFenError(f"FEN {fen!r}: the board needs 6 ranks separated by /")
        cdef int rank, f, s, t
        for i, row in enumerate(rows):
            rank = 5 - i
            f = 0
            for ch in row:
                if ch in "123456":
                    f += int(ch)
                    continue
                if ch.lower() not in _TEAMS or f >= 6:
                    raise InvalidFenError(f"FEN {fen!r}: rank {rank + 1} {row!r}: expected team "
                                          f"letters a-d (upper case for a queen) and digits")
                s = 6 * rank + f
                t = _TEAMS.index(ch.lower())
                if ch.islower() and (R.promotion[t >> 1] >> s) & 1:
                    raise InvalidFenError(f"FEN {fen!r}: a man of team {ch} on {_sq(s)}, its "
                                          f"promotion rank, would have been crowned")
                p.team[t] |= bit(s)
                if ch.isupper():
                    p.queens |= bit(s)
                f += 1
            if f != 6:
                raise InvalidFenError(f"FEN {fen!r}: rank {rank + 1} {row!r} does not have 6 "
                                      f"squares")
        for t in range(4):
            if bb_popcount(p.team[t]) > TEAM_SIZE:
                raise InvalidFenError(f"FEN {fen!r}: team {_TEAMS[t]} has more than "
                                      f"{TEAM_SIZE} pieces")
        ended = fields[3] if len(fields) > 3 else "-"
        if ended != "-":
            for item in ended.split(","):
                if (len(item) != 2 or item[0] not in "AB" or item[1] not in _CODE_RESULTS
                        or p.ended["AB".index(item[0])] != OPEN):
                    raise InvalidFenError(f"FEN {fen!r}: ended sub-games {ended!r}: expected '-' "
                                          f"or a list such as A1,B= (sub-game, then 1, 2 or =)")
                p.ended["AB".index(item[0])] = _CODE_RESULTS[item[1]]
        for g, value in enumerate(fields[4:6]):
            if not is_digits(value) or int(value) > NO_PROGRESS_PLIES:
                raise InvalidFenError(f"FEN {fen!r}: clock {value!r} must be 0-"
                                      f"{NO_PROGRESS_PLIES} plies")
            p.clock[g] = int(value)
        team, bang, huff = fields[1].partition("!")
        if team not in ("a", "b", "c", "d"):
            raise InvalidFenError(f"FEN {fen!r}: the team to move must be a, b, c or d, not "
                                  f"{team!r}")
        p.turn = _TEAMS.index(team)
        if bang:
            p.turn ^= 2                    # the chooser's opponent declined
            if not (R.conquer and R.unarmoured):
                raise InvalidFenError(f"FEN {fen!r}: a huff choice exists only with the cards "
                                      f"conquistar (C) and sin armadura (U)")
            if p.ended[p.turn & 1] != OPEN:
                raise InvalidFenError(f"FEN {fen!r}: a huff choice in a sub-game that has ended")
            for name in huff.split(","):
                s = -1 if _parse_square(name) is None else _parse_square(name)
                if s < 0 or not (p.team[p.turn] >> s) & 1 or (p.huff >> s) & 1:
                    raise InvalidFenError(f"FEN {fen!r}: huff candidate {name!r} must be a square "
                                          f"of a piece of team {_TEAMS[p.turn]}, given once")
                p.huff |= bit(s)
            if bb_popcount(p.huff) < 2:
                raise InvalidFenError(f"FEN {fen!r}: a huff choice needs two or more candidates "
                                      f"(a single one is removed at once)")
        end_by_rule(R, &p, 0)
        end_by_rule(R, &p, 1)
        if not p.huff:
            pass_token(R, &p, p.turn)
        p.key = compute_key(&p)
        out[0] = p
        return cards

    def fen(self) -> str:
        cdef const Pos* p = &self.pos
        rows = []
        for rank in range(5, -1, -1):
            row, empty = "", 0
            for f in range(6):
                letter = self._letter(6 * rank + f)
                if letter is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += letter
            rows.append(row + (str(empty) if empty else ""))
        team = _TEAMS[p.turn]
        if p.huff:
            team = _TEAMS[p.turn ^ 2] + "!" + ",".join(
                sorted(_sq(s) for s in range(NSQ) if (p.huff >> s) & 1))
        ended = ",".join(f"{'AB'[g]}{_RESULT_CODES[p.ended[g]]}" for g in range(2)
                         if p.ended[g] != OPEN) or "-"
        return (f"{'/'.join(rows)} {team} {cards_string(self.card_index)} {ended} "
                f"{p.clock[0]} {p.clock[1]}")

    cdef object _letter(self, int s):
        cdef const Pos* p = &self.pos
        cdef int t
        for t in range(4):
            if (p.team[t] >> s) & 1:
                return _TEAMS[t].upper() if (p.queens >> s) & 1 else _TEAMS[t]
        return None

    # -- moves ------------------------------------------------------------------------------

    def legal_moves(self) -> list:
        """The legal moves, each with its canonical string (NOTATION.md)."""
        cdef const Pos* p = &self.pos
        cdef int n = generate(self.R, p, self.buf, 0), i
        cdef SuperDimensionesMove mv
        moves = []
        ends = {}
        for i in range(n):
            mv = SuperDimensionesMove.__new__(SuperDimensionesMove)
            mv.m = self.buf[i]
            mv.key = p.key
            mv.paths = ()
            moves.append(mv)
            if mv.m.kind == KIND_CAPTURE:
                ends[(mv.m.frm, mv.m.to)] = ends.get((mv.m.frm, mv.m.to), 0) + 1
        capture_paths = {}
        for mv in moves:
            mv.text = self._text(mv, ends, capture_paths)
        return moves

    cdef str _text(self, SuperDimensionesMove mv, dict ends, dict capture_paths):
        cdef const Move* m = &mv.m
        if m.kind == KIND_HUFF:
            return "huff-" + _sq(m.to)
        if m.kind == KIND_CAPTURE:
            if m.frm not in capture_paths:
                capture_paths[m.frm] = self._capture_paths(m.frm)
            queen_end = bool(m.promote or (self.pos.queens >> m.frm) & 1)
            mv.paths = tuple(sorted(path for path, captured, queen in capture_paths[m.frm]
                                    if path[len(path) - 1] == _sq(m.to) and captured == m.captured
                                    and queen == queen_end))
            if ends[(m.frm, m.to)] == 1:
                return f"{_sq(m.frm)}x{_sq(m.to)}"
            return min("x".join(path) for path in mv.paths)
        if m.kind == KIND_ALLY:
            mv.paths = tuple(sorted(self._ally_paths(m.frm, m.to)))
            text = min(">".join(path) for path in mv.paths)
        else:
            text = f"{_sq(m.frm)}-{_sq(m.to)}"
        if m.penalty == PEN_REINFORCE:
            text += "+" + _sq(m.penalty_sq)
        elif m.penalty == PEN_CROWN:
            text += "=" + _sq(m.penalty_sq)
        return text

    cdef list _capture_paths(self, int origin):
        """Every complete capture sequence from origin: (squares, captured set, ends a queen)."""
        cdef const Pos* p = &self.pos
        cdef CapSearch C
        cdef PathRec rec
        cdef int t = p.turn, i, k
        cdef uint8_t* r
        cdef u64 captured
        rec.out = <uint8_t*>malloc(MAX_PATHS * PATH_RECORD)
        if rec.out == NULL:
            raise MemoryError()
        rec.n = 0
        rec.cap = MAX_PATHS
        rec.path[0] = <uint8_t>origin
        rec.plen = 1
        init_capsearch(&C, self.R, p, t)
        C.rec = &rec
        C.origin = origin
        C.empty |= bit(origin)
        capture_extend(&C, origin, 0, (p.queens >> origin) & 1)
        out = []
        for i in range(rec.n):
            r = rec.out + i * PATH_RECORD
            memcpy(&captured, r + 1 + MAX_PATH, 8)
            out.append((tuple(_sq(r[1 + k]) for k in range(r[0])), captured, bool(r[9 + MAX_PATH])))
        free(rec.out)
        return out

    cdef list _ally_paths(self, int origin, int target):
        cdef const Pos* p = &self.pos
        cdef PathRec rec
        cdef int t = p.turn, i, k, queen = (p.queens >> origin) & 1
        cdef uint8_t* r
        cdef u64 empty = ~(p.team[0] | p.team[1] | p.team[2] | p.team[3])
        rec.out = <uint8_t*>malloc(MAX_PATHS * PATH_RECORD)
        if rec.out == NULL:
            raise MemoryError()
        rec.n = 0
        rec.cap = MAX_PATHS
        rec.path[0] = <uint8_t>origin
        rec.plen = 1
        if queen:
            ally_reach(self.R, origin, bit(origin), p.team[t ^ 1], empty, self.R.orth_dirs, 4,
                       &rec, target)
        else:
            ally_reach(self.R, origin, bit(origin), p.team[t ^ 1], empty,
                       self.R.ally_dirs[t >> 1], 3, &rec, target)
        out = []
        for i in range(rec.n):
            r = rec.out + i * PATH_RECORD
            out.append(tuple(_sq(r[1 + k]) for k in range(r[0])))
        free(rec.out)
        return out

    def parse_move(self, text) -> SuperDimensionesMove:
        """The legal move that ``text`` names: its canonical string, or for a capture or an
        ally chain any of its landing paths (``a1xc3xe5``, ``a1>c1>c3``) with the same penalty
        suffix."""
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move must be a string, not {type(text).__name__}")
        s = text.strip()
        if not s:
            raise IllegalMoveError("empty move string")
        moves = self.legal_moves()
        for mv in moves:
            if mv.text == s:
                return mv
        body, suffix = _re.fullmatch(r"(.*?)([+=][a-f][1-6])?", s, _re.DOTALL).groups()
        for mv in moves:
            penalty = mv.penalty
            own_suffix = None
            if penalty is not None and penalty[0] in ("reinforce", "crown"):
                own_suffix = ("+" if penalty[0] == "reinforce" else "=") + penalty[1]
            sep = "x" if mv.is_capture else ">"
            if own_suffix == suffix and any(sep.join(path) == body for path in mv.paths):
                return mv
        if not _re.fullmatch(r"huff-[a-f][1-6]|[a-f][1-6]([-x>][a-f][1-6])+([+=][a-f][1-6])?", s):
            raise IllegalMoveError(f"move {text!r} is not of the form b2-c3, a1xe5, a1>a3>c3, "
                                   f"huff-c3, c3-d4+c1 or c3-d4=e1")
        raise IllegalMoveError(f"{text!r} is not a legal move in {self.fen()}")

    cdef int _move_kind(self, object move):
        return 1 if isinstance(move, SuperDimensionesMove) else 0

    cdef const SMove* _move_data(self, object move):
        return <const SMove*>&(<SuperDimensionesMove>move).m

    cdef _copy_rules(self, GameBoard other):
        cdef SuperDimensionesBoard b = <SuperDimensionesBoard>other
        b.card_index = self.card_index
        b.R = self.R

    # -- the evaluation ---------------------------------------------------------------------

    def evaluate(self) -> int:
        """The static value for the player to move (see docs/superdimensiones.md): per sub-game
        ±1000 when it has ended, else its evaluation within ±750."""
        return evaluate(self.R, &self.pos)

    def _linear_layout(self) -> list:
        return linear_layout()

    def _linear_prior(self):
        return linear_prior()

    def _linear_fixed_rows(self) -> list:
        return [ROW_ENDED]

    # -- state ------------------------------------------------------------------------------

    @property
    def variant(self) -> str:
        return _SPEC.name

    @property
    def cards(self) -> str:
        """The five cards of this game, e.g. ``MCAWR`` (NOTATION.md)."""
        return cards_string(self.card_index)

    @property
    def turn(self) -> Color:
        """The player who moves now (WHITE = player 1, teams a and b; BLACK = player 2): during
        a huff choice, the opponent of the team that declined."""
        return Color(side_to_move(&self.pos))

    @property
    def team(self) -> str:
        """The team whose phase it is (a, b, c or d); during a huff choice, the one that
        declined."""
        return _TEAMS[self.pos.turn]

    @property
    def huff_candidates(self) -> list:
        """The squares of the pieces among which the opponent now picks one to remove."""
        cdef u64 h = self.pos.huff
        return [_sq(s) for s in range(NSQ) if (h >> s) & 1]

    @property
    def clocks(self) -> tuple:
        """The no-progress counters of sub-games A and B, in sub-game plies."""
        return (self.pos.clock[0], self.pos.clock[1])

    def recompute_hash(self) -> int:
        return compute_key(&self.pos)

    def piece_map(self) -> dict:
        """{square: letter}: the FEN letter of each piece (upper case a queen)."""
        out = {}
        for s in range(NSQ):
            letter = self._letter(s)
            if letter is not None:
                out[_sq(s)] = letter
        return out

    def team_score(self, team) -> tuple:
        """(pieces, value) of a team (RULES.md §1.6): a man is worth 1, a queen 2."""
        cdef int count, value
        if team not in ("a", "b", "c", "d"):
            raise ValueError(f"team must be a, b, c or d, not {team!r}")
        team_score(&self.pos, _TEAMS.index(team), &count, &value)
        return (count, value)

    def subgame_results(self) -> dict:
        """{'A': r, 'B': r} with r = '1' (won by player 1), '2', '=' (drawn) or None (going on),
        as the position stands (a repetition is ended by outcome())."""
        cdef const Pos* p = &self.pos
        return {"AB"[g]: _RESULT_CODES.get(p.ended[g]) for g in range(2)}

    def outcome(self):
        """The Outcome once both sub-games have ended, or at a threefold repetition (which ends
        every open sub-game by score, RULES.md §1.8); else None. ``subgames`` holds each
        sub-game's result, ``winner`` the player with more points."""
        cdef const Pos* p = &self.pos
        cdef int g
        if game_over(p):
            termination = Termination.SUB_GAMES
        elif self.repetitions() >= 3:
            termination = Termination.REPETITION
        else:
            return None
        results = []
        for g in range(2):
            r = p.ended[g] if p.ended[g] != OPEN else scored_result(self.R, p, g)
            results.append(_RESULT_CODES[r])
        points = [sum(1.0 if r == str(k + 1) else 0.5 if r == "=" else 0.0 for r in results)
                  for k in range(2)]
        winner = None if points[0] == points[1] else Color(0 if points[0] > points[1] else 1)
        return Outcome(termination, winner, subgames=tuple(results))

    def __str__(self):
        cdef const Pos* p = &self.pos
        rows = []
        for rank in range(5, -1, -1):
            cells = [self._letter(6 * rank + f) or "." for f in range(6)]
            rows.append(f"{rank + 1} " + " ".join(cells))
        rows.append("  a b c d e f")
        team = _TEAMS[p.turn]
        if p.huff:
            status = (f"team {_TEAMS[p.turn ^ 2]} ({TEAM_NAMES[_TEAMS[p.turn ^ 2]]}) picks the "
                      f"piece to huff: {', '.join(self.huff_candidates)}")
        else:
            status = f"team {team} ({TEAM_NAMES[team]}, player {(p.turn >> 1) + 1}) to move"
        results = self.subgame_results()
        rows.append(f"{status}; cards {self.cards}; sub-game A "
                    f"{results['A'] or 'open'}, B {results['B'] or 'open'}")
        return "\n".join(rows)

    def __repr__(self):
        return f"Board('superdimensiones', {self.fen()!r})"
