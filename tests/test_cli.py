"""The command line, run as a user would: python -m engine ..."""

import json
import re
import subprocess
import sys

import engine
from engine import openings


def run(*args):
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True,
                          timeout=120)


def test_perft_prints_count_last_with_speed():
    out = run("perft", "--variant", "international", "6")
    assert out.returncode == 0, out.stderr
    last = out.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"167140 leaves in \d+\.\d{3} s \([\d.]+ M leaves/s\)", last), last


def test_perft_divide_and_fen():
    out = run("perft", "-v", "international", "--fen", "W:WK31-K50:BK1-K20", "--divide", "2")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 18 and lines[-1].startswith("79 leaves")
    assert sum(int(line.split()[1]) for line in lines[:-1]) == 79


def test_perft_all_depths():
    out = run("perft", "-v", "checkers", "--all-depths", "3")
    lines = out.stdout.strip().splitlines()
    assert lines[0].startswith("depth 1: 7 leaves") and lines[1].startswith("depth 2: 49 leaves")
    assert lines[2].startswith("302 leaves")


def test_moves_command_shows_board_and_outcome():
    out = run("moves", "-v", "international", "--fen", "W:W46:B37,41")
    assert out.returncode == 0
    assert "0 legal moves" in out.stdout and "game over: 0-1 (no legal move)" in out.stdout


def test_variants_command():
    out = run("variants")
    assert [line.split()[0] for line in out.stdout.splitlines()] == [
        "international", "spanish", "checkers", "chapinas", "turkish", "gothic-checkers",
        "brazilian", "russian", "pool", "czech", "thai", "italian", "killer", "antidraughts", "breakthrough",
        "frisian", "frysk", "canadian", "dipole", "dipole10", "superajedrez", "superdimensiones"]


def test_help_explains_every_command():
    from engine.cli import build_parser
    out = run("--help")
    assert out.returncode == 0
    commands = build_parser()._subparsers._group_actions[0].choices
    block = out.stdout.split("commands:\n")[1].split("\n\n")[0]
    listed = {line.split()[0] for line in block.splitlines()}
    # Every command is listed by name (analyze is analyse's other spelling).
    assert listed == set(commands) - {"analyze"}, listed ^ set(commands)
    out = run("perft", "--help")
    assert "--divide" in out.stdout and "--fen" in out.stdout and "DEPTH" in out.stdout
    for command, parser in commands.items():
        text = parser.format_help()
        assert "%%" not in text and "%(" not in text, command
    assert "95% interval" in commands["match"].format_help()


def test_the_examples_of_the_help_work(tmp_path):
    out = subprocess.run([sys.executable, "-m", "engine", "show", "--variant", "international",
                          "--moves", "32-28 19-23", "--svg", "board.svg"],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "board.svg").read_text().startswith("<svg")
    out = run("show", "--variant", "international", "--moves", "32-28 32-28")
    assert out.returncode == 2 and out.stderr.startswith("error: --moves, move 2: ")


def test_times_are_seconds_everywhere(capsys):
    import pytest
    from engine.cli import main
    for text in ("0.3", "300ms", "0.3s"):
        assert main(["analyse", "-v", "checkers", "--movetime", text]) == 0
        assert capsys.readouterr().out.strip().splitlines()[-1].startswith("bestmove ")
    # The old spelling of analyse and solve (milliseconds) is refused, not read as seconds.
    for command in ("analyse", "solve", "annotate"):
        extra = ["games.pdn"] if command == "annotate" else []
        with pytest.raises(SystemExit) as exit_:
            main([command, *extra, "--movetime", "2000"])
        said = capsys.readouterr().err
        assert exit_.value.code == 2 and "Times are in seconds" in said
        assert "write 2 for 2000 ms, or 2000s" in said
    for text in ("0", "-1", "nan", "inf", "1e999", "\u0663", "5\u00b2"):
        with pytest.raises(SystemExit):
            main(["analyse", "--movetime", text])
        assert "a time is a positive number of seconds" in capsys.readouterr().err, text
    assert main(["match", "--tc", "\u0663"]) == 2
    assert "time control" in capsys.readouterr().err


def test_bad_input_gives_a_clear_error():
    out = run("perft", "--fen", "W:W31:Bx", "3")
    assert out.returncode == 2 and out.stderr.startswith("error: FEN 'W:W31:Bx'")
    out = run("perft", "-v", "chess", "3")
    assert out.returncode == 2 and "invalid choice: 'chess'" in out.stderr
    out = run("perft", "-1")
    assert out.returncode == 2
    out = run()
    assert out.returncode == 2 and "commands:" in out.stdout


def test_analyse_prints_iterations_then_the_best_move():
    out = run("analyse", "-v", "checkers", "--depth", "6")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert [line.split()[2] for line in lines[:-1]] == ["1", "2", "3", "4", "5", "6"]
    assert all(line.startswith("info depth ") for line in lines[:-1])
    assert lines[-1].startswith("bestmove ")


