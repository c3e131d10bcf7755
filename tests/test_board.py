"""The Python API: FEN in and out, move strings, push/pop, copies, bad input, key invariants."""

import random

import pytest

import engine
from conftest import random_game

VARIANTS = ["international", "spanish", "checkers", "chapinas", "turkish", "gothic-checkers", "brazilian",
            "russian", "pool", "czech", "thai", "italian", "killer", "antidraughts", "breakthrough",
            "frisian", "frysk", "canadian"]


def snapshot(board):
    return board.fen(), board.ply, board.zobrist_hash(), [str(m) for m in board.move_stack]


# -- FEN ------------------------------------------------------------------------------------------

def test_fen_is_canonical():
    board = engine.Board("international", "  B:B20,K3,1-2:WK50,31,33  ")
    assert board.fen() == "B:W31,33,K50:B1,2,K3,20"
    assert engine.Board("international", "W:WK31-K33:B1").fen() == "W:WK31,K32,K33:B1"
    assert engine.Board("international", "W:W:B").fen() == "W:W:B"


def test_variants_and_start_positions():
    assert engine.variants() == VARIANTS + ["dipole", "dipole10", "superajedrez", "superdimensiones"]
    assert engine.Board("international").fen().startswith("W:W31,32,")
    assert engine.Board("checkers").fen() == (
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
    assert engine.Board("checkers").turn == engine.BLACK
    assert engine.Board("spanish").turn == engine.WHITE
    assert isinstance(engine.Board("spanish"), engine.Board)
    assert isinstance(engine.Board().legal_moves()[0], engine.Move)


BAD_FENS = {
    "international": [
        "", "W", "W:W31", "X:W31:B1", "W:W31:W32", "W:W31:B1:B2", "W:W31:X1", "W:W51:B1",
        "W:W0:B1", "W:W31,,32:B1", "W:W31,31:B1", "W:W31:B31", "W:W3:B40", "W:W31:B46",
        "W:W31-29:B1", "W:W31-60:B1", "W:Wa1:B1", "W:W31:B1-21", "W:K:B1", None, 42,
    ],
    "checkers": ["B:W33:B1", "B:W1:B2"],          # 33 does not exist; a White man on row 1-4
    "chapinas": ["W:W1:B50.4", "W:W1.20:B50.4", "W:W1.3,2.3:B50.4", "W:W1-3:B50.4"],
}


@pytest.mark.parametrize("variant,fen", [(v, f) for v, fens in BAD_FENS.items() for f in fens])
def test_bad_fen_raises_and_changes_nothing(variant, fen):
    board = engine.Board(variant)
    board.push(board.legal_moves()[0])
    before = snapshot(board)
    with pytest.raises(engine.InvalidFenError) as info:
        board.set_fen(fen)
    assert isinstance(info.value, ValueError) and str(info.value)
    assert snapshot(board) == before
    if fen is not None:                     # Board(variant, None) is the start position
        with pytest.raises(engine.InvalidFenError):
            engine.Board(variant, fen)


def test_unknown_variant():
    with pytest.raises(engine.UnknownVariantError, match="'shogi'"):
        engine.Board("shogi")
    with pytest.raises(ValueError):
        engine.Board("International")        # names are exact


# -- moves ----------------------------------------------------------------------------------------

AMBIGUOUS = "W:W32,41,K45:B8,10,13,14,15,34"     # four 4-piece captures from 45, two landings


def test_ambiguous_captures_are_written_with_their_path():
    board = engine.Board("international", AMBIGUOUS)
    legal = board.legal_moves()
    assert sorted(str(m) for m in legal) == ["45x12x3x20", "45x12x3x25", "45x18x9x20", "45x18x9x25"]
    assert sorted(m.hub() for m in legal) == [
        "45x20x13x14x34", "45x20x8x14x34", "45x25x13x14x34", "45x25x8x14x34"]
    for m in legal:
        assert board.parse_move(str(m)) == m
        assert board.parse_move(m.hub()) == m
        assert board.parse_move("x".join(str(s) for s in m.path)) == m


def test_ambiguous_short_form_is_refused():
    board = engine.Board("international", AMBIGUOUS)
    before = snapshot(board)
    with pytest.raises(engine.IllegalMoveError, match="ambiguous"):
        board.push("45x20")
    assert snapshot(board) == before


def test_move_string_forms():
    board = engine.Board("international", "W:W37,44:B11,22,32,39")
    move = board.parse_move("37x6")
    assert board.parse_move("37x28x17x6") == move              # full landing path
    assert board.parse_move("37x6x32x22x11") == move           # Hub: captured squares
    assert board.parse_move("37x6x11x22x32") == move           # in any order
    assert move.from_square == 37 and move.to_square == 6 and move.is_capture
    assert repr(move) == "Move('37x6')"


ILLEGAL = ["31-27x", "31-25", "31x22", "30-25", "x", "", "  ", "31-27-22", "31", "1-2", "a1-b2",
           "31-27 ", "99-98", "31-027"]


@pytest.mark.parametrize("text", ILLEGAL)
def test_illegal_move_strings(text):
    board = engine.Board("international")
    before = snapshot(board)
    if text == "31-27 ":
        board.push(text)          # surrounding blanks are tolerated
        return
    with pytest.raises(engine.IllegalMoveError):
        board.push(text)
    assert snapshot(board) == before


def test_move_from_another_position_is_refused():
    board = engine.Board("international")
    other = engine.Board("international", "W:W37,44:B11,22,32,39")
    capture = other.legal_moves()[0]
    before = snapshot(board)
    with pytest.raises(engine.IllegalMoveError):
        board.push(capture)
    with pytest.raises(TypeError):
        board.push(3126)
    assert snapshot(board) == before
    assert not board.is_legal(capture) and board.is_legal("32-28")
    # A move equal to a legal one is accepted even if it came from another board object.
    board2 = engine.Board("international")
    board.push(board2.legal_moves()[0])


def test_push_pop_copy():
    board = engine.Board("spanish")
    first = board.push("12-16")
    board.push("21-17")
    assert board.ply == 2 and [str(m) for m in board.move_stack] == ["12-16", "21-17"]
    copy = board.copy()
    assert copy.fen() == board.fen() and copy.move_stack == board.move_stack
    copy.push(copy.legal_moves()[0])
    assert copy.ply == 3 and board.ply == 2
    assert str(board.pop()) == "21-17"
    assert board.pop() == first
    assert board.fen() == engine.Board("spanish").fen()
    with pytest.raises(IndexError):
        board.pop()


def test_board_diagram():
    text = str(engine.Board("checkers", "B:WK18:B1"))
    # Pieces on the left, the square numbers of the numbered boards on the right.
    assert text.splitlines()[0] == " 8   b   .   .   .        1     2     3     4"
    assert text.splitlines()[4].split() == ["4", ".", "W", ".", ".", "17", "18", "19", "20"]  # king on 18
    assert text.splitlines()[-1] == "black to move"
    # Chapinas: a third grid with the numbers of the pieces.
    chapinas = str(engine.Board("chapinas")).splitlines()
    assert chapinas[0].split() == ["10"] + ["b"] * 5 + [str(n) for n in range(50, 45, -1)] + ["4", "3", "2", "1", "0"]
    assert chapinas[4].split()[-5:] == ["."] * 5
    assert str(engine.Board("turkish")).splitlines()[1] == " 7 b b b b b b b b"   # algebraic: no numbers


# -- invariants over random games -----------------------------------------------------------------

def check_game(variant, rng, max_plies=400):
    board = engine.Board(variant)
    fens, keys = [board.fen()], [board.zobrist_hash()]
    while board.ply < max_plies and not board.is_game_over():
        legal = board.legal_moves()
        assert legal, board.fen()
        assert len(set(legal)) == len(legal)                      # no duplicate moves
        move = rng.choice(legal)
        board.push(move)
        fen, key = board.fen(), board.zobrist_hash()
        assert key == board.recompute_hash(), fen
        again = engine.Board(variant, fen)
        assert again.fen() == fen
        # Frisian's count of one king's quiet moves in a row is history, not in the FEN, but in
        # the key (it changes the legal moves): the keys agree when no king is counting.
        if not any(board.counters.get("king_streak", ())):
            assert again.zobrist_hash() == key
        fens.append(fen)
        keys.append(key)
    # Unwind everything: every position and key comes back exactly.
    while board.ply:
        board.pop()
        assert board.fen() == fens[board.ply]
        assert board.zobrist_hash() == keys[board.ply]
    return len(fens)


@pytest.mark.parametrize("variant", VARIANTS)
def test_thousands_of_random_games(variant):
    """push/pop restore FEN and key exactly; the incremental key equals the key computed from
    scratch; every FEN round-trips; no move is listed twice."""
    rng = random.Random(sum(map(ord, variant)))
    plies = sum(check_game(variant, rng) for _ in range(1000))
    assert plies > 1000 * (25 if variant == "frysk" else 40)     # Frysk!: five men a side


def test_random_games_end():
    rng = random.Random(7)
    for variant in VARIANTS:
        finished = 0
        for _ in range(200):
            board = random_game(variant, rng, max_plies=400)
            if board.outcome() is not None:
                finished += 1
                assert board.result() in ("1-0", "0-1", "1/2-1/2")
            else:
                assert board.result() == "*" and not board.is_game_over()
        assert finished > 180           # random games nearly always end within 400 plies


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_long(variant):
    rng = random.Random(99)
    for _ in range(10000):
        check_game(variant, rng)
