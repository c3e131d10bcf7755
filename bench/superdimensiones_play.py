"""Super Dimensiones: the engine against a random mover, on every card set, both seats.

    python bench/superdimensiones_play.py [--nodes 2000] [--games-per-set 2] [--seed 1]

No other program plays Super Dimensiones, so this is the sanity check of the search and the
evaluation: under both strategies (conquistar: most pieces; distraer: fewest) the engine should
take nearly every point from a player that moves at random. Prints a line per card set (the
engine's points out of the games' total) and the overall share, with the engine's mean speed.
"""

from __future__ import annotations

import argparse
import random
import time

import engine
from engine._superdimensiones import card_sets


def play(cards: str, engine_player: int, searcher: engine.Engine, nodes: int,
         rng: random.Random) -> tuple[float, int, float]:
    """One game; returns (the engine's points out of 2, its nodes, its seconds)."""
    board = engine.Board("superdimensiones", cards)
    searcher.new_game()
    total_nodes, seconds = 0, 0.0
    while not board.is_game_over() and board.ply < 2000:
        if int(board.turn) == engine_player:
            start = time.perf_counter()
            result = searcher.search(board, nodes=nodes)
            seconds += time.perf_counter() - start
            total_nodes += result.nodes
            board.push(result.best_move)
        else:
            board.push(rng.choice(board.legal_moves()))
    outcome = board.outcome()
    points = outcome.points()[engine_player] if outcome is not None else 1.0
    return points, total_nodes, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=2000, help="search nodes per move")
    parser.add_argument("--games-per-set", type=int, default=2, help="games per card set (even)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    searcher = engine.Engine(16)
    won = played = 0.0
    all_nodes, all_seconds = 0, 0.0
    for cards in card_sets():
        points = 0.0
        for game in range(args.games_per_set):
            p, n, s = play(cards, game % 2, searcher, args.nodes, rng)
            points += p
            all_nodes += n
            all_seconds += s
        won += points
        played += 2 * args.games_per_set
        print(f"{cards}: {points:g}/{2 * args.games_per_set}", flush=True)
    print(f"engine {won:g}/{played:g} points ({100 * won / played:.1f}%) against a random mover, "
          f"{args.nodes} nodes a move, {all_nodes / max(all_seconds, 1e-9) / 1e6:.2f} M nodes/s")


if __name__ == "__main__":
    main()
