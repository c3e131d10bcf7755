"""Two evaluations (or two search settings) of one game, a fixed number of nodes a move: which
plays better? Paired games from random openings (from a random start where a game has several:
Super Dimensiones' card sets), W processes, Elo by the match statistics.

    python bench/eval_match.py --variant international --a int-gen1.npz --b "<hand-set>" \
        --pairs 100 --nodes 20000 --workers 2
    python bench/eval_match.py --a "<shipped>" --b "<shipped>" --b-set probcut=false

``--a-set`` / ``--b-set NAME=true|false`` switch a search feature of one side's Engine
(``reductions``, ``probcut``, ``early_reductions``): a search change measured at equal nodes
gains only by what it does with them (its effect on speed is measured separately).

Fixed nodes make the comparison independent of speed and of the machine's load (the learned
evaluation is slower; measure it in time with `python -m engine match --option 1:EvalFile=...`).
Each process keeps one Engine per side and switches the variant's weights before each move.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
from multiprocessing import Pool

import engine
from engine import weights
from engine.games import GAMES
from engine.stats import elo_estimate


SWITCHES = ("reductions", "probcut", "early_reductions", "qs_promotions", "qs_exchanges")


@functools.lru_cache(maxsize=None)
def read_file(variant: str, path: str):
    """A weights file's (table, meta), read once a process."""
    found, table, meta = weights.read(path)
    if found != variant:
        raise SystemExit(f"{path}: weights for {found}, not {variant}")
    return table, meta


def layers(variant: str, source: str) -> list:
    """What a side plays, as the (table, meta) of the files to install in order (none: the
    hand-set evaluation), as `weights.files_of` names them; a network file plays over the
    shipped weights."""
    paths = weights.files_of(variant, source)
    if paths == [source] and read_file(variant, source)[1].get("model") == "network":
        paths = weights.files_of(variant, weights.PATTERNS) + paths
    return [read_file(variant, path) for path in paths]


def read_sides(variant: str, a: str, b: str) -> None:
    layers(variant, a), layers(variant, b)


def use(variant: str, source: str) -> None:
    """Make `source` the variant's evaluation in this process."""
    weights.use_hand_set(variant)
    for table, meta in layers(variant, source):
        weights.install(variant, table, meta)


def make_engine(settings: dict) -> engine.Engine:
    e = engine.Engine(16)
    for name, value in settings.items():
        setattr(e, name, value)
    return e


def switches(pairs: list[str]) -> dict:
    out = {}
    for item in pairs or []:
        name, _, value = item.partition("=")
        if name not in SWITCHES or value not in ("true", "false"):
            raise SystemExit(f"--a-set/--b-set take NAME=true|false, NAME one of {', '.join(SWITCHES)}")
        out[name] = value == "true"
    return out


def play_pair(job):
    variant, a, b, nodes, plies, seed, a_set, b_set = job
    rng = random.Random(seed)
    random_start = GAMES[variant].random_start
    while True:
        board = engine.Board(variant, random_start(rng) if random_start else None)
        for _ in range(plies):
            if board.is_game_over():          # a short game (Dipole): draw another opening
                break
            board.push(rng.choice(board.legal_moves()))
        if not board.is_game_over():
            start = board
            break
    points = []
    for a_side in (0, 1):
        board = start.copy()
        engines = [make_engine(a_set), make_engine(b_set)]
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
    p.add_argument("--a", required=True, help="weights file, <hand-set>, <patterns> or <shipped>")
    p.add_argument("--b", default=weights.HAND_SET, help="weights file, <hand-set>, <patterns> or <shipped>")
    p.add_argument("--a-set", action="append", metavar="NAME=BOOL", help="a search switch of A")
    p.add_argument("--b-set", action="append", metavar="NAME=BOOL", help="a search switch of B")
    p.add_argument("--pairs", type=int, default=50)
    p.add_argument("--nodes", type=int, default=20000)
    p.add_argument("--plies", type=int, default=6, help="random plies of each opening")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    a_set, b_set = switches(args.a_set), switches(args.b_set)
    jobs = [(args.variant, args.a, args.b, args.nodes, args.plies, args.seed * 100003 + i,
             a_set, b_set) for i in range(args.pairs)]
    penta = [0] * 5
    wins = draws = losses = 0
    layers(args.variant, args.a), layers(args.variant, args.b)    # a bad file fails here
    # Each process reads both sides' files before its first move: a network over the patterns
    # is checked against those the variant plays at import.
    with Pool(args.workers, initializer=read_sides, initargs=(args.variant, args.a, args.b)) as pool:
        for n, points in enumerate(pool.imap_unordered(play_pair, jobs), 1):
            penta[int(round(sum(points) * 2))] += 1
            wins += points.count(1.0)
            draws += points.count(0.5)
            losses += points.count(0.0)
            print(f"pair {n}/{args.pairs}: {points}  A +{wins} ={draws} -{losses}  "
                  f"{elo_estimate(penta).text()}", flush=True)
    print(f"A = {args.a} {a_set or ''}, B = {args.b} {b_set or ''}, {args.variant}, "
          f"{args.nodes} nodes a move")
    print(f"A: +{wins} ={draws} -{losses}, pairs {penta}; {elo_estimate(penta).text()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