def test_analyse_multipv_and_no_move():
    out = run("analyse", "--depth", "3", "--multipv", "2")
    assert out.stdout.count("multipv 1") == 3 and out.stdout.count("multipv 2") == 3
    out = run("analyse", "--fen", "W:W46:B37,41", "--depth", "3")
    assert out.stdout.strip() == "bestmove (none): the side to move has no legal move"


# The bench's node count at its default depth: a change to the search, the move ordering or a
# shipped evaluation changes it, and must change this figure with it, on purpose.
BENCH_SIGNATURE = 16_554_309


def test_bench_signature_is_pinned():
    from engine.bench import run_bench
    nodes, _ = run_bench(report=None)
    assert nodes == BENCH_SIGNATURE


def test_bench_prints_a_deterministic_signature():
    first = run("bench", "--depth", "5")
    second = run("bench", "--depth", "5")
    assert first.returncode == 0, first.stderr
    sig1 = first.stdout.strip().splitlines()[-1].split()[0]
    sig2 = second.stdout.strip().splitlines()[-1].split()[0]
    assert sig1 == sig2 and int(sig1) > 1000
    assert len(first.stdout.strip().splitlines()) == 21       # 20 positions and the total


def test_match_command_runs_and_summarises(tmp_path):
    pdn_path = tmp_path / "m.pdn"
    results = tmp_path / "m.json"
    out = run("match", "--games", "2", "--tc", "0.02", "--tolerance", "5", "--pdn", str(pdn_path),
              "--sprt", "0", "10", "--results", str(results))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    doc = json.loads(results.read_text())
    assert [e["name"] for e in doc["engines"]] == ["dimensiones-1", "dimensiones-2"]
    assert doc["variant"] == "international" and doc["games_planned"] == 2 and len(doc["games"]) == 2
    first = doc["first_engine"]
    assert first["wins"] + first["draws"] + first["losses"] == 2 and sum(doc["pentanomial"]) == 1
    assert doc["elo"]["pairs"] == 1 and doc["elo"]["text"] in out.stdout
    assert doc["sprt"]["elo1"] == 10 and doc["sprt"]["verdict"] == "continue"
    for game in doc["games"]:
        board = engine.Board("international", game["opening"])
        for move in game["moves"]:
            board.push(move)                                       # the moves replay
        assert game["result"] in ("1-0", "0-1", "1/2-1/2")
    game_lines = [line for line in lines if line.startswith("game ")]
    assert "ETA" in game_lines[0] and "ETA" not in game_lines[-1]     # nothing left at the end
    assert lines[1].startswith("dimensiones-1 vs dimensiones-2, international, 2 games, 0.02s/move")
    assert sum(line.startswith("game ") for line in lines) == 2
    summary = lines[lines.index(next(l for l in lines if l.startswith("dimensiones-1 vs dimensiones-2: "))):]
    assert summary[0].startswith("dimensiones-1 vs dimensiones-2: 2 games, +")
    assert summary[1].startswith("pairs (LL, LD, DD/WL, WD, WW): ")
    # "(1 pair)" or, when one engine won both games, "(95 %; 1 pair, all won)"
    assert any(line.startswith("Elo ") and "1 pair" in line and "nElo" in line for line in summary)
    assert summary[-1].startswith("SPRT: LLR ")
    assert pdn_path.read_text().count("[Event ") == 2


def test_match_plays_the_three_move_ballots(tmp_path):
    results = tmp_path / "m.json"
    out = run("match", "--variant", "checkers", "--games", "4", "--tc", "0.02", "--tolerance", "5",
              "--openings", "acf-3move", "--openings-order", "random", "--seed", "7",
              "--results", str(results))
    assert out.returncode == 0, out.stderr
    games = json.loads(results.read_text())["games"]
    deck = openings.load("acf-3move", "checkers")
    expected = openings.schedule(deck, 2, "random", 7)
    # Two ballots, each played twice with colours swapped, drawn from the shuffled deck.
    assert [g["opening"] for g in games] == [expected[0], expected[0], expected[1], expected[1]]
    out = run("match", "--variant", "checkers", "--openings", "no-such-set")
    assert out.returncode == 2 and "acf-3move" in out.stderr


def test_version():
    out = run("--version")
    assert out.returncode == 0 and out.stdout.strip() == f"Dimensiones {engine.__version__}"


def test_match_command_errors():
    out = run("match", "--tc", "fast")
    assert out.returncode == 2 and "time control 'fast'" in out.stderr
    out = run("match", "--engine", "a", "--engine", "b", "--engine", "c")
    assert out.returncode == 2 and "two engines" in out.stderr
    out = run("match", "--variant", "chapinas", "--engine", "hub:dame hub")
    assert out.returncode == 2 and "Hub protocol" in out.stderr
