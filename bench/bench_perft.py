"""Move-generator benchmarks (pytest-benchmark). Run: python -m pytest bench/bench_perft.py

Each benchmark records leaves per second in `extra_info` so that runs can be compared."""

import pytest

import engine

CASES = [
    ("international", None, 7),
    ("international", "W:WK31-K50:BK1-K20", 5),
    ("checkers", None, 9),
    ("spanish", None, 9),
    ("chapinas", None, 7),
    ("turkish", None, 7),
    ("turkish", "W:WKa1,Kh1,c3,d3,e3:BKa8,Kh8,c6,d6,e6", 5),
    ("gothic-checkers", None, 6),
    ("dipole", None, 5),
    ("dipole", "W:Wb2.3,e3.4,g3.2,d4.1:Bc5.2,f6.3,a7.4,d8.3", 4),
    ("dipole10", None, 4),
    ("superajedrez", None, 3),
    ("superajedrez", "r2qk2r/pp3ppp/2n1b3/3p4/3P4/2NB1N2/PP3PPP/R2QK2R[BPPbnpp] w KQkq - 0 9", 3),
    ("superdimensiones", "IDUWR", 7),
    ("superdimensiones", "6/1d2c1/d4c/1d1b1B/1c2bA/a1a3 a ICUWR - 0 0", 10),
    ("superdimensiones", "CC1cDd/dc2d1/A1c1db/AcbD2/AA2bb/AA1BB1 a IDUER - 0 0", 7),
]


@pytest.mark.parametrize("variant,fen,depth", CASES)
def test_perft(benchmark, variant, fen, depth):
    board = engine.Board(variant, fen)
    leaves = benchmark(engine.perft, board, depth)
    benchmark.extra_info["leaves"] = leaves
    benchmark.extra_info["leaves_per_second"] = leaves / benchmark.stats.stats.mean


def python_perft(board, depth):
    """perft written against the public API, counting the last ply in bulk."""
    if depth == 1:
        return len(board.legal_moves())
    total = 0
    for move in board.legal_moves():
        board.push(move)
        total += python_perft(board, depth - 1)
        board.pop()
    return total


def test_python_api_loop(benchmark):
    board = engine.Board("international")
    leaves = benchmark(python_perft, board, 5)
    benchmark.extra_info["leaves_per_second"] = leaves / benchmark.stats.stats.mean
