"""Time to a fixed depth with N threads against one thread, in one run (lazy SMP's speed-up).

    python bench/threads.py [--threads 2] [--depth 15] [--rounds 3]
    python bench/threads.py --before OTHER/src --depth 18 --rounds 30

Each position is searched to the same depth with 1 and with N threads, alternately, a fresh
hash table each time; the figure is the ratio of the summed times (N threads / 1 thread; lower
is better, 1/N would be perfect). With --before, another build of the project (the `src` folder
of a checkout with its native modules built, as for bench/build_ratio.py) is measured in the
same run, the two builds taking turns round by round (each round in a process of its own), so
that a change to the threads is judged against the build before it under the same conditions:
lazy SMP's trees vary from run to run, and one build's ratio moves by a few hundredths between
runs. Run it on an otherwise idle machine: the helpers need cores of their own. Strength at
equal time is a match, not a timing:

    python -m engine match --option 1:Threads=2 --games 400 --tc 0.1 --concurrency 1 --sprt 0 20
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

POSITIONS = [
    ("international", None),
    # Woldouby's position (a classic middle game of International draughts).
    ("international", "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26"),
    ("international", "B:W27,28,31,32,33,34,36,37,38,39,40,41,42,43,44,45,47,48,49,50:"
                      "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,22"),
    ("checkers", None),
]
THIS_SRC = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                        "src"))


def one_round(threads: int, depth: int, hash_mb: int) -> list[tuple[float, float]]:
    """Seconds to the depth of each position, (1 thread, N threads); checkers 4 plies deeper."""
    import engine
    times = []
    for variant, fen in POSITIONS:
        board = engine.Board(variant, fen)
        target = depth if variant == "international" else depth + 4
        pair = []
        for n in (1, threads):
            searcher = engine.Engine(hash_mb, threads=n)
            start = time.perf_counter()
            searcher.search(board, depth=target)
            pair.append(time.perf_counter() - start)
        times.append((pair[0], pair[1]))
    return times


def round_in(src: str, args) -> list[tuple[float, float]]:
    """One round in a process of its own, with `src` first on the path."""
    env = dict(os.environ, PYTHONPATH=src)
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker",
                          "--threads", str(args.threads), "--depth", str(args.depth),
                          "--hash", str(args.hash)],
                         env=env, capture_output=True, text=True, check=True).stdout
    return [tuple(pair) for pair in json.loads(out)]


def report(title: str, totals: list[list[float]], args) -> float:
    """Print one build's rows; return its ratio over all positions."""
    if title:
        print(title)
    for (variant, fen), (one, many) in zip(POSITIONS, totals):
        depth = args.depth if variant == "international" else args.depth + 4
        print(f"{variant:<14} {fen or 'start':<40.40} depth {depth}: 1 thread {one:7.2f} s, "
              f"{args.threads} threads {many:7.2f} s, ratio {many / one:.2f}")
    one = sum(row[0] for row in totals)
    many = sum(row[1] for row in totals)
    print(f"all positions: {args.threads} threads take {many / one:.3f}x the time of 1 thread to "
          f"the same depth ({many:.1f} s against {one:.1f} s)")
    return many / one


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=2, help="threads against one (default 2)")
    parser.add_argument("--depth", type=int, default=15, help="search depth (default 15)")
    parser.add_argument("--rounds", type=int, default=3, help="alternations (default 3)")
    parser.add_argument("--hash", type=int, default=64, help="hash MB (default 64)")
    parser.add_argument("--before", metavar="SRC",
                        help="the src folder of another build, measured in turn in the same run")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.threads < 2 or args.depth < 1 or args.rounds < 1:
        parser.error("--threads must be 2 or more, --depth and --rounds 1 or more")
    if args.worker:
        print(json.dumps(one_round(args.threads, args.depth, args.hash)))
        return
    print(f"depth {args.depth}, 1 thread against {args.threads}, {args.rounds} rounds")
    if not args.before:
        sys.path.insert(0, THIS_SRC)
        totals = [[0.0, 0.0] for _ in POSITIONS]
        for _ in range(args.rounds):
            for row, (one, many) in zip(totals, one_round(args.threads, args.depth, args.hash)):
                row[0] += one
                row[1] += many
        report("", totals, args)
        return
    if not os.path.isdir(os.path.join(args.before, "engine")):
        parser.error(f"--before {args.before}: no engine package there (give a checkout's src)")
    builds = {"this build": THIS_SRC, "other build": args.before}
    totals = {name: [[0.0, 0.0] for _ in POSITIONS] for name in builds}
    for r in range(args.rounds):
        order = list(builds) if r % 2 == 0 else list(reversed(builds))   # who goes first
        for name in order:
            for row, (one, many) in zip(totals[name], round_in(builds[name], args)):
                row[0] += one
                row[1] += many
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    ratios = {name: report(f"{name} ({builds[name]}):", totals[name], args) for name in builds}
    print(f"this build's ratio over the other's: {ratios['this build'] / ratios['other build']:.3f}"
          " (below 1: this build's threads gain more)")


if __name__ == "__main__":
    main()
