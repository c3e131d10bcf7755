"""Endgame-table builds, timed: positions per second of the builder and bytes per slice.

    python bench/egdb_build.py --variant checkers --pieces 5 [--threads 2] [--dir /tmp/egdb]

Builds into a fresh directory (or DIR) with a line per slice (positions, results, seconds,
positions/s), then a summary by number of pieces: slices, positions, bytes on disk, seconds."""

from __future__ import annotations

import argparse
import tempfile
import time

from engine import egdb


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="checkers", choices=egdb.table_variants())
    parser.add_argument("--pieces", type=int, default=5)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--dir", default=None, help="build here (default: a temporary directory)")
    args = parser.parse_args()
    folder = args.dir or tempfile.mkdtemp(prefix="egdb-bench-")
    start = time.perf_counter()
    tables = egdb.build(args.variant, args.pieces, folder, threads=args.threads,
                        report=lambda line: print(line, flush=True))
    elapsed = time.perf_counter() - start
    by_pieces: dict[int, list] = {}
    for entry in tables.manifest["slices"].values():
        row = by_pieces.setdefault(sum(entry["signature"]), [0, 0, 0, 0.0])
        row[0] += 1
        row[1] += entry["entries"]
        row[2] += entry["bytes"]
        row[3] += entry["seconds"]
    print(f"\n{'pieces':>6} {'slices':>6} {'positions':>15} {'bytes':>15} {'slice seconds':>14}")
    for pieces in sorted(by_pieces):
        n, entries, size, seconds = by_pieces[pieces]
        print(f"{pieces:>6} {n:>6} {entries:>15,} {size:>15,} {seconds:>14.1f}")
    total = sum(r[1] for r in by_pieces.values())
    print(f"total {total:,} positions in {elapsed:.1f} s wall: {total / elapsed / 1e6:.2f} M "
          f"positions/s ({folder})")


if __name__ == "__main__":
    main()
