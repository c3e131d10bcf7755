"""A deliberately simple draughts move generator, written from RULES.md alone, to check the
native one. It works on (file, rank) coordinates with dicts and sets, follows each rule as the
text states it, and cares nothing for speed. It shares no code with the engine: square numbering
is computed here from the formulas of RULES.md too.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

DIAG = [(1, 1), (-1, 1), (1, -1), (-1, -1)]
FWD = [(1, 1), (-1, 1)]
N, E, W = (0, 1), (1, 0), (-1, 0)
ORTH = ((0, 1), (0, -1), (1, 0), (-1, 0))
# Frisian captures along files and ranks too: the next square of the same colour is two away.
ORTH2 = ((0, 2), (0, -2), (2, 0), (-2, 0))


@dataclass(frozen=True)
class Rules:
    size: int
    dark: bool | None           # True dark squares, False light squares, None every square
    man_moves: tuple            # White's directions; Black's mirror the rank step
    man_captures: tuple
    king_dirs: tuple
    flying: bool
    immediate: bool             # immediate removal and (unless turn_back) no 180-degree turn
    precedence: str             # "free", "quantity", "quality", "king first", "italian", "value"
    stop_on_back_row: bool      # a man reaching the far row in a capture stops there
    lateral: bool = False       # Chapinas
    crown_and_continue: bool = False   # Russian: crowned there at once, goes on as a king
    killer: bool = False        # Killer: a capture that takes a king last ends right behind it
    men_take_kings: bool = True  # Italian: a man never takes a king
    turn_back: bool = False     # Thai: a capture may reverse its direction
    land_behind: bool = False   # Thai: a flying king lands on the square right behind its victim
    king_captures: tuple = ()   # Frisian: kings capture along more lines than they move
    king_streak: int = 0        # Frisian: a king makes at most this many quiet moves in a row
                                # while its side has men


RULES = {
    "international": Rules(10, True, tuple(FWD), tuple(DIAG), tuple(DIAG), True, False, "quantity", False),
    "spanish": Rules(8, False, tuple(FWD), tuple(FWD), tuple(DIAG), True, False, "quality", True),
    "checkers": Rules(8, True, tuple(FWD), tuple(FWD), tuple(DIAG), False, False, "free", True),
    "chapinas": Rules(10, False, tuple(FWD), tuple(FWD), tuple(DIAG), True, False, "quality", True, True),
    # §5: men step and capture forward or sideways; flying orthogonal kings; pieces leave at once.
    "turkish": Rules(8, None, (N, E, W), (N, E, W), ORTH, True, True, "quantity", False),
    # §3: men step diagonally forward, capture in 5 directions; short kings in 8 directions.
    "gothic-checkers": Rules(8, None, tuple(FWD), (N, (1, 1), (-1, 1), E, W), tuple(DIAG) + ORTH,
                             False, False, "quantity", True),
}
# Variants that other engines play: Brazilian is International on 8x8; Russian lets men capture
# backwards, free choice, a man crowned in a capture goes on as a king; pool checkers the same but
# the man goes on as a man; Czech: men capture forwards, a king's capture comes first. Antidraughts
# and breakthrough move exactly as International (only who wins differs).
RULES["brazilian"] = Rules(8, True, tuple(FWD), tuple(DIAG), tuple(DIAG), True, False, "quantity", False)
RULES["russian"] = Rules(8, True, tuple(FWD), tuple(DIAG), tuple(DIAG), True, False, "free", False,
                         crown_and_continue=True)
RULES["pool"] = Rules(8, True, tuple(FWD), tuple(DIAG), tuple(DIAG), True, False, "free", False)
RULES["czech"] = Rules(8, True, tuple(FWD), tuple(FWD), tuple(DIAG), True, False, "king first", True)
RULES["antidraughts"] = RULES["breakthrough"] = RULES["international"]
# Thai: as Czech, but free choice, pieces leave at once (a capture may turn back over the square
# it has emptied) and a king lands right behind each piece it takes.
RULES["thai"] = Rules(8, True, tuple(FWD), tuple(FWD), tuple(DIAG), True, True, "free", True,
                      turn_back=True, land_behind=True)
RULES["killer"] = Rules(10, True, tuple(FWD), tuple(DIAG), tuple(DIAG), True, False, "quantity", False,
                        killer=True)
# Italian: light-coloured playing squares (the near right corner is one), short kings, men
# capture forwards and never a king; the most pieces, then with a king, then the most kings,
# then the sequence that meets a king first.
RULES["italian"] = Rules(8, False, tuple(FWD), tuple(FWD), tuple(DIAG), False, False, "italian", True,
                         men_take_kings=False)
# Frisian: International, but men and kings capture along files and ranks too; the capture of
# the highest value (a king a little less than two men), at equal value a king's; one king at
# most three quiet moves in a row while its side has men. Frysk! is the same game.
RULES["frisian"] = RULES["frysk"] = Rules(
    10, True, tuple(FWD), tuple(DIAG) + ORTH2, tuple(DIAG), True, False, "value", False,
    king_captures=tuple(DIAG) + ORTH2, king_streak=3)
# Canadian: International on 12x12 (30 men each), numbered as International (1 = b12 ... 72 = k1).
RULES["canadian"] = Rules(12, True, tuple(FWD), tuple(DIAG), tuple(DIAG), True, False, "quantity", False)
CHECKERS_NUMBERING = ("checkers", "brazilian", "russian", "pool", "czech", "thai")
INTERNATIONAL_NUMBERING = ("international", "antidraughts", "breakthrough", "killer", "frisian", "frysk",
                           "canadian")
ALGEBRAIC = ("turkish", "gothic-checkers")


@lru_cache(maxsize=None)
def square_name(variant: str, f: int, r: int) -> str:
    """RULES.md numbering formulas, inverted by search (0-based file and rank)."""
    if variant in ALGEBRAIC:
        return "abcdefgh"[f] + str(r + 1)
    for n in range(1, 73):
        if number_to_coords(variant, n) == (f, r):
            return str(n)
    raise KeyError((f, r))


def number_to_coords(variant: str, n) -> tuple[int, int]:
    if variant in ALGEBRAIC:
        return "abcdefgh".index(n[0]), int(n[1:]) - 1
    if variant in INTERNATIONAL_NUMBERING:       # §4.1 (Canadian: the same on 12x12)
        size = RULES[variant].size
        r, k = divmod(n - 1, size // 2)
        rank = size - r
        file = 2 * k + 2 if rank % 2 == 0 else 2 * k + 1
        return file - 1, rank - 1
    if variant in CHECKERS_NUMBERING:            # §9.1
        r, k = divmod(n - 1, 4)
        rank = 8 - r
        file = 2 * k + 2 if rank % 2 == 0 else 2 * k + 1
        return file - 1, rank - 1
    if variant == "italian":                     # 1 = a8 ... 4 = g8, 5 = b7 ... 32 = h1
        r, k = divmod(n - 1, 4)
        rank = 7 - r
        return (2 * k if rank % 2 == 1 else 2 * k + 1), rank
    size = 8 if variant == "spanish" else 10     # §6.1, §2.1
    per = size // 2
    r, k = divmod(n - 1, per)
    rank = r + 1
    file = size - 2 * k if rank % 2 == 1 else size - 1 - 2 * k
    return file - 1, rank - 1


class Position:
    """pieces: {(file, rank): (colour, is_king)}; colour 0 = White (moves up), 1 = Black.
    streaks: per colour, (the square of the king that made its side's last quiet moves, how
    many in a row), or None (Frisian only)."""

    def __init__(self, variant: str, pieces: dict, turn: int, streaks=(None, None)):
        self.variant = variant
        self.rules = RULES[variant]
        self.pieces = dict(pieces)
        self.turn = turn
        self.streaks = tuple(streaks)

    def _has_men(self, colour) -> bool:
        return any(c == colour and not k for c, k in self.pieces.values())

    def _held_king(self):
        """The king that may not make another quiet move, or None."""
        streak = self.streaks[self.turn]
        if self.rules.king_streak and streak and streak[1] >= self.rules.king_streak \
                and self._has_men(self.turn):
            return streak[0]
        return None

    def on_board(self, f: int, r: int) -> bool:
        rules = self.rules
        if not (0 <= f < rules.size and 0 <= r < rules.size):
            return False
        if rules.dark is None:
            return True
        return ((f + r) % 2 == 0) == rules.dark

    def dirs(self, dirs, colour):
        return [(df, dr if colour == 0 else -dr) for df, dr in dirs]

    def far_row(self, colour: int) -> int:
        return self.rules.size - 1 if colour == 0 else 0

    # -- generation -----------------------------------------------------------------------------

    def legal_moves(self) -> list[tuple]:
        """Moves as (from, to, frozenset(captured), promotes)."""
        captures = self.captures()
        if captures:
            return captures
        return self.quiet_moves()

    def quiet_moves(self) -> list[tuple]:
        out = []
        held = self._held_king()
        for (f, r), (colour, king) in self.pieces.items():
            if colour != self.turn or (f, r) == held:
                continue
            if king:
                for df, dr in self.rules.king_dirs:
                    x, y = f + df, r + dr
                    while self.on_board(x, y) and (x, y) not in self.pieces:
                        out.append(((f, r), (x, y), frozenset(), False))
                        if not self.rules.flying:
                            break
                        x, y = x + df, y + dr
                if self.rules.lateral and r == self.far_row(colour):
                    for df in (2, -2):
                        if self.on_board(f + df, r) and (f + df, r) not in self.pieces:
                            out.append(((f, r), (f + df, r), frozenset(), False))
            else:
                for df, dr in self.dirs(self.rules.man_moves, colour):
                    x, y = f + df, r + dr
                    if self.on_board(x, y) and (x, y) not in self.pieces:
                        out.append(((f, r), (x, y), frozenset(), y == self.far_row(colour)))
        return out

    def captures(self) -> list[tuple]:
        sequences = []
        for sq, (colour, king) in self.pieces.items():
            if colour == self.turn:
                self._extend(sq, sq, king, [], None, sequences)
        if not sequences:
            return []
        prec = self.rules.precedence
        if prec == "king first" and any(self.pieces[s[0]][1] for s in sequences):
            sequences = [s for s in sequences if self.pieces[s[0]][1]]
        elif prec == "italian":
            def score(seq):
                caps = seq[2]
                kings = [i for i, c in enumerate(caps) if self.pieces[c][1]]
                return (len(caps), self.pieces[seq[0]][1], len(kings), -(kings[0] if kings else 99))
            best = max(score(s) for s in sequences)
            sequences = [s for s in sequences if score(s) == best]
        elif prec == "value":
            def score(seq):
                kings = sum(1 for c in seq[2] if self.pieces[c][1])
                men = len(seq[2]) - kings
                # A king is worth less than two men and more than one: compare men + 2 * kings
                # first, fewer kings at equal count; then a king's capture before a man's.
                return (men + 2 * kings, -kings, self.pieces[seq[0]][1])
            best = max(score(s) for s in sequences)
            sequences = [s for s in sequences if score(s) == best]
        elif prec in ("quantity", "quality"):
            def score(seq):
                caps = seq[2]
                kings = sum(1 for c in caps if self.pieces[c][1])
                return (len(caps), kings) if prec == "quality" else (len(caps),)
            best = max(score(s) for s in sequences)
            sequences = [s for s in sequences if score(s) == best]
        moves = {}
        for frm, to, caps, promote in sequences:
            moves[(frm, to, frozenset(caps))] = promote
        return [(frm, to, caps, promote) for (frm, to, caps), promote in moves.items()]

    def _blocked(self, sq, start, captured) -> bool:
        """Whether sq is occupied during the capture (the mover has left its start square)."""
        if sq == start:
            return False
        if sq not in self.pieces:
            return False
        if self.rules.immediate and sq in captured:
            return False
        return True

    def _extend(self, start, cur, king, captured, lastdir, out, crowned=False):
        colour = self.turn
        found = False
        king_dirs = self.rules.king_captures or self.rules.king_dirs
        dirs = king_dirs if king else self.dirs(self.rules.man_captures, colour)
        for df, dr in dirs:
            if self.rules.immediate and not self.rules.turn_back and lastdir == (-df, -dr):
                continue
            # Find the piece to jump.
            x, y = cur[0] + df, cur[1] + dr
            if king and self.rules.flying:
                while self.on_board(x, y) and not self._blocked((x, y), start, captured):
                    x, y = x + df, y + dr
            if not self.on_board(x, y) or not self._blocked((x, y), start, captured):
                continue
            victim = (x, y)
            if self.pieces[victim][0] == colour or victim in captured:
                continue
            if not king and not self.rules.men_take_kings and self.pieces[victim][1]:
                continue
            # Landing squares beyond it.
            landings = []
            x, y = x + df, y + dr
            while self.on_board(x, y) and not self._blocked((x, y), start, captured + [victim]):
                landings.append((x, y))
                if not (king and self.rules.flying) or self.rules.land_behind:
                    break
                x, y = x + df, y + dr
            if king and self.rules.flying and self.rules.precedence in ("free", "king first"):
                # A flying king that can capture again from some landing squares must use one.
                going_on = [land for land in landings
                            if self._can_capture_from(start, land, captured + [victim])]
                landings = going_on or landings
            for land in landings:
                found = True
                caps = captured + [victim]
                reaches_far_row = not king and land[1] == self.far_row(colour)
                if reaches_far_row and self.rules.stop_on_back_row:
                    out.append((start, land, caps, True))
                elif reaches_far_row and self.rules.crown_and_continue:
                    self._extend(start, land, True, caps, (df, dr), out, crowned=True)
                else:
                    self._extend(start, land, king, caps, (df, dr), out, crowned)
        if not found and captured:
            victim = captured[-1]
            if self.rules.killer and self.pieces[victim][1] and \
                    cur != (victim[0] + lastdir[0], victim[1] + lastdir[1]):
                return
            promote = crowned or (not king and cur[1] == self.far_row(colour))
            out.append((start, cur, captured, promote))

    def _can_capture_from(self, start, sq, captured) -> bool:
        """Whether a flying king on sq could jump a live enemy piece."""
        for df, dr in self.rules.king_captures or self.rules.king_dirs:
            x, y = sq[0] + df, sq[1] + dr
            while self.on_board(x, y) and not self._blocked((x, y), start, captured):
                x, y = x + df, y + dr
            if not self.on_board(x, y) or (x, y) in captured or self.pieces[(x, y)][0] == self.turn:
                continue
            bx, by = x + df, y + dr
            if self.on_board(bx, by) and not self._blocked((bx, by), start, captured):
                return True
        return False

    def play(self, move) -> "Position":
        frm, to, caps, promote = move
        pieces = dict(self.pieces)
        colour, king = pieces.pop(frm)
        for c in caps:
            del pieces[c]
        pieces[to] = (colour, king or promote)
        streaks = list(self.streaks)
        if self.rules.king_streak:
            after = Position(self.variant, pieces, 1 - self.turn)
            mine, theirs = streaks[colour], streaks[1 - colour]
            if theirs and (theirs[0] not in pieces or not pieces[theirs[0]][1]
                           or not after._has_men(1 - colour)):
                streaks[1 - colour] = None         # its king was taken, or it has no man left
            if king and not caps and after._has_men(colour):
                count = mine[1] + 1 if mine and mine[0] == frm else 1
                streaks[colour] = (to, count)
            else:
                streaks[colour] = None
        return Position(self.variant, pieces, 1 - self.turn, streaks)


def perft(pos: Position, depth: int) -> int:
    if depth == 0:
        return 1
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(pos.play(m), depth - 1) for m in moves)


def from_engine_board(board) -> Position:
    """Read an engine board through its public piece map (and Frisian's king streaks) only."""
    pieces = {}
    for square, symbol in board.piece_map().items():
        sym = symbol.split(".")[0]
        pieces[number_to_coords(board.variant, square)] = (0 if sym in "wW" else 1, sym.isupper())
    streaks = [None, None]
    for colour, streak in enumerate(board.counters.get("king_streak", (None, None))):
        if streak:
            streaks[colour] = (number_to_coords(board.variant, streak[0]), streak[1])
    return Position(board.variant, pieces, int(board.turn), streaks)


def move_key(variant: str, move) -> tuple:
    """(from, to, sorted captured) as square names, for comparing with engine moves."""
    frm, to, caps, _ = move
    def name(sq):
        text = square_name(variant, *sq)
        return text if variant in ALGEBRAIC else int(text)
    caps = sorted(caps, key=lambda sq: (sq[1], sq[0])) if variant in ALGEBRAIC else \
        sorted(caps, key=lambda sq: int(square_name(variant, *sq)))
    return (name(frm), name(to), tuple(name(c) for c in caps))
