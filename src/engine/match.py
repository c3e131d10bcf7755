"""Engine-vs-engine matches: ``python -m engine match``.

Two engines (any command that speaks UCI or Hub: this engine, another build of it, ``dame hub``)
play pairs of games from the same opening with colours swapped. This module referees: it keeps
the position and the clocks, asks each engine for its move, and ends games by the variant's own
rules. An engine that crashes, overruns its time or plays an illegal move loses that game (the
reason is recorded), is restarted, and the match goes on. Every game is saved as PDN. On
request (`Adjudication`) it ends games early as cutechess and fastchess do: a draw after a number
of plies, or when both engines' scores agree that the game is drawn or decided.
"""

from __future__ import annotations

import json
import math
import os
import queue
import shlex
import sys
import threading
import time
from dataclasses import dataclass, field

from . import Board, games
from .errors import EngineError, decimal, is_digits
from .files import replacing
from .pdn import Game, Node, write_game
from .clients import MATE_SCORE, EngineClient, EngineFailure, EngineSpec, TimeControl, connect
from .stats import elo_estimate, sprt_bounds, sprt_verdict

__all__ = ["EngineSpec", "EngineFailure", "TimeControl", "parse_time_control", "Adjudication",
           "Match", "MatchResult", "GameRecord", "play_game", "pdn", "summary",
           "default_engine_command"]

NODES_TIMEOUT = 120.0           # seconds: a node-limited move that takes longer is a hang


def parse_time_control(text: str) -> TimeControl:
    """``0.1`` or ``0.1/move`` (per move), ``10+0.1`` (base + increment), in seconds; or
    ``nodes=N`` (N nodes per move, as cutechess and fastchess write it)."""
    if text.startswith("nodes="):
        digits = text[6:]
        if not (is_digits(digits) and len(digits) <= 18 and int(digits) >= 1):
            raise EngineError(f"time control {text!r}: nodes= takes a whole number, 1 or more")
        return TimeControl(nodes=int(digits))
    if "+" in text:
        base, inc = (decimal(part) for part in text.split("+", 1))
        tc = TimeControl(base=base, inc=inc) if base is not None and inc is not None else None
    else:
        movetime = decimal(text.removesuffix("/move"))
        tc = TimeControl(movetime=movetime) if movetime is not None else None
    if tc is None:
        raise EngineError(f"time control {text[:40]!r}: expected SECONDS, BASE+INC (in seconds, "
                          f"e.g. 0.1 or 10+0.1) or nodes=N")
    if (tc.movetime is not None and tc.movetime <= 0) or (tc.base is not None and tc.base <= 0) \
            or tc.inc < 0:
        raise EngineError(f"time control {text!r} must be positive")
    return tc


@dataclass(frozen=True)
class Adjudication:
    """When the referee ends a game before its rules do (each part off when None). Scores are
    the engines' own (`info ... score`), in 1/100 of a man (a pawn in Superajedrez), each from
    the view of the engine that moved; a move without a score breaks a run.

    - `max_plies`: a draw once the game has this many plies from its opening (fastchess'
      `-maxmoves`, counted in plies so that it means the same in every game).
    - `draw = (moves, count, score)`: a draw once each side has played `moves` moves from the
      opening and both engines' last `count` scores were within ±`score` (cutechess' `-draw`).
    - `resign = (count, score)`: a win once both engines' last `count` scores agree that one
      side is `score` or more ahead (fastchess' `-resign ... twosided=true`: the loser's view
      alone could be a bug of the loser's)."""

    max_plies: int | None = None
    draw: tuple[int, int, int] | None = None
    resign: tuple[int, int] | None = None

    def __post_init__(self):
        if self.max_plies is not None and self.max_plies < 1:
            raise EngineError(f"adjudication after {self.max_plies} plies: give 1 or more")
        if self.draw is not None:
            moves, count, score = self.draw
            if moves < 0 or count < 1 or score < 0:
                raise EngineError(f"draw adjudication {moves} {count} {score}: expected MOVES >= 0, "
                                  "COUNT >= 1, SCORE >= 0")
        if self.resign is not None:
            count, score = self.resign
            if count < 1 or score < 1:
                raise EngineError(f"resign adjudication {count} {score}: expected COUNT >= 1, "
                                  "SCORE >= 1")

    def __str__(self) -> str:
        parts = []
        if self.max_plies is not None:
            parts.append(f"draw at {self.max_plies} plies")
        if self.draw is not None:
            parts.append("draw after move {0} when both scores are within {2} for {1} moves"
                         .format(*self.draw))
        if self.resign is not None:
            parts.append("win when both scores give one side {1}+ for {0} moves".format(*self.resign))
        return "; ".join(parts) or "none"


