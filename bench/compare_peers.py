"""Side-by-side perft against dame-rs (PyPI `dame-rs`, Rust) in one run, as the issue asks:
International draughts from the start, the native perft and the Python-API loop of each engine.

    python -m pip install dame-rs && python bench/compare_peers.py [--depth 9] [--repeat 3]

Prints leaves per second for both and the ratio (ours / theirs), best of --repeat runs each."""

from __future__ import annotations

import argparse
import time

import engine


def best_rate(fn, repeat):
    best = 0.0
    leaves = 0
    for _ in range(repeat):
        start = time.perf_counter()
        leaves = fn()
        best = max(best, leaves / (time.perf_counter() - start))
    return leaves, best


def api_loop(board, depth, moves, push, pop):
    if depth == 1:
        return len(moves(board))
    total = 0
    for m in moves(board):
        push(board, m)
        total += api_loop(board, depth - 1, moves, push, pop)
        pop(board)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, default=9, help="native perft depth (default 9)")
    parser.add_argument("--loop-depth", type=int, default=6, help="Python loop depth (default 6)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    try:
        import dame
    except ImportError:
        raise SystemExit("dame-rs is not installed: python -m pip install dame-rs") from None

    rows = []
    ours = best_rate(lambda: engine.perft(engine.Board("international"), args.depth), args.repeat)
    theirs = best_rate(lambda: dame.perft(dame.Board(), args.depth), args.repeat)
    assert ours[0] == theirs[0], (ours[0], theirs[0])
    rows.append((f"native perft {args.depth}", ours, theirs))

    b1 = engine.Board("international")
    b2 = dame.Board()
    ours = best_rate(lambda: api_loop(b1, args.loop_depth, lambda b: b.legal_moves(),
                                      lambda b, m: b.push(m), lambda b: b.pop()), args.repeat)
    theirs = best_rate(lambda: api_loop(b2, args.loop_depth, lambda b: b.legal_moves,
                                        lambda b, m: b.push(m), lambda b: b.pop()), args.repeat)
    assert ours[0] == theirs[0]
    rows.append((f"Python API loop {args.loop_depth}", ours, theirs))

    print(f"{'benchmark':<22} {'leaves':>12} {'dimensiones':>14} {'dame-rs':>12} {'ratio':>7}")
    for name, (leaves, a), (_, b) in rows:
        print(f"{name:<22} {leaves:>12} {a / 1e6:>10.1f} M/s {b / 1e6:>8.1f} M/s {a / b:>6.2f}x")


if __name__ == "__main__":
    main()
