"""Perft against Scan's move generator, in the same run (International draughts).

    python bench/scan_perft.py --scan PATH/TO/SCAN [--repeat 7]
    python bench/scan_perft.py --scan PATH/TO/SCAN --callgrind    # instructions, not seconds

PATH/TO/SCAN is a checkout of Scan's public source (Scan 3.1 by Fabien Letouzey, for example
the `rhalbersma/scan` repository; its `src/` folder is used). Nothing of Scan is copied into
this project: the script writes a small perft driver of its own into a scratch folder, compiles
it there with Scan's sources and Scan's own compiler flags (-O2 -mpopcnt -flto), and deletes
the folder afterwards. Both perfts count the last ply in bulk (the number of legal moves), so
the leaf counts must agree; the script stops if they do not. Like for like: neither keeps a
hash key or rule counters along the way (Scan's position has none; this engine's perft moves
only the pieces for International, whose moves do not depend on them). Prints leaves per
second for both and the ratio (ours / Scan's), best of --repeat runs, the two programs taking
turns. On a shared or virtual machine a program's speed can change by half between runs a few
seconds apart; best of 3 runs has been seen to read 0.65x where best of 7 read 1.0x, so 7 is
the default (about two minutes).

With --callgrind it counts instructions instead (valgrind's callgrind, smaller depths): the
count of a perft of depth N less that of depth 1, so that start-up and imports drop out. On a
busy or noisy machine this is the figure to compare builds by; it is not a speed (the two
programs run at different instructions per cycle), so the ratio of seconds stays the goal.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time

import engine

DRIVER = r"""
// Perft driver for Scan's generator: counts the legal moves at the last ply in bulk.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bit.hpp"
#include "fen.hpp"
#include "gen.hpp"
#include "hash.hpp"
#include "list.hpp"
#include "pos.hpp"
#include "var.hpp"

static uint64_t count(const Pos & pos, int depth) {
   List list;
   gen_moves(list, pos);
   if (depth <= 1) return depth == 1 ? list.size() : 1;
   uint64_t leaves = 0;
   for (int i = 0; i < list.size(); i++) leaves += count(pos.succ(list[i]), depth - 1);
   return leaves;
}

int main(int argc, char * argv[]) {
   if (argc != 3) { std::fprintf(stderr, "usage: perft FEN DEPTH\n"); return 2; }
   bit::init();
   hash::init();
   pos::init();
   var::init();
   bit::init();
   Pos pos = pos_from_fen(argv[1]);
   auto start = std::chrono::steady_clock::now();
   uint64_t leaves = count(pos, std::atoi(argv[2]));
   double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
   std::printf("%llu %.6f\n", (unsigned long long) leaves, seconds);
   return 0;
}
"""

WOLDOUBY = "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"
RANDOM178 = "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"
START = "W:W31-50:B1-20"
CASES = [("start", START, 9), ("start", START, 10), ("Woldouby", WOLDOUBY, 14),
         ("Random178", RANDOM178, 8)]
CALLGRIND_CASES = [("start", START, 7), ("Woldouby", WOLDOUBY, 12), ("Random178", RANDOM178, 6)]


def build_driver(scan: str, folder: str) -> str:
    src = os.path.join(scan, "src")
    sources = [f for f in glob.glob(os.path.join(src, "*.cpp")) if os.path.basename(f) != "main.cpp"]
    if not sources:
        raise SystemExit(f"{src}: no Scan sources (*.cpp) there")
    driver = os.path.join(folder, "perft_driver.cpp")
    with open(driver, "w") as f:
        f.write(DRIVER)
    exe = os.path.join(folder, "scan_perft")
    flags = ["-std=c++14", "-fno-rtti", "-O2", "-mpopcnt", "-flto", "-DNDEBUG", "-pthread"]
    command = ["g++", *flags, "-I", src, "-o", exe, driver, *sources]
    print("building Scan's generator with a perft driver in a scratch folder...", flush=True)
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit("the build failed:\n" + result.stderr[-3000:])
    return exe


def scan_perft(exe: str, fen: str, depth: int) -> tuple[int, float]:
    out = subprocess.run([exe, fen, str(depth)], capture_output=True, text=True, check=True).stdout
    leaves, seconds = out.split()
    return int(leaves), int(leaves) / float(seconds)


def our_perft(fen: str, depth: int) -> tuple[int, float]:
    board = engine.Board("international", fen)
    start = time.perf_counter()
    leaves = engine.perft(board, depth)
    return leaves, leaves / (time.perf_counter() - start)


def instructions(command: list[str]) -> int:
    """Instructions the command executes, counted by callgrind. A fixed hash seed, and numpy's
    OpenBLAS without its thread pool (whose threads spin-wait for a while after numpy is
    imported, a count that varies by millions from run to run), make the count repeatable."""
    result = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                             *command], capture_output=True, text=True,
                            env=dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1"))
    for line in result.stderr.splitlines():
        if "refs:" in line:
            return int(line.split("refs:")[1].replace(",", ""))
    raise SystemExit(f"callgrind gave no count for {command[0]}:\n{result.stderr[-2000:]}")


def our_command(fen: str, depth: int) -> list[str]:
    code = f"import engine; print(engine.perft(engine.Board('international', {fen!r}), {depth}))"
    return [sys.executable, "-c", code]


def compare_instructions(exe: str) -> None:
    if shutil.which("valgrind") is None:
        raise SystemExit("--callgrind needs valgrind (Debian: apt-get install valgrind)")
    print(f"{'position':10s} {'depth':>5s} {'leaves':>12s} {'Scan Ir/leaf':>12s} {'ours Ir/leaf':>12s} "
          f"{'Scan / ours':>11s}")
    for name, fen, depth in CALLGRIND_CASES:
        leaves, _ = our_perft(fen, depth)
        theirs = instructions([exe, fen, str(depth)]) - instructions([exe, fen, "1"])
        ours = instructions(our_command(fen, depth)) - instructions(our_command(fen, 1))
        print(f"{name:10s} {depth:5d} {leaves:12,d} {theirs / leaves:12.1f} {ours / leaves:12.1f} "
              f"{theirs / ours:10.2f}×", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scan", required=True, help="a checkout of Scan's source (with src/)")
    parser.add_argument("--repeat", type=int, default=7,
                        help="runs of each program for each position; the best counts (default 7)")
    parser.add_argument("--callgrind", action="store_true",
                        help="count instructions with valgrind instead of timing")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat must be 1 or more")
    folder = tempfile.mkdtemp(prefix="scan-perft-")
    try:
        exe = build_driver(args.scan, folder)
        if args.callgrind:
            compare_instructions(exe)
            return 0
        print(f"{'position':10s} {'depth':>5s} {'leaves':>15s} {'Scan M/s':>9s} {'ours M/s':>9s} {'ratio':>6s}")
        for name, fen, depth in CASES:
            best_scan = best_ours = 0.0
            for _ in range(args.repeat):
                theirs, scan_rate = scan_perft(exe, fen, depth)
                ours, our_rate = our_perft(fen, depth)
                if theirs != ours:
                    print(f"{name} perft {depth}: Scan counts {theirs:,}, this engine {ours:,}",
                          file=sys.stderr)
                    return 1
                best_scan, best_ours = max(best_scan, scan_rate), max(best_ours, our_rate)
            print(f"{name:10s} {depth:5d} {ours:15,d} {best_scan / 1e6:9.1f} {best_ours / 1e6:9.1f} "
                  f"{best_ours / best_scan:5.2f}×", flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
