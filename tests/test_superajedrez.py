"""Superajedrez (RULES.md §7): the test positions of the rules, ordinary chess against
python-chess, the native generator against a simple one written from the rules, FEN and move
strings, Spanish algebraic, the end of the game, and the search on mates by placement."""

import random
import subprocess
import sys

import chess
import pytest

import engine
from reference_superajedrez import Position
from reference_superajedrez import perft as reference_perft

V = "superajedrez"
START = "4k3/8/8/8/8/8/8/4K3[QRRBBNNPPPPPPPPqrrbbnnpppppppp] w KQkq - 0 1"


def board(fen=None):
    return engine.Board(V, fen)


def moves(b):
    return sorted(str(m) for m in b.legal_moves())


# -- the rules' test positions (RULES.md §7.11) ---------------------------------------------------

def by_kind(b):
    counts = {}
    for m in b.legal_moves():
        key = m.piece + "@" if m.is_placement and not m.is_castling else \
            "castle" if m.is_castling else m.piece
        counts[key] = counts.get(key, 0) + 1
    return counts


def test_start_has_218_moves():
    b = board()
    assert b.fen() == START
    assert len(b.legal_moves()) == 218
    assert by_kind(b) == {"K": 5, "Q@": 1, "R@": 62, "N@": 62, "B@": 62, "P@": 24, "castle": 2}
    assert sorted(str(m) for m in b.legal_moves() if m.piece == "K" and not m.is_castling) == [
        "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]
    assert sorted(str(m) for m in b.legal_moves() if m.is_castling) == ["e1c1r", "e1g1r"]


def test_after_knight_f3_black_has_215():
    b = board()
    b.push("N@f3")
    assert len(b.legal_moves()) == 215
    assert by_kind(b) == {"K": 5, "Q@": 1, "R@": 61, "N@": 61, "B@": 61, "P@": 24, "castle": 2}


def test_perft_from_the_start():
    b = board()
    assert [engine.perft(b, d) for d in range(4)] == [1, 218, 41811, 7879045]


def test_reserved_capture_of_the_queen_square():
    b = board("4k3/8/8/8/8/8/8/3nK3[QRRBBNNPPPPPPPPqrrbbnpppppppp] w KQkq - 0 1")
    assert b.is_legal("Q@d1") and b.is_legal("e1d1")
    assert b.san(b.parse_move("Q@d1")) == "0-Dxd1"
    assert b.san(b.parse_move("e1d1")) == "Rxd1"
    # The queen already placed (now on a4): no reserved capture, but it can take by moving.
    b = board("7k/8/8/8/Q7/8/8/3nK3[RRBBNNPPPPPPPPqrrbbnpppppppp] w KQ - 0 1")
    assert not b.is_legal("Q@d1") and b.is_legal("a4d1")
    assert b.protected_squares(engine.WHITE) == [
        "a1", "b1", "c1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"]


def test_reserved_capture_needs_a_rook_in_reserve():
    b = board("4k3/8/8/8/2R5/8/8/4K2b[QRBBNNPPPPPPPPqrrbnnpppppppp] w KQkq - 0 1")
    assert b.is_legal("R@h1")
    assert b.san(b.parse_move("R@h1")) == "0-Txh1"
    b = board("4k3/8/8/R7/2R5/8/8/4K2b[QBBNNPPPPPPPPqrrbnnpppppppp] w kq - 0 1")
    assert not b.is_legal("R@h1")


def test_bishop_colour_rule_for_reserved_captures():
    b = board("4k3/8/8/8/5B2/8/8/2n1Kn2[QRRBNNPPPPPPPPqrrbbpppppppp] w KQkq - 0 1")
    assert b.is_legal("B@f1") and not b.is_legal("B@c1")
    # Placements too: the reserve bishop goes on light squares only.
    squares = {m.to_square for m in b.legal_moves() if m.piece == "B" and m.is_placement}
    assert squares and all((ord(s[0]) - 97 + int(s[1]) - 1) % 2 == 1 for s in squares)
    assert "c1" not in b.protected_squares(engine.WHITE) and "f1" in b.protected_squares(engine.WHITE)


def test_castling_by_placement_out_of_check():
    b = board("4k3/8/8/8/4r3/8/8/4K3[QRRBBNNPPPPPPPPqrbbnnpppppppp] w KQkq - 0 1")
    assert b.is_check()
    assert moves(b) == ["B@e2", "B@e3", "N@e2", "N@e3", "P@e2", "P@e3", "R@e2", "R@e3",
                        "e1c1r", "e1d1", "e1d2", "e1f1", "e1f2", "e1g1r"]
    assert b.san(b.parse_move("e1g1r")) == "0-0" and b.san(b.parse_move("e1c1r")) == "0-0-0"


def test_castling_through_an_attacked_square_but_not_onto_one():
    b = board("4k3/8/b7/8/8/8/8/4K3[QRRBBNNPPPPPPPPqrrbnnpppppppp] w KQkq - 0 1")
    assert b.is_legal("e1g1r")
    b.push("e1g1r")
    assert b.piece_map()["g1"] == "K" and b.piece_map()["f1"] == "R"
    assert b.reserve(engine.WHITE)["R"] == 1
    assert b.fen().split()[2] == "kq"
    b = board("4k1r1/8/b7/8/8/8/8/4K3[QRRBBNNPPPPPPPPqrbnnpppppppp] w KQkq - 0 1")
    assert not b.is_legal("e1g1r")


def test_standard_and_placement_castling_side_by_side():
    b = board("4k3/8/8/8/8/8/8/4K2R[QRBBNNPPPPPPPPqrrbbnnpppppppp] w KQkq - 0 1")
    castles = sorted(str(m) for m in b.legal_moves() if m.is_castling)
    assert castles == ["e1c1r", "e1g1", "e1g1r"]
    assert b.san(b.parse_move("e1g1")) == "0-0"
    assert b.san(b.parse_move("e1g1r")) == "0-0(T)"
    b.push("e1g1")
    assert b.piece_map()["f1"] == "R" and "h1" not in b.piece_map()
    # A rook placed elsewhere than its corner, or moved off it, never castles the standard way.
    b = board("4k3/8/8/8/8/8/8/4K2R[QBBNNPPPPPPPPqrrbbnnpppppppp] w Kkq - 0 1")
    b.push("h1h2")
    b.push("e8d8")
    b.push("h2h1")
    b.push("d8e8")
    assert not any(m.is_castling for m in b.legal_moves())
    assert b.fen().split()[2] == "-"


def test_king_barred_from_protected_squares():
    b = board("8/8/7K/8/8/2k5/8/8[QRRBBNNPPPPPPPPqrrbbnnpppppppp] b - - 0 1")
    assert sorted(str(m) for m in b.legal_moves() if m.piece == "K") == [
        "c3b3", "c3b4", "c3c4", "c3d3", "c3d4"]
    # With White's pawns placed, b2, c2 and d2 are free again.
    b = board("8/8/7K/8/8/2k5/8/8[QRRBBNNqrrbbnnpppppppp] b - - 0 1")
    assert sorted(str(m) for m in b.legal_moves() if m.piece == "K") == [
        "c3b2", "c3b3", "c3b4", "c3c2", "c3c4", "c3d2", "c3d3", "c3d4"]


def test_king_on_a_protected_square_is_in_check():
    b = board("8/8/7K/8/8/8/2k5/8[QRRBBNNPPPPPPPqrrbbnnpppppppp] b - - 0 1")
    assert b.is_check()
    # Only king moves help; placements cannot remove a reserve's protection.
    assert all(m.piece == "K" for m in b.legal_moves())
    # The side not to move may not stand on such a square.
    with pytest.raises(engine.InvalidFenError, match="not to move is in check"):
        board("8/8/7K/8/8/8/2k5/8[QRRBBNNPPPPPPPqrrbbnnpppppppp] w - - 0 1")


def test_taking_the_last_original_bishop_revives_protection():
    # Black's original bishop stands on b2 (dark): the reserve bishop may only go on light
    # squares, so c8 is protected and f8 is not.
    fen = "5K2/8/7k/8/8/8/1b6/1R6[b] w - - 0 1"
    b = board(fen)
    assert b.protected_squares(engine.BLACK) == ["c8"]
    assert not b.is_check()
    # Taking that bishop would free the reserve bishop for f8, where White's king stands.
    assert "b1b2" not in moves(b) and "b1a1" in moves(b)
    assert "b1b2" not in Position(fen).legal()
    # Without it on the board, both of Black's bishop squares are protected: the king on f8 is
    # in check there.
    b = board("5K2/8/7k/8/8/8/8/1R6[bb] w - - 0 1")
    assert b.protected_squares(engine.BLACK) == ["c8", "f8"] and b.is_check()


def test_en_passant_only_after_a_pawn_move():
    b = board("4k3/3p4/8/4P3/8/8/8/4K3[QRRBBNNPPPPPPPqrrbbnnppppppp] b - - 0 1")
    b.push("d7d5")
    assert b.fen() == "4k3/8/8/3pP3/8/8/8/4K3[QRRBBNNPPPPPPPqrrbbnnppppppp] w - d6 0 2"
    ep = b.parse_move("e5d6")
    assert ep.is_en_passant and ep.captured == ["d5"]
    assert b.san(ep) == "exd6"
    b.push(ep)
    assert "d5" not in b.piece_map()
    b = board("4k3/8/8/4P3/8/8/8/4K3[QRRBBNNPPPPPPPqrrbbnnpppppppp] b - - 0 1")
    b.push("P@d5")
    assert b.fen().split()[3] == "-" and not b.is_legal("e5d6")


def test_pawn_placement_ranks():
    b = board()
    assert not b.is_legal("P@e5") and not b.is_legal("P@e1") and b.is_legal("P@e2")
    assert b.is_legal("P@e4") and b.san(b.parse_move("P@e2")) == "0-e2"
    b.push("P@e2")
    b.push("P@d5")
    assert b.is_legal("e2e4")
    b.push("e2e4")
    assert b.fen().split()[3] == "e3"
    assert not board("4k3/8/8/8/8/8/8/4K3[QRRBBNNPPPPPPPPqrrbbnnpppppppp] b KQkq - 0 1").is_legal("P@e4")


def test_queen_only_on_its_square_and_promotion_to_any_piece():
    b = board()
    assert [str(m) for m in b.legal_moves() if m.piece == "Q"] == ["Q@d1"]
    b = board("4k3/P7/8/8/8/8/8/4K3[QRRBBNNPPPPPPPqrrbbnnpppppppp] w - - 0 1")
    promos = sorted(str(m) for m in b.legal_moves() if m.promotion)
    assert promos == ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]
    assert b.san(b.parse_move("a7a8q")) == "a8=D+"
    b.push("a7a8b")
    assert b.fen().startswith("B~3k3/")
    # A promoted bishop does not count for the colour rule: both colours stay open.
    assert {"c1", "f1"} <= set(b.protected_squares(engine.WHITE))


