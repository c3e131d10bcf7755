"""Small value types shared by every game: sides, why a game ended, and its outcome."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Color(enum.IntEnum):
    WHITE = 0
    BLACK = 1

    def __invert__(self) -> "Color":
        return Color(1 - self.value)

    def __str__(self) -> str:
        return self.name.lower()


WHITE = Color.WHITE
BLACK = Color.BLACK


class Termination(enum.Enum):
    """Why a game ended. The values match the native status codes."""

    NO_PIECES = 1           # the side to move has no pieces left
    NO_MOVES = 2            # the side to move has no legal move
    REPETITION = 3          # the same position for the third time, same side to move
    KING_MOVES = 4          # too many plies without capture and without man move
    CAPTURE_LIMIT = 5       # too many plies without capture (checkers)
    SIXTEEN_MOVES = 6       # FMJD: 3 pieces with a king against a lone king, 16 moves each
    FIVE_MOVES = 7          # FMJD: up to 2 pieces with a king against a lone king, 5 moves each
    FORZOSA = 8             # Spanish family: 3 kings v 1 king not won within 12 moves each
    SAQUE_DE_PEON = 9       # Spanish: the Saque de peon ending not won within 32 moves each
    LONE_PIECE = 10         # Turkish: one piece against two or more with a king loses
    ONE_AGAINST_ONE = 11    # Turkish: one piece each, no capture: draw
    CHECKMATE = 12          # Superajedrez: in check with no legal move
    STALEMATE = 13          # Superajedrez: not in check, no legal move: draw
    INSUFFICIENT_MATERIAL = 14
    FIFTY_MOVES = 15        # Superajedrez: 50 moves each without capture, pawn move or placement
    SUB_GAMES = 16          # Super Dimensiones: both sub-games have ended
    FIRST_KING = 17         # breakthrough: the other side crowned a king first
    GAME_RULE = 18          # a rule of a game added by another package (Outcome.detail says which)
    SEVEN_MOVES = 19        # Frisian: two kings against one not won within 7 moves each

    @property
    def description(self) -> str:
        return _DESCRIPTIONS[self]


_DESCRIPTIONS = {
    Termination.NO_PIECES: "no pieces left",
    Termination.NO_MOVES: "no legal move",
    Termination.REPETITION: "threefold repetition",
    Termination.KING_MOVES: "move limit without capture or man move",
    Termination.CAPTURE_LIMIT: "move limit without capture",
    Termination.SIXTEEN_MOVES: "16-move endgame rule",
    Termination.FIVE_MOVES: "5-move endgame rule",
    Termination.FORZOSA: "Forzosa (3 kings against 1 not won in 12 moves)",
    Termination.SAQUE_DE_PEON: "Saque de peon not won in 32 moves",
    Termination.LONE_PIECE: "one piece against two or more with a king",
    Termination.ONE_AGAINST_ONE: "one piece against one",
    Termination.CHECKMATE: "checkmate",
    Termination.STALEMATE: "stalemate",
    Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    Termination.FIFTY_MOVES: "50 moves without capture, pawn move or placement",
    Termination.SUB_GAMES: "both sub-games ended",
    Termination.FIRST_KING: "a king crowned",
    Termination.SEVEN_MOVES: "two kings against one not won in 7 moves",
    Termination.GAME_RULE: "a rule of the game",
}


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended. ``winner`` is None for a draw. ``values`` holds the sums of
    piece numbers when a Chapinas draw was decided by them (White's, Black's). ``subgames``
    holds Super Dimensiones' two sub-game results (A, B), each '1' or '2' (the player who won
    it) or '=' (drawn); the winner is then the player with more points."""

    termination: Termination
    winner: Color | None
    values: tuple[int, int] | None = None
    subgames: tuple[str, str] | None = None
    detail: str | None = None       # what ended it, in words, where the termination is general

    def points(self) -> tuple[float, float] | None:
        """Super Dimensiones: each player's points, one per sub-game won, half per draw."""
        if self.subgames is None:
            return None
        first, second = (sum(1.0 if r == p else 0.5 if r == "=" else 0.0 for r in self.subgames)
                         for p in ("1", "2"))
        return first, second

    def result(self) -> str:
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == Color.WHITE else "0-1"

    def reason(self) -> str:
        text = self.termination.description
        if self.detail is not None:
            text += f": {self.detail}"
        if self.values is not None:
            text += f", decided by piece values {self.values[0]}-{self.values[1]}"
        if self.subgames is not None:
            said = {"1": "won by player 1", "2": "won by player 2", "=": "drawn"}
            p1, p2 = self.points() or (0.0, 0.0)
            text += (f": sub-game A {said[self.subgames[0]]}, sub-game B "
                     f"{said[self.subgames[1]]}; points {p1:g}-{p2:g}")
        return text
