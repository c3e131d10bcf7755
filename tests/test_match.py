"""The match runner: complete matches, forfeits by broken engines, records; the statistics
themselves are checked in test_stats.py."""

import json
import shlex
import sys
import time
from pathlib import Path

import pytest

import engine
from engine.clients import MATE_SCORE, read_hub_score, read_uci_score
from engine.match import (Adjudication, EngineSpec, Match, TimeControl, default_engine_command,
                          parse_time_control, pdn, summary)
from engine.stats import elo_estimate

BROKEN = Path(__file__).with_name("broken_engine.py")
OPENINGS = ["W:W31-50:B1-20", "B:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,28:"
            "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"]


def ours(protocol="uci"):
    if protocol == "hub":
        return EngineSpec.parse(f"hub:{shlex.quote(sys.executable)} -m engine hub")
    return EngineSpec.parse(default_engine_command())


def test_a_short_match_accounts_for_every_game(tmp_path):
    path = tmp_path / "games.pdn"
    lines = []
    # A generous tolerance: on a loaded machine a 0.02 s move can take ten times longer.
    match = Match([ours(), ours()], "international", TimeControl(movetime=0.02, tolerance=5),
                  OPENINGS, concurrency=2, pdn_path=str(path), report=lines.append)
    result = match.run()
    assert result.played == 4 and len(result.games) == 4 and len(lines) == 4
    assert result.wins + result.draws + result.losses == 4 and sum(result.pentanomial) == 2
    assert not result.forfeits
    assert sorted(g.number for g in result.games) == [1, 2, 3, 4]
    for game in result.games:
        assert game.result in ("1-0", "0-1", "1/2-1/2") and game.termination
        board = engine.Board("international", game.opening)
        for move in game.moves:                         # the record replays legally to its end
            board.push(str(move))
        assert board.outcome() is not None and board.result() == game.result
        # The time of every move, from its `go` to the answer's arrival, within the allowance.
        assert len(game.times) == len(game.moves) and all(0 <= t < 5.02 for t in game.times)
    text = path.read_text()
    assert text.count("[Event ") == 4 and '[Variant "international"]' in text
    assert text.count('[White "dimensiones-1"]') == 2
    # The last running line and the summary give the same Elo, from the same two pairs.
    elo = elo_estimate(result.pentanomial).text()
    assert "(2 pairs)" in elo or "2 pairs, all" in elo
    assert lines[-1].endswith(elo)
    assert any(line.startswith(elo) for line in summary(result))


def test_clock_time_control_and_checkers():
    match = Match([ours(), ours()], "checkers", parse_time_control("1+0.01"), ["B:W21-32:B1-12"],
                  report=None)
    result = match.run()
    assert result.played == 2 and not result.forfeits


@pytest.mark.parametrize("mode,reason", [
    ("crash", "the engine exited"),
    ("hang", "no answer in time"),
    ("nonsense", "illegal move 'hello'"),
    ("illegal", "illegal move '46-41'"),
    ("late", "no answer in time"),
    ("bytes", "illegal move '46-41'"),                   # bad bytes do not stop the reader
    ("flood", "a line of over 1048576 characters"),     # kept from the referee's memory
])
def test_broken_engines_forfeit_and_the_match_goes_on(mode, reason):
    broken = EngineSpec(f"{sys.executable} {BROKEN} {mode}", "uci", "broken")
    lines = []
    # The late engine answers after 2 s; 1 s of tolerance keeps ours safe on a loaded machine.
    match = Match([ours(), broken], "international", TimeControl(movetime=0.05, tolerance=1.0),
                  OPENINGS, report=lines.append)
    result = match.run()
    assert result.played == 4 and result.wins == 4
    assert result.forfeits == {"broken": 4}
    assert all(reason in game.termination for game in result.games)
    assert all(game.termination.startswith("broken forfeits") for game in result.games)


def test_an_engine_that_cannot_start_stops_the_match():
    # Its games would be forfeits and the Elo "+inf": the match stops with the reason instead.
    missing = EngineSpec("/nonexistent/engine", "uci", "ghost")
    lines = []
    with pytest.raises(engine.EngineError, match=r"engine ghost \(/nonexistent/engine\) could not "
                       r"start: cannot start '/nonexistent/engine'"):
        Match([ours(), missing], "international", TimeControl(movetime=0.02), OPENINGS[:1],
              report=lines.append).run()
    assert lines == []


