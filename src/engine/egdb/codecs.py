"""Compressed slice files: their layout (a header, block offsets, a check a block, the blocks)
and the codecs, LZ4 for win/draw/loss and zstd for distances.

The codecs are the system's liblz4 and libzstd through ctypes, not their Python bindings: the
search decodes blocks inside its probe, in C and without the GIL, so the native table set needs
the decoders' C addresses (`_Codecs.decoders`), which only the libraries themselves give; the
writer uses the same libraries so that both sides are one build of each codec."""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from pathlib import Path

import numpy as np

from ..files import replacing
from .manifest import TableError


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
    from .._draughts import DraughtsTableSet
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


def _check_levels(level: int, lz4_level: int) -> tuple:
    """(LZ4's level, zstd's): the levels of the two streams, 0 for the default."""
    if level != 0 and not 1 <= level <= 19:
        raise ValueError(f"the zstd level is 1 to 19, not {level}")
    if lz4_level != 0 and not 1 <= lz4_level <= 12:
        raise ValueError(f"the LZ4 level is 1 to 12, not {lz4_level}")
    return lz4_level, level


def _magic(path: Path) -> bytes:
    with open(path, "rb") as fh:
        return fh.read(len(PACKED_MAGIC))
