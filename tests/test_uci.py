"""UCI-style protocol transcripts, every error case, and a real client (python-chess)."""

import io
import subprocess
import sys
import time

import pytest
from conftest import Transcript

from engine.uci import UciSession


@pytest.fixture
def uci():
    t = Transcript(UciSession)
    yield t
    t.session.handle("quit")


def test_handshake(uci):
    assert uci.send("uci") == [
        "id name Dimensiones 0.1.0",
        "id author the Dimensiones developers",
        "option name UCI_Variant type combo default international var international var spanish "
        "var checkers var chapinas var turkish var gothic-checkers var brazilian var russian var pool "
        "var czech var thai var italian var killer var antidraughts var breakthrough var frisian var frysk var canadian var dipole var dipole10 "
        "var superajedrez var superdimensiones",
        "option name Hash type spin default 64 min 1 max 65536",
        "option name Clear Hash type button",
        "option name Threads type spin default 1 min 1 max 64",
        "option name MultiPV type spin default 1 min 1 max 64",
        "option name Move Overhead type spin default 30 min 0 max 5000",
        "option name Ponder type check default false",
        "option name Reductions type check default true",
        "option name NullMove type check default true",
        "option name ProbCut type check default true",
        "option name EarlyReductions type check default true",
        "option name QsPromotions type check default false",
        "option name QsExchanges type check default false",
        "option name EgdbPath type string default <default>",
        "option name EvalFile type string default <shipped>",
        "uciok",
    ]
    assert uci.send("isready") == ["readyok"]


def fen_of(uci):
    return [line for line in uci.send("d") if line.startswith("Fen: ")][0][5:]


def test_position_and_moves(uci):
    uci.send("position startpos moves 32-28 19-23 28x19 14x23")
    assert fen_of(uci) == ("W:W31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:"
                           "B1,2,3,4,5,6,7,8,9,10,11,12,13,15,16,17,18,20,23")
    uci.send("position fen B:WK50:B1-3")
    assert fen_of(uci) == "B:WK50:B1,2,3"


def test_go_depth_reports_each_iteration_then_bestmove(uci):
    uci.send("position fen W:W28:B23")
    lines = uci.send("go depth 3")
    assert [line.split()[2] for line in lines[:-1]] == ["1", "2", "3"]
    assert all(" score mate 1 " in line and line.endswith(" pv 28x19") for line in lines[:-1])
    assert lines[-1] == "bestmove 28x19"


def test_info_line_fields(uci):
    lines = uci.send("position startpos", "go depth 4")
    fields = lines[-2].split()
    for key in ("depth", "seldepth", "score", "nodes", "nps", "time", "hashfull", "pv"):
        assert key in fields
    assert lines[-1].startswith("bestmove ") and " ponder " in lines[-1]


def test_multipv_and_variant(uci):
    uci.send("setoption name UCI_Variant value checkers", "position startpos")
    assert fen_of(uci).startswith("B:W21,22")
    lines = uci.send("setoption name MultiPV value 3", "go depth 2")
    assert sum(" multipv " in line for line in lines) == 6
    assert lines[-1].split()[1] in {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}


def test_go_perft(uci):
    lines = uci.send("go perft 3")
    import engine
    assert lines[-1] == "Nodes searched: 658" and lines[-2] == ""
    expected = engine.divide(engine.Board("international"), 3)
    assert lines[:-2] == [f"{move}: {count}" for move, count in expected.items()]


def test_infinite_search_waits_for_stop(uci):
    uci.send("position startpos", "go infinite", wait=False)
    time.sleep(0.3)
    assert not any(line.startswith("bestmove") for line in uci.out.getvalue().splitlines())
    start = time.perf_counter()
    lines = uci.send("stop")
    assert time.perf_counter() - start < 0.5
    assert lines[-1].startswith("bestmove ")


def test_ponder_then_ponderhit(uci):
    uci.send("position startpos moves 32-28", "go ponder wtime 2000 btime 2000 movetime 300",
             wait=False)
    time.sleep(0.2)
    assert "bestmove" not in uci.out.getvalue()
    start = time.perf_counter()
    lines = uci.send("ponderhit")
    assert time.perf_counter() - start < 1.5
    assert lines[-1].startswith("bestmove ")


