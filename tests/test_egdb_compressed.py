"""Compressed endgame tables: every entry equals the raw table's, probing and the search with
them, corrupt blocks and files, building more pieces on top of them, the command line."""

import json
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import engine
from engine import egdb
from engine._draughts import DraughtsTableSet
from engine._search import TABLE_WIN_BOUND

parse_name = DraughtsTableSet.parse_name      # the slice names of the draughts games

SMALL = {"checkers": 4, "international": 3, "turkish": 3}   # Turkish: its lone-piece rule


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """Raw tables and their compressed copy, for each game of SMALL."""
    try:
        egdb.codecs._codecs()
    except egdb.TableError as exc:          # .ci/run installs both libraries
        pytest.skip(str(exc))
    raw = tmp_path_factory.mktemp("raw")
    packed = tmp_path_factory.mktemp("packed")
    for variant, pieces in SMALL.items():
        egdb.build(variant, pieces, raw, report=None)
        shutil.copytree(raw / variant, packed / variant)
        lines = []
        egdb.compress(variant, packed, report=lines.append, check="full")
        assert lines[-1].startswith(f"done: {len(egdb.signatures(variant, pieces))} slices")
    return raw, packed


@pytest.mark.parametrize("variant", sorted(SMALL))
def test_every_entry_equals_the_raw_one(pair, variant):
    raw, packed = pair
    tables = egdb.Tables(packed, variant)
    folder = raw / variant
    manifest = json.loads((folder / "manifest.json").read_text())
    assert set(manifest["slices"]) == set(tables.manifest["slices"])
    for name, entry in manifest["slices"].items():
        values = np.load(folder / entry["file"])
        got = tables.native.expand(parse_name(name))
        assert np.array_equal(got, values), name
        assert tables.manifest["slices"][name]["kind"] == "compressed"
        assert not (packed / variant / entry["file"]).exists()      # the raw file is gone
    assert tables.native.corrupt_blocks == 0


def test_a_small_block_cache_replaces_blocks_and_answers_the_same(pair):
    # Eight blocks held (one set), entries read in random order across every slice: nearly
    # every read replaces a block, and every value must still be the raw one.
    raw, packed = pair
    tables = egdb.Tables(packed, "checkers")
    tables.native.set_cache_blocks(8)
    folder = raw / "checkers"
    manifest = json.loads((folder / "manifest.json").read_text())
    values = {name: np.load(folder / entry["file"]) for name, entry in manifest["slices"].items()}
    rng = np.random.default_rng(5)
    names = sorted(values)
    for _ in range(3000):
        name = names[int(rng.integers(len(names)))]
        index = int(rng.integers(len(values[name])))
        got = tables.native.expand(parse_name(name), index, index + 1)
        assert got[0] == values[name][index], (name, index)
    assert tables.native.blocks_decoded > 1000
    assert tables.native.corrupt_blocks == 0
    with pytest.raises(ValueError, match="power of two"):
        tables.native.set_cache_blocks(12)


def test_two_search_threads_share_a_small_block_cache(pair):
    # Both threads decode into an eight-block cache at once: no block may come out damaged, and
    # the cache must still answer as the raw tables.
    raw, packed = pair
    tables = egdb.Tables(packed, "checkers")
    tables.native.set_cache_blocks(8)
    searcher = engine.Engine(hash_mb=8, threads=2)
    searcher.tablebases = tables
    for fen in ("W:WK10,K15,K3:BK32,K27", "B:WK1,K2,K3:BK32,K28", "W:W21,K3:BK32,K27,K20"):
        board = engine.Board("checkers", fen)
        result = searcher.search(board, nodes=100_000)
        assert result.best_move in board.legal_moves() and result.tbhits > 0
    assert tables.native.blocks_decoded > 500 and tables.native.corrupt_blocks == 0
    raw_tables = egdb.Tables(raw, "checkers")
    for board in random_positions(raw_tables, 200, seed=9):
        assert tables.probe(board) == raw_tables.probe(board), board.fen()


