"""Loading a table folder and probing it: `Tables` (the search's probe source and the exact
values, distances included, for analysis) and `Probe`, one position's answer."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .manifest import (DEFAULT_DIR, MANIFEST, TableError, USER_DIR, user_dir, _check_variant,
                       _checked_file, _native, _read_manifest)
from .codecs import IN_ORDER_MAGIC, _codecs, _magic, _read_packed


def playing_tables(directory, variant: str):
    """The tables an engine that plays probes: those of `directory` (TableError if they do not
    load), or with no folder named (None, or USER_DIR) those of the user's folder when it holds
    the variant's, else None."""
    if directory not in (None, "", USER_DIR):
        return Tables(directory, variant)
    folder = user_dir()
    if not (folder / variant / MANIFEST).is_file():
        return None
    try:
        return Tables(folder, variant)
    except TableError:
        return None


# RULE codes of the native probe (see _game.pxd).
_RULE_NONE, _RULE_DRAW, _RULE_LOSS, _RULE_WIN = 0, 1, 2, 3


def _load_slice(folder: Path, name: str, entry: dict, native) -> None:
    if entry.get("kind", "raw") == "compressed":
        _load_compressed(folder, name, entry, native)
        return
    path = _checked_file(folder, entry["file"], entry["bytes"], entry["sha256"])
    try:
        values = np.load(path, mmap_mode="r")
    except Exception as exc:          # numpy raises many kinds for a malformed header
        if isinstance(exc, MemoryError):
            raise
        raise TableError(f"{path}: not a table file ({exc})") from None
    try:
        native.attach(native.parse_name(name), values)
    except ValueError as exc:
        raise TableError(f"{path}: {exc}") from None


def _load_compressed(folder: Path, name: str, entry: dict, native) -> None:
    signature = native.parse_name(name)
    if not native.compressible:
        raise TableError(f"{folder}: {native.variant}'s tables are never compressed")
    entries = native.size(signature)
    wdl_path = _checked_file(folder, entry["file"], entry["bytes"], entry["sha256"])
    dist_path = _checked_file(folder, entry["dist_file"], entry["dist_bytes"], entry["dist_sha256"])
    try:
        native.set_decoders(*_codecs().decoders)
        native.attach_packed(signature, _read_packed(wdl_path, 2, entries),
                             _read_packed(dist_path, 8, entries))
    except ValueError as exc:
        raise TableError(f"{folder / entry['file']}: {exc}") from None


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

    def best_move(self, board, probe: Probe | None = None) -> tuple | None:
        """The move the distances call best from ``board`` (left unchanged) and the probe of the
        position it leads to: the winner's fastest win, the loser's slowest loss, or a move that
        keeps a draw; None when the tables do not hold ``board`` or no move qualifies.
        ``probe``: ``board``'s own, when already known."""
        if probe is None:
            probe = self.probe(board)
            if probe is None:
                return None
        copy = board.copy()
        for move in copy.legal_moves():
            copy.push(move)
            child = self.probe(copy)
            copy.pop()
            if child is None:
                continue
            if probe.result == "draw" and child.result == "draw" or \
                    probe.result != "draw" and child.result not in ("draw", probe.result) and \
                    child.plies == probe.plies - 1:
                return move, child
        return None


def info(directory: str | os.PathLike, variant: str) -> list[str]:
    """Lines describing each slice of a table directory (from its manifest)."""
    _check_variant(variant)
    folder = Path(directory) / variant
    manifest = _read_manifest(folder, variant)
    lines = [f"{'slice':<10} {'positions':>13} {'wins':>12} {'draws':>12} {'losses':>12} "
             f"{'longest':>7} {'bytes':>13} {'stored':>10}"]
    total = compressed = in_order = 0
    for name, e in sorted(manifest["slices"].items(), key=lambda kv: (sum(kv[1]["signature"]), kv[0])):
        stored = e["bytes"] + e.get("dist_bytes", 0)
        kind = e.get("kind", "raw")
        old = kind == "compressed" and (folder / e["file"]).is_file() and \
            _magic(folder / e["file"]) == IN_ORDER_MAGIC
        lines.append(f"{name:<10} {e['entries']:>13,} {e['wins']:>12,} {e['draws']:>12,} "
                     f"{e['losses']:>12,} {e['longest_plies']:>7} {stored:>13,} {kind:>10}"
                     + (" *" if old else ""))
        total += stored
        compressed += kind == "compressed"
        in_order += old
    kinds = f" ({compressed} compressed)" if compressed else ""
    lines.append(f"{len(manifest['slices'])} slices{kinds}, {total:,} bytes in {folder}")
    lines += [""] + _summary(manifest["slices"])
    if in_order:
        lines.append(f"* {in_order} compressed in index order by an earlier version: "
                     f"'egdb compress' writes them again by side to move, about a third "
                     f"smaller")
    return lines


def _summary(slices: dict) -> list[str]:
    """A line per number of pieces: positions, bytes (raw, or win/draw/loss and distances
    apart), the build's and compression's seconds (wall, the slices' sum; CPU), the longest
    win and its slice."""
    by_pieces: dict[int, list] = {}
    for name, e in slices.items():
        by_pieces.setdefault(sum(e["signature"]), []).append((name, e))
    lines = [f"{'pieces':>6} {'slices':>6} {'positions':>16} {'raw bytes':>15} {'wdl bytes':>15} "
             f"{'dist bytes':>15} {'build s':>9} {'cpu s':>9} {'compress s':>10} {'cpu s':>9}  "
             f"longest win"]
    for pieces, group in sorted(by_pieces.items()):
        def total(key, kind=None):
            return sum(e.get(key, 0) for _, e in group if kind is None or e.get("kind", "raw") == kind)
        name, longest = max(((n, e["longest_plies"]) for n, e in group), key=lambda t: t[1])
        lines.append(f"{pieces:>6} {len(group):>6} {total('entries'):>16,} "
                     f"{total('bytes', 'raw'):>15,} {total('bytes', 'compressed'):>15,} "
                     f"{total('dist_bytes'):>15,} {total('seconds'):>9.1f} "
                     f"{total('cpu_seconds'):>9.1f} {total('compress_seconds'):>10.1f} "
                     f"{total('compress_cpu_seconds'):>9.1f}  {longest} plies ({name})")
    return lines
