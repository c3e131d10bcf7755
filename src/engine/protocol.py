"""What the UCI-style and Hub front ends share: a session that owns the position and one
background search, and writes lines through a lock (the search thread writes too)."""

from __future__ import annotations

import sys
import threading

from . import Board, Engine
from .errors import EngineError

ENGINE_NAME = "Dimensiones"
ENGINE_AUTHOR = "the Dimensiones developers"


class Session:
    """A position, an Engine and at most one search running in a thread."""

    def __init__(self, out=None, variant: str = "international"):
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
        with self._write_lock:
            self.out.write(line + "\n")
            self.out.flush()

    @property
    def searching(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start_search(self, target, *args) -> None:
        self.stop_search()
        self._thread = threading.Thread(target=target, args=args, daemon=True)
        self._thread.start()

    def stop_search(self) -> None:
        """Stop the running search and wait for it to report its move. The flag is set until the
        thread ends, so a stop that arrives before the search starts is not lost."""
        thread = self._thread
        while thread is not None and thread.is_alive():
            self.engine.stop()
            thread.join(0.01)
        self._thread = None

    def wait(self, timeout: float | None = None) -> None:
        """Wait for the running search to end by itself (tests, `quit` after `go depth`)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def loop(self, stream=None) -> None:
        """Read commands until `quit` or the end of the input; then stop any search."""
        stream = stream or sys.stdin
        for raw in stream:
            self.handle(raw)
            if self.quit:
                break
        self.stop_search()

    def handle(self, line: str) -> None:
        raise NotImplementedError
