"""Endgame tables: build them, store them with checksums, load and probe them, solve positions.

    python -m engine egdb build --variant checkers --pieces 5      # into ./egdb/checkers/
    python -m engine egdb info --variant checkers
    python -m engine egdb verify --variant checkers                # every value from its successors
    python -m engine solve --variant checkers --fen "W:WK1,K2:BK32"

This module knows no game: each family's native table set (``DraughtsTableSet`` in
_draughts_tables.pxi, ``StackTableSet`` in _stacks_tables.pxi, named by the game's record in
`engine.games`) says what its slices are: their signatures in build order, their names, which
of them a position can reach, and how an entry reads as a FEN.

A table directory holds one ``.npy`` file per material slice (draughts: one byte per position,
two in a slice with a distance past 252 plies) and ``manifest.json`` with each file's SHA-256,
size and statistics.
``egdb compress`` turns raw slices into two compressed files each (``NAME.wdl``: win/draw/loss
in two bits an entry; ``NAME.dist``: the distances of won positions), cut into blocks that
decode on their own (LZ4 and zstd), so that a probe reads one block; see docs/egdb.md. A build writes
each slice atomically and records it in the manifest at once, so an interrupted build resumes
where it stopped. Loading verifies every checksum and memory-maps the files. A checksum says
only that a file is the one the manifest lists; ``verify`` checks what the values say: every
stored value is derived again from its successors' values by the retrograde rule, so a file
altered together with its manifest entry is caught too.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import games
from .errors import EngineError
from .files import replacing

FORMAT = 1
MANIFEST = "manifest.json"
# Compressed slice files: a header, the byte offsets of the blocks (nblocks + 1, uint64), each
# block's check (nblocks, uint32: DraughtsTableSet.block_check of its bytes), the blocks.
PACKED_MAGIC = b"DIMTBZ03"      # entries stored by side to move (see DraughtsTableSet.streams)
IN_ORDER_MAGIC = b"DIMTBZ02"    # ... in index order: still read
OLD_MAGIC = b"DIMTBZ01"         # zlib blocks, before LZ4 and zstd
PACKED_HEADER = np.dtype([("magic", "S8"), ("bits", "<u4"), ("per_block", "<u4"),
                          ("entries", "<u8"), ("nblocks", "<u8")])
# Entries a block: 4 KB of win/draw/loss (the search decodes these, so they are small) and
# 256 KB of distances (only Tables.probe, solve and verify read them).
PER_BLOCK = {2: 1 << 14, 8: 1 << 18}
LZ4_LEVEL = 12                  # LZ4_compress_HC's highest: decoding is as fast at any level,
                                # writing 4 times faster at 6 for files 2-3 % larger
ZSTD_LEVEL = 19                 # zstd's highest before its "ultra" levels (slow to write)
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


class TableError(EngineError):
    """A table directory or file that is missing, corrupt or of another variant."""


def _table_set(variant: str):
    """The class of the variant's native table set (its game's record says which)."""
    _check_variant(variant)
    return games.game(variant).table_set


def _native(variant: str):
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


class _Codecs:
    """The system's liblz4 and libzstd, through ctypes: the functions that write compressed
    slices, and the addresses of those that read them, handed to the native probe (so
    building the package needs neither library's header)."""

    def __init__(self):
        lz4 = _library(["lz4", "liblz4.so.1", "liblz4.dylib", "liblz4.dll"],
                       "LZ4_decompress_safe", "liblz4 (Debian: liblz4-1)")
        zstd = _library(["zstd", "libzstd.so.1", "libzstd.dylib", "libzstd.dll"],
                        "ZSTD_decompressDCtx", "libzstd (Debian: libzstd1)")
        size_t, void_p, char_p = ctypes.c_size_t, ctypes.c_void_p, ctypes.c_char_p
        self._lz4_bound = _function(lz4, "LZ4_compressBound", ctypes.c_int, [ctypes.c_int])
        self._lz4_compress = _function(lz4, "LZ4_compress_HC", ctypes.c_int,
                                       [void_p, void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int])
        self._lz4_decompress = _function(lz4, "LZ4_decompress_safe", ctypes.c_int,
                                         [char_p, void_p, ctypes.c_int, ctypes.c_int])
        self._zstd_bound = _function(zstd, "ZSTD_compressBound", size_t, [size_t])
        self._zstd_compress = _function(zstd, "ZSTD_compress", size_t,
                                        [void_p, size_t, void_p, size_t, ctypes.c_int])
        self._zstd_decompress = _function(zstd, "ZSTD_decompress", size_t,
                                          [void_p, size_t, char_p, size_t])
        self._zstd_is_error = _function(zstd, "ZSTD_isError", ctypes.c_uint, [size_t])
        address = lambda lib, name: ctypes.cast(getattr(lib, name), ctypes.c_void_p).value
        self.decoders = (address(lz4, "LZ4_decompress_safe"),
                         tuple(address(zstd, name) for name in
                               ("ZSTD_decompressDCtx", "ZSTD_isError", "ZSTD_createDCtx",
                                "ZSTD_freeDCtx")))

    def compress(self, data: np.ndarray, bits: int, level: int = 0) -> bytes:
        """One block (contiguous bytes, read in place) at the codec's `level`: LZ4 for
        win/draw/loss (default LZ4_LEVEL), zstd for distances (default ZSTD_LEVEL)."""
        size, address = data.nbytes, data.ctypes.data
        if bits == 2:
            out = ctypes.create_string_buffer(self._lz4_bound(size))
            n = self._lz4_compress(address, out, size, len(out), level or LZ4_LEVEL)
            if n <= 0:
                raise TableError("LZ4 could not compress a block")
        else:
            out = ctypes.create_string_buffer(self._zstd_bound(size))
            n = self._zstd_compress(out, len(out), address, size, level or ZSTD_LEVEL)
            if self._zstd_is_error(n):
                raise TableError("zstd could not compress a block")
        return ctypes.string_at(out, n)

    def decompress(self, data: bytes, bits: int, size: int) -> bytes | None:
        """One block back, or None when it does not decode to `size` bytes."""
        out = ctypes.create_string_buffer(max(size, 1))
        if bits == 2:
            n = self._lz4_decompress(data, out, len(data), size)
        else:
            n = self._zstd_decompress(out, size, data, len(data))
            n = -1 if self._zstd_is_error(n) else n
        return out.raw[:n] if n == size else None


def _library(names: list, function: str, package: str):
    """The first of the names (a name for find_library, or a file) that loads and has the
    function; a TableError naming the package otherwise."""
    for name in names:
        path = ctypes.util.find_library(name) if "." not in name else name
        if not path:
            continue
        try:
            lib = ctypes.CDLL(path)
            getattr(lib, function)
            return lib
        except (OSError, AttributeError):
            continue
    raise TableError(f"compressed tables need the {package} library, which was not found")


def _function(lib, name: str, restype, argtypes):
    f = getattr(lib, name)
    f.restype, f.argtypes = restype, argtypes
    return f


@functools.cache
def _codecs() -> _Codecs:
    return _Codecs()


def _block_check():
    """The function that checks a block's stored bytes: the native reader's own."""
    from ._draughts import DraughtsTableSet
    return DraughtsTableSet.block_check


def _read_packed(path: Path, bits: int, entries: int) -> tuple:
    """(offsets, checks, data, per_block, by_side) of a compressed slice file, memory-mapped
    (see DraughtsTableSet.attach_packed)."""
    raw = np.memmap(path, dtype=np.uint8, mode="r")
    if raw.shape[0] < PACKED_HEADER.itemsize:
        raise TableError(f"{path}: too short for a compressed table file")
    head = raw[:PACKED_HEADER.itemsize].view(PACKED_HEADER)[0]
    if head["magic"] == OLD_MAGIC:
        raise TableError(f"{path}: compressed by an earlier version of the program (zlib "
                         f"blocks); build the raw tables again and compress them")
    if head["magic"] not in (PACKED_MAGIC, IN_ORDER_MAGIC) or int(head["bits"]) != bits:
        raise TableError(f"{path}: not a compressed table file of {bits}-bit entries")
    if int(head["entries"]) != entries:
        raise TableError(f"{path}: {int(head['entries'])} entries, the slice has {entries}")
    per_block, nblocks = int(head["per_block"]), int(head["nblocks"])
    start = PACKED_HEADER.itemsize
    middle = start + 8 * (nblocks + 1)
    end = middle + 4 * nblocks
    if nblocks < 1 or raw.shape[0] < end:
        raise TableError(f"{path}: truncated block index")
    return (raw[start:middle].view(np.uint64), raw[middle:end].view(np.uint32), raw[end:],
            per_block, bool(head["magic"] == PACKED_MAGIC))


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


def _write_packed(path: Path, stored: np.ndarray, entries: int, bits: int, pool,
                  level: int = 0) -> None:
    """Write one compressed stream atomically. stored: the stream's bytes (see
    DraughtsTableSet.streams: by side to move; for 2 bits, four entries a byte); `level`: its
    codec's (see _Codecs.compress)."""
    step = PER_BLOCK[bits] * bits // 8
    codecs, check = _codecs(), _block_check()
    blocks = list(pool.map(lambda i: codecs.compress(stored[i:i + step], bits, level),
                           range(0, stored.shape[0], step)))
    offsets = np.zeros(len(blocks) + 1, dtype=np.uint64)
    offsets[1:] = np.cumsum([len(b) for b in blocks])
    checks = np.array([check(b) for b in blocks], dtype=np.uint32)
    head = np.zeros(1, dtype=PACKED_HEADER)
    head[0] = (PACKED_MAGIC, bits, PER_BLOCK[bits], entries, len(blocks))
    with replacing(path) as fh:
        fh.write(head.tobytes())
        fh.write(offsets.tobytes())
        fh.write(checks.tobytes())
        for block in blocks:
            fh.write(block)


def _check_packed(path: Path, stored: np.ndarray, entries: int, bits: int) -> None:
    """Read a compressed stream back: every block must decode to the bytes written."""
    offsets, checks, data, per_block, _ = _read_packed(path, bits, entries)
    codecs, check = _codecs(), _block_check()
    step = per_block * bits // 8
    for block in range(offsets.shape[0] - 1):
        written = bytes(data[offsets[block]:offsets[block + 1]])
        want = stored[block * step:(block + 1) * step]
        plain = codecs.decompress(written, bits, want.shape[0])
        if plain is None or check(written) != checks[block] or plain != want.tobytes():
            raise TableError(f"{path}: block {block} does not read back as written")


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


def build(variant: str, pieces: int, directory: str | os.PathLike = DEFAULT_DIR,
          report=print, kings_only: bool = False, threads: int | None = None,
          ray: str | None = None, compress: bool = False, check: str = "sample",
          level: int = 0, lz4_level: int = 0) -> Tables:
    """Build every slice up to ``pieces`` pieces into ``directory/variant`` (slices already
    there and intact are kept), reporting a line per slice; returns the loaded Tables.
    ``kings_only`` builds only the slices without men (they never lead to a slice with men).
    Slices with the same number of pieces and of men (a group) do not depend on each other:
    the small ones are built ``threads`` at a time (default: every processor), a thread each;
    one of BIG_SLICE entries or more alone, on every thread (it needs build_bytes of memory
    an entry). On a Ray cluster (``ray``: see `engine.parallel`) every worker reads the slices
    below from ``directory`` — a folder shared by every machine, at the same path — checking
    each one's size and checksum, and only this process writes files.
    ``compress``: each raw slice is compressed (as `compress` does, with its ``check``,
    ``level`` and ``lz4_level``) as soon as no group left to build can lead to it, so that the
    raw files on disk are only those a build still reads (a 7-piece checkers build would
    otherwise need 74 GB of raw files)."""
    _check_variant(variant)
    if pieces < 2:
        raise TableError("tables need at least 2 pieces")
    if check not in ("full", "sample", "none"):
        raise ValueError(f"check must be 'full', 'sample' or 'none', not {check!r}")
    levels = _check_levels(level, lz4_level)
    if compress and not _table_set(variant).compressible:
        raise TableError(f"{games.game(variant).title}'s tables are never compressed "
                         f"(compressed tables exist for the draughts games)")
    threads = threads or os.cpu_count() or 1
    folder = Path(directory) / variant
    folder.mkdir(parents=True, exist_ok=True)
    try:
        manifest = _read_manifest(folder, variant)
    except TableError:
        manifest = {"format": FORMAT, "variant": variant, "slices": {}}
    native = _native(variant)
    todo = native.signatures(pieces, kings_only)
    total_entries = sum(native.size(s) for s in todo)
    progress = {"done": 0, "number": 0, "built": 0}     # entries: done (kept or built), built
    started = time.perf_counter()

    def head(sig):
        progress["number"] += 1
        return (f"[{progress['number']:>3}/{len(todo)}] {native.slice_name(sig):<10} "
                f"{native.size(sig):>13,} positions")

    def keep(sig) -> bool:
        name = native.slice_name(sig)
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

    memory = _physical_memory()

    def compute(sig, inner=1):
        need = native.build_bytes * native.size(sig)
        if memory and need > memory:
            raise TableError(f"slice {native.slice_name(sig)} needs {_size_text(need)} of "
                             f"memory to build; this machine has {_size_text(memory)}")
        # A slice with a distance past a byte is built again with two-byte values, where
        # the memory allows.
        wide_need = getattr(native, "wide_build_bytes", 0) * native.size(sig)
        narrow_only = {"wide": False} if memory and wide_need > memory else {}
        t0 = time.perf_counter()
        try:
            values, counts = native.build(sig, inner, **narrow_only)
        except RuntimeError as exc:           # the native builder's errors: _ERRORS
            room = (f", and two-byte values would need {_size_text(wide_need)} of memory"
                    if narrow_only else "")
            raise TableError(f"{folder}: {exc}{room}; the slices built before it are "
                             f"kept") from None
        return sig, values, counts, time.perf_counter() - t0

    def record(sig, values, counts, seconds):
        name = native.slice_name(sig)
        entries = native.size(sig)
        path = folder / f"{name}.npy"
        with replacing(path) as fh:
            np.save(fh, values)
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
        progress["built"] += entries
        if report:
            valid = max(wins + draws + losses, 1)
            elapsed = time.perf_counter() - started
            # What is left at this run's pace so far (compressing included).
            left = elapsed * (total_entries - progress["done"]) / progress["built"]
            report(f"{head(sig)}  W {100 * wins / valid:4.1f}% D {100 * draws / valid:4.1f}% "
                   f"L {100 * losses / valid:4.1f}%  longest {longest:>3} plies  {seconds:7.2f} s "
                   f"{entries / max(seconds, 1e-9) / 1e6:6.2f} M/s  "
                   f"({100 * progress['done'] / total_entries:5.1f}% of all, {elapsed:.0f} s"
                   + (f", about {_duration_text(left)} left)" if left >= 60 else ")"))

    def built_here(pending):
        """The big slices one at a time on every thread, then the small ones side by side."""
        big = [sig for sig in pending if native.size(sig) >= BIG_SLICE]
        for sig in big:
            yield compute(sig, threads)
        yield from pool.map(compute, pending[len(big):])

    groups: dict[tuple, list] = {}
    for sig in todo:
        groups.setdefault(native.build_group(sig), []).append(sig)
    from concurrent.futures import ThreadPoolExecutor

    from .parallel import Runner
    runner = Runner(threads, ray) if ray else None
    if runner is not None and not (folder / MANIFEST).exists():
        _write_json(folder / MANIFEST, manifest)        # workers read it from the first level
    keys = sorted(groups)
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for number, key in enumerate(keys):
            if compress:
                _compress_freed(folder, manifest, native, keys[number:], check, levels, pool,
                                threads, report)
            pending = [sig for sig in groups[key] if not keep(sig)]
            # The biggest slices first, so that the threads finish together.
            pending.sort(key=native.size, reverse=True)
            if runner is not None:
                shared = str(folder.parent.resolve())
                built = runner.map_unordered(_build_unit, [(variant, shared, sig) for sig in pending])
            else:
                built = built_here(pending)
            for sig, values, counts, seconds in built:
                record(tuple(sig), values, counts, seconds)
        if compress:
            _compress_freed(folder, manifest, native, [], check, levels, pool, threads,
                            report)
    return Tables(directory, variant)


BIG_SLICE = 1 << 24             # entries: a slice this big is built alone, on every thread


def _physical_memory() -> int | None:
    """This machine's memory in bytes, None where the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def _duration_text(seconds: float) -> str:
    return f"{seconds / 3600:.1f} h" if seconds >= 5400 else f"{seconds / 60:.0f} min"


def _size_text(size: int) -> str:
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size / 1024:.1f} KiB"


def _compress_freed(folder: Path, manifest: dict, native, later: list, check: str,
                    levels: tuple, pool, threads: int, report) -> None:
    """Compress the raw slices that no group in ``later`` (build groups still to build) can
    lead to, fewest pieces first."""
    names = [name for name, entry in manifest["slices"].items()
             if entry.get("kind", "raw") == "raw"
             and not any(native.feeds(native.build_group(native.parse_name(name)), key)
                         for key in later)]
    names.sort(key=lambda n: (native.build_group(native.parse_name(n)), n))
    for name in names:
        _compress_slice(folder, manifest, native, name, check, levels, pool, threads,
                        report and (lambda line, name=name: report(f"      {name:<10} {line}")))


# A Ray worker's tables, kept between its units: (directory, variant) -> (native, names loaded).
_WORKER_TABLES: dict = {}


def _build_unit(unit) -> tuple:
    """Build one slice on a Ray worker, from the slices below it in the shared folder (each
    loaded once a worker, its size and checksum checked); the values go back to the head."""
    import socket

    variant, directory, sig = unit
    folder = Path(directory) / variant
    native, loaded = _WORKER_TABLES.setdefault((directory, variant), (_native(variant), set()))
    try:
        manifest = _read_manifest(folder, variant)
    except TableError as exc:
        raise TableError(f"on {socket.gethostname()}: {exc} (a build on Ray needs the table "
                         f"folder shared by every machine, at the same path)") from None
    for name, entry in manifest["slices"].items():
        if name not in loaded:
            _load_slice(folder, name, entry, native)
            loaded.add(name)
    t0 = time.perf_counter()
    try:
        values, counts = native.build(tuple(sig))
    except RuntimeError as exc:
        raise TableError(f"on {socket.gethostname()}: {exc}") from None
    return tuple(sig), values, counts, time.perf_counter() - t0


def _check_levels(level: int, lz4_level: int) -> tuple:
    """(LZ4's level, zstd's): the levels of the two streams, 0 for the default."""
    if level != 0 and not 1 <= level <= 19:
        raise ValueError(f"the zstd level is 1 to 19, not {level}")
    if lz4_level != 0 and not 1 <= lz4_level <= 12:
        raise ValueError(f"the LZ4 level is 1 to 12, not {lz4_level}")
    return lz4_level, level


CHECK_RUN = 4096                # a sampled check compares this many entries in a row ...
CHECK_RUNS = 32                 # ... at this many places of each slice


def compress(variant: str, directory: str | os.PathLike = DEFAULT_DIR, report=print,
             check: str = "sample", threads: int | None = None, level: int = 0,
             lz4_level: int = 0) -> Tables:
    """Turn every raw slice of ``directory/variant`` into its compressed pair (``.wdl`` and
    ``.dist``), fewest pieces first, replacing the raw file once the manifest lists the new
    ones. ``level``: zstd's for the distances, 1 to 19 (default ZSTD_LEVEL, the smallest
    files; 10 writes about ten times faster, its files 4-17 % larger); ``lz4_level``: LZ4's
    for win/draw/loss, 1 to 12 (default LZ4_LEVEL; 6 writes about four times faster, its
    files 2-3 % larger). Before the raw file goes, every block written is read back, and
    entries of the compressed slice, as probed, are compared with the raw ones: all of them
    (``check="full"``), CHECK_RUNS runs of CHECK_RUN entries at random places (``"sample"``,
    every entry of a small slice), or none (``"none"``). A mismatch keeps the raw file and
    raises. Slices compressed in index order by an earlier version (``DIMTBZ02``) are
    written again by side to move, from their own entries (see _restore_by_side). Returns the
    loaded Tables."""
    from concurrent.futures import ThreadPoolExecutor

    if check not in ("full", "sample", "none"):
        raise ValueError(f"check must be 'full', 'sample' or 'none', not {check!r}")
    levels = _check_levels(level, lz4_level)
    _check_variant(variant)
    if not _table_set(variant).compressible:
        raise TableError(f"{games.game(variant).title}'s tables are never compressed "
                         f"(compressed tables exist for the draughts games)")
    tables = Tables(directory, variant)
    folder, manifest, native = tables.folder, tables.manifest, tables.native
    names = sorted(manifest["slices"],
                   key=lambda n: (native.build_group(native.parse_name(n)), n))
    raw_total = packed_total = 0
    started = time.perf_counter()
    threads = threads or os.cpu_count() or 1
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for number, name in enumerate(names, 1):
            entry = manifest["slices"][name]
            head = f"[{number:>3}/{len(names)}] {name:<10}"
            if entry.get("kind", "raw") == "compressed":
                if _magic(folder / entry["file"]) == IN_ORDER_MAGIC:
                    packed_total += _restore_by_side(
                        folder, manifest, native, name, check, levels, pool, threads,
                        report and (lambda line, head=head: report(f"{head} {line}")))
                    continue
                packed_total += entry["bytes"] + entry["dist_bytes"]
                if report:
                    report(f"{head} already compressed")
                continue
            raw_bytes, packed_bytes = _compress_slice(
                folder, manifest, native, name, check, levels, pool, threads,
                report and (lambda line, head=head: report(f"{head} {line}")))
            raw_total += raw_bytes
            packed_total += packed_bytes
    if report:
        report(f"done: {len(names)} slices, {packed_total:,} bytes compressed"
               + (f" ({100 * packed_total / raw_total:.2f}% of the {raw_total:,} raw bytes "
                  f"compressed now)" if raw_total else "")
               + f", {time.perf_counter() - started:.1f} s")
    return tables


def _magic(path: Path) -> bytes:
    with open(path, "rb") as fh:
        return fh.read(len(PACKED_MAGIC))


def _check_starts(size: int, check: str) -> list:
    """The first entries of the runs of CHECK_RUN entries that a check compares (see
    compress)."""
    starts = list(range(0, size, CHECK_RUN))
    if check == "sample" and len(starts) > CHECK_RUNS:
        rng = np.random.default_rng(size)
        starts = sorted(rng.choice(starts, size=CHECK_RUNS, replace=False).tolist())
    return starts if check != "none" else []


def _write_pair(folder: Path, stem: str, entry: dict, wdl: np.ndarray, dist: np.ndarray,
                size: int, levels: tuple, pool) -> dict:
    """Write a slice's compressed pair, STEM.wdl and STEM.dist, from its streams (see
    DraughtsTableSet.streams) and read every block back; its manifest entry (``entry`` with the
    pair's names, sizes and checksums). TableError, the pair removed, where a block does not
    read back as written."""
    wdl_path, dist_path = folder / f"{stem}.wdl", folder / f"{stem}.dist"
    try:
        _write_packed(wdl_path, wdl, size, 2, pool, levels[0])
        _write_packed(dist_path, dist, size, 8, pool, levels[1])
        for path, values, bits in ((wdl_path, wdl, 2), (dist_path, dist, 8)):
            _check_packed(path, values, size, bits)
    except TableError:
        wdl_path.unlink(missing_ok=True)
        dist_path.unlink(missing_ok=True)
        raise
    return dict(entry, kind="compressed", file=wdl_path.name, bytes=wdl_path.stat().st_size,
                sha256=_sha256(wdl_path), dist_file=dist_path.name,
                dist_bytes=dist_path.stat().st_size, dist_sha256=_sha256(dist_path))


def _restore_by_side(folder: Path, manifest: dict, native, name: str, check: str, levels: tuple,
                     pool, threads: int, report) -> int:
    """Write a compressed slice stored in index order (DIMTBZ02, before the by-side layout)
    again by side to move, from its own entries (no raw file needed); its compressed bytes.
    The new pair gets the other of two file names (NAME.wdl, NAME.2.wdl), the manifest names
    it once it is checked, then the old pair goes: an interruption leaves either pair listed
    and whole. Entries compared, old against new, as for compress (``check``)."""
    t0 = time.perf_counter()
    entry = manifest["slices"][name]
    signature = native.parse_name(name)
    size = native.size(signature)
    try:
        wdl, dist = native.streams(signature, threads)
    except ValueError as exc:
        raise TableError(f"{folder / entry['file']}: {exc}; the slice is left as it "
                         f"was") from None
    starts = _check_starts(size, check)
    before = list(pool.map(lambda start: native.expand(signature, start, start + CHECK_RUN,
                                                       np.uint16), starts))
    stem = f"{name}.2" if entry["file"] == f"{name}.wdl" else name
    packed = _write_pair(folder, stem, entry, wdl, dist, size, levels, pool)
    del wdl, dist
    wdl_path, dist_path = folder / packed["file"], folder / packed["dist_file"]
    try:
        _load_compressed(folder, name, packed, native)
        after = pool.map(lambda start: native.expand(signature, start, start + CHECK_RUN,
                                                     np.uint16), starts)
        for start, old, new in zip(starts, before, after):
            if not np.array_equal(old, new):
                wrong = start + int(np.flatnonzero(old != new)[0])
                raise TableError(f"{folder}: slice {name}: written again by side to move, "
                                 f"entry {wrong} differs (kept as it was)")
    except BaseException:
        _load_compressed(folder, name, entry, native)
        wdl_path.unlink(missing_ok=True)
        dist_path.unlink(missing_ok=True)
        raise
    manifest["slices"][name] = packed
    _write_json(folder / MANIFEST, manifest)
    (folder / entry["file"]).unlink(missing_ok=True)
    (folder / entry["dist_file"]).unlink(missing_ok=True)
    old_bytes = entry["bytes"] + entry["dist_bytes"]
    new_bytes = packed["bytes"] + packed["dist_bytes"]
    if report:
        report(f"in index order {old_bytes:>13,} bytes -> by side to move {new_bytes:>13,} "
               f"({100 * new_bytes / old_bytes:5.1f}%)  {time.perf_counter() - t0:6.2f} s")
    return new_bytes


def _compress_slice(folder: Path, manifest: dict, native, name: str, check: str, levels: tuple,
                    pool, threads: int, report) -> tuple:
    """Replace one raw slice by its compressed pair (see compress), the manifest rewritten,
    working on `threads` threads (`pool`'s); (raw bytes, compressed bytes)."""
    t0 = time.perf_counter()
    entry = manifest["slices"][name]
    signature = native.parse_name(name)
    raw_path = folder / entry["file"]
    raw = np.load(raw_path, mmap_mode="r")
    size = native.size(signature)
    wdl, dist = native.streams(signature, threads)
    packed = _write_pair(folder, name, entry, wdl, dist, size, levels, pool)
    del wdl, dist
    wdl_path, dist_path = folder / packed["file"], folder / packed["dist_file"]
    _load_compressed(folder, name, packed, native)
    if check != "none":
        starts = _check_starts(size, check)

        def first_difference(start):
            stop = min(start + CHECK_RUN, size)
            got = native.expand(signature, start, stop, raw.dtype)
            wrong = np.flatnonzero(got != raw[start:stop])
            return start + int(wrong[0]) if wrong.size else None

        found = [i for i in pool.map(first_difference, starts) if i is not None]
        if found:
            native.attach(signature, raw)
            wdl_path.unlink()
            dist_path.unlink()
            raise TableError(f"{folder}: slice {name}: the compressed values differ "
                             f"from the raw ones at entry {found[0]} (kept raw)")
    manifest["slices"][name] = packed
    _write_json(folder / MANIFEST, manifest)
    del raw
    raw_path.unlink()
    packed_bytes = packed["bytes"] + packed["dist_bytes"]
    if report:
        report(f"{entry['bytes']:>13,} bytes -> {packed['bytes']:>11,} + "
               f"{packed['dist_bytes']:>11,} ({100 * packed_bytes / entry['bytes']:5.2f}%)"
               f"  {time.perf_counter() - t0:6.2f} s")
    return entry["bytes"], packed_bytes


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
        elif self.plies is None:
            head = f"{self.result} ({self.source}; the distance is not known)"
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
        found = tables.best_move(copy, current)
        if found is None:
            break
        choice, current = found
        line.append(choice)
        copy.push(choice)
    return line


def solve(board, tables: Tables | None = None, movetime: float = 5.0, engine=None) -> Solution:
    """The exact value of ``board`` for the side to move: from the tables when they hold it
    (with the best line to the end), else from a search with the tables at its leaves that
    answers 'win'/'loss' when it finds a forced result within ``movetime`` seconds and
    'unknown' otherwise (a search cannot prove a draw)."""
    from ._search import TABLE_WIN_BOUND, Engine

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
    if result.mate is None and abs(result.score) > TABLE_WIN_BOUND and tables is not None:
        # Won or lost where compressed tables took over: the distance is the line's length
        # plus the tables' distance from its end.
        end = board.copy()
        for move in result.pv:
            end.push(move)
        found = tables.probe(end) if end.outcome() is None else None
        if found is not None and found.result != "draw":
            line = list(result.pv) + _table_line(end, tables, found)
            return Solution("win" if result.score > 0 else "loss", len(result.pv) + found.plies,
                            result.best_move, line, "search")
        return Solution("win" if result.score > 0 else "loss", None, result.best_move,
                        result.pv, "search")
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
    bad_blocks: list = field(default_factory=list)   # (slice name, 'wdl' or 'dist', block)
    # Entries whose value could not be worked out because a successor holds no value (a
    # corrupt entry, which is itself among the wrong ones, or a slice missing from the set).
    underived: int = 0

    @property
    def ok(self) -> bool:
        return self.wrong == 0 and self.underived == 0 and not self.bad_blocks


def position_text(tables: Tables, signature: tuple, index: int) -> str:
    """A slice entry as a FEN the engine reads (for naming wrong positions)."""
    return tables.native.position_text(signature, index)


def reachable_slices(tables: Tables, board) -> list[str]:
    """The names of the loaded slices a game from ``board`` can reach (draughts: no more men of
    a side than now, and no more pieces; Dipole: no more checkers of a side)."""
    position = board._native_position()
    return [name for name, entry in tables.manifest["slices"].items()
            if tables.native.reachable(position, tuple(entry["signature"]))]


def _available_memory() -> int | None:
    """Memory the system could give now, in bytes (Linux's MemAvailable: free memory and the
    file cache it can drop, such as the table files just read); None where it does not say."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def _is_compressed(tables: Tables, signature: tuple) -> bool:
    entry = tables.manifest["slices"].get(tables.native.slice_name(signature), {})
    return entry.get("kind") == "compressed"


def _successor_slices(signature: tuple, known) -> list[tuple]:
    """The slices of ``known`` one move from ``signature`` can lead to (a man promoted; pieces
    of one side captured, the capturing man maybe promoted): promotions first, then captures
    of fewer pieces before more. A superset of what the rules allow is harmless here."""
    wm, wk, bm, bk = signature
    out = [t for t in ((wm - 1, wk + 1, bm, bk), (wm, wk, bm - 1, bk + 1)) if t in known]
    captures = []
    for t in known:
        if sum(t) >= sum(signature):
            continue
        white_took = t[:2] in ((wm, wk), (wm - 1, wk + 1)) and t[2] <= bm and t[3] <= bk
        black_took = t[2:] in ((bm, bk), (bm - 1, bk + 1)) and t[0] <= wm and t[1] <= wk
        if white_took or black_took:
            captures.append(t)
    captures.sort(key=lambda t: (sum(signature) - sum(t), -sum(t), t))
    return out + captures


def _unpack_for_verify(tables: Tables, chosen: list, pool, memory: int | None,
                       progress: bool) -> list[tuple]:
    """Attach the compressed slices that verifying ``chosen`` reads most as raw two-byte
    values, unpacked from their blocks in index order (see DraughtsTableSet.unpack): the
    chosen slices first, then the slices their moves lead to, then the slices those lead to,
    and so on, as far as ``memory`` bytes go (a slice too large for what is left is passed
    over for smaller ones).
    Verifying through the compressed files instead decodes a block for most successors (a
    distance block is 256 kB): about a hundred times slower than raw tables (checkers, 7
    pieces: 60,000 entries a second against 3-9 million). Returns the slices unpacked (verify
    detaches them again)."""
    from tqdm import tqdm

    native = tables.native
    known = {tuple(e["signature"]) for e in tables.manifest["slices"].values()}
    budget = memory if memory is not None else int(0.7 * (_available_memory() or 0))
    # Level by level from the chosen slices: a value worked out from the successors (a loss
    # or a capture) reads the next level, and so on down; the first levels are read most.
    wanted = list(dict.fromkeys(chosen))
    frontier = list(wanted)
    seen, listed = set(wanted), sum(2 * native.size(s) for s in wanted)
    while frontier and listed < budget:
        level = []
        for sig in frontier:
            for later in _successor_slices(sig, known):
                if later not in seen:
                    seen.add(later)
                    level.append(later)
        wanted += level
        frontier = level
        listed += sum(2 * native.size(t) for t in frontier)
    picked = []
    for sig in wanted:
        need = 2 * native.size(sig)
        if _is_compressed(tables, sig) and need <= budget:
            picked.append(sig)
            budget -= need
    if not picked:
        return []
    bar = tqdm(total=sum(native.size(s) for s in picked), unit="pos", unit_scale=True,
               desc=f"unpack {tables.variant}", disable=None if progress else True)
    unpacked = []
    try:
        for sig in picked:
            size = native.size(sig)
            values = np.empty(size, dtype=np.uint16)

            def fill(start, sig=sig, values=values, size=size):
                stop = min(start + VERIFY_CHUNK, size)
                native.unpack(sig, values[start:stop], start, stop)
                return stop - start

            try:
                for done in pool.map(fill, range(0, size, VERIFY_CHUNK)):
                    bar.update(done)
            except RuntimeError:       # a corrupt block: this slice stays compressed
                continue
            native.attach(sig, values)
            unpacked.append(sig)
    except BaseException:
        for sig in unpacked:
            native.detach_raw(sig)
        raise
    finally:
        bar.close()
    return unpacked


def verify(tables: Tables, slices: list | None = None, threads: int | None = None,
           progress: bool = True, max_examples: int = 10,
           memory: int | None = None) -> VerifyReport:
    """Derive every stored value of ``tables`` (or of the named slices) again from its
    successors' stored values, in parallel threads (the native check runs without the GIL),
    with a progress bar on a terminal. Returns the count of wrong entries and the first ones.

    Compressed slices are first unpacked into memory (at most ``memory`` bytes, default 70 %
    of what the system has available): the chosen ones, then those their moves lead to, and
    so on. A compressed slice's files keep no distance for a lost position and nothing for one
    with a capture: of those, verify checks that a lost position is lost; the rest is worked
    out from the successors wherever it is read, as a probe does."""
    from concurrent.futures import ThreadPoolExecutor

    from tqdm import tqdm

    native = tables.native
    chosen = [native.parse_name(n) for n in (slices or tables.manifest["slices"])]
    report = VerifyReport()
    for sig in chosen:
        if _is_compressed(tables, sig):
            report.bad_blocks += [(native.slice_name(sig), stream, block)
                                  for stream, block in native.bad_blocks(sig)]
    if report.bad_blocks:
        return report       # values are checked once every block reads (they lean on each other)
    units = [(sig, start, min(start + VERIFY_CHUNK, native.size(sig)))
             for sig in chosen for start in range(0, native.size(sig), VERIFY_CHUNK)]

    def check(unit):
        sig, start, stop = unit
        return unit, native.verify(sig, start, stop, max_examples)

    with ThreadPoolExecutor(max_workers=threads or os.cpu_count() or 1) as pool:
        unpacked = _unpack_for_verify(tables, chosen, pool, memory, progress) \
            if native.compressible else []
        bar = tqdm(total=sum(stop - start for _, start, stop in units), unit="pos",
                   unit_scale=True, desc=f"verify {tables.variant}",
                   disable=None if progress else True)
        try:
            for (sig, start, stop), (checked, wrong, first, underived) in pool.map(check, units):
                report.checked += checked
                report.wrong += wrong
                report.underived += underived
                for index in first:
                    if len(report.examples) < max_examples:
                        report.examples.append((native.slice_name(sig), index,
                                                position_text(tables, sig, index)))
                bar.update(stop - start)
        finally:
            bar.close()
            for sig in unpacked:
                native.detach_raw(sig)
    return report


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
    if in_order:
        lines.append(f"* {in_order} compressed in index order by an earlier version: "
                     f"'egdb compress' writes them again by side to move, about a third "
                     f"smaller")
    return lines