class _Adjudicator:
    """One game's runs of scores: for each side, how many of its last moves in a row scored
    near zero, or gave White, or Black, the resign margin."""

    def __init__(self, rules: Adjudication):
        self.rules = rules
        self.level = [0, 0]               # moves in a row with |score| <= the draw score
        self.ahead = [[0, 0], [0, 0]]     # [side][winner]: moves in a row giving winner the margin

    def after_move(self, side: int, score: int | None, plies: int) -> tuple[str, str] | None:
        """Note the score of `side`'s move (the game then has `plies` plies); the result and
        reason when the game is to be adjudicated."""
        rules = self.rules
        if rules.draw is not None:
            moves, count, limit = rules.draw
            level = score is not None and abs(score) <= limit
            self.level[side] = self.level[side] + 1 if level else 0
            if plies >= 2 * moves and min(self.level) >= count:
                return "1/2-1/2", f"adjudicated draw: both scores within {limit} for {count} moves"
        if rules.resign is not None:
            count, margin = rules.resign
            white_view = None if score is None else (score if side == 0 else -score)
            for winner, sign in ((0, 1), (1, -1)):
                ahead = white_view is not None and sign * white_view >= margin
                self.ahead[side][winner] = self.ahead[side][winner] + 1 if ahead else 0
                if self.ahead[0][winner] >= count and self.ahead[1][winner] >= count:
                    who = "White" if winner == 0 else "Black"
                    return ("1-0" if winner == 0 else "0-1",
                            f"adjudicated: both scores give {who} {margin}+ for {count} moves")
        if rules.max_plies is not None and plies >= rules.max_plies:
            return "1/2-1/2", f"adjudicated draw at {rules.max_plies} plies"
        return None


@dataclass
class GameRecord:
    number: int
    white: str
    black: str
    opening: str
    moves: list = field(default_factory=list)
    result: str = "*"                 # "1-0", "0-1", "1/2-1/2"
    termination: str = ""
    forfeit: str | None = None        # name of the engine that forfeited, if any
    times: list = field(default_factory=list)   # seconds each move took, as the referee saw it
    scores: list = field(default_factory=list)  # each move's score (mover's view) or None
    adjudicated: bool = False


