"""Endgame tables: every value of small slices against an independent exhaustive solver, known
results, files and checksums, resuming a build, probing in the search, solve()."""

import itertools
import json
import os
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest

import engine
from engine import egdb
from reference_egdb import dipole_positions, positions, solve_all

VARIANTS = ["checkers", "international", "spanish", "turkish", "gothic-checkers", "chapinas"]
NEWER = ["russian", "italian", "killer"]       # rows with rules of their own: 2 pieces are enough


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """Tables of every draughts game up to 3 pieces; checkers up to 4; International's kings-only
    slices up to 4 (three kings against one)."""
    folder = tmp_path_factory.mktemp("egdb")
    out = {}
    for variant in VARIANTS:
        pieces = 4 if variant == "checkers" else 3
        out[variant] = egdb.build(variant, pieces, folder, report=None)
    for variant in NEWER:
        out[variant] = egdb.build(variant, 2, folder, report=None)
    out["international"] = egdb.build("international", 4, folder, report=None, kings_only=True)
    out["dipole"] = egdb.build("dipole", 4, folder, report=None)
    out["dir"] = folder
    return out


def check_against_solver(tables, variant, signature):
    if len(signature) == 2:
        values = solve_all(variant, dipole_positions(variant, *signature))
    else:
        values = solve_all(variant, positions(variant, signature))
    assert len(values) > 100
    wrong = []
    for fen, expected in values.items():
        found = tables[variant].probe(engine.Board(variant, fen))
        if (found.result, found.plies) != expected:
            wrong.append((fen, found, expected))
    assert not wrong, wrong[:5]


# -- every value of small slices, against the exhaustive solver -----------------------------------

@pytest.mark.parametrize("variant, signature", [
    ("checkers", (0, 2, 0, 1)),          # two kings against one
    ("checkers", (1, 0, 0, 1)),          # a man against a king: promotions lead to 1 v 1 kings
    ("checkers", (1, 0, 1, 0)),
    ("checkers", (2, 0, 1, 0)),          # short wins inside a slice beat longer promotions
    ("international", (0, 1, 0, 1)),
    ("international", (1, 0, 0, 1)),
    ("spanish", (0, 1, 0, 1)),
    ("spanish", (1, 0, 1, 0)),
    ("turkish", (1, 0, 1, 0)),           # the one-against-one rule
    ("turkish", (0, 1, 0, 1)),
    ("gothic-checkers", (0, 1, 0, 1)),
    ("chapinas", (1, 0, 0, 1)),
    ("russian", (1, 0, 0, 1)),           # a man crowned in a capture goes on as a king
    ("italian", (1, 0, 0, 1)),           # a man that cannot take the king
    ("killer", (0, 1, 0, 1)),
    ("dipole", (1, 1)),                  # checkers of each side, in stacks of any height
    ("dipole", (1, 2)),
])
def test_values_equal_exhaustive_search(tables, variant, signature):
    check_against_solver(tables, variant, signature)


@pytest.mark.slow
@pytest.mark.parametrize("variant, signature", [
    ("international", (0, 2, 0, 1)), ("turkish", (0, 2, 0, 1)), ("turkish", (1, 1, 1, 0)),
    ("spanish", (0, 2, 0, 1)), ("gothic-checkers", (1, 1, 0, 1)), ("dipole", (2, 2)),
])
def test_values_equal_exhaustive_search_three_pieces(tables, variant, signature):
    check_against_solver(tables, variant, signature)


# -- known results ----------------------------------------------------------------------------------

CHECKERS_EDGE = {1, 2, 3, 4, 5, 12, 13, 20, 21, 28, 29, 30, 31, 32}


def has_capture(board):
    return any(m.is_capture for m in board.legal_moves())


def test_checkers_two_kings_beat_one(tables):
    t = tables["checkers"]
    count = 0
    for w1, w2 in itertools.combinations(range(1, 33), 2):
        if {w1, w2} & CHECKERS_EDGE:
            continue
        for lone in range(1, 33):
            if lone in (w1, w2):
                continue
            body = f":WK{w1},K{w2}:BK{lone}"
            if has_capture(engine.Board("checkers", "B" + body)):
                continue              # the lone king could capture at once
            probe = t.probe(engine.Board("checkers", "W" + body))
            assert probe.result == "win" and probe.plies <= 33, body
            count += 1
    assert count == 3530
    # Driven into a single corner, the lone king holds only by threatening both kings: with
    # the kings on f8 and h8 and the lone king on f6, White cannot make progress.
    assert t.probe(engine.Board("checkers", "W:WK3,K4:BK11")).result == "draw"


