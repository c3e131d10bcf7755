"""Turkish draughts (RULES.md §5) and Gothic checkers (§3): perft, every test position, the end
and draw rules."""

import pytest

import engine
from engine import Termination
from test_draw_rules import walk

TURKISH_PERFT = [8, 64, 708, 7538, 85090, 931312]


def moves(variant, fen=None):
    return sorted(str(m) for m in engine.Board(variant, fen).legal_moves())


def test_turkish_start_perft():
    board = engine.Board("turkish")
    assert [engine.perft(board, d) for d in range(1, 7)] == TURKISH_PERFT


@pytest.mark.slow
def test_turkish_start_perft_7():
    assert engine.perft(engine.Board("turkish"), 7) == 10782308


def test_fen_uses_algebraic_squares_in_rank_order():
    board = engine.Board("turkish", "W:Wh3,a3,Kb1:Bc7")
    assert board.fen() == "W:WKb1,a3,h3:Bc7"
    assert engine.Board("turkish").fen().startswith("W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,")
    with pytest.raises(engine.InvalidFenError):
        engine.Board("turkish", "W:Wa2-a4:Bc7")          # no ranges with algebraic squares
    with pytest.raises(engine.InvalidFenError):
        engine.Board("turkish", "W:Wa8:Bc7")             # a White man on the crowning row
    with pytest.raises(engine.InvalidFenError):
        engine.Board("gothic-checkers", "W:Wi1:Bc7")


# -- Turkish §5.3 --------------------------------------------------------------------------------

def test_tk_t0_start():
    assert moves("turkish") == [f"{f}3-{f}4" for f in "abcdefgh"]


def test_tk_t1_no_180_degree_turn():
    assert moves("turkish", "W:WKe4:Be6,e2,a8") == ["e4xe1", "e4xe7", "e4xe8"]


def test_tk_t2_immediate_removal():
    board = engine.Board("turkish", "W:WKh3:Bb4,f6,g3,g4")
    legal = board.legal_moves()
    assert sorted(str(m) for m in legal) == ["h3xg1", "h3xg2", "h3xg3"]
    assert all(sorted(m.captured) == ["b4", "f6", "g3", "g4"] for m in legal)
    # The king may end on g3, which its first capture emptied, and stays a king.
    board.push("h3xg3")
    assert board.fen() == "B:WKg3:B"
    assert board.outcome().termination == Termination.NO_PIECES


def test_tk_t3_promotion_at_the_end_of_the_move():
    board = engine.Board("turkish", "W:Wc6:Bc7,f8,a5")
    (move,) = board.legal_moves()
    assert str(move) == "c6xc8" and move.promotes
    board.push(move)
    assert board.fen() == "B:WKc8:Ba5,f8"


def test_tk_t4_man_continues_along_the_back_row():
    board = engine.Board("turkish", "W:Wc6:Bc7,d8,a5")
    (move,) = board.legal_moves()
    assert str(move) == "c6xe8" and move.captured == ["c7", "d8"] and move.promotes
    assert board.parse_move("c6xc8xe8") == move


def test_tk_t5_king_counts_as_one():
    board = engine.Board("turkish", "W:Wd2,g2:BKd3,g3,g5,a7")
    (move,) = board.legal_moves()
    assert str(move) == "g2xg6" and move.captured == ["g3", "g5"]


def test_tk_t6_one_against_one_is_a_draw():
    board = engine.Board("turkish", "W:WKa1:Bh7")
    assert len(board.legal_moves()) == 14 and engine.perft(board, 1) == 14
    outcome = board.outcome()
    assert outcome.termination == Termination.ONE_AGAINST_ONE and board.result() == "1/2-1/2"


def test_one_against_one_with_a_capture_goes_on():
    board = engine.Board("turkish", "W:WKa1:Ba7")
    assert board.outcome() is None
    board.push("a1xa8")
    assert board.outcome().termination == Termination.NO_PIECES


