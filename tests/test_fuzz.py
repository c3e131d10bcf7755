"""Random and mangled input never crashes: a FEN or move string either works or raises the
engine's own ValueError subclass, and a board that refused input is unchanged."""

import random

import engine

ALPHABET = "WBK:,.-x0123456789abcdefghijoff pas\t"


def mangled(rng, text):
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(3)
        i = rng.randrange(len(chars) + 1)
        if op == 0 and chars:
            del chars[min(i, len(chars) - 1)]
        elif op == 1:
            chars.insert(i, rng.choice(ALPHABET))
        elif chars:
            chars[min(i, len(chars) - 1)] = rng.choice(ALPHABET)
    return "".join(chars)


def test_fen_parser_never_crashes():
    rng = random.Random(8)
    for variant in engine.variants():
        board = engine.Board(variant)
        start = board.fen()
        accepted = 0
        for _ in range(2000):
            text = mangled(rng, start) if rng.random() < 0.8 else "".join(
                rng.choice(ALPHABET) for _ in range(rng.randint(0, 30)))
            try:
                other = engine.Board(variant, text)
            except engine.InvalidFenError:
                continue
            accepted += 1
            assert engine.Board(variant, other.fen()).fen() == other.fen()
            other.legal_moves()
        assert accepted < 2000


def test_move_parser_never_crashes():
    rng = random.Random(9)
    for variant in engine.variants():
        board = engine.Board(variant)
        for _ in range(20):
            if board.is_game_over():
                break
            board.push(rng.choice(board.legal_moves()))
        fen = board.fen()
        legal = [str(m) for m in board.legal_moves()]
        for _ in range(1000):
            text = mangled(rng, rng.choice(legal)) if legal else "pass"
            try:
                board.push(text)
            except engine.IllegalMoveError:
                assert board.fen() == fen
                continue
            board.pop()
            assert board.fen() == fen