def test_go_with_a_clock(uci):
    uci.send("position startpos")
    start = time.perf_counter()
    lines = uci.send("go wtime 1000 btime 1000 winc 0 binc 0")
    assert time.perf_counter() - start < 1.0 and lines[-1].startswith("bestmove ")


ERRORS = [
    ("foo", "info string error unknown command 'foo'"),
    ("position", "info string error position needs 'startpos' or 'fen <fen>'"),
    ("position moves 32-28",
     "info string error position needs 'startpos' or 'fen <fen>' before 'moves', not ''"),
    ("position moves", "info string error position needs 'startpos' or 'fen <fen>' before "
                       "'moves', not ''"),
    ("position startpos extra", "info string error position needs 'startpos' or 'fen <fen>' "
                                "before 'moves', not 'startpos extra'"),
    ("position fen W:W31:X1", "info string error FEN 'W:W31:X1': piece list 'X1' must start with W or B"),
    ("position startpos moves 32-28 32-27",
     "info string error move 2 of the list: '32-27' is not a legal move in "
     "B:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:"
     "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"),
    ("position startpos moves 99-98", "info string error move 1 of the list: move '99-98': "
                                      "'99' is not a square of international"),
    ("setoption name Hash value 0", "info string error option Hash must be between 1 and 65536, not 0"),
    ("setoption name Hash value big", "info string error option Hash needs a number, not 'big'"),
    ("setoption name Colour value red", "info string error unknown option 'Colour'"),
    ("setoption Hash 5", "info string error setoption needs 'name <option> [value <value>]'"),
    ("setoption name UCI_Variant value chess",
     "info string error unknown variant 'chess' (known: international spanish checkers chapinas "
     "turkish gothic-checkers brazilian russian pool czech thai italian killer antidraughts breakthrough "
     "frisian frysk canadian dipole dipole10 superajedrez superdimensiones)"),
    ("go depth", "info string error go depth needs a value"),
    ("go depth x", "info string error go depth needs a number, not 'x'"),
    ("go sideways 3", "info string error unknown go parameter 'sideways'"),
    ("go nodes -5", "info string error go nodes must not be negative"),
    ("go depth 0", "info string error go depth must be 1 or more"),
    ("go depth 500", "info string error go depth must be at most 126, not 500"),
    ("go mate 100", "info string error go mate must be at most 62, not 100"),
    ("go wtime " + "9" * 30, "info string error go wtime needs a number, not '" + "9" * 30 + "'"),
    ("go movetime " + "1" * 50, "info string error go movetime needs a number, not '" + "1" * 40
     + "'... (50 characters)"),
    ("go perft 65", "info string error go perft must be at most 64, not 65"),
    ("setoption name Hash value " + "9" * 25, "info string error option Hash needs a number, not '"
     + "9" * 25 + "'"),
    # Numbers are ASCII digits only: int() reads other scripts' digits, '1_0' and '+5'.
    ("go depth \u0663", "info string error go depth needs a number, not '\u0663'"),
    ("go movetime 1_000", "info string error go movetime needs a number, not '1_000'"),
    ("setoption name Hash value \uff15", "info string error option Hash needs a number, not "
     "'\uff15'"),
    ("position fen W:W3\u00b2:B1", "info string error FEN 'W:W3\u00b2:B1': '3\u00b2' is not a "
     "square of international"),
]


def test_search_switches_reach_the_engine(uci):
    for name, attribute in (("Reductions", "reductions"), ("NullMove", "null_move"),
                            ("ProbCut", "probcut"), ("EarlyReductions", "early_reductions"),
                            ("QsPromotions", "qs_promotions"), ("QsExchanges", "qs_exchanges")):
        before = getattr(uci.session.engine, attribute)
        assert uci.send(f"setoption name {name} value {str(not before).lower()}") == []
        assert getattr(uci.session.engine, attribute) is (not before)
        assert uci.send(f"setoption name {name} value maybe") == [
            f"info string error option {name} takes true or false, not 'maybe'"]
        assert getattr(uci.session.engine, attribute) is (not before)


@pytest.mark.parametrize("command,answer", ERRORS)
def test_errors_leave_the_position_as_it_was(uci, command, answer):
    uci.send("position startpos moves 32-28")
    before = fen_of(uci)
    assert uci.send(command) == [answer]
    assert fen_of(uci) == before
    assert uci.send("isready") == ["readyok"]