# -- ordinary chess against python-chess ----------------------------------------------------------

def chess_to_fen(cb):
    """A python-chess position as a Superajedrez FEN with empty reserves and no castling."""
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            sq = chess.square(file, rank)
            piece = cb.piece_at(sq)
            if piece is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += piece.symbol() + ("~" if cb.promoted & chess.BB_SQUARES[sq] else "")
        rows.append(row + (str(empty) if empty else ""))
    ep = chess.square_name(cb.ep_square) if cb.ep_square is not None else "-"
    side = "w" if cb.turn else "b"
    return f"{'/'.join(rows)}[] {side} - {ep} {cb.halfmove_clock} {cb.fullmove_number}"


def chess_positions(rng, games, max_plies):
    for _ in range(games):
        cb = chess.Board()
        cb.set_castling_fen("-")
        for _ in range(rng.randint(1, max_plies)):
            if cb.is_game_over():
                break
            yield cb.copy()
            cb.push(rng.choice(list(cb.legal_moves)))


def chess_perft(cb, depth):
    if depth == 0:
        return 1
    total = 0
    for m in cb.legal_moves:
        cb.push(m)
        total += chess_perft(cb, depth - 1)
        cb.pop()
    return total


def test_plain_chess_moves_match_python_chess(rng):
    count = 0
    for cb in chess_positions(rng, 40, 160):
        b = board(chess_to_fen(cb))
        assert moves(b) == sorted(m.uci() for m in cb.legal_moves), cb.fen()
        assert b.is_check() == cb.is_check()
        count += 1
    assert count > 1500


