"""The native generator against the simple reference generator of reference_draughts.py, on many
positions reached in random games and on random placements full of kings (where flying captures,
dead pieces and landing choices matter most)."""

import random

import pytest

import engine
import reference_draughts as ref
from engine.rulesets import DRAUGHTS_VARIANTS

VARIANTS = ["international", "spanish", "checkers", "chapinas", "turkish", "gothic-checkers", "brazilian",
            "russian", "pool", "czech", "thai", "italian", "killer", "antidraughts", "breakthrough",
            "frisian", "frysk", "canadian"]


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
    most = min(14, 2 * DRAUGHTS_VARIANTS[variant].max_pieces)
    squares = rng.sample(square_names(variant), rng.randint(2, most))
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



def follow_game(board, rng, plies, keep_on=0.8):
    """Random moves on the engine's board and the reference's own position side by side, the
    reference playing each move itself (not rebuilt from the engine's board), so that the rules
    that depend on the history are compared too; mostly moving on the piece that moved last, so
    that one king makes several moves in a row. Returns how many positions had a held king."""
    variant = board.variant
    pos = ref.from_engine_board(board)
    last = [None, None]
    held = 0
    for _ in range(plies):
        expected = reference_moves(pos, variant)
        assert engine_moves(board) == expected, (board.fen(), board.move_stack)
        if not expected or board.is_game_over():
            break
        held += pos._held_king() is not None
        moves = board.legal_moves()
        again = [m for m in moves if m.from_square == last[int(board.turn)]]
        move = rng.choice(again if again and rng.random() < keep_on else moves)
        last[int(board.turn)] = move.to_square
        board.push(move)
        key = (move.from_square, move.to_square, tuple(move.captured))
        pos = pos.play(next(m for m in pos.legal_moves() if ref.move_key(variant, m) == key))
    return held


@pytest.mark.parametrize("variant", VARIANTS)
def test_games_followed_move_by_move(variant):
    rng = random.Random(5000 + len(variant))
    for _ in range(20):
        follow_game(random_placement(variant, rng), rng, 60)


@pytest.mark.parametrize("variant", ["frisian", "frysk"])
def test_frisian_king_limit_followed_move_by_move(variant):
    """A king and three men a side, the men on their own back row: kings make many quiet moves
    in a row, and the limit (three while the side has men) is met and agreed on."""
    rng = random.Random(6000 + len(variant))
    held = 0
    for _ in range(80):
        kings = rng.sample(range(11, 41), 2)
        men = ",".join(map(str, rng.sample(range(46, 51), 3))), ",".join(map(str, rng.sample(range(1, 6), 3)))
        fen = f"W:WK{kings[0]},{men[0]}:BK{kings[1]},{men[1]}"
        held += follow_game(engine.Board(variant, fen), rng, 80, keep_on=0.95)
    assert held > 20
