"""Command line: ``python -m engine <command>`` (also installed as ``dimensiones``)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from . import Board, Engine, __version__, divide, games, perft, variants
from .bench import DEFAULT_DEPTH, DEFAULT_HASH_MB, run_bench
from .egdb import LZ4_LEVEL, ZSTD_LEVEL
from .errors import EngineError, whole_number
from .parallel import ray_address
from .types import Termination

DESCRIPTION = """\
Dimensiones: a game engine for the draughts family and related games.

commands:
  perft      count the legal move sequences of a given length (move-generator check and speed)
  analyse    search a position and print each finished iteration (depth, score, PV)
  bench      search fixed positions of every game: total nodes (a signature) and speed
  match      play two engines (UCI or Hub) against each other: Elo, SPRT, PDN records
  uci        speak the UCI-style protocol on standard input/output (for GUIs and match runners)
  hub        speak the Hub protocol (Scan's, version 2) for draughts GUIs
  dxp        play over DamExchange (TCP), as draughts engines and tournaments do
  moves      show a position, its legal moves and whether the game has ended
  show       draw a position: the text diagram, or an SVG or PNG picture
  annotate   analyse every move of the games of a PDN/PGN file and mark the mistakes
  serve      the web board: play and analyse every game in a browser
  openings   list the named opening sets, or print the positions of one
  selfplay   play the engine against itself and keep positions for training its evaluation
  relabel    search self-play positions again, deeper, for better training labels
  train      fit the learned evaluation to self-play games; writes a weights file
  egdb       build, describe or verify endgame tables (draughts, Dipole): exact results by retrograde analysis
  solve      the exact value of a position: from the endgame tables, else a proving search
  variants   list the implemented variants

Positions are FEN strings as in NOTATION.md, e.g. W:W31-50:B1-20 for international draughts.
Times are in seconds everywhere (--movetime 0.5, --tc 10+0.1).
Run `python -m engine COMMAND --help` for the options of a command."""


def _board(args) -> Board:
    return Board(args.variant, args.fen)


def cmd_perft(args) -> int:
    """perft DEPTH [--divide]: leaves of the move tree from the position, with leaves a second."""
    board = _board(args)
    start = time.perf_counter()
    if args.divide:
        total = 0
        for move, count in divide(board, args.depth).items():
            print(f"{move} {count}", flush=True)
            total += count
        count = total
    else:
        depths = range(1, args.depth + 1) if args.all_depths else [args.depth]
        for depth in depths:
            t0 = time.perf_counter()
            count = perft(board, depth)
            if args.all_depths and depth < args.depth:
                print(f"depth {depth}: {count} leaves in {time.perf_counter() - t0:.3f} s", flush=True)
    elapsed = time.perf_counter() - start
    rate = count / elapsed / 1e6 if elapsed > 0 else float("inf")
    print(f"{count} leaves in {elapsed:.3f} s ({rate:.1f} M leaves/s)")
    return 0


def cmd_analyse(args) -> int:
    """analyse: search a position to a depth, a node count or a time and print its lines."""
    board = _board(args)
    engine = Engine(args.hash)
    from .egdb import playing_tables
    engine.tablebases = playing_tables(args.egdb, args.variant)
    limits = {}
    if args.depth is not None:
        limits["depth"] = args.depth
    if args.nodes is not None:
        limits["nodes"] = args.nodes
    if args.movetime is not None:
        limits["movetime"] = args.movetime
    if not limits:
        limits["movetime"] = 5.0
    result = engine.search(board, multipv=args.multipv, info=lambda info: print(info, flush=True),
                           **limits)
    if result.best_move is None:
        outcome = board.outcome()
        if outcome is not None and outcome.termination == Termination.SUB_GAMES:
            print(f"bestmove (none): the game is over ({outcome.reason()})")
        else:
            print("bestmove (none): the side to move has no legal move")
    else:
        print(f"bestmove {result.best_move}")
    return 0


def cmd_bench(args) -> int:
    """bench: the fixed search benchmark; prints the node signature and nodes a second."""
    nodes, seconds = run_bench(args.depth, args.hash)
    print(f"{nodes} nodes {nodes / max(seconds, 1e-9):.0f} nps ({seconds:.2f} s)")
    return 0


def cmd_match(args) -> int:
    """match: play two engines (this one by default) against each other and report the score."""
    import random

    from .match import (Adjudication, EngineSpec, Match, default_engine_command,
                        parse_time_control, summary)
    from .openings import load, random_openings, schedule

    texts = args.engine or []
    if len(texts) > 2:
        raise EngineError("a match has two engines: give --engine at most twice")
    while len(texts) < 2:
        texts.insert(0, default_engine_command())     # this engine plays first
    specs = [EngineSpec.parse(t) for t in texts]
    for spec, name in zip(specs, args.name or []):
        spec.name = name
    for text in args.option or []:
        which, _, setting = text.partition(":")
        name, eq, value = setting.partition("=")
        if which not in ("1", "2") or not eq or not name:
            raise EngineError(f"--option {text!r}: expected 1:NAME=VALUE or 2:NAME=VALUE")
        specs[int(which) - 1].options[name] = value
    tc = parse_time_control(args.tc)
    tc.tolerance = args.tolerance
    adjudication = None
    if args.max_plies is not None or args.draw or args.resign:
        adjudication = Adjudication(args.max_plies, tuple(args.draw) if args.draw else None,
                                    tuple(args.resign) if args.resign else None)
    Match(specs, args.variant, tc, [])            # checks engines against the variant first
    pairs = (args.games + 1) // 2
    if args.openings:
        openings = schedule(load(args.openings, args.variant), pairs, args.openings_order, args.seed)
    else:
        print(f"choosing {pairs} balanced openings of {args.random_plies} random plies...", flush=True)
        openings = random_openings(args.variant, pairs, args.random_plies, random.Random(args.seed),
                                   start=args.start)
    sprt = None
    if args.sprt:
        sprt = (args.sprt[0], args.sprt[1], args.alpha, args.beta)
    ray = ray_address(args.ray)
    match = Match(specs, args.variant, tc, openings, args.concurrency, args.pdn, sprt,
                  results_path=args.results, ray=ray, adjudication=adjudication)
    where = f"pairs on Ray ({ray})" if ray else f"{args.concurrency} at a time"
    print(f"{match.names[0]} vs {match.names[1]}, {args.variant}, {2 * pairs} games, {tc}, "
          f"{where}" + (f", games saved to {args.pdn}" if args.pdn else "")
          + (f", results in {args.results}" if args.results else "")
          + (f", adjudication: {adjudication}" if adjudication else ""),
          flush=True)
    result = match.run()
    for line in summary(result):
        print(line)
    return 0


def cmd_selfplay(args) -> int:
    """selfplay: play the engine against itself and save quiet positions for `train`."""
    from . import selfplay
    played, kept = selfplay.run(args.variant, args.games, args.out, nodes=args.nodes,
                                workers=args.workers, random_plies=(args.random_plies[0],
                                                                    args.random_plies[1]),
                                eval_file=args.eval_file, seed=args.seed,
                                ray=ray_address(args.ray))
    print(f"{played} games played now, {kept:,} positions kept, in {args.out}")
    return 0


def cmd_relabel(args) -> int:
    """relabel: search the positions of self-play files again, deeper, into new files."""
    from . import selfplay
    written, positions = selfplay.relabel(args.variant, args.source, args.out, nodes=args.nodes,
                                          share=args.share, workers=args.workers,
                                          ray=ray_address(args.ray))
    print(f"{written} files written now, {positions:,} positions, in {args.out}")
    return 0


def cmd_train(args) -> int:
    """train: fit pattern, linear or network weights to self-play files and write a weights
    file."""
    from . import train
    if args.model == "network":
        from . import network
        if args.init or args.drawish is not None or args.phase != "pieces":
            raise EngineError("--init, --drawish and --phase are the patterns' options")
        network.fit(args.variant, args.dirs, args.out, hidden=args.hidden, hidden2=args.hidden2,
                    epochs=args.epochs, lam=args.lam, rate=args.rate, batch=args.batch,
                    holdout=args.holdout, report=lambda line: print(line, flush=True),
                    over_patterns=args.over_patterns)
        return 0
    train.fit(args.variant, args.dirs, args.out, lam=args.lam, l2=args.l2,
              phase_l2=args.phase_l2, prior_l2=args.prior_l2, holdout=args.holdout, iterations=args.iterations,
              init=args.init, drawish=args.drawish, phase=args.phase,
              report=lambda line: print(line, flush=True))
    return 0


def cmd_egdb(args) -> int:
    """egdb ACTION: build, compress, install, verify or list (info) endgame tables."""
    from . import egdb
    if args.variant is None:
        args.variant = games.DEFAULT if args.action == "install" else "checkers"
    if args.action == "build":
        if args.pieces is None:
            raise EngineError("egdb build needs --pieces N")
        print(f"building {args.variant} tables up to {args.pieces} pieces in "
              f"{args.dir}/{args.variant}"
              + (", verifying each slice as it is written" if args.verify else "")
              + (", compressing each slice once nothing left to build reads it" if args.compress
                 else "") + " (interrupt at any time: a new build resumes)", flush=True)
        start = time.perf_counter()
        tables = egdb.build(args.variant, args.pieces, args.dir,
                            report=lambda line: print(line, flush=True), threads=args.threads,
                            ray=ray_address(args.ray), compress=args.compress, check=args.check,
                            level=args.zstd_level, lz4_level=args.lz4_level, progress=True,
                            verify=args.verify)
        size = sum(e["bytes"] + e.get("dist_bytes", 0) for e in tables.manifest["slices"].values())
        print(f"done: {len(tables.manifest['slices'])} slices, {size:,} bytes, "
              f"{time.perf_counter() - start:.1f} s")
    elif args.action == "compress":
        check = {"sample": f"{egdb.CHECK_RUNS} runs of {egdb.CHECK_RUN} entries of each slice "
                 f"checked against the raw ones", "full": "every entry checked against the raw "
                 "one", "none": "no entry checked"}[args.check]
        print(f"compressing the {args.variant} tables in {args.dir}/{args.variant} ({check})",
              flush=True)
        egdb.compress(args.variant, args.dir, report=lambda line: print(line, flush=True),
                      check=args.check, threads=args.threads, level=args.zstd_level,
                      lz4_level=args.lz4_level)
    elif args.action == "install":
        from .egdb import user_dir
        folder = args.dir if args.dir != egdb.DEFAULT_DIR else user_dir()
        pieces = args.pieces or 4
        print(f"building the {args.variant} tables up to {pieces} pieces, compressed, in "
              f"{folder}/{args.variant}: every engine that plays (uci, analyse, dxp, serve) "
              f"probes them from then on", flush=True)
        start = time.perf_counter()
        tables = egdb.build(args.variant, pieces, folder, report=lambda line: print(line, flush=True),
                            threads=args.threads, compress=True, check=args.check,
                            level=args.zstd_level, lz4_level=args.lz4_level, progress=True)
        size = sum(e["bytes"] + e.get("dist_bytes", 0) for e in tables.manifest["slices"].values())
        print(f"done: {len(tables.manifest['slices'])} slices, {size:,} bytes, "
              f"{time.perf_counter() - start:.1f} s")
    elif args.action == "verify":
        tables = egdb.Tables(args.dir, args.variant)
        return _report_verify(egdb.verify(tables, args.slices, threads=args.threads), tables)
    else:
        for line in egdb.info(args.dir, args.variant):
            print(line)
    return 0


def _report_verify(report, tables) -> int:
    """Print a verification's figures and first wrong positions; 1 if any value is wrong."""
    if report.ok:
        print(f"verified: all {report.checked:,} entries of {tables.folder} agree with their "
              f"successors")
        return 0
    for name, stream, block in report.bad_blocks:
        print(f"CORRUPT: {name} block {block} of its {stream} file does not inflate (delete the "
              f"slice's files and its manifest entry, build and compress again)")
    if report.wrong:
        print(f"WRONG: {report.wrong:,} of {report.checked:,} entries of {tables.folder} "
              f"disagree with their successors; the first:")
        for name, index, text in report.examples:
            print(f"  {name} entry {index}: {text}")
    if report.underived:
        print(f"UNDERIVED: {report.underived:,} entries could not be checked: a successor holds "
              f"no value (a corrupt entry{', among the wrong ones above' if report.wrong else ''}"
              f", or a slice missing from the set)")
    return 1


def cmd_solve(args) -> int:
    """solve: a position's exact value from the endgame tables, or from a search."""
    from .egdb import TableError, Tables, solve
    board = _board(args)
    tables = None
    try:
        tables = Tables(args.dir, args.variant)
    except TableError as exc:
        if args.require_tables:
            raise
        print(f"(no endgame tables: {exc})", flush=True)
    if args.verify and tables is not None:
        from .egdb import reachable_slices, verify
        if _report_verify(verify(tables, reachable_slices(tables, board)), tables):
            return 1
    solution = solve(board, tables, movetime=args.movetime)
    print(solution)
    return 0


def cmd_uci(args) -> int:
    """uci: speak the UCI protocol on stdin and stdout until quit."""
    from .uci import main as uci_main
    return uci_main()


def cmd_hub(args) -> int:
    """hub: speak the Hub protocol (version 2) on stdin and stdout until quit."""
    from .hub import main as hub_main
    return hub_main()


def cmd_dxp(args) -> int:
    """dxp: play games over DamExchange (TCP), connecting to or listening for a peer."""
    from .dxp import main as dxp_main
    return dxp_main(args)


def cmd_moves(args) -> int:
    """moves: the legal moves of a position, one a line."""
    board = _board(args)
    print(board)
    print(f"FEN: {board.fen()}")
    moves = board.legal_moves()
    print(f"{len(moves)} legal moves: {' '.join(str(m) for m in moves)}")
    outcome = board.outcome()
    if outcome is not None:
        print(f"game over: {outcome.result()} ({outcome.reason()})")
    return 0


def cmd_show(args) -> int:
    """show: a position as a text diagram, or an SVG or PNG picture, after the moves given."""
    from . import svg
    board = _board(args)
    moves = []
    for number, text in enumerate(args.moves.split() if args.moves else [], 1):
        try:
            moves.append(board.push(text))        # each move read in the position it is played in
        except EngineError as exc:
            raise EngineError(f"--moves, move {number}: {exc}") from None
    arrows = []
    for item in args.arrow or []:
        a, sep, b = item.partition("-")
        if not sep:
            raise EngineError(f"--arrow takes FROM-TO, not {item!r}")
        arrows.append((a, b))
    try:
        picture = svg.board(board, size=args.size, lastmove=moves[-1] if moves else None,
                            arrows=arrows, flipped=args.flip)
    except ValueError as exc:
        raise EngineError(str(exc)) from None
    if args.svg:
        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(picture)
        print(f"wrote {args.svg}")
    if args.png:
        try:
            import cairosvg
        except ImportError:
            raise EngineError("--png needs cairosvg: pip install 'dimensiones[pictures]' "
                              "(or write --svg)") from None
        cairosvg.svg2png(bytestring=picture.encode(), write_to=args.png)
        print(f"wrote {args.png}")
    if not args.svg and not args.png:
        print(board)
        print(f"FEN: {board.fen()}")
    return 0


def cmd_annotate(args) -> int:
    """annotate: analyse the games of a game file and mark their mistakes (PDN or HTML)."""
    from . import annotate, pdn
    games = []
    for path in args.files:
        try:
            read = pdn.read_games(Path(path), args.variant, strict=True)
        except OSError as exc:
            raise EngineError(f"{path}: {exc.strerror}") from None
        except pdn.PdnError as exc:
            raise EngineError(f"{path}: {exc}") from None
        games.extend(read)
    if not games:
        raise EngineError("no games to annotate")
    reports = annotate.annotate(games, movetime=args.movetime, hash_mb=args.hash)
    text = annotate.write_pdn(reports)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        print(text, end="")
    if args.html:
        with open(args.html, "w", encoding="utf-8") as f:
            f.write(annotate.html_report(reports))
    for number, report in enumerate(reports, 1):
        counts = {label: sum(m.label == label for m in report.moves)
                  for _, _, _, label in annotate.THRESHOLDS}
        print(f"game {number}: {len(report.moves)} {_plural('move', len(report.moves))}, " + ", ".join(
            f"{n} {_plural(label, n)}" for label, n in counts.items()), file=sys.stderr)
    return 0


def _plural(noun: str, count: int) -> str:
    """'blunder' -> 'blunders', 'inaccuracy' -> 'inaccuracies' (for counts other than 1)."""
    if count == 1:
        return noun
    return noun[:-1] + "ies" if noun.endswith("y") else noun + "s"


def cmd_serve(args) -> int:
    """serve: the web board on a local port until interrupted."""
    from .serve import main as serve
    return serve(args)


def cmd_variants(args) -> int:
    """variants: every game with its start position."""
    for name in variants():
        board = Board(name)
        print(f"{name:<16} {board.spec.title:<36} start {board.fen()}")
    return 0


def cmd_openings(args) -> int:
    """openings: list the named opening sets, or print the positions of one."""
    from .openings import SETS, load
    if args.name is None:
        for named in SETS.values():
            print(f"{named.name:16s} {named.variant or 'every game':10s} {named.description}")
        print(f"{'plies-N':16s} {'every game':10s} every distinct position N plies from the "
              "start (N = 1..4), in move order")
        return 0
    entry = SETS.get(args.name)
    variant = args.variant or (entry.variant if entry and entry.variant else games.DEFAULT)
    for fen in load(args.name, variant):
        print(fen)
    return 0


def codec_level(what: str, highest: int):
    """argparse type of a codec's level option ("a zstd level"): an integer from 1 to
    `highest`."""
    def level(text: str) -> int:
        value = whole_number(text) or 0
        if not 1 <= value <= highest:
            raise argparse.ArgumentTypeError(f"{what} is an integer from 1 to {highest}, "
                                             f"not {text!r}")
        return value
    return level


# A bare --movetime of this many seconds or more is refused: analyse and solve once read
# milliseconds, and an old command line must not silently think a thousand times longer.
BARE_SECONDS_LIMIT = 100


def seconds(text: str) -> float:
    """argparse type of a time in seconds: '0.5', '2', '2s' or '500ms'. Written bare, it must
    be under BARE_SECONDS_LIMIT (a larger number names its unit: '300s')."""
    from .errors import decimal
    unit, number = 1.0, text
    if text.endswith("ms"):
        unit, number = 1e-3, text[:-2]
    elif text.endswith("s"):
        number = text[:-1]
    value = decimal(number)
    if value is None or value <= 0:
        raise argparse.ArgumentTypeError(f"a time is a positive number of seconds ('0.5', '2s' "
                                         f"or '500ms'), not {text[:40]!r}")
    if number == text and value >= BARE_SECONDS_LIMIT:
        raise argparse.ArgumentTypeError(
            f"{text} seconds? Times are in seconds (analyse and solve once took milliseconds): "
            f"write {value / 1000:g} for {value:g} ms, or {text}s if you mean {value:g} seconds")
    return value * unit


def port_number(text: str) -> int:
    """argparse type of a TCP port: 0 (any free port) to 65535."""
    from .errors import is_digits
    if not is_digits(text) or len(text) > 5 or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {text[:40]!r}")
    return int(text)


def ray_option(p, units: str) -> None:
    """Add the `--ray ADDRESS` option to a command that runs its `units` on Ray."""
    p.add_argument("--ray", metavar="ADDRESS", default=None,
                   help=f"run the {units} on a Ray cluster: its address, 'auto' (the cluster "
                   "this machine belongs to) or 'local' (a Ray instance for this run alone); "
                   "RAY_ADDRESS in the environment does the same. Needs pip install "
                   "'dimensiones[cluster]' here and on every machine of the cluster; the results "
                   "are the same as with local processes")


def build_parser() -> argparse.ArgumentParser:
    """The command line: one subcommand a job, each with its own --help."""
    parser = argparse.ArgumentParser(
        prog="python -m engine", description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"Dimensiones {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def positional(p):
        p.add_argument("--variant", "-v", default=games.DEFAULT, choices=variants(),
                       help="the game (default: international)")
        p.add_argument("--fen", "-f", default=None,
                       help="the position (default: the variant's start position); for "
                       "superdimensiones the five cards alone, e.g. ICUWR, give the start of "
                       "that card set")

    p = sub.add_parser("perft", help="count leaf positions at a depth",
                       description="Count the legal move sequences of length DEPTH from a position "
                       "(NOTATION.md: a whole capture is one move, identical captures are merged, "
                       "draw rules are not applied). The count is printed last, with the speed.")
    positional(p)
    p.add_argument("depth", type=int, metavar="DEPTH", help="number of plies (0 or more)")
    p.add_argument("--divide", action="store_true",
                   help="print the count below each legal move first")
    p.add_argument("--all-depths", action="store_true",
                   help="also print the counts of every smaller depth")
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("analyse", aliases=["analyze"], help="search a position",
                       description="Search a position and print a line per finished iteration "
                       "(depth, selective depth, score in centi-men or mate in N moves, nodes, "
                       "nodes per second, time, hash use, principal variation), then the best "
                       "move. Without a limit it searches for 5 seconds.")
    positional(p)
    p.add_argument("--movetime", type=seconds, metavar="SECONDS",
                   help="search time in seconds ('0.5', '2s' or '500ms')")
    p.add_argument("--depth", type=int, help="search depth in plies")
    p.add_argument("--nodes", type=int, help="node budget")
    p.add_argument("--multipv", type=int, default=1, help="number of best moves to show (default 1)")
    p.add_argument("--hash", type=int, default=64, help="hash table size in MB (default 64)")
    p.add_argument("--egdb", metavar="DIR", help="probe the endgame tables in DIR/VARIANT "
                   "(default: the user's table folder, where `egdb install` built them)")
    p.set_defaults(func=cmd_analyse)

    p = sub.add_parser("selfplay", help="self-play games for training",
                       description="The engine plays itself from random openings (a few random "
                       "plies; Super Dimensiones from a random card set), a fixed number of nodes "
                       "a move, in several processes, with a progress bar. Every quiet position "
                       "(draughts: no capture for the side to move; the other games: the move "
                       "played takes nothing, no check) is "
                       "kept with the game's result and the search's score, in compressed numpy "
                       "files of 16 games each (DIR/VARIANT-NNNNNN.npz). Batches have fixed "
                       "seeds and are skipped when present: an interrupted run continues, and a "
                       "larger --games adds games.",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog="example:\n  python -m engine selfplay --variant international "
                       "--games 8000 --nodes 2000 --workers 2 --out data/int-gen1\n"
                       "then: python -m engine train --variant international data/int-gen1 "
                       "--out int-gen1.npz")
    learnable = games.names(learned=True)
    p.add_argument("--variant", "-v", default=games.DEFAULT, choices=learnable)
    p.add_argument("--games", "-n", type=int, default=1000, help="games in all (default 1000)")
    p.add_argument("--nodes", type=int, default=2000, help="nodes searched a move (default 2000)")
    p.add_argument("--workers", "-w", type=int, default=os.cpu_count() or 1,
                   help="processes (default: every processor)")
    p.add_argument("--random-plies", type=int, nargs=2, default=(4, 8), metavar=("MIN", "MAX"),
                   help="random plies that open each game (default 4 8)")
    p.add_argument("--eval-file", metavar="FILE",
                   help="the evaluation that plays: a weights file, <hand-set>, or "
                   "<patterns> (the shipped weights without the network shipped over them) "
                   "(default <shipped>: what the package plays)")
    p.add_argument("--seed", type=int, default=0,
                   help="varies the random openings: runs that differ only in their seed play "
                   "different openings (default 0)")
    p.add_argument("--out", "-o", required=True, metavar="DIR", help="where the files go")
    ray_option(p, "batches of 16 games")
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser("relabel", help="search self-play positions again, deeper",
                       description="Search every position of the self-play files in SOURCE "
                       "again, NODES nodes each, and write them under the same names to DIR "
                       "with the deeper search's score in place of the one played (kept as "
                       "shallow_score): labels of a deeper search, which `train` blends with "
                       "the games' results (--lambda). --share keeps a part of each file's "
                       "positions (the same ones on a rerun). Files already in DIR are skipped: "
                       "an interrupted run continues. The draughts games only.",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog="example (20,000 nodes, a quarter of the positions):\n"
                       "  python -m engine relabel --variant international data/int-gen1 "
                       "--nodes 20000 --share 0.25 --out data/int-gen1-deep\n"
                       "then: python -m engine train --variant international data/int-gen1-deep "
                       "--lambda 0.7 --out int-gen2.npz")
    p.add_argument("--variant", "-v", default=games.DEFAULT,
                   choices=[n for n in learnable if games.GAMES[n].patterns])
    p.add_argument("source", metavar="SOURCE", help="a folder of self-play files")
    p.add_argument("--nodes", type=int, default=20000, help="nodes searched a position "
                   "(default 20000: ten times self-play's default)")
    p.add_argument("--share", type=float, default=1.0,
                   help="the part of each file's positions kept, in (0, 1] (default 1: all)")
    p.add_argument("--workers", "-w", type=int, default=os.cpu_count() or 1,
                   help="processes (default: every processor)")
    p.add_argument("--out", "-o", required=True, metavar="DIR", help="where the files go")
    ray_option(p, "files")
    p.set_defaults(func=cmd_relabel)

    p = sub.add_parser("train", help="fit the learned evaluation",
                       description="Fit the learned evaluation (draughts: board regions of 8 "
                       "squares, a king-square table, whole-board terms; Dipole, Superajedrez, "
                       "Super Dimensiones: piece-square tables and the hand-set terms; every "
                       "weight with an opening and an ending value; docs/learning.md) to "
                       "self-play positions by logistic regression of the game results, with an "
                       "L2 penalty, holding out whole games to report the validation loss. "
                       "Writes a weights file that Engine(eval_file=...), the UCI EvalFile "
                       "option and the Hub eval-file parameter load. Needs scipy "
                       "(pip install '.[train]').",
                       epilog="example: python -m engine train --variant international "
                       "data/int-gen1 --out int-gen1.npz")
    p.add_argument("dirs", nargs="+", metavar="DIR", help="folders of self-play files")
    p.add_argument("--variant", "-v", default=games.DEFAULT, choices=learnable)
    p.add_argument("--out", "-o", required=True, metavar="FILE", help="the weights file to write")
    p.add_argument("--lambda", dest="lam", type=float, default=0.5,
                   help="weight of the search score in the target, 0 (results only) to 1 "
                   "(default 0.5)")
    p.add_argument("--l2", type=float, default=1e-4,
                   help="L2 penalty of the region weights; in the other games, of every "
                   "weight's distance from the hand-set value (default 1e-4)")
    p.add_argument("--phase-l2", type=float, default=1e-3,
                   help="L2 penalty of the difference between opening and ending values (1e-3)")
    p.add_argument("--prior-l2", type=float, default=1e-2,
                   help="L2 penalty pulling the whole-board terms to the hand-set values "
                   "(draughts only; 1e-2)")
    p.add_argument("--holdout", type=float, default=0.1,
                   help="share of the games held out for validation (default 0.1)")
    p.add_argument("--iterations", type=int, default=300, help="L-BFGS iterations at most")
    p.add_argument("--init", metavar="FILE", default=None,
                   help="start from this weights file (usually the generation that played the "
                   "games) and pull every weight towards it instead of towards zero and the "
                   "hand-set values: a new generation keeps what the earlier data taught")
    p.add_argument("--drawish", action=argparse.BooleanOptionalAction, default=None,
                   help="scale drawish material down (three pieces or fewer against a king; "
                   "kings equal and men within one), in the fit and in the file's evaluation "
                   "(draughts only; default: on for International only)")
    p.add_argument("--model", choices=("patterns", "network"), default="patterns",
                   help="patterns: the board regions and whole-board terms, fitted by L-BFGS "
                   "(every learned game); network: a small neural network (the draughts games; "
                   "docs/learning.md), trained by Adam (default patterns)")
    p.add_argument("--hidden", type=int, default=128,
                   help="network: neurons of the first layer, a view (default 128)")
    p.add_argument("--hidden2", type=int, default=16,
                   help="network: neurons of the second layer (default 16)")
    p.add_argument("--epochs", type=int, default=20, help="network: passes over the data (20)")
    p.add_argument("--over-patterns", action="store_true",
                   help="network: learn a correction of the pattern weights the variant plays "
                   "(its value is added to theirs; the file then needs them loaded)")
    p.add_argument("--rate", type=float, default=1e-3, help="network: Adam's step (1e-3)")
    p.add_argument("--batch", type=int, default=8192, help="network: positions a step (8192)")
    p.add_argument("--phase", choices=("pieces", "tempo"), default="pieces",
                   help="what blends each weight's opening and ending value: the pieces on the "
                   "board, or the men's tempo (the rows they still have to go, as Scan's "
                   "evaluation does); written in the file (draughts only; default: pieces)")
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("egdb", help="build, describe or verify endgame tables",
                       description="Endgame tables of the draughts games and Dipole (where a "
                       "piece is a checker): every position up to N pieces, its exact result (win, draw or loss for the side to move) and "
                       "the plies to the end with best play, by retrograde analysis. 'build' "
                       "writes one file per material slice into DIR/VARIANT with a manifest of "
                       "checksums, printing a line per slice; it keeps slices already built, so "
                       "an interrupted build resumes. 'info' lists the slices of a directory. "
                       "'verify' derives every stored value again from its successors' values "
                       "(the retrograde rule, position by position, in parallel) and names the "
                       "first wrong positions; it exits with 1 if any is wrong (compressed "
                       "slices are first unpacked into memory, up to 70% of what is available). "
                       "'compress' "
                       "replaces each raw slice by a win/draw/loss file and a file of the won "
                       "positions' distances, in blocks compressed on their own (LZ4, zstd): "
                       "under a tenth of the raw bytes for International 2-5 pieces; the search probes "
                       "win/draw/loss from them (slices compressed in index order by an "
                       "earlier version are written again, a third smaller); "
                       "'build --compress' compresses each slice "
                       "as soon as no slice left to build reads it (for tables whose raw files "
                       "would not fit on the disk). 'install' builds compressed tables (default: "
                       "International up to 4 pieces, a few MB, about a minute) into the user's "
                       "table folder ($DIMENSIONES_EGDB, else ~/.cache/dimensiones/egdb), which "
                       "the engines that play (uci, analyse, dxp, serve) probe when no folder is "
                       "named. "
                       "Move-count draw rules are not part of the tables (docs/egdb.md).",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog="examples:\n  python -m engine egdb install\n"
                       "  python -m engine egdb build --variant checkers --pieces 5\n"
                       "  python -m engine egdb verify --variant checkers\n"
                       "  python -m engine egdb compress --variant checkers\n"
                       "  python -m engine egdb build --variant checkers --pieces 7 --compress\n"
                       "  python -m engine egdb verify --variant checkers --slices 0m2k-0m1k")
    p.add_argument("action", choices=["build", "compress", "info", "verify", "install"])
    p.add_argument("--variant", "-v", default=None, choices=games.names(tables=True),
                   help="the game (default: checkers; for install, international)")
    p.add_argument("--pieces", "-n", type=int, help="build every slice with up to N pieces")
    p.add_argument("--dir", "-d", default="egdb", help="the table directory (default: ./egdb)")
    p.add_argument("--threads", "-t", type=int, default=None,
                   help="threads a build, compress or verify works on (default: every processor)")
    p.add_argument("--slices", nargs="+", metavar="NAME",
                   help="verify only these slices (names as 'egdb info' lists them)")
    p.add_argument("--compress", action="store_true",
                   help="build: compress each slice once no slice left to build reads it "
                   "(see 'compress'); the raw files kept are only those the build still reads")
    p.add_argument("--verify", action="store_true",
                   help="build: verify each slice as soon as it is written, as 'verify' does, "
                   "while the slices it reads are still raw (far faster than verifying "
                   "compressed tables afterwards; about doubles a build's time); a wrong value "
                   "stops the build")
    p.add_argument("--zstd-level", type=codec_level("a zstd level", 19), default=ZSTD_LEVEL,
                   metavar="N",
                   help="compress, build --compress: zstd's level for the distances, 1-19 "
                   "(default %(default)s: the smallest files; 10 writes about ten times faster, "
                   "its files 4-17%% larger)")
    p.add_argument("--lz4-level", type=codec_level("an LZ4 level", 12), default=LZ4_LEVEL,
                   metavar="N",
                   help="compress, build --compress: LZ4's level for win/draw/loss, 1-12 "
                   "(default %(default)s: the smallest files; 6 writes about four times faster, "
                   "its files 2-3%% larger)")
    p.add_argument("--check", choices=["sample", "full", "none"], default="sample",
                   help="compress, build --compress: compare the compressed entries, as "
                   "probed, with the raw ones: runs of entries at random places of each slice (default), all of "
                   "them (slow: several positions are probed for each capture or loss), or none")
    ray_option(p, "slices of a build (the table directory shared by every machine, at the "
               "same path)")
    p.set_defaults(func=cmd_egdb)

    p = sub.add_parser("solve", help="exact value of a position",
                       description="The exact result of a position for the side to move: from "
                       "the endgame tables when they hold it (with the distance to the end and the "
                       "best line to it), else from a search with the tables at its leaves, which "
                       "answers only when it proves a win or a loss and says 'unknown' otherwise.")
    positional(p)
    p.add_argument("--dir", "-d", default="egdb", help="the table directory (default: ./egdb)")
    p.add_argument("--movetime", type=seconds, default=5.0, metavar="SECONDS",
                   help="search time in seconds when the tables do not hold the position "
                   "(default 5)")
    p.add_argument("--require-tables", action="store_true",
                   help="fail when no tables are found instead of only searching")
    p.add_argument("--verify", action="store_true",
                   help="first verify every table slice the position can reach (see egdb verify)")
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("bench", help="fixed search benchmark",
                       description="Search fixed positions of every game to a fixed depth with a "
                       "fresh hash table. The total node count is a signature that changes only "
                       "when the search's behaviour changes; the last line gives it with the speed.")
    p.add_argument("--depth", type=int, default=DEFAULT_DEPTH,
                   help=f"search depth (default {DEFAULT_DEPTH})")
    p.add_argument("--hash", type=int, default=DEFAULT_HASH_MB,
                   help=f"hash table size in MB (default {DEFAULT_HASH_MB})")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("match", help="engine-vs-engine match",
                       description="Play two engines against each other in pairs of games from "
                       "the same opening with colours swapped. Each --engine is a command line, "
                       "prefixed with hub: for a Hub engine (uci: is the default); without "
                       "--engine, this engine plays itself. An engine that crashes, runs out of "
                       "time or plays an illegal move loses that game and is restarted. Prints a "
                       "line per game, then wins/draws/losses, the Elo difference with its 95% "
                       "interval and, with --sprt, the SPRT verdict.",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog="example: python -m engine match --engine 'hub:dame hub' "
                       "--games 200 --tc 2+0.1 --concurrency 2 --pdn games.pdn")
    p.add_argument("--engine", "-e", action="append", metavar="CMD",
                   help="an engine command, e.g. 'hub:dame hub' (give twice)")
    p.add_argument("--name", action="append", help="a display name per engine, in order")
    p.add_argument("--option", action="append", metavar="N:NAME=VALUE",
                   help="set an option of engine 1 or 2 after the handshake, e.g. 2:Reductions=false")
    p.add_argument("--variant", "-v", default=games.DEFAULT, choices=variants())
    p.add_argument("--games", "-n", type=int, default=10, help="number of games (rounded up to pairs)")
    p.add_argument("--tc", default="0.1",
                   help="time control: SECONDS per move, BASE+INC in seconds, or nodes=N (N "
                   "nodes a move: independent of the machine's load and speed, for comparing "
                   "two builds or settings; a move over 120 s forfeits as a hang) (default 0.1)")
    p.add_argument("--tolerance", type=float, default=0.1,
                   help="seconds an engine may overrun before it forfeits (default 0.1)")
    p.add_argument("--concurrency", "-c", type=int, default=1, help="games played at once")
    p.add_argument("--openings", metavar="FILE|SET",
                   help="a file of FENs (or EPD lines), one per line, or a PDN/PGN file whose "
                   "games' last positions are the openings; or a named set: acf-3move (checkers' "
                   "156 three-move ballots), acf-3move-all (174, the barred too), acf-3move-tough "
                   "(50), plies-N (every position N plies from the start, N = 1..4). Default: "
                   "random openings. `python -m engine openings` lists the sets")
    p.add_argument("--openings-order", choices=("sequential", "random"), default="sequential",
                   help="play the openings in file order, or shuffled with --seed (default "
                   "sequential); a match with fewer pairs than openings plays the first ones")
    p.add_argument("--start", metavar="FEN",
                   help="the position the random openings start from (default: the variant's "
                   "start); for superdimensiones the five cards alone, e.g. ICUWR")
    p.add_argument("--random-plies", type=int, default=4,
                   help="plies of the random openings, checked to be roughly balanced (default 4)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random openings")
    p.add_argument("--pdn", "--pgn", dest="pdn", metavar="FILE",
                   help="save every game to FILE (PDN; PGN with Spanish algebraic moves for "
                   "superajedrez)")
    p.add_argument("--results", metavar="FILE",
                   help="keep the results as JSON in FILE, rewritten after every game: engines, "
                   "settings, every game's moves and result, totals, Elo and SPRT")
    p.add_argument("--sprt", type=float, nargs=2, metavar=("ELO0", "ELO1"),
                   help="run an SPRT of H0: elo = ELO0 against H1: elo = ELO1 and stop on a verdict")
    p.add_argument("--alpha", type=float, default=0.05, help="SPRT false positive rate")
    p.add_argument("--beta", type=float, default=0.05, help="SPRT false negative rate")
    adjudicate = p.add_argument_group(
        "adjudication", "End games before their rules do (off by default). SCORE is in 1/100\n"
        "of a man (a pawn in superajedrez), as the engines report it in their info lines\n"
        "(UCI `score cp`, Hub `score=`); a move without a score breaks a run. An adjudicated\n"
        "game says so in its Termination tag and in --results.")
    adjudicate.add_argument("--max-plies", type=int, metavar="N",
                            help="a draw once a game has N plies from its opening (as fastchess' "
                            "-maxmoves); protects a match from endless games")
    adjudicate.add_argument("--draw", type=int, nargs=3, metavar=("MOVES", "COUNT", "SCORE"),
                            help="a draw once each side has played MOVES moves and both engines' "
                            "last COUNT scores were within +-SCORE, e.g. --draw 30 8 10")
    adjudicate.add_argument("--resign", type=int, nargs=2, metavar=("COUNT", "SCORE"),
                            help="a win once both engines' last COUNT scores give the same side "
                            "SCORE or more, e.g. --resign 3 1000 (both must agree: a lone "
                            "engine's verdict could be its own bug)")
    ray_option(p, "game pairs (each worker starts both engines)")
    p.set_defaults(func=cmd_match)

    p = sub.add_parser("openings", help="list the opening sets, or print one",
                       description="Without a name: the named opening sets and what they hold. "
                       "With one (or a file): its positions, one FEN a line, checked for the "
                       "variant - what a match with --openings would play.",
                       epilog="example: python -m engine openings acf-3move --variant checkers")
    p.add_argument("name", nargs="?", metavar="FILE|SET")
    p.add_argument("--variant", "-v", default=None, choices=variants(),
                   help="the game (default: the set's own game, else international)")
    p.set_defaults(func=cmd_openings)

    p = sub.add_parser("uci", help="UCI-style protocol on stdin/stdout",
                       description="Speak the UCI-style protocol: standard UCI commands with this "
                       "project's FEN and move strings; the UCI_Variant option picks the game.")
    p.set_defaults(func=cmd_uci)
    p = sub.add_parser("hub", help="Hub protocol on stdin/stdout",
                       description="Speak the Hub protocol (version 2, as Scan 3 and the Hub GUI). "
                       "The variant parameter picks the draughts game.")
    p.set_defaults(func=cmd_hub)

    from .dxp import PORT, dxp_variants
    p = sub.add_parser("dxp", help="play over DamExchange (TCP) against another engine",
                       description="Play International draughts over DamExchange (DXP), the "
                       "protocol of draughts engines and tournament programs (Scan, Kingsrow, "
                       "Moby Dam, Damage). Connect to a peer that listens (--connect) or listen "
                       "for one (--listen); as the initiator (--initiator) this engine asks for "
                       "the games (time, moves, start position, colours alternating), else it "
                       "answers the peer's requests. It plays on its own clock from the game's "
                       "minutes, writes every game to --pdn, and exits 0 after the games, 1 with "
                       "the reason when the peer breaks the protocol, plays an illegal move, "
                       "disconnects or stops answering.",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog="examples:\n"
                       "  python -m engine dxp --connect 127.0.0.1:27531 --initiator --games 4 "
                       "--time 5 --pdn games.pdn\n"
                       "  python -m engine dxp --listen 27531          # a peer connects and asks "
                       "for games\n"
                       "  python -m engine match --engine dxp:127.0.0.1:27531 --tc 300+0 "
                       "--games 4   # the match runner against a listening DXP engine")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--connect", metavar="HOST:PORT",
                       help=f"connect to a peer that listens (DXP's port is {PORT})")
    where.add_argument("--listen", type=port_number, metavar="PORT",
                       help="listen on PORT for one peer (0: any free port, printed)")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address --listen binds (default 127.0.0.1, this machine only)")
    p.add_argument("--initiator", action="store_true",
                   help="ask for the games (GAMEREQ); without it, answer the peer's requests")
    p.add_argument("--games", "-n", type=int, default=2,
                   help="games to play (initiator; default 2); as follower, stop after this "
                   "many (default 2: give 0 for as many as the peer asks)")
    p.add_argument("--time", type=int, default=5, metavar="MINUTES",
                   help="initiator: minutes a side for each game (default 5)")
    p.add_argument("--moves", type=int, default=0,
                   help="initiator: the moves those minutes are for (default 0: the whole game; "
                   "some engines end the game unfinished once a number is reached)")
    p.add_argument("--fen", "-f", default=None,
                   help="initiator: the start position (default: the usual start)")
    p.add_argument("--openings", metavar="FILE|SET",
                   help="initiator: start positions as for match --openings, each played twice "
                   "with colours swapped")
    p.add_argument("--variant", "-v", default=games.DEFAULT, choices=dxp_variants(),
                   help="the rules (default international); DXP cannot tell the peer, so it "
                   "must play the same ones")
    p.add_argument("--name", default="Dimensiones", help="the name sent to the peer")
    p.add_argument("--pdn", metavar="FILE", help="append every game, with its result, to FILE")
    p.add_argument("--log", metavar="FILE",
                   help="append every message, both ways, with its time to FILE (for disputes)")
    p.add_argument("--verbose", action="store_true", help="print every message as well")
    p.add_argument("--timeout", type=seconds, default=60.0, metavar="SECONDS",
                   help="how long to wait for a connection to open and for an answer the "
                   "protocol expects at once (default 60); a peer's move may take its clock "
                   "and a grace")
    p.add_argument("--wait", type=seconds, default=600.0, metavar="SECONDS",
                   help="--listen: how long to wait for a peer to connect (default 600)")
    p.add_argument("--movetime", type=seconds, default=None, metavar="SECONDS",
                   help="think at most this long a move (default: as the clock allows)")
    p.add_argument("--hash", type=int, default=64, help="transposition table MB (default 64)")
    p.add_argument("--threads", type=int, default=1, help="search threads (default 1)")
    p.add_argument("--egdb", metavar="DIR", help="probe the endgame tables in DIR/VARIANT "
                   "(default: the user's table folder, where `egdb install` built them)")
    p.set_defaults(func=cmd_dxp)

    p = sub.add_parser("moves", help="show a position and its legal moves",
                       description="Print the board, its FEN, the legal moves in canonical "
                       "notation and, if the game has ended, the result and why.")
    positional(p)
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser("show", help="draw a position (text, SVG or PNG)",
                       description="Draw a position: the text diagram on standard output, or a "
                       "picture (the same as engine.svg.board) written to a file. Moves given "
                       "with --moves are played first; the last one is highlighted.",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog="examples:\n  python -m engine show --variant international "
                       "--moves '32-28 19-23' --svg board.svg\n  python -m engine show "
                       "--variant superajedrez --moves 'P@e4' --flip --png board.png")
    positional(p)
    p.add_argument("--moves", "-m", metavar="MOVES", help="moves to play first, space-separated")
    p.add_argument("--svg", metavar="FILE", help="write an SVG picture")
    p.add_argument("--png", metavar="FILE", help="write a PNG picture (needs cairosvg)")
    p.add_argument("--size", type=int, default=None, help="picture width in pixels")
    p.add_argument("--arrow", action="append", metavar="FROM-TO", help="draw an arrow (repeatable)")
    p.add_argument("--flip", action="store_true", help="the second player at the bottom")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("annotate", help="analyse games and mark the mistakes",
                       description="Search every move of every game of PDN/PGN files: the score "
                       "before and after, the engine's move when it prefers another, and marks by "
                       "what a move lost (?! inaccuracy >= 0.5 man, ? mistake >= 1, ?? blunder "
                       ">= 3). Writes the annotated games as PDN/PGN (standard output or --out) "
                       "and, with --html, a page with each game's score graph and the board "
                       "before each mistake.",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog="example:\n  python -m engine annotate games.pdn --movetime 0.5 "
                       "--out annotated.pdn --html report.html")
    p.add_argument("files", nargs="+", metavar="FILE", help="PDN/PGN files")
    p.add_argument("--variant", "-v", default=None, choices=variants(),
                   help="the game of files without Variant/GameType tags (default: international)")
    p.add_argument("--movetime", type=seconds, default=0.5, metavar="SECONDS",
                   help="seconds per position (two positions a move; default 0.5)")
    p.add_argument("--hash", type=int, default=64, help="transposition table MB (default 64)")
    p.add_argument("--out", "-o", metavar="FILE", help="write the annotated games here")
    p.add_argument("--html", metavar="FILE", help="write an HTML report here")
    p.set_defaults(func=cmd_annotate)

    p = sub.add_parser("serve", help="play and analyse every game in a browser",
                       description="Start the web board: a local server whose page plays every "
                       "game against the engine, between two people at one screen, or engine "
                       "against engine, with live analysis, take-backs, game files and the "
                       "endgame tables. Needs Bottle (pip install 'dimensiones[web]'). Several "
                       "pages can play at once; each game has its own engine and stops when its "
                       "page goes away.",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog="examples:\n  python -m engine serve                 # "
                       "http://127.0.0.1:8000/\n  python -m engine serve --port 8080 --open "
                       "--egdb egdb")
    p.add_argument("--port", type=port_number, default=8000, help="the port to listen on "
                   "(default 8000; 0: any free port)")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default "
                   "127.0.0.1, this machine only; 0.0.0.0 lets other machines in)")
    p.add_argument("--allow-host", action="append", metavar="NAME",
                   help="a name by which browsers reach this server, beside 127.0.0.1, "
                   "localhost, [::1] and --host (repeatable): requests for any other name are "
                   "refused, which keeps web pages that point a name of theirs at this machine "
                   "out")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    p.add_argument("--egdb", metavar="DIR", default=None, help="endgame tables to probe (a "
                   "folder of `egdb build`; default: the user's table folder, where `egdb "
                   "install` built them)")
    p.add_argument("--hash", type=int, default=32, help="transposition table MB of each game "
                   "(default 32)")
    p.add_argument("--verbose", action="store_true", help="log every request")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("variants", help="list the implemented variants",
                       description="List every implemented variant with its start position.")
    p.set_defaults(func=cmd_variants)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; the exit status (2 for an error the engine explains, 130 when
    interrupted)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    for name in ("depth", "nodes", "movetime", "hash", "games", "concurrency", "random_plies", "port",
                 "pieces", "threads", "workers", "size"):
        value = getattr(args, name, None)
        if isinstance(value, (tuple, list)):
            value = min(value)
        if value is not None and value < 0:
            parser.error(f"{name} must be 0 or more")
    if getattr(args, "multipv", 1) < 1:
        parser.error("multipv must be 1 or more")
    if args.command == "perft" and args.divide and args.depth < 1:
        parser.error("--divide needs DEPTH 1 or more")
    try:
        return args.func(args)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
