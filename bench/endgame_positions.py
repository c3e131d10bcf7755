"""Endgame starting positions for a match that measures endgame tables: from the engine's own
games, the first position where the material drops to a given range of pieces.

    python bench/endgame_positions.py --variant international --pieces 7 9 --count 100 \
        --out endgames-7-9.fen [--nodes 2000] [--workers 2] [--seed 1]

Each game starts from a random balanced opening (`engine.openings.random_openings`, 6 plies)
and is played by the engine against itself at ``--nodes`` nodes a move; the first position
with between the two numbers of pieces on the board (both sides counted, a capture not pending,
the game not over) is kept, one a game, distinct ones only. A game that never passes through
that range (it ends first, or drops below it in one capture sequence) gives none. The file,
one FEN a line, is what `python -m engine match --openings FILE` plays, each position twice
with colours swapped; for instance, tables of 2-6 pieces against 2-5 (docs/egdb.md):

    python -m engine match --variant international --openings endgames-7-9.fen --games 200 \
        --tc 0.1 --concurrency 2 --option 1:EgdbPath=SIX --option 2:EgdbPath=FIVE
"""

from __future__ import annotations

import argparse
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import engine  # noqa: E402
from engine import openings  # noqa: E402

MAX_PLIES = 400          # a game longer than this gives no position


def pieces(board) -> int:
    return len(board.piece_map())


def first_in_range(variant: str, opening: str, low: int, high: int, nodes: int) -> str | None:
    """Play the engine against itself from ``opening``; the first quiet position with
    ``low``..``high`` pieces, or None."""
    board = engine.Board(variant, opening)
    searcher = engine.Engine(hash_mb=16)
    while board.ply < MAX_PLIES and not board.is_game_over():
        if low <= pieces(board) <= high and not any(m.is_capture for m in board.legal_moves()):
            return board.fen()
        if pieces(board) < low:
            return None
        board.push(searcher.search(board, nodes=nodes).best_move)
    return None


def work(task) -> list[str]:
    variant, seed, games, low, high, nodes = task
    rng = random.Random(seed)
    found = []
    for opening in openings.random_openings(variant, games, 6, rng):
        fen = first_in_range(variant, opening, low, high, nodes)
        if fen is not None:
            found.append(fen)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="international")
    parser.add_argument("--pieces", nargs=2, type=int, default=[7, 9], metavar=("LOW", "HIGH"))
    parser.add_argument("--count", type=int, default=100, help="positions wanted (default 100)")
    parser.add_argument("--nodes", type=int, default=2000, help="nodes a move (default 2000)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True, help="the file of FENs to write")
    args = parser.parse_args()
    low, high = args.pieces
    if not 2 <= low <= high:
        parser.error("--pieces LOW HIGH: 2 <= LOW <= HIGH")
    seen: dict[str, None] = {}
    batch = 10
    round_ = 0
    with ProcessPoolExecutor(args.workers) as pool:
        while len(seen) < args.count:
            tasks = [(args.variant, args.seed * 1_000_003 + round_ * args.workers + w, batch, low,
                      high, args.nodes) for w in range(args.workers)]
            round_ += 1
            for found in pool.map(work, tasks):
                for fen in found:
                    seen.setdefault(fen)
            print(f"{min(len(seen), args.count)}/{args.count} positions "
                  f"({round_ * args.workers * batch} games)", flush=True)
            if round_ > 10 * args.count:
                print("too few games reach that range: try a wider one", file=sys.stderr)
                return 1
    fens = list(seen)[:args.count]
    Path(args.out).write_text("\n".join(fens) + "\n")
    print(f"{args.out}: {len(fens)} positions of {low}-{high} pieces")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