def play_game(number: int, engines: list, names: list, variant: str, opening: str,
              tc: TimeControl, adjudication: Adjudication | None = None) -> GameRecord:
    """One game; engines[0] has White. Never raises for an engine's fault: it is recorded."""
    start = Board(variant, opening)
    board = start.copy()
    record = GameRecord(number, names[0], names[1], opening)
    adjudicator = _Adjudicator(adjudication) if adjudication is not None else None
    verdict = None
    clocks = [tc.base or 0.0, tc.base or 0.0]
    for side, eng in enumerate(engines):
        try:
            eng.new_game()
        except EngineFailure as exc:
            return _forfeit(record, side, names, f"{exc} (before the game)")
    while True:
        outcome = board.outcome()
        if outcome is not None:
            record.result = outcome.result()
            record.termination = outcome.reason()
            return record
        if verdict is not None:
            record.result, record.termination = verdict
            record.adjudicated = True
            return record
        side = int(board.turn)
        eng = engines[side]
        allowed = NODES_TIMEOUT if tc.nodes is not None else \
            tc.movetime if tc.movetime is not None else clocks[side]
        try:
            text, used = eng.go(start, board.move_stack, tc, clocks, side, allowed + tc.tolerance)
        except EngineFailure as exc:
            return _forfeit(record, side, names, str(exc))
        record.times.append(used)
        if tc.nodes is not None:
            pass                          # the time of a node-limited move is not counted
        elif tc.movetime is None:
            clocks[side] -= used
            if clocks[side] < -tc.tolerance:
                return _forfeit(record, side, names, "lost on time")
            clocks[side] += tc.inc
        elif used > tc.movetime + tc.tolerance:
            return _forfeit(record, side, names, f"took {used:.2f}s for a {tc.movetime:g}s move")
        try:
            move = board.push(text)
        except EngineError:
            return _forfeit(record, side, names, f"illegal move {text!r}")
        record.moves.append(move)
        record.scores.append(eng.score)
        if adjudicator is not None:
            verdict = adjudicator.after_move(side, eng.score, len(record.moves))


def _forfeit(record: GameRecord, side: int, names: list, reason: str) -> GameRecord:
    record.result = "0-1" if side == 0 else "1-0"
    record.termination = f"{names[side]} forfeits: {reason}"
    record.forfeit = names[side]
    return record


# -- records --------------------------------------------------------------------------------------

def pdn(record: GameRecord, variant: str, event: str) -> str:
    """The game record as the game writes them (`pdn.write_game`: PDN, FMJD results on 10×10
    boards, PGN with Spanish algebraic moves for Superajedrez), each move with its comment."""
    return write_game(as_game(record, variant, event))


def as_game(record: GameRecord, variant: str, event: str) -> Game:
    """The match's record of a game as a game of `engine.pdn`, with the tags of a match."""
    headers = {"Event": event, "Site": "local", "Date": time.strftime("%Y.%m.%d"),
               "Round": str(record.number), "White": record.white, "Black": record.black,
               "Variant": variant, "FEN": record.opening, "Termination": record.termination}
    nodes = [Node(move, move_comment(record, i)) for i, move in enumerate(record.moves)]
    return Game(headers, variant, record.opening, nodes, record.result)


def move_comment(record: GameRecord, i: int) -> str:
    """The comment after a move in the record, as cutechess writes it: the mover's score (in
    men, or pawns; +M3 for a forced win in 3 moves) and the seconds the move took."""
    parts = []
    score = record.scores[i] if i < len(record.scores) else None
    if score is not None:
        if abs(score) > MATE_SCORE - 1000:
            parts.append(f"{'+' if score > 0 else '-'}M{MATE_SCORE - abs(score)}")
        else:
            parts.append(f"{score / 100:+.2f}")
    if i < len(record.times):
        parts.append(f"{record.times[i]:.2f}s")
    return " ".join(parts)


# -- the match ------------------------------------------------------------------------------------

@dataclass
class MatchResult:
    names: list
    wins: int = 0                     # for the first engine
    draws: int = 0
    losses: int = 0
    pentanomial: list = field(default_factory=lambda: [0, 0, 0, 0, 0])
    games: list = field(default_factory=list)
    forfeits: dict = field(default_factory=dict)
    adjudicated: int = 0
    sprt: tuple | None = None

    @property
    def played(self) -> int:
        return self.wins + self.draws + self.losses


