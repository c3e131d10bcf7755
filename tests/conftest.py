import random

import pytest

import engine


def random_game(variant: str, rng: random.Random, max_plies: int = 300) -> list:
    """Play random legal moves until the game ends or max_plies; returns the boards' FENs and
    the board itself (with its history)."""
    board = engine.Board(variant)
    while board.ply < max_plies and not board.is_game_over():
        board.push(rng.choice(board.legal_moves()))
    return board


@pytest.fixture
def rng():
    return random.Random(20261130)