def test_a_blockade_inside_the_slice_is_found_before_a_longer_promotion(tables):
    # 16-11 leaves Black's man on h8 without a move (a win in 1); 8-3 crowns and wins in 3.
    board = engine.Board("checkers", "W:W8,16:B4")
    assert tables["checkers"].probe(board) == egdb.Probe("win", 1)
    assert engine.solve(board, tables["checkers"]).line[0] == board.parse_move("16-11")


def test_checkers_one_king_against_one_is_a_draw(tables):
    t = tables["checkers"]
    for fen in ["W:WK1:BK32", "B:WK1:BK32", "W:WK5:BK28", "W:WK22:BK10", "B:WK10:BK27"]:
        assert t.probe(engine.Board("checkers", fen)).result == "draw", fen
    # ... but a king pinned to the edge next to the other can be lost (found by both the tables
    # and the exhaustive solver): b8 against d8, Black to move, loses in 10 plies.
    assert t.probe(engine.Board("checkers", "B:WK1:BK2")) == egdb.Probe("loss", 10)


LONG_DIAGONAL = [5, 10, 14, 19, 23, 28, 32, 37, 41, 46]


@pytest.mark.parametrize("kings", [1, 2, 3])
def test_international_lone_king_on_the_long_diagonal_draws(tables, kings):
    """One, two or three kings against a lone king that holds the long diagonal (5-46): with the
    lone king to move, no strong king on the diagonal and no capture for it, always a draw."""
    t = tables["international"]
    others = [s for s in range(1, 51) if s not in LONG_DIAGONAL]
    combos = list(itertools.combinations(others, kings))
    if kings == 3:
        combos = combos[::7]          # a seventh of the 3-king positions keeps the test short
    count = 0
    for combo in combos:
        for lone in LONG_DIAGONAL:
            board = engine.Board("international",
                                 "B:W" + ",".join(f"K{s}" for s in combo) + f":BK{lone}")
            if has_capture(board):
                continue
            assert t.probe(board).result == "draw", board.fen()
            count += 1
    assert count > 300


def test_international_one_and_two_kings_draw_against_one(tables):
    t = tables["international"]
    for fen in ["W:WK1:BK50", "B:WK1:BK50", "W:WK28:BK3", "W:WK1,K2:BK28", "W:WK17,K34:BK46"]:
        assert t.probe(engine.Board("international", fen)).result == "draw", fen


# -- files, checksums, resuming ---------------------------------------------------------------------

def test_manifest_and_files(tables):
    folder = tables["dir"] / "checkers"
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["variant"] == "checkers" and manifest["format"] == egdb.FORMAT
    names = set(manifest["slices"])
    assert names == {egdb.slice_name("checkers", s) for s in egdb.signatures("checkers", 4)}
    entry = manifest["slices"]["0m2k-0m1k"]
    assert entry["entries"] == 29760 and entry["longest_plies"] == 34
    assert entry["wins"] + entry["draws"] + entry["losses"] + entry["invalid"] == entry["entries"]
    assert (folder / entry["file"]).stat().st_size == entry["bytes"]
    assert entry["seconds"] >= 0 and entry["cpu_seconds"] >= 0
    lines = egdb.info(tables["dir"], "checkers")
    assert f"{len(names)} slices, " in lines[-6]
    # The summary: a line per number of pieces, its positions and bytes the manifest's sums.
    assert lines[-4].split()[:4] == ["pieces", "slices", "positions", "raw"]
    four = [e for e in manifest["slices"].values() if sum(e["signature"]) == 4]
    longest = max(four, key=lambda e: e["longest_plies"])
    fields = lines[-1].split()
    assert fields[:4] == ["4", str(len(four)), f"{sum(e['entries'] for e in four):,}",
                          f"{sum(e['bytes'] for e in four):,}"]
    assert fields[-3:] == [str(longest["longest_plies"]), "plies",
                           f"({egdb.slice_name('checkers', tuple(longest['signature']))})"]
    assert lines[-1].split()[-1] == "(2m0k-2m0k)" and lines[-1].split()[-3] == "109"


def copy_tables(src, dst, variant="checkers"):
    import shutil
    shutil.copytree(src / variant, dst / variant)
    return dst / variant


