"""Every test position of RULES.md for international (§4.3), spanish (§6.5), checkers (§9.3) and
chapinas (§2.5) gives exactly the moves stated there."""

import pytest

import engine


def moves(variant, fen=None):
    return sorted(str(m) for m in engine.Board(variant, fen).legal_moves())


def test_in_t0_start():
    assert moves("international") == sorted(
        ["31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"])


def test_in_t1_majority():
    board = engine.Board("international", "W:W37,44:B11,22,32,39")
    (move,) = board.legal_moves()
    assert str(move) == "37x6"
    assert move.captured == [11, 22, 32]


def test_in_t2_passing_the_crowning_row():
    board = engine.Board("international", "W:W11:B7,8,36")
    (move,) = board.legal_moves()
    assert str(move) == "11x13" and move.captured == [7, 8] and not move.promotes
    board.push(move)
    assert board.fen() == "B:W13:B36"               # still a man


def test_in_t3_dead_pieces_block():
    board = engine.Board("international", "W:WK36:B12,23,24,27")
    legal = board.legal_moves()
    assert sorted(str(m) for m in legal) == ["36x15", "36x20"]
    assert all(m.captured == [23, 24, 27] for m in legal)



@pytest.mark.parametrize("fen, expected, captured", [
    ("W:W38:B22,23,32,33", "38x38", [22, 23, 32, 33]),           # round and back home
    ("W:W38:B22,23,32,33,43", "38x49", [22, 23, 32, 33, 43]),    # round, then on
    ("B:W22,23,32,33:B38", "38x38", [22, 23, 32, 33]),           # Black, the same ring
])
def test_in_a_man_round_four_pieces_both_ways_makes_one_move(fen, expected, captured):
    # The two ways round the ring take the same pieces to the same square: one move
    # (NOTATION.md), which the generator's fast path for men must not count twice.
    board = engine.Board("international", fen)
    (move,) = board.legal_moves()
    assert str(move) == expected and move.captured == captured
    assert engine.perft(board, 1) == 1

def test_sp_t0_start():
    assert moves("spanish") == sorted(["9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"])


def test_sp_t1_law_of_quality():
    board = engine.Board("spanish", "B:W19,12,18,1,K10:B22")
    (move,) = board.legal_moves()
    assert str(move) == "22x6" and move.captured == [10, 18]


def test_sp_t2_king_landing_keeps_the_maximum():
    assert moves("spanish", "W:WK1:B14,15,29") == ["1x12", "1x8"]


def test_sp_t3_no_backward_man_capture():
    assert moves("spanish", "W:WK1,12:B14,19,7,29") == ["1-10", "1-5", "12-15", "12-16"]


def test_da_t0_start():
    assert moves("checkers") == sorted(["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"])


def test_da_t1_crowning_ends_the_move():
    board = engine.Board("checkers", "W:W9:B6,7")
    (move,) = board.legal_moves()
    assert str(move) == "9x2" and move.promotes
    board.push(move)
    assert board.fen() == "B:WK2:B7"


def test_da_t2_free_choice_but_complete_the_chain():
    assert moves("checkers", "W:W22,28:B18,11,24,1") == ["22x8", "28x19"]


def test_da_t3_short_king():
    assert moves("checkers", "W:WK18:B1") == ["18-14", "18-15", "18-22", "18-23"]


def test_ch_t0_start():
    assert moves("chapinas") == sorted(
        ["16-21", "16-22", "17-22", "17-23", "18-23", "18-24", "19-24", "19-25", "20-25"])


def test_ch_t0_piece_numbers():
    board = engine.Board("chapinas")
    pieces = board.piece_map()
    # White: b1 0 ... j1 4, a2 5; Black seen from its side: i10 0, a10 4, j9 5 (RULES.md §2.1).
    assert pieces[5] == "w.0" and pieces[1] == "w.4" and pieces[10] == "w.5" and pieces[16] == "w.19"
    assert pieces[46] == "b.0" and pieces[50] == "b.4" and pieces[45] == "b.9" and pieces[41] == "b.5"
    assert sum(int(s.split(".")[1]) for s in pieces.values() if s[0] == "w") == 190


def test_ch_t1_lateral_king_move():
    fen = "W:WK49.17,12.3:B41.0,20.1"
    expected = ["49-45", "49-40", "49-44", "49-38", "49-33", "49-27", "49-22", "49-16", "49-11",
                "12-16", "12-17", "49-50", "49-48"]
    assert moves("chapinas", fen) == sorted(expected)
    blocked = moves("chapinas", "W:WK49.17,12.3:B41.0,20.1,48.2")
    assert blocked == sorted(m for m in expected if m != "49-48")


def test_ch_lateral_move_only_without_capture():
    # The king on the far row could step sideways, but a capture elsewhere is compulsory.
    legal = moves("chapinas", "W:WK49.17,12.3:B41.0,17.1")
    assert legal == ["12x23"]          # h3 over g4 to f5


def test_tables_of_rules_md_numbering():
    # Spot checks of the diagrams: main diagonals and corners.
    board = engine.Board("spanish", "W:W1,5,10,14,19,23,28:B32")
    assert sorted(board.piece_map()) == [1, 5, 10, 14, 19, 23, 28, 32]
    assert str(board).splitlines()[0].split()[1] == "b"            # 32 is a8
    board = engine.Board("international", "W:W46:B5")
    assert str(board).splitlines()[-3].split()[1] == "w"           # 46 is a1


@pytest.mark.parametrize("variant", ["international", "spanish", "checkers", "chapinas"])
def test_start_position_round_trips(variant):
    board = engine.Board(variant)
    assert engine.Board(variant, board.fen()).fen() == board.fen()
