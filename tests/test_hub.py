"""Hub protocol transcripts, errors, position strings, and a real client (pydraughts' HubEngine)
playing a game of International draughts against the engine."""

import random
import sys
import time

import pytest
from conftest import Transcript

import engine
from engine.hub import HubSession, hub_score
from engine.notation import board_from_position, position_string

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
        'values="international spanish checkers turkish gothic-checkers brazilian russian pool czech '
        'thai italian killer antidraughts breakthrough frisian frysk canadian"',
        "param name=hash value=64 type=int min=1 max=65536",
        "param name=threads value=1 type=int min=1 max=64",
        "param name=reductions value=true type=bool",
        "param name=null-move value=true type=bool",
        "param name=probcut value=true type=bool",
        "param name=early-reductions value=true type=bool",
        "param name=qs-promotions value=false type=bool",
        "param name=qs-exchanges value=false type=bool",
        "param name=eval-file value=<shipped> type=string",
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
    ("bogus x=1", "error message=\"unknown command 'bogus'\""),
    ("pos", 'error message="pos needs pos=<position>"'),
    ("pos pos=Wbbb", "error message=\"position 'Wbbb': expected W or B and 50 squares\""),
    ("pos pos=X" + "e" * 50, "error message=\"position 'X" + "e" * 39 + "'... (51 characters): "
     "expected W or B and 50 squares\""),
    (f'pos pos={START} moves="32-26"', "error message=\"move 1 of the list: '32-26' is not a "
     "legal move in W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:"
     "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20\""),
    ("level depth=x", "error message=\"level depth must be a whole number from 1 to 126, not 'x'\""),
    ("level", 'error message="level needs depth=, nodes=, move-time=, time= or infinite"'),
    ("level depth=-1", "error message=\"level depth must be a whole number from 1 to 126, not '-1'\""),
    ("level depth=0", "error message=\"level depth must be a whole number from 1 to 126, not '0'\""),
    ("level nodes=" + "9" * 30, "error message=\"level nodes must be a whole number from 1 to "
     "4611686018427387904, not '" + "9" * 30 + "'\""),
    ("level move-time=nan", "error message=\"level move-time must be a number of seconds from "
     "0.001 to 1e+07, not 'nan'\""),
    ("level move-time=inf", "error message=\"level move-time must be a number of seconds from "
     "0.001 to 1e+07, not 'inf'\""),
    ("level move-time=1e308", "error message=\"level move-time must be a number of seconds from "
     "0.001 to 1e+07, not '1e308'\""),
    ("level time=nan", "error message=\"level time must be a number of seconds from 0 to 1e+07, "
     "not 'nan'\""),
    ("level time=10 inc=-1", "error message=\"level inc must be a number of seconds from 0 to "
     "1e+07, not '-1'\""),
    ("level inc=1", 'error message="level inc= needs time="'),
    ("level time=" + "9" * 400, "error message=\"level time must be a number of seconds from 0 to "
     "1e+07, not '" + "9" * 40 + "'... (400 characters)\""),
    ("set-param name=variant value=chess", "error message=\"unknown variant 'chess' (known: "
     "international spanish checkers turkish gothic-checkers brazilian russian pool czech thai italian killer "
     "antidraughts breakthrough frisian frysk canadian; normal is international, losing is antidraughts, bt is breakthrough)\""),
    ("set-param name=threads value=0", "error message=\"option threads must be between 1 and 64, not 0\""),
    ("set-param name=hash value=999999999", "error message=\"option hash must be between 1 and 65536, "
     "not 999999999\""),
    ("set-param name=probcut value=yes", "error message=\"option probcut takes true or false, not 'yes'\""),
    ("go sideways", "error message=\"go needs think, ponder or analyze, not 'sideways'\""),
    ('pos pos="unclosed', "error message=\"cannot read line: No closing quotation\""),
    # Numbers are ASCII digits only: '²' passes str.isdigit() and then breaks int().
    ("level depth=\u00b2", "error message=\"level depth must be a whole number from 1 to 126, "
     "not '\u00b2'\""),
    ("level nodes=\u0663", "error message=\"level nodes must be a whole number from 1 to "
     "4611686018427387904, not '\u0663'\""),
    ("level move-time=\u0661.5", "error message=\"level move-time must be a number of seconds "
     "from 0.001 to 1e+07, not '\u0661.5'\""),
    ("level time=1_0", "error message=\"level time must be a number of seconds from 0 to 1e+07, "
     "not '1_0'\""),
    ("set-param name=hash value=\uff15", "error message=\"option hash needs a number, not "
     "'\uff15'\""),
]


@pytest.mark.parametrize("command,answer", ERRORS)
def test_errors(hub, command, answer):
    hub.send(f'pos pos={START} moves="32-28"')
    assert hub.send(command) == [answer]
    after = engine.Board("international")
    after.push("32-28")
    assert position_string(hub.session.board) == position_string(after)


def test_unknown_parameters_are_ignored_and_normal_is_international(hub):
    # The Hub protocol: each side ignores what it does not know. Scan names International
    # draughts "normal".
    assert hub.send("set-param name=colour value=red") == []
    assert hub.send("set-param name=variant value=checkers", "set-param name=variant value=normal") == []
    assert hub.session.variant == "international"
    assert hub.send("ping") == ["pong"]


def test_hash_change_during_a_held_ponder_search(hub):
    hub.send(f"pos pos={START}", "level move-time=0.2", "go ponder", wait=False)
    time.sleep(0.1)
    hub.send("set-param name=hash value=2", wait=False)          # must not wait for ponder-hit
    assert "pong" in hub.send("ping")
    assert hub.session.hash_mb == 2


def test_bad_bytes_and_long_lines_are_error_lines():
    """The process itself: non-UTF-8 input under a strict locale, a 1 MB line of digits, a line
    of 1 MB as a level value: each an error line, quickly, and the engine answers after."""
    import subprocess
    big = "level time=" + "1" * 1_000_000
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "engine", "hub"],
                         input=b"hub\n\xff\xfe\n" + big.encode() + b"\nping\n",
                         capture_output=True, timeout=60,
                         env=dict(__import__("os").environ, PYTHONIOENCODING="utf-8:strict"))
    lines = out.stdout.decode().splitlines()
    assert out.returncode == 0 and lines[-1] == "pong"
    assert 'error message="line is not UTF-8 (byte 0xff at 0); ignored"' in lines
    assert 'error message="line of 1000012 bytes refused (the limit is 65536)"' in lines
    assert len(out.stdout) < 2000                      # nothing of the long line is echoed
    assert time.perf_counter() - start < 30            # generous: it takes well under a second


@pytest.mark.parametrize("mode", ["ponder", "analyze"])
def test_end_of_input_ends_a_held_search(mode):
    import subprocess
    out = subprocess.run([sys.executable, "-m", "engine", "hub"],
                         input=f"hub\ninit\npos pos={START}\ngo {mode}\n", capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0 and "ready" in out.stdout


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


def test_a_unicode_digit_is_an_error_line_not_the_end_of_the_process():
    import subprocess
    out = subprocess.run([sys.executable, "-m", "engine", "hub"], input=b"hub\nlevel depth=\xc2\xb2\nping\n",
                         capture_output=True, timeout=60)
    lines = out.stdout.decode().splitlines()
    assert out.returncode == 0 and b"Traceback" not in out.stderr
    assert lines[-2:] == ["error message=\"level depth must be a whole number from 1 to 126, "
                          "not '\u00b2'\"", "pong"]