def test_plain_chess_perft_matches_python_chess(rng):
    fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",   # Kiwipete, no castling
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w - - 1 8",
    ]
    positions = [chess.Board(f) for f in fens] + list(chess_positions(rng, 12, 80))[::40]
    for cb in positions:
        b = board(chess_to_fen(cb))
        assert engine.perft(b, 2) == chess_perft(cb, 2), cb.fen()
    for cb in positions[:3]:
        b = board(chess_to_fen(cb))
        assert engine.perft(b, 3) == chess_perft(cb, 3), cb.fen()


# -- against the simple generator of the rules ----------------------------------------------------

def random_reserve_position(rng):
    """A random legal position with reserves: pieces dropped and moved at random from the start,
    with a bias to board moves so that captures, promotions and checks happen."""
    b = board()
    for _ in range(rng.randint(0, 90)):
        legal = b.legal_moves()
        if not legal or b.is_game_over():
            break
        on_board = [m for m in legal if not m.is_placement]
        b.push(rng.choice(on_board if on_board and rng.random() < 0.65 else legal))
    return b.fen()


def test_moves_match_the_reference_generator(rng):
    for _ in range(150):
        fen = random_reserve_position(rng)
        assert moves(board(fen)) == sorted(Position(fen).legal()), fen


@pytest.mark.parametrize("seed", range(6))
def test_perft_matches_the_reference_generator(seed):
    rng = random.Random(seed)
    fen = random_reserve_position(rng)
    assert engine.perft(board(fen), 2) == reference_perft(Position(fen), 2), fen


