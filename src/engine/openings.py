"""Openings for matches: files of positions, the standard sets that ship with the package, and
random balanced openings.

    >>> from engine import openings
    >>> len(openings.load("acf-3move", "checkers"))
    156

A match plays every opening twice, colours swapped, so an opening that favours one side costs
both engines the same. Sources, in the order ``load`` tries them:

* a file: one FEN per line (EPD too: operations after the position are ignored), or a PDN/PGN
  file whose games' last positions are the openings;
* a named set (``SETS``): the American Checker Federation's three-move ballots of English
  checkers, as published (data in ``openings_data/``), and, for every game, ``plies-N``: every
  distinct position N plies from the start, in move order — a fact of the rules, for runs that
  should cover the first moves exhaustively rather than at random.

Random openings (``random_openings``) are a few random plies checked by a short search to be
roughly level.
"""

from __future__ import annotations

import os
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import Board, Engine, games
from .errors import EngineError

DATA = os.path.join(os.path.dirname(__file__), "openings_data")


@dataclass(frozen=True)
class OpeningSet:
    name: str
    variant: str | None              # None: every game
    description: str
    positions: Callable[[str], list]  # variant -> FENs


def _acf(decks: tuple, tough_only: bool = False) -> Callable[[str], list]:
    def positions(variant: str) -> list:
        from . import pdn
        path = Path(DATA) / "acf-3move.pdn"
        out = []
        for game in pdn.iter_games(path, "checkers", strict=True):
            if game.headers["Deck"] in decks and (not tough_only or game.headers.get("Tough") == "yes"):
                out.append(game.end().fen())
        return out
    return positions


def _plies(variant: str, plies: int) -> list:
    """Every distinct position ``plies`` plies from the start, in the order of the move lists;
    finished games left out."""
    out: list = []
    seen: set = set()

    def walk(board, depth):
        if board.is_game_over():
            return
        if depth == 0:
            fen = board.fen()
            if fen not in seen:
                seen.add(fen)
                out.append(fen)
                if len(out) > MAX_SET_POSITIONS:
                    raise EngineError(f"plies-{plies} gives more than {MAX_SET_POSITIONS:,} "
                                      f"positions in {variant}: take fewer plies")
            return
        for move in board.legal_moves():
            board.push(move)
            walk(board, depth - 1)
            board.pop()

    walk(Board(variant), plies)
    return out


SETS: dict[str, OpeningSet] = {s.name: s for s in (
    OpeningSet("acf-3move", "checkers",
               "the ACF three-move deck of tournament and mail play: 156 ballots", _acf(("tournament", "mail"))),
    OpeningSet("acf-3move-all", "checkers",
               "all 174 ACF three-move ballots, the 18 barred (lost) ones too",
               _acf(("tournament", "mail", "barred"))),
    OpeningSet("acf-3move-tough", "checkers",
               "the 50 ballots of the 2002 computer tough deck", _acf(("tournament", "mail", "barred"), True)),
)}
PLIES_SET = re.compile(r"^plies-([1-4])$")
MAX_SET_POSITIONS = 100_000


def set_names(variant: str | None = None) -> list[str]:
    """The named sets that serve ``variant`` (all of them when None); plies-N last."""
    names = [s.name for s in SETS.values() if variant is None or s.variant in (None, variant)]
    return names + ["plies-1", "plies-2", "plies-3", "plies-4"]


def load(source: str, variant: str) -> list[str]:
    """The openings of a file or a named set, each checked to be a position of ``variant``
    where the game goes on. EngineError naming the file and line, or the known sets."""
    if os.path.exists(source):
        return read_openings(source, variant)
    if source in SETS:
        entry = SETS[source]
        if entry.variant not in (None, variant):
            raise EngineError(f"the opening set {source} is for {entry.variant}, not {variant}")
        return entry.positions(variant)
    m = PLIES_SET.match(source)
    if m:
        return _plies(variant, int(m.group(1)))
    raise EngineError(f"--openings {source!r}: no such file, and not a named set "
                      f"(sets for {variant}: {', '.join(set_names(variant))})")


