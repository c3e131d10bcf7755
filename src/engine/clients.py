"""Clients of other engines: start one, speak its protocol (UCI or Hub), ask it for moves.

The referee's side of the protocols (`match.py` uses it); the engine's own side is `uci.py` and
`hub.py`. Both read the Hub position code from `notation.py`. `connect(spec, variant)` gives the
client of the spec's protocol; every failure of the engine (it cannot start, exits, is silent
past a deadline, answers nonsense) is an `EngineFailure`.
"""

from __future__ import annotations

import atexit
import collections
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
import weakref
from dataclasses import dataclass, field

from . import Board, games
from .errors import EngineError, decimal, whole_number
from .notation import position_string

# An engine's start can be slow on a loaded machine or a cluster worker that is starting its own
# processes (the CI's Ray match test once took over 20 s beside two busy loops); a hung engine
# is still found within a minute.
HANDSHAKE_TIMEOUT = 60.0
STDERR_LINES = 20           # the end of an engine's error output, kept to explain a failure
MAX_LINE = 1 << 20          # characters of an engine's line; a longer one is a failure
# A forced win in N moves is reported as MATE_SCORE - N (a loss, its negation), in the scores'
# unit (1/100 of a man, or of a pawn): beyond any adjudication threshold.
MATE_SCORE = 100_000


TOO_LONG = object()         # the reader's mark of a line over MAX_LINE
# The engines this process started and has not ended: each runs in a process group of its own
# (out of reach of the terminal's Ctrl-C), so the referee ends them itself when it exits.
_RUNNING: "weakref.WeakSet[EngineClient]" = weakref.WeakSet()


def end_all() -> None:
    """End every engine this process started and has not stopped (an interrupted match)."""
    for client in list(_RUNNING):
        client._kill()


atexit.register(end_all)


def bounded_lines(stream):
    """The lines of a text stream; None, as soon as it is seen, in place of a line longer than
    MAX_LINE, whose rest is then read (if the caller reads on) without being kept."""
    while True:
        line = stream.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE and not line.endswith("\n"):
            yield None
            while line and not line.endswith("\n"):
                line = stream.readline(MAX_LINE + 1)
            continue
        yield line


class EngineFailure(Exception):
    """The engine crashed, timed out or said something that cannot be played."""


@dataclass
class TimeControl:
    """A fixed time per move, a clock with base time and increment (seconds), or a fixed
    number of nodes per move (the engines' time is then not counted, but the referee still
    forfeits a move that takes minutes: the engine is taken to hang)."""

    movetime: float | None = None
    base: float | None = None
    inc: float = 0.0
    tolerance: float = 0.1            # an engine may overrun by this much before it forfeits
    nodes: int | None = None

    def __str__(self) -> str:
        if self.nodes is not None:
            return f"{self.nodes} nodes/move"
        if self.movetime is not None:
            return f"{self.movetime:g}s/move"
        return f"{self.base:g}+{self.inc:g}"


@dataclass
class EngineSpec:
    command: str
    protocol: str = "uci"
    name: str = ""
    options: dict = field(default_factory=dict)     # sent after the handshake

    @classmethod
    def parse(cls, text: str) -> "EngineSpec":
        """``[uci:|hub:]COMMAND``; the name is the command's first word unless given later."""
        protocol = "uci"
        for prefix in ("uci:", "hub:", "dxp:"):
            if text.startswith(prefix):
                protocol, text = prefix[:-1], text[len(prefix):]
        if not text.strip():
            raise EngineError("empty engine command")
        if protocol == "dxp":                # not a command: the address a DXP engine listens on
            from .dxp import host_port
            host, port = host_port(text.strip())
            return cls(text.strip(), protocol, f"dxp-{host}:{port}")
        words = shlex.split(text)
        name = "dimensiones" if words[1:3] == ["-m", "engine"] else words[0].rsplit("/", 1)[-1]
        return cls(text.strip(), protocol, name)


