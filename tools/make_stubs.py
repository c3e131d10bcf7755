"""Write the type stubs (.pyi) of the native board, move and search classes.

    python tools/make_stubs.py          # rewrites src/engine/_*.pyi from the built modules

The compiled modules carry their methods' signatures (Cython's annotations); what they cannot
say -- the types of attributes and of arguments -- is in TYPES below. tests/test_typing.py
checks that the stubs name every public attribute of the built classes and that mypy accepts a
program using them, so a new method without a stub fails the tests.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

import engine  # noqa: E402

# What a board of every family shares, typed once.
BOARD = {
    "copy": "def copy(self) -> Self: ...",
    "evaluate": "def evaluate(self) -> int: ...",
    "fen": "def fen(self) -> str: ...",
    "is_game_over": "def is_game_over(self) -> bool: ...",
    "is_legal": "def is_legal(self, move: {move} | str) -> bool: ...",
    "legal_moves": "def legal_moves(self) -> list[{move}]: ...",
    "move_stack": "move_stack: list[{move}]",
    "outcome": "def outcome(self) -> Outcome | None: ...",
    "parse_move": "def parse_move(self, text: str) -> {move}: ...",
    "piece_map": "def piece_map(self) -> dict[{square}, str]: ...",
    "ply": "ply: int",
    "pop": "def pop(self) -> {move}: ...",
    "push": "def push(self, move: {move} | str) -> {move}: ...",
    "recompute_hash": "def recompute_hash(self) -> int: ...",
    "repetitions": "def repetitions(self) -> int: ...",
    "result": "def result(self) -> str: ...",
    "set_fen": "def set_fen(self, fen: str) -> None: ...",
    "spec": "spec: Any",
    "termination": "def termination(self) -> Termination | None: ...",
    "turn": "turn: Color",
    "variant": "variant: str",
    "zobrist_hash": "def zobrist_hash(self) -> int: ...",
    "__init__": "def __init__(self, variant: str = ..., fen: str | None = ...) -> None: ...",
}
MOVE = {
    "from_square": "from_square: {square}",
    "to_square": "to_square: {square}",
    "is_capture": "is_capture: bool",
    "captured": "captured: list[{square}]",
    "hub": "def hub(self) -> str: ...",
}
TYPES = {
    ("DraughtsBoard", "counters"): "counters: dict[str, int]",
    ("DraughtsBoard", "landing_paths"):
        "def landing_paths(self, move: DraughtsMove | str) -> list[tuple[str, ...]]: ...",
    ("DraughtsMove", "path"): "path: list[int | str] | None",
    ("DraughtsMove", "promotes"): "promotes: bool",
    ("StackBoard", "checkers"): "def checkers(self) -> tuple[int, int]: ...",
    ("StackMove", "count"): "count: int",
    ("StackMove", "is_bear_off"): "is_bear_off: bool",
    ("StackMove", "is_pass"): "is_pass: bool",
    ("SuperajedrezBoard", "fullmove_number"): "fullmove_number: int",
    ("SuperajedrezBoard", "halfmove_clock"): "halfmove_clock: int",
    ("SuperajedrezBoard", "is_check"): "def is_check(self) -> bool: ...",
    ("SuperajedrezBoard", "protected_squares"): "def protected_squares(self, color: Color) -> list[str]: ...",
    ("SuperajedrezBoard", "reserve"): "def reserve(self, color: Color) -> dict[str, int]: ...",
    ("SuperajedrezBoard", "san"): "def san(self, move: SuperajedrezMove | str) -> str: ...",
    ("SuperajedrezMove", "captured"): "captured: list[str]",
    ("SuperajedrezMove", "is_castling"): "is_castling: bool",
    ("SuperajedrezMove", "is_en_passant"): "is_en_passant: bool",
    ("SuperajedrezMove", "is_placement"): "is_placement: bool",
    ("SuperajedrezMove", "piece"): "piece: str",
    ("SuperajedrezMove", "promotion"): "promotion: str | None",
    ("SuperajedrezMove", "from_square"): "from_square: str | None",
    ("SuperajedrezMove", "uci"): "def uci(self) -> str: ...",
    ("SuperDimensionesBoard", "cards"): "cards: str",
    ("SuperDimensionesBoard", "clocks"): "clocks: tuple[int, int]",
    ("SuperDimensionesBoard", "huff_candidates"): "huff_candidates: list[str]",
    ("SuperDimensionesBoard", "subgame_results"): "def subgame_results(self) -> dict[str, str | None]: ...",
    ("SuperDimensionesBoard", "team"): "team: str",
    ("SuperDimensionesBoard", "team_score"): "def team_score(self, team: str) -> tuple[int, int]: ...",
    ("SuperDimensionesMove", "declines"): "declines: bool",
    ("SuperDimensionesMove", "is_ally_jump"): "is_ally_jump: bool",
    ("SuperDimensionesMove", "is_huff"): "is_huff: bool",
    ("SuperDimensionesMove", "paths"): "paths: tuple[Any, ...]",
    ("SuperDimensionesMove", "penalty"): "penalty: str | None",
    ("SuperDimensionesMove", "promotes"): "promotes: bool",
    ("SuperDimensionesMove", "text"): "text: str",
}
# Private members that tests call, stubbed so that mypy accepts those tests (not in dir's
# public names, so listed here by hand).
PRIVATE = {
    "DraughtsBoard": ["def _exchange_offers(self) -> list[DraughtsMove]: ..."],
}
SWITCH = '''class Switch:
    """A search feature that can be turned off or on (see engine._search.SWITCHES)."""
    index: int
    default: bool
    uci: str
    hub: str
    meaning: str
    def __init__(self, index: int, default: bool, uci: str, hub: str,
                 meaning: str) -> None: ...

SWITCHES: dict[str, Switch]

'''
ENGINE = '''class Engine:
    """The search, with its transposition table (see engine._search)."""
    hash_mb: int
    reductions: bool
    null_move: bool
    probcut: bool
    early_reductions: bool
    qs_promotions: bool
    qs_exchanges: bool
    threads: int
    handovers: int
    searching: bool
    tablebases: Any
    def __init__(self, hash_mb: int = ..., eval_file: str | PathLike[str] | None = ...,
                 threads: int = ..., *, reductions: bool = ..., null_move: bool = ...,
                 probcut: bool = ..., early_reductions: bool = ..., qs_promotions: bool = ...,
                 qs_exchanges: bool = ...) -> None: ...
    def search(self, board: GameBoard, depth: int | None = ..., nodes: int | None = ...,
               movetime: float | None = ..., wtime: float | None = ..., btime: float | None = ...,
               winc: float = ..., binc: float = ..., movestogo: int | None = ...,
               infinite: bool = ..., multipv: int = ...,
               info: Callable[[SearchInfo], object] | None = ...,
               asked_at: float | None = ...) -> SearchResult: ...
    def stop(self) -> None: ...
    def new_game(self) -> None: ...
    def resize(self, hash_mb: int) -> None: ...
    def hashfull(self) -> int: ...
'''


def table_set(name: str) -> list[str]:
    """The stub of a family's native table set: what engine.egdb asks of every one."""
    return ["", f"class {name}:",
            "    compressible: bool",
            "    def __init__(self, variant: str) -> None: ...",
            "    @staticmethod",
            "    def limit() -> int: ...",
            "    @staticmethod",
            "    def slice_name(signature: tuple[int, ...]) -> str: ...",
            "    @staticmethod",
            "    def parse_name(name: str) -> tuple[int, ...]: ...",
            "    @staticmethod",
            "    def build_group(signature: tuple[int, ...]) -> tuple[int, int]: ...",
            "    def signatures(self, pieces: int, kings_only: bool = ...) -> list[tuple[int, ...]]: ...",
            "    @staticmethod",
            "    def reachable(position: bytes, signature: tuple[int, ...]) -> bool: ...",
            "    def position_text(self, signature: tuple[int, ...], index: int) -> str: ...",
            "    def __getattr__(self, name: str) -> Any: ...  # see engine.egdb"]


