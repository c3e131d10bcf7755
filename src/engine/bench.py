"""The fixed search benchmark behind ``python -m engine bench``.

Every implemented game is searched from fixed positions to a fixed depth with a fresh hash table.
The total node count is a signature of the search's behaviour: it changes only when a change to
the search, the move ordering or an evaluation changes what the search does."""

from __future__ import annotations

import time

from . import Board
from ._search import Engine

# (variant, FEN or None for the start position). Middle-game positions come from seeded random play.
POSITIONS = [
    ("international", None),
    ("international", "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"),
    ("international", "W:W16,26,32,34,35,38,39,40,41,42,43,44,45,46,47,48,49,50:"
                      "B1,2,3,4,5,6,7,8,9,10,13,14,15,20,22,24"),
    ("spanish", None),
    ("spanish", "W:W1,2,3,4,5,9,12,13:B14,20,22,25,26,27,29,31,32"),
    ("checkers", None),
    ("checkers", "B:W12,22,23,24,25,28,29,30,32:B1,2,3,4,5,6,9,11,21"),
    ("chapinas", None),
    ("turkish", None),
    ("turkish", "W:Wa2,c2,d2,e2,f2,h2,a3,c3,d3,f3,g3,h3,b4,h4,Ka8,Kf8:Bc5,c6,g6,h6,d7,g7,h7"),
    ("gothic-checkers", None),
    ("gothic-checkers", "W:Wc1,f1,h1,a2,d2,f2,h2,g3,d4:Bc6,a7,b7,e7,f7,g7,h7,b8,d8,f8"),
    ("dipole", None),
    ("dipole", "W:Wb2.3,e3.4,g3.2,d4.1:Bc5.2,f6.3,a7.4,d8.3"),
    ("dipole10", None),
    ("superajedrez", None),
    ("superajedrez", "r2qk2r/pp3ppp/2n1b3/3p4/3P4/2NB1N2/PP3PPP/R2QK2R[BPPbnpp] w KQkq - 0 9"),
    ("superdimensiones", "ICUWR"),
    ("superdimensiones", "6/1d2c1/d4c/1d1b1B/1c2bA/a1a3 a ICUWR - 0 0"),
    ("superdimensiones", "CC1cDd/dc2d1/A1c1db/AcbD2/AA2bb/AA1BB1 a IDUER - 0 0"),
]
# Positions whose tree grows too fast for the common depth are searched at most this deep (the
# Superajedrez start has 218 moves, nearly all placements).
MAX_DEPTH: dict[tuple[str, str | None], int] = {("superajedrez", None): 6}
DEFAULT_DEPTH = 10
DEFAULT_HASH_MB = 16


def run_bench(depth: int = DEFAULT_DEPTH, hash_mb: int = DEFAULT_HASH_MB, report=print) -> tuple[int, float]:
    """Search every position; returns (total nodes, seconds). ``report`` gets a line per position."""
    engine = Engine(hash_mb)
    total = 0
    elapsed = 0.0
    for variant, fen in POSITIONS:
        board = Board(variant, fen)
        engine.new_game()
        start = time.perf_counter()
        result = engine.search(board, depth=min(depth, MAX_DEPTH.get((variant, fen), depth)))
        seconds = time.perf_counter() - start
        total += result.nodes
        elapsed += seconds
        if report:
            report(f"{variant:<16} {result.nodes:>10} nodes {result.nodes / max(seconds, 1e-9):>11.0f} nps"
                   f"  {str(result.best_move):<10} {fen or 'start'}")
    return total, elapsed