def test_compressed_files_are_much_smaller(pair):
    raw, packed = pair
    raw_bytes = sum(p.stat().st_size for p in (raw / "checkers").glob("*.npy"))
    packed_bytes = sum(p.stat().st_size for p in (packed / "checkers").glob("*.wdl")) + \
        sum(p.stat().st_size for p in (packed / "checkers").glob("*.dist"))
    assert packed_bytes < 0.2 * raw_bytes          # 2-4 pieces; the bigger slices pack better
    lines = egdb.info(packed, "checkers")
    assert lines[-6].startswith(f"{len(egdb.signatures('checkers', 4))} slices "
                                f"({len(egdb.signatures('checkers', 4))} compressed), "
                                f"{packed_bytes:,} bytes")
    # The summary by pieces: no raw bytes left, win/draw/loss and distances apart.
    rows = [line.split() for line in lines[-3:]]
    assert [row[0] for row in rows] == ["2", "3", "4"] and {row[3] for row in rows} == {"0"}
    wdl = sum(p.stat().st_size for p in (packed / "checkers").glob("*.wdl"))
    assert sum(int(row[4].replace(",", "")) for row in rows) == wdl
    assert sum(int(row[5].replace(",", "")) for row in rows) == packed_bytes - wdl


def test_entries_are_stored_by_side_to_move_and_older_files_in_index_order_read(pair, tmp_path):
    """A compressed stream holds the entries with White to move (even indices), then those
    with Black to move: neighbours in index order differ only in the side to move. Files
    written in index order (DIMTBZ02, before) read the same."""
    raw, packed = pair
    name = "1m1k-1m1k"
    signature = parse_name(name)
    native = egdb.Tables(raw, "checkers").native
    size, half = native.size(signature), native.size(signature) // 2
    values = np.load(raw / "checkers" / f"{name}.npy")
    w, d = np.empty(size, np.uint8), np.empty(size, np.uint8)
    native._stream_values(signature, w, d, 0, size)          # before the repeats are filled
    at = np.arange(size) // 2 + np.arange(size) % 2 * half   # each entry's place
    need = w[at] != 255                                      # a position without a capture
    assert 0.3 < need.mean() < 0.9
    plies = values.astype(np.int64) - 1
    assert np.array_equal(w[at][need], np.where(values == 0, 0, np.where(plies % 2, 1, 2))[need])
    won = need & (values != 0) & (plies % 2 == 1)
    assert np.array_equal(d[at][won], (plies[won] - 1) // 2)
    wdl, dist = native.streams(signature)
    quads = np.stack([wdl >> shift & 3 for shift in (0, 2, 4, 6)], axis=1).ravel()[:size]
    assert np.array_equal(quads[at][need], w[at][need])
    # The same streams in index order, as an earlier version wrote them.
    folder = tmp_path / "checkers"
    shutil.copytree(packed / "checkers", folder)
    write_in_index_order(folder, name, native)
    tables = egdb.Tables(tmp_path, "checkers")
    assert np.array_equal(tables.native.expand(signature), values)
    assert egdb.codecs._magic(folder / f"{name}.wdl") == egdb.IN_ORDER_MAGIC


def write_in_index_order(folder, name, native):
    """Write slice `name` of a folder of compressed tables again as an earlier version did
    (DIMTBZ02: the entries in index order), from the raw slice attached to `native`."""
    signature = parse_name(name)
    size, half = native.size(signature), native.size(signature) // 2
    at = np.arange(size) // 2 + np.arange(size) % 2 * half   # each entry's place by side
    wdl, dist = native.streams(signature)
    quads = np.stack([wdl >> shift & 3 for shift in (0, 2, 4, 6)], axis=1).ravel()[:size]
    codes = np.concatenate([quads[at], np.zeros(-size % 4, np.uint8)]).reshape(-1, 4)
    stored = codes[:, 0] | codes[:, 1] << 2 | codes[:, 2] << 4 | codes[:, 3] << 6
    manifest = json.loads((folder / "manifest.json").read_text())
    with ThreadPoolExecutor(2) as threads:
        for suffix, stream, bits in ((".wdl", stored, 2), (".dist", dist[at], 8)):
            path = folder / f"{name}{suffix}"
            egdb.codecs._write_packed(path, np.ascontiguousarray(stream), size, bits, threads)
            path.write_bytes(egdb.IN_ORDER_MAGIC + path.read_bytes()[8:])
            prefix = "" if suffix == ".wdl" else "dist_"
            manifest["slices"][name][prefix + "sha256"] = egdb.manifest._sha256(path)
            manifest["slices"][name][prefix + "bytes"] = path.stat().st_size
    (folder / "manifest.json").write_text(json.dumps(manifest))


def test_compress_writes_slices_in_index_order_again_by_side_to_move(pair, tmp_path):
    """Slices compressed in index order are written by side to move from their own entries
    (no raw file): the same bytes as compressing the raw slice, under the other file name,
    the old pair gone; the rest left alone."""
    raw, packed = pair
    native = egdb.Tables(raw, "checkers").native
    folder = tmp_path / "checkers"
    shutil.copytree(packed / "checkers", folder)
    names = ["1m1k-1m1k", "0m2k-2m0k", "1m0k-0m1k"]
    for name in names:
        write_in_index_order(folder, name, native)
    marked = [line.split()[0] for line in egdb.info(tmp_path, "checkers") if line.endswith(" *")]
    assert sorted(marked) == sorted(names)
    assert egdb.info(tmp_path, "checkers")[-1].startswith(f"* {len(names)} compressed in index")
    lines = []
    egdb.compress("checkers", tmp_path, report=lines.append, check="full")
    rewritten = [line for line in lines if "by side to move" in line]
    assert len(rewritten) == len(names)
    assert sum("already compressed" in line for line in lines) == \
        len(egdb.signatures("checkers", 4)) - len(names)
    manifest = json.loads((folder / "manifest.json").read_text())
    for name in names:
        entry = manifest["slices"][name]
        assert (entry["file"], entry["dist_file"]) == (f"{name}.2.wdl", f"{name}.2.dist")
        assert not (folder / f"{name}.wdl").exists() and not (folder / f"{name}.dist").exists()
        for suffix in (".wdl", ".dist"):
            assert (folder / f"{name}.2{suffix}").read_bytes() == \
                (packed / "checkers" / f"{name}{suffix}").read_bytes(), (name, suffix)
    tables = egdb.Tables(tmp_path, "checkers")
    for name in names:
        values = np.load(raw / "checkers" / f"{name}.npy")
        assert np.array_equal(tables.native.expand(parse_name(name)), values), name
    # Nothing left to write: a second run changes nothing.
    lines = []
    egdb.compress("checkers", tmp_path, report=lines.append)
    assert not any("by side to move" in line for line in lines)
    assert not any(line.endswith(" *") for line in egdb.info(tmp_path, "checkers"))


def test_a_corrupt_block_stops_writing_a_slice_again_and_changes_nothing(pair, tmp_path):
    raw, packed = pair
    native = egdb.Tables(raw, "checkers").native
    folder = tmp_path / "checkers"
    shutil.copytree(packed / "checkers", folder)
    name = "1m1k-1m1k"
    write_in_index_order(folder, name, native)
    path = folder / f"{name}.wdl"
    data = bytearray(path.read_bytes())
    data[-100] ^= 0x5A                                   # a byte of one of the last blocks
    path.write_bytes(bytes(data))
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["slices"][name]["sha256"] = egdb.manifest._sha256(path)   # past the file's checksum
    (folder / "manifest.json").write_text(json.dumps(manifest))
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    with pytest.raises(egdb.TableError, match=f"{name}.wdl: .*corrupt block.*left as it was"):
        egdb.compress("checkers", tmp_path, report=None)
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def random_positions(tables, count, seed):
    """Random entries of random slices of the tables, as boards (game not over)."""
    rng = np.random.default_rng(seed)
    names = sorted(tables.manifest["slices"])
    out = []
    while len(out) < count:
        signature = parse_name(names[int(rng.integers(len(names)))])
        index = int(rng.integers(tables.native.size(signature)))
        if tables.native.position(signature, index) is None:
            continue
        board = engine.Board(tables.variant, egdb.position_text(tables, signature, index))
        if board.outcome() is None:
            out.append(board)
    return out


@pytest.mark.parametrize("variant", sorted(SMALL))
def test_probes_agree_with_the_raw_tables(pair, variant):
    raw, packed = pair
    raw_tables, packed_tables = egdb.Tables(raw, variant), egdb.Tables(packed, variant)
    boards = random_positions(raw_tables, 400, seed=len(variant))
    captures = 0
    for board in boards:
        assert packed_tables.probe(board) == raw_tables.probe(board), board.fen()
        captures += any(move.is_capture for move in board.legal_moves())
    assert captures > 10          # positions whose value is worked out, not stored


def test_search_with_compressed_tables_knows_wins_without_distances(pair):
    raw, packed = pair
    board = engine.Board("checkers", "W:WK1,K2:BK32")
    searcher = engine.Engine(hash_mb=8)
    searcher.tablebases = egdb.Tables(packed, "checkers")
    result = searcher.search(board, depth=2)
    assert result.mate is None and result.score > TABLE_WIN_BOUND and result.tbhits > 0
    searcher.tablebases = egdb.Tables(raw, "checkers")
    searcher.new_game()
    assert searcher.search(board, depth=2).mate == 17
    # The loser's view, and a draw.
    searcher.tablebases = egdb.Tables(packed, "checkers")
    searcher.new_game()
    assert searcher.search(engine.Board("checkers", "B:WK1,K2:BK32"), depth=2).score \
        < -TABLE_WIN_BOUND
    searcher.new_game()
    assert searcher.search(engine.Board("checkers", "W:WK1:BK32"), depth=4).score == 0


def test_the_move_at_a_table_root_is_the_distances_best(pair):
    """Inside compressed tables the search sees "won" without a distance; the move it returns
    at a root the tables hold is still the fastest win (or the slowest loss), as raw tables'
    exact scores make it choose."""
    raw, packed = pair
    exact = egdb.Tables(raw, "checkers")
    searcher = engine.Engine(hash_mb=8)
    searcher.tablebases = egdb.Tables(packed, "checkers")
    for fen, want in (("W:WK1,K2:BK32", min), ("B:WK1,K2:BK32", max),
                      ("W:WK1,K2,6:BK32", min)):
        board = engine.Board("checkers", fen)
        distances = {}
        for move in board.legal_moves():
            child = board.copy()
            child.push(move)
            distances[str(move)] = exact.probe(child).plies
        result = searcher.search(board, depth=3)
        assert distances[str(result.best_move)] == want(distances.values()), fen
        assert result.pv[0] == result.best_move
        assert exact.probe(board).plies == want(distances.values()) + 1, fen


def test_solve_with_compressed_tables(pair):
    raw, packed = pair
    tables = egdb.Tables(packed, "checkers")
    inside = engine.solve(engine.Board("checkers", "W:WK1,K2:BK32"), tables)
    assert (inside.result, inside.plies, inside.source) == ("win", 33, "tables")
    # Five pieces: the search reaches the tables, which answer win without a distance; the
    # distance is the line's length plus the tables' distance from its end.
    board = engine.Board("checkers", "W:WK1,K2,K3:BK6,K31")
    beyond = engine.solve(board, tables, movetime=2)
    exact = engine.solve(board, egdb.Tables(raw, "checkers"), movetime=2)
    assert beyond.result == exact.result == "win"
    assert beyond.plies is not None and beyond.plies >= exact.plies
    replay = board.copy()
    for move in beyond.line:
        replay.push(move)
    assert replay.outcome() is not None and replay.outcome().winner == engine.WHITE


def first_block_position(tables, name):
    signature = parse_name(name)
    for index in range(tables.native.size(signature)):
        found = tables.native.position(signature, index)
        if found is not None:
            board = engine.Board(tables.variant, egdb.position_text(tables, signature, index))
            if not any(move.is_capture for move in board.legal_moves()):
                return board
    raise AssertionError("no quiet position")


def test_a_corrupt_block_is_caught(pair, tmp_path):
    raw, packed = pair
    shutil.copytree(packed / "checkers", tmp_path / "checkers")
    folder = tmp_path / "checkers"
    name = "0m2k-0m1k"
    path = folder / f"{name}.wdl"
    data = bytearray(path.read_bytes())
    entries = egdb.Tables(packed, "checkers").native.size(parse_name(name))
    offsets, _, blocks, _, _ = egdb.codecs._read_packed(path, 2, entries)
    data[len(data) - len(blocks) + int(offsets[0] + offsets[1]) // 2] ^= 0x55    # in block 0
    del offsets, blocks
    path.write_bytes(bytes(data))
    with pytest.raises(egdb.TableError, match="checksum mismatch"):
        egdb.Tables(tmp_path, "checkers")
    # With the manifest rewritten to match, the block's own check still catches it.
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["slices"][name]["sha256"] = egdb.manifest._sha256(path)
    (folder / "manifest.json").write_text(json.dumps(manifest))
    tables = egdb.Tables(tmp_path, "checkers")
    report = egdb.verify(tables, [name], progress=False)
    assert not report.ok and report.bad_blocks == [(name, "wdl", 0)]
    board = first_block_position(tables, name)
    assert tables.probe(board) is None                  # unknown, never a wrong answer
    assert tables.native.corrupt_blocks > 0
    assert egdb.Tables(packed, "checkers").probe(board) is not None


def test_malformed_compressed_files_are_refused(pair, tmp_path):
    raw, packed = pair
    shutil.copytree(packed / "checkers", tmp_path / "checkers")
    folder = tmp_path / "checkers"
    manifest = json.loads((folder / "manifest.json").read_text())
    name = "1m0k-1m0k"
    path = folder / f"{name}.dist"

    def rewrite(data):
        path.write_bytes(data)
        manifest["slices"][name].update(dist_bytes=len(data), dist_sha256=egdb.manifest._sha256(path))
        (folder / "manifest.json").write_text(json.dumps(manifest))

    good = path.read_bytes()
    rewrite(egdb.PACKED_MAGIC + good[8:40])
    with pytest.raises(egdb.TableError, match="truncated block index"):
        egdb.Tables(tmp_path, "checkers")
    rewrite(b"DIMTBZ01" + good[8:])                # zlib blocks, an earlier format
    with pytest.raises(egdb.TableError, match="earlier version .* compress them"):
        egdb.Tables(tmp_path, "checkers")
    rewrite(b"NOTATBLE" + good[8:])
    with pytest.raises(egdb.TableError, match="not a compressed table file"):
        egdb.Tables(tmp_path, "checkers")
    rewrite(good[:-5])
    with pytest.raises(egdb.TableError, match="past the data"):
        egdb.Tables(tmp_path, "checkers")
    manifest["slices"][name]["dist_file"] = "../elsewhere.dist"
    (folder / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(egdb.TableError, match="beside the manifest"):
        egdb.Tables(tmp_path, "checkers")


def test_more_pieces_build_on_compressed_slices(pair, tmp_path):
    raw, packed = pair
    egdb.build("checkers", 3, tmp_path, report=None)
    egdb.compress("checkers", tmp_path, report=None)
    tables = egdb.build("checkers", 4, tmp_path, report=None)
    manifest = json.loads((raw / "checkers" / "manifest.json").read_text())
    for name, entry in manifest["slices"].items():
        if sum(parse_name(name)) == 4:
            assert tables.manifest["slices"][name].get("kind", "raw") == "raw"
            assert np.array_equal(tables.native.expand(parse_name(name)),
                                  np.load(raw / "checkers" / entry["file"])), name


def packed_files(manifest: dict) -> dict:
    return {name: (entry["sha256"], entry["dist_sha256"])
            for name, entry in manifest["slices"].items()}


def test_a_build_that_compresses_as_it_goes_writes_the_same_files(pair, tmp_path):
    raw, packed = pair
    lines = []
    tables = egdb.build("checkers", 4, tmp_path, report=lines.append, compress=True)
    want = json.loads((packed / "checkers" / "manifest.json").read_text())
    assert packed_files(tables.manifest) == packed_files(want)
    assert not list((tmp_path / "checkers").glob("*.npy"))
    # Each slice is compressed once no group left to build can lead to it: the 4-piece slices
    # without men once those with one man are built (a promotion leads there), before the
    # groups with more men; the smaller slices only at the end (a capture leads there).
    built = [i for i, line in enumerate(lines) if line.startswith("[")]
    compressed = {line.split()[0]: i for i, line in enumerate(lines) if " bytes -> " in line}
    assert len(compressed) == len(tables.manifest["slices"])
    signatures = {i: parse_name(lines[i].split()[2]) for i in built}
    first_with_two_men = min(i for i, sig in signatures.items() if sum(sig) == 4
                             and sig[0] + sig[2] == 2)
    assert compressed["0m2k-0m2k"] < first_with_two_men
    assert compressed["1m0k-1m1k"] > max(built) and compressed["0m1k-0m1k"] > max(built)


def test_a_build_that_compresses_resumes_after_an_interruption(pair, tmp_path):
    raw, packed = pair

    def stop_at_the_first_compressed_slice(line):
        if " bytes -> " in line:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        egdb.build("checkers", 4, tmp_path, report=stop_at_the_first_compressed_slice,
                   compress=True)
    manifest = json.loads((tmp_path / "checkers" / "manifest.json").read_text())
    assert sum(entry.get("kind") == "compressed" for entry in manifest["slices"].values()) == 1
    lines = []
    tables = egdb.build("checkers", 4, tmp_path, report=lines.append, compress=True)
    assert sum("kept (checksum verified)" in line for line in lines) == len(manifest["slices"])
    want = json.loads((packed / "checkers" / "manifest.json").read_text())
    assert packed_files(tables.manifest) == packed_files(want)


def test_the_zstd_level_is_the_writers_and_reads_back_the_same(pair, tmp_path):
    raw, packed = pair
    shutil.copytree(raw / "checkers", tmp_path / "checkers")
    tables = egdb.compress("checkers", tmp_path, report=None, level=3)
    want = packed_files(json.loads((packed / "checkers" / "manifest.json").read_text()))
    got = packed_files(tables.manifest)
    assert {name: files[0] for name, files in got.items()} == \
        {name: files[0] for name, files in want.items()}           # win/draw/loss: LZ4 as before
    assert sum(got[name][1] != want[name][1] for name in got) > len(got) // 2
    manifest = json.loads((raw / "checkers" / "manifest.json").read_text())
    for name, entry in manifest["slices"].items():
        assert np.array_equal(tables.native.expand(parse_name(name)),
                              np.load(raw / "checkers" / entry["file"])), name
    with pytest.raises(ValueError, match="the zstd level is 1 to 19, not 20"):
        egdb.compress("checkers", tmp_path, report=None, level=20)
    refused = subprocess.run([sys.executable, "-m", "engine", "egdb", "compress", "--dir",
                              str(tmp_path), "--zstd-level", "fast"],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2
    assert "a zstd level is an integer from 1 to 19, not 'fast'" in refused.stderr


def test_the_lz4_level_is_the_writers_and_reads_back_the_same(pair, tmp_path):
    raw, packed = pair
    shutil.copytree(raw / "checkers", tmp_path / "fast" / "checkers")
    tables = egdb.compress("checkers", tmp_path / "fast", report=None, lz4_level=1)
    want = packed_files(json.loads((packed / "checkers" / "manifest.json").read_text()))
    got = packed_files(tables.manifest)
    assert {name: files[1] for name, files in got.items()} == \
        {name: files[1] for name, files in want.items()}           # distances: zstd as before
    assert sum(got[name][0] != want[name][0] for name in got) > len(got) // 2
    manifest = json.loads((raw / "checkers" / "manifest.json").read_text())
    for name, entry in manifest["slices"].items():
        assert np.array_equal(tables.native.expand(parse_name(name)),
                              np.load(raw / "checkers" / entry["file"])), name
    # A build that compresses as it goes passes the level on.
    built = egdb.build("checkers", 3, tmp_path / "built", report=None, compress=True,
                       lz4_level=1)
    assert packed_files(built.manifest) == {name: got[name] for name in built.manifest["slices"]}
    with pytest.raises(ValueError, match="the LZ4 level is 1 to 12, not 13"):
        egdb.compress("checkers", tmp_path / "fast", report=None, lz4_level=13)
    refused = subprocess.run([sys.executable, "-m", "engine", "egdb", "build", "--pieces", "3",
                              "--compress", "--dir", str(tmp_path), "--lz4-level", "0"],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2
    assert "an LZ4 level is an integer from 1 to 12, not '0'" in refused.stderr


def test_dipole_tables_stay_raw(tmp_path):
    egdb.build("dipole", 3, tmp_path, report=None)
    with pytest.raises(egdb.TableError, match="Dipole's tables are never compressed"):
        egdb.compress("dipole", tmp_path, report=None)
    with pytest.raises(egdb.TableError, match="Dipole's tables are never compressed"):
        egdb.build("dipole", 3, tmp_path, report=None, compress=True)


@pytest.mark.parametrize("variant", sorted(SMALL))
def test_verify_unpacks_compressed_slices_and_accepts_them(pair, variant):
    """verify reads compressed slices unpacked into memory: every stored value as the raw
    table's, "lost" and "has a capture" marked where the files keep no value; with no memory
    to unpack into it probes the files, and both ways check the same entries. The unpacked
    values are dropped afterwards (expand reads the files again)."""
    raw, packed = pair
    tables = egdb.Tables(packed, variant)
    native = tables.native
    for name, entry in tables.manifest["slices"].items():
        signature = parse_name(name)
        values = np.load(raw / variant / f"{name}.npy").astype(np.int64)
        unpacked = np.empty(native.size(signature), np.uint16)
        native.unpack(signature, unpacked, 0, native.size(signature))
        lost = (values % 2 == 1) & (values < 0xFE)
        kept = (unpacked < 0xFFFC) | (unpacked == 0xFFFE)
        assert np.array_equal(unpacked[kept].astype(np.int64),
                              np.where(values == 0xFE, 0xFFFE, values)[kept]), name
        assert np.all(lost[unpacked == 0xFFFD]), name               # marked lost: lost
        assert np.all(kept | lost | (unpacked == 0xFFFC)), name
    total = sum(native.size(parse_name(n)) for n in tables.manifest["slices"])
    fast = egdb.verify(tables, threads=2, progress=False)
    assert fast.ok and fast.checked == total
    for name in tables.manifest["slices"]:          # nothing unpacked is left attached
        values = np.load(raw / variant / f"{name}.npy")
        assert np.array_equal(native.expand(parse_name(name)), values), name
    slow = egdb.verify(tables, threads=2, progress=False, memory=0)
    assert slow.ok and slow.checked == total


def altered_and_compressed(raw, tmp_path, name, pick, change):
    """A copy of the raw checkers tables with one value of slice `name` changed (the first
    quiet position whose value `pick` accepts gets `change(value)`), compressed; (tables,
    index)."""
    shutil.copytree(raw / "checkers", tmp_path / "checkers")
    folder = tmp_path / "checkers"
    path = folder / f"{name}.npy"
    values = np.load(path)
    tables = egdb.Tables(raw, "checkers")
    signature = parse_name(name)
    for index in np.flatnonzero(pick(values.astype(np.int64))):
        board = engine.Board("checkers", egdb.position_text(tables, signature, int(index)))
        if board.outcome() is None and not any(m.is_capture for m in board.legal_moves()):
            break
    values[index] = change(int(values[index]))
    np.save(path, values)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["slices"][name]["sha256"] = egdb.manifest._sha256(path)
    (folder / "manifest.json").write_text(json.dumps(manifest))
    egdb.compress("checkers", tmp_path, report=None, check="none")  # (it would see the change)
    return egdb.Tables(tmp_path, "checkers"), int(index)


def test_verify_of_compressed_tables_finds_a_drawn_position_stored_as_lost(pair, tmp_path):
    # The files keep no distance for a loss: verify still checks that the position is lost
    # (probing the files alone, it is worked out from the successors and looks right).
    raw, packed = pair
    name = "1m1k-1m1k"
    tables, index = altered_and_compressed(raw, tmp_path, name, lambda v: v == 0,
                                           lambda v: 3)
    report = egdb.verify(tables, [name], threads=2, progress=False)
    assert (report.wrong, report.examples[0][:2]) == (1, (name, index))
    assert egdb.verify(tables, [name], threads=2, progress=False, memory=0).ok


def test_verify_of_compressed_tables_finds_a_longer_win(pair, tmp_path):
    raw, packed = pair
    name = "1m1k-1m1k"
    tables, index = altered_and_compressed(
        raw, tmp_path, name, lambda v: (v > 0) & (v < 200) & (v % 2 == 0), lambda v: v + 2)
    fast = egdb.verify(tables, [name], threads=2, progress=False, max_examples=64)
    slow = egdb.verify(tables, [name], threads=2, progress=False, max_examples=64, memory=0)
    assert fast.wrong >= 1 and (name, index) in [e[:2] for e in fast.examples]
    assert (fast.checked, fast.wrong, fast.examples) == (slow.checked, slow.wrong, slow.examples)


def test_command_line_compress_info_verify(tmp_path):
    def run(*args):
        return subprocess.run([sys.executable, "-m", "engine", "egdb", *args, "--variant",
                               "spanish", "--dir", str(tmp_path)],
                              capture_output=True, text=True, timeout=300)

    assert run("build", "--pieces", "3").returncode == 0
    done = run("compress")
    assert done.returncode == 0, done.stderr
    assert "32 runs of 4096 entries of each slice checked against the raw ones" in done.stdout
    assert done.stdout.strip().splitlines()[-1].startswith(
        f"done: {len(egdb.signatures('spanish', 3))} slices, ")
    again = run("compress")
    assert again.stdout.count("already compressed") == len(egdb.signatures("spanish", 3))
    info = run("info")
    assert " compressed\n" in info.stdout
    verified = run("verify")
    assert verified.returncode == 0 and verified.stdout.startswith("verified: all ")


def test_compress_refuses_what_does_not_read_back(tmp_path, monkeypatch):
    egdb.build("checkers", 3, tmp_path, report=None)
    write = egdb.codecs._write_packed

    def altered(path, stored, entries, bits, pool, *level):
        # The first entry of each win/draw/loss byte: draws become wins, wins draws.
        write(path, stored ^ 1 if bits == 2 else stored, entries, bits, pool, *level)

    monkeypatch.setattr(egdb.compressor, "_write_packed", altered)
    with pytest.raises(egdb.TableError, match="does not read back as written"):
        egdb.compress("checkers", tmp_path, report=None)
    # Written as read back, but not what the raw slice says: the comparison of the probed
    # values catches it, and the raw file stays.
    monkeypatch.setattr(egdb.compressor, "_check_packed", lambda path, stored, entries, bits: None)
    with pytest.raises(egdb.TableError, match="differ from the raw ones at entry"):
        egdb.compress("checkers", tmp_path, report=None)
    tables = egdb.Tables(tmp_path, "checkers")
    assert all(e.get("kind", "raw") == "raw" for e in tables.manifest["slices"].values())
    assert not list((tmp_path / "checkers").glob("*.wdl"))
    assert not list((tmp_path / "checkers").glob("*.dist"))


def test_the_block_check_sees_any_changed_byte():
    rng = np.random.default_rng(3)
    block = rng.integers(0, 256, 1021, dtype=np.uint8)      # an odd length: the tail loop too
    check = DraughtsTableSet.block_check
    first = check(block)
    assert first == check(block.copy()) and 0 <= first < 2 ** 32
    for at in range(block.shape[0]):
        changed = block.copy()
        changed[at] ^= 1 << (at % 8)
        assert check(changed) != first, at
    assert check(block[:-1]) != first                       # a block cut short
    assert check(np.zeros(0, dtype=np.uint8)) != check(np.zeros(1, dtype=np.uint8))


def test_a_missing_compression_library_is_named():
    with pytest.raises(egdb.TableError, match=r"need the libfoo \(Debian: foo1\) library"):
        egdb.codecs._library(["no-such-library-here", "libno-such-library.so.9"], "f",
                      "libfoo (Debian: foo1)")