def test_never_dies_on_garbage(uci):
    for line in ["\x00\x01", "position fen", "go " * 50, "setoption name", "ucinewgame extra",
                 "position startpos moves", "é" * 10, "go perft -1"]:
        uci.send(line)
    assert uci.send("isready") == ["readyok"]


def test_go_perft_runs_in_the_background_and_stops(uci):
    uci.send("position startpos")
    uci.send("go perft 12", wait=False)                  # hours: it must be stoppable
    assert uci.send("isready", wait=False) == ["readyok"]
    start = time.perf_counter()
    lines = uci.send("stop")
    assert lines[-1] == "info string perft stopped"
    assert time.perf_counter() - start < 10             # generous: it stops within milliseconds
    assert uci.send("go perft 2") [-1] == "Nodes searched: 81"


def test_hash_larger_than_the_machine_keeps_the_old_table(uci, monkeypatch):
    import engine.protocol
    monkeypatch.setattr(engine.protocol, "physical_memory_mb", lambda: 100)
    assert uci.send("setoption name Hash value 200") == [
        "info string error a 200 MB hash table does not fit in this machine's 100 MB of memory; "
        "keeping 64 MB"]
    assert uci.session.hash_mb == 64 and uci.session.engine.hash_mb == 64
    assert uci.send("setoption name Hash value 2") == []
    assert uci.session.engine.hash_mb == 2
    assert uci.send("position startpos", "go depth 3")[-1].startswith("bestmove ")


def test_hash_that_cannot_be_allocated_keeps_the_old_table():
    # The reproduction: an address-space limit below the table asked for.
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
    out = subprocess.run([sys.executable, "-m", "engine", "uci"], preexec_fn=limit,
                         input="uci\nsetoption name Hash value 8192\nposition startpos\n"
                               "go depth 2\nisready\n", capture_output=True, text=True, timeout=60)
    lines = out.stdout.splitlines()
    assert out.returncode == 0 and "readyok" in lines
    assert "info string error cannot allocate a 8192 MB hash table; keeping 64 MB" in lines
    assert any(line.startswith("bestmove ") for line in lines)


def run_process(data: bytes, **env):
    import os
    return subprocess.run([sys.executable, "-m", "engine", "uci"], input=data, capture_output=True,
                          timeout=60, env=dict(os.environ, **env))


def test_process_survives_bad_bytes_under_a_strict_locale():
    out = run_process(b"uci\n\xff\n\xc3\n" + b"x" * 70000 + b"\nisready\n",
                      PYTHONIOENCODING="utf-8:strict")
    lines = out.stdout.decode().splitlines()
    assert out.returncode == 0 and lines[-1] == "readyok"
    assert "info string error line is not UTF-8 (byte 0xff at 0); ignored" in lines
    assert "info string error line is not UTF-8 (byte 0xc3 at 0); ignored" in lines
    assert "info string error line of 70001 bytes refused (the limit is 65536)" in lines


@pytest.mark.parametrize("go", ["go infinite", "go ponder movetime 1000", "go perft 14"])
def test_end_of_input_ends_whatever_runs(go):
    # A GUI that dies closes our input: the process must not be left behind.
    start = time.perf_counter()
    out = run_process(f"uci\nposition startpos\n{go}\n".encode())
    assert out.returncode == 0 and b"uciok" in out.stdout
    assert time.perf_counter() - start < 30             # generous; it takes about a second


def test_process_with_python_chess_client():
    import chess.engine as chess_engine
    engine = chess_engine.SimpleEngine.popen_uci([sys.executable, "-m", "engine", "uci"])
    try:
        assert engine.id["name"] == "Dimensiones 0.1.0"
        assert set(engine.options) >= {"Hash", "MultiPV", "UCI_Variant"}
        assert engine.options["UCI_Variant"].var[:3] == ["international", "spanish", "checkers"]
        assert engine.options["Hash"].default == 64
    finally:
        engine.quit()