SMALL_RESERVES = [
    "4k3/8/8/8/4r3/8/8/4K3[RNPbp] w KQ - 0 1",
    "r3k3/1P6/8/8/8/8/8/4K2R[Bq] w Kq - 0 1",
    "4k3/8/3b4/8/8/8/8/2K4B[Bn] b - - 0 1",
]


@pytest.mark.parametrize("fen", SMALL_RESERVES)
def test_perft_3_matches_the_reference_on_small_reserves(fen):
    assert engine.perft(board(fen), 3) == reference_perft(Position(fen), 3)


@pytest.mark.slow
def test_perft_matches_the_reference_generator_many():
    rng = random.Random(77)
    for _ in range(40):
        fen = random_reserve_position(rng)
        assert engine.perft(board(fen), 2) == reference_perft(Position(fen), 2), fen


# -- FEN, move strings, push/pop -------------------------------------------------------------------

def test_random_games_keep_keys_and_fens(rng):
    for _ in range(30):
        b = board()
        fens = [b.fen()]
        keys = [b.zobrist_hash()]
        while b.ply < 200 and not b.is_game_over():
            b.push(rng.choice(b.legal_moves()))
            assert b.zobrist_hash() == b.recompute_hash()
            assert board(b.fen()).fen() == b.fen()
            fens.append(b.fen())
            keys.append(b.zobrist_hash())
        copy = b.copy()
        played = [str(m) for m in b.move_stack]
        while b.ply:
            b.pop()
            assert b.fen() == fens[b.ply] and b.zobrist_hash() == keys[b.ply]
        assert copy.fen() == fens[-1] and [str(m) for m in copy.move_stack] == played
        assert copy.zobrist_hash() == keys[-1]


