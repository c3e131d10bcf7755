"""Endgame tables: build them, store them with checksums, load and probe them, solve positions.

    python -m engine egdb build --variant checkers --pieces 5      # into ./egdb/checkers/
    python -m engine egdb info --variant checkers
    python -m engine egdb verify --variant checkers                # every value from its successors
    python -m engine solve --variant checkers --fen "W:WK1,K2:BK32"

A table directory holds one ``.npy`` file per material slice (one byte per position, see
_egdb.pyx) and ``manifest.json`` with each file's SHA-256, size and statistics. A build writes
each slice atomically and records it in the manifest at once, so an interrupted build resumes
where it stopped. Loading verifies every checksum and memory-maps the files. A checksum says
only that a file is the one the manifest lists; ``verify`` checks what the values say: every
stored value is derived again from its successors' values by the retrograde rule, so a file
altered together with its manifest entry is caught too.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import Board, games
from ._draughts import draughts_variant_id
from ._egdb import TableSet
from ._stacks import StackTableSet
from .errors import EngineError
from .geometry import algebraic

FORMAT = 1
MANIFEST = "manifest.json"
DEFAULT_DIR = "egdb"
# RULE codes of the native probe (see _game.pxd).
_RULE_NONE, _RULE_DRAW, _RULE_LOSS, _RULE_WIN = 0, 1, 2, 3


class TableError(EngineError):
    """A table directory or file that is missing, corrupt or of another variant."""


def slice_name(signature: tuple) -> str:
    """Draughts ``(1, 2, 0, 1)`` → ``'1m2k-0m1k'`` (White's men and kings, then Black's);
    Dipole ``(3, 2)`` → ``'3w-2b'`` (checkers of each side)."""
    if len(signature) == 2:
        return f"{signature[0]}w-{signature[1]}b"
    wm, wk, bm, bk = signature
    return f"{wm}m{wk}k-{bm}m{bk}k"


def _parse_name(name: str) -> tuple:
    white, black = name.split("-")
    if white.endswith("w"):
        return int(white[:-1]), int(black[:-1])
    wm, wk = white.rstrip("k").split("m")
    bm, bk = black.rstrip("k").split("m")
    return int(wm), int(wk), int(bm), int(bk)


def _native(variant: str):
    if games.game(variant).family == "stacks":
        return StackTableSet(variant)
    return TableSet(variant, draughts_variant_id(variant))


def signatures(variant: str, pieces: int) -> list[tuple]:
    """Every slice with 2..pieces pieces and at least one per side, in build order: fewer pieces
    first (captures lead there), then fewer men (promotions lead there). For Dipole a piece is a
    checker and a slice is (White's checkers, Black's checkers)."""
    native = _native(variant)
    if isinstance(native, StackTableSet):
        per_side = min(native.per_side(), StackTableSet.limit())
        return [(w, total - w) for total in range(2, pieces + 1) for w in range(1, total)
                if w <= per_side and total - w <= per_side]
    white_men, black_men, squares = native.men_squares()
    limit = TableSet.limit()
    out = []
    for total in range(2, pieces + 1):
        for wm in range(total + 1):
            for bm in range(total - wm + 1):
                for wk in range(total - wm - bm + 1):
                    bk = total - wm - bm - wk
                    if wm + wk == 0 or bm + bk == 0 or max(wm, wk, bm, bk) > limit:
                        continue
                    if wm > white_men or bm > black_men or wm + bm + wk + bk > squares:
                        continue
                    out.append((wm, wk, bm, bk))
    out.sort(key=lambda s: (sum(s), s[0] + s[2], s))
    return out


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, path)


def table_variants() -> list[str]:
    """The games that have endgame tables: the draughts games whose player without a move
    loses, and Dipole."""
    return games.names(tables=True)


def _check_variant(variant: str) -> None:
    if variant not in table_variants():
        raise TableError(f"endgame tables exist for the draughts games and Dipole only "
                         f"({', '.join(table_variants())}), not {variant!r}")


def _read_manifest(folder: Path, variant: str) -> dict:
    path = folder / MANIFEST
    if not path.exists():
        raise TableError(f"{folder}: no {MANIFEST} (build the tables with "
                         f"'python -m engine egdb build --variant {variant}')")
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise TableError(f"{path}: unreadable manifest ({exc})") from None
    if not isinstance(data, dict):
        raise TableError(f"{path}: unreadable manifest (not an object)")
    if data.get("format") != FORMAT or data.get("variant") != variant:
        raise TableError(f"{path}: tables of format {data.get('format')!r} for "
                         f"{data.get('variant')!r}, expected format {FORMAT} for {variant!r}")
    slices = data.get("slices")
    if not isinstance(slices, dict):
        raise TableError(f"{path}: unreadable manifest (no list of slices)")
    for name, entry in slices.items():
        _check_entry(path, name, entry)
    return data


def _check_entry(path: Path, name, entry) -> None:
    """A manifest entry must name a slice, a plain file beside it, a size and a checksum."""
    try:
        signature = _parse_name(name)
    except (ValueError, AttributeError):
        raise TableError(f"{path}: {name!r} is not a slice name") from None
    if not isinstance(entry, dict):
        raise TableError(f"{path}: slice {name}: not an object")
    file, size, digest = entry.get("file"), entry.get("bytes"), entry.get("sha256")
    if not isinstance(file, str) or Path(file).name != file or not file.endswith(".npy"):
        raise TableError(f"{path}: slice {name}: file {file!r} is not a .npy file beside the manifest")
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise TableError(f"{path}: slice {name}: bytes {size!r} is not a size")
    if not isinstance(digest, str) or len(digest) != 64:
        raise TableError(f"{path}: slice {name}: sha256 {digest!r} is not a checksum")
    if list(entry.get("signature", signature)) != list(signature):
        raise TableError(f"{path}: slice {name}: signature {entry.get('signature')!r} does not "
                         f"match its name")


def _load_slice(folder: Path, name: str, entry: dict, native: TableSet) -> None:
    path = folder / entry["file"]
    if not path.exists():
        raise TableError(f"{path}: missing (the manifest lists it)")
    if path.stat().st_size != entry["bytes"]:
        raise TableError(f"{path}: {path.stat().st_size} bytes, the manifest says "
                         f"{entry['bytes']} (truncated or replaced)")
    if _sha256(path) != entry["sha256"]:
        raise TableError(f"{path}: checksum mismatch (the file is corrupt; delete it and "
                         f"build again)")
    try:
        values = np.load(path, mmap_mode="r")
    except Exception as exc:          # numpy raises many kinds for a malformed header
        if isinstance(exc, MemoryError):
            raise
        raise TableError(f"{path}: not a table file ({exc})") from None
    try:
        native.attach(_parse_name(name), values)
    except ValueError as exc:
        raise TableError(f"{path}: {exc}") from None


@dataclass
class Probe:
    """A table's answer for the side to move: 'win', 'draw' or 'loss', and the plies to the end
    of the game with best play (0 for a draw)."""

    result: str
    plies: int

    @property
    def moves(self) -> int:
        """The distance in moves of the winning or losing side (plies rounded up, halved)."""
        return (self.plies + 1) // 2


class Tables:
    """The endgame tables of one variant in a directory (``Tables('egdb', 'checkers')`` reads
    ``egdb/checkers/``). Every file's checksum is verified when loaded."""

    def __init__(self, directory: str | os.PathLike = DEFAULT_DIR, variant: str = "checkers"):
        _check_variant(variant)
        self.variant = variant
        self.folder = Path(directory) / variant
        self.native = _native(variant)
        manifest = _read_manifest(self.folder, variant)
        for name, entry in manifest["slices"].items():
            _load_slice(self.folder, name, entry, self.native)
        self.manifest = manifest
        if not manifest["slices"]:
            raise TableError(f"{self.folder}: the manifest lists no slices")

    @property
    def pieces(self) -> int:
        """The most pieces of any slice loaded."""
        return self.native.max_pieces

    def probe(self, board) -> Probe | None:
        """The exact result for the side to move, or None when the tables do not hold it."""
        if board.variant != self.variant:
            raise TableError(f"tables of {self.variant} cannot answer for {board.variant}")
        code, plies = self.native.probe_position(board._native_position())
        if code == _RULE_NONE:
            return None
        return Probe({_RULE_WIN: "win", _RULE_LOSS: "loss", _RULE_DRAW: "draw"}[code],
                     plies if code != _RULE_DRAW else 0)


