"""The learned linear evaluation of Dipole, Superajedrez and Super Dimensiones (linear.py): its
value against an independent reading of the board, the hand-set evaluation as its prior, colour
symmetry, the fit (gradient, known weights), weights files, self-play and training end to end."""

from __future__ import annotations

import numpy as np
import pytest

import engine
from conftest import evaluations_kept, random_positions
from engine import linear, selfplay, train, weights

LINEAR = ["dipole", "dipole10", "superajedrez", "superdimensiones"]
FILES = "abcdefghij"


@pytest.fixture(autouse=True)
def restore_evaluations():
    """Each test leaves every variant's evaluation as it found it."""
    yield from evaluations_kept(LINEAR)


def random_boards(variant, count, seed):
    return random_positions(variant, count, seed, plies=80)


def install(variant, table, tmp_path, name="w.npz"):
    path = tmp_path / name
    weights.save(path, variant, table)
    weights.load(path, variant)
    return path


def random_table(variant, seed, spread=30.0):
    return np.random.default_rng(seed).normal(0, spread, size=(linear.layout_size(variant), 2))


def blend(opening, ending, phase, top):
    """The engine's blend of stored (x16) sums, truncated towards zero."""
    phase = min(phase, top)
    total = int(opening) * phase + int(ending) * (top - phase)
    unit = top * weights.SCALE
    return total // unit if total >= 0 else -((-total) // unit)


# -- an independent reading of the board -----------------------------------------------------------
# Each game's value from its piece map and FEN, with weights only on the rows that a plain reading
# can count (squares, material, reserve, stack heights, the side to move); zero elsewhere.

def square(name, size):
    return FILES.index(name[0]), int(name[1:]) - 1


def named(f, r):
    return f"{FILES[f]}{r + 1}"


def plain_dipole(board, w, rows):
    size = board.spec.size
    counts: dict = {}
    checkers = 0
    for name, piece in board.piece_map().items():
        sign = 1 if piece[0] == "w" else -1
        height = int(piece[1:])
        checkers += height
        f, r = square(name, size)
        seen = named(f, r) if sign == 1 else named(size - 1 - f, size - 1 - r)
        for row, count in ((f"checkers_{seen}", height), (f"stack_{seen}", 1),
                           ("height_6+" if height >= 6 else f"height_{height}", 1)):
            counts[row] = counts.get(row, 0) + sign * count
    counts["side_to_move"] = 1 if int(board.turn) == 0 else -1
    return counts, checkers


CHESS_TYPES = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king"}
PHASE_UNIT = {"n": 1, "b": 1, "r": 2, "q": 4}


def plain_superajedrez(board, w, rows):
    counts: dict = {}
    phase = 0

    def add(row, count):
        counts[row] = counts.get(row, 0) + count
    for name, piece in board.piece_map().items():
        sign = 1 if piece.isupper() else -1
        kind = piece.lower()
        f, r = square(name, 8)
        add(f"pst_{CHESS_TYPES[kind]}_{named(f, r if sign == 1 else 7 - r)}", sign)
        if kind != "k":
            add(f"material_{CHESS_TYPES[kind]}", sign)
        phase += PHASE_UNIT.get(kind, 0)
    reserve = board.fen().split()[0].partition("[")[2].rstrip("]")
    for piece in reserve:
        add(f"reserve_{CHESS_TYPES[piece.lower()]}", 1 if piece.isupper() else -1)
        phase += PHASE_UNIT.get(piece.lower(), 0)
    add("side_to_move", 1 if int(board.turn) == 0 else -1)
    bishops = [sum(p == b for p in list(board.piece_map().values()) + list(reserve)) >= 2
               for b in "Bb"]
    add("bishop_pair", bishops[0] - bishops[1])
    return counts, phase