class Match:
    def __init__(self, specs: list, variant: str, tc: TimeControl, openings: list,
                 concurrency: int = 1, pdn_path: str | None = None, sprt: tuple | None = None,
                 report=print, event: str = "Dimensiones match", results_path: str | None = None,
                 ray: str | None = None, adjudication: Adjudication | None = None):
        if any(s.protocol == "hub" for s in specs) and not games.game(variant).hub:
            raise EngineError(f"the Hub protocol does not carry {variant}")
        if any(s.protocol == "dxp" for s in specs):
            from .dxp import check_time_control, dxp_variants
            if variant not in dxp_variants():
                raise EngineError(f"DXP does not carry {variant}")
            check_time_control(tc)
            if concurrency > 1 or ray is not None:
                raise EngineError("a DXP engine plays one game at a time on its one connection: "
                                  "give --concurrency 1, without --ray")
        self.specs = specs
        self.names = [s.name for s in specs]
        if self.names[0] == self.names[1]:
            self.names = [f"{self.names[0]}-1", f"{self.names[1]}-2"]
        self.variant = variant
        self.tc = tc
        self.openings = openings
        self.concurrency = max(1, concurrency)
        self.pdn_path = pdn_path
        self.results_path = results_path
        self.sprt = sprt
        self.report = report
        self.event = event
        self.result = MatchResult(self.names)
        self._lock = threading.Lock()
        self._pairs: dict = {}
        self._stop = threading.Event()
        self._fatal: str | None = None
        self.ray = ray                   # pairs on a Ray cluster (engine.parallel) when set
        self.adjudication = adjudication

    def run(self) -> MatchResult:
        if self.ray is not None:
            return self._run_on_ray()
        jobs: queue.Queue = queue.Queue()
        number = 0
        for i, opening in enumerate(self.openings):
            for swap in (False, True):
                number += 1
                jobs.put((number, i, opening, swap))
        total = number
        self._started = time.monotonic()
        self._total = total
        if self.pdn_path:
            open(self.pdn_path, "w").close()
        workers = [threading.Thread(target=self._worker, args=(jobs, total), daemon=True)
                   for _ in range(min(self.concurrency, total))]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        if self._fatal:
            raise EngineError(self._fatal)
        return self.result

    def _run_on_ray(self) -> MatchResult:
        """Each pair of games is a unit of work on the cluster, played by a worker that starts
        both engines; the head keeps the score, the SPRT and the files as the pairs arrive."""
        from .parallel import Runner
        runner = Runner(self.concurrency, self.ray)
        total = 2 * len(self.openings)
        self._started = time.monotonic()
        if self.pdn_path:
            open(self.pdn_path, "w").close()
        units = [(self.specs, self.names, self.variant, self.tc, 2 * i + 1, opening,
                  self.adjudication) for i, opening in enumerate(self.openings)]
        results = runner.map_unordered(play_pair, units)
        try:
            for first, second in results:
                pair = (first.number - 1) // 2
                self._record(first, pair, False, total)
                self._record(second, pair, True, total)
                if self._stop.is_set():
                    break
        finally:
            close = getattr(results, "close", None)
            if close is not None:
                close()                    # cancels the pairs not yet played
        return self.result

    def _worker(self, jobs: queue.Queue, total: int) -> None:
        engines = [connect(spec, self.variant) for spec in self.specs]
        try:
            for k, eng in enumerate(engines):
                # An engine that cannot start or fails its handshake ends the match: its
                # games would only be forfeits, and the score would mean nothing.
                failure = start_engine(eng)
                if failure is not None:
                    with self._lock:
                        self._fatal = self._fatal or (
                            f"engine {self.names[k]} ({eng.spec.command}) could not start: {failure}")
                    self._stop.set()
                    return
            while not self._stop.is_set():
                try:
                    number, pair, opening, swap = jobs.get_nowait()
                except queue.Empty:
                    break
                order = [1, 0] if swap else [0, 1]
                players = [engines[k] for k in order]
                names = [self.names[k] for k in order]
                record = play_game(number, players, names, self.variant, opening, self.tc,
                                   self.adjudication)
                self._record(record, pair, swap, total)
                for k, eng in enumerate(engines):
                    if not eng.alive() or record.forfeit == self.names[k]:
                        start_engine(eng)
        finally:
            for eng in engines:
                eng.stop()

    def _record(self, record: GameRecord, pair: int, swap: bool, total: int) -> None:
        with self._lock:
            r = self.result
            first_is_white = not swap
            if record.result == "1/2-1/2":
                points = 0.5
                r.draws += 1
            elif (record.result == "1-0") == first_is_white:
                points = 1.0
                r.wins += 1
            else:
                points = 0.0
                r.losses += 1
            if record.forfeit:
                r.forfeits[record.forfeit] = r.forfeits.get(record.forfeit, 0) + 1
            r.adjudicated += record.adjudicated
            r.games.append(record)
            done = self._pairs.setdefault(pair, [])
            done.append(points)
            if len(done) == 2:
                r.pentanomial[int(round(sum(done) * 2))] += 1
            if self.pdn_path:
                with open(self.pdn_path, "a", encoding="utf-8") as fh:
                    fh.write(pdn(record, self.variant, self.event))
            line = (f"game {record.number:>3}/{total} {record.white} - {record.black} "
                    f"{record.result:<7} ({record.termination})  |  {self.names[0]} "
                    f"+{r.wins} ={r.draws} -{r.losses}  {elo_estimate(r.pentanomial).text()}")
            if self.sprt:
                value, verdict = sprt_verdict(r.pentanomial, *self.sprt)
                low, high = sprt_bounds(*self.sprt[2:])
                r.sprt = (value, low, high, verdict)
                line += f"  LLR {value:.2f} [{low:.2f}, {high:.2f}]"
                if verdict != "continue":
                    self._stop.set()
            left = total - r.played
            if left > 0 and not self._stop.is_set():
                line += f"  ETA {_duration((time.monotonic() - self._started) / r.played * left)}"
            if self.results_path:
                write_results(self.results_path, self)
            if self.report:
                self.report(line)