class EngineClient:
    """One running engine process, whatever its protocol: start, send, read with a deadline,
    stop. Lines are read by a thread into a queue so that every wait has a deadline. The
    protocol subclasses say what to send: the handshake, a new game, a move to think about."""

    def __init__(self, spec: EngineSpec, variant: str):
        self.spec = spec
        self.variant = variant
        self.proc: subprocess.Popen | None = None
        self.lines: queue.Queue = queue.Queue()
        self.arrived = 0.0                    # when the line expect() last returned arrived
        self.score: int | None = None         # the last score of the last go(), engine's view
        self.stderr: collections.deque = collections.deque(maxlen=STDERR_LINES)

    # -- process ----------------------------------------------------------------------------

    def start(self) -> None:
        try:
            # Bytes that are not UTF-8 are replaced, never fatal to the reader. The engine gets a
            # process group of its own, so that ending the group ends what it started too (an
            # engine behind `sh -c`, a helper process).
            self.proc = subprocess.Popen(shlex.split(self.spec.command), stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         encoding="utf-8", errors="replace", bufsize=1,
                                         start_new_session=True)
        except (OSError, ValueError) as exc:
            raise EngineFailure(f"cannot start {self.spec.command!r}: {exc}") from None
        _RUNNING.add(self)
        self.lines = queue.Queue()
        self.stderr = collections.deque(maxlen=STDERR_LINES)
        threading.Thread(target=self._reader, args=(self.proc, self.lines), daemon=True).start()
        threading.Thread(target=self._stderr_reader, args=(self.proc, self.stderr),
                         daemon=True).start()
        self._handshake()

    @staticmethod
    def _reader(proc, lines):
        # Each line with the time it arrived: a move's time ends when its answer is written,
        # not when the referee's thread, on a busy machine, comes to read it. A line longer
        # than MAX_LINE is not kept: the engine is taken to have failed.
        for line in bounded_lines(proc.stdout):
            if line is None:
                lines.put((TOO_LONG, time.monotonic()))
                break
            lines.put((line.rstrip("\n"), time.monotonic()))
        lines.put((None, time.monotonic()))   # end of output: the process is gone

    @staticmethod
    def _stderr_reader(proc, kept):
        for line in bounded_lines(proc.stderr):
            if line is None:
                kept.append(f"(a line of over {MAX_LINE} characters on its error output)")
                continue
            if line.strip():
                kept.append(line.rstrip("\n")[:200])

    def _exited(self) -> str:
        """Why the engine is gone: its exit code and the last line of its error output."""
        code = None
        if self.proc is not None:
            try:
                code = self.proc.wait(0.5)
            except subprocess.TimeoutExpired:
                pass
        time.sleep(0.05)                      # let the last error lines arrive
        said = f": {self.stderr[-1]}" if self.stderr else ""
        return f"the engine exited (code {code}){said}"

    def alive(self) -> bool:
        """Whether the engine's process runs."""
        return self.proc is not None and self.proc.poll() is None

    def send(self, line: str) -> None:
        if self.proc is None:
            raise EngineFailure("the engine could not be started")
        assert self.proc.stdin is not None               # started with stdin=PIPE
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError):
            raise EngineFailure("the engine closed its input (crashed?)") from None

    def expect(self, predicate, deadline: float) -> str:
        """The first line for which `predicate` holds (its arrival time is kept in
        `self.arrived`); EngineFailure when none arrives by `deadline` or the engine exits."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineFailure("no answer in time")
            try:
                line, arrived = self.lines.get(timeout=left)
            except queue.Empty:
                raise EngineFailure("no answer in time") from None
            if line is None:
                raise EngineFailure(self._exited())
            if line is TOO_LONG:
                raise EngineFailure(f"the engine wrote a line of over {MAX_LINE} characters")
            if arrived > deadline:
                raise EngineFailure("no answer in time")
            if predicate(line):
                self.arrived = arrived
                return line

    def ask(self, command: str, predicate, allowed: float) -> tuple[str, float]:
        """Send the command that starts a move's thinking and wait at most `allowed` seconds
        for its answer: (the answer, seconds from sending to its arrival). The time starts
        when the command is written, as cutechess and fastchess count it: the position sent
        before it is the engine's to read, not its time."""
        sent = time.monotonic()
        self.send(command)
        line = self.expect(predicate, sent + allowed)
        return line, max(self.arrived - sent, 0.0)

    def expect_line(self, text: str, deadline: float) -> str:
        """Wait for the line that is exactly `text` (spaces around it aside)."""
        return self.expect(lambda line: line.strip() == text, deadline)

    def stop(self) -> None:
        """Ask the engine to quit; end its process group after a second either way (what it
        started must not outlive the match)."""
        if self.proc is None:
            return
        try:
            self.send("quit")
        except EngineFailure:
            pass
        try:
            self.proc.wait(1.0)
        except subprocess.TimeoutExpired:
            pass
        self._kill()

    def _kill(self) -> None:
        """End the engine's whole process group and reap the engine."""
        _RUNNING.discard(self)
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass                              # the group is gone already
        self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self.proc = None

    def restart(self) -> None:
        self._kill()
        try:
            self.start()
        except EngineFailure:
            self._kill()
            raise

    # -- what the protocol sends -----------------------------------------------------------

    def _handshake(self) -> None:
        """After the start: the protocol's greeting, the variant, the spec's options."""
        raise NotImplementedError

    def new_game(self) -> None:
        raise NotImplementedError

    def go(self, start: Board, moves: list, tc: TimeControl, clocks: list[float], turn: int,
           allowed: float) -> tuple[str, float]:
        """Ask for a move in the position after `moves` from `start`, waiting at most `allowed`
        seconds after the command that starts the thinking: (the move text, the seconds the
        engine took)."""
        raise NotImplementedError