def plain_superdimensiones(board, w, rows):
    """Per open sub-game: the value of its listed rows, truncated and kept within 750; a
    finished sub-game is 1000 to its winner. For player 1; the caller turns it."""
    cards = board.cards
    goal = "conquistar" if cards[1] == "C" else "distraer"
    formation = "eastern" if cards[3] == "E" else "western"
    pieces = board.piece_map()
    phase = len(pieces)
    top = board._linear_phase_max()
    total = 0
    for g, (mine, theirs) in enumerate((("a", "c"), ("b", "d"))):
        result = board.subgame_results()["AB"[g]]
        if result is not None:
            total += {"1": 1000, "2": -1000, "=": 0}[result]
            continue
        counts: dict = {}
        for name, piece in pieces.items():
            team = piece.lower()
            if team not in (mine, theirs):
                continue
            sign = 1 if team == mine else -1
            f, r = square(name, 6)
            if sign == -1:
                f, r = (f, 5 - r) if formation == "eastern" else (5 - f, 5 - r)
            kind = "queen" if piece.isupper() else "man"
            for row in (f"{goal}_{formation}_{kind}_{named(f, r)}", f"{cards}_men") + \
                    ((f"{cards}_queens",) if kind == "queen" else ()):
                counts[row] = counts.get(row, 0) + sign
        opening = sum(w[rows[k], 0] * c for k, c in counts.items())
        ending = sum(w[rows[k], 1] * c for k, c in counts.items())
        total += max(-750, min(750, blend(opening, ending, phase, top)))
    return total


READABLE = ("checkers_", "stack_", "height_", "side_to_move", "pst_", "material_", "reserve_",
            "bishop_pair", "_man_", "_queen_", "_men", "_queens")


def readable_table(variant, seed):
    table = random_table(variant, seed)
    names = linear.layout(variant)
    for i, name in enumerate(names):
        if not any(part in name for part in READABLE):
            table[i] = 0
    return table


@pytest.mark.parametrize("variant", LINEAR)
def test_evaluation_equals_an_independent_reading_of_the_board(variant, tmp_path):
    table = readable_table(variant, 3)
    install(variant, table, tmp_path)
    stored = np.rint(table * weights.SCALE).astype(np.int64)
    rows = {name: i for i, name in enumerate(linear.layout(variant))}
    boards = random_boards(variant, 120, 5)
    if variant == "superdimensiones":
        boards = [b for b in boards if not b.huff_candidates]
    for board in boards:
        if variant == "superdimensiones":
            value = plain_superdimensiones(board, stored, rows)
        else:
            reader = plain_dipole if variant.startswith("dipole") else plain_superajedrez
            counts, phase = reader(board, stored, rows)
            opening = sum(stored[rows[k], 0] * c for k, c in counts.items())
            ending = sum(stored[rows[k], 1] * c for k, c in counts.items())
            value = blend(opening, ending, phase, board._linear_phase_max())
        assert board.evaluate() == (value if int(board.turn) == 0 else -value), board.fen()


@pytest.mark.parametrize("variant", LINEAR)
def test_the_prior_is_the_hand_set_evaluation(variant, tmp_path):
    """The prior lists every term the hand-set evaluation weighs: with it the learned evaluation
    gives the hand-set values (Superajedrez within 3 centipawns: its phase counts pieces, the
    hand-set one their values)."""
    boards = random_boards(variant, 150, 1)
    weights.use_hand_set(variant)
    hand = np.array([b.evaluate() for b in boards])
    install(variant, linear.prior(variant), tmp_path)
    learned = np.array([b.evaluate() for b in boards])
    assert np.abs(hand - learned).max() <= (3 if variant == "superajedrez" else 0)
    assert np.count_nonzero(hand) > 100                # real values, not a wall of zeros
    weights.use_hand_set(variant)
    assert [b.evaluate() for b in boards] == hand.tolist()


# -- colour symmetry -------------------------------------------------------------------------------

def mirrored_dipole(board):
    size = board.spec.size
    side, white, black = board.fen().split(":")

    def turn(part):
        out = []
        for item in filter(None, part[1:].split(",")):
            name, _, height = item.partition(".")
            f, r = square(name, size)
            out.append(f"{named(size - 1 - f, size - 1 - r)}.{height}")
        return ",".join(out)
    return f"{'B' if side == 'W' else 'W'}:W{turn(black)}:B{turn(white)}"


def mirrored_superajedrez(board):
    placement, side, castling, ep, *clocks = board.fen().split()
    ranks, _, reserve = placement.partition("[")
    ranks = "/".join(reversed(ranks.split("/"))).swapcase()
    castling = "".join(sorted(castling.swapcase(), key="KQkq".index)) if castling != "-" else "-"
    ep = ep if ep == "-" else ep[0] + str(9 - int(ep[1]))
    return f"{ranks}[{reserve.swapcase()} {'b' if side == 'w' else 'w'} {castling} {ep} " \
           + " ".join(clocks)


def mirrored_superdimensiones(board):
    placement, team, cards, results, *clocks = board.fen().split()
    swap = str.maketrans("abcdABCD", "cdabCDAB")
    rows = placement.split("/")
    if cards[3] == "E":
        rows = list(reversed(rows))                        # the ranks flipped
    else:
        rows = [row[::-1] for row in reversed(rows)]       # a half turn
    results = results.translate(str.maketrans("12", "21"))        # sub-games won by a player
    return f"{'/'.join(rows).translate(swap)} {team.translate(swap)} {cards} {results} " \
        + " ".join(clocks)