def start_engine(eng: EngineClient) -> str | None:
    """Start (or restart) the engine, three tries; returns why it failed, or None.
    After a failed restart its later games are forfeited (go() reports it)."""
    failure = None
    for _ in range(3):
        try:
            eng.restart()
            return None
        except EngineFailure as exc:
            failure = str(exc)
    return failure


def play_pair(unit) -> tuple[GameRecord, GameRecord]:
    """A unit of a match on Ray: both games of one opening (the first engine White, then
    Black), with engines started here. Raises EngineError, naming this machine, when an engine
    cannot start here (its command missing on this worker, say)."""
    import shutil
    import socket

    specs, names, variant, tc, number, opening, adjudication = unit
    for spec in specs:
        program = shlex.split(spec.command)[0]
        if shutil.which(program) is None and not os.path.exists(program):
            raise EngineError(f"engine {spec.name}: {program!r} is not on {socket.gethostname()}: "
                              f"every machine of the cluster needs the engines' commands")
    engines = [connect(spec, variant) for spec in specs]
    try:
        for k, eng in enumerate(engines):
            failure = start_engine(eng)
            if failure is not None:
                raise EngineError(f"engine {names[k]} ({specs[k].command}) could not start on "
                                  f"{socket.gethostname()}: {failure}")
        records = []
        for swap in (False, True):
            order = [1, 0] if swap else [0, 1]
            records.append(play_game(number + swap, [engines[k] for k in order],
                                     [names[k] for k in order], variant, opening, tc,
                                     adjudication))
            for k, eng in enumerate(engines):
                if not eng.alive() or records[-1].forfeit == names[k]:
                    start_engine(eng)          # if it fails, its next game is a forfeit
        for record in records:               # moves as strings: native moves do not pickle
            record.moves = [str(m) for m in record.moves]
        return records[0], records[1]
    finally:
        for eng in engines:
            eng.stop()


