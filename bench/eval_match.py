"""Two evaluations of one draughts game, same search, a fixed number of nodes a move: which plays
better? Paired games from random openings, W processes, Elo by the match statistics.

    python bench/eval_match.py --variant international --a int-gen1.npz --b "<hand-set>" \
        --pairs 100 --nodes 20000 --workers 2

Fixed nodes make the comparison independent of speed and of the machine's load (the learned
evaluation is slower; measure it in time with `python -m engine match --option 1:EvalFile=...`).
Each process keeps one Engine per side and switches the variant's weights before each move.
"""

from __future__ import annotations

import argparse
import random
import sys
from multiprocessing import Pool

import engine
from engine import patterns
from engine.stats import elo_estimate


def use(variant: str, source: str) -> None:
    if source == patterns.HAND_SET:
        patterns.use_hand_set(variant)
    else:
        patterns.load(source, variant)


def play_pair(job):
    variant, a, b, nodes, plies, seed = job
    rng = random.Random(seed)
    start = engine.Board(variant)
    while True:
        board = engine.Board(variant)
        for _ in range(plies):
            board.push(rng.choice(board.legal_moves()))
        if not board.is_game_over():
            start = board
            break
    points = []
    for a_side in (0, 1):
        board = start.copy()
        engines = [engine.Engine(16), engine.Engine(16)]
        while not board.is_game_over() and board.ply < 400:
            side = int(board.turn)
            use(variant, a if side == a_side else b)
            board.push(engines[0 if side == a_side else 1].search(board, nodes=nodes).best_move)
        result = board.result()
        white = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
        points.append(white if a_side == 0 else 1 - white)
    return points


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variant", default="international")
    p.add_argument("--a", required=True, help="weights file, or <hand-set>")
    p.add_argument("--b", default=patterns.HAND_SET, help="weights file, or <hand-set>")
    p.add_argument("--pairs", type=int, default=50)
    p.add_argument("--nodes", type=int, default=20000)
    p.add_argument("--plies", type=int, default=6, help="random plies of each opening")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    jobs = [(args.variant, args.a, args.b, args.nodes, args.plies, args.seed * 100003 + i)
            for i in range(args.pairs)]
    penta = [0] * 5
    wins = draws = losses = 0
    with Pool(args.workers) as pool:
        for n, points in enumerate(pool.imap_unordered(play_pair, jobs), 1):
            penta[int(round(sum(points) * 2))] += 1
            wins += points.count(1.0)
            draws += points.count(0.5)
            losses += points.count(0.0)
            print(f"pair {n}/{args.pairs}: {points}  A +{wins} ={draws} -{losses}  "
                  f"{elo_estimate(penta).text()}", flush=True)
    print(f"A = {args.a}, B = {args.b}, {args.variant}, {args.nodes} nodes a move")
    print(f"A: +{wins} ={draws} -{losses}, pairs {penta}; {elo_estimate(penta).text()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