def build(variant: str, pieces: int, directory: str | os.PathLike = DEFAULT_DIR,
          report=print, kings_only: bool = False, threads: int | None = None) -> Tables:
    """Build every slice up to ``pieces`` pieces into ``directory/variant`` (slices already
    there and intact are kept), reporting a line per slice; returns the loaded Tables.
    ``kings_only`` builds only the slices without men (they never lead to a slice with men).
    Slices with the same number of pieces and of men do not depend on each other and are built
    ``threads`` at a time (default: every processor)."""
    _check_variant(variant)
    if pieces < 2:
        raise TableError("tables need at least 2 pieces")
    threads = threads or os.cpu_count() or 1
    folder = Path(directory) / variant
    folder.mkdir(parents=True, exist_ok=True)
    try:
        manifest = _read_manifest(folder, variant)
    except TableError:
        manifest = {"format": FORMAT, "variant": variant, "slices": {}}
    native = _native(variant)
    todo = signatures(variant, pieces)
    if kings_only and len(todo[0]) == 4:
        todo = [s for s in todo if s[0] == s[2] == 0]
    total_entries = sum(native.size(s) for s in todo)
    progress = {"done": 0, "number": 0}
    started = time.perf_counter()

    def head(sig):
        progress["number"] += 1
        return (f"[{progress['number']:>3}/{len(todo)}] {slice_name(sig):<10} "
                f"{native.size(sig):>13,} positions")

    def keep(sig) -> bool:
        name = slice_name(sig)
        entry = manifest["slices"].get(name)
        if entry is None:
            return False
        try:
            _load_slice(folder, name, entry, native)
        except TableError as exc:
            if report:
                report(f"{head(sig)}  rebuilding: {exc}")
            progress["number"] -= 1
            del manifest["slices"][name]
            return False
        progress["done"] += native.size(sig)
        if report:
            report(f"{head(sig)}  kept (checksum verified)")
        return True

    def compute(sig):
        t0 = time.perf_counter()
        values, counts = native.build(sig)
        return sig, values, counts, time.perf_counter() - t0

    def record(sig, values, counts, seconds):
        name = slice_name(sig)
        entries = native.size(sig)
        path = folder / f"{name}.npy"
        tmp = folder / f"{name}.tmp.npy"
        np.save(tmp, values)
        os.replace(tmp, path)
        native.attach(sig, np.load(path, mmap_mode="r"))    # the file, not memory, from now on
        wins, draws, losses, invalid, longest = counts
        manifest["slices"][name] = {
            "file": path.name, "bytes": path.stat().st_size, "sha256": _sha256(path),
            "signature": list(sig), "entries": entries, "wins": wins, "draws": draws,
            "losses": losses, "invalid": invalid, "longest_plies": longest,
            "seconds": round(seconds, 3),
        }
        _write_json(folder / MANIFEST, manifest)
        progress["done"] += entries
        if report:
            valid = max(wins + draws + losses, 1)
            report(f"{head(sig)}  W {100 * wins / valid:4.1f}% D {100 * draws / valid:4.1f}% "
                   f"L {100 * losses / valid:4.1f}%  longest {longest:>3} plies  {seconds:7.2f} s "
                   f"{entries / max(seconds, 1e-9) / 1e6:6.2f} M/s  "
                   f"({100 * progress['done'] / total_entries:5.1f}% of all, "
                   f"{time.perf_counter() - started:.0f} s)")

    groups: dict[tuple, list] = {}
    for sig in todo:
        men = sig[0] + sig[2] if len(sig) == 4 else 0
        groups.setdefault((sum(sig), men), []).append(sig)
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for key in sorted(groups):
            pending = [sig for sig in groups[key] if not keep(sig)]
            # The biggest slices first, so that the threads finish together.
            pending.sort(key=native.size, reverse=True)
            for sig, values, counts, seconds in pool.map(compute, pending):
                record(sig, values, counts, seconds)
    return Tables(directory, variant)


