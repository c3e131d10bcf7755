import io
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


class Transcript:
    """Drive a protocol session (UCI or Hub) line by line and collect what it answers."""

    def __init__(self, session_class):
        self.out = io.StringIO()
        self.session = session_class(self.out)
        self.read = 0

    def send(self, *lines, wait=True):
        """Feed lines; by default wait for a started search to finish; return the new lines."""
        for line in lines:
            self.session.handle(line)
        if wait:
            self.session.wait(30)
        text = self.out.getvalue()
        new, self.read = text[self.read:], len(text)
        return new.splitlines()
