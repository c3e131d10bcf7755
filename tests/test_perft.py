"""Perft from the start positions and the published test positions (NOTATION.md, issue texts)."""

import pytest

import engine

START = {
    "international": [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423],
    "checkers": [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680],
    "spanish": [7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860866],
    # The published figures of the variants other engines play (duplicate captures dropped).
    "russian": [7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586],
    "brazilian": [7, 49, 302, 1469, 7473, 37628, 187302, 907830, 4431766],
    "pool": [7, 49, 302, 1469, 7482, 37986, 190146, 929896, 4570534],
    "czech": [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963671],
    "thai": [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963648],
    "italian": [7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860875],
    "frisian": [9, 81, 658, 3874, 21265, 102431, 540126, 2825779, 15605069],
    "canadian": [11, 121, 1222, 10053, 79049, 584100, 4369366, 31839056, 237209258],
    # International's moves; only who wins differs.
    "antidraughts": [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423],
    "breakthrough": [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423],
    "killer": [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423],
}

POSITIONS = {
    "random178": ("B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
                  [14, 55, 1168, 5432, 87195, 629010, 9041010]),
    "woldouby": ("W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
                 [6, 12, 30, 73, 215, 590, 1944, 6269, 22369]),
    "allkings": ("W:WK31-K50:BK1-K20", [17, 79, 352, 1399, 7062, 37589, 217575]),
}
# The same position under Killer's rule (a king's capture that takes a king last stops right
# behind it), as published.
KILLER_RANDOM178 = [14, 55, 1168, 5165, 84326, 573965, 8476150]


@pytest.mark.parametrize("variant", sorted(START))
def test_start_perft(variant):
    board = engine.Board(variant)
    assert [engine.perft(board, d) for d in range(1, 10)] == START[variant]
    assert board.fen() == engine.Board(variant).fen()      # perft leaves the board as it was


@pytest.mark.slow
def test_international_perft_10():
    assert engine.perft(engine.Board("international"), 10) == 258895763


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_international_positions(name):
    fen, counts = POSITIONS[name]
    board = engine.Board("international", fen)
    assert [engine.perft(board, d) for d in range(1, len(counts) + 1)] == counts


def test_killer_perft():
    board = engine.Board("killer", POSITIONS["random178"][0])
    assert [engine.perft(board, d) for d in range(1, 8)] == KILLER_RANDOM178


@pytest.mark.slow
def test_killer_perft_8():
    assert engine.perft(engine.Board("killer", POSITIONS["random178"][0]), 8) == 78944517


def test_perft_depth_zero_is_one():
    assert engine.perft(engine.Board("checkers"), 0) == 1


def test_divide_sums_to_perft():
    board = engine.Board("international", POSITIONS["random178"][0])
    split = engine.divide(board, 4)
    assert sum(split.values()) == 5432
    assert sorted(split) == sorted(str(m) for m in board.legal_moves())


def test_divide_checkers_start():
    assert engine.divide(engine.Board("checkers"), 3) == {
        "9-13": 48, "9-14": 40, "10-14": 40, "10-15": 40, "11-15": 40, "11-16": 47, "12-16": 47,
    }


@pytest.mark.parametrize("variant, fen, depth", [
    ("international", POSITIONS["random178"][0], 5),
    ("international", POSITIONS["woldouby"][0], 8),
    ("international", POSITIONS["allkings"][0], 4),
    ("checkers", None, 7),
    ("brazilian", "W:WK10,21,22,25,27:B5,9,13,14,K30", 5),
    # Turkish pieces leave as they are taken: a king may end its capture on a square it emptied.
    ("turkish", "W:Wa2,c2,d2,e2,f2,g2,h2,c3,d3,e3,f3,Kc5:Bf5,a6,b6,f6,h6,a7,g7", 4),
    ("turkish", "B:Wb2,c2,e2,f2,g2,h2,a3,b3,e3,h3,g4,f5:"
                "BKc1,d4,h5,a6,e6,g6,a7,b7,c7,d7,e7,f7,g7,h7", 4),
])
def test_lean_perft_equals_the_full_make(variant, fen, depth):
    """Where the moves depend on the pieces alone, the family's perft moves only the pieces (no
    key, no counters); the perft over GameOps plays every move with the full make and unmake,
    as the search and Board.push do. Both must count the same tree."""
    from engine._game import game_perft
    board = engine.Board(variant, fen) if fen else engine.Board(variant)
    assert engine.perft(board, depth) == game_perft(board, depth, bulk=False) > 0