# -- solving ----------------------------------------------------------------------------------

@dataclass
class Solution:
    """What ``solve`` found for the side to move.

    ``result``: 'win', 'draw', 'loss' or 'unknown'; ``plies``: to the end of the game with best
    play (exact from the tables; from a search, the length of the forced line it found);
    ``best_move`` and ``line`` (the best line, to the end for a win or loss); ``source``:
    'tables', 'search' or 'game over'."""

    result: str
    plies: int | None
    best_move: object
    line: list = field(default_factory=list)
    source: str = "tables"

    @property
    def moves(self) -> int | None:
        return None if self.plies is None else (self.plies + 1) // 2

    def __str__(self) -> str:
        if self.result == "unknown":
            head = "unknown (not in the tables; the search proved nothing within its time)"
        elif self.result == "draw":
            head = f"draw ({self.source})"
        else:
            exact = "" if self.source == "tables" else "at most "
            head = (f"{self.result} in {exact}{self.plies} plies ({self.moves} moves, "
                    f"{self.source})")
        text = head
        if self.best_move is not None:
            text += f"\nbest move: {self.best_move}"
        if self.line:
            text += "\nline: " + " ".join(str(m) for m in self.line)
        return text


DRAW_LINE_PLIES = 20


def _table_line(board, tables: Tables, probe: Probe) -> list:
    """Follow the tables from board (left unchanged): the winner shortens, the loser lengthens,
    a draw keeps the draw. A draw's line stops after DRAW_LINE_PLIES plies."""
    line: list[str] = []
    copy = board.copy()
    current = probe
    while current.result != "draw" and current.plies > 0 or \
            current.result == "draw" and len(line) < DRAW_LINE_PLIES:
        choice = None
        for move in copy.legal_moves():
            copy.push(move)
            child = tables.probe(copy)
            copy.pop()
            if child is None:
                continue
            if current.result == "draw" and child.result == "draw" or \
                    current.result != "draw" and child.result != "draw" and \
                    child.result != current.result and child.plies == current.plies - 1:
                choice, current_next = move, child
                break
        if choice is None:
            break
        line.append(choice)
        copy.push(choice)
        current = current_next
    return line


