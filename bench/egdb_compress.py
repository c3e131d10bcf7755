"""Compressed endgame tables against raw ones, in one run: bytes on disk, and the search's
nodes per second when it probes each kind.

    python bench/egdb_compress.py --variant international --raw DIR [--packed DIR2]
                                  [--positions 40] [--movetime 0.5] [--moves 1] [--seed 1]

DIR holds raw tables (``egdb build``); DIR2 (default: a copy of DIR made and compressed here)
holds the same slices compressed. The search runs from random positions with one or two pieces
more than the tables hold (so that nearly every capture lands in them), with raw and
compressed tables in turn, the same time each (raw first at even positions, compressed first
at odd ones); the figures are the ratio of the total
nodes per second, compressed to raw, with the table hits per second of each, and the geometric
mean of the positions' own ratios with its 95 % interval (one run's total moves by several per
cent with the positions drawn), over every position and over those where neither search proved
the result and stopped early. ``--packed DIR`` (the raw tables again) is the control: raw
against raw, which should read 1.0.

With ``--moves 1`` every search starts from a position unrelated to the one before: nearly every
block of the compressed tables it reads is decoded for the first time (the cold case). With
``--moves K`` each position is played on for K moves, both sides searching, the hash table
cleared only at the start, as an engine plays a game (the blocks a search decoded serve the
next ones); raw and compressed each play their own continuation."""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np

import engine
from engine import egdb


def stored_bytes(tables) -> int:
    return sum(e["bytes"] + e.get("dist_bytes", 0) for e in tables.manifest["slices"].values())


def positions(variant: str, pieces: int, count: int, seed: int) -> list:
    """Random positions of pieces+1 or pieces+2 men and kings, game not over, no capture."""
    rng = np.random.default_rng(seed)
    squares = [str(s) for s in engine.Board(variant).spec.square_names]
    out = []
    while len(out) < count:
        n = pieces + int(rng.integers(1, 3))
        chosen = rng.choice(len(squares), size=n, replace=False)
        split = int(rng.integers(1, n))
        kings = rng.random(n) < 0.3
        names = [("K" if kings[i] else "") + squares[c] for i, c in enumerate(chosen)]
        fen = f"W:W{','.join(names[:split])}:B{','.join(names[split:])}"
        try:
            board = engine.Board(variant, fen)
        except ValueError:
            continue
        if board.outcome() is None and not any(m.is_capture for m in board.legal_moves()):
            out.append(board)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="international", choices=egdb.table_variants())
    parser.add_argument("--raw", required=True, help="a directory of raw tables")
    parser.add_argument("--packed", default=None,
                        help="the same tables compressed (default: compress a copy here)")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--movetime", type=float, default=0.5, help="seconds per search")
    parser.add_argument("--moves", type=int, default=1,
                        help="searches from each position, playing the moves found")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    raw = egdb.Tables(args.raw, args.variant)
    if args.packed is None:
        args.packed = tempfile.mkdtemp(prefix="egdb-packed-")
        shutil.copytree(Path(args.raw) / args.variant, Path(args.packed) / args.variant)
        start = time.perf_counter()
        egdb.compress(args.variant, args.packed, report=None, check="none")
        print(f"compressed a copy in {time.perf_counter() - start:.1f} s ({args.packed})")
    packed = egdb.Tables(args.packed, args.variant)
    raw_bytes, packed_bytes = stored_bytes(raw), stored_bytes(packed)
    wdl = sum(e["bytes"] for e in packed.manifest["slices"].values())
    print(f"{args.variant} up to {raw.pieces} pieces: raw {raw_bytes:,} bytes; compressed "
          f"{packed_bytes:,} ({100 * packed_bytes / raw_bytes:.2f}%): win/draw/loss {wdl:,} "
          f"({100 * wdl / raw_bytes:.2f}%), distances {packed_bytes - wdl:,} "
          f"({100 * (packed_bytes - wdl) / raw_bytes:.2f}%)")

    boards = positions(args.variant, raw.pieces, args.positions, args.seed)
    totals = {"raw": [0, 0, 0.0], "compressed": [0, 0, 0.0]}
    log_ratios = []                 # per position: log(compressed nodes/s / raw nodes/s)
    both_full = []                  # ... and whether both searches ran their whole time
    searcher = engine.Engine(hash_mb=64)
    for number, start_board in enumerate(boards):
        speed, full = {}, {}
        # Which goes first alternates: the second search of a pair finds more of what the
        # first one read in the processor's caches and the system's page cache (raw against
        # raw, always in one order, read 1.01-1.07 by session).
        order = [("raw", raw), ("compressed", packed)]
        for name, tables in order[::-1] if number % 2 else order:
            searcher.tablebases = tables
            searcher.new_game()
            board = start_board.copy()
            nodes, seconds = 0, 0.0
            for _ in range(args.moves):
                start = time.perf_counter()
                result = searcher.search(board, movetime=args.movetime)
                seconds += time.perf_counter() - start
                nodes += result.nodes
                totals[name][1] += result.tbhits
                if result.best_move is None:
                    break
                board.push(result.best_move)
                if board.outcome() is not None:
                    break
            totals[name][0] += nodes
            totals[name][2] += seconds
            speed[name] = nodes / seconds
            full[name] = seconds >= 0.9 * args.movetime * args.moves
        log_ratios.append(np.log(speed["compressed"] / speed["raw"]))
        both_full.append(full["raw"] and full["compressed"])
    for name, (nodes, hits, seconds) in totals.items():
        print(f"{name:>10}: {nodes:>12,} nodes {nodes / seconds / 1e6:6.3f} M nodes/s, "
              f"{hits:>11,} table hits {hits / seconds / 1e6:6.3f} M/s")
    ratio = (totals["compressed"][0] / totals["compressed"][2]) / \
        (totals["raw"][0] / totals["raw"][2])
    print(f"compressed: {packed.native.blocks_decoded:,} blocks decoded")
    played = f", played on for up to {args.moves} moves each" if args.moves > 1 else ""
    print(f"nodes per second, compressed / raw: {ratio:.3f} over {len(boards)} positions of "
          f"{raw.pieces + 1}-{raw.pieces + 2} pieces{played}, {args.movetime} s a search")
    # The trees differ from position to position (and between raw and compressed, which do not
    # answer for a position with a capture), so one run's ratio moves by several per cent:
    # the geometric mean of the positions' ratios with its 95 % interval says what is measured.
    # A search that proves the result stops early, and its few nodes say little about speed:
    # the second line keeps the positions where both searches ran their whole time.
    logs = np.array(log_ratios)
    for label, chosen in (("every position", logs),
                          ("both searched their whole time", logs[np.array(both_full, bool)])):
        if len(chosen) < 2:
            print(f"{label}: {len(chosen)} positions, no interval")
            continue
        half = 1.96 * chosen.std(ddof=1) / np.sqrt(len(chosen))
        mean = chosen.mean()
        print(f"{label} ({len(chosen)}): geometric mean of the ratios {np.exp(mean):.3f}, "
              f"95% interval [{np.exp(mean - half):.3f}, {np.exp(mean + half):.3f}]")


if __name__ == "__main__":
    main()
