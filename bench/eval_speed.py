"""The learned evaluation's cost in search speed: nodes per second with a variant's learned
weights (or network) against its hand-set evaluation or another weights file, on the positions of
``python -m engine bench``, searched alternately in one run (best of R rounds each), and the
ratio.

    python bench/eval_speed.py                          # every game with shipped weights
    python bench/eval_speed.py --variant dipole --eval-file dipole-gen2.npz --rounds 5
    python bench/eval_speed.py --variant international --eval-file net.npz --against '<shipped>'

The trees differ (another evaluation orders and prunes otherwise), so the figure is the speed of
a node, not the time to a depth. Needs an idle machine: the two sides share its noise only when
nothing else runs.
"""

from __future__ import annotations

import argparse
import sys
import time

import engine
from engine import weights
from engine.bench import DEFAULT_DEPTH, MAX_DEPTH, POSITIONS


def speed(variant: str, fen, depth: int, source: str) -> float:
    weights.use(variant, source)
    e = engine.Engine(16)
    board = engine.Board(variant, fen)
    start = time.perf_counter()
    result = e.search(board, depth=min(depth, MAX_DEPTH.get((variant, fen), depth)))
    return result.nodes / max(time.perf_counter() - start, 1e-9)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variant", action="append", help="a game to measure (repeatable; default: "
                   "every game of the bench with shipped weights)")
    p.add_argument("--eval-file", default=weights.SHIPPED,
                   help="the learned weights (default <shipped>); with one --variant only")
    p.add_argument("--against", default=weights.HAND_SET,
                   help="the evaluation compared with (default <hand-set>; <shipped> or a file)")
    p.add_argument("--depth", type=int, default=DEFAULT_DEPTH)
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args(argv)
    variants = args.variant or sorted({v for v, _ in POSITIONS if weights.shipped(v)})
    if (args.eval_file != weights.SHIPPED or args.against not in (weights.HAND_SET,
                                                                   weights.SHIPPED)) \
            and len(variants) != 1:
        p.error("--eval-file and --against FILE need exactly one --variant")
    ratios = []
    for variant in variants:
        for v, fen in POSITIONS:
            if v != variant:
                continue
            best = {args.against: 0.0, args.eval_file: 0.0}
            for _ in range(args.rounds):
                for source in best:
                    best[source] = max(best[source], speed(variant, fen, args.depth, source))
            ratio = best[args.eval_file] / best[args.against]
            ratios.append(ratio)
            print(f"{variant:<16} {fen or 'start':<40.40} base {best[args.against]:>10,.0f} "
                  f"measured {best[args.eval_file]:>10,.0f} nps  {ratio:.2f}x", flush=True)
        weights.use(variant, weights.SHIPPED)
    if ratios:
        mean = sum(ratios) / len(ratios)
        print(f"mean ratio {mean:.2f}x over {len(ratios)} positions ({args.eval_file} / "
              f"{args.against})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
