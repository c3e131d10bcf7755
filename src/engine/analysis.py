"""What a search reports: one line per finished iteration, and the final result."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class PVLine:
    """One principal variation: its score for the side to move and its moves."""

    score: int                    # centi-men (a man is 100); see `mate` for won/lost positions
    mate: int | None              # moves to the end: > 0 the side to move wins, < 0 it loses
    pv: list = field(default_factory=list)

    @property
    def move(self):
        return self.pv[0] if self.pv else None

    def score_text(self) -> str:
        return f"mate {self.mate}" if self.mate is not None else f"cp {self.score}"


@dataclass(frozen=True)
class SearchInfo:
    """A finished iteration. ``str(info)`` is its UCI-style ``info`` line."""

    depth: int
    seldepth: int
    nodes: int
    time: float                   # seconds since the search started
    hashfull: int                 # per mille of the transposition table in use
    lines: list                   # PVLine per MultiPV index, best first
    tbhits: int = 0               # positions answered by the endgame tables
    thread_nodes: tuple = ()      # nodes of each thread, the main search first (sum: nodes)

    @property
    def nps(self) -> int:
        return int(self.nodes / self.time) if self.time > 0 else 0

    def __str__(self) -> str:
        out = []
        for i, line in enumerate(self.lines, 1):
            pv = " ".join(str(m) for m in line.pv)
            multipv = f" multipv {i}" if len(self.lines) > 1 else ""
            out.append(f"info depth {self.depth} seldepth {self.seldepth}{multipv} score "
                       f"{line.score_text()} nodes {self.nodes} nps {self.nps} "
                       f"time {int(self.time * 1000)} hashfull {self.hashfull}"
                       + (f" tbhits {self.tbhits}" if self.tbhits else "") + f" pv {pv}".rstrip())
        return "\n".join(out)


@dataclass(frozen=True)
class SearchResult:
    """The outcome of ``Engine.search``: the best move and how it was found."""

    best_move: object             # a Move, or None when the side to move has no legal move
    score: int
    mate: int | None
    depth: int
    seldepth: int
    nodes: int
    time: float
    pv: list
    lines: list                   # every PVLine when multipv > 1 (lines[0] is the best)
    hashfull: int = 0
    tbhits: int = 0               # positions answered by the endgame tables
    thread_nodes: tuple = ()      # nodes of each thread, the main search first (sum: nodes)

    @property
    def nps(self) -> int:
        return int(self.nodes / self.time) if self.time > 0 else 0