BAD_FENS = [
    ("", "expected"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "reserve in brackets"),
    ("4k3/8/8/8/8/8/8/4K3[] x - - 0 1", "side to move"),
    ("4k3/8/8/8/8/8/8/4K3[] w - -", None),            # four fields are accepted
    ("4k3/8/8/8/8/8/8/8[] w - - 0 1", "exactly one king"),
    ("4k3/8/8/8/8/8/8/4K3[X] w - - 0 1", "cannot be in a reserve"),
    ("4k3/8/8/8/8/8/8/4K3[K] w - - 0 1", "cannot be in a reserve"),
    ("4k3/8/8/8/8/8/8/4K2[] w - - 0 1", "rank 1 has 7"),
    ("4k3/8/8/8/8/8/8/4K4[] w - - 0 1", "rank 1 has 9"),
    ("4k3/8/8/8/8/8/8/4K2X[] w - - 0 1", "bad piece"),
    ("4k3/8/8/8/8/8/8/P3K3[] w - - 0 1", "first or last rank"),
    ("4k3/8/8/8/8/8/8/3QK3[Q] w - - 0 1", "more than 1"),
    ("4k3/8/8/8/8/8/8/3QK3[PPPPPPPP] w - - 0 1", None),
    ("4k3/8/8/8/8/8/8/3Q~K3[PPPPPPPP] w - - 0 1", "more pawns"),
    ("4k3/8/8/8/8/8/8/4K3[] w KQ - 0 1", "needs a rook there or in reserve"),
    ("4k3/8/8/8/8/8/8/4K3[R] w K - 0 1", "either side"),
    ("4k3/8/8/8/8/8/8/3K4[R] w KQ - 0 1", "king on e1"),
    ("4k3/8/8/8/8/8/8/4K3[] w QK - 0 1", "castling field"),
    ("4k3/8/8/8/8/8/8/4K3[] w - e3 0 1", "passed over e3"),
    ("4k3/8/8/8/8/8/8/4K3[] w - z9 0 1", "en-passant"),
    ("4k3/8/8/8/8/8/8/4K3[] w - - x 1", "whole numbers"),
    ("4k3/8/8/8/8/8/8/4K3[] w - - 0 0", "whole numbers"),
    ("4k3/4R3/8/8/8/8/8/4K3[] w - - 0 1", "not to move is in check"),
    ("4k3/8/8/8/8/8/8/4K3[] w - - 0 1 extra", "expected"),
    ("4k3/8/8/8/8/8/8/4P~K3[] w - - 0 1", "only a queen"),
]


@pytest.mark.parametrize("fen, message", BAD_FENS)
def test_bad_fens_are_refused_and_change_nothing(fen, message):
    b = board()
    b.push("N@f3")
    before = (b.fen(), b.ply, b.zobrist_hash())
    if message is None:
        engine.Board(V, fen)              # valid
        return
    with pytest.raises(engine.InvalidFenError, match=message):
        b.set_fen(fen)
    assert (b.fen(), b.ply, b.zobrist_hash()) == before


@pytest.mark.parametrize("text, message", [
    ("", "empty"), ("e9e4", "not of the form"), ("P@e5", "not a legal move"),
    ("K@e2", "not of the form"), ("e1e3", "not a legal move"), ("Q@d2", "not a legal move"),
    ("0-Cz9", "not of the form"), ("0-Df3", "not a legal move"), ("e1g1", "not a legal move"),
])
def test_bad_moves_are_refused_and_change_nothing(text, message):
    b = board()
    before = (b.fen(), b.ply)
    with pytest.raises(engine.IllegalMoveError, match=message):
        b.push(text)
    assert (b.fen(), b.ply) == before


