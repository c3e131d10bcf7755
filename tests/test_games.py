"""The registry of games (engine.games): its facts agree with what the boards and front ends do."""

import sys

import pytest

import engine
from engine import games
from engine._game import game_perft
from engine.errors import EngineError
from engine.hub import HUB_VARIANTS
from engine.notation import board_from_position, position_string
from engine.match import EngineSpec, GameRecord, Match, TimeControl, pdn


def test_every_variant_has_one_record_and_its_board_plays_it():
    assert engine.variants() == list(games.GAMES)
    assert len(games.GAMES) == 22
    for name, record in games.GAMES.items():
        board = engine.Board(name)
        assert type(board) is record.board and board.variant == name
        # The family's own counter (GameOps.perft) and the walk over GameOps agree.
        assert engine.perft(board, 1) == len(board.legal_moves())
        assert engine.perft(board, 3) == game_perft(board, 3, bulk=False) > 0
        assert record.title == board.spec.title and record.start_fen == board.fen()
    assert games.game("dipole").start_fen == "W:We1.12:Bd8.12"
    with pytest.raises(engine.UnknownVariantError, match="unknown variant 'xiangqi' .known: international, "):
        games.game("xiangqi")


def test_the_facts_the_front_ends_read():
    assert games.names(record="PGN") == ["superajedrez"]
    assert games.names(fmjd_results=True) == ["international", "chapinas", "killer", "antidraughts",
                                              "breakthrough", "frisian", "frysk"]
    assert HUB_VARIANTS == games.names(hub=True)
    assert "chapinas" not in HUB_VARIANTS and "dipole" not in HUB_VARIANTS
    assert games.names(tables=True) == [
        "international", "spanish", "checkers", "chapinas", "turkish", "gothic-checkers",
        "brazilian", "russian", "pool", "czech", "thai", "italian", "killer", "dipole", "dipole10"]
    assert games.names(learned=True) == games.names()                 # every built-in game
    assert games.names(random_start=None) == [n for n in games.names() if n != "superdimensiones"]
    assert {g.opening_check_depth for g in games.GAMES.values()} == {4, 6}
    assert games.game("superajedrez").opening_check_depth == 4


def test_the_hub_games_round_trip_through_the_hub_position_code():
    for name in games.names(hub=True):
        board = engine.Board(name)
        assert board_from_position(name, position_string(board)).fen() == board.fen()


def test_game_records_follow_the_result_style_of_the_record():
    record = GameRecord(1, "a", "b", engine.Board("killer").fen(), [], "1/2-1/2", "x")
    assert '[Result "1-1"]' in pdn(record, "killer", "E")
    record = GameRecord(1, "a", "b", engine.Board("superajedrez").fen(), [], "1-0", "x")
    board = engine.Board("superajedrez")
    record.moves = [board.parse_move("N@f3")]
    text = pdn(record, "superajedrez", "E")
    assert '[Result "1-0"]' in text and text.rstrip().endswith("1. 0-Cf3 1-0")   # a placement, in Spanish


def test_a_match_refuses_a_game_its_protocol_cannot_carry():
    hub = EngineSpec(f"{sys.executable} -m engine hub", "hub", "hub")
    for name in ("chapinas", "dipole", "superajedrez"):
        with pytest.raises(EngineError, match=f"the Hub protocol does not carry {name}"):
            Match([hub, hub], name, TimeControl(movetime=0.01), [engine.Board(name).fen()], report=None)


def test_perft_names_what_it_cannot_count():
    with pytest.raises(TypeError, match="perft needs a Board, not str"):
        engine.perft("international", 1)
