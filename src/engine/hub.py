"""The Hub protocol (version 2, as Scan 3 and the Hub GUI speak it): ``python -m engine hub``.

Lines are ``<command> <arg>=<value> ...`` with double quotes around values that hold spaces.
A position is the side to move followed by one letter per square in the variant's square order
(``w b W B e``); a capture is written with all its captured squares (``28x19x23``). The
``variant`` parameter chooses the game among the draughts variants without piece numbers
(Chapinas positions cannot be written in this format). Malformed input is answered with
``error message="..."`` and changes nothing."""

from __future__ import annotations

import shlex
import sys

from . import Board, __version__, games
from .errors import EngineError, decimal, is_digits, quote
from .notation import board_from_position
from .options import BY_HUB_NAME, OPTIONS
from .protocol import ENGINE_AUTHOR, ENGINE_NAME, Session, run
from .timeman import ponder_budget

HUB_VARIANTS = games.names(hub=True)
MAX_SECONDS = 1e7         # a time beyond this (about four months) is a mistake, not a clock
MAX_DEPTH = 126
MAX_NODES = 2 ** 62


def hub_score(score: int, mate: int | None) -> str:
    """Score in men; a forced end is written 100 − plies/100 (99.xx), as Scan and Hub do."""
    if mate is not None:
        plies = 2 * mate - 1 if mate > 0 else -2 * mate
        return f"{(10000 - plies) / 100:.2f}" if mate > 0 else f"{-(10000 - plies) / 100:.2f}"
    return f"{score / 100:.2f}"


