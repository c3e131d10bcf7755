"""How fast the protocol front ends answer while a search runs, and whether the engine keeps its
time when the machine is busy.

    python bench/latency.py                       # isready / ping / stop while searching
    python bench/latency.py --load 2              # the same with two busy processes beside it
    python bench/latency.py --match 400 --tc 0.05 --tolerance 0.05 --load 2

The first part starts the engine (UCI and Hub), starts an infinite search, and sends `isready`
(`ping`) every 50 ms, timing each answer; then `stop`, timing the `bestmove` (`done`). It prints
the median, the 95th percentile and the worst. With --match it then plays a self-play match
under the given time control (the project's match runner, two games at once) and prints the
forfeits on time. --load N keeps N other processes busy the whole time (a pure-Python loop
each), as a loaded machine would.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import subprocess
import sys
import time

from engine.match import EngineSpec, Match, default_engine_command, parse_time_control
from engine.openings import random_openings


def busy(stop_at: float) -> None:
    while time.monotonic() < stop_at:
        pass


def answer_times(protocol: str, probes: int) -> tuple[list[float], float]:
    """Seconds each probe took while an infinite search ran, and the stop's answer time."""
    proc = subprocess.Popen([sys.executable, "-m", "engine", protocol], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line: str) -> None:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def wait_for(prefix: str) -> float:
        start = time.perf_counter()
        for line in proc.stdout:
            if line.startswith(prefix):
                return time.perf_counter() - start
        raise RuntimeError(f"the engine ended before answering {prefix!r}")

    if protocol == "uci":
        probe, answer, go, stop, done = "isready", "readyok", "go infinite", "stop", "bestmove"
        send("uci")
        wait_for("uciok")
    else:
        probe, answer, go, stop, done = "ping", "pong", "go analyze", "stop", "done"
        send("hub")
        wait_for("wait")
        send("init")
        wait_for("ready")
        send("level infinite")
    send(go)
    time.sleep(0.2)
    times = []
    for _ in range(probes):
        start = time.perf_counter()
        send(probe)
        wait_for(answer)
        times.append(time.perf_counter() - start)
        time.sleep(0.05)
    start = time.perf_counter()
    send(stop)
    wait_for(done)
    stopped = time.perf_counter() - start
    send("quit")
    proc.wait(10)
    return times, stopped


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--probes", type=int, default=40, help="isready/ping probes per protocol")
    p.add_argument("--load", type=int, default=0, help="busy processes beside the engine")
    p.add_argument("--match", type=int, default=0, metavar="GAMES", help="then a self-play match")
    p.add_argument("--tc", default="0.05", help="the match's time control (default 0.05)")
    p.add_argument("--tolerance", type=float, default=0.05)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)

    loaders = [multiprocessing.Process(target=busy, args=(time.monotonic() + 10 ** 6,), daemon=True)
               for _ in range(args.load)]
    for proc in loaders:
        proc.start()
    try:
        for protocol in ("uci", "hub"):
            times, stopped = answer_times(protocol, args.probes)
            ms = sorted(t * 1000 for t in times)
            print(f"{protocol}: {len(ms)} probes during a search, load {args.load}: median "
                  f"{statistics.median(ms):.1f} ms, 95th percentile {ms[int(0.95 * (len(ms) - 1))]:.1f} ms, "
                  f"worst {ms[-1]:.1f} ms; stop answered in {stopped * 1000:.1f} ms", flush=True)
        if args.match:
            tc = parse_time_control(args.tc)
            tc.tolerance = args.tolerance
            spec = EngineSpec.parse(default_engine_command())
            openings = random_openings("international", (args.match + 1) // 2, 4,
                                       random.Random(args.seed))
            match = Match([spec, spec], "international", tc, openings, concurrency=2, report=None)
            result = match.run()
            late = [g for g in result.games if g.forfeit]
            print(f"match: {result.played} games at {tc}, tolerance {args.tolerance:g} s, load "
                  f"{args.load}: {len(late)} forfeits" + "".join(f"\n  game {g.number}: {g.termination}"
                                                               for g in late))
            # Each move's time from the referee's `go` to the answer's arrival.
            used = sorted(t * 1000 for g in result.games for t in g.times)
            if used:
                print(f"  {len(used)} moves: median {statistics.median(used):.1f} ms, 99th "
                      f"percentile {used[int(0.99 * (len(used) - 1))]:.1f} ms, 99.9th "
                      f"{used[int(0.999 * (len(used) - 1))]:.1f} ms, worst {used[-1]:.1f} ms")
    finally:
        for proc in loaders:
            proc.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
