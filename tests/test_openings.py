"""Openings for matches (engine.openings): files, EPD lines, the shipped ACF three-move ballots,
plies-N sets, random balanced openings and the order they are played in."""

import random
import subprocess
import sys

import pytest

import engine
from engine import openings
from engine.openings import load, random_openings, read_openings, schedule


def after(variant, moves):
    board = engine.Board(variant)
    for move in moves.split():
        board.push(move)
    return board.fen()


def test_openings_file_and_random_openings(tmp_path):
    path = tmp_path / "openings.txt"
    path.write_text("# two openings\nW:W31-50:B1-20\n\nB:W28,31-50:B1-20\n")
    with pytest.raises(engine.EngineError, match=r"openings.txt:4"):
        read_openings(str(path), "international")
    path.write_text("W:W31-50:B1-20\nB:W28,31,33-50:B1-20\n")
    assert len(read_openings(str(path), "international")) == 2
    ballots = tmp_path / "ballots.pdn"                 # checkers' three-move ballots, as PDN
    ballots.write_text('[Event "ballot 1"]\n1. 9-13 21-17 2. 5-9 *\n\n'
                       '[Event "ballot 2"]\n1. 9-14 22-18 2. 5-9 *\n')
    fens = read_openings(str(ballots), "checkers")
    assert len(fens) == 2 and fens[0] == after("checkers", "9-13 21-17 5-9") and fens[0].startswith("W:")
    ballots.write_text('[Event "bad"]\n1. 9-13 21-16 *\n')
    with pytest.raises(engine.EngineError, match="ballots.pdn: line 2, column 9"):
        read_openings(str(ballots), "checkers")
    ballots.write_text('[Variant "spanish"]\n1. 12-16 *\n')
    with pytest.raises(engine.EngineError, match="a game of spanish, not checkers"):
        read_openings(str(ballots), "checkers")
    with pytest.raises(engine.EngineError, match="missing.txt"):
        read_openings(str(tmp_path / "missing.txt"), "checkers")
    fens = random_openings("international", 3, 4, random.Random(5))
    assert len(set(fens)) == 3
    for fen in fens:
        board = engine.Board("international", fen)
        assert abs(engine.Engine(8).search(board, depth=6).score) <= 60


def test_epd_lines_give_their_positions(tmp_path):
    start = engine.Board("superajedrez")
    placed = engine.Board("superajedrez")
    placed.push(placed.legal_moves()[0])
    four_fields = " ".join(placed.fen().split()[:4])         # EPD leaves the counters out
    path = tmp_path / "book.epd"
    path.write_text(f'{start.fen()} id "start";\n{four_fields} bm {placed.legal_moves()[0]}; id "two";\n')
    fens = read_openings(str(path), "superajedrez")
    assert fens[0] == start.fen()
    assert fens[1].split()[:4] == placed.fen().split()[:4]
    path.write_text(f"{four_fields} c0 not an operation\n")
    with pytest.raises(engine.EngineError, match="book.epd:1"):
        read_openings(str(path), "superajedrez")


def test_the_acf_three_move_ballots():
    deck, everything, tough = (load(name, "checkers") for name in
                               ("acf-3move", "acf-3move-all", "acf-3move-tough"))
    assert (len(deck), len(everything), len(tough)) == (156, 174, 50)
    assert len(set(everything)) == 174 and set(deck) <= set(everything) and set(tough) <= set(everything)
    # Every ballot is one of the 216 distinct positions three plies from the start.
    three_plies = load("plies-3", "checkers")
    assert len(three_plies) == 216 and set(everything) <= set(three_plies)
    # Ballot 1 opens the list; 5 is the Dreaded Edinburgh; 35, the Dundee, is barred; 174 last.
    assert everything[0] == after("checkers", "9-13 21-17 5-9")
    assert everything[4] == after("checkers", "9-13 22-18 6-9") and everything[4] in tough
    assert after("checkers", "9-13 24-20 12-16") in everything
    assert after("checkers", "9-13 24-20 12-16") not in deck
    assert everything[-1] == after("checkers", "12-16 24-20 10-15")
    with pytest.raises(engine.EngineError, match="for checkers, not international"):
        load("acf-3move", "international")


def test_plies_sets_count_the_positions_of_the_rules():
    assert len(load("plies-1", "checkers")) == 7
    assert len(load("plies-2", "checkers")) == 49
    assert len(load("plies-2", "international")) == 81
    assert load("plies-1", "international")[0] == after("international", "31-27")
    with pytest.raises(engine.EngineError) as error:
        load("plies-9", "international")
    assert "not a named set" in str(error.value) and "plies-2" in str(error.value)
    with pytest.raises(engine.EngineError, match="acf-3move"):
        load("no-such-set", "checkers")


def test_schedule_plays_every_opening_before_repeating_one():
    fens = [f"o{i}" for i in range(5)]
    assert schedule(fens, 7, "sequential", 1) == fens + fens[:2]
    shuffled = schedule(fens, 10, "random", 3)
    assert sorted(shuffled[:5]) == fens and sorted(shuffled[5:]) == fens
    assert shuffled == schedule(fens, 10, "random", 3) != schedule(fens, 10, "random", 4)
    with pytest.raises(engine.EngineError):
        schedule(fens, 3, "backwards", 1)


def test_openings_command_lists_and_prints_sets():
    listing = subprocess.run([sys.executable, "-m", "engine", "openings"], capture_output=True,
                             text=True, check=True).stdout
    assert "acf-3move " in listing and "156 ballots" in listing and "plies-N" in listing
    printed = subprocess.run([sys.executable, "-m", "engine", "openings", "acf-3move-tough"],
                             capture_output=True, text=True, check=True).stdout.split("\n")
    assert len([line for line in printed if line]) == 50
    bad = subprocess.run([sys.executable, "-m", "engine", "openings", "acf-3move", "-v", "spanish"],
                         capture_output=True, text=True)
    assert bad.returncode != 0 and "for checkers, not spanish" in bad.stderr
    assert openings.set_names("spanish") == ["plies-1", "plies-2", "plies-3", "plies-4"]
