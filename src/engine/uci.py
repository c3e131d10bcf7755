"""The UCI-style protocol: ``python -m engine uci`` (or the ``dimensiones-uci`` command).

Standard UCI, with this project's FEN and move strings (NOTATION.md) and a ``UCI_Variant`` combo
option naming every implemented game, as Fairy-Stockfish does. Anything malformed is answered
with ``info string error ...`` and changes nothing; the engine never dies on input."""

from __future__ import annotations

import sys

from . import Board, PerftStopped, __version__, perft, variants
from .errors import EngineError, quote, whole_number
from .options import OPTIONS, uci_option
from .protocol import ENGINE_AUTHOR, ENGINE_NAME, Session, run
from .timeman import ponder_budget

MAX_DEPTH = 126           # the search's deepest iteration
MAX_PERFT = 64
MAX_COUNT = 2 ** 62       # nodes, and milliseconds on a clock


class UciSession(Session):
    def __init__(self, out=None):
        super().__init__(out)
        self.multipv = 1
        self.move_overhead = 30          # ms kept back from the clock for transmission delays
        # Endgame tables: DIR holds DIR/<variant>/; <default>: the user's folder (egdb install),
        # when it holds the variant's; empty: none.
        self.egdb_path = "<default>"
        self._ponder_limits: dict = {}
        self._load_tables(quiet=True, announce=False)

    def error(self, text: str) -> None:
        self.send(f"info string error {text}")

    # -- dispatch ---------------------------------------------------------------------------

    def handle_line(self, line: str) -> None:
        tokens = line.strip().split()
        if not tokens:
            return
        self.dispatch(tokens[0], tokens[1:], f"unknown command {quote(tokens[0])}")

    def cmd_uci(self, args):
        self.send(f"id name {ENGINE_NAME} {__version__}")
        self.send(f"id author {ENGINE_AUTHOR}")
        for option in OPTIONS:
            self.send(option.uci_line(self))
        self.send("uciok")

    def cmd_isready(self, args):
        self.send("readyok")

    def cmd_quit(self, args):
        self._release.set()
        self.stop_search()
        self.quit = True

    def cmd_stop(self, args):
        self._release.set()
        self.stop_search()

    def cmd_ucinewgame(self, args):
        self.cmd_stop(args)
        self.engine.new_game()
        self.board = Board(self.variant)

    def cmd_setoption(self, args):
        if not args or args[0] != "name":
            self.error("setoption needs 'name <option> [value <value>]'")
            return
        text = " ".join(args[1:])
        name, _, value = text.partition(" value ")
        name, value = name.strip(), value.strip()
        if text.endswith(" value"):
            name, value = text[:-6].strip(), ""
        self.apply_option(uci_option(name), value, name)

    def variant_choices(self) -> list[str]:
        return variants()

    def variant_name(self, value: str) -> str:
        if value not in variants():
            raise EngineError(f"unknown variant {quote(value)} (known: {' '.join(variants())})")
        return value

    def set_variant(self, value: str) -> None:
        self.variant = value
        self.board = Board(value)
        self.engine.new_game()
        self._load_tables(quiet=True)

    def set_egdb_path(self, value: str) -> None:
        self.egdb_path = value
        self._load_tables(quiet=False)

    def send_eval_file(self, value: str) -> None:
        self.send(f"info string evaluation {self.set_eval_file(value)}")

    def _load_tables(self, quiet: bool, announce: bool = True) -> None:
        """Probe the endgame tables of the current variant under EgdbPath, if there are any."""
        from .egdb import TableError, playing_tables
        self.engine.tablebases = None
        if not self.egdb_path:
            return
        try:
            tables = playing_tables(self.egdb_path, self.variant)
        except TableError as exc:
            if not quiet:
                self.error(f"endgame tables: {exc}")
            return
        if tables is None:
            return
        self.engine.tablebases = tables
        if announce:
            self.send(f"info string endgame tables: {self.variant} up to {tables.pieces} pieces")

    def cmd_position(self, args):
        if not args:
            self.error("position needs 'startpos' or 'fen <fen>'")
            return
        if "moves" in args:
            cut = args.index("moves")
            spec, moves = args[:cut], args[cut + 1:]
        else:
            spec, moves = args, []
        if spec == ["startpos"]:
            board = Board(self.variant)
        elif len(spec) > 1 and spec[0] == "fen":
            board = Board(self.variant, " ".join(spec[1:]))
        else:
            self.error(f"position needs 'startpos' or 'fen <fen>' before 'moves', not "
                       f"{quote(' '.join(spec))}")
            return
        for i, move in enumerate(moves):
            try:
                board.push(move)
            except EngineError as exc:
                self.error(f"move {i + 1} of the list: {exc}")
                return
        self.cmd_stop([])
        self.board = board

    def cmd_d(self, args):
        for line in str(self.board).splitlines():
            self.send(line)
        self.send(f"Fen: {self.board.fen()}")
        self.send(f"Key: {self.board.zobrist_hash():016X}")

    def cmd_go(self, args):
        limits, ponder, perft = self._parse_go(args)
        if limits is None:
            return
        if perft is not None:
            self.cmd_stop([])
            self.start_search(self._run_perft, self.board.copy(), perft)
            return
        self.cmd_stop([])
        self._release.clear()
        hold = limits.get("infinite", False) or ponder
        if ponder:
            self._ponder_limits = {k: limits.pop(k) for k in list(limits)
                                   if k in ("wtime", "btime", "winc", "binc", "movestogo", "movetime")}
            limits["infinite"] = True
        if not hold:
            limits["asked_at"] = self.received
        board = self.board.copy()
        self.start_search(self._run_search, board, limits, hold)

    def _parse_go(self, args):
        limits: dict = {"multipv": self.multipv}
        ponder = False
        perft = None
        seconds = {"wtime", "btime", "winc", "binc", "movetime"}
        counts = {"depth", "nodes", "movestogo", "perft", "mate"}
        i = 0
        while i < len(args):
            word = args[i]
            if word in ("infinite", "ponder"):
                if word == "infinite":
                    limits["infinite"] = True
                else:
                    ponder = True
                i += 1
                continue
            if word == "searchmoves":
                self.error("go searchmoves is not supported")
                return None, False, None
            if word not in seconds | counts:
                self.error(f"unknown go parameter {quote(word)}")
                return None, False, None
            if i + 1 >= len(args):
                self.error(f"go {word} needs a value")
                return None, False, None
            value = whole_number(args[i + 1])
            if value is None:
                self.error(f"go {word} needs a number, not {quote(args[i + 1])}")
                return None, False, None
            high = {"depth": MAX_DEPTH, "mate": (MAX_DEPTH - 1) // 2, "perft": MAX_PERFT}.get(word, MAX_COUNT)
            if value > high:
                self.error(f"go {word} must be at most {high}, not {value}")
                return None, False, None
            if value < 0 and word not in ("wtime", "btime"):
                self.error(f"go {word} must not be negative")
                return None, False, None
            if value == 0 and word in ("depth", "nodes", "mate"):
                self.error(f"go {word} must be 1 or more")
                return None, False, None
            if word == "perft":
                perft = value
            elif word == "mate":
                limits["depth"] = 2 * value + 1
            elif word in seconds:
                ms = value
                if word in ("wtime", "btime"):
                    ms = max(1, value - self.move_overhead)
                elif word == "movetime":
                    # A fixed time is the GUI's own budget: keep back at most a tenth of it.
                    ms = max(1, value - min(self.move_overhead, value // 10))
                limits[word] = ms / 1000
            else:
                limits[word] = value
            i += 2
        return limits, ponder, perft

    def _run_perft(self, board, depth):
        """A divide, in the job thread so that `stop` (and the end of input) can end it."""
        total = 0
        try:
            if depth == 0:
                total = perft(board, 0)
            for move in board.legal_moves() if depth > 0 else []:
                board.push(move)
                try:
                    count = perft(board, depth - 1)
                finally:
                    board.pop()
                self.send(f"{move}: {count}")
                total += count
        except PerftStopped:
            self.send("info string perft stopped")
            return
        self.send("")
        self.send(f"Nodes searched: {total}")

    def _run_search(self, board, limits, hold):
        try:
            result = self.engine.search(board, info=lambda info: self.send(str(info)), **limits)
        except Exception as exc:            # never leave a GUI waiting for its move
            self.error(f"search failed: {exc}")
            legal = board.legal_moves()
            self.send(f"bestmove {legal[0]}" if legal else "bestmove (none)")
            return
        self.finish_hold(hold)           # infinite or ponder: the move waits for stop/ponderhit
        if result.best_move is None:
            self.send("bestmove (none)")
        elif len(result.pv) > 1:
            self.send(f"bestmove {result.best_move} ponder {result.pv[1]}")
        else:
            self.send(f"bestmove {result.best_move}")

    def cmd_ponderhit(self, args):
        """The expected move was played: the ponder search goes on under the real clock."""
        if not self.searching:
            return
        limits = self._ponder_limits
        side = "w" if int(self.board.turn) == 0 else "b"
        budget = ponder_budget(limits.get(f"{side}time"), limits.get(f"{side}inc", 0),
                               limits.get("movestogo"), limits.get("movetime"))
        self._release.set()
        if budget is not None:
            self.start_timer(budget)


def main(argv=None) -> int:
    return run(UciSession())


if __name__ == "__main__":
    sys.exit(main())