def test_process_end_of_input_quits():
    out = subprocess.run([sys.executable, "-m", "engine", "uci"], input="uci\nposition startpos\n"
                         "go depth 2\n", capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    assert "uciok" in out.stdout


def test_dipole_over_uci(uci):
    uci.send("setoption name UCI_Variant value dipole", "position startpos moves e1-e5 d8-d4")
    assert fen_of(uci) == "W:We1.8,e5.4:Bd4.4,d8.8"
    lines = uci.send("go depth 3")
    assert lines[-1].startswith("bestmove ")
    assert uci.send("position startpos moves e1-off3") == [
        "info string error move 1 of the list: 'e1-off3' is not a legal move in W:We1.12:Bd8.12"]


def test_a_line_is_stamped_when_it_arrives_not_when_its_turn_comes():
    """A move's time counts from the arrival of its `go`: a slow `position` before it (a long
    game replayed on a busy machine) is not time the engine may add to its budget."""
    handled = []

    class Probe(UciSession):
        def handle_line(self, line):
            handled.append((line.strip(), self.received, time.monotonic()))
            if line.startswith("position"):
                time.sleep(0.5)
            super().handle_line(line)

    Probe(out=io.StringIO()).loop(io.BytesIO(b"position startpos\nisready\nquit\n"))
    (first, _, began), (second, stamp, taken) = handled[:2]
    assert (first, second) == ("position startpos", "isready")
    assert taken >= began + 0.5                   # handled after the position's half second...
    assert stamp < began + 0.5                    # ...but stamped when it was read, during it


@pytest.mark.parametrize("protocol,greeting", [("uci", "uci\nisready\n"), ("hub", "hub\ninit\n")])
def test_quit_ends_the_process_cleanly_while_its_input_stays_open(protocol, greeting):
    # The input's reader thread is blocked in a read when `quit` ends the process: the exit must
    # not wait for it, nor abort on the lock it holds (exit code 134, "Fatal Python error").
    proc = subprocess.Popen([sys.executable, "-m", "engine", protocol], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdin.write(greeting)
    proc.stdin.flush()
    answer = "readyok" if protocol == "uci" else "ready"
    for _ in range(200):                          # the greeting's lines, then the answer
        if proc.stdout.readline().strip() == answer:
            break
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    try:
        code = proc.wait(60)
    finally:
        proc.kill()
        proc.stdin.close()
    assert code == 0, proc.stderr.read()
    assert "Fatal" not in proc.stderr.read()


def test_unicode_digits_in_every_game_are_error_lines(uci):
    cases = {"dipole": "W:We\u00b2.1:Bd8.12", "chapinas": "B:W1.\u00b2:B50.4",
             "superajedrez": "4k2\u00b2/8/8/8/8/8/8/4K3[] w - - 0 1",
             "superdimensiones": "dcdcdc/cdcdcd/6/6/bababa/ababab a MCAWR - 0\u00b2 0"}
    for variant, fen in cases.items():
        uci.send(f"setoption name UCI_Variant value {variant}", "position startpos")
        before = fen_of(uci)
        answer = uci.send(f"position fen {fen}")
        assert len(answer) == 1 and answer[0].startswith("info string error FEN "), answer
        assert fen_of(uci) == before and uci.send("isready") == ["readyok"]


def _interrupted_uci(commands: str, sig):
    import signal
    process = subprocess.Popen([sys.executable, "-m", "engine", "uci"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    process.stdin.write(commands.encode())
    process.stdin.flush()
    # Wait until the search runs (its first info line), then interrupt it.
    while not process.stdout.readline().startswith(b"info depth"):
        pass
    process.send_signal(sig)
    try:
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    return process.returncode, err


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM"])
def test_an_interrupt_during_a_search_stops_it_before_exiting(name):
    """Ctrl-C during `go infinite` once ended in a crash (the search threads still ran while
    the interpreter shut down): the search is stopped and joined first."""
    import signal
    for _ in range(3):
        code, err = _interrupted_uci("uci\nsetoption name Threads value 2\nposition startpos\n"
                                     "go infinite\n", getattr(signal, name))
        assert code == 130 and err == b"", (code, err[-500:])


def test_a_closed_output_ends_the_session_quietly():
    import os
    reading, writing = os.pipe()
    process = subprocess.Popen([sys.executable, "-m", "engine", "uci"], stdin=subprocess.PIPE,
                               stdout=writing, stderr=subprocess.PIPE)
    os.close(writing)
    os.close(reading)                    # nobody will read what the engine writes
    try:
        process.stdin.write(b"uci\nisready\ngo depth 30\n")
        process.stdin.flush()
    except BrokenPipeError:
        pass                             # it may have gone already
    _, err = process.communicate(timeout=60)
    assert process.returncode == 0 and err == b"", err[-500:]
