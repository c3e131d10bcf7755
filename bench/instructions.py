"""Instructions per node of this engine's search and of Scan 2.0's, counted by valgrind's
callgrind in the same run: a count that does not move with the machine's load, unlike nodes per
second on a shared or virtual machine, where two runs of one build differ by 5-10 %.

    python bench/instructions.py --scan2 SCRATCH_DIR [--depth 13] [--positions start,Woldouby]

Each program searches each position to a fixed nominal depth (one thread, 64 MB hash), under
`valgrind --tool=callgrind` with collection switched on only inside the search (this engine's
`search_root`, Scan's `search_id`), so start-up, weight loading and table clearing are left out.
Printed per program and position: nodes, instructions per node, evaluations per node, the
instructions of one evaluation (inclusive: everything it calls), and the instructions per node
outside the evaluation; then the ratio of instructions per node (ours / Scan's). The two trees
differ (each program prunes in its own way), so these are costs per node, not per depth.
Instructions are not time: a cache miss costs no instruction, so a ratio here is a lower bound
of what the code does, and nodes per second (`scan_search.py`) remain the measure of speed.
--cache adds callgrind's simulation of the first-level data cache (this machine's sizes) and
prints its read misses per node, --branches its simulation of branch prediction and the
conditional branches mispredicted per node: where memory or the pipeline rather than
instructions make the difference.

SCRATCH_DIR is a Scan 2.0 built outside the project by the shared `build-scan2.sh`; without
--scan2 only this engine is counted. Needs valgrind (Debian: `apt install valgrind`). About 30 s
per program and position.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

from scan_search import positions

from engine.notation import position_string

OUR_EVAL = re.compile(r"_draughts__op_evaluate(_quiet)?$")
SCAN_EVAL = re.compile(r"^eval\(Board")

OUR_SEARCH = """
import sys
sys.path.insert(0, {bench!r})
import engine
from scan_search import positions
board = dict(positions())[{name!r}]
result = engine.Engine(64).search(board.copy(), depth={depth})
print("nodes", result.nodes)
"""


def callgrind_totals(path: str, eval_pattern: re.Pattern) -> tuple[int, int, int, int, int]:
    """(instructions collected, calls of the evaluation, their inclusive instructions, L1 data
    read misses, conditional branches mispredicted; -1 for what was not simulated) from a
    callgrind output file: the `events:` and `summary:` lines, and each `calls=` line naming
    the evaluation followed by the line of that call's inclusive cost."""
    names: dict[str, str] = {}
    total = calls = inclusive = 0
    events: list[str] = []
    misses = mispredicts = -1
    target = ""
    after_call = False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if after_call:
                after_call = False
                if eval_pattern.search(target):
                    inclusive += int(line.split()[1])
                continue
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith(("summary:", "totals:")):
                values = [int(v) for v in line.split()[1:]]
                total = values[0]
                if "D1mr" in events:
                    misses = values[events.index("D1mr")]
                if "Bcm" in events:
                    mispredicts = values[events.index("Bcm")]
            elif line.startswith("cfn="):
                match = re.match(r"cfn=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
                if match:
                    if match.group(2):
                        names[match.group(1)] = match.group(2)
                    target = names.get(match.group(1), "")
            elif line.startswith("fn="):
                match = re.match(r"fn=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
                if match and match.group(2):
                    names[match.group(1)] = match.group(2)
            elif line.startswith("calls="):
                after_call = True
                if eval_pattern.search(target):
                    calls += int(line[6:].split()[0])
    return total, calls, inclusive, misses, mispredicts


def valgrind(sim: tuple[bool, bool]) -> list[str]:
    """callgrind, with the cache and branch-prediction simulations asked for."""
    return (["valgrind", "--tool=callgrind"] + (["--cache-sim=yes"] if sim[0] else [])
            + (["--branch-sim=yes"] if sim[1] else []))


def count_ours(name: str, depth: int, workdir: str,
               sim: tuple[bool, bool]) -> tuple[int, str]:
    out = os.path.join(workdir, f"ours-{name}.out")
    code = OUR_SEARCH.format(bench=os.path.dirname(os.path.abspath(__file__)), name=name,
                             depth=depth)
    run = subprocess.run(valgrind(sim) + ["--toggle-collect=*search_root*",
                          f"--callgrind-out-file={out}", sys.executable, "-c", code],
                         capture_output=True, text=True)
    nodes = [line for line in run.stdout.splitlines() if line.startswith("nodes ")]
    if run.returncode != 0 or not nodes:
        raise SystemExit(f"the search of {name} under valgrind failed:\n{run.stderr[-2000:]}")
    return int(nodes[-1].split()[1]), out


def count_scan(folder: str, board, depth: int, name: str, workdir: str,
               sim: tuple[bool, bool]) -> tuple[int, str]:
    exe = os.path.join(folder, "scan")
    if not os.access(exe, os.X_OK):
        raise SystemExit(f"no Scan 2.0 at {exe}: build it with build-scan2.sh first")
    out = os.path.join(workdir, f"scan-{name}.out")
    text = position_string(board)
    lines = ["hub", "set book false", "set tt-size 22", "set threads 1", "init", "new",
             f"pos {text[0].lower()}{text[1:]}", f"depth {depth}", "time 100000000", "go"]
    proc = subprocess.Popen(valgrind(sim) + ["--toggle-collect=*search_id*",
                             f"--callgrind-out-file={out}", exe, "hub"], cwd=folder,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)
    proc.stdin.write("\n".join(lines) + "\n")
    proc.stdin.flush()
    last = None
    for line in proc.stdout:
        words = line.split()
        if words[:1] == ["info"] and len(words) >= 5:
            last = words
        if words[:1] == ["move"]:
            break
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait(120)
    if last is None:
        raise SystemExit(f"Scan 2.0 gave no search for {name}")
    return int(last[4]), out


def row(program: str, nodes: int, totals: tuple[int, int, int, int, int]) -> float:
    total, calls, inclusive, misses, mispredicts = totals
    per_node = total / nodes
    per_eval = f"{inclusive / calls:,.0f}" if calls else "n/a"
    extra = "".join(f" {count / nodes:>10.2f}" for count in (misses, mispredicts) if count >= 0)
    print(f"  {program:9s} {nodes:>11,d} {per_node:>10,.0f} {calls / nodes:>10.2f} "
          f"{per_eval:>10s} {(total - inclusive) / nodes:>10,.0f}{extra}", flush=True)
    return per_node


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scan2", help="folder of a Scan 2.0 build (omit: this engine only)")
    parser.add_argument("--depth", type=int, default=13, help="nominal depth (default 13)")
    parser.add_argument("--positions", default="start,Woldouby,opening+10",
                        help="comma-separated names from scan_search.py (default "
                             "start,Woldouby,opening+10)")
    parser.add_argument("--cache", action="store_true",
                        help="simulate the L1 data cache too and print its read misses per node "
                             "(about twice as slow)")
    parser.add_argument("--branches", action="store_true",
                        help="simulate branch prediction too and print the conditional branches "
                             "mispredicted per node")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt install valgrind)")
    if not 1 <= args.depth <= 40:
        parser.error("--depth must be 1 to 40")
    known = dict(positions())
    wanted = [name.strip() for name in args.positions.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in known]
    if unknown or not wanted:
        parser.error(f"unknown position(s) {unknown}; known: {', '.join(known)}")
    print(f"depth {args.depth}, one thread, 64 MB hash; instructions inside the search only")
    print(f"  {'program':9s} {'nodes':>11s} {'instr/node':>10s} {'evals/node':>10s} "
          f"{'instr/eval':>10s} {'other/node':>10s}"
          + (f" {'L1 miss/nd':>10s}" if args.cache else "")
          + (f" {'mispr/node':>10s}" if args.branches else ""))
    sim = (args.cache, args.branches)
    with tempfile.TemporaryDirectory() as workdir:
        for name in wanted:
            print(name, flush=True)
            nodes, out = count_ours(name, args.depth, workdir, sim)
            ours = row("ours", nodes, callgrind_totals(out, OUR_EVAL))
            if args.scan2:
                nodes, out = count_scan(args.scan2, known[name], args.depth, name, workdir, sim)
                scan = row("Scan 2.0", nodes, callgrind_totals(out, SCAN_EVAL))
                print(f"  instructions per node, ours / Scan's: {ours / scan:.2f}", flush=True)


if __name__ == "__main__":
    main()