def test_move_strings_and_spanish_input():
    b = board()
    assert b.parse_move("n@f3") == b.parse_move("N@f3") == b.parse_move("0-Cf3")
    assert b.parse_move("0-0") == b.parse_move("e1g1r")
    b.push("0-Cf3")
    b.push("0-e5")
    b.push("0-Ce2")
    b.push("0-Ta8")
    # Both knights (f3 and e2) reach g1, so the file tells them apart.
    assert b.san(b.parse_move("f3g1")) == "Cfg1" and b.san(b.parse_move("e2g1")) == "Ceg1"
    assert b.san(b.parse_move("f3e5")) == "Cxe5"
    assert str(b.parse_move("Cfg1")) == "f3g1"


def test_piece_map_reserve_and_diagram():
    b = board()
    b.push("Q@d1")
    b.push("P@e5")
    assert b.piece_map() == {"d1": "Q", "e1": "K", "e5": "p", "e8": "k"}
    assert b.reserve(engine.WHITE) == {"Q": 0, "R": 2, "B": 2, "N": 2, "P": 8}
    assert b.reserve(engine.BLACK)["P"] == 7
    text = str(b)
    assert "White reserve: RRBBNNPPPPPPPP" in text and text.endswith("white to move")


# -- end of the game ------------------------------------------------------------------------------

def test_mate_by_placement():
    b = board("7k/8/6K1/8/8/8/8/8[R] w - - 0 1")
    mates = sorted(b.san(m) for m in b.legal_moves() if b.san(m).endswith("#"))
    assert mates == ["0-Ta8#", "0-Tb8#", "0-Tc8#", "0-Td8#", "0-Te8#", "0-Tf8#"]
    b.push("R@a8")
    assert b.outcome() == engine.Outcome(engine.Termination.CHECKMATE, engine.WHITE)
    assert b.result() == "1-0"
    # With a reserve of its own Black interposes by placement: no mate.
    b = board("7k/8/6K1/8/8/8/8/8[Rn] w - - 0 1")
    b.push("R@a8")
    assert b.outcome() is None
    assert moves(b) == [f"N@{f}8" for f in "bcdefg"]


def test_stalemate_insufficient_material_fifty_moves_repetition():
    assert board("7k/5Q2/6K1/8/8/8/8/8[] b - - 0 1").outcome().termination \
        == engine.Termination.STALEMATE
    for fen in ["4k3/8/8/8/8/8/8/4K3[] w - - 0 1", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1",
                "4k3/8/8/8/8/8/8/3BK3[] w - - 0 1", "4kb2/8/8/8/8/8/8/2B1K3[] w - - 0 1"]:
        assert board(fen).outcome().termination == engine.Termination.INSUFFICIENT_MATERIAL, fen
    for fen in ["4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "4k3/8/8/8/8/8/8/4K3[NB] w - - 0 1",
                "4kb2/8/8/8/8/8/8/3BK3[] w - - 0 1", "4k3/8/8/8/8/8/8/4K3[Bb] w - - 0 1"]:
        assert board(fen).outcome() is None, fen
    b = board("4k3/8/8/8/8/8/8/R3K3[] w - - 99 80")
    assert b.outcome() is None
    b.push("a1a2")
    assert b.outcome().termination == engine.Termination.FIFTY_MOVES
    b = board("4k3/8/8/8/8/8/8/R3K3[] w - - 0 1")
    for _ in range(2):
        for m in ("e1f1", "e8f8", "f1e1", "f8e8"):
            assert b.outcome() is None
            b.push(m)
    assert b.repetitions() == 3 and b.outcome().termination == engine.Termination.REPETITION


def test_fifty_move_rule_is_reset_by_placements():
    b = board("4k3/8/8/8/8/8/8/R3K3[N] w - - 40 30")
    b.push("a1a2")
    assert b.halfmove_clock == 41
    b.push("e8d8")
    b.push("N@c3")
    assert b.halfmove_clock == 0


# -- the search -----------------------------------------------------------------------------------

def test_search_finds_mate_by_placement():
    b = board("7k/8/6K1/8/8/8/8/8[R] w - - 0 1")
    result = engine.Engine(hash_mb=8).search(b, depth=4)
    assert result.mate == 1 and str(result.best_move) in {f"R@{f}8" for f in "abcdef"}