# The draughts family's functions (the 128-bit build, _draughts_wide, has the same names).
DRAUGHTS = [
    "def draughts_variants() -> list[str]: ...",
    "def draughts_variant_id(name: str) -> int: ...",
    "# the learned evaluation's native face (patterns.py)",
    "def _set_patterns(vid: int, regions: list[list[int]], rotated: list[list[int]], "
    "king_rows: list[list[int]], n_king_rows: int, weights: Any, phase_start: int, "
    "drawish: bool, tempo: bool = ...) -> None: ...",
    "def _pattern_tables(vid: int) -> int: ...",
    "def _clear_patterns(vid: int) -> None: ...",
    "def _pattern_features(vid: int, regions: list[list[int]], rotated: list[list[int]], "
    "white: Any, black: Any, kings: Any, stm: Any) -> tuple[Any, Any, Any, Any]: ..."]

FAMILIES = [
    # module, board, move, square type, module functions
    ("_draughts", "DraughtsBoard", "DraughtsMove", "int | str",
     DRAUGHTS + table_set("DraughtsTableSet")),
    ("_stacks", "StackBoard", "StackMove", "str",
     ["def stack_variants() -> list[str]: ..."] + table_set("StackTableSet")),
    ("_superajedrez", "SuperajedrezBoard", "SuperajedrezMove", "str",
     ["def superajedrez_variants() -> list[str]: ..."]),
    ("_superdimensiones", "SuperDimensionesBoard", "SuperDimensionesMove", "str",
     ["def superdimensiones_variants() -> list[str]: ...",
      "def card_sets() -> list[str]: ...",
      "def start_fen(cards: str = ...) -> str: ..."]),
]
HEADER = '''# Type stubs of a native module: made by tools/make_stubs.py, checked by tests/test_typing.py.
from typing import Any, Self

from ._game import GameBoard
from .types import Color, Outcome, Termination
'''


