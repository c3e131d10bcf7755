"""The Hub protocol's strings that both sides read and write: the engine's front end (`hub.py`)
and the referee (`clients.py`, `match.py`).

A position is the side to move (``W`` or ``B``) followed by one letter per square in the
variant's square order (``w b W B e``: white man, black man, white king, black king, empty).
Square order is the numbers ascending, or a1, b1, ... h8 where squares have algebraic names.
"""

from __future__ import annotations

from . import Board
from .errors import EngineError, quote



def square_order(board) -> list:
    """The variant's squares in Hub order: numbers ascending, or a1, b1, ... h8."""
    spec = board.spec
    bits = sorted(spec.square_names, key=spec.order_key)
    return [spec.square_names[b] for b in bits]


def position_string(board) -> str:
    pieces = board.piece_map()
    chars = []
    for name in square_order(board):
        key = int(name) if board.spec.numbered else name
        chars.append(pieces.get(key, "e")[0])
    return ("W" if int(board.turn) == 0 else "B") + "".join(chars)


def board_from_position(variant: str, text: str) -> Board:
    board = Board(variant)
    squares = square_order(board)
    if len(text) != len(squares) + 1 or text[0] not in "WB":
        raise EngineError(f"position {quote(text)}: expected W or B and {len(squares)} squares")
    lists: dict[str, list[str]] = {"w": [], "b": []}
    for name, char in zip(squares, text[1:]):
        if char not in "wbWBe":
            raise EngineError(f"position {quote(text)}: unknown square letter {char!r}")
        if char != "e":
            lists[char.lower()].append(("K" if char.isupper() else "") + name)
    board.set_fen(f"{text[0]}:W{','.join(lists['w'])}:B{','.join(lists['b'])}")
    return board
