"""`egdb verify`: every stored value derived again from its successors' values by the
retrograde rule, so a file altered together with its manifest entry is caught too."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from .tables import Tables


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

    def add(self, native, signature: tuple, found: tuple, max_examples: int) -> None:
        """Count one range's answer from the native check (checked, wrong, first wrong
        indices, underived), naming the first wrong positions up to `max_examples`."""
        checked, wrong, first, underived = found
        self.checked += checked
        self.wrong += wrong
        self.underived += underived
        for index in first:
            if len(self.examples) < max_examples:
                self.examples.append((native.slice_name(signature), index,
                                      native.position_text(signature, index)))


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


def check_slice(native, signature: tuple, pool, max_examples: int = 10) -> VerifyReport:
    """Derive every value of one attached slice again from its successors, its ranges on
    ``pool``'s threads (the native check runs without the GIL): the check `build --verify`
    makes of each slice it writes, while the slices below are still raw."""
    size = native.size(signature)
    report = VerifyReport()

    def check(start):
        return native.verify(signature, start, min(start + VERIFY_CHUNK, size), max_examples)

    for found in pool.map(check, range(0, size, VERIFY_CHUNK)):
        report.add(native, signature, found, max_examples)
    return report


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
            for (sig, start, stop), found in pool.map(check, units):
                report.add(native, sig, found, max_examples)
                bar.update(stop - start)
        finally:
            bar.close()
            for sig in unpacked:
                native.detach_raw(sig)
    return report
