"""Speed-up of the three long jobs from one local worker to two, and through a local Ray
instance (Ray's overhead on one machine), measured in one run:

    python bench/parallel_speedup.py [--games 96] [--match-games 8] [--pieces 4] [--ray-cpus 2]

Prints, for self-play, a fixed-node match and a table build, the seconds of each way and the
ratios to one worker. Needs Ray (pip install '.[cluster]').
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from engine import egdb, selfplay, weights  # noqa: E402
from engine.clients import EngineSpec, TimeControl  # noqa: E402
from engine.match import Match  # noqa: E402
from engine.openings import random_openings  # noqa: E402


def timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=96, help="self-play games (default 96)")
    parser.add_argument("--match-games", type=int, default=8, help="match games (default 8)")
    parser.add_argument("--pieces", type=int, default=4, help="checkers table pieces (default 4)")
    parser.add_argument("--ray-cpus", type=int, default=2)
    args = parser.parse_args()
    import random

    import ray
    ray.init(num_cpus=args.ray_cpus, include_dashboard=False, log_to_driver=False)
    ways = [("1 process", 1, None), ("2 processes", 2, None), (f"Ray, {args.ray_cpus} CPUs", 2, "local")]
    engine = EngineSpec.parse(f"{sys.executable} -m engine uci")
    openings = random_openings("checkers", args.match_games // 2, 6, random.Random(1))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for label, workers, address in ways:
            where = Path(tmp) / label.replace(" ", "_").replace(",", "")
            play = timed(lambda: selfplay.run("checkers", args.games, where / "sp", nodes=2000,
                                              workers=workers, eval_file=weights.HAND_SET,
                                              progress=False, ray=address))
            match = timed(lambda: Match([engine, engine], "checkers", TimeControl(nodes=20000),
                                        openings, concurrency=workers, report=None,
                                        ray=address).run())
            build = timed(lambda: egdb.build("checkers", args.pieces, where / "egdb", report=None,
                                             threads=workers, ray=address))
            rows.append((label, play, match, build))
            print(f"{label:<16} selfplay {play:7.1f} s   match {match:7.1f} s   "
                  f"egdb build {build:7.1f} s", flush=True)
    base = rows[0]
    print(f"\nspeed-up against one process (self-play {args.games} checkers games at 2,000 nodes; "
          f"a {args.match_games}-game match at 20,000 nodes; checkers tables to {args.pieces} pieces):")
    for label, play, match, build in rows[1:]:
        print(f"{label:<16} selfplay {base[1] / play:5.2f}x   match {base[2] / match:5.2f}x   "
              f"egdb build {base[3] / build:5.2f}x")
    ray.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