def test_search_scores_stalemate_and_sees_it_coming():
    b = board("7k/5Q2/6K1/8/8/8/8/8[] b - - 0 1")
    result = engine.Engine(hash_mb=8).search(b, depth=3)
    assert result.best_move is None and result.score == 0 and result.mate is None
    # With queen and king to move, the search finds the mate and does not stalemate.
    b = board("7k/8/6K1/8/4Q3/8/8/8[] w - - 0 1")
    result = engine.Engine(hash_mb=8).search(b, depth=6)
    assert result.mate is not None and result.mate > 0
    b.push(result.best_move)
    assert b.outcome() is None or b.outcome().termination == engine.Termination.CHECKMATE


def test_search_plays_a_legal_game_quickly():
    b = board()
    eng = engine.Engine(hash_mb=8)
    while b.ply < 16 and not b.is_game_over():
        result = eng.search(b, depth=3)
        b.push(result.best_move)
    assert b.ply == 16 or b.is_game_over()


# -- protocol, match records, command line --------------------------------------------------------

def test_uci_transcript():
    from conftest import Transcript
    from engine.uci import UciSession
    uci = Transcript(UciSession)
    try:
        uci.send("setoption name UCI_Variant value superajedrez",
                 "position startpos moves N@f3 P@e5 e1g1r")
        fen = [line for line in uci.send("d") if line.startswith("Fen: ")][0][5:]
        assert fen == "4k3/8/8/4p3/8/5N2/8/5RK1[QRBBNPPPPPPPPqrrbbnnppppppp] b kq - 0 2"
        lines = uci.send("go depth 2")
        assert lines[-1].startswith("bestmove ")
        assert engine.Board(V, fen).is_legal(lines[-1].split()[1])
        assert uci.send("position startpos moves P@e5") == [
            "info string error move 1 of the list: 'P@e5' is not a legal move in " + START]
        assert uci.send("position fen 7k/8/6K1/8/8/8/8/8[R] w - - 0 1", "go depth 3")[-1] \
            .split()[1] in {f"R@{f}8" for f in "abcdef"}
        perft = uci.send("position startpos", "go perft 2")
        assert perft[-1] == "Nodes searched: 41811" and len(perft) == 218 + 2
    finally:
        uci.session.handle("quit")


def test_match_writes_pgn_with_spanish_moves(tmp_path):
    from engine.match import GameRecord, Match, TimeControl, pdn
    b = board()
    played = [b.push(m) for m in ("N@f3", "P@e5", "f3e5", "e8e7")]
    text = pdn(GameRecord(3, "a", "b", START, played, "1/2-1/2", "agreed"), V, "E")
    assert '[Variant "superajedrez"]' in text and f'[FEN "{START}"]' in text
    assert text.rstrip().endswith("1. 0-Cf3 0-e5 2. Cxe5 Re7 1/2-1/2")
    path = tmp_path / "games.pgn"
    command = f"{sys.executable} -m engine uci"
    from engine.match import EngineSpec
    result = Match([EngineSpec.parse(command), EngineSpec.parse(command)], V,
                   TimeControl(movetime=0.02, tolerance=5), [START], pdn_path=str(path), report=None).run()
    assert result.played == 2 and not result.forfeits
    assert path.read_text().count('[Variant "superajedrez"]') == 2


def test_command_line_perft_and_moves():
    out = subprocess.run([sys.executable, "-m", "engine", "perft", "-v", V, "3"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip().splitlines()[-1].startswith("7879045 leaves")
    out = subprocess.run([sys.executable, "-m", "engine", "moves", "-v", V, "--fen",
                          "7k/8/6K1/8/8/8/8/8[R] b - - 0 1"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0
    assert "1 legal moves: h8g8" in out.stdout


def test_the_stored_magics_check_so_importing_searches_none():
    # Importing checks the stored magic numbers instead of searching for them (a fifth of a
    # second of every start); the attack tables they index are what perft checks above.
    from engine import _superajedrez
    assert _superajedrez.magics_searched == 0
