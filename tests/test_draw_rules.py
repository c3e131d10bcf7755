"""Every end and draw rule of international, spanish, checkers and chapinas, reached by play."""

import pytest

import engine
from engine import Termination


def _safe(board, move):
    """Play move if it keeps the game quiet (the opponent has no capture); report success."""
    board.push(move)
    if any(m.is_capture for m in board.legal_moves()):
        board.pop()
        return False
    return True


def walk(board, plies, movers="kings"):
    """Play `plies` quiet moves that keep the game going: no capture, the opponent gets none, no
    position repeats. A depth-first search in move-string order, so runs are reproducible."""
    seen = {board.zobrist_hash()}

    def extend(left):
        if left == 0:
            return True
        if board.outcome() is not None:
            return False
        pieces = board.piece_map()
        for move in sorted(board.legal_moves(), key=str):
            is_king = pieces[move.from_square][0].isupper()
            if move.is_capture or (movers == "kings") != is_king:
                continue
            if not _safe(board, move):
                continue
            key = board.zobrist_hash()
            if key not in seen:
                seen.add(key)
                if extend(left - 1):
                    return True
                seen.discard(key)
            board.pop()
        return False

    assert extend(plies), f"no quiet line of {plies} plies from {board.fen()}"
    return board


def shuttle(board, times):
    """Both sides move a king out and back `times` times: the start position recurs each time."""
    for first in sorted(board.legal_moves(), key=str):
        if first.is_capture or not _safe(board, first):
            continue
        for second in sorted(board.legal_moves(), key=str):
            if second.is_capture or not _safe(board, second):
                continue
            back = [f"{str(m).split('-')[1]}-{str(m).split('-')[0]}" for m in (first, second)]
            if board.is_legal(back[0]) and _safe(board, board.parse_move(back[0])):
                if board.is_legal(back[1]) and _safe(board, board.parse_move(back[1])):
                    for _ in range(times - 1):
                        for m in (str(first), str(second), *back):
                            board.push(m)
                    return board
                board.pop()
            board.pop()
        board.pop()
    raise AssertionError(f"no shuttle in {board.fen()}")


# -- losses ---------------------------------------------------------------------------------------

def test_no_pieces_loses():
    board = engine.Board("international", "W:W28:B23")
    assert board.outcome() is None
    board.push("28x19")
    outcome = board.outcome()
    assert outcome.termination == Termination.NO_PIECES and outcome.winner == engine.WHITE
    assert board.result() == "1-0" and board.is_game_over()


def test_no_legal_move_loses():
    board = engine.Board("international", "W:W46:B37,41")
    assert board.legal_moves() == []
    assert board.outcome().termination == Termination.NO_MOVES
    assert board.result() == "0-1"
    blocked = engine.Board("checkers", "B:W5,6,10:B1")       # Black's man on b8 is hemmed in
    assert blocked.legal_moves() == [] and blocked.result() == "1-0"


# -- international --------------------------------------------------------------------------------

def test_threefold_repetition():
    board = engine.Board("international", "W:WK46,K47,44:B6,K5,K15")
    shuttle(board, 1)
    assert board.ply == 4 and board.repetitions() == 2 and board.outcome() is None
    for _ in range(3):
        board.push(board.move_stack[-4])
    assert board.outcome() is None
    board.push(board.move_stack[-4])
    assert board.repetitions() == 3
    assert board.outcome().termination == Termination.REPETITION
    assert board.result() == "1/2-1/2"


def test_twenty_five_move_rule():
    board = engine.Board("international", "W:WK26,K36,44,45:B6,7,K5,K15")
    walk(board, 50)
    assert board.outcome().termination == Termination.KING_MOVES
    board.pop()
    assert board.outcome() is None and board.counters["reversible"] == 49


def test_twenty_five_move_rule_reset_by_man_move():
    board = engine.Board("international", "W:WK26,K36,44,45:B6,7,K5,K15")
    walk(board, 40)
    assert board.counters["reversible"] == 40
    walk(board, 1, movers="men")
    assert board.counters["reversible"] == 0
    walk(board, 49)
    assert board.outcome() is None
    walk(board, 1)
    assert board.outcome().termination == Termination.KING_MOVES