def test_an_engine_failing_its_handshake_stops_the_match_with_its_error():
    refusing = EngineSpec(f"{sys.executable} {BROKEN} refuse", "uci", "refuser")
    with pytest.raises(engine.EngineError, match=r"could not start: the engine exited \(code 1\): "
                       r"unknown variant: international"):
        Match([ours(), refusing], "international", TimeControl(movetime=0.02), OPENINGS[:1],
              report=None).run()


def test_hub_variant_names_come_from_the_engine_declaration():
    from engine.clients import EngineFailure, hub_variant_name
    scan = ['id name=Scan version=3.1', 'param name=variant value=normal type=enum '
            'values="normal killer bt frisian losing"', "wait"]
    assert hub_variant_name("international", scan) == "normal"
    with pytest.raises(EngineFailure, match="the engine's variants are normal killer bt frisian "
                       "losing; none of them is spanish"):
        hub_variant_name("spanish", scan)
    ours_hub = ['param name=variant value=international type=enum values="international spanish"']
    assert hub_variant_name("spanish", ours_hub) == "spanish"
    assert hub_variant_name("international", ["wait"]) is None          # nothing to send
    with pytest.raises(EngineFailure, match="declares no variant parameter"):
        hub_variant_name("checkers", ["wait"])


def test_each_protocol_has_its_client():
    from engine.clients import HubClient, UciClient, connect
    assert type(connect(EngineSpec.parse("hub:scan hub"), "international")) is HubClient
    assert type(connect(EngineSpec.parse("stockfish"), "international")) is UciClient
    with pytest.raises(engine.EngineError, match="unknown protocol 'xboard' .known: uci, hub."):
        connect(EngineSpec("gnuchess", "xboard"), "international")


def test_match_against_our_own_hub_engine():
    hub = EngineSpec(f"{sys.executable} -m engine hub", "hub", "hub")
    result = Match([ours(), hub], "international", TimeControl(movetime=0.02, tolerance=5),
                   OPENINGS[:1], report=None).run()
    assert result.played == 2 and not result.forfeits


def test_time_control_parsing():
    assert parse_time_control("0.5").movetime == 0.5
    tc = parse_time_control("10+0.1")
    assert tc.base == 10 and tc.inc == 0.1 and str(tc) == "10+0.1"
    tc = parse_time_control("nodes=5000")
    assert tc.nodes == 5000 and str(tc) == "5000 nodes/move"
    for bad in ("x", "0", "-1+0", "1+x", "nan", "inf+0", "nodes=0", "nodes=-5", "nodes=1e4",
                "nodes="):
        with pytest.raises(engine.EngineError):
            parse_time_control(bad)


@pytest.mark.parametrize("protocol", ["uci", "hub"])
def test_node_limited_games_are_the_same_each_time(protocol):
    # A fixed number of nodes a move makes a game independent of time and load: the same
    # opening gives the same game twice, through either protocol.
    spec = ours(protocol)
    games = []
    for _ in range(2):
        match = Match([spec, spec], "international", parse_time_control("nodes=3000"),
                      OPENINGS[:1], report=None)
        result = match.run()
        assert result.played == 2 and not result.forfeits
        games.append([[str(m) for m in g.moves] for g in result.games])
    assert games[0] == games[1] and len(games[0][0]) > 10


def test_pdn_record_format():
    from engine.match import GameRecord
    board = engine.Board("checkers")
    moves = [board.push("11-15"), board.push("23-19")]
    text = pdn(GameRecord(7, "a", "b", "B:W21-32:B1-12", moves, "1/2-1/2", "agreed"), "checkers", "E")
    assert '[Round "7"]' in text and '[Result "1/2-1/2"]' in text
    assert text.rstrip().endswith("1. 11-15 23-19 1/2-1/2")
    text = pdn(GameRecord(1, "a", "b", "W:W31-50:B1-20", [], "1-0", "x"), "international", "E")
    assert '[Result "2-0"]' in text
    board = engine.Board("international")
    moves = [board.push("32-28")]
    text = pdn(GameRecord(2, "a", "b", board.fen(), [board.push("19-23")], "1-0", "x"),
               "international", "E")
    assert text.rstrip().endswith("1... 19-23 2-0")


