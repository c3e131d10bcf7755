"""Search depth and speed against Scan 2.0 in the same run: each program searches the same
positions for the same time, one after the other, single thread, the same hash size; prints the
depth each reached, the difference, nodes per second and their ratio (ours / Scan's).

    python bench/scan_search.py --scan2 SCRATCH_DIR [--seconds 5] [--hash 256]

SCRATCH_DIR is a Scan 2.0 built outside the project by the shared `build-scan2.sh` (the folder
that holds `scan`, `scan.ini` and `data/`); nothing of Scan is copied here. Scan is driven
through its own Hub (version 1) lines: `set`, `init`, `pos`, `time`, `go`, and its last `info`
line before `move` gives its depth, nodes and time. Scan's opening book is switched off; its
2-4 piece bitbases stay on (its default), and this engine uses no endgame tables unless the
caller set them up. The depths are nominal: the two searches extend and reduce differently,
so a ply of one is not a ply of the other; nodes per second are like for like (both count
every position they visit, quiescence included). This engine stops once it has proved a win or
a loss, and its line then says so (Scan goes on to a nominal depth).
"""

from __future__ import annotations

import argparse
import os
import queue
import subprocess
import sys
import threading

import engine
from engine.notation import position_string

WOLDOUBY = "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"
RANDOM178 = "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"
# A quiet middle game: the start and ten plies of a common opening.
OPENING = ["32-28", "18-23", "37-32", "12-18", "41-37", "7-12", "34-30", "1-7", "30-25",
           "20-24"]


def positions() -> list[tuple[str, engine.Board]]:
    opening = engine.Board("international")
    for move in OPENING:
        opening.push(move)
    return [("start", engine.Board("international")),
            ("Woldouby", engine.Board("international", WOLDOUBY)),
            ("Random178", engine.Board("international", RANDOM178)),
            ("opening+10", opening)]


class Scan2:
    """Scan 2.0 in Hub version 1: one process for the whole run."""

    def __init__(self, folder: str, hash_mb: int) -> None:
        exe = os.path.join(folder, "scan")
        if not os.access(exe, os.X_OK):
            raise SystemExit(f"no Scan 2.0 at {exe}: build it with build-scan2.sh first")
        self.proc = subprocess.Popen([exe, "hub"], cwd=folder, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     bufsize=1)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("hub")
        self.expect(lambda line: line == "wait")
        tt_bits = max(16, (hash_mb * 1024 * 1024 // 16).bit_length() - 1)  # 16-byte entries
        for line in ("set book false", f"set tt-size {tt_bits}", "set threads 1", "init"):
            self.send(line)
        self.expect(lambda line: line == "ready")

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def expect(self, predicate, on_line=None) -> str:
        while True:
            try:
                line = self.lines.get(timeout=120)
            except queue.Empty:
                raise SystemExit("Scan 2.0 did not answer in 120 s") from None
            if line is None:
                raise SystemExit("Scan 2.0 exited")
            if predicate(line):
                return line
            if on_line:
                on_line(line)

    def search(self, board: engine.Board, seconds: float) -> tuple[int, int, float]:
        """(depth, nodes, seconds) of Scan's last completed line."""
        last: list[str] = []

        def info(line: str) -> None:
            words = line.split()
            if words[:1] == ["info"] and len(words) >= 7:
                last[:] = words

        text = position_string(board)
        self.send("new")
        self.send(f"pos {text[0].lower()}{text[1:]}")
        self.send(f"time {int(seconds * 1000)}")
        self.send("go")
        self.expect(lambda line: line.startswith("move"), info)
        if not last or int(last[4]) == 0:
            raise SystemExit(f"Scan 2.0 gave no search for {board.fen()} (a forced move?)")
        return int(last[1]), int(last[4]), float(last[5])

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(2)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scan2", required=True, help="folder of a Scan 2.0 build")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per search (default 5)")
    parser.add_argument("--hash", type=int, default=256, help="hash MB for both (default 256)")
    args = parser.parse_args()
    if args.seconds <= 0 or args.hash < 1:
        parser.error("--seconds and --hash must be positive")
    scan = Scan2(args.scan2, args.hash)
    print(f"{args.seconds:g} s per search, {args.hash} MB hash, one thread each", flush=True)
    print(f"{'position':12s} {'Scan depth':>10s} {'ours':>5s} {'diff':>5s} "
          f"{'Scan Mnps':>9s} {'ours Mnps':>9s} {'ratio':>6s}", flush=True)
    ratios = []
    try:
        for name, board in positions():
            depth, nodes, seconds = scan.search(board, args.seconds)
            ours = engine.Engine(args.hash).search(board.copy(), movetime=args.seconds)
            scan_nps = nodes / max(seconds, 1e-9)
            our_nps = ours.nodes / max(ours.time, 1e-9)
            ratios.append(our_nps / scan_nps)
            # A proven result ends this engine's search early, and its depth with it.
            note = ""
            if ours.mate is not None:
                note = (f"  (ours proved a {'win' if ours.mate > 0 else 'loss'} in "
                        f"{abs(ours.mate)} moves and stopped after {ours.time:.1f} s)")
            print(f"{name:12s} {depth:10d} {ours.depth:5d} {ours.depth - depth:+5d} "
                  f"{scan_nps / 1e6:9.2f} {our_nps / 1e6:9.2f} {our_nps / scan_nps:5.2f}x{note}",
                  flush=True)
    finally:
        scan.close()
    product = 1.0
    for r in ratios:
        product *= r
    print(f"nodes per second, geometric mean of the ratios: {product ** (1 / len(ratios)):.2f}x")


if __name__ == "__main__":
    sys.exit(main())