def test_lone_piece_against_a_king_loses():
    board = engine.Board("turkish", "B:WKa1,b2:Bh7")
    outcome = board.outcome()
    assert outcome.termination == Termination.LONE_PIECE and outcome.winner == engine.WHITE
    # Two men and no king: the game goes on.
    assert engine.Board("turkish", "B:Wa2,b2:Bh7").outcome() is None
    # Reached by play: Black's capture leaves it one piece against a king and a man; the rule
    # applies once Black is to move again.
    board = engine.Board("turkish", "B:WKa1,c4,h2:Bc5,f7")
    board.push("c5xc3")
    assert board.outcome() is None                    # White to move
    board.push("h2-h3")
    assert board.outcome() is None                    # Black still has two pieces
    board = engine.Board("turkish", "B:WKa1,c4,h2:Bc5")
    board.push("c5xc3")
    assert board.outcome() is None                    # White to move: the rule is for the mover
    board.push("h2-h3")
    outcome = board.outcome()
    assert outcome.termination == Termination.LONE_PIECE and board.result() == "1-0"


def test_turkish_move_limit_and_repetition():
    board = engine.Board("turkish", "W:WKa1,Kb1:BKg8,Kh8")
    walk(board, 100)
    assert board.outcome().termination == Termination.KING_MOVES
    board.pop()
    assert board.outcome() is None


def test_turkish_men_stepping_sideways_and_back_repeat_the_position():
    # The window for repetitions runs back past man moves: a sideways step can be undone.
    board = engine.Board("turkish", "W:WKh4,h5,h7:BKh1,Kh8")
    cycle = ["h7-g7", "h8-a8", "g7-h7", "a8-h8"]
    for move in cycle:
        board.push(move)
    assert board.repetitions() == 2 and board.outcome() is None
    assert board.counters["reversible"] == 1         # the 100-ply count restarts at man moves
    for move in cycle:
        board.push(move)
    assert board.repetitions() == 3
    assert board.outcome().termination == Termination.REPETITION and board.result() == "1/2-1/2"
    # The search sees it in the game's history: a8-h8 (Black's best, the rest lose) ends the
    # game at once, where from the same position without history it needs two more moves.
    board.pop()
    result = engine.Engine(16).search(board, depth=6)
    assert (str(result.best_move), result.score, len(result.pv)) == ("a8-h8", 0, 1)
    fresh = engine.Engine(16).search(engine.Board("turkish", board.fen()), depth=6)
    assert str(fresh.best_move) == "a8-h8" and len(fresh.pv) > 1


# -- Gothic §3.3 ---------------------------------------------------------------------------------

def test_go_t0_start():
    assert moves("gothic-checkers") == sorted([
        "a2-b3", "b2-a3", "b2-c3", "c2-b3", "c2-d3", "d2-c3", "d2-e3", "e2-d3", "e2-f3", "f2-e3",
        "f2-g3", "g2-f3", "g2-h3", "h2-g3"])


def test_go_t1_straight_forward_capture():
    assert moves("gothic-checkers", "W:Wd4:Bd5,e4,f4,a8") == ["d4xd6"]


def test_go_t2_forward_then_sideways():
    board = engine.Board("gothic-checkers", "W:Wd4:Bd5,c6,h8")
    (move,) = board.legal_moves()
    assert str(move) == "d4xb6" and move.captured == ["d5", "c6"]
    assert board.parse_move("d4xd6xb6") == move


def test_go_t3_man_stops_on_the_last_row():
    board = engine.Board("gothic-checkers", "W:Wc6:Bc7,d8,a5")
    (move,) = board.legal_moves()
    assert str(move) == "c6xc8" and move.promotes
    board.push(move)
    assert board.fen() == "B:WKc8:Ba5,d8"


def test_go_t4_king_returns_to_its_square_one_move():
    board = engine.Board("gothic-checkers", "W:WKd4:Be3,e5,g3,g5,a8")
    (move,) = board.legal_moves()
    assert str(move) == "d4xd4" and engine.perft(board, 1) == 1
    assert move.captured == ["e3", "g3", "e5", "g5"]
    assert board.parse_move("d4xf2xh4xf6xd4") == move == board.parse_move("d4xf6xh4xf2xd4")
    board.push(move)
    assert board.fen() == "B:WKd4:Ba8"
    board.pop()
    assert board.fen() == "W:WKd4:Be3,g3,e5,g5,a8"


def test_gothic_move_limit():
    board = engine.Board("gothic-checkers", "W:WKa1,Kb1:BKg8,Kh8")
    walk(board, 100)
    assert board.outcome().termination == Termination.KING_MOVES


def test_gothic_repetition():
    from test_draw_rules import shuttle
    board = engine.Board("gothic-checkers", "W:WKa1,Kb1:BKg8,Kh8")
    shuttle(board, 2)
    assert board.outcome().termination == Termination.REPETITION
