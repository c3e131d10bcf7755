"""A game added from outside the package (tests/toy_game: tic-tac-toe) gets the board API, perft,
the search, the UCI front end and the match runner without a line of the engine changed.

The toy game is compiled here as a plugin author would build it: Cython against the installed
engine's .pxd files, plus an entry point under ``dimensiones.games`` (docs/adding-a-game.md).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine import games
from engine._game import game_perft

TOY = Path(__file__).parent / "toy_game"
# Tic-tac-toe's perft (the game stops at three in a row): the published counts of move sequences.
PERFT = [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]


@pytest.fixture(scope="module")
def plugin(tmp_path_factory) -> Path:
    """A folder holding the compiled toy game and the metadata that announces it."""
    from Cython.Build import cythonize         # the test extra installs Cython and setuptools
    from setuptools import Distribution, Extension

    folder = tmp_path_factory.mktemp("toy_plugin")
    for name in ("_tictactoe.pyx", "tictactoe.py"):
        shutil.copy(TOY / name, folder / name)
    package_root = str(Path(engine.__file__).parent.parent)   # where engine/_game.pxd lies
    extension = Extension("_tictactoe", [str(folder / "_tictactoe.pyx")])
    distribution = Distribution({"ext_modules": cythonize([extension], include_path=[package_root],
                                                          quiet=True)})
    build = distribution.get_command_obj("build_ext")
    build.build_lib = str(folder)
    build.build_temp = str(folder / "build")
    distribution.run_command("build_ext")
    info = folder / "toy_dimensiones_game-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-dimensiones-game\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[dimensiones.games]\ntictactoe = tictactoe\n")
    return folder


@pytest.fixture
def toy(plugin, monkeypatch):
    """The toy game registered in this process, for one test only: in the registry itself (every
    module that holds it sees the game, as with a real plugin), taken out again afterwards."""
    monkeypatch.syspath_prepend(str(plugin))
    monkeypatch.delitem(sys.modules, "tictactoe", raising=False)   # its import registers it
    before = dict(games.GAMES)
    try:
        assert games.load_plugins() == ["tictactoe"]
        yield games.game("tictactoe")
    finally:
        games.GAMES.clear()
        games.GAMES.update(before)


def environment(plugin: Path) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(plugin), env.get("PYTHONPATH")]))
    return env


def test_the_toy_game_plugs_in_with_its_record(toy):
    assert "tictactoe" in engine.variants()
    assert toy.family == "tictactoe" and toy.title == "Tic-tac-toe"
    board = engine.Board("tictactoe")
    assert isinstance(board, engine.Board)
    assert board.fen() == ".../.../... x"
    assert all(isinstance(move, engine.Move) for move in board.legal_moves())


def test_perft_over_gameops_counts_the_toy_game(toy):
    board = engine.Board("tictactoe")
    assert [engine.perft(board, d) for d in range(10)] == PERFT
    assert engine.divide(board, 2) == {sq: 8 for sq in
                                       ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]}
    # After X's centre and O's corner: the counts of the subtree, by the generic counter too.
    board.push("b2")
    board.push("a1")
    assert game_perft(board, 1) == 7 and game_perft(board, 2) == 42


def test_history_comes_from_gameboard(toy):
    board = engine.Board("tictactoe")
    for square in ("a1", "b1", "a2", "b2"):
        board.push(square)
    assert board.ply == 4 and [str(m) for m in board.move_stack] == ["a1", "b1", "a2", "b2"]
    copy = board.copy()
    assert board.outcome() is None and board.result() == "*"
    board.push("a3")
    assert board.fen() == "x../xo./xo. o"
    assert board.is_game_over() and board.result() == "1-0"
    assert board.outcome().reason() == "a rule of the game: three in a row"
    assert board.legal_moves() == []
    assert str(board.pop()) == "a3" and board.fen() == copy.fen() == ".../xo./xo. x"
    assert copy.ply == 4 and board.zobrist_hash() == copy.zobrist_hash()
    assert board.repetitions() == 1
    with pytest.raises(engine.IllegalMoveError):
        board.push("a1")                        # taken
    assert board.fen() == ".../xo./xo. x" and board.ply == 4


def test_the_search_plays_the_toy_game(toy):
    e = engine.Engine(16)
    draw = e.search(engine.Board("tictactoe"), depth=9)
    assert draw.score == 0 and draw.depth == 9  # tic-tac-toe is a draw
    win = e.search(engine.Board("tictactoe", ".../xo./xo. x"), depth=3)
    assert str(win.best_move) == "a3" and win.mate == 1
    block = e.search(engine.Board("tictactoe", ".../.o./xx. o"), depth=9)
    assert str(block.best_move) == "c1"         # the only move that does not lose


def test_uci_offers_and_plays_the_toy_game(plugin):
    import threading
    process = subprocess.Popen([sys.executable, "-m", "engine", "uci"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=environment(plugin))
    watchdog = threading.Timer(120, process.kill)      # a hang fails the test, never blocks it
    watchdog.start()
    try:
        process.stdin.write("uci\nsetoption name UCI_Variant value tictactoe\n"
                            "position fen .../.o./xx. o\ngo depth 9\n")
        process.stdin.flush()
        lines = []
        while not (lines and lines[-1].startswith("bestmove")):
            line = process.stdout.readline()
            assert line, f"the engine ended early: {process.stderr.read()}"
            lines.append(line.strip())
        process.stdin.write("quit\n")
        process.stdin.flush()
        assert process.wait() == 0
    finally:
        watchdog.cancel()
        process.kill()
    variant_line = next(line for line in lines if "name UCI_Variant" in line)
    assert "var tictactoe" in variant_line
    assert lines[-1].split()[:2] == ["bestmove", "c1"]   # the only move that does not lose
    assert any(line.startswith("info depth 9 ") for line in lines)


def test_the_match_runner_plays_the_toy_game(plugin, tmp_path):
    record = tmp_path / "games.pdn"
    openings = tmp_path / "openings.txt"
    openings.write_text(".../.x./... o\nx../.../... o\n")    # X in the centre, X in a corner
    out = subprocess.run([sys.executable, "-m", "engine", "match", "--variant", "tictactoe",
                          "--games", "4", "--tc", "nodes=2000", "--openings", str(openings),
                          "--concurrency", "1", "--pdn", str(record)],
                         capture_output=True, text=True, timeout=300, env=environment(plugin))
    assert out.returncode == 0, out.stderr
    assert "4 games, +0 =4 -0" in out.stdout      # perfect play draws both openings
    text = record.read_text()
    assert text.count('[Variant "tictactoe"]') == 4 and text.count('[Result "1/2-1/2"]') == 4


def test_game_records_and_pictures_of_the_toy_game(toy):
    """The one writer of game records and its reader serve a plugin game as they do the
    built-in ones; the pictures draw its board from its size and pieces."""
    from engine import pdn, svg
    from engine.match import GameRecord
    from engine.match import pdn as match_record
    board = engine.Board("tictactoe", ".../.x./... o")
    moves = [board.push(square) for square in ("a1", "c3", "c1", "b1")]
    text = match_record(GameRecord(1, "x", "o", ".../.x./... o", moves, "*", "t"), "tictactoe", "e")
    assert "1... a1 2. c3 c1 3. b1 *" in text
    game = pdn.read_game(text)
    assert game.errors == [] and game.variant == "tictactoe"
    assert [str(m) for m in game.moves()] == ["a1", "c3", "c1", "b1"]
    assert game.end().fen() == board.fen()
    assert pdn.write_game(game).split("\n\n")[1] == text.split("\n\n")[1]
    picture = str(svg.board(board))
    assert picture.count('class="square"') == 9 and 'data-square="c3"' in picture
    assert picture.count('class="piece"') == 5 and ">X<" in picture and ">O<" in picture


def test_annotate_marks_the_toy_games_blunder(toy):
    """annotate reads a plugin game's record, searches it and writes it back marked: O's edge
    reply to X's centre loses, and the report says so."""
    from engine import annotate, pdn
    game = pdn.read_game('[Variant "tictactoe"]\n1. b2 b1 2. a1 *')
    report, = annotate.annotate([game], movetime=0.05, hash_mb=4, progress=False)
    marked = {m.move: m.label for m in report.marked()}
    assert "b1" in marked                       # the edge: X wins by force after it
    text = annotate.write_pdn([report])
    assert '[Variant "tictactoe"]' in text and pdn.read_game(text).moves() == game.moves()