def test_corrupt_or_truncated_files_are_refused(tables, tmp_path):
    folder = copy_tables(tables["dir"], tmp_path)
    path = folder / "0m1k-0m1k.npy"
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(egdb.TableError, match="checksum mismatch"):
        egdb.Tables(tmp_path, "checkers")
    path.write_bytes(bytes(data[:-10]))
    with pytest.raises(egdb.TableError, match="truncated"):
        egdb.Tables(tmp_path, "checkers")
    path.unlink()
    with pytest.raises(egdb.TableError, match="missing"):
        egdb.Tables(tmp_path, "checkers")
    (folder / "manifest.json").write_text("{not json")
    with pytest.raises(egdb.TableError, match="unreadable manifest"):
        egdb.Tables(tmp_path, "checkers")
    with pytest.raises(egdb.TableError, match="no manifest.json"):
        egdb.Tables(tmp_path, "international")
    with pytest.raises(egdb.TableError,
                       match="exist only for international, .*dipole10, not 'superajedrez'"):
        egdb.Tables(tmp_path, "superajedrez")


def test_an_interrupted_build_resumes(tables, tmp_path):
    folder = copy_tables(tables["dir"], tmp_path)
    manifest = json.loads((folder / "manifest.json").read_text())
    del manifest["slices"]["1m0k-1m0k"]           # as if the build stopped before this slice
    (folder / "manifest.json").write_text(json.dumps(manifest))
    (folder / "0m2k-0m1k.npy").write_bytes(b"garbage")    # and this file was damaged
    lines = []
    rebuilt = egdb.build("checkers", 4, tmp_path, report=lines.append)
    built = [line.split()[2] for line in lines if "kept" not in line and "rebuilding" not in line]
    assert sorted(built) == ["0m2k-0m1k", "1m0k-1m0k"]
    assert sum("kept (checksum verified)" in line for line in lines) == len(lines) - 3
    assert rebuilt.probe(engine.Board("checkers", "W:WK1,K2:BK32")) == egdb.Probe("win", 33)


def test_a_slice_built_on_two_threads_equals_the_one_built_on_one(tables):
    """The build's passes split a slice into ranges (the settling step's predecessors written
    with atomic operations): the same values and counts on one thread and on two."""
    native, folder = tables["checkers"].native, tables["dir"] / "checkers"
    manifest = json.loads((folder / "manifest.json").read_text())
    for name in ("1m1k-1m1k", "0m2k-1m1k", "2m0k-1m1k"):
        signature = native.parse_name(name)
        assert native.size(signature) > 4 * 65536          # several ranges
        stored = np.load(folder / manifest["slices"][name]["file"])
        one, counts_one = native.build(signature, 1)
        two, counts_two = native.build(signature, 2)
        assert np.array_equal(one, stored) and np.array_equal(two, stored), name
        entry = manifest["slices"][name]
        assert counts_one == counts_two == (entry["wins"], entry["draws"], entry["losses"],
                                            entry["invalid"], entry["longest_plies"])


def test_a_slice_too_big_for_the_memory_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(egdb.builder, "_physical_memory", lambda: 100_000)
    with pytest.raises(egdb.TableError, match=r"slice 0m1k-1m1k needs 152.6 KiB of memory "
                                              r"to build; this machine has 97.7 KiB"):
        egdb.build("checkers", 3, tmp_path, report=None)


def test_a_build_without_the_disk_it_needs_is_refused_before_it_starts(tmp_path, monkeypatch):
    import collections
    usage = collections.namedtuple("usage", "total used free")
    # Room for the 2-piece slices (7,024 entries, a byte each) and 100 kB more, no more.
    monkeypatch.setattr(egdb.builder.shutil, "disk_usage",
                        lambda path: usage(10**9, 0, egdb.builder.DISK_SPARE + 107_024))
    lines = []
    with pytest.raises(egdb.TableError, match=r"the 4 slices of 3 pieces with 1 man left to "
                                              r"build: 152.6 KiB of disk needed in .*checkers, "
                                              r"and 256.1 MiB is free \(256.0 MiB kept spare\)"):
        egdb.build("checkers", 3, tmp_path, report=lines.append)
    # The slices before that group (2 pieces, and 3 kings: 66,544 entries) are built and kept.
    manifest = json.loads((tmp_path / "checkers" / "manifest.json").read_text())
    assert sorted(manifest["slices"]) == ["0m1k-0m1k", "0m1k-0m2k", "0m1k-1m0k", "0m2k-0m1k",
                                          "1m0k-0m1k", "1m0k-1m0k"]
    assert len(lines) == 6