def public(cls) -> list[str]:
    return sorted(n for n in dir(cls) if not n.startswith("_"))


def member(cls_name: str, name: str, table: dict, move: str, square: str) -> str:
    line = TYPES.get((cls_name, name)) or table.get(name)
    if line is None:
        raise SystemExit(f"{cls_name}.{name}: no type known; add it to TYPES in {__file__}")
    return line.format(move=move, square=square)


def family_stub(module: str, board: str, move: str, square: str, functions: list) -> str:
    native = __import__(f"engine.{module}", fromlist=[board])
    board_cls, move_cls = getattr(native, board), getattr(native, move)
    lines = [HEADER, f"class {move}:"]
    for name in public(move_cls):
        lines.append("    " + member(move, name, MOVE, move, square))
    lines.append("")
    lines.append(f"class {board}(GameBoard):")
    lines.append("    " + BOARD["__init__"])
    for name in public(board_cls):
        lines.append("    " + member(board, name, BOARD, move, square))
    lines.extend("    " + line for line in PRIVATE.get(board, []))
    lines.append("")
    lines.extend(functions)
    return "\n".join(lines) + "\n"


def main() -> int:
    out = ROOT / "src" / "engine"
    for module, board, move, square, functions in FAMILIES:
        (out / f"{module}.pyi").write_text(family_stub(module, board, move, square, functions))
    # The 128-bit build of the draughts code is the same source: to a type checker, the same
    # classes and functions (tests/test_typing.py checks that it has the same names).
    names = ["DraughtsBoard", "DraughtsMove"] + [
        line.split("(")[0][4:] for line in DRAUGHTS if line.startswith("def ")]
    (out / "_draughts_wide.pyi").write_text(
        "# Type stubs of a native module: made by tools/make_stubs.py. The draughts code built on\n"
        "# 128-bit boards: the names and types of _draughts.\n"
        "from ._draughts import (\n"
        + "".join(f"    {n} as {n},\n" for n in names) + ")\n")
    # GameBoard: what every family's board has (engine.Board is GameBoard to a type checker).
    shared = [BOARD[n].format(move="Any", square="Any") for n in sorted(BOARD)]
    (out / "_game.pyi").write_text(
        "# Type stubs of a native module: made by tools/make_stubs.py.\n"
        "from typing import Any, Self\n\nfrom .types import Color, Outcome, Termination\n\n"
        "class GameBoard:\n" + "".join(f"    {line}\n" for line in shared)
        + "    def _repr_svg_(self) -> str: ...\n"
        # What self-play, training and the endgame tables read (linear.py, selfplay.py).
        "    def _native_position(self) -> bytes: ...\n"
        "    def _linear_layout(self) -> list[str]: ...\n"
        "    def _linear_prior(self) -> Any: ...\n"
        "    def _linear_fixed_rows(self) -> list[int]: ...\n"
        "    def _linear_phase_max(self) -> int: ...\n"
        "    def _linear_features(self, positions: Any) -> tuple[Any, Any, Any, Any]: ...\n"
        "    def _set_linear(self, weights: Any) -> None: ...\n"
        "    def _clear_linear(self) -> None: ...\n\n"
        "def game_perft(board: GameBoard, depth: int, bulk: bool = ...) -> int: ...\n"
        "def game_key_after_check(board: GameBoard, depth: int) -> tuple[int, int]: ...\n"
        "def game_stop_perft() -> None: ...\n\nclass ProbeSource: ...\n")
    (out / "_search.pyi").write_text(
        "# Type stubs of a native module: made by tools/make_stubs.py.\n"
        "from os import PathLike\nfrom typing import Any, Callable\n\n"
        "from ._game import GameBoard\n"
        "from .analysis import PVLine as PVLine, SearchInfo as SearchInfo, "
        "SearchResult as SearchResult\n\n"
        "TABLE_WIN_BOUND: int\n\n" + SWITCH + ENGINE)
    print("stubs written:", ", ".join(f"{m}.pyi" for m, *_ in FAMILIES),
          "_draughts_wide.pyi, _game.pyi, _search.pyi")
    return 0


if __name__ == "__main__":
    sys.exit(main())