class UciClient(EngineClient):
    def _handshake(self) -> None:
        deadline = time.monotonic() + HANDSHAKE_TIMEOUT
        self.send("uci")
        self.expect_line("uciok", deadline)
        self.send(f"setoption name UCI_Variant value {self.variant}")
        for name, value in self.spec.options.items():
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.expect_line("readyok", deadline)

    def new_game(self) -> None:
        deadline = time.monotonic() + HANDSHAKE_TIMEOUT
        self.send("ucinewgame")
        self.send("isready")
        self.expect_line("readyok", deadline)

    def go(self, start: Board, moves: list, tc: TimeControl, clocks: list[float], turn: int,
           allowed: float) -> tuple[str, float]:
        listed = " ".join(str(m) for m in moves)
        self.send(f"position fen {start.fen()}" + (f" moves {listed}" if moves else ""))
        if tc.nodes is not None:
            command = f"go nodes {tc.nodes}"
        elif tc.movetime is not None:
            command = f"go movetime {int(tc.movetime * 1000)}"
        else:
            command = (f"go wtime {int(clocks[0] * 1000)} btime {int(clocks[1] * 1000)} "
                       f"winc {int(tc.inc * 1000)} binc {int(tc.inc * 1000)}")
        self.score = None

        def answer(line: str) -> bool:
            if line.startswith("info"):
                self.score = read_uci_score(line, self.score)
            return line.startswith("bestmove")
        line, used = self.ask(command, answer, allowed)
        parts = line.split()
        if len(parts) < 2:
            raise EngineFailure(f"malformed answer {line!r}")
        return parts[1], used