def test_a_disk_that_fills_while_a_slice_is_written_stops_the_build_cleanly(tmp_path, monkeypatch):
    import errno

    def full(fh, values):
        fh.write(b"partly")
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(egdb.builder.np, "save", full)
    with pytest.raises(egdb.TableError, match=r"the disk filled while 0m1k-0m1k \(1.9 KiB\) "
                                              r"was written; nothing of it is kept"):
        egdb.build("checkers", 2, tmp_path, report=None)
    assert sorted(p.name for p in (tmp_path / "checkers").iterdir()) == []


def test_a_slice_the_native_builder_cannot_build_stops_the_build_cleanly(tmp_path, monkeypatch):
    from engine._draughts import DraughtsTableSet

    class TooLong(DraughtsTableSet):
        """Fails as the builder does on a distance past a byte, for the 3-piece slices."""

        def build(self, signature, threads=1):
            if sum(signature) == 3:
                raise RuntimeError(f"slice {signature}: a distance to the end longer than 252 "
                                   f"plies (more than a byte a value holds)")
            return super().build(signature, threads)

    monkeypatch.setattr(egdb.builder, "_native", TooLong)
    with pytest.raises(egdb.TableError, match=r"a distance to the end longer than 252 plies "
                                              r".*; the slices built before it are kept"):
        egdb.build("checkers", 3, tmp_path, report=None)
    built = json.loads((tmp_path / "checkers" / "manifest.json").read_text())["slices"]
    assert sorted(built) == sorted(egdb.slice_name("checkers", sig)
                                   for sig in egdb.signatures("checkers", 2))
    monkeypatch.undo()
    lines = []
    egdb.build("checkers", 3, tmp_path, report=lines.append)
    assert sum("kept (checksum verified)" in line for line in lines) == len(built)


def test_a_build_that_verifies_each_slice_catches_a_wrong_value(tmp_path, monkeypatch):
    """build(verify=True) derives each slice's values again as it is written: a good build
    records it in the manifest; a slice built with values altered stops the build, removed."""
    from engine._draughts import DraughtsTableSet
    lines = []
    good = egdb.build("checkers", 3, tmp_path / "good", report=lines.append, verify=True)
    assert all(e["verified_seconds"] >= 0 for e in good.manifest["slices"].values())
    assert sum("verified in" in line for line in lines) == len(good.manifest["slices"])

    class Altered(DraughtsTableSet):
        """Builds the 3-piece slice 0m1k-1m1k with a few values changed."""

        def build(self, signature, threads=1, **kw):
            values, counts = super().build(signature, threads, **kw)
            if self.slice_name(signature) == "0m1k-1m1k":
                values = values.copy()
                values[::97] ^= 2
            return values, counts

    monkeypatch.setattr(egdb.builder, "_native", Altered)
    with pytest.raises(egdb.TableError, match=r"slice 0m1k-1m1k as built fails its verification "
                                              r"\([1-9][\d,]* values differ .*first: \d+: [WB]:W"):
        egdb.build("checkers", 3, tmp_path / "bad", report=None, verify=True)
    folder = tmp_path / "bad" / "checkers"
    built = json.loads((folder / "manifest.json").read_text())["slices"]
    assert "0m1k-1m1k" not in built and not (folder / "0m1k-1m1k.npy").exists()
    assert set(egdb.slice_name("checkers", sig) for sig in egdb.signatures("checkers", 2)) <= set(built)


