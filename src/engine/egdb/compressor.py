"""Compressing raw slices into win/draw/loss and distance files (`egdb compress`), checked
against the raw values as they are written."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np

from .. import games
from .manifest import (DEFAULT_DIR, MANIFEST, TableError, _check_variant, _sha256, _table_set,
                       _write_json)
from .codecs import IN_ORDER_MAGIC, _check_levels, _check_packed, _magic, _write_packed
from .tables import Tables, _load_compressed


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
    working on `threads` threads (`pool`'s); (raw bytes, compressed bytes). The manifest
    keeps the wall and CPU seconds it took (the process's: nothing else runs meanwhile)."""
    t0, cpu0 = time.perf_counter(), time.process_time()
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
    packed.update(compress_seconds=round(time.perf_counter() - t0, 3),
                  compress_cpu_seconds=round(time.process_time() - cpu0, 3))
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
