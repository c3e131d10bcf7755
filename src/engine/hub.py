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

from . import Board, __version__
from .errors import EngineError
from .protocol import ENGINE_AUTHOR, ENGINE_NAME, Session

HUB_VARIANTS = ["international", "spanish", "checkers", "turkish", "gothic-checkers"]


def square_order(board) -> list:
    """The variant's squares in Hub order: numbers ascending, or a1, b1, ... h8."""
    spec = board.spec
    bits = sorted(spec.square_names, key=spec.order_key)
    return [spec.square_names[b] for b in bits]


def position_string(board) -> str:
    pieces = board.piece_map()
    chars = []
    for name in square_order(board):
        key = int(name) if board.spec.numbered else name
        chars.append(pieces.get(key, "e")[0])
    return ("W" if int(board.turn) == 0 else "B") + "".join(chars)


def board_from_position(variant: str, text: str) -> Board:
    board = Board(variant)
    squares = square_order(board)
    if len(text) != len(squares) + 1 or text[0] not in "WB":
        raise EngineError(f"position {text!r}: expected W or B and {len(squares)} squares")
    lists = {"w": [], "b": []}
    for name, char in zip(squares, text[1:]):
        if char not in "wbWBe":
            raise EngineError(f"position {text!r}: unknown square letter {char!r}")
        if char != "e":
            lists[char.lower()].append(("K" if char.isupper() else "") + name)
    board.set_fen(f"{text[0]}:W{','.join(lists['w'])}:B{','.join(lists['b'])}")
    return board


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

    def handle(self, line: str) -> None:
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
        self.dispatch(command, args, f"unknown command {command}")

    def cmd_hub(self, args):
        self.send(f'id name={ENGINE_NAME} version={__version__} author="{ENGINE_AUTHOR}"')
        self.send(f'param name=variant value={self.variant} type=enum values="{" ".join(HUB_VARIANTS)}"')
        self.send(f"param name=hash value={self.hash_mb} type=int min=1 max=65536")
        self.send("wait")

    def cmd_set_param(self, args):
        name, value = args.get("name"), args.get("value", "")
        if name == "variant":
            if value not in HUB_VARIANTS:
                raise EngineError(f"unknown variant {value} (known: {' '.join(HUB_VARIANTS)})")
            self.variant = value
            self.board = Board(value)
        elif name == "hash":
            if not value.isdigit() or not 1 <= int(value) <= 65536:
                raise EngineError(f"hash must be 1 to 65536 MB, not {value}")
            self.hash_mb = int(value)
            self.engine.resize(self.hash_mb)
        else:
            raise EngineError(f"unknown parameter {name}")

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
        level = {}
        try:
            if "depth" in args:
                level["depth"] = int(args["depth"])
            if "nodes" in args:
                level["nodes"] = int(args["nodes"])
            if "move-time" in args:
                level["movetime"] = float(args["move-time"])
            if "time" in args:
                level["time"] = float(args["time"])
                level["inc"] = float(args.get("inc", 0) or 0)
                if "moves" in args:
                    level["movestogo"] = int(args["moves"])
            if "infinite" in args:
                level["infinite"] = True
        except ValueError as exc:
            raise EngineError(f"level: {exc}") from None
        if any(v < 0 for k, v in level.items() if k != "infinite"):
            raise EngineError("level values must not be negative")
        if level.get("depth") == 0 or level.get("nodes") == 0:
            raise EngineError("level depth and nodes must be 1 or more")
        if not level:
            raise EngineError("level needs depth=, nodes=, move-time=, time= or infinite")
        self.level = level

    def cmd_go(self, args):
        mode = next(iter(args), "think")
        if mode not in ("think", "ponder", "analyze"):
            raise EngineError(f"go needs think, ponder or analyze, not {mode}")
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
                self._ponder_budget = (level.get("movetime") or
                                       (level["time"] / level.get("movestogo", 30) + level["inc"] * 0.75
                                        if "time" in level else None))
                limits = {}
            limits["infinite"] = not limits.get("depth") and not limits.get("nodes")
            hold = mode == "ponder"
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
    HubSession().loop(sys.stdin)
    return 0


if __name__ == "__main__":
    sys.exit(main())