def test_a_slice_with_a_distance_past_a_byte_is_built_with_two_bytes(tmp_path, monkeypatch):
    """Real tables pass a byte's 252 plies from about 7 pieces on (checkers 8 pieces has a win
    in 291); with the byte's limit lowered to 30 plies, most 4-piece checkers slices do."""
    from engine._draughts import DraughtsTableSet

    def limited(variant):
        native = DraughtsTableSet(variant)
        native._limit_narrow(30)
        return native

    narrow = egdb.build("checkers", 4, tmp_path / "bytes", report=None)
    monkeypatch.setattr(egdb.builder, "_native", limited)
    wide = egdb.build("checkers", 4, tmp_path / "wide", report=None)
    monkeypatch.undo()
    stats = ("entries", "wins", "draws", "losses", "invalid", "longest_plies")
    two_bytes = 0
    for name, entry in wide.manifest["slices"].items():
        want = narrow.manifest["slices"][name]
        assert [entry[k] for k in stats] == [want[k] for k in stats], name
        dtype = np.load(tmp_path / "wide" / "checkers" / entry["file"], mmap_mode="r").dtype
        assert dtype == (np.uint16 if entry["longest_plies"] > 30 else np.uint8), name
        two_bytes += dtype == np.uint16
        sig = wide.native.parse_name(name)
        assert np.array_equal(wide.native.expand(sig, dtype=np.uint16),
                              narrow.native.expand(sig, dtype=np.uint16)), name
    assert two_bytes > len(wide.manifest["slices"]) // 2
    # Built in two bytes from the start, a slice holds 5 bytes an entry at most.
    sig = max(wide.native.signatures(4), key=wide.native.size)
    tracemalloc.start()
    values, counts = wide.native.build(sig, wide=True)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert values.dtype == np.uint16 and peak < 5.5 * wide.native.size(sig)
    reloaded = egdb.Tables(tmp_path / "wide", "checkers")
    board = engine.Board("checkers", "W:WK1,K2:BK32")           # a win in 33 plies
    assert reloaded.probe(board) == narrow.probe(board) == egdb.Probe("win", 33)
    report = egdb.verify(reloaded, threads=2, progress=False)
    assert report.ok
    assert report.checked == sum(e["entries"] for e in reloaded.manifest["slices"].values())
    # Compressed, both give the same files.
    packed = [egdb.compress("checkers", tmp_path / kind, report=None, check="full").manifest
              for kind in ("bytes", "wide")]
    assert {n: (e["sha256"], e["dist_sha256"]) for n, e in packed[0]["slices"].items()} == \
        {n: (e["sha256"], e["dist_sha256"]) for n, e in packed[1]["slices"].items()}


def test_a_byte_wide_build_widens_its_values_where_a_distance_passes_a_byte(tmp_path):
    """Where the slices below fit the byte's limit, a build meets a longer distance only while
    settling: it widens its values there and goes on, instead of starting again."""
    egdb.build("checkers", 4, tmp_path, report=None)
    sig = (1, 1, 1, 1)                   # 1m1k-1m1k: longest 103 plies; its successors <= 95
    stored = np.load(tmp_path / "checkers" / "1m1k-1m1k.npy")
    for limit, dtype in ((100, np.uint16), (103, np.uint8)):
        tables = egdb.Tables(tmp_path, "checkers")
        tables.native._limit_narrow(limit)
        tracemalloc.start()
        values, counts = tables.native.build(sig)
        peak = tracemalloc.get_traced_memory()[1] / tables.native.size(sig)
        tracemalloc.stop()
        assert counts[4] == 103 and values.dtype == dtype, limit
        # Widened in place (one array at a time: 6 bytes an entry, not 7); a slice started
        # again in two bytes would stay under 5.5. At 103 the step past the limit wrote
        # nothing longer, and the values went back to a byte.
        assert 5.5 < peak < 6.5, (limit, peak)
        assert np.array_equal(tables.native.expand(sig, dtype=np.uint16),
                              stored.astype(np.uint16) + np.where(stored >= 254, 0xFF00, 0))
        assert values.dtype == np.uint16 or np.array_equal(values, stored)


def test_a_two_byte_build_that_would_not_fit_in_memory_is_refused(tmp_path, monkeypatch):
    from engine._draughts import DraughtsTableSet

    def limited(variant):
        native = DraughtsTableSet(variant)
        native._limit_narrow(20)
        return native

    monkeypatch.setattr(egdb.builder, "_native", limited)
    # Room for a byte-wide build of the 3-piece slices, not for a two-byte one.
    monkeypatch.setattr(egdb.builder, "_physical_memory", lambda: 3 * 60_000)
    with pytest.raises(egdb.TableError, match=r"a distance to the end longer than 20 plies "
                                              r"\(more than a byte a value holds\), and two-byte "
                                              r"values would need 305.2 KiB of memory; the "
                                              r"slices built before it are kept"):
        egdb.build("checkers", 3, tmp_path, report=None)
    with pytest.raises(ValueError, match="a byte holds 1 to 252 plies, not 253"):
        DraughtsTableSet("checkers")._limit_narrow(253)


# -- probing in the search, solving -----------------------------------------------------------------