def solve(board, tables: Tables | None = None, movetime: float = 5.0, engine=None) -> Solution:
    """The exact value of ``board`` for the side to move: from the tables when they hold it
    (with the best line to the end), else from a search with the tables at its leaves that
    answers 'win'/'loss' when it finds a forced result within ``movetime`` seconds and
    'unknown' otherwise (a search cannot prove a draw)."""
    from ._search import Engine

    outcome = board.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return Solution("draw", 0, None, [], "game over")
        return Solution("win" if outcome.winner == board.turn else "loss", 0, None, [],
                        "game over")
    if tables is not None:
        found = tables.probe(board)
        if found is not None:
            line = _table_line(board, tables, found)
            return Solution(found.result, found.plies, line[0] if line else None, line, "tables")
    searcher = engine or Engine(hash_mb=64)
    if tables is not None:
        searcher.tablebases = tables
    try:
        result = searcher.search(board, movetime=movetime)
    finally:
        if tables is not None and engine is None:
            searcher.tablebases = None
    if result.mate is None:
        return Solution("unknown", None, result.best_move, result.pv, "search")
    plies = 2 * abs(result.mate) - 1 if result.mate > 0 else 2 * abs(result.mate)
    line = list(result.pv)
    if tables is not None:
        # The search's line stops where the tables take over: follow them to the end.
        end = board.copy()
        for move in line:
            end.push(move)
        found = tables.probe(end) if end.outcome() is None else None
        if found is not None and found.result != "draw":
            line += _table_line(end, tables, found)
    return Solution("win" if result.mate > 0 else "loss", plies, result.best_move, line,
                    "search")


VERIFY_CHUNK = 1 << 20          # entries per unit of work


@dataclass
class VerifyReport:
    """What ``verify`` found: positions checked and the wrong ones, first few by slice."""

    checked: int = 0
    wrong: int = 0
    examples: list = field(default_factory=list)     # (slice name, index, position text)

    @property
    def ok(self) -> bool:
        return self.wrong == 0


