"""What the UCI-style and Hub front ends share: a session that owns the position and one
background job (a search or a perft), and writes lines through a lock (the job writes too).

Input is read as bytes and decoded here, so that no byte sequence can end the process: a line
that is not UTF-8 or is longer than MAX_LINE bytes is answered with an error and skipped, and
errors quote at most a short piece of what they refuse. The end of the input stops whatever is
running and ends the loop."""

from __future__ import annotations

import os
import queue
import sys
import threading
import time

from . import Board, Engine, games, stop_perft
from .errors import EngineError

ENGINE_NAME = "Dimensiones"
ENGINE_AUTHOR = "the Dimensiones developers"
MAX_LINE = 65536          # bytes; a longer line is refused unread (a position with its moves is ~2 kB)
MAX_THREADS = 64          # search threads (Engine.threads)
READ_AHEAD = 256          # input lines read before the loop handles them (bounds the memory)


def physical_memory_mb() -> int | None:
    """The machine's memory in MB, where the system says (a hash table larger is refused)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // (1024 * 1024)
    except (AttributeError, ValueError, OSError):
        return None


class Session:
    """A position, an Engine and at most one search running in a thread."""

    def __init__(self, out=None, variant: str = games.DEFAULT):
        self.out = out or sys.stdout
        self._write_lock = threading.Lock()
        self.variant = variant
        self.board = Board(variant)
        self.hash_mb = 64
        self.engine = Engine(self.hash_mb)
        self._thread: threading.Thread | None = None
        self.quit = False
        self._release = threading.Event()     # holds an infinite/ponder search's answer
        self._timer: threading.Timer | None = None
        self.received = time.monotonic()      # when the line being handled arrived
        self.output_closed = False

    def error(self, text: str) -> None:
        raise NotImplementedError

    def dispatch(self, command: str, args, unknown: str) -> None:
        """Run the cmd_<command> method; an unknown command or an input error becomes an error
        line (`unknown` is the text for the former) and changes nothing."""
        handler = getattr(self, "cmd_" + command.replace("-", "_"), None)
        if handler is None:
            self.error(unknown)
            return
        try:
            handler(args)
        except EngineError as exc:
            self.error(str(exc))
        except MemoryError as exc:             # a hash table the machine cannot give
            self.error(str(exc) or "out of memory")

    def apply_option(self, option, text: str, name: str) -> None:
        """Set an option of options.OPTIONS from the protocol's text (`name` as the protocol
        spells it); a bad value raises its error and changes nothing."""
        value = option.parse(text, name, self)
        if option.stops:
            self._release.set()                # a held (ponder) search must not wait forever
            self.stop_search()
        option.set(self, value)

    def set_eval_file(self, value: str) -> str:
        """A learned evaluation's weights file for its variant (the search stops first);
        '<hand-set>' or '<shipped>' for the current variant. Returns what was loaded. A bad file
        raises its error and changes nothing."""
        from . import weights
        self._release.set()
        self.stop_search()
        return weights.use(self.variant, value)

    def resize_hash(self, megabytes: int) -> None:
        """Allocate the new table before promising it; on failure the old one stays."""
        limit = physical_memory_mb()
        if limit is not None and megabytes > limit:
            raise EngineError(f"a {megabytes} MB hash table does not fit in this machine's "
                              f"{limit} MB of memory; keeping {self.hash_mb} MB")
        self._release.set()                    # a held (ponder) search must not wait forever
        self.stop_search()
        try:
            self.engine.resize(megabytes)
        except MemoryError:
            raise EngineError(f"cannot allocate a {megabytes} MB hash table; keeping "
                              f"{self.hash_mb} MB") from None
        self.hash_mb = megabytes

    def finish_hold(self, hold: bool) -> None:
        """After a search: wait for stop/ponderhit if the answer is held, drop the ponder timer."""
        if hold:
            self._release.wait()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def start_timer(self, seconds: float) -> None:
        """Stop the running search after `seconds` (ponderhit under a clock)."""
        self._timer = threading.Timer(seconds, self.engine.stop)
        self._timer.daemon = True
        self._timer.start()

    def send(self, line: str) -> None:
        """Write a line. Once the output is closed (the GUI went away) nothing more is written
        and the session ends: the running search is told to stop and the loop to quit."""
        with self._write_lock:
            if self.output_closed:
                return
            try:
                self.out.write(line + "\n")
                self.out.flush()
            except (OSError, ValueError):
                self.output_closed = True
                self.quit = True
                self._release.set()
                self.engine.stop()
                _silence(self.out)

    @property
    def searching(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start_search(self, target, *args) -> None:
        self.stop_search()
        self._thread = threading.Thread(target=target, args=args, daemon=True)
        self._thread.start()

    def stop_search(self) -> None:
        """Stop the running search or perft and wait for it to end (a search reports its move).
        The flags are set until the thread ends, so a stop that arrives before the job starts is
        not lost."""
        thread = self._thread
        while thread is not None and thread.is_alive():
            self.engine.stop()
            stop_perft()
            thread.join(0.01)
        self._thread = None

    def wait(self, timeout: float | None = None) -> None:
        """Wait for the running search to end by itself (tests, `quit` after `go depth`)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def loop(self, stream=None) -> None:
        """Read commands until `quit`, the end of the input, a closed output or an interrupt;
        then stop what is running (a held infinite or ponder search too: nobody is left to say
        stop) and wait for it, whatever ended the loop: a search thread still running when the
        interpreter shuts down would crash it.

        A thread reads the input and stamps each line with the time it arrived: a move's time
        counts from the arrival of its `go`, not from when this loop came to it (a long game's
        `position` line, replayed just before, can take milliseconds on a busy machine)."""
        stream = stream or _standard_input()
        arrived: queue.Queue = queue.Queue(maxsize=READ_AHEAD)
        threading.Thread(target=_read_stamped, args=(stream, arrived), daemon=True).start()
        try:
            while not self.quit:
                try:
                    line, stamp = arrived.get(timeout=0.5)
                except queue.Empty:
                    continue                  # the output may have closed meanwhile
                if line is None:
                    break
                if isinstance(line, LineError):
                    self.error(str(line))
                    continue
                self.handle(line, stamp)
        finally:
            self._release.set()
            self.stop_search()

    def handle(self, line: str, received: float | None = None) -> None:
        """One command; `received` is when it arrived (now, when not given)."""
        self.received = time.monotonic() if received is None else received
        if len(line) > MAX_LINE:
            self.error(f"line of {len(line)} characters refused (the limit is {MAX_LINE})")
            return
        self.handle_line(line)

    def handle_line(self, line: str) -> None:
        raise NotImplementedError


