"""Hub protocol transcripts, errors, position strings, and a real client (pydraughts' HubEngine)
playing a game of International draughts against the engine."""

import random
import sys
import time

import pytest
from conftest import Transcript

import engine
from engine.hub import HubSession, board_from_position, hub_score, position_string

START = "W" + "b" * 20 + "e" * 10 + "w" * 20


@pytest.fixture
def hub():
    t = Transcript(HubSession)
    yield t
    t.session.handle("quit")


def test_initialisation(hub):
    assert hub.send("hub") == [
        'id name=Dimensiones version=0.1.0 author="the Dimensiones developers"',
        'param name=variant value=international type=enum '
        'values="international spanish checkers turkish gothic-checkers"',
        "param name=hash value=64 type=int min=1 max=65536",
        "wait",
    ]
    assert hub.send("set-param name=hash value=16", "init") == ["ready"]
    assert hub.send("ping") == ["pong"]


def test_search_with_captures_in_hub_notation(hub):
    lines = hub.send(f'pos pos={START} moves="32-28 19-23"', "level depth=4", "go think")
    assert lines[-1].startswith("done move=28x19x23 ponder=")
    assert lines[0].startswith("info depth=1 mean-depth=") and ' pv="28x19x23' in lines[0]


def test_won_position_scores_as_a_near_end(hub):
    lines = hub.send("pos pos=W" + "e" * 22 + "b" + "e" * 4 + "w" + "e" * 22, "level depth=3",
                     "go think")
    assert " score=99.99 " in lines[-2] and lines[-1] == "done move=28x19x23"
    assert hub_score(-30, None) == "-0.30" and hub_score(0, -2) == "-99.96"


def test_position_strings_round_trip():
    for variant in ("international", "spanish", "checkers", "turkish", "gothic-checkers"):
        board = engine.Board(variant)
        text = position_string(board)
        assert board_from_position(variant, text).fen() == board.fen()
    assert position_string(engine.Board("international")) == START


def test_analyse_until_stop(hub):
    hub.send(f"pos pos={START}", "level infinite", "go analyze", wait=False)
    time.sleep(0.2)
    hub.send("ping", wait=False)                  # answered at once, between info lines
    assert "pong" in hub.out.getvalue().splitlines()
    assert not any(line.startswith("done") for line in hub.out.getvalue().splitlines())
    start = time.perf_counter()
    lines = hub.send("stop")
    assert time.perf_counter() - start < 0.5
    assert lines[-1].startswith("done move=")


def test_time_level(hub):
    start = time.perf_counter()
    lines = hub.send(f"pos pos={START}", "level time=1 inc=0", "go think")
    assert time.perf_counter() - start < 1.0 and lines[-1].startswith("done move=")


def test_ponder_hit(hub):
    hub.send(f'pos pos={START} moves="32-28"', "level move-time=0.3", "go ponder", wait=False)
    time.sleep(0.2)
    assert "done" not in hub.out.getvalue()
    lines = hub.send("ponder-hit")
    assert lines[-1].startswith("done move=")


ERRORS = [
    ("bogus x=1", 'error message="unknown command bogus"'),
    ("pos", 'error message="pos needs pos=<position>"'),
    ("pos pos=Wbbb", "error message=\"position 'Wbbb': expected W or B and 50 squares\""),
    ("pos pos=X" + "e" * 50, "error message=\"position 'X" + "e" * 50 + "': expected W or B and 50 squares\""),
    (f'pos pos={START} moves="32-26"', "error message=\"move 1 of the list: '32-26' is not a "
     "legal move in W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:"
     "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20\""),
    ("level depth=x", "error message=\"level: invalid literal for int() with base 10: 'x'\""),
    ("level", 'error message="level needs depth=, nodes=, move-time=, time= or infinite"'),
    ("level depth=-1", 'error message="level values must not be negative"'),
    ("level depth=0", 'error message="level depth and nodes must be 1 or more"'),
    ("set-param name=variant value=chess", 'error message="unknown variant chess (known: '
     'international spanish checkers turkish gothic-checkers)"'),
    ("set-param name=colour value=red", 'error message="unknown parameter colour"'),
    ("go sideways", 'error message="go needs think, ponder or analyze, not sideways"'),
    ('pos pos="unclosed', "error message=\"cannot read line: No closing quotation\""),
]


@pytest.mark.parametrize("command,answer", ERRORS)
def test_errors(hub, command, answer):
    hub.send(f'pos pos={START} moves="32-28"')
    assert hub.send(command) == [answer]
    after = engine.Board("international")
    after.push("32-28")
    assert position_string(hub.session.board) == position_string(after)


def test_no_legal_move_is_refused(hub):
    hub.send("pos pos=" + position_string(engine.Board("international", "W:W46:B37,41")))
    assert hub.send("level depth=2", "go think") == [
        'error message="the side to move has no legal move"']


def test_pydraughts_hub_engine_plays_a_game(tmp_path):
    from draughts import Board
    from draughts.engine import HubEngine, Limit

    # HubEngine resolves symbolic links in the command, which would take a virtual environment's
    # python out of its environment: start the engine through a small script instead.
    launcher = tmp_path / "dimensiones-hub"
    launcher.write_text(f"#!/bin/sh\nexec '{sys.executable}' -m engine hub\n")
    launcher.chmod(0o755)
    client = HubEngine([str(launcher)])
    try:
        client.init()
        board = Board("standard")
        rng = random.Random(3)
        engine_moves = 0
        while not board.is_over() and len(board.move_stack) < 120:
            if len(board.move_stack) % 2 == 0:
                result = client.play(board, Limit(movetime=0.02), ponder=False)
                assert result.move.pdn_move in [m.pdn_move for m in board.legal_moves()]
                board.push(result.move)
                engine_moves += 1
            else:
                board.push(rng.choice(board.legal_moves()))
        assert engine_moves >= 10
        assert board.is_over() and board.winner() == 2           # the engine (White) won
    finally:
        client.quit()
        client.kill_process()
