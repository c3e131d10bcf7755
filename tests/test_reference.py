"""The native generator against the simple reference generator of reference_draughts.py, on many
positions reached in random games and on random placements full of kings (where flying captures,
dead pieces and landing choices matter most)."""

import random

import pytest

import engine
import reference_draughts as ref

VARIANTS = ["international", "spanish", "checkers", "chapinas", "turkish", "gothic-checkers", "brazilian",
            "russian", "pool", "czech", "thai", "italian", "killer", "antidraughts", "breakthrough"]


def engine_moves(board):
    return sorted((m.from_square, m.to_square, tuple(m.captured)) for m in board.legal_moves())


def square_names(variant):
    """Every playable square's name, from the reference's own numbering."""
    rules = ref.RULES[variant]
    names = []
    for r in range(rules.size):
        for f in range(rules.size):
            if rules.dark is None or ((f + r) % 2 == 0) == rules.dark:
                names.append(ref.square_name(variant, f, r))
    return names


def reference_moves(pos, variant):
    return sorted(ref.move_key(variant, m) for m in pos.legal_moves())


def compare_tree(board, depth):
    """Same legal moves at every node of the tree to `depth`, through the public API only."""
    pos = ref.from_engine_board(board)
    assert engine_moves(board) == reference_moves(pos, board.variant), board.fen()
    if depth > 1:
        for move in board.legal_moves():
            board.push(move)
            compare_tree(board, depth - 1)
            board.pop()


def random_placement(variant, rng):
    """A legal random position: 1 to 7 pieces a side, many kings, men never on the row where they
    would have been crowned."""
    size = ref.RULES[variant].size
    squares = rng.sample(square_names(variant), rng.randint(2, 14))
    lists = ([], [])
    numbers = [list(range(20)), list(range(20))]
    for i, sq in enumerate(squares):
        colour = i % 2
        rank = ref.number_to_coords(variant, sq if variant in ref.ALGEBRAIC else int(sq))[1]
        far = rank == (size - 1 if colour == 0 else 0)
        king = rng.random() < 0.5 or far
        token = ("K" if king else "") + sq
        if variant == "chapinas":
            token += f".{numbers[colour].pop(rng.randrange(len(numbers[colour])))}"
        lists[colour].append(token)
    fen = f"{rng.choice('WB')}:W{','.join(lists[0])}:B{','.join(lists[1])}"
    return engine.Board(variant, fen)


def positions_from_games(variant, rng, count):
    out = []
    while len(out) < count:
        board = engine.Board(variant)
        while not board.is_game_over() and board.ply < 200:
            board.push(rng.choice(board.legal_moves()))
            if rng.random() < 0.08:
                out.append(board.fen())
    return out[:count]


@pytest.mark.parametrize("variant", VARIANTS)
def test_start_perft_matches_reference(variant):
    board = engine.Board(variant)
    pos = ref.from_engine_board(board)
    for depth in range(1, 5):
        assert engine.perft(board, depth) == ref.perft(pos, depth)


@pytest.mark.parametrize("variant", VARIANTS)
def test_positions_from_random_games(variant):
    rng = random.Random(1000 + len(variant))
    for fen in positions_from_games(variant, rng, 60):
        compare_tree(engine.Board(variant, fen), 2)


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_placements_with_kings(variant):
    rng = random.Random(2000 + len(variant))
    for _ in range(150):
        compare_tree(random_placement(variant, rng), 2)


@pytest.mark.parametrize("variant", VARIANTS)
def test_perft_depth_3_and_4_matches_reference(variant):
    rng = random.Random(3000 + len(variant))
    for i in range(12):
        board = random_placement(variant, rng) if i % 2 else \
            engine.Board(variant, positions_from_games(variant, rng, 1)[0])
        pos = ref.from_engine_board(board)
        depth = 4 if i < 3 else 3
        assert engine.perft(board, depth) == ref.perft(pos, depth), board.fen()


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_many_more_positions(variant):
    rng = random.Random(4000 + len(variant))
    for _ in range(2000):
        compare_tree(random_placement(variant, rng), 2)
    for fen in positions_from_games(variant, rng, 400):
        compare_tree(engine.Board(variant, fen), 3)
