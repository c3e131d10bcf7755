"""Time to a fixed depth with N threads against one thread, in one run (lazy SMP's speed-up).

    python bench/threads.py [--threads 2] [--depth 15] [--rounds 3]

Each position is searched to the same depth with 1 and with N threads, alternately, a fresh
hash table each time; the figure is the ratio of the summed times (N threads / 1 thread; lower
is better, 1/N would be perfect). Run it on an otherwise idle machine: the helpers need cores of
their own. Strength at equal time is a match, not a timing:

    python -m engine match --option 1:Threads=2 --games 400 --tc 0.1 --concurrency 1 --sprt 0 20
"""

from __future__ import annotations

import argparse
import time

import engine

POSITIONS = [
    ("international", None),
    # Woldouby's position (a classic middle game of International draughts).
    ("international", "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26"),
    ("international", "B:W27,28,31,32,33,34,36,37,38,39,40,41,42,43,44,45,47,48,49,50:"
                      "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,22"),
    ("checkers", None),
]


def timed(threads: int, board, depth: int, hash_mb: int) -> tuple[float, int]:
    e = engine.Engine(hash_mb, threads=threads)
    start = time.perf_counter()
    result = e.search(board, depth=depth)
    return time.perf_counter() - start, result.nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=2, help="threads against one (default 2)")
    parser.add_argument("--depth", type=int, default=15, help="search depth (default 15)")
    parser.add_argument("--rounds", type=int, default=3, help="alternations (default 3)")
    parser.add_argument("--hash", type=int, default=64, help="hash MB (default 64)")
    args = parser.parse_args()
    total = {1: 0.0, args.threads: 0.0}
    print(f"depth {args.depth}, 1 thread against {args.threads}, {args.rounds} rounds")
    for variant, fen in POSITIONS:
        board = engine.Board(variant, fen)
        depth = args.depth if variant == "international" else args.depth + 4
        row = {1: 0.0, args.threads: 0.0}
        for _ in range(args.rounds):
            for threads in (1, args.threads):
                seconds, _ = timed(threads, board, depth, args.hash)
                row[threads] += seconds
                total[threads] += seconds
        print(f"{variant:<14} {fen or 'start':<40.40} depth {depth}: 1 thread {row[1]:7.2f} s, "
              f"{args.threads} threads {row[args.threads]:7.2f} s, "
              f"ratio {row[args.threads] / row[1]:.2f}")
    print(f"all positions: {args.threads} threads take {total[args.threads] / total[1]:.2f}x the "
          f"time of 1 thread to the same depth")


if __name__ == "__main__":
    main()