MIRRORS = {"dipole": mirrored_dipole, "dipole10": mirrored_dipole,
           "superajedrez": mirrored_superajedrez, "superdimensiones": mirrored_superdimensiones}


@pytest.mark.parametrize("variant", LINEAR)
def test_colour_symmetry(variant, tmp_path):
    """The position with the colours (players) swapped and the board mirrored, the other side
    to move, scores the same for the side to move, with any weights."""
    install(variant, random_table(variant, 7), tmp_path)
    boards = random_boards(variant, 100, 9)
    if variant == "superdimensiones":
        boards = [b for b in boards if not b.huff_candidates]
    checked = 0
    for board in boards:
        other = engine.Board(variant, MIRRORS[variant](board))
        assert int(other.turn) != int(board.turn)
        assert other.evaluate() == board.evaluate(), (board.fen(), other.fen())
        checked += board.evaluate() != 0
    assert checked > 50


# -- fitting ---------------------------------------------------------------------------------------

def dataset(variant, count, seed):
    boards = random_boards(variant, count, seed)
    return {"position": np.array([np.frombuffer(b._native_position(), np.uint8) for b in boards]),
            "start": np.array([b.fen() if variant == "superdimensiones" else "" for b in boards]),
            "stm": np.array([int(b.turn) for b in boards], dtype=np.uint8),
            "score": np.zeros(count, dtype=np.int16), "result": np.zeros(count, dtype=np.int8),
            "game": np.arange(count, dtype=np.int32), "ply": np.zeros(count, dtype=np.int16)}


def test_linear_gradient_matches_finite_differences():
    data = train.LinearData("superajedrez", dataset("superajedrez", 80, 1), 0.0, 100.0)
    data.target = np.random.default_rng(2).uniform(0, 1, len(data))
    size = linear.layout_size("superajedrez")
    theta = np.random.default_rng(3).normal(0, 0.05, size * 2)
    prior = np.random.default_rng(4).normal(0, 0.05, (size, 2))
    loss, grad = data.loss_grad(theta, prior, 1e-3, 1e-3)
    used = np.unique(data.X.indices)
    for row in list(np.random.default_rng(5).choice(used, 12)) + [size - 2]:
        for col in (0, 1):
            i = 2 * row + col
            step = np.zeros_like(theta)
            step[i] = 1e-6
            numeric = (data.loss_grad(theta + step, prior, 1e-3, 1e-3)[0]
                       - data.loss_grad(theta - step, prior, 1e-3, 1e-3)[0]) / 2e-6
            assert grad[i] == pytest.approx(numeric, rel=1e-4, abs=1e-9)


def test_fitting_recovers_known_weights():
    """Targets made by a known evaluation (Dipole's prior with the stack heights, mobility and
    side to move changed, as probabilities): the fit finds its values again."""
    from scipy.optimize import minimize
    variant = "dipole"
    rows = {name: i for i, name in enumerate(linear.layout(variant))}
    truth = linear.prior(variant)
    changed = {"mobility": 9, "side_to_move": 40, "height_1": -30, "height_2": 25,
               "attacked": -90}
    for name, value in changed.items():
        truth[rows[name]] = value
    truth *= 0.004                                          # in logits: a checker 0.4
    data = train.LinearData(variant, dataset(variant, 4000, 11), 0.0, 100.0)
    data.target = 1 / (1 + np.exp(-data.sign * data.white_value(truth.ravel())))
    zero = np.zeros_like(truth)
    fitted = minimize(lambda th: data.loss_grad(th, zero, 0.0), zero.ravel(), jac=True,
                      method="L-BFGS-B", options={"maxiter": 2000, "gtol": 1e-10, "ftol": 1e-14}).x
    error = np.abs(data.white_value(fitted) - data.white_value(truth.ravel()))
    assert np.mean(error) < 0.005 and np.percentile(error, 99) < 0.03
    # The terms no other row can stand in for come back themselves.
    for name in ("mobility", "side_to_move", "attacked"):
        assert fitted.reshape(-1, 2)[rows[name]] == pytest.approx(truth[rows[name]], abs=0.01), name


# -- files, self-play, training ----------------------------------------------------------------------