class HubSession(Session):
    def __init__(self, out=None):
        super().__init__(out)
        self.level: dict = {}
        self._ponder_budget = None

    def error(self, text: str) -> None:
        self.send(f'error message="{text.replace(chr(34), chr(39))}"')

    def handle_line(self, line: str) -> None:
        try:
            words = shlex.split(line)
        except ValueError as exc:
            self.error(f"cannot read line: {exc}")
            return
        if not words:
            return
        command = words[0]
        args = {}
        for word in words[1:]:
            name, _, value = word.partition("=")
            args[name] = value
        self.dispatch(command, args, f"unknown command {quote(command)}")

    def cmd_hub(self, args):
        self.send(f'id name={ENGINE_NAME} version={__version__} author="{ENGINE_AUTHOR}"')
        for option in OPTIONS:
            if option.hub:
                self.send(option.hub_line(self))
        self.send("wait")

    def cmd_set_param(self, args):
        """The parameters of options.OPTIONS that Hub offers; a parameter this engine does not
        know is ignored, as the protocol says of anything either side does not know."""
        name, value = args.get("name"), args.get("value", "")
        option = BY_HUB_NAME.get(name)
        if option is not None:
            self.apply_option(option, value, name)

    def variant_choices(self) -> list[str]:
        return HUB_VARIANTS

    def variant_name(self, value: str) -> str:
        """Ours, or another engine's name for it (Scan's normal, bt, losing)."""
        known = games.by_hub_name(value)
        if known is None or known.name not in HUB_VARIANTS:
            aliases = ", ".join(f"{g.hub_name} is {g.name}" for g in games.GAMES.values()
                                if g.hub_name and g.name in HUB_VARIANTS)
            raise EngineError(f"unknown variant {quote(value)} (known: {' '.join(HUB_VARIANTS)}; "
                              f"{aliases})")
        return known.name

    def set_variant(self, value: str) -> None:
        self.variant = value
        self.board = Board(value)

    def send_eval_file(self, value: str) -> None:
        self.set_eval_file(value)

    def cmd_init(self, args):
        self.send("ready")

    def cmd_ping(self, args):
        self.send("pong")

    def cmd_new_game(self, args):
        self.cmd_stop(args)
        self.engine.new_game()

    def cmd_quit(self, args):
        self.cmd_stop(args)
        self.quit = True

    def cmd_stop(self, args):
        self._release.set()
        self.stop_search()

    def cmd_pos(self, args):
        if "pos" not in args:
            raise EngineError("pos needs pos=<position>")
        board = board_from_position(self.variant, args["pos"])
        for i, move in enumerate(args.get("moves", "").split()):
            try:
                board.push(move)
            except EngineError as exc:
                raise EngineError(f"move {i + 1} of the list: {exc}") from None
        self.cmd_stop(args)
        self.board = board

    def cmd_level(self, args):
        """depth=, nodes=, moves= (counts), move-time=, time=, inc= (seconds), infinite. Every
        value is checked for its range (a NaN or infinite time is refused) before any is kept."""
        level = {}
        counts = {"depth": ("depth", 1, MAX_DEPTH), "nodes": ("nodes", 1, MAX_NODES),
                  "moves": ("movestogo", 1, 10000)}
        seconds = {"move-time": ("movetime", 1e-3), "time": ("time", 0.0), "inc": ("inc", 0.0)}
        for word, (key, low, high) in counts.items():
            if word in args:
                text = args[word]
                if not (is_digits(text) and len(text) <= 20 and low <= int(text) <= high):
                    raise EngineError(f"level {word} must be a whole number from {low} to "
                                      f"{high}, not {quote(text)}")
                level[key] = int(text)
        for word, (key, low) in seconds.items():
            if word in args:
                text = args[word] or "0"
                value = decimal(text)
                if value is None or not low <= value <= MAX_SECONDS:
                    raise EngineError(f"level {word} must be a number of seconds from {low:g} "
                                      f"to {MAX_SECONDS:g}, not {quote(text)}")
                level[key] = value
        if "inc" in level and "time" not in level:
            raise EngineError("level inc= needs time=")
        if "movestogo" in level and "time" not in level:
            raise EngineError("level moves= needs time=")
        if "time" in level:
            level.setdefault("inc", 0.0)
        if "infinite" in args:
            level["infinite"] = True
        if not level:
            raise EngineError("level needs depth=, nodes=, move-time=, time= or infinite")
        self.level = level

    def cmd_go(self, args):
        mode = next(iter(args), "think")
        if mode not in ("think", "ponder", "analyze"):
            raise EngineError(f"go needs think, ponder or analyze, not {quote(mode)}")
        if not self.board.legal_moves():
            raise EngineError("the side to move has no legal move")
        limits = {}
        level = self.level
        for key in ("depth", "nodes", "movetime", "movestogo"):
            if key in level:
                limits[key] = level[key]
        if "time" in level:
            side = "w" if int(self.board.turn) == 0 else "b"
            limits[f"{side}time"] = level["time"]
            limits[f"{side}inc"] = level["inc"]
        hold = False
        if mode in ("ponder", "analyze") or level.get("infinite"):
            if mode == "ponder":
                self._ponder_budget = ponder_budget(level.get("time"), level.get("inc", 0.0),
                                                    level.get("movestogo"), level.get("movetime"))
                limits = {}
            limits["infinite"] = not limits.get("depth") and not limits.get("nodes")
            hold = mode == "ponder"
        else:
            limits["asked_at"] = self.received
        self.cmd_stop({})
        self._release.clear()
        self.start_search(self._run_search, self.board.copy(), limits, hold)

    def cmd_ponder_hit(self, args):
        if not self.searching:
            return
        self._release.set()
        if self._ponder_budget is not None:
            self.start_timer(self._ponder_budget)

    def _info(self, info):
        line = info.lines[0]
        pv = " ".join(m.hub() for m in line.pv)
        self.send(f"info depth={info.depth} mean-depth={info.seldepth} "
                  f"score={hub_score(line.score, line.mate)} nodes={info.nodes} "
                  f"time={info.time:.3f} nps={info.nps / 1e6:.2f} pv=\"{pv}\"")

    def _run_search(self, board, limits, hold):
        try:
            result = self.engine.search(board, info=self._info, **limits)
        except Exception as exc:            # never leave a GUI waiting for its move
            self.error(f"search failed: {exc}")
            legal = board.legal_moves()
            if legal:
                self.send(f"done move={legal[0].hub()}")
            return
        self.finish_hold(hold)
        if result.best_move is None:
            self.error("no legal move")
            return
        done = f"done move={result.best_move.hub()}"
        if len(result.pv) > 1:
            done += f" ponder={result.pv[1].hub()}"
        self.send(done)


def main(argv=None) -> int:
    return run(HubSession())


if __name__ == "__main__":
    sys.exit(main())
