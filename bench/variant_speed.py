"""Move-generation speed of each newer draughts variant against its nearest older row, in one
run: perft from the start (and from a position with kings), best of N alternating timings,
leaves per second and the ratio. The rows share one generator, so a ratio far from 1 means a
rule parameter costs more than it should.

    python bench/variant_speed.py [--repeat 3] [VARIANT ...]
"""

import argparse
import time

import engine

# (variant, its nearest older row, start depth, a position with kings and its depth). Where
# the two rows play on different boards (Canadian's 12x12 against International's 10x10), the
# depth and the position are pairs (the new row's, the older row's): each counted from a start
# or a like position of its own board, and compared per leaf.
PAIRS = [
    ("brazilian", "checkers", 9, "W:WK29,K32,21,22,23:BK1,K4,9,10,11", 7),
    ("russian", "checkers", 9, "W:WK29,K32,21,22,23:BK1,K4,9,10,11", 7),
    ("pool", "checkers", 9, "B:WK29,K32,21,22,23:BK1,K4,9,10,11", 7),
    ("czech", "checkers", 9, "W:WK29,K32,21,22,23:BK1,K4,9,10,11", 7),
    ("thai", "czech", 9, "W:WK29,K32,21,22,23:BK1,K4,9,10,11", 7),
    ("italian", "spanish", 9, "W:WK29,K32,21,22,23:BK1,K4,9,10,11", 7),
    ("killer", "international", 7, "W:WK31-K50:BK1-K20", 6),
    ("antidraughts", "international", 7, "W:WK31-K50:BK1-K20", 6),
    ("breakthrough", "international", 7, None, 0),
    ("frisian", "international", 9, "W:WK46,K50,31-35:BK1,K5,16-20", 6),
    ("frysk", "frisian", 8, "W:WK46,K50,31-33:BK1,K5,16-18", 7),
    ("canadian", "international", (8, 9),
     ("W:WK67,K72,43-48:BK1,K6,25-30", "W:WK46,K50,31-35:BK1,K5,16-20"), 6),
]


def either(value, index):
    return value[index] if isinstance(value, tuple) else value


def rate(variant, fen, depth, repeat):
    best, leaves = None, 0
    for _ in range(repeat):
        board = engine.Board(variant, fen)
        start = time.perf_counter()
        leaves = engine.perft(board, depth)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return leaves, leaves / best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("variants", nargs="*", help="only these rows (default: every row)")
    args = parser.parse_args()
    print(f"{'variant':14} {'position':10} {'leaves':>12} {'M leaves/s':>10}   nearest row         ratio")
    for variant, older, depth, kings_fen, kings_depth in PAIRS:
        if args.variants and variant not in args.variants:
            continue
        cases = [("start", None, depth)]
        if kings_fen:
            cases.append(("kings", kings_fen, kings_depth))
        for label, fen, d in cases:
            n1, r1 = rate(variant, either(fen, 0), either(d, 0), args.repeat)
            n2, r2 = rate(older, either(fen, 1), either(d, 1), args.repeat)
            print(f"{variant:14} {label:10} {n1:>12,} {r1 / 1e6:>10.1f}   {older:14} {r2 / 1e6:6.1f}  "
                  f"{r1 / r2:5.2f}")


if __name__ == "__main__":
    main()