class HubClient(EngineClient):
    def _handshake(self) -> None:
        deadline = time.monotonic() + HANDSHAKE_TIMEOUT
        self.send("hub")
        declared: list[str] = []

        def collect(line: str) -> bool:
            declared.append(line)
            return line.strip() == "wait"
        self.expect(collect, deadline)
        name = hub_variant_name(self.variant, declared)
        if name is not None:
            self.send(f"set-param name=variant value={name}")
        for name, value in self.spec.options.items():
            self.send(f'set-param name={name} value="{value}"')
        self.send("init")
        self.expect_line("ready", deadline)

    def new_game(self) -> None:
        deadline = time.monotonic() + HANDSHAKE_TIMEOUT
        self.send("new-game")
        self.send("ping")
        self.expect_line("pong", deadline)

    def go(self, start: Board, moves: list, tc: TimeControl, clocks: list[float], turn: int,
           allowed: float) -> tuple[str, float]:
        listed = " ".join(m.hub() for m in moves)
        self.send(f"pos pos={position_string(start)}" + (f' moves="{listed}"' if moves else ""))
        if tc.nodes is not None:
            self.send(f"level nodes={tc.nodes}")
        elif tc.movetime is not None:
            self.send(f"level move-time={tc.movetime}")
        else:
            # Hub adds the increment before each move itself.
            self.send(f"level time={max(clocks[turn] - tc.inc, 0.001):.3f} inc={tc.inc}")
        self.score = None

        def answer(line: str) -> bool:
            if line.startswith("info"):
                self.score = read_hub_score(line, self.score)
            return line.startswith("done")
        line, used = self.ask("go think", answer, allowed)
        for word in line.split()[1:]:
            if word.startswith("move="):
                return word[5:], used
        raise EngineFailure(f"malformed answer {line!r}")


def read_uci_score(line: str, before: int | None) -> int | None:
    """The score of a UCI `info` line (`score cp N`, `score mate N`), else `before`."""
    words = line.split()
    for i, word in enumerate(words[:-2]):
        if word == "score":
            kind, value = words[i + 1], words[i + 2]
            number = whole_number(value)
            if number is None:
                return before
            if kind == "cp":
                return number
            if kind == "mate":
                moves = min(abs(number), 999)
                return MATE_SCORE - moves if number > 0 else -(MATE_SCORE - moves)
            return before
    return before


def read_hub_score(line: str, before: int | None) -> int | None:
    """The score of a Hub `info` line (`score=0.35`, in men), in 1/100 of a man, else `before`.
    A forced end is written 99.xx there; it stays above any threshold."""
    for word in line.split()[1:]:
        if word.startswith("score="):
            number = decimal(word[6:].strip('"'))
            return before if number is None else round(number * 100)
    return before


CLIENTS: dict[str, type[EngineClient]] = {"uci": UciClient, "hub": HubClient}


def connect(spec: EngineSpec, variant: str):
    """The client for the spec's protocol (not yet started: `restart()` starts it)."""
    if spec.protocol == "dxp":
        from .dxp import DxpClient
        return DxpClient(spec, variant)
    if spec.protocol not in CLIENTS:
        raise EngineError(f"unknown protocol {spec.protocol!r} (known: {', '.join(CLIENTS)}, dxp)")
    return CLIENTS[spec.protocol](spec, variant)


def hub_variant_name(variant: str, lines: list[str]) -> str | None:
    """The value of the Hub ``variant`` parameter that names `variant` for an engine, read from
    the ``param name=variant ... values="..."`` line it declared (Scan: ``normal`` for
    International). None: send nothing (an engine without the parameter plays International)."""
    values = None
    for line in lines:
        try:
            words = shlex.split(line)
        except ValueError:
            continue
        fields = dict(w.partition("=")[::2] for w in words[1:])
        if words[:1] == ["param"] and fields.get("name") == "variant":
            values = fields.get("values", fields.get("value", "")).split()
    if values is None:
        if variant == games.DEFAULT:       # Hub's own game, International draughts
            return None
        raise EngineFailure(f"the engine declares no variant parameter (it plays International "
                            f"draughts only), so it cannot play {variant}")
    other_name = games.game(variant).hub_name             # Scan's "normal" for International
    names = [variant, other_name] if other_name else [variant]
    for name in names:
        if name in values:
            return name
    raise EngineFailure(f"the engine's variants are {' '.join(values) or '(none)'}; none of them "
                        f"is {variant}")
