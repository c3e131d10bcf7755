"""Where a match's lost games turned, and whether a longer search would have seen it: the
search depth or the evaluation?

    python bench/turning_points.py RESULTS.json --engine patterns [--threshold 35] \
        [--movetimes 0.1 1 5] [--hash 256]

RESULTS.json is what `python -m engine match --results FILE` writes, with each move's score (the
mover's, in centi-men). For every game ENGINE lost, the *turning point* is the first ply where
the opponent scored the position at THRESHOLD or more for itself; the engine's own search (with
its shipped evaluation, no tables) then looks at the position after that move for each of
MOVETIMES seconds, from an empty hash table each time. A row a game:

    round  ply  pieces  opponent's score  the engine's score in the game  search scores (depth)

and a summary: the losses whose turning point the engine sees (score <= -THRESHOLD) at the
shortest time, only at a longer one (depth was missing), or at none (the evaluation misjudges
the position, or the opponent's did: it won, so mostly ours).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import engine  # noqa: E402


def lost_games(results: dict, name: str):
    """The games `name` lost, as (game, whether it had White)."""
    for game in results["games"]:
        white = game["white"] == name
        if name not in (game["white"], game["black"]):
            continue
        if game["result"] == ("0-1" if white else "1-0"):
            yield game, white


def turning_point(game: dict, board, ours_white: bool, threshold: int) -> int | None:
    """The first ply at which the opponent's score was `threshold` or more for itself."""
    white_first = board.turn == engine.WHITE
    for ply, score in enumerate(game["scores"]):
        white_moved = (ply % 2 == 0) == white_first
        if score is not None and white_moved != ours_white and score >= threshold:
            return ply
    return None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", help="a match's --results file")
    parser.add_argument("--engine", required=True, help="the name of the engine whose losses to look at")
    parser.add_argument("--threshold", type=int, default=35, help="centi-men (default 35)")
    parser.add_argument("--movetimes", type=float, nargs="+", default=[0.1, 1.0, 5.0])
    parser.add_argument("--hash", type=int, default=256, help="MB of hash table (default 256)")
    args = parser.parse_args(argv)
    results = json.loads(Path(args.results).read_text())
    variant = results.get("variant", "international")
    searcher = engine.Engine(hash_mb=args.hash)
    counts = {"at first": 0, "deeper only": 0, "never": 0}
    for game, ours_white in lost_games(results, args.engine):
        board = engine.Board(variant=variant, fen=game["opening"]) if game["opening"] else \
            engine.Board(variant=variant)
        ply = turning_point(game, board.copy(), ours_white, args.threshold)
        if ply is None:
            continue
        for move in game["moves"][:ply + 1]:
            board.push(board.parse_move(move))
        seen = []
        for seconds in args.movetimes:
            searcher.new_game()
            found = searcher.search(board, movetime=seconds)
            seen.append((found.score, found.depth))
        in_game = game["scores"][ply + 1] if ply + 1 < len(game["scores"]) else None
        print(f"{game['round']:4d} {ply:4d} {len(board.piece_map()):3d} {game['scores'][ply]:+5d} "
              f"{'' if in_game is None else f'{in_game:+5d}':>5} "
              + "  ".join(f"{s:+5d} (d{d})" for s, d in seen), flush=True)
        sees = [s <= -args.threshold for s, _ in seen]
        counts["at first" if sees[0] else "deeper only" if any(sees) else "never"] += 1
    total = sum(counts.values())
    print(f"{total} losses with a turning point: the engine sees it at {args.movetimes[0]} s in "
          f"{counts['at first']}, only at a longer time in {counts['deeper only']}, at none "
          f"({args.movetimes[-1]} s the longest) in {counts['never']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