def test_search_returns_exact_results_with_tables(tables):
    board = engine.Board("checkers", "W:WK1,K2:BK32")
    searcher = engine.Engine(hash_mb=8)
    searcher.new_game()
    without = searcher.search(board, depth=6)
    assert without.mate is None                    # too deep for a plain 6-ply search
    searcher.tablebases = tables["checkers"]
    with_tables = searcher.search(board, depth=2)
    assert with_tables.mate == 17                  # 33 plies: 17 moves of the winner
    assert with_tables.tbhits > 0 and without.tbhits == 0
    assert searcher.tablebases is tables["checkers"]
    # Tables of another game are not consulted: the same search, node for node.
    spanish = engine.Board("spanish", "W:WK1:BK30")
    searcher.new_game()
    nodes = searcher.search(spanish, depth=6).nodes
    searcher.tablebases = None
    searcher.new_game()
    assert searcher.search(spanish, depth=6).nodes == nodes


def test_solve_from_the_tables_gives_the_whole_line(tables):
    board = engine.Board("checkers", "W:WK1,K2:BK32")
    solution = engine.solve(board, tables["checkers"])
    assert (solution.result, solution.plies, solution.moves, solution.source) == (
        "win", 33, 17, "tables")
    assert len(solution.line) == 33 and solution.best_move == solution.line[0]
    replay = board.copy()
    for move in solution.line:
        replay.push(move)
    assert replay.outcome().winner == engine.WHITE
    loss = engine.solve(engine.Board("checkers", "B:WK1:BK2"), tables["checkers"])
    assert (loss.result, loss.plies, len(loss.line)) == ("loss", 10, 10)
    draw = engine.solve(engine.Board("checkers", "W:WK1:BK32"), tables["checkers"])
    assert draw.result == "draw" and len(draw.line) == egdb.DRAW_LINE_PLIES


def test_solve_beyond_the_tables(tables):
    # Five pieces are beyond the 4-piece tables; a capture leads into them, and the search
    # with table leaves proves the win.
    board = engine.Board("checkers", "W:WK1,K2,K3:BK6,K31")
    solution = engine.solve(board, tables["checkers"], movetime=2.0)
    assert solution.source == "search" and solution.result == "win" and solution.plies > 0
    replay = board.copy()
    for move in solution.line:                     # the search's line, then the tables' line
        replay.push(move)
    assert replay.outcome() is not None and replay.outcome().winner == engine.WHITE
    # The start position: nothing can be proved in a short time, and solve says so.
    unknown = engine.solve(engine.Board("checkers"), tables["checkers"], movetime=0.2)
    assert unknown.result == "unknown" and unknown.plies is None
    assert "unknown" in str(unknown)
    over = engine.solve(engine.Board("checkers", "W:W:BK1"), None)
    assert (over.result, over.source) == ("loss", "game over")


def test_command_line_build_info_and_solve(tmp_path):
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(engine.__file__)))
    env = dict(os.environ, PYTHONPATH=package_root)

    def run(*args):
        return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True,
                              text=True, timeout=300, cwd=tmp_path, env=env)
    out = run("egdb", "build", "--variant", "checkers", "--pieces", "3")
    assert out.returncode == 0, out.stderr
    assert "[ 16/16] " in out.stdout and out.stdout.strip().splitlines()[-1].startswith("done: 16 slices")
    out = run("egdb", "build", "--variant", "checkers", "--pieces", "3")
    assert out.stdout.count("kept (checksum verified)") == 16
    out = run("egdb", "info", "--variant", "checkers")
    assert "0m2k-0m1k" in out.stdout and out.returncode == 0
    out = run("solve", "--variant", "checkers", "--fen", "W:WK1,K2:BK32")
    assert out.returncode == 0 and out.stdout.startswith("win in 33 plies (17 moves, tables)")
    out = run("solve", "--variant", "checkers", "--fen", "W:WK1,K2:BK32", "--dir", "nowhere",
              "--require-tables")
    assert out.returncode == 2 and "no manifest.json" in out.stderr
    out = run("egdb", "build", "--variant", "checkers")
    assert out.returncode == 2 and "needs --pieces" in out.stderr


def test_uci_probes_tables_under_egdb_path(tables):
    from conftest import Transcript
    from engine.uci import UciSession
    uci = Transcript(UciSession)
    try:
        assert uci.send(f"setoption name EgdbPath value {tables['dir'] / 'nowhere'}") == [
            f"info string error endgame tables: {tables['dir'] / 'nowhere' / 'international'}: "
            "no manifest.json (build the tables with 'python -m engine egdb build --variant "
            "international')"]
        assert uci.send(f"setoption name EgdbPath value {tables['dir']}") == [
            "info string endgame tables: international up to 4 pieces"]
        assert uci.send("setoption name UCI_Variant value checkers") == [
            "info string endgame tables: checkers up to 4 pieces"]
        lines = uci.send("position fen W:WK1,K2:BK32", "go depth 2")
        assert " score mate 17 " in lines[-2] and lines[-1].startswith("bestmove ")
        assert uci.send("setoption name UCI_Variant value dipole") == [
            "info string endgame tables: dipole up to 4 pieces"]
        assert uci.send("setoption name UCI_Variant value superajedrez") == []
    finally:
        uci.session.handle("quit")


