"""Superajedrez perft side by side with Fairy-Stockfish's `placement` variant, in one run.

    sudo apt-get install fairy-stockfish     # the system package, if the machine has it
    python bench/compare_superajedrez.py [--fairy /usr/games/fairy-stockfish] [--repeat 3]

The two games differ (in Fairy-Stockfish's `placement` the pieces are first placed on the back
rank; in Superajedrez almost anywhere, with reserved squares), so the leaf counts differ; the
figures compared are leaves per second of a full legal perft (both count the last ply in bulk)
and, since a Superajedrez position has many more moves, positions generated per second (the
leaves of one ply less), from the start position and from a middlegame of each game. Fairy-Stockfish is timed from outside: the wall time of `go perft`
minus that of the same session with `go perft 1`. Best of --repeat runs each."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import time

import engine

OURS = [
    ("start", None, 4),
    ("middlegame", "r2qk2r/pp3ppp/2n1b3/3p4/3P4/2NB1N2/PP3PPP/R2QK2R[BPPbnpp] w KQkq - 0 9", 4),
]
THEIRS = [
    ("start", "startpos", 5),
    ("middlegame", "fen r2qk2r/pp3ppp/2n1b3/3p4/3P4/2NB1N2/PP3PPP/R2QK2R[] w KQkq - 0 9", 5),
]


def fairy_run(binary: str, position: str, depth: int) -> tuple[int, float]:
    script = (f"uci\nsetoption name UCI_Variant value placement\nposition {position}\n"
              f"isready\ngo perft {depth}\nquit\n")
    start = time.perf_counter()
    out = subprocess.run([binary], input=script, capture_output=True, text=True, check=True)
    elapsed = time.perf_counter() - start
    nodes = [line for line in out.stdout.splitlines() if line.startswith("Nodes searched")]
    return int(nodes[-1].split(":")[1]), elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fairy", default=shutil.which("fairy-stockfish")
                        or "/usr/games/fairy-stockfish", help="the Fairy-Stockfish binary")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    have_fairy = shutil.which(args.fairy) is not None
    print(f"{'position':<12} {'dimensiones (superajedrez)':>34} {'fairy-stockfish (placement)':>34}"
          f" {'ratio':>7} {'positions/s: ours':>18} {'theirs':>10} {'ratio':>6}")
    for (name, fen, depth), (_, position, fdepth) in zip(OURS, THEIRS):
        board = engine.Board("superajedrez", fen)
        best = 0.0
        for _ in range(args.repeat):
            start = time.perf_counter()
            leaves = engine.perft(board, depth)
            best = max(best, leaves / (time.perf_counter() - start))
        ours = f"d{depth} {leaves:>11} {best / 1e6:8.1f} M/s"
        inner = engine.perft(board, depth - 1)
        ours_pos = best * inner / leaves
        if not have_fairy:
            print(f"{name:<12} {ours:>34} {'(not installed)':>34}")
            continue
        theirs_best = 0.0
        for _ in range(args.repeat):
            _, base = fairy_run(args.fairy, position, 1)
            nodes, elapsed = fairy_run(args.fairy, position, fdepth)
            theirs_best = max(theirs_best, nodes / max(elapsed - base, 1e-6))
        theirs = f"d{fdepth} {nodes:>11} {theirs_best / 1e6:8.1f} M/s"
        theirs_pos = theirs_best * fairy_run(args.fairy, position, fdepth - 1)[0] / nodes
        print(f"{name:<12} {ours:>34} {theirs:>34} {best / theirs_best:>6.1f}x"
              f" {ours_pos / 1e6:>12.2f} M/s {theirs_pos / 1e6:>6.2f} M/s {ours_pos / theirs_pos:>5.1f}x")


if __name__ == "__main__":
    main()
