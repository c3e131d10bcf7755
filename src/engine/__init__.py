"""Dimensiones: one engine for a family of board games.

    >>> import engine
    >>> board = engine.Board("international")
    >>> engine.perft(board, 3)
    658
"""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING

# The board classes are public names too (engine.DraughtsBoard for isinstance and typing).
from ._draughts import DraughtsBoard, DraughtsMove  # noqa: F401
from ._draughts_wide import DraughtsMove as _WideDraughtsMove
from ._game import GameBoard
from ._search import Engine
from ._stacks import StackBoard, StackMove  # noqa: F401
from ._superajedrez import SuperajedrezBoard, SuperajedrezMove  # noqa: F401
from ._superdimensiones import SuperDimensionesBoard, SuperDimensionesMove  # noqa: F401
from .analysis import PVLine, SearchInfo, SearchResult
from .errors import EngineError, IllegalMoveError, InvalidFenError, PerftStopped, UnknownVariantError
from . import games as _games
from .games import GAMES, game
from .games import perft as _perft, stop_perft as _stop_perft
from .types import BLACK, WHITE, Color, Outcome, Termination

__all__ = [
    "solve", "Board", "Move", "variants", "perft", "divide", "Engine", "SearchResult", "SearchInfo", "PVLine", "Color", "WHITE", "BLACK", "Outcome",
    "Termination", "EngineError", "IllegalMoveError", "InvalidFenError", "UnknownVariantError",
    "PerftStopped", "stop_perft",
]
__version__ = "0.1.0"


def variants() -> list[str]:
    """The names of the implemented variants (NOTATION.md), in the order of `engine.games`."""
    return list(GAMES)


if TYPE_CHECKING:
    # To a type checker every board is a GameBoard: what all the families share (_game.pyi).
    from ._game import GameBoard as Board
else:
    class Board(metaclass=abc.ABCMeta):
        """``Board(variant, fen=None)``: a game of ``variant`` from its start position or from
        ``fen``.

        The object returned is the board class of the variant's family (``isinstance(b, Board)``
        holds for all of them, and for the boards of games added by other packages)."""

        @classmethod
        def __subclasshook__(cls, other):
            return True if issubclass(other, GameBoard) else NotImplemented

        def __new__(cls, variant: str = "international", fen: str | None = None):
            return game(variant).board(variant, fen)


class Move(metaclass=abc.ABCMeta):
    """The move classes of every family (``isinstance(m, Move)`` holds for all of them)."""

    def __new__(cls, *args, **kwargs):
        raise TypeError("moves come from Board.legal_moves() or Board.parse_move()")



Move.register(DraughtsMove)
Move.register(_WideDraughtsMove)
Move.register(StackMove)
Move.register(SuperajedrezMove)
Move.register(SuperDimensionesMove)


def solve(board, tables=None, movetime: float = 5.0):
    """The exact value of ``board`` for the side to move (engine.egdb.solve): from endgame
    tables (``engine.egdb.Tables``) when they hold it, else a proving search."""
    from .egdb import solve as _solve
    return _solve(board, tables, movetime)


def perft(board, depth: int) -> int:
    """The number of legal move sequences of length ``depth`` from ``board`` (NOTATION.md)."""
    if not isinstance(board, Board):
        raise TypeError(f"perft needs a Board, not {type(board).__name__}")
    return _perft(board, depth)


def stop_perft() -> None:
    """Abandon any perft running in another thread: it raises PerftStopped (safe from any
    thread; a perft started later runs normally)."""
    _stop_perft()


def divide(board, depth: int) -> dict[str, int]:
    """``{move string: perft after that move}`` for each legal move: perft split by first move."""
    if depth < 1:
        raise ValueError("divide depth must be 1 or more")
    out = {}
    for move in board.legal_moves():
        board.push(move)
        try:
            out[str(move)] = perft(board, depth - 1)
        finally:
            board.pop()
    return out


# The learned evaluations that ship with the package replace the hand-set ones at import.
from . import weights as _weights  # noqa: E402

_weights.load_shipped()


# Games of other packages register last, so that they can import anything above.
_games.load_plugins()
