"""Building a variant's tables, slice by slice: resumable (each slice written atomically and
recorded at once), in parallel (groups of slices that do not read each other) on local processes
or Ray, compressing each slice as soon as nothing left to build reads it (`--compress`)."""

from __future__ import annotations

import errno
import os
import shutil
import time
from pathlib import Path

import numpy as np

from .. import games
from ..files import replacing
from .manifest import (DEFAULT_DIR, FORMAT, MANIFEST, TableError, _check_variant, _duration_text,
                       _native, _read_manifest, _sha256, _size_text, _table_set, _write_json)
from .codecs import _check_levels
from .tables import Tables, _load_slice
from .compressor import _compress_slice
from .verifier import check_slice


def build(variant: str, pieces: int, directory: str | os.PathLike = DEFAULT_DIR,
          report=print, kings_only: bool = False, threads: int | None = None,
          ray: str | None = None, compress: bool = False, check: str = "sample",
          level: int = 0, lz4_level: int = 0, progress: bool = False,
          verify: bool = False) -> Tables:
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
    otherwise need 74 GB of raw files).
    Before a group and before each slice the free disk is checked against the raw files they
    write (TableError, saying what is needed, before any time is spent). ``progress``: a
    progress bar of the positions left to build, with an ETA, below the lines.
    ``verify``: every slice built is verified as `egdb verify` does (each value derived again
    from its successors') as soon as it is written, while the slices it reads are still raw
    (far faster than through compressed files); its manifest entry records it, and a wrong
    value stops the build with the slice removed. Slices kept from an earlier run are not
    verified again."""
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
    counts_so_far = {"done": 0, "number": 0, "built": 0}  # entries: done (kept or built), built
    started = time.perf_counter()
    from tqdm import tqdm
    bar = tqdm(total=sum(native.size(s) for s in todo
                         if native.slice_name(s) not in manifest["slices"]),
               unit="pos", unit_scale=True, smoothing=0, dynamic_ncols=True,
               desc=f"{variant} up to {pieces}", disable=None if progress else True)

    def say(line):
        if report:
            with bar.external_write_mode():
                report(line)

    def head(sig):
        counts_so_far["number"] += 1
        return (f"[{counts_so_far['number']:>3}/{len(todo)}] {native.slice_name(sig):<10} "
                f"{native.size(sig):>13,} positions")

    def keep(sig) -> bool:
        name = native.slice_name(sig)
        entry = manifest["slices"].get(name)
        if entry is None:
            return False
        try:
            _load_slice(folder, name, entry, native)
        except TableError as exc:
            say(f"{head(sig)}  rebuilding: {exc}")
            counts_so_far["number"] -= 1
            del manifest["slices"][name]
            bar.total += native.size(sig)
            bar.refresh()
            return False
        counts_so_far["done"] += native.size(sig)
        say(f"{head(sig)}  kept (checksum verified)")
        return True

    memory = _physical_memory()

    def compute(sig, inner=1):
        need = native.build_bytes * native.size(sig)
        if memory and need > memory:
            raise TableError(f"slice {native.slice_name(sig)} needs {_size_text(need)} of "
                             f"memory to build; this machine has {_size_text(memory)}")
        _check_disk(folder, native.file_bytes * native.size(sig),
                    f"slice {native.slice_name(sig)}'s raw file")
        if inner > 1:
            bar.set_postfix_str(f"building {native.slice_name(sig)}")
        # A slice with a distance past a byte is built again with two-byte values, where
        # the memory allows.
        wide_need = native.wide_build_bytes * native.size(sig)
        narrow_only = {"wide": False} if memory and wide_need > memory else {}
        t0 = time.perf_counter()
        # One thread's slice: that thread's CPU time; a slice on every thread is built alone.
        cpu_clock = time.thread_time if inner == 1 else time.process_time
        cpu0 = cpu_clock()
        try:
            values, counts = native.build(sig, inner, **narrow_only)
        except RuntimeError as exc:           # the native builder's errors: _ERRORS
            room = (f", and two-byte values would need {_size_text(wide_need)} of memory"
                    if narrow_only else "")
            raise TableError(f"{folder}: {exc}{room}; the slices built before it are "
                             f"kept") from None
        return sig, values, counts, time.perf_counter() - t0, cpu_clock() - cpu0

    def record(sig, values, counts, seconds, cpu_seconds):
        name = native.slice_name(sig)
        entries = native.size(sig)
        path = folder / f"{name}.npy"
        try:
            with replacing(path) as fh:
                np.save(fh, values)
        except OSError as exc:
            if exc.errno != errno.ENOSPC:
                raise
            raise TableError(f"{folder}: the disk filled while {name} ({_size_text(values.nbytes)}) "
                             f"was written; nothing of it is kept, the slices before it are, "
                             f"and a build with more free space resumes") from None
        native.attach(sig, np.load(path, mmap_mode="r"))    # the file, not memory, from now on
        wins, draws, losses, invalid, longest = counts
        entry = {
            "file": path.name, "bytes": path.stat().st_size, "sha256": _sha256(path),
            "signature": list(sig), "entries": entries, "wins": wins, "draws": draws,
            "losses": losses, "invalid": invalid, "longest_plies": longest,
            "seconds": round(seconds, 3), "cpu_seconds": round(cpu_seconds, 3),
        }
        if verify:
            bar.set_postfix_str(f"verifying {name}")
            t0 = time.perf_counter()
            found = check_slice(native, sig, pool)
            if not found.ok:
                path.unlink()
                shown = "; ".join(f"{index}: {text}" for _, index, text in found.examples)
                raise TableError(f"{folder}: slice {name} as built fails its verification "
                                 f"({found.wrong:,} values differ from what their successors "
                                 f"give, {found.underived:,} cannot be derived; first: {shown}); "
                                 f"it is removed, the slices before it are kept")
            entry["verified_seconds"] = round(time.perf_counter() - t0, 3)
        manifest["slices"][name] = entry
        _write_json(folder / MANIFEST, manifest)
        counts_so_far["done"] += entries
        counts_so_far["built"] += entries
        bar.update(entries)
        if report:
            valid = max(wins + draws + losses, 1)
            elapsed = time.perf_counter() - started
            # What is left at this run's pace so far (compressing included).
            left = elapsed * (total_entries - counts_so_far["done"]) / counts_so_far["built"]
            say(f"{head(sig)}  W {100 * wins / valid:4.1f}% D {100 * draws / valid:4.1f}% "
                f"L {100 * losses / valid:4.1f}%  longest {longest:>3} plies  {seconds:7.2f} s "
                f"{entries / max(seconds, 1e-9) / 1e6:6.2f} M/s  "
                + (f"verified in {entry['verified_seconds']:.2f} s  " if verify else "")
                + f"({100 * counts_so_far['done'] / total_entries:5.1f}% of all, {elapsed:.0f} s"
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

    from ..parallel import Runner
    runner = Runner(threads, ray) if ray else None
    if runner is not None and not (folder / MANIFEST).exists():
        _write_json(folder / MANIFEST, manifest)        # workers read it from the first level
    keys = sorted(groups)
    compress_report = report and say
    with ThreadPoolExecutor(max_workers=threads) as pool, bar:
        for number, key in enumerate(keys):
            if compress:
                _compress_freed(folder, manifest, native, keys[number:], check, levels, pool,
                                threads, compress_report, bar)
            pending = [sig for sig in groups[key] if not keep(sig)]
            _check_disk(folder, native.file_bytes * sum(map(native.size, pending)),
                        f"the {len(pending)} slices of {key[0]} pieces with {key[1]} "
                        f"{'man' if key[1] == 1 else 'men'} left to build")
            # The biggest slices first, so that the threads finish together.
            pending.sort(key=native.size, reverse=True)
            if runner is not None:
                shared = str(folder.parent.resolve())
                built = runner.map_unordered(_build_unit, [(variant, shared, sig) for sig in pending])
            else:
                built = built_here(pending)
            for sig, values, counts, seconds, cpu_seconds in built:
                record(tuple(sig), values, counts, seconds, cpu_seconds)
        if compress:
            _compress_freed(folder, manifest, native, [], check, levels, pool, threads,
                            compress_report, bar)
    return Tables(directory, variant)


DISK_SPARE = 256 << 20          # bytes a build leaves free on its disk, beyond what it writes


def _check_disk(folder: Path, need: int, what: str) -> None:
    """TableError, saying what is needed, where ``folder``'s disk has less than ``need`` bytes
    free (and DISK_SPARE more)."""
    free = shutil.disk_usage(folder).free
    if need and need + DISK_SPARE > free:
        raise TableError(f"{what}: {_size_text(need)} of disk needed in {folder}, and "
                         f"{_size_text(free)} is free ({_size_text(DISK_SPARE)} kept spare): "
                         f"free some space or build on a larger disk; the slices built so far "
                         f"are kept, and the build resumes from them")


BIG_SLICE = 1 << 24             # entries: a slice this big is built alone, on every thread


def _physical_memory() -> int | None:
    """This machine's memory in bytes, None where the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def _compress_freed(folder: Path, manifest: dict, native, later: list, check: str,
                    levels: tuple, pool, threads: int, report, bar) -> None:
    """Compress the raw slices that no group in ``later`` (build groups still to build) can
    lead to, fewest pieces first (``bar``, the build's progress bar, says which)."""
    names = [name for name, entry in manifest["slices"].items()
             if entry.get("kind", "raw") == "raw"
             and not any(native.feeds(native.build_group(native.parse_name(name)), key)
                         for key in later)]
    names.sort(key=lambda n: (native.build_group(native.parse_name(n)), n))
    for name in names:
        bar.set_postfix_str(f"compressing {name}")
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
    t0, cpu0 = time.perf_counter(), time.thread_time()
    try:
        values, counts = native.build(tuple(sig))
    except RuntimeError as exc:
        raise TableError(f"on {socket.gethostname()}: {exc}") from None
    return tuple(sig), values, counts, time.perf_counter() - t0, time.thread_time() - cpu0
