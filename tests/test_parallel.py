"""Work over Ray (`engine.parallel`): self-play and matches on a local Ray instance give what
local processes give, and a unit whose worker dies is run again. Skipped, with the reason,
where Ray is not installed (`pip install '.[cluster]'`; the test extra brings it)."""

import os
import sys
from pathlib import Path

import numpy as np
import pytest

from engine import EngineError, egdb, parallel, selfplay, weights
from engine.clients import EngineSpec, TimeControl
from engine.match import Match

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install '.[cluster]')")


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    # The units below live in this test module, which Ray's workers cannot import: send them
    # by value.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def square(x):
    return x * x


def dies_once(unit):
    """Kills its own worker process the first time it sees its unit."""
    number, marks = unit
    mark = Path(marks) / f"{number}.started"
    if number == 2 and not mark.exists():
        mark.write_text("once")
        os._exit(1)
    return number


def test_results_of_every_unit_arrive():
    runner = parallel.Runner(2, ray="local")
    assert runner.where.startswith("Ray at local") and runner.slots == 2
    assert sorted(runner.map_unordered(square, range(10))) == [x * x for x in range(10)]
    assert sorted(parallel.Runner(2).map_unordered(square, range(10))) == [x * x for x in range(10)]


def test_a_worker_killed_mid_run_loses_nothing(tmp_path):
    runner = parallel.Runner(2, ray="local")
    assert sorted(runner.map_unordered(dies_once, [(n, str(tmp_path)) for n in range(5)])) == [0, 1, 2, 3, 4]
    assert (tmp_path / "2.started").read_text() == "once"        # it did die, and ran again


def test_a_unit_that_fails_raises_its_own_error():
    def fails(_):
        raise EngineError("no such thing here")
    with pytest.raises(EngineError, match="no such thing here"):
        list(parallel.Runner(2, ray="local").map_unordered(fails, [1]))


def test_ray_address_comes_from_the_option_or_the_environment(monkeypatch):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert parallel.ray_address(None) is None
    assert parallel.ray_address("auto") == "auto"
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.1:6379")
    assert parallel.ray_address(None) == "10.0.0.1:6379"
    assert parallel.ray_address("local") == "local"


def test_selfplay_on_ray_writes_the_same_files(tmp_path):
    kwargs = dict(nodes=150, progress=False, eval_file=weights.HAND_SET, seed=3)
    assert selfplay.run("checkers", 32, tmp_path / "local", workers=2, **kwargs) == \
        selfplay.run("checkers", 32, tmp_path / "ray", workers=2, ray="local", **kwargs)
    for name in ("checkers-000000.npz", "checkers-000001.npz"):
        with np.load(tmp_path / "local" / name) as a, np.load(tmp_path / "ray" / name) as b:
            assert set(a.files) == set(b.files)
            for key in a.files:
                assert np.array_equal(a[key], b[key]), key


def test_a_match_on_ray_plays_the_same_games(tmp_path):
    def spec():
        return EngineSpec.parse(f"{Path(sys.executable)} -m engine uci")
    openings = ["B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
                "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,16"]
    results = []
    for ray_address in (None, "local"):
        match = Match([spec(), spec()], "checkers", TimeControl(nodes=1500, tolerance=5), openings,
                      report=None, pdn_path=str(tmp_path / f"{ray_address}.pdn"), ray=ray_address)
        result = match.run()
        results.append((result.pentanomial, (result.wins, result.draws, result.losses),
                        sorted((g.number, g.result, [str(m) for m in g.moves]) for g in result.games)))
    assert results[0] == results[1] and sum(results[0][1]) == 4


def test_a_missing_engine_command_on_a_worker_is_named(tmp_path):
    spec = EngineSpec.parse("/nowhere/engine-that-is-not-here uci")
    ours = EngineSpec.parse(f"{sys.executable} -m engine uci")
    match = Match([ours, spec], "checkers", TimeControl(nodes=100), ["B:W21-32:B1-12"],
                  report=None, ray="local")
    with pytest.raises(EngineError, match="every machine of the cluster needs the engines' commands"):
        match.run()


def test_an_unreachable_cluster_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **kw: (_ for _ in ()).throw(ConnectionError("refused")))
    with pytest.raises(EngineError, match="cannot reach a Ray cluster at '10.9.9.9:1'"):
        parallel.Runner(1, ray="10.9.9.9:1")


def test_a_table_build_on_ray_writes_the_same_slices(tmp_path):
    local = egdb.build("checkers", 3, tmp_path / "local", report=None, threads=2)
    lines = []
    on_ray = egdb.build("checkers", 3, tmp_path / "ray", report=lines.append, ray="local")
    assert len(lines) == len(local.manifest["slices"]) == len(egdb.signatures("checkers", 3))
    for name, entry in local.manifest["slices"].items():
        other = on_ray.manifest["slices"][name]
        assert (other["sha256"], other["wins"], other["longest_plies"]) == \
            (entry["sha256"], entry["wins"], entry["longest_plies"])


def test_a_build_on_ray_that_compresses_writes_the_same_files(tmp_path):
    try:
        egdb.codecs._codecs()
    except egdb.TableError as exc:          # .ci/run installs both libraries
        pytest.skip(str(exc))
    local = egdb.build("checkers", 4, tmp_path / "local", report=None, compress=True)
    # The head compresses; the workers load each slice as the manifest lists it, raw or
    # compressed (the 4-piece slices without men are compressed before those with two men).
    on_ray = egdb.build("checkers", 4, tmp_path / "ray", report=None, ray="local", compress=True)
    assert {name: (entry["sha256"], entry["dist_sha256"])
            for name, entry in on_ray.manifest["slices"].items()} == \
        {name: (entry["sha256"], entry["dist_sha256"])
         for name, entry in local.manifest["slices"].items()}
    assert not list((tmp_path / "ray" / "checkers").glob("*.npy"))


def test_a_build_on_ray_needs_the_folder_on_every_worker(tmp_path):
    with pytest.raises(egdb.TableError, match="shared by every machine"):
        egdb.builder._build_unit(("checkers", str(tmp_path / "not-shared"), (1, 1, 0, 0)))