def test_engines_that_play_probe_the_users_table_folder(tables, tmp_path, monkeypatch):
    """`egdb install` builds into the user's folder; UCI (EgdbPath <default>), analyse, dxp and
    the web board probe it when no folder is named; an empty EgdbPath turns tables off."""
    from conftest import Transcript
    from engine.cli import main
    from engine.uci import UciSession
    monkeypatch.setenv("DIMENSIONES_EGDB", str(tmp_path / "user"))
    assert egdb.playing_tables(None, "checkers") is None           # nothing installed yet
    assert main(["egdb", "install", "--variant", "checkers", "--pieces", "3", "--threads",
                 "2"]) == 0
    assert (tmp_path / "user" / "checkers" / "manifest.json").is_file()
    found = egdb.playing_tables(None, "checkers")
    assert found is not None and found.pieces == 3
    assert egdb.playing_tables(str(tables["dir"]), "checkers").pieces == 4   # a folder named
    uci = Transcript(UciSession)
    try:
        assert uci.send("setoption name UCI_Variant value checkers") == [
            "info string endgame tables: checkers up to 3 pieces"]
        lines = uci.send("position fen W:WK1,K2:BK32", "go depth 2")
        hits = int(lines[-2].split(" tbhits ")[1].split()[0])
        assert hits > 0 and " score cp 2" in lines[-2]       # a won position, from the tables
        assert uci.send("setoption name EgdbPath value") == []
        assert uci.session.engine.tablebases is None
    finally:
        uci.session.handle("quit")
    from engine import serve
    assert serve.Lobby().tables("checkers") is not None


def test_dipole_tables_and_solve(tables):
    t = tables["dipole"]
    # A capture of the last enemy checker wins at once; a lone stack against another.
    assert t.probe(engine.Board("dipole", "W:Wd4.2:Be5.1")) == egdb.Probe("win", 1)
    solution = engine.solve(engine.Board("dipole", "W:We1.2:Bd8.2"), t)
    assert solution.source == "tables" and solution.result in ("win", "loss")
    assert len(solution.line) == solution.plies
    replay = engine.Board("dipole", "W:We1.2:Bd8.2")
    for move in solution.line:
        replay.push(move)
    assert replay.is_game_over()
    winner = engine.WHITE if solution.result == "win" else engine.BLACK
    assert replay.outcome().winner == winner
    names = json.loads((tables["dir"] / "dipole" / "manifest.json").read_text())["slices"]
    assert sorted(names) == ["1w-1b", "1w-2b", "1w-3b", "2w-1b", "2w-2b", "3w-1b"]


# -- verifying values by the retrograde rule -------------------------------------------------------

