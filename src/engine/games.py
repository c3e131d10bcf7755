"""Every game the engine plays, one record each: the facts the front ends need.

The board classes know the rules; this table knows the rest (which protocol carries a game, how
its records are written, whether it has endgame tables or a learned evaluation). The front ends
(`uci`, `hub`, `match`, `openings`, `cli`, `selfplay`) read these records and keep no list of
games of their own, so a new game is its native module and a row here (`register`), or a
package of its own that names the module registering it under the entry-point group
``dimensiones.games`` (docs/adding-a-game.md): such modules are imported when the package is.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Optional

from ._draughts import DraughtsBoard, DraughtsTableSet, draughts_variants
from ._draughts_wide import DraughtsBoard as WideDraughtsBoard
from ._draughts_wide import draughts_variants as wide_draughts_variants
from ._game import game_perft, game_stop_perft
from ._stacks import StackBoard, StackTableSet, stack_variants
from ._superajedrez import SuperajedrezBoard, superajedrez_variants
from ._superdimensiones import (SuperDimensionesBoard, card_sets, start_fen,
                                superdimensiones_variants)
from .errors import UnknownVariantError
from .rulesets import DRAUGHTS_VARIANTS


@dataclass(frozen=True)
class Game:
    name: str                          # the variant name of NOTATION.md
    family: str                        # the native module that plays it
    board: type                        # Board(name, fen) of this class
    record: str = "PDN"                # game records: "PDN", or "PGN" with algebraic moves
    fmjd_results: bool = False         # results written 2-0 / 0-2 / 1-1 (10×10 draughts)
    hub: bool = False                  # the Hub protocol can carry its positions
    # The native table set of the game's endgame tables (variant name → a ProbeSource that also
    # answers egdb's questions about its slices), or None where no tables can be built.
    table_set: Any = None
    # A learned evaluation (weights.py: the draughts family's board regions, or the linear
    # model over the features the board's GameOps lists): self-play and training.
    learned: bool = False
    # Its learned evaluation is the board-region patterns (patterns.py: the draughts family's,
    # whose self-play files keep the boards as bitboards), not the linear model (linear.py).
    patterns: bool = False
    # Where a game has several starts (Super Dimensiones: one per card set), one drawn for a
    # self-play game or an evaluation match (rng -> FEN); None: the start position.
    random_start: Optional[Callable[[Any], str]] = None
    opening_check_depth: int = 6       # the search that checks random openings for balance
    # Other programs' names for it: the PDN standard's GameType number (0: none) and the Hub
    # protocol's name where it is not ours (Scan's "normal" for International draughts).
    pdn_game_type: int = 0
    hub_name: str = ""

    @property
    def tables(self) -> bool:
        """Whether endgame tables can be built (`engine.egdb`)."""
        return self.table_set is not None

    @property
    def title(self) -> str:
        return self.board(self.name).spec.title

    @property
    def start_fen(self) -> str:
        """The position a game of this variant starts from."""
        return self.board(self.name).fen()


GAMES: dict[str, Game] = {}
# The game a front end plays when it is told none (the protocols' and the command line's).
DEFAULT = "international"


def register(game: Game) -> None:
    """Add a game (or replace the record of one with the same name)."""
    GAMES[game.name] = game


def game(name: str) -> Game:
    """The record of a variant; UnknownVariantError names the known ones."""
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownVariantError(f"unknown variant {name!r} (known: {', '.join(GAMES)})") from None


def perft(board, depth: int) -> int:
    """Perft of a board of a registered game (by the family's own counter where its GameOps has
    one, `GameOps.perft`)."""
    game(board.variant)                 # UnknownVariantError for a board of no registered game
    return game_perft(board, depth)


def stop_perft() -> None:
    """Abandon every perft running in another thread (one flag for every family)."""
    game_stop_perft()


def by_pdn_game_type(number: int) -> Game | None:
    """The game a PDN file's ``GameType`` number names, or None."""
    return next((g for g in GAMES.values() if number and g.pdn_game_type == number), None)


def by_hub_name(name: str) -> Game | None:
    """The game a Hub engine calls `name` (its own name or the name Hub engines use)."""
    return GAMES.get(name) or next((g for g in GAMES.values() if g.hub_name == name), None)


def names(**facts) -> list[str]:
    """The games whose records have these facts, e.g. ``names(hub=True)``; all without any."""
    return [g.name for g in GAMES.values() if all(getattr(g, k) == v for k, v in facts.items())]


for _name in draughts_variants():
    _rules = DRAUGHTS_VARIANTS[_name]
    register(Game(_name, "draughts", DraughtsBoard, fmjd_results=_rules.size == 10,
                  # Chapinas' numbered pieces have no Hub square code.
                  hub=not _rules.numbered_pieces,
                  table_set=DraughtsTableSet if _rules.has_tables else None, learned=True,
                  patterns=True,
                  pdn_game_type=_rules.pdn_game_type, hub_name=_rules.hub_name))
# Boards of more than 64 bits (Canadian): the same code built on 128 bits; no tables.
for _name in wide_draughts_variants():
    _rules = DRAUGHTS_VARIANTS[_name]
    register(Game(_name, "draughts", WideDraughtsBoard, hub=True, learned=True, patterns=True,
                  pdn_game_type=_rules.pdn_game_type, hub_name=_rules.hub_name))
for _name in stack_variants():
    register(Game(_name, "stacks", StackBoard, table_set=StackTableSet, learned=True))
for _name in superajedrez_variants():
    # Some 200 moves a position, nearly all placements: a shallower balance check.
    register(Game(_name, "superajedrez", SuperajedrezBoard, record="PGN", opening_check_depth=4,
                  learned=True))
for _name in superdimensiones_variants():
    register(Game(_name, "superdimensiones", SuperDimensionesBoard, learned=True,
                  random_start=lambda rng: start_fen(rng.choice(card_sets()))))


# Games from other packages: each entry point of the group names a module whose import registers
# its games. One that fails to load is reported and skipped: the built-in games still play.
ENTRY_POINT_GROUP = "dimensiones.games"


def load_plugins() -> list[str]:
    """Import the game modules that installed packages name under ``dimensiones.games``; the
    names of those that loaded. The package runs it once its own names exist (the end of
    engine/__init__.py), so a plugin may import anything from `engine`."""
    loaded = []
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            importlib.import_module(entry.value)
        except Exception as error:  # a broken plugin must not take the engine down with it
            warnings.warn(f"game plugin {entry.name!r} ({entry.value}) failed to load: {error}",
                          RuntimeWarning, stacklevel=2)
        else:
            loaded.append(entry.name)
    return loaded