def test_weights_files_of_the_linear_games(tmp_path):
    table = random_table("dipole", 1)
    path = install("dipole", table, tmp_path)
    found, stored, meta = weights.read(path)
    assert found == "dipole" and meta["rows"] == linear.layout("dipole")
    assert np.array_equal(stored, np.rint(table * weights.SCALE).astype(np.int16))
    assert weights.current("dipole") == str(path)
    board = random_boards("dipole", 1, 2)[0]
    before = board.evaluate()
    # Weights of another game or layout are refused and change nothing.
    other = tmp_path / "other.npz"
    weights.save(other, "dipole10", random_table("dipole10", 2))
    with pytest.raises(weights.WeightsError, match="weights for dipole10, not dipole"):
        weights.load(other, "dipole")
    with pytest.raises(weights.WeightsError, match="expected 73 x 2 weights for dipole"):
        weights.save(tmp_path / "bad.npz", "dipole", table[:-1])
    with np.load(path) as data:
        meta = dict(meta, layout="0123")
        import json
        np.savez(tmp_path / "layout.npz", weights=data["weights"], meta=np.array(json.dumps(meta)))
    with pytest.raises(weights.WeightsError, match="made for another layout of dipole"):
        weights.load(tmp_path / "layout.npz")
    assert board.evaluate() == before and weights.current("dipole") == str(path)
    with pytest.raises(engine.EngineError, match="--drawish, --phase and --prior-l2"):
        train.fit("dipole", [tmp_path], str(tmp_path / "w.npz"), drawish=True, report=None)


def test_selfplay_and_train_end_to_end(tmp_path):
    """Super Dimensiones: games from several card sets, kept with the start that says their
    rules; features read under each game's rules; a fit that beats the hand-set prior on its
    data and plays."""
    out = tmp_path / "sd"
    played, kept = selfplay.run("superdimensiones", 32, out, nodes=300, workers=1,
                                progress=False, eval_file=weights.HAND_SET)
    assert played == 32 and kept > 500
    data = selfplay.load([out], "superdimensiones")
    starts = np.unique(data["start"])
    assert len(starts) >= 10 and data["position"].shape == (kept, len(
        engine.Board("superdimensiones")._native_position()))
    # A position's features name its own card set's rows.
    names = linear.layout("superdimensiones")
    X, _ = linear.features("superdimensiones", data["position"], data["start"])
    sets = {name.split("_")[0] for name in names if name.endswith("_men")}
    assert len(sets) == 32
    for start in starts:
        at = np.flatnonzero(data["start"] == start)
        used = {names[j].split("_")[0] for j in X[at].indices} & sets
        assert used == {start.split()[2]}
    result = tmp_path / "sd.npz"
    figures = train.fit("superdimensiones", [out], str(result), iterations=50, report=None)
    assert figures["train_loss"] < figures["train_loss_prior"] and figures["games"] == 32
    engine.Engine(1, eval_file=result)
    board = engine.Board("superdimensiones")
    assert engine.Engine(1).search(board, depth=3).best_move in board.legal_moves()
    # Dipole from its start position: the start is the empty string.
    selfplay.run("dipole", 16, tmp_path / "dip", nodes=300, workers=1, progress=False)
    assert set(selfplay.load([tmp_path / "dip"], "dipole")["start"]) == {""}


def test_uci_selects_the_evaluation_of_a_linear_game(tmp_path):
    from conftest import Transcript
    from engine.uci import UciSession
    path = tmp_path / "sa.npz"
    weights.save(path, "superajedrez", random_table("superajedrez", 4))
    t = Transcript(UciSession)
    t.send("setoption name UCI_Variant value superajedrez")
    assert t.send("setoption name EvalFile value <hand-set>") == [
        "info string evaluation superajedrez: the hand-set evaluation"]
    board = engine.Board("superajedrez")
    hand = board.evaluate()
    assert t.send(f"setoption name EvalFile value {path}") == [
        f"info string evaluation superajedrez: weights from {path}"]
    assert weights.current("superajedrez") == str(path) and board.evaluate() != hand
    assert t.send("setoption name EvalFile value nowhere.npz") == [
        "info string error nowhere.npz: no such weights file"]
    assert weights.current("superajedrez") == str(path)
    shipped = weights.shipped("superajedrez")
    assert t.send("setoption name EvalFile value <shipped>") == [
        f"info string evaluation superajedrez: weights from {shipped}" if shipped else
        "info string evaluation superajedrez: no shipped weights, the hand-set evaluation"]
    lines = t.send("position startpos", "go depth 3")
    assert lines[-1].startswith("bestmove ")