def _silence(out) -> None:
    """Point a closed standard output at the null device, so that the interpreter's flush at
    exit finds nothing to complain about (a closed pipe would print a BrokenPipeError)."""
    try:
        if out is sys.stdout:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def run(session: Session) -> int:
    """The protocols' main: the session's loop, with SIGTERM taken as an interrupt; an
    interrupt (Ctrl-C) ends the session like `quit` (the loop stops and joins its search)."""
    import signal

    def interrupt(signum, frame):
        raise KeyboardInterrupt
    try:
        signal.signal(signal.SIGTERM, interrupt)
    except ValueError:                        # not the main thread (tests)
        pass
    try:
        session.loop()
    except KeyboardInterrupt:
        return 130
    return 0


class LineError(str):
    """A line that could not be read (too long, not UTF-8): the error to report."""


def _standard_input():
    """The process's input as a binary stream of its own. The reader thread may still be
    blocked in a read of it when the process ends; on `sys.stdin.buffer` that read holds the
    lock the interpreter takes to close the standard streams at exit, which aborts the process."""
    try:
        return open(sys.stdin.fileno(), "rb", closefd=False)
    except (AttributeError, OSError, ValueError):
        return sys.stdin.buffer


def _read_stamped(stream, arrived: queue.Queue) -> None:
    """Put (line, arrival time) for each line of the input, then (None, time) at its end."""
    try:
        for line in read_lines(stream):
            arrived.put((line, time.monotonic()))
    except (OSError, ValueError):
        pass                                  # an input that fails to read has ended
    finally:
        arrived.put((None, time.monotonic()))


def read_lines(stream):
    """Lines of a binary stream, decoded; a bad line becomes a LineError. Memory stays bounded:
    a line longer than MAX_LINE is skipped to its end without being kept."""
    while True:
        raw = stream.readline(MAX_LINE + 1)
        if not raw:
            return
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            skipped = len(raw)
            while True:
                rest = stream.readline(MAX_LINE + 1)
                skipped += len(rest)
                if not rest or rest.endswith(b"\n"):
                    break
            yield LineError(f"line of {skipped} bytes refused (the limit is {MAX_LINE})")
            continue
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield LineError(f"line is not UTF-8 (byte {raw[exc.start]:#04x} at {exc.start}); ignored")
