"""Dipole (RULES.md §8): the test positions, the reference generator, invariants over random
games, the end of the game, and self-play that always terminates."""

import random

import pytest

import engine
from engine import Termination
import reference_dipole as ref


def moves(fen, variant="dipole"):
    return sorted(str(m) for m in engine.Board(variant, fen).legal_moves())


def test_dp_t0_start():
    assert moves(None) == sorted([
        "e1-d2", "e1-c3", "e1-b4", "e1-a5", "e1-f2", "e1-g3", "e1-h4", "e1-e3", "e1-e5", "e1-e7",
        *[f"e1-off{n}" for n in range(4, 13)]])


def test_dp_t1_pass():
    board = engine.Board("dipole", "W:Wc1.1:Bb2.2,d2.2")
    (move,) = board.legal_moves()
    assert str(move) == "pass" and move.is_pass
    board.push("pass")
    assert board.fen() == "B:Wc1.1:Bb2.2,d2.2" and board.outcome() is None


def test_dp_t2_captures_backward_included():
    assert moves("W:Wc3.3:Bc5.2,e5.2,a1.1,c1.4") == sorted(
        ["c3xc5", "c3xe5", "c3xa1", "c3-a5", "c3-b4", "c3-d4", "c3-f6", "c3-off3"])


def test_dp_t3_merge_and_jumping_over():
    legal = moves("W:Wc1.4,f4.2:Be3.5,h8.1")
    assert legal == sorted(["c1-b2", "c1-d2", "c1-a3", "c1-c3", "c1-c5", "c1-g5", "c1-f4",
                            "c1-off3", "c1-off4", "f4-e5", "f4-g5", "f4-d6", "f4-f6", "f4-h6"])
    board = engine.Board("dipole", "W:Wc1.4,f4.2:Be3.5,h8.1")
    board.push("c1-f4")                                   # 3 checkers merge onto the 2-stack
    assert board.fen() == "B:Wc1.1,f4.5:Be3.5,h8.1"


def test_dp_t4_bear_off_with_a_partial_stack():
    assert moves("W:Wc7.3:Bh8.1") == ["c7-b8", "c7-d8", "c7-off2", "c7-off3"]
    board = engine.Board("dipole", "W:Wc7.3:Bh8.1")
    move = board.push("c7-off2")
    assert move.is_bear_off and move.count == 2 and board.fen() == "B:Wc7.1:Bh8.1"


def test_capture_replaces_the_stack():
    board = engine.Board("dipole", "W:Wc3.3:Bc5.2,e5.2,a1.1,c1.4")
    board.push("c3xc5")
    assert board.fen() == "B:Wc3.1,c5.2:Ba1.1,c1.4,e5.2"
    board.pop()
    assert board.fen() == "W:Wc3.3:Ba1.1,c1.4,c5.2,e5.2"


def test_losing_the_last_checker_either_way():
    board = engine.Board("dipole", "W:Wc3.2:Bc5.2")
    board.push("c3xc5")
    outcome = board.outcome()
    assert outcome.termination == Termination.NO_PIECES and outcome.winner == engine.WHITE
    assert board.legal_moves() == []
    board = engine.Board("dipole", "W:Wh8.1:Ba1.1")      # bearing off the last checker loses
    board.push("h8-off1")
    assert board.result() == "0-1"


def test_a_pass_is_never_answered_by_a_pass():
    """docs/rules-notes.md proves that both sides cannot be without a move at once; here many
    random positions in which the side to move must pass all give the opponent a move."""
    rng = random.Random(3)
    passes = 0
    for _ in range(60000):
        board = random_position("dipole", rng)
        legal = board.legal_moves()
        if len(legal) == 1 and legal[0].is_pass:
            passes += 1
            board.push("pass")
            assert not board.legal_moves()[0].is_pass, board.fen()
    assert passes >= 5


