import io
import os
import random
import tempfile

import pytest

# The engines that play probe the user's endgame table folder when no folder is named: the tests
# give them an empty one, so that what a developer has installed changes no transcript.
os.environ["DIMENSIONES_EGDB"] = tempfile.mkdtemp(prefix="dimensiones-egdb-")

import engine  # noqa: E402


def random_game(variant: str, rng: random.Random, max_plies: int = 300) -> list:
    """Play random legal moves until the game ends or max_plies; returns the boards' FENs and
    the board itself (with its history)."""
    board = engine.Board(variant)
    while board.ply < max_plies and not board.is_game_over():
        board.push(rng.choice(board.legal_moves()))
    return board


def random_positions(variant: str, count: int, seed: int, plies: int = 120) -> list:
    """`count` boards after 0 to `plies` random moves (from a random start where the game has
    several), none of them over."""
    from engine.games import GAMES
    rng = random.Random(seed)
    start = GAMES[variant].random_start
    out = []
    while len(out) < count:
        board = engine.Board(variant, start(rng) if start else None)
        for _ in range(rng.randint(0, plies)):
            if board.is_game_over():
                break
            board.push(rng.choice(board.legal_moves()))
        if not board.is_game_over():
            out.append(board)
    return out


def evaluations_kept(variants):
    """A generator for an autouse fixture: what each variant's evaluation comes from before the
    test (a weights file, or the hand-set one) is restored after it."""
    from engine import weights
    before = {v: weights.sources(v) for v in variants}
    yield
    for v, made_of in before.items():
        weights.restore(v, made_of)


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
