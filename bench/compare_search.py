"""Search speed side by side with dame-rs (PyPI `dame-rs`, Rust) in one run: nodes per second and
the depth reached in a fixed time from the International start, single thread each.

    python -m pip install dame-rs && python bench/compare_search.py [--seconds 5]
"""

from __future__ import annotations

import argparse

import engine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per search (default 5)")
    parser.add_argument("--hash", type=int, default=256, help="hash MB for both (default 256)")
    args = parser.parse_args()
    try:
        import dame
    except ImportError:
        raise SystemExit("dame-rs is not installed: python -m pip install dame-rs") from None

    ours = engine.Engine(args.hash).search(engine.Board("international"), movetime=args.seconds)
    theirs = dame.Engine(hash_mb=args.hash).search(dame.Board(), time=args.seconds)
    rows = [("dimensiones", ours.depth, ours.nodes, ours.time, str(ours.best_move), ours.score),
            ("dame-rs", theirs.depth, theirs.nodes, theirs.elapsed, str(theirs.best_move), theirs.score)]
    print(f"International start, {args.seconds:g} s per search")
    print(f"{'engine':<12} {'depth':>5} {'nodes':>11} {'seconds':>8} {'nps':>10} {'move':>6} {'score':>6}")
    for name, depth, nodes, seconds, move, score in rows:
        print(f"{name:<12} {depth:>5} {nodes:>11} {seconds:>8.2f} {nodes / seconds:>10.0f} {move:>6} {score:>6}")
    print(f"nps ratio {rows[0][2] / rows[0][3] / (rows[1][2] / rows[1][3]):.2f}x")


if __name__ == "__main__":
    main()