def test_fen_and_errors():
    board = engine.Board("dipole10")
    assert board.fen() == "W:We1.20:Bf10.20" and len(board.legal_moves()) > 19
    for bad in ["W:We1:Bd8.12", "W:We2.3:Bd8.12", "W:We1.13:Bd8.1", "W:We1.12,c1.1:Bd8.12",
                "X:We1.1:Bd8.1", "W:We1.1", "W:We1.1,e1.1:Bd8.1", "W:Wz9.1:Bd8.1"]:
        with pytest.raises(engine.InvalidFenError):
            engine.Board("dipole", bad)
    for bad in ["e1-e2", "e1-off3", "e1xe5", "pass", "e1", "", "z1-z2"]:
        with pytest.raises(engine.IllegalMoveError):
            board.push(bad)
    assert board.fen() == "W:We1.20:Bf10.20"


@pytest.mark.parametrize("variant", ["dipole", "dipole10"])
def test_start_perft_matches_reference(variant):
    board = engine.Board(variant)
    pos = ref.from_board(board)
    for depth in range(1, 5):
        assert engine.perft(board, depth) == ref.perft(pos, depth)


def test_perft_4_from_random_positions_matches_reference():
    rng = random.Random(44)
    for variant in ("dipole", "dipole10"):
        for _ in range(3):
            board = random_position(variant, rng)
            assert engine.perft(board, 4) == ref.perft(ref.from_board(board), 4), board.fen()


def random_position(variant, rng):
    board = engine.Board(variant)
    size = board.spec.size
    total = 12 if size == 8 else 20
    squares = [f"{'abcdefghij'[f]}{r + 1}" for r in range(size) for f in range(size) if (f + r) % 2 == 0]
    lists = ([], [])
    for colour in range(2):
        left = total
        for sq in rng.sample(squares, rng.randint(1, 5)):
            if any(sq == t.split(".")[0] for t in lists[0] + lists[1]) or left == 0:
                continue
            h = rng.randint(1, min(left, 6))
            left -= h
            lists[colour].append(f"{sq}.{h}")
    if not lists[0] or not lists[1]:
        return engine.Board(variant)
    return engine.Board(variant, f"{rng.choice('WB')}:W{','.join(lists[0])}:B{','.join(lists[1])}")


@pytest.mark.parametrize("variant", ["dipole", "dipole10"])
def test_random_positions_match_reference(variant):
    rng = random.Random(len(variant))
    for i in range(80):
        if i % 2:
            board = random_position(variant, rng)
        else:
            board = engine.Board(variant)
            for _ in range(rng.randint(1, 40)):
                if board.is_game_over():
                    break
                board.push(rng.choice(board.legal_moves()))
        pos = ref.from_board(board)
        assert sorted(str(m) for m in board.legal_moves()) == pos.legal_moves(), board.fen()
        depth = 3 if i % 4 else 2
        assert engine.perft(board, depth) == ref.perft(pos, depth), board.fen()


@pytest.mark.parametrize("variant", ["dipole", "dipole10"])
def test_random_games_invariants_and_termination(variant):
    """Thousands of random games: each ends (no draw is possible and every move but a pass is
    irreversible), push/pop restore FEN and key, the key equals the key from scratch."""
    rng = random.Random(99)
    longest = 0
    for _ in range(1000):
        board = engine.Board(variant)
        fens, keys = [board.fen()], [board.zobrist_hash()]
        while not board.is_game_over():
            assert board.ply < 2000
            board.push(rng.choice(board.legal_moves()))
            assert board.zobrist_hash() == board.recompute_hash()
            fens.append(board.fen())
            keys.append(board.zobrist_hash())
        assert board.result() in ("1-0", "0-1")
        longest = max(longest, board.ply)
        assert engine.Board(variant, board.fen()).fen() == board.fen()
        while board.ply:
            board.pop()
            assert board.fen() == fens[board.ply] and board.zobrist_hash() == keys[board.ply]
    assert longest > 20


def test_self_play_with_the_search_terminates():
    searcher = engine.Engine(8)
    for variant in ("dipole", "dipole10"):
        board = engine.Board(variant)
        while not board.is_game_over():
            assert board.ply < 400
            board.push(searcher.search(board, depth=3).best_move)
        assert board.result() in ("1-0", "0-1")


def test_search_finds_a_winning_capture():
    board = engine.Board("dipole", "W:Wc3.2,a1.1:Bc5.2")
    result = engine.Engine(8).search(board, depth=4)
    assert str(result.best_move) == "c3xc5" and result.mate == 1
