"""A table folder: its manifest (each slice's file, SHA-256, size and statistics), the slices'
names and signatures, and the checks every loader makes. Knows no game: the game's record names
its native table set (`Game.table_set`), which says what a slice is."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Protocol

from .. import games
from ..errors import EngineError
from ..files import replacing


FORMAT = 1
MANIFEST = "manifest.json"
DEFAULT_DIR = "egdb"
# The user's own table folder, which the engines that play (uci, analyse, dxp, serve) probe when
# no folder is named: `python -m engine egdb install` builds tables there.
USER_DIR_ENV = "DIMENSIONES_EGDB"
USER_DIR = "<default>"          # the name of that folder in options (UCI EgdbPath)


def user_dir() -> Path:
    """$DIMENSIONES_EGDB, else the user's cache folder: $XDG_CACHE_HOME/dimensiones/egdb or
    ~/.cache/dimensiones/egdb."""
    named = os.environ.get(USER_DIR_ENV)
    if named:
        return Path(named)
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "dimensiones" / "egdb"


class TableError(EngineError):
    """A table directory or file that is missing, corrupt or of another variant."""


class TableSet(Protocol):
    """What this package asks of a family's native table set (`DraughtsTableSet`,
    `StackTableSet`, named by `Game.table_set`): the interface between the table files and the
    game's code. The second group is asked only of a set whose `compressible` is true."""

    variant: str
    compressible: bool             # egdb compress can store its slices as .wdl and .dist files
    build_bytes: int               # memory a build needs an entry ...
    wide_build_bytes: int          # ... and with values of two bytes
    file_bytes: int                # disk a raw file needs an entry (at least)

    def __init__(self, variant: str) -> None: ...
    @staticmethod
    def slice_name(signature: tuple) -> str: ...
    @staticmethod
    def parse_name(name: str) -> tuple: ...
    @staticmethod
    def build_group(signature: tuple) -> tuple: ...
    @staticmethod
    def reachable(position: bytes, signature: tuple) -> bool: ...
    def signatures(self, pieces: int, kings_only: bool = ...) -> list: ...
    def size(self, signature: tuple) -> int: ...
    @property
    def max_pieces(self) -> int: ...           # the most pieces of any slice attached
    def attach(self, signature: tuple, values: Any) -> None: ...
    def build(self, signature: tuple, threads: int = ..., **options: Any) -> tuple: ...
    def probe_position(self, native: bytes, *args: Any) -> Any: ...
    def verify(self, signature: tuple, start: int = ..., stop: int | None = ...,
               max_wrong: int = ...) -> Any: ...
    def position_text(self, signature: tuple, index: int) -> str: ...

    # compressible sets only
    def streams(self, signature: tuple, threads: int = ...) -> Any: ...
    def attach_packed(self, signature: tuple, wdl: Any, dist: Any) -> None: ...
    def set_decoders(self, lz4_decode: int, zstd: tuple) -> None: ...
    def expand(self, signature: tuple, start: int = ..., stop: int | None = ...,
               dtype: Any = ...) -> Any: ...
    def unpack(self, signature: tuple, out: Any, start: int, stop: int) -> None: ...
    def detach_raw(self, signature: tuple) -> None: ...
    def bad_blocks(self, signature: tuple) -> list: ...
    @staticmethod
    def feeds(group: tuple, later: tuple) -> bool: ...


def _table_set(variant: str) -> type[TableSet]:
    """The class of the variant's native table set (its game's record says which)."""
    _check_variant(variant)
    return games.game(variant).table_set


def _native(variant: str) -> TableSet:
    """A fresh native table set of the variant."""
    return _table_set(variant)(variant)


def slice_name(variant: str, signature: tuple) -> str:
    """The name of a slice: draughts ``(1, 2, 0, 1)`` → ``'1m2k-0m1k'`` (White's men and kings,
    then Black's); Dipole ``(3, 2)`` → ``'3w-2b'`` (checkers of each side)."""
    return _table_set(variant).slice_name(signature)


def signatures(variant: str, pieces: int) -> list[tuple]:
    """Every slice with 2..pieces pieces and at least one per side, in build order: fewer pieces
    first (captures lead there), then fewer men (promotions lead there). For Dipole a piece is a
    checker and a slice is (White's checkers, Black's checkers)."""
    return _native(variant).signatures(pieces)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _write_json(path: Path, data: dict) -> None:
    with replacing(path, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(data, indent=1, sort_keys=True) + "\n")


def table_variants() -> list[str]:
    """The games that have endgame tables: the draughts games whose player without a move
    loses, and Dipole."""
    return games.names(tables=True)


def _check_variant(variant: str) -> None:
    if variant not in table_variants():
        raise TableError(f"endgame tables exist only for {', '.join(table_variants())}, "
                         f"not {variant!r}")


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
        _check_entry(path, variant, name, entry)
    return data


def _check_entry(path: Path, variant: str, name, entry) -> None:
    """A manifest entry must name a slice, a plain file beside it, a size and a checksum."""
    try:
        signature = _table_set(variant).parse_name(name)
    except (ValueError, TypeError, AttributeError):
        raise TableError(f"{path}: {name!r} is not a slice name") from None
    if not isinstance(entry, dict):
        raise TableError(f"{path}: slice {name}: not an object")
    kind = entry.get("kind", "raw")
    if kind not in ("raw", "compressed"):
        raise TableError(f"{path}: slice {name}: kind {kind!r} is neither 'raw' nor 'compressed'")
    for prefix, suffix in ([("", ".npy")] if kind == "raw" else [("", ".wdl"), ("dist_", ".dist")]):
        file, size = entry.get(prefix + "file"), entry.get(prefix + "bytes")
        digest = entry.get(prefix + "sha256")
        if not isinstance(file, str) or Path(file).name != file or not file.endswith(suffix):
            raise TableError(f"{path}: slice {name}: file {file!r} is not a {suffix} file beside "
                             f"the manifest")
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise TableError(f"{path}: slice {name}: bytes {size!r} is not a size")
        if not isinstance(digest, str) or len(digest) != 64:
            raise TableError(f"{path}: slice {name}: sha256 {digest!r} is not a checksum")
    if list(entry.get("signature", signature)) != list(signature):
        raise TableError(f"{path}: slice {name}: signature {entry.get('signature')!r} does not "
                         f"match its name")


def _checked_file(folder: Path, file: str, size: int, digest: str) -> Path:
    path = folder / file
    if not path.exists():
        raise TableError(f"{path}: missing (the manifest lists it)")
    if path.stat().st_size != size:
        raise TableError(f"{path}: {path.stat().st_size} bytes, the manifest says "
                         f"{size} (truncated or replaced)")
    if _sha256(path) != digest:
        raise TableError(f"{path}: checksum mismatch (the file is corrupt; delete it and "
                         f"build again)")
    return path


def _duration_text(seconds: float) -> str:
    return f"{seconds / 3600:.1f} h" if seconds >= 5400 else f"{seconds / 60:.0f} min"


def _size_text(size: int) -> str:
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size / 1024:.1f} KiB"