def position_text(tables: Tables, signature: tuple, index: int) -> str:
    """A slice entry as a FEN the engine reads (for naming wrong positions)."""
    found = tables.native.position(signature, index)
    if found is None:
        return f"entry {index} (an invalid index)"
    spec = Board(tables.variant).spec
    if len(signature) == 2:                             # Dipole: square.height
        stm, white, black = found
        coords = spec.geometry.coords

        def stacks(d):
            return ",".join(f"{algebraic(*coords[b])}.{h}" for b, h in sorted(d.items()))
        return f"{'WB'[stm]}:W{stacks(white)}:B{stacks(black)}"
    white, black, kings, stm = found

    def side(bits):
        return ",".join(("K" if kings >> b & 1 else "") + str(spec.square_names[b])
                        for b in range(64) if bits >> b & 1)
    return f"{'WB'[stm]}:W{side(white)}:B{side(black)}"


def reachable_slices(tables: Tables, board) -> list[str]:
    """The names of the loaded slices a game from ``board`` can reach: no more men of a side
    than now, no more pieces of a side than now (Dipole: no more checkers of a side)."""
    import struct
    native = board._native_position()
    if len(next(iter(tables.manifest["slices"].values()))["signature"]) == 2:
        stacks_w, stacks_b, _, _ = struct.unpack_from("<QQQi", native)
        heights = native[28:28 + 64]
        w = sum(heights[b] for b in range(64) if stacks_w >> b & 1)
        bl = sum(heights[b] for b in range(64) if stacks_b >> b & 1)
        return [n for n, e in tables.manifest["slices"].items()
                if e["signature"][0] <= w and e["signature"][1] <= bl]
    white, black, kings = struct.unpack_from("<QQQ", native)
    wm, wk = (white & ~kings).bit_count(), (white & kings).bit_count()
    bm, bk = (black & ~kings).bit_count(), (black & kings).bit_count()
    out = []
    for name, e in tables.manifest["slices"].items():
        m, k, n, j = e["signature"]
        if m <= wm and m + k <= wm + wk and n <= bm and n + j <= bm + bk:
            out.append(name)
    return out


def verify(tables: Tables, slices: list | None = None, threads: int | None = None,
           progress: bool = True, max_examples: int = 10) -> VerifyReport:
    """Derive every stored value of ``tables`` (or of the named slices) again from its
    successors' stored values, in parallel threads (the native check runs without the GIL),
    with a progress bar on a terminal. Returns the count of wrong entries and the first ones."""
    from concurrent.futures import ThreadPoolExecutor

    from tqdm import tqdm

    native = tables.native
    chosen = [_parse_name(n) for n in (slices or tables.manifest["slices"])]
    units = [(sig, start, min(start + VERIFY_CHUNK, native.size(sig)))
             for sig in chosen for start in range(0, native.size(sig), VERIFY_CHUNK)]
    report = VerifyReport()

    def check(unit):
        sig, start, stop = unit
        return unit, native.verify(sig, start, stop, max_examples)

    bar = tqdm(total=sum(stop - start for _, start, stop in units), unit="pos", unit_scale=True,
               desc=f"verify {tables.variant}", disable=None if progress else True)
    with ThreadPoolExecutor(max_workers=threads or os.cpu_count() or 1) as pool:
        for (sig, start, stop), (checked, wrong, first) in pool.map(check, units):
            report.checked += checked
            report.wrong += wrong
            for index in first:
                if len(report.examples) < max_examples:
                    report.examples.append((slice_name(sig), index,
                                            position_text(tables, sig, index)))
            bar.update(stop - start)
    bar.close()
    return report


def info(directory: str | os.PathLike, variant: str) -> list[str]:
    """Lines describing each slice of a table directory (from its manifest)."""
    _check_variant(variant)
    folder = Path(directory) / variant
    manifest = _read_manifest(folder, variant)
    lines = [f"{'slice':<10} {'positions':>13} {'wins':>12} {'draws':>12} {'losses':>12} "
             f"{'longest':>7} {'bytes':>13}"]
    total = 0
    for name, e in sorted(manifest["slices"].items(), key=lambda kv: (sum(kv[1]["signature"]), kv[0])):
        lines.append(f"{name:<10} {e['entries']:>13,} {e['wins']:>12,} {e['draws']:>12,} "
                     f"{e['losses']:>12,} {e['longest_plies']:>7} {e['bytes']:>13,}")
        total += e["bytes"]
    lines.append(f"{len(manifest['slices'])} slices, {total:,} bytes in {folder}")
    return lines