def test_pdn_record_keeps_each_moves_score_and_time_as_a_comment():
    from engine.match import GameRecord
    from engine.pdn import read_game
    board = engine.Board("international")
    moves = [board.push(m) for m in ("32-28", "19-23", "28x19")]
    record = GameRecord(3, "a", "b", engine.Board("international").fen(), moves, "1-0", "x",
                        times=[0.1234, 0.5, 0.25], scores=[12, None, MATE_SCORE - 4])
    text = pdn(record, "international", "E")
    # The one writer's style (python-chess's): the number again after a comment.
    assert "1. 32-28 {+0.12 0.12s} 1... 19-23 {0.50s} 2. 28x19 {+M4 0.25s} 2-0" in text
    # A reader of the file sees the moves, each with its comment.
    game = read_game(text)
    assert [str(n.move) for n in game.mainline] == ["32-28", "19-23", "28x19"]
    assert [n.comment for n in game.mainline] == ["+0.12 0.12s", "0.50s", "+M4 0.25s"]


def test_engine_options_reach_the_engine():
    spec = ours()
    spec.options["Reductions"] = "false"
    spec.options["Hash"] = "4"
    result = Match([spec, ours()], "checkers", TimeControl(movetime=0.02, tolerance=5), ["B:W21-32:B1-12"],
                   report=None).run()
    assert result.played == 2 and not result.forfeits
    bad = ours()
    bad.options["Hash"] = "0"                     # refused by the engine, which plays on
    result = Match([bad, ours()], "checkers", TimeControl(movetime=0.02, tolerance=5), ["B:W21-32:B1-12"],
                   report=None).run()
    assert result.played == 2 and not result.forfeits


def test_dipole_match_over_uci(tmp_path):
    path = tmp_path / "dipole.pdn"
    result = Match([ours(), ours()], "dipole", TimeControl(movetime=0.02, tolerance=5), ["W:We1.12:Bd8.12"],
                   pdn_path=str(path), report=None).run()
    assert result.played == 2 and result.draws == 0 and not result.forfeits
    assert path.read_text().count('[Variant "dipole"]') == 2


SCORED = Path(__file__).with_name("scored_engine.py")
START = engine.Board("international").fen()


def scored(mode, score=0):
    return EngineSpec.parse(f"{shlex.quote(sys.executable)} {shlex.quote(str(SCORED))} {mode} {score}")


def adjudicated_game(specs, rules):
    """One game from the start, White the first spec, refereed with `rules`."""
    match = Match(specs, "international", TimeControl(movetime=5, tolerance=5), [START],
                  report=None, adjudication=rules)
    result = match.run()
    game = min(result.games, key=lambda g: g.number)
    return result, game


def test_both_engines_agreeing_on_a_win_end_the_game():
    result, game = adjudicated_game([scored("white", 500), scored("white", 500)],
                                    Adjudication(resign=(3, 400)))
    # Three moves of each side, every score beyond 400 for White from its mover's view.
    assert len(game.moves) == 6 and game.scores == [500, -500] * 3
    assert game.result == "1-0" and game.adjudicated
    assert game.termination == "adjudicated: both scores give White 400+ for 3 moves"
    assert result.adjudicated == 2 and "adjudicated: 2 game(s), 2 of them won" in summary(result)
    # A margin just out of reach: no verdict, and the game runs to the ply limit.
    _, game = adjudicated_game([scored("white", 399), scored("white", 399)],
                               Adjudication(max_plies=9, resign=(3, 400)))
    assert len(game.moves) == 9 and game.result == "1/2-1/2"
    assert game.termination == "adjudicated draw at 9 plies"


def test_a_lone_engine_cannot_win_by_adjudication():
    # Each engine says it is winning: they disagree, so only the ply limit ends the game.
    _, game = adjudicated_game([scored("mover", 800), scored("mover", 800)],
                               Adjudication(max_plies=12, resign=(2, 100)))
    assert len(game.moves) == 12 and game.result == "1/2-1/2" and game.adjudicated


def test_level_scores_draw_after_the_given_move():
    # Level for 3 moves each, but not before each side has played 5.
    _, game = adjudicated_game([scored("white", 10), scored("white", -10)],
                               Adjudication(draw=(5, 3, 10)))
    assert len(game.moves) == 10 and game.result == "1/2-1/2"
    assert game.termination == "adjudicated draw: both scores within 10 for 3 moves"
    # One engine's scores beyond the window: no draw before the ply limit.
    _, game = adjudicated_game([scored("white", 11), scored("white", 0)],
                               Adjudication(max_plies=14, draw=(0, 2, 10)))
    assert len(game.moves) == 14 and game.termination == "adjudicated draw at 14 plies"


def test_moves_without_scores_are_never_adjudicated_by_score():
    _, game = adjudicated_game([scored("silent"), scored("silent")],
                               Adjudication(max_plies=8, draw=(0, 1, 1000), resign=(1, 1)))
    assert game.scores == [None] * 8 and game.termination == "adjudicated draw at 8 plies"


