"""Verifying compressed endgame tables: through the files (each successor probed, a block
decoded for most of them) against unpacked into memory first (what ``egdb verify`` does), on
the same entries, in one run:

    python bench/egdb_verify.py --variant checkers --dir DIR --slice NAME [--entries 200000]
                                [--threads 2]

Checks ENTRIES entries of slice NAME (64 runs spread over it) both ways and prints each way's seconds and
entries a second (the unpacking counted in its way, and shown apart), and that both found the
same wrong entries (none, for a sound table).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from engine import egdb  # noqa: E402


def check(tables, signature, entries: int, pool) -> tuple:
    """(checked, wrong, first wrong) of 64 runs of entries / 64 entries spread evenly over the
    slice, over the pool."""
    native = tables.native
    size = native.size(signature)
    run = max(1, entries // 64)
    starts = sorted({min(i * size // 64, size - run) for i in range(64)})
    parts = list(pool.map(lambda start: native.verify(signature, start, start + run), starts))
    return (sum(p[0] for p in parts), sum(p[1] for p in parts),
            sorted(i for p in parts for i in p[2])[:10])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="checkers", choices=egdb.table_variants())
    parser.add_argument("--dir", required=True, help="a directory of compressed tables")
    parser.add_argument("--slice", required=True, help="the slice to check (egdb info names)")
    parser.add_argument("--entries", type=int, default=200_000)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    tables = egdb.Tables(args.dir, args.variant)
    native = tables.native
    signature = native.parse_name(args.slice)
    entries = min(args.entries, native.size(signature))
    with ThreadPoolExecutor(args.threads) as pool:
        start = time.perf_counter()
        probed = check(tables, signature, entries, pool)
        probed_s = time.perf_counter() - start
        start = time.perf_counter()
        unpacked_slices = egdb.verifier._unpack_for_verify(tables, [signature], pool, None, False)
        unpack_s = time.perf_counter() - start
        unpacked = check(tables, signature, entries, pool)
        unpacked_s = time.perf_counter() - start
        for sig in unpacked_slices:
            native.detach_raw(sig)
    unpacked_entries = sum(native.size(s) for s in unpacked_slices)
    print(f"{args.variant} {args.slice}: {entries:,} entries in 64 runs, {args.threads} threads")
    print(f"through the files: {probed_s:8.1f} s  {entries / probed_s:12,.0f} entries/s  "
          f"{probed[1]} wrong")
    print(f"unpacked first:    {unpacked_s:8.1f} s  {entries / unpacked_s:12,.0f} entries/s  "
          f"{unpacked[1]} wrong (unpacking {len(unpacked_slices)} slices, "
          f"{unpacked_entries:,} entries: {unpack_s:.1f} s)")
    print(f"ratio: {probed_s / unpacked_s:.1f}x")
    if probed[0] != unpacked[0] or probed[1] != unpacked[1]:
        print("the two ways disagree:", probed, unpacked)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
