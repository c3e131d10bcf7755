"""Speed of this build against another build of the project, in the same run: perft (last ply in
bulk) on the positions of the speed issue and the fixed search benchmark, each build run in turn
in its own process, best of --repeat.

    python bench/build_ratio.py --before OTHER/src [--repeat 3] [--every-game] [--search]

OTHER/src is the `src` folder of another checkout with its native modules built (for example a
`git worktree` of the previous commit, built with `python setup.py build_ext --inplace`). Prints
leaves (or nodes) per second for both and the ratio, this build over the other; the counts must
agree, or the script stops. --every-game adds perft from the start of every game (a change to
the shared board code or a family's module shows there); --search adds fixed-depth searches of
three positions of bench/scan_search.py with its 256 MB table, a few seconds each (a change to
the search's own costs, such as the table or the evaluation, shows there)."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")

# The middle-game positions of the perft literature (as in tests/test_perft.py).
WOLDOUBY = "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"
RANDOM178 = "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"
CASES = [
    ("international start, perft 9", ["perft", "9"]),
    ("Woldouby, perft 14", ["perft", "--fen", WOLDOUBY, "14"]),
    ("Random178, perft 8", ["perft", "--fen", RANDOM178, "8"]),
    ("checkers start, perft 10", ["perft", "--variant", "checkers", "10"]),
    ("search benchmark (every game)", ["bench"]),
]
OPENING10 = ("W:W25,28,31,32,33,35,36,37,38,39,40,42,43,44,45,46,47,48,49,50:"
             "B2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,23,24")   # scan_search's opening+10
SEARCHES = [
    ("start, search depth 20", ["analyse", "--depth", "20", "--hash", "256"]),
    ("Woldouby, search depth 31", ["analyse", "--fen", WOLDOUBY, "--depth", "31", "--hash", "256"]),
    ("start + 10 plies, depth 21", ["analyse", "--fen", OPENING10, "--depth", "21", "--hash", "256"]),
]
# Perft from the start of every game, each about a second on a 2-core machine of 2026.
EVERY_GAME = [(f"{variant} start, perft {depth}", ["perft", "--variant", variant, str(depth)])
              for variant, depth in [
                  ("spanish", 11), ("chapinas", 10), ("turkish", 8), ("gothic-checkers", 7),
                  ("russian", 11), ("italian", 11), ("killer", 10), ("dipole", 6),
                  ("dipole10", 6), ("superajedrez", 4), ("superdimensiones", 10)]]


def run(src: str, args: list) -> tuple[int, float]:
    """(count, per second) of one run of `python -m engine ARGS` with `src` first on the path."""
    env = dict(os.environ, PYTHONPATH=src)
    out = subprocess.run([sys.executable, "-m", "engine", *args], env=env, capture_output=True,
                         text=True, check=True).stdout
    last = out.strip().splitlines()[-1]
    if args[0] == "analyse":             # the last "info depth ... nodes N nps R ..." line
        info = [line for line in out.splitlines() if line.startswith("info depth")][-1].split()
        return int(info[info.index("nodes") + 1]), float(info[info.index("nps") + 1])
    if args[0] == "perft":               # "41022423 leaves in 0.8 s (50.1 M leaves/s)"
        rate = re.search(r"\(([\d.]+) M leaves/s\)", last)
        return int(last.split()[0]), float(rate.group(1)) * 1e6 if rate else 0.0
    nodes = int(re.search(r"(\d+) nodes", last).group(1))   # "23267507 nodes 1179207 nps (19.7 s)"
    return nodes, float(re.search(r"(\d+) nps", last).group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, metavar="SRC",
                        help="the src folder of the other build")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--every-game", action="store_true",
                        help="add perft from the start of every game")
    parser.add_argument("--search", action="store_true",
                        help="add fixed-depth searches of three International positions")
    args = parser.parse_args()
    print(f"{'case':32s} {'count':>14s} {'other/s':>10s} {'this/s':>10s} {'ratio':>7s}")
    for name, command in CASES + (EVERY_GAME if args.every_game else []) \
            + (SEARCHES if args.search else []):
        best = {"this": 0.0, "other": 0.0}
        counts = set()
        for _ in range(args.repeat):
            for label, src in (("other", args.before), ("this", HERE)):
                count, rate = run(src, command)
                counts.add(count)
                best[label] = max(best[label], rate)
        if len(counts) != 1:
            print(f"{name}: the builds disagree: {sorted(counts)}", file=sys.stderr)
            return 1
        print(f"{name:32s} {counts.pop():>14,d} {best['other'] / 1e6:>9.2f}M {best['this'] / 1e6:>9.2f}M "
              f"{best['this'] / best['other']:>6.2f}×", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