def tamper(folder, name, index, value):
    """Change one stored value and update the manifest to match, as a careless or malicious
    edit would: the checksums then pass, only the values can tell."""
    import hashlib
    import numpy as np
    path = folder / f"{name}.npy"
    values = np.load(path).copy()
    values[index] = value
    np.save(path, values)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["slices"][name]["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    manifest["slices"][name]["bytes"] = path.stat().st_size
    (folder / "manifest.json").write_text(json.dumps(manifest))


@pytest.mark.parametrize("variant", VARIANTS + ["dipole"])
def test_verify_accepts_every_built_table(tables, variant):
    report = egdb.verify(tables[variant], threads=2, progress=False)
    assert report.ok and report.wrong == 0 and not report.examples
    assert report.checked == sum(e["entries"] for e in tables[variant].manifest["slices"].values())


def test_verify_finds_a_value_altered_with_its_checksum(tables, tmp_path):
    folder = copy_tables(tables["dir"], tmp_path)
    board = engine.Board("checkers", "W:WK1,K2:BK32")          # a win in 33 plies
    loaded = egdb.Tables(tmp_path, "checkers")
    assert loaded.probe(board) == egdb.Probe("win", 33)
    # Find its entry: the only one of slice 0m2k-0m1k whose stored code is 34 with this FEN.
    import numpy as np
    values = np.load(folder / "0m2k-0m1k.npy")
    index = next(i for i in np.flatnonzero(values == 34)
                 if egdb.position_text(loaded, (0, 2, 0, 1), int(i)) == board.fen())
    tamper(folder, "0m2k-0m1k", index, 0)                      # now it claims a draw
    altered = egdb.Tables(tmp_path, "checkers")                # the checksums pass
    assert altered.probe(board) == egdb.Probe("draw", 0)
    report = egdb.verify(altered, threads=2, progress=False)
    # The entry itself is wrong, and so are its predecessors whose best line went through it.
    assert not report.ok and report.wrong >= 1
    named = [text for _, _, text in report.examples]
    assert board.fen() in named
    assert ("0m2k-0m1k", index, board.fen()) in report.examples
    # Only the slices the position can reach are read by solve --verify.
    assert set(egdb.reachable_slices(altered, board)) == {"0m1k-0m1k", "0m2k-0m1k"}


def test_verify_names_entries_set_to_values_no_table_holds(tables, tmp_path):
    """Entries set to 254 and 255 (a raw byte slice's invalid and unsettled marks) with the
    checksum updated: verify names them instead of stopping at the first position that
    leads to one (it once raised 'a successor slice is missing')."""
    import numpy as np
    folder = copy_tables(tables["dir"], tmp_path)
    loaded = egdb.Tables(tmp_path, "checkers")
    values = np.load(folder / "1m1k-0m1k.npy")
    valid = [i for i in range(len(values))
             if egdb.position_text(loaded, (1, 1, 0, 1), i).startswith(("W:", "B:"))]
    bad = {valid[10]: 255, valid[200]: 254, valid[-1]: 255}
    path = folder / "1m1k-0m1k.npy"
    values = values.copy()
    for index, value in bad.items():
        values[index] = value
    np.save(path, values)
    tamper(folder, "1m1k-0m1k", valid[10], 255)       # the checksums pass again
    report = egdb.verify(egdb.Tables(tmp_path, "checkers"), threads=2, progress=False,
                         max_examples=64)
    assert not report.ok
    named = {index for name, index, _ in report.examples if name == "1m1k-0m1k"}
    assert set(bad) <= named
    assert report.underived >= 1          # positions one move from them cannot be worked out
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(engine.__file__)))
    out = subprocess.run([sys.executable, "-m", "engine", "egdb", "verify", "--variant", "checkers",
                          "--dir", str(tmp_path)], capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, PYTHONPATH=package_root))
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
    assert out.stdout.startswith("WRONG: ") and "UNDERIVED: " in out.stdout


def test_verify_finds_an_altered_dipole_value(tables, tmp_path):
    import shutil
    folder = tmp_path / "dipole"
    shutil.copytree(tables["dir"] / "dipole", folder)
    loaded = egdb.Tables(tmp_path, "dipole")
    index = next(i for i in range(100) if loaded.native.position((2, 2), i) is not None)
    fen = egdb.position_text(loaded, (2, 2), index)
    assert egdb.Tables(tmp_path, "dipole").probe(engine.Board("dipole", fen)) is not None
    stored = int(__import__("numpy").load(folder / "2w-2b.npy")[index])
    tamper(folder, "2w-2b", index, stored + 2)                 # the same result, 1 ply longer
    report = egdb.verify(egdb.Tables(tmp_path, "dipole"), progress=False)
    assert report.wrong >= 1 and ("2w-2b", index, fen) in report.examples


def test_verify_and_solve_verify_on_the_command_line(tables, tmp_path):
    folder = copy_tables(tables["dir"], tmp_path)
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(engine.__file__)))
    env = dict(os.environ, PYTHONPATH=package_root)

    def run(*args):
        return subprocess.run([sys.executable, "-m", "engine", *args, "--dir", str(tmp_path)],
                              capture_output=True, text=True, timeout=300, env=env)
    out = run("egdb", "verify", "--variant", "checkers")
    assert out.returncode == 0 and out.stdout.startswith("verified: all ")
    tamper(folder, "1m0k-0m1k", 100, 7)
    out = run("egdb", "verify", "--variant", "checkers", "--slices", "1m0k-0m1k")
    assert out.returncode == 1 and out.stdout.startswith("WRONG: ")
    assert "1m0k-0m1k entry " in out.stdout
    out = run("solve", "--variant", "checkers", "--fen", "W:W5:BK32", "--verify")
    assert out.returncode == 1 and "WRONG" in out.stdout
    out = run("solve", "--variant", "checkers", "--fen", "W:WK1,K2:BK32", "--verify")
    assert out.returncode == 0 and "verified: all" in out.stdout and "win in 33 plies" in out.stdout