def test_sixteen_move_rule_in_4():
    board = engine.Board("international", "W:WK1,K2,K3:BK50")     # IN-T4
    walk(board, 31)
    assert board.outcome() is None
    walk(board, 1)
    outcome = board.outcome()
    assert outcome.termination == Termination.SIXTEEN_MOVES and outcome.winner is None


def test_sixteen_move_rule_counts_from_promotion():
    # Two kings and a man against a king: the 16-move count restarts when the man is crowned
    # (RULES.md §4.1: the counter runs from the moment the material arose).
    board = engine.Board("international", "W:WK46,K47,7:BK50")
    walk(board, 20)
    assert board.counters["since_material"] == 20 and board.turn == engine.WHITE
    board.push("7-1" if board.is_legal("7-1") else "7-2")
    assert board.counters["since_material"] == 0
    walk(board, 31)
    assert board.outcome() is None
    walk(board, 1)
    assert board.outcome().termination == Termination.SIXTEEN_MOVES


def test_five_move_rule():
    board = engine.Board("international", "W:WK1,K2:BK50")
    walk(board, 9)
    assert board.outcome() is None
    walk(board, 1)
    assert board.outcome().termination == Termination.FIVE_MOVES


# -- checkers -------------------------------------------------------------------------------------

def test_checkers_hundred_plies_without_capture():
    board = engine.Board("checkers", "B:WK29,K30,K31:BK1,K2,K3")
    walk(board, 99)
    assert board.outcome() is None
    walk(board, 1)
    assert board.outcome().termination == Termination.CAPTURE_LIMIT
    assert board.result() == "1/2-1/2"


def test_checkers_repetition():
    board = engine.Board("checkers", "B:WK29,K30:BK1,K2")
    shuttle(board, 2)
    assert board.outcome().termination == Termination.REPETITION


# -- spanish --------------------------------------------------------------------------------------

def test_forzosa():
    # 3 kings (one on the main diagonal 1-32) against 1: 12 moves each to capture it.
    board = engine.Board("spanish", "W:WK1,K2,K3:BK29")
    assert board.counters["special"] == 0
    walk(board, 23)
    assert board.outcome() is None
    walk(board, 1)
    assert board.outcome().termination == Termination.FORZOSA


def test_forzosa_starts_when_a_king_reaches_the_diagonal():
    board = engine.Board("spanish", "W:WK2,K3,K4:BK29")        # no king on the main diagonal
    assert board.counters["special"] == -1
    board.push("2-6")                                           # 6 is not on it either
    assert board.counters["special"] == -1


def test_saque_de_peon():
    board = engine.Board("spanish", "W:WK14,K17,2:BK31,9")
    assert board.counters["special"] == 0
    walk(board, 63)
    assert board.outcome() is None
    walk(board, 1)
    assert board.outcome().termination == Termination.SAQUE_DE_PEON


def test_spanish_project_move_limit():
    board = engine.Board("spanish", "W:WK1,K2:BK31,K32")
    walk(board, 99)
    assert board.outcome() is None
    walk(board, 1)
    assert board.outcome().termination == Termination.KING_MOVES


# -- chapinas -------------------------------------------------------------------------------------

@pytest.mark.parametrize("king,winner,values", [(17, engine.WHITE, (20, 19)), (16, None, (19, 19))])
def test_ch_t2_repetition_decided_by_piece_values(king, winner, values):
    board = engine.Board("chapinas", f"W:WK23.{king},3.3:BK46.19")
    shuttle(board, 2)
    outcome = board.outcome()
    assert outcome.termination == Termination.REPETITION
    assert outcome.winner == winner and outcome.values == values
    assert board.result() == ("1-0" if winner == engine.WHITE else "1/2-1/2")


def test_chapinas_forzosa_by_values():
    board = engine.Board("chapinas", "W:WK1.0,K2.1,K3.2:BK46.19")
    walk(board, 23)
    assert board.outcome() is None
    walk(board, 1)
    outcome = board.outcome()
    assert outcome.termination == Termination.FORZOSA
    assert outcome.winner == engine.BLACK and outcome.values == (3, 19)


def test_chapinas_king_move_limit():
    board = engine.Board("chapinas", "W:WK1.0,K2.1,14.5:BK50.19,K49.18,37.2")
    walk(board, 49)
    assert board.outcome() is None
    walk(board, 1)
    assert board.outcome().termination == Termination.KING_MOVES
    assert board.outcome().winner == engine.BLACK