def test_the_web_board_plays_the_toy_game(toy):
    """The web board knows no game: a plugin's board is drawn from its size and pieces, its
    moves are clicked by their square, and the engine answers on its seat."""
    import time
    from engine import webgame
    game = webgame.WebGame("tictactoe", None, ["black"], 0.05)          # the engine plays O
    try:
        state = game.state()
        assert state["seats"] == {"white": "White", "black": "Black"} and state["mover"] == "white"
        clicks = {m["move"]: m["paths"] for m in state["moves"]}
        assert len(clicks) == 9 and clicks["b2"] == [["b2"]]
        game.play("b2")
        deadline = time.monotonic() + 60
        while len(game.state()["line"]) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        state = game.state()
        assert state["line"][0] == "b2" and len(state["line"]) == 2
        assert state["line"][1] in ("a1", "a3", "c1", "c3")      # the only replies that hold
        assert state["svg"].count('class="piece"') == 2 and state["mover"] == "white"
        assert '[White "?"]' in game.record() and '[Black "Dimensiones"]' in game.record()
    finally:
        game.close()


def test_self_play_records_the_toy_games_positions(toy):
    """Self-play's games and positions need nothing of a game but its board: a batch of the
    toy game keeps its positions as the board's bytes, each game's result beside them. A run
    that would train an evaluation says the game has none to train."""
    from engine import selfplay
    from engine.errors import EngineError
    arrays = selfplay.play_batch("tictactoe", 0, 4, 300, (0, 2), None)
    size = len(engine.Board("tictactoe")._native_position())
    assert arrays["position"].shape[1] == size and len(arrays["position"]) == len(arrays["score"])
    assert len(arrays["position"]) > 0 and set(arrays["result"]) <= {-1, 0, 1}
    assert set(arrays["game"]) <= {0, 1, 2, 3} and set(arrays["start"]) == {""}
    with pytest.raises(EngineError, match="'tictactoe' has none yet"):
        selfplay.run("tictactoe", 4, "unused")


def test_a_broken_plugin_is_a_warning_and_the_games_still_play(tmp_path):
    info = tmp_path / "broken_game-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-game\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[dimensiones.games]\nbroken = no_such_module\n")
    out = subprocess.run([sys.executable, "-c", "import engine; print(len(engine.variants()))"],
                         capture_output=True, text=True, timeout=120, env=environment(tmp_path))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(len(games.GAMES))
    assert "game plugin 'broken' (no_such_module) failed to load: No module named" in out.stderr
