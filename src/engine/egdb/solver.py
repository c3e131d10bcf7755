"""The exact result of a position: from the tables where they hold it (with the line that
keeps the distance), else from a search."""

from __future__ import annotations

from dataclasses import dataclass, field

from .tables import Probe, Tables


# -- solving ----------------------------------------------------------------------------------

@dataclass
class Solution:
    """What ``solve`` found for the side to move.

    ``result``: 'win', 'draw', 'loss' or 'unknown'; ``plies``: to the end of the game with best
    play (exact from the tables; from a search, the length of the forced line it found);
    ``best_move`` and ``line`` (the best line, to the end for a win or loss); ``source``:
    'tables', 'search' or 'game over'."""

    result: str
    plies: int | None
    best_move: object
    line: list = field(default_factory=list)
    source: str = "tables"

    @property
    def moves(self) -> int | None:
        return None if self.plies is None else (self.plies + 1) // 2

    def __str__(self) -> str:
        if self.result == "unknown":
            head = "unknown (not in the tables; the search proved nothing within its time)"
        elif self.result == "draw":
            head = f"draw ({self.source})"
        elif self.plies is None:
            head = f"{self.result} ({self.source}; the distance is not known)"
        else:
            exact = "" if self.source == "tables" else "at most "
            head = (f"{self.result} in {exact}{self.plies} plies ({self.moves} moves, "
                    f"{self.source})")
        text = head
        if self.best_move is not None:
            text += f"\nbest move: {self.best_move}"
        if self.line:
            text += "\nline: " + " ".join(str(m) for m in self.line)
        return text


DRAW_LINE_PLIES = 20


def _table_line(board, tables: Tables, probe: Probe) -> list:
    """Follow the tables from board (left unchanged): the winner shortens, the loser lengthens,
    a draw keeps the draw. A draw's line stops after DRAW_LINE_PLIES plies."""
    line: list[str] = []
    copy = board.copy()
    current = probe
    while current.result != "draw" and current.plies > 0 or \
            current.result == "draw" and len(line) < DRAW_LINE_PLIES:
        found = tables.best_move(copy, current)
        if found is None:
            break
        choice, current = found
        line.append(choice)
        copy.push(choice)
    return line


def solve(board, tables: Tables | None = None, movetime: float = 5.0, engine=None) -> Solution:
    """The exact value of ``board`` for the side to move: from the tables when they hold it
    (with the best line to the end), else from a search with the tables at its leaves that
    answers 'win'/'loss' when it finds a forced result within ``movetime`` seconds and
    'unknown' otherwise (a search cannot prove a draw)."""
    from .._search import TABLE_WIN_BOUND, Engine

    outcome = board.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return Solution("draw", 0, None, [], "game over")
        return Solution("win" if outcome.winner == board.turn else "loss", 0, None, [],
                        "game over")
    if tables is not None:
        found = tables.probe(board)
        if found is not None:
            line = _table_line(board, tables, found)
            return Solution(found.result, found.plies, line[0] if line else None, line, "tables")
    searcher = engine or Engine(hash_mb=64)
    if tables is not None:
        searcher.tablebases = tables
    try:
        result = searcher.search(board, movetime=movetime)
    finally:
        if tables is not None and engine is None:
            searcher.tablebases = None
    if result.mate is None and abs(result.score) > TABLE_WIN_BOUND and tables is not None:
        # Won or lost where compressed tables took over: the distance is the line's length
        # plus the tables' distance from its end.
        end = board.copy()
        for move in result.pv:
            end.push(move)
        found = tables.probe(end) if end.outcome() is None else None
        if found is not None and found.result != "draw":
            line = list(result.pv) + _table_line(end, tables, found)
            return Solution("win" if result.score > 0 else "loss", len(result.pv) + found.plies,
                            result.best_move, line, "search")
        return Solution("win" if result.score > 0 else "loss", None, result.best_move,
                        result.pv, "search")
    if result.mate is None:
        return Solution("unknown", None, result.best_move, result.pv, "search")
    plies = 2 * abs(result.mate) - 1 if result.mate > 0 else 2 * abs(result.mate)
    line = list(result.pv)
    if tables is not None:
        # The search's line stops where the tables take over: follow them to the end.
        end = board.copy()
        for move in line:
            end.push(move)
        found = tables.probe(end) if end.outcome() is None else None
        if found is not None and found.result != "draw":
            line += _table_line(end, tables, found)
    return Solution("win" if result.mate > 0 else "loss", plies, result.best_move, line,
                    "search")