def read_openings(path: str, variant: str) -> list[str]:
    """The openings of a file: one FEN (or EPD line) per line, blank lines and lines starting
    with # skipped, or a PDN/PGN file whose games' last positions are the openings (a file whose
    first line is a tag, or named .pdn/.pgn). Each is checked."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError as exc:
        raise EngineError(f"{path}: {exc.strerror}") from None
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if path.lower().endswith((".pdn", ".pgn")) or first.startswith("["):
        return _pdn_openings(path, text, variant)
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        entry = line.strip()
        if not entry or entry.startswith("#"):
            continue
        try:
            board = _position(variant, entry)
        except EngineError as exc:
            raise EngineError(f"{path}:{number}: {exc}") from None
        if board.is_game_over():
            raise EngineError(f"{path}:{number}: the game is already over")
        out.append(board.fen())
    if not out:
        raise EngineError(f"{path}: no openings")
    return out


# An EPD operation: an opcode, then operands up to a semicolon ("bm e4;", "id \"x\";").
_EPD_OPERATION = re.compile(r"\s+[A-Za-z][A-Za-z0-9_]*(\s[^;]*)?;")


def _position(variant: str, entry: str):
    """A FEN, or an EPD line: a FEN with its counters left out and operations after it."""
    try:
        return Board(variant, entry)
    except EngineError as first_error:
        if ";" not in entry:
            raise
        fields = entry.split()
        # The position is the longest run of leading fields that reads as one.
        for cut in range(len(fields) - 1, 0, -1):
            rest = " " + " ".join(fields[cut:])
            if _EPD_OPERATION.sub("", rest).strip():
                continue
            try:
                return Board(variant, " ".join(fields[:cut]))
            except EngineError:
                continue
        raise first_error


def _pdn_openings(path: str, text: str, variant: str) -> list[str]:
    from . import pdn
    out = []
    try:
        for game in pdn.iter_games(text, variant, strict=True):
            if game.variant != variant:
                raise EngineError(f"{path}:{game.line}: a game of {game.variant}, not {variant}")
            board = game.end()
            if board.is_game_over():
                raise EngineError(f"{path}:{game.line}: the game is already over")
            out.append(board.fen())
    except pdn.PdnError as exc:
        raise EngineError(f"{path}: {exc}") from None
    if not out:
        raise EngineError(f"{path}: no openings")
    return out


def random_openings(variant: str, count: int, plies: int, rng: random.Random,
                    max_score: int = 60, depth: int | None = None,
                    start: str | None = None) -> list[str]:
    """`count` distinct positions after `plies` random moves from `start` (default: the
    variant's start position) that a short search of this engine scores within max_score
    centi-men of equality (so neither side starts out winning). The search is 6 plies deep, 4 in
    Superajedrez (some 200 moves a position)."""
    if depth is None:
        depth = games.game(variant).opening_check_depth
    checker = Engine(16)
    seen: set = set()
    out: list = []
    attempts = 0
    while len(out) < count:
        attempts += 1
        if attempts > count * 200:
            raise EngineError(f"could not find {count} balanced openings of {plies} plies")
        board = Board(variant, start)
        while board.ply < plies and not board.is_game_over():
            board.push(rng.choice(board.legal_moves()))
        fen = board.fen()
        if board.is_game_over() or fen in seen:
            continue
        if abs(checker.search(board, depth=depth).score) > max_score:
            continue
        seen.add(fen)
        out.append(fen)
    return out


def schedule(openings: list, pairs: int, order: str, seed: int) -> list:
    """``pairs`` openings for a match: the list in order (repeated when short), or shuffled with
    ``seed`` (every opening once before any repeats)."""
    if order not in ("sequential", "random"):
        raise EngineError(f"opening order is sequential or random, not {order!r}")
    out: list = []
    rng = random.Random(seed)
    while len(out) < pairs:
        round_ = list(openings)
        if order == "random":
            rng.shuffle(round_)
        out.extend(round_)
    return out[:pairs]