def summary(result: MatchResult) -> list[str]:
    """The closing lines; the Elo line is the same text the last running line ended with."""
    est = elo_estimate(result.pentanomial)
    played = result.played
    paired = 2 * est.pairs
    lines = [f"{result.names[0]} vs {result.names[1]}: {played} games, "
             f"+{result.wins} ={result.draws} -{result.losses}, "
             f"score {result.wins + result.draws / 2:g}/{played}"
             + (f", draw ratio {100 * result.draws / played:.1f} %" if played else ""),
             f"pairs (LL, LD, DD/WL, WD, WW): {result.pentanomial}"
             + (f" ({played - paired} game(s) of unfinished pairs not counted below)"
                if played > paired else "")]
    if est.pairs:
        lines.append(f"score per game {100 * est.score:.1f} % [{100 * est.score_low:.1f}, "
                     f"{100 * est.score_high:.1f}] (95 %)")
    lines.append(f"{est.text()}, {est.nelo_text()}")
    if result.forfeits:
        lines.append("forfeits: " + ", ".join(f"{k} {v}" for k, v in result.forfeits.items()))
    if result.adjudicated:
        decided = sum(g.adjudicated and g.result != "1/2-1/2" for g in result.games)
        lines.append(f"adjudicated: {result.adjudicated} game(s), {decided} of them won")
    if result.sprt:
        value, low, high, verdict = result.sprt
        lines.append(f"SPRT: LLR {value:.2f} (bounds {low:.2f}, {high:.2f}): {verdict}")
    return lines


def _duration(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


def results_document(match: "Match") -> dict:
    """The match so far as plain data (the --results JSON file): the engines and settings,
    every game, the totals and the statistics."""
    r = match.result
    est = elo_estimate(r.pentanomial)
    doc = {
        "format": 1, "event": match.event, "variant": match.variant,
        "engines": [{"name": name, "command": spec.command, "protocol": spec.protocol,
                     "options": dict(spec.options)} for name, spec in zip(match.names, match.specs)],
        "time_control": str(match.tc), "games_planned": getattr(match, "_total", None),
        "adjudication": str(match.adjudication or Adjudication()),
        "games": [{"round": g.number, "white": g.white, "black": g.black, "opening": g.opening,
                   "moves": [str(m) for m in g.moves], "result": g.result,
                   "termination": g.termination, "forfeit": g.forfeit,
                   "adjudicated": g.adjudicated, "seconds": [round(t, 4) for t in g.times],
                   "scores": list(g.scores)} for g in r.games],
        "first_engine": {"wins": r.wins, "draws": r.draws, "losses": r.losses},
        "pentanomial": list(r.pentanomial), "forfeits": dict(r.forfeits),
        "adjudicated": r.adjudicated,
        "elo": None,
    }
    if est.pairs:
        # Infinite bounds (every pair won or lost) are written as null; the text says why.
        doc["elo"] = {"pairs": est.pairs, "score": est.score, "score_interval": [est.score_low, est.score_high],
                      "elo": _number(est.elo), "interval": [_number(est.low), _number(est.high)],
                      "nelo": _number(est.nelo),
                      "nelo_interval": [_number(est.nelo_low), _number(est.nelo_high)],
                      "text": est.text()}
    if r.sprt and match.sprt:
        value, low, high, verdict = r.sprt
        doc["sprt"] = {"llr": value, "bounds": [low, high], "verdict": verdict,
                       "elo0": match.sprt[0], "elo1": match.sprt[1]}
    return doc


def write_results(path: str, match: "Match") -> None:
    """Write the results document atomically (a reader never sees half a file)."""
    with replacing(path, "w", encoding="utf-8") as fh:
        json.dump(results_document(match), fh, indent=1, allow_nan=False)


def _number(value):
    return None if value is None or not math.isfinite(value) else value


def default_engine_command() -> str:
    return f"{shlex.quote(sys.executable)} -m engine uci"