def test_scores_are_read_from_both_protocols():
    assert read_uci_score("info depth 3 seldepth 9 score cp -12 nodes 5 pv 34-30", None) == -12
    assert read_uci_score("info depth 9 score mate 3 pv 34-30", 7) == MATE_SCORE - 3
    assert read_uci_score("info depth 9 score mate -2", None) == -(MATE_SCORE - 2)
    assert read_uci_score("info depth 9 score cp x", 7) == 7   # unreadable: the last one stays
    assert read_uci_score("info string hello", 7) == 7
    assert read_hub_score('info depth=4 mean-depth=9 score=-0.01 nodes=803 pv="34-30"', None) == -1
    assert read_hub_score("info depth=20 score=99.97", None) == 9997  # Hub's forced win
    assert read_hub_score("info depth=4 score=nan", 5) == 5
    assert read_hub_score("info depth=4 score=abc", 5) == 5


@pytest.mark.parametrize("rules", [dict(max_plies=0), dict(draw=(0, 0, 10)), dict(draw=(0, 1, -1)),
                                   dict(resign=(0, 100)), dict(resign=(3, 0))])
def test_adjudication_rules_out_of_range_are_refused(rules):
    with pytest.raises(engine.EngineError):
        Adjudication(**rules)


def test_adjudication_from_the_command_line(tmp_path, capsys):
    from engine.cli import main
    results = tmp_path / "r.json"
    white = f"{shlex.quote(sys.executable)} {shlex.quote(str(SCORED))} white 700"
    assert main(["match", "--engine", white, "--engine", white, "--games", "2", "--tc", "5",
                 "--tolerance", "5", "--random-plies", "2", "--resign", "2", "600",
                 "--results", str(results)]) == 0
    out = capsys.readouterr().out
    assert "adjudication: win when both scores give one side 600+ for 2 moves" in out
    doc = json.loads(results.read_text())
    assert doc["adjudicated"] == 2 and all(g["adjudicated"] for g in doc["games"])
    assert all(len(g["moves"]) == 4 and g["result"] == "1-0" for g in doc["games"])
    # Refused before an engine starts or an opening is chosen.
    assert main(["match", "--engine", white, "--engine", white, "--max-plies", "0"]) != 0
    captured = capsys.readouterr()
    assert "adjudication after 0 plies: give 1 or more" in captured.err and not captured.out


def test_an_engine_behind_a_shell_leaves_no_process_behind(tmp_path):
    """An engine started through `sh -c` that hangs: its own process (the shell's child) is
    ended with its process group when the match ends, not only the shell."""
    pids = tmp_path / "pids"
    # The shell runs the engine as its child and waits for it: killing the shell alone would
    # leave the engine running.
    command = f"sh -c 'echo $$ >> {pids}; {sys.executable} {BROKEN} hang {pids}; true'"
    hanging = EngineSpec(command, "uci", "hanging")
    match = Match([ours(), hanging], "international", TimeControl(movetime=0.05, tolerance=0.5),
                  OPENINGS[:1], report=None)
    result = match.run()
    assert result.forfeits == {"hanging": 2}
    started = [int(line) for line in pids.read_text().split()]
    assert len(started) >= 4                          # two starts (one restart): shell and engine
    deadline = time.monotonic() + 10
    alive = started
    while alive and time.monotonic() < deadline:
        alive = [pid for pid in started if _running(pid)]
        time.sleep(0.1)
    assert alive == []


def _running(pid: int) -> bool:
    """Whether the process exists and is no zombie."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_an_interrupted_match_ends_its_engines(tmp_path):
    """Engines run in process groups of their own, out of reach of the terminal's Ctrl-C: the
    referee ends them when it is interrupted."""
    import signal
    import subprocess
    pids = tmp_path / "pids"
    hanging = f"sh -c '{sys.executable} {BROKEN} hang {pids}; true'"
    referee = subprocess.Popen([sys.executable, "-m", "engine", "match", "--engine", hanging,
                                "--engine", hanging, "--tc", "30", "--games", "2"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 60
        while (not pids.exists() or len(pids.read_text().split()) < 2) and time.monotonic() < deadline:
            time.sleep(0.1)
        started = [int(p) for p in pids.read_text().split()]
        assert len(started) == 2
        referee.send_signal(signal.SIGINT)
        referee.communicate(timeout=30)
        assert referee.returncode == 130
        deadline = time.monotonic() + 10
        while any(_running(p) for p in started) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_running(p) for p in started)
    finally:
        referee.kill()
