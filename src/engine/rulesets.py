"""The rule sets of the draughts family, as data (RULES.md §10).

A variant is one row of parameters: board, square numbering, how men and kings move and capture,
the capture precedence, what happens to a man that reaches the back row during a capture, and
which draw rules apply. The native generator reads these rows; adding a rule set of the same
family is adding a row here, not writing a generator.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from .geometry import E, E2, N, N2, NE, NW, S, S2, SE, SW, W, W2, Geometry, algebraic, build_geometry

# Capture precedence: free choice; the most pieces; the most pieces, then the most kings
# (Spanish); a king's capture before a man's, then free choice (Czech); the most pieces, then
# with a king, then the most kings, then the king taken earliest (Italian); the highest value,
# a king worth a little less than two men, then with a king (Frisian).
FREE, QUANTITY, QUALITY, KING_FIRST, ITALIAN, VALUE = 0, 1, 2, 3, 4, 5
# A man that reaches the far row in the middle of a capture: stops there and is crowned; goes
# on capturing as a man (crowned only if it ends there); is crowned at once and goes on
# capturing as a king (Russian).
STOP, CONTINUE_AS_MAN, CONTINUE_AS_KING = 0, 1, 2
# How a game is won: the player who cannot move loses (every classic variant); the player who
# cannot move wins (antidraughts, "losing"); the first player to crown a king wins
# (breakthrough).
NORMAL, LOSING, FIRST_KING = 0, 1, 2


def _fmjd_number(n: int, size: int = 10) -> tuple[int, int]:
    """International numbering: 1 = b10 … 5 = j10, 6 = a9 … 46 = a1, 50 = i1 (RULES.md §4.1);
    on 12x12 (Canadian) the same, 1 = b12 … 67 = a1, 72 = k1."""
    r, k = divmod(n - 1, size // 2)
    rank = size - 1 - r                            # 0-based rank
    file = 2 * k + 1 if (rank + 1) % 2 == 0 else 2 * k
    return file, rank


def _english_number(n: int) -> tuple[int, int]:
    """Checkers numbering: 1 = b8 … 4 = h8, 5 = a7 … 29 = a1, 32 = g1 (RULES.md §9.1)."""
    r, k = divmod(n - 1, 4)
    rank = 7 - r
    file = 2 * k + 1 if (rank + 1) % 2 == 0 else 2 * k
    return file, rank


def _italian_number(n: int) -> tuple[int, int]:
    """Italian numbering on the board whose near right corner is playable: 1 = a8 (Black's
    right-hand corner), 4 = g8, 5 = b7 ... 32 = h1 (White's), left to right, top to bottom."""
    r, k = divmod(n - 1, 4)
    rank = 7 - r
    file = 2 * k if rank % 2 == 1 else 2 * k + 1
    return file, rank


def _spanish_number(size: int) -> Callable[[int], tuple[int, int]]:
    """Spanish family numbering: 1 = the right-hand corner of White's first rank, counting
    right-to-left along each rank, rank by rank upwards (RULES.md §6.1, §2.1)."""
    per_row = size // 2

    def number(n: int) -> tuple[int, int]:
        r, k = divmod(n - 1, per_row)
        rank1 = r + 1
        file1 = size - 2 * k if rank1 % 2 == 1 else size - 1 - 2 * k
        return file1 - 1, r

    return number


@dataclass
class DraughtsVariant:
    name: str
    title: str
    size: int
    colour: str                       # playable squares: "dark", "light" or "all"
    numbering: Callable[[int], tuple[int, int]] | None   # None = algebraic square names
    start_fen: str
    first_player: int                 # 0 White, 1 Black
    man_move_dirs: tuple[int, ...]    # for White; Black uses the mirror image
    man_capture_dirs: tuple[int, ...]
    king_dirs: tuple[int, ...]
    flying_kings: bool
    precedence: int
    promotion_in_capture: int
    king_capture_dirs: tuple[int, ...] = ()   # when kings capture along more lines than they
                                              # move (Frisian); () = king_dirs
    king_streak: int = 0              # Frisian: quiet moves one king may make in a row while
                                      # its side has men (0 = no limit)
    immediate_removal: bool = False   # Turkish, Thai: pieces taken leave the board at once
    turn_back: bool = False           # Thai: under immediate removal a capture may reverse (not Turkish)
    land_behind: bool = False         # Thai: a flying king lands right behind the piece it takes
    lateral_king_move: bool = False   # Chapinas' special move along the far row
    numbered_pieces: bool = False     # Chapinas' piece numbers 0-19
    max_pieces: int = 20              # per side; more is an impossible position
    # Draw rules, in plies (0 = rule not used).
    king_moves_limit: int = 0         # plies without capture and without man move
    capture_limit: int = 0            # plies without capture
    fmjd_endgames: bool = False       # FMJD 16- and 5-move endgame rules
    forzosa: bool = False             # 3 kings v 1 king with a king on the main diagonal
    saque_de_peon: bool = False
    value_tiebreak: bool = False      # Chapinas: draws decided by the sum of piece numbers
    turkish_endings: bool = False     # lone-piece loss, one-against-one draw
    frisian_endings: bool = False     # two kings v one: 7 moves each; one king v one: drawn
    main_diagonal: tuple[int, ...] = ()
    win_rule: int = NORMAL
    killer: bool = False              # a capture whose last piece taken is a king ends right behind it
    men_take_kings: bool = True       # False in Italian draughts
    has_tables: bool = True           # endgame tables (which assume that no move loses)
    # Scan's selectivity in the search (ProbCut and early reductions, Engine switches on by
    # default): kept where self-play shows it gains or does not lose, off where it loses
    # (docs/results.md: International, checkers, Russian, Italian, Brazilian, Thai gain; the
    # other rows do not lose; Turkish and breakthrough lose).
    selective_search: bool = True
    # How other programs name the game: the PDN standard's GameType number (0: it has none) and
    # the Hub protocol's name where it is not this project's (Scan's "normal" for International).
    # A row made from another with `replace` names its own (see `_register`).
    pdn_game_type: int = 0
    hub_name: str = ""

    def __post_init__(self) -> None:
        self.geometry: Geometry = build_geometry(self.size, self.colour)
        g = self.geometry
        self.square_names: dict[int, str] = {}    # bit -> external name
        if self.numbering is None:
            for b, (f, r) in g.coords.items():
                self.square_names[b] = algebraic(f, r)
        else:
            for n in range(1, len(g.coords) + 1):
                f, r = self.numbering(n)
                self.square_names[g.bit_at[(f, r)]] = str(n)
        assert len(self.square_names) == len(g.coords)
        self.bit_of: dict[str, int] = {v: k for k, v in self.square_names.items()}
        # Canonical output order: numbers ascending; algebraic by rank, then file.
        self.order_key: Callable[[int], tuple[int, int]]
        if self.numbering is None:
            self.order_key = lambda b: (g.coords[b][1], g.coords[b][0])
        else:
            self.order_key = lambda b: (int(self.square_names[b]), 0)

    @property
    def numbered(self) -> bool:
        return self.numbering is not None

    def square_bit(self, name: str) -> int:
        return self.bit_of[name]


def _chapinas_start() -> str:
    num = _spanish_number(10)
    # Piece numbers 0-19 "from left to right and bottom to top", each side from its own view.
    white = sorted(range(1, 21), key=lambda n: (num(n)[1], num(n)[0]))
    black = sorted(range(31, 51), key=lambda n: (-num(n)[1], -num(n)[0]))
    wn = {sq: i for i, sq in enumerate(white)}
    bn = {sq: i for i, sq in enumerate(black)}
    w = ",".join(f"{sq}.{wn[sq]}" for sq in range(1, 21))
    b = ",".join(f"{sq}.{bn[sq]}" for sq in range(31, 51))
    return f"W:W{w}:B{b}"


FORWARD = (NE, NW)
DIAGONALS = (NE, NW, SE, SW)

DRAUGHTS_VARIANTS: dict[str, DraughtsVariant] = {}


def _register(v: DraughtsVariant) -> None:
    for other in DRAUGHTS_VARIANTS.values():
        # A row copied from another keeps its names unless it gives its own: two games under
        # one PDN number or Hub name would read each other's files.
        if v.pdn_game_type and v.pdn_game_type == other.pdn_game_type or \
                v.hub_name and v.hub_name == other.hub_name:
            raise ValueError(f"{v.name}: {other.name} already has GameType "
                             f"{other.pdn_game_type} / Hub name {other.hub_name!r}")
    DRAUGHTS_VARIANTS[v.name] = v


_register(DraughtsVariant(
    name="international", title="International draughts (FMJD)", size=10, colour="dark",
    numbering=_fmjd_number, start_fen="W:W31-50:B1-20", first_player=0,
    man_move_dirs=FORWARD, man_capture_dirs=DIAGONALS, king_dirs=DIAGONALS, flying_kings=True,
    precedence=QUANTITY, promotion_in_capture=CONTINUE_AS_MAN,
    king_moves_limit=50, fmjd_endgames=True,
    pdn_game_type=20, hub_name="normal",
))
_register(DraughtsVariant(
    name="spanish", title="Spanish draughts", size=8, colour="light",
    numbering=_spanish_number(8), start_fen="W:W1-12:B21-32", first_player=0,
    man_move_dirs=FORWARD, man_capture_dirs=FORWARD, king_dirs=DIAGONALS, flying_kings=True,
    precedence=QUALITY, promotion_in_capture=STOP, max_pieces=12,
    king_moves_limit=100, forzosa=True, saque_de_peon=True,
    main_diagonal=(1, 5, 10, 14, 19, 23, 28, 32),
    pdn_game_type=24,
))
_register(DraughtsVariant(
    name="checkers", title="English/American checkers", size=8, colour="dark",
    numbering=_english_number, start_fen="B:W21-32:B1-12", first_player=1,
    man_move_dirs=FORWARD, man_capture_dirs=FORWARD, king_dirs=DIAGONALS, flying_kings=False,
    precedence=FREE, promotion_in_capture=STOP, max_pieces=12,
    capture_limit=100,
    pdn_game_type=21,
))
_register(DraughtsVariant(
    name="chapinas", title="Damas Chapinas GT502", size=10, colour="light",
    numbering=_spanish_number(10), start_fen=_chapinas_start(), first_player=0,
    man_move_dirs=FORWARD, man_capture_dirs=FORWARD, king_dirs=DIAGONALS, flying_kings=True,
    precedence=QUALITY, promotion_in_capture=STOP, lateral_king_move=True, numbered_pieces=True,
    king_moves_limit=50, forzosa=True, value_tiebreak=True,
    main_diagonal=(1, 6, 12, 17, 23, 28, 34, 39, 45, 50),
))

def _rows(ranks: tuple[int, ...]) -> str:
    return ",".join(f"{f}{r}" for r in ranks for f in "abcdefgh")


_register(DraughtsVariant(
    name="turkish", title="Turkish draughts (Dama)", size=8, colour="all",
    numbering=None, start_fen=f"W:W{_rows((2, 3))}:B{_rows((6, 7))}", first_player=0,
    man_move_dirs=(N, E, W), man_capture_dirs=(N, E, W), king_dirs=(N, S, E, W),
    flying_kings=True, precedence=QUANTITY, promotion_in_capture=CONTINUE_AS_MAN,
    immediate_removal=True, max_pieces=16, king_moves_limit=100, turkish_endings=True,
    selective_search=False, pdn_game_type=30,
))
_register(DraughtsVariant(
    name="gothic-checkers", title="Gothic checkers (Altdeutsche Dame)", size=8, colour="all",
    numbering=None, start_fen=f"W:W{_rows((1, 2))}:B{_rows((7, 8))}", first_player=0,
    man_move_dirs=(NE, NW), man_capture_dirs=(N, NE, NW, E, W),
    king_dirs=(NE, NW, SE, SW, N, S, E, W), flying_kings=False, precedence=QUANTITY,
    promotion_in_capture=STOP, max_pieces=16, king_moves_limit=100,
))


# Variants that other engines play (issue: every draughts variant as a row of the table).
# 8x8 boards with the FMJD-style numbering (1 = b8 ... 32 = g1, as English checkers), White on
# 21-32; docs/rules-notes.md says where each rule comes from.
# Each row below differs from International draughts (10x10) or Brazilian draughts (International
# rules on 8x8) in the fields it names.
_INTERNATIONAL = DRAUGHTS_VARIANTS["international"]
_BRAZILIAN = replace(
    _INTERNATIONAL, name="brazilian", title="Brazilian draughts (International rules on 8x8)",
    size=8, numbering=_english_number, start_fen="W:W21-32:B1-12", max_pieces=12,
    pdn_game_type=26, hub_name="")
_register(_BRAZILIAN)
_register(replace(
    _BRAZILIAN, name="russian", title="Russian draughts (shashki)", precedence=FREE,
    promotion_in_capture=CONTINUE_AS_KING, king_moves_limit=30, fmjd_endgames=False,
    pdn_game_type=25))
_register(replace(
    _BRAZILIAN, name="pool", title="American pool checkers", start_fen="B:W21-32:B1-12",
    first_player=1, precedence=FREE, king_moves_limit=0, capture_limit=100, fmjd_endgames=False,
    pdn_game_type=23))
_register(replace(
    _BRAZILIAN, name="czech", title="Czech draughts", man_capture_dirs=FORWARD,
    precedence=KING_FIRST, promotion_in_capture=STOP, king_moves_limit=30, fmjd_endgames=False,
    pdn_game_type=29))
_register(replace(
    DRAUGHTS_VARIANTS["czech"], name="thai", title="Thai draughts (mak-hot)", precedence=FREE,
    immediate_removal=True, turn_back=True, land_behind=True, pdn_game_type=31))
_register(DraughtsVariant(
    name="italian", title="Italian draughts (dama italiana)", size=8, colour="light",
    numbering=_italian_number, start_fen="W:W21-32:B1-12", first_player=0,
    man_move_dirs=FORWARD, man_capture_dirs=FORWARD, king_dirs=DIAGONALS, flying_kings=False,
    precedence=ITALIAN, promotion_in_capture=STOP, max_pieces=12, men_take_kings=False,
    capture_limit=100,
    pdn_game_type=22,
))
_register(replace(
    _INTERNATIONAL, name="killer",
    title="Killer draughts (International; a king taken last stops the capture)", killer=True,
    pdn_game_type=0, hub_name=""))
_register(replace(
    _INTERNATIONAL, name="antidraughts",
    title="Antidraughts (International rules; who cannot move wins)", fmjd_endgames=False,
    win_rule=LOSING, has_tables=False, pdn_game_type=0, hub_name="losing"))
_register(replace(
    _INTERNATIONAL, name="breakthrough",
    title="Breakthrough draughts (International rules; the first king wins)", king_moves_limit=0,
    fmjd_endgames=False, win_rule=FIRST_KING, has_tables=False, pdn_game_type=0, hub_name="bt",
    selective_search=False))          # ProbCut and early reductions lose here (results.md)
# Frisian: men and kings capture along the files and ranks too (over the next square of their
# colour: two squares along a line), the highest value first, a king limited to three quiet moves
# in a row while its side has men. Frysk! is Frisian with five men each on the back row.
_FRISIAN = replace(
    _INTERNATIONAL, name="frisian", title="Frisian draughts",
    man_capture_dirs=DIAGONALS + (E2, W2, N2, S2), king_capture_dirs=DIAGONALS + (E2, W2, N2, S2),
    precedence=VALUE, king_streak=3, king_moves_limit=0, fmjd_endgames=False,
    frisian_endings=True, has_tables=False, pdn_game_type=40, hub_name="")
_register(_FRISIAN)
_register(replace(
    _FRISIAN, name="frysk", title="Frysk! (Frisian draughts with five men each)",
    start_fen="W:W46-50:B1-5", max_pieces=5, pdn_game_type=0))
# Canadian: International rules on 12x12, 30 men each (the board needs the 128-bit build of the
# generator, _draughts_wide). No endgame tables.
_register(replace(
    _INTERNATIONAL, name="canadian", title="Canadian draughts (International rules on 12x12)",
    size=12, numbering=lambda n: _fmjd_number(n, 12), start_fen="W:W43-72:B1-30", max_pieces=30,
    fmjd_endgames=False, has_tables=False, pdn_game_type=27, hub_name=""))


@dataclass
class StackVariant:
    """A stack game on the dark squares (Dipole, RULES.md §8)."""

    name: str
    title: str
    size: int
    checkers: int                     # per side, all in one stack at the start
    start_fen: str
    first_player: int = 0


STACK_VARIANTS: dict[str, StackVariant] = {
    "dipole": StackVariant("dipole", "Dipole", 8, 12, "W:We1.12:Bd8.12"),
    "dipole10": StackVariant("dipole10", "Dipole on 10x10", 10, 20, "W:We1.20:Bf10.20"),
}
