"""Nodes to a fixed depth over a suite of middle-game positions: how much a search change costs
or saves in tree size, independent of the machine's speed and load.

    python bench/depth_nodes.py [--variant international] [--positions 60] [--depth 16]
                                [--seed 11] [--set NAME=VALUE ...] [--save FILE]

The positions are drawn from `--seed`: a random 8-ply opening, then 10 to 50 plies where each
move is a depth-5 search's best (one in five is a random legal move instead); the searches are
deterministic, so one seed gives the same suite on every machine and every build whose depth-5
searches agree. `--save FILE` writes the suite's FENs; `--load FILE` reads them back (a suite
fixed across builds that choose different moves). Each position is searched to `--depth` with a
fresh 64 MB hash table; `--set` passes `Engine` switches (e.g. `--set probcut=false`). Prints
the total nodes and the geometric mean per position.

Fewer nodes to a depth is not strength: a change that prunes more reaches further in the same
nodes but may see less. Strength is a match between the two builds, e.g. at a fixed node budget
(`python -m engine match -e "<build A> uci" -e "<build B> uci" --tc nodes=50000`).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time

import engine
from engine import openings


def suite(variant: str, count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for fen in openings.random_openings(variant, count, 8, rng):
        board = engine.Board(variant, fen)
        searcher = engine.Engine(16)
        for _ in range(rng.randint(10, 50)):
            if board.outcome() is not None:
                break
            if rng.random() < 0.2:
                move = rng.choice(list(board.legal_moves()))
            else:
                move = searcher.search(board, depth=5).lines[0].pv[0]
            board.push(move)
        if board.outcome() is None:
            out.append(board.fen())
    return out


def switch(text: str) -> tuple[str, bool]:
    name, sep, value = text.partition("=")
    if not sep or value.lower() not in ("true", "false", "1", "0"):
        raise argparse.ArgumentTypeError(f"expected NAME=true or NAME=false, got {text!r}")
    return name, value.lower() in ("true", "1")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="international")
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--depth", type=int, default=16)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--set", type=switch, action="append", default=[], metavar="NAME=VALUE",
                        help="an Engine switch, e.g. probcut=false (repeatable)")
    parser.add_argument("--save", help="write the suite's FENs to this file")
    parser.add_argument("--load", help="read the suite's FENs from this file instead")
    args = parser.parse_args()
    if args.positions < 1 or args.depth < 1:
        parser.error("--positions and --depth must be at least 1")

    if args.load:
        try:
            with open(args.load) as handle:
                fens = [line.strip() for line in handle if line.strip()][:args.positions]
        except OSError as error:
            sys.exit(f"--load: {error}")
        for number, fen in enumerate(fens, 1):
            try:
                engine.Board(args.variant, fen)
            except ValueError as error:
                sys.exit(f"--load {args.load}: position {number}: {error}")
        if not fens:
            sys.exit(f"--load {args.load}: no positions in the file")
    else:
        fens = suite(args.variant, args.positions, args.seed)
    if args.save:
        with open(args.save, "w") as handle:
            handle.write("\n".join(fens) + "\n")
    switches = dict(args.set)
    try:
        engine.Engine(1, **switches)
    except TypeError as error:
        sys.exit(f"unknown switch: {error}")

    nodes = []
    start = time.perf_counter()
    for i, fen in enumerate(fens, 1):
        result = engine.Engine(64, **switches).search(engine.Board(args.variant, fen),
                                                       depth=args.depth)
        nodes.append(result.nodes)
        print(f"\r{i}/{len(fens)} positions", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    geometric = math.exp(sum(math.log(max(n, 1)) for n in nodes) / len(nodes))
    print(f"{len(fens)} positions, depth {args.depth}: {sum(nodes):,} nodes, "
          f"geometric mean {geometric:,.0f} a position ({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
