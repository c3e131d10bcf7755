# Type stubs of a native module: made by tools/make_stubs.py.
from os import PathLike
from typing import Any, Callable

from ._game import GameBoard
from .analysis import PVLine as PVLine, SearchInfo as SearchInfo, SearchResult as SearchResult

TABLE_WIN_BOUND: int

class Switch:
    """A search feature that can be turned off or on (see engine._search.SWITCHES)."""
    index: int
    default: bool
    uci: str
    hub: str
    meaning: str
    def __init__(self, index: int, default: bool, uci: str, hub: str,
                 meaning: str) -> None: ...

SWITCHES: dict[str, Switch]

class Engine:
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
