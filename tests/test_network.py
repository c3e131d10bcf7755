"""The network evaluation of the draughts games: the native value equals network.py's integer
reference on every position tried (after any order of positions: the per-thread sums are
brought up to date, not recomputed), its inputs against a plain reading of the board, the
gradient against finite differences, the files and their errors, and training end to end."""

import json

import numpy as np
import pytest

import engine
from conftest import evaluations_kept, random_positions
from engine import network, selfplay, weights

VARIANTS = ["international", "checkers", "turkish", "frisian", "canadian"]


@pytest.fixture(autouse=True)
def restore_evaluations():
    yield from evaluations_kept(VARIANTS)


def random_network(variant, hidden=32, hidden2=8, seed=0):
    """A network of random integer weights within what a file may hold."""
    rng = np.random.default_rng(seed)
    n = network.input_count(variant)
    limit = 32767 // (network.max_pieces(variant) + 1)
    arrays = {"w1": rng.integers(-min(limit, 60), min(limit, 60) + 1, (n, hidden)).astype(np.int16),
              "b1": rng.integers(-20, 60, hidden).astype(np.int16),
              "w2": rng.integers(-127, 128, (hidden2, 2 * hidden)).astype(np.int8),
              "b2": rng.integers(-3000, 3000, hidden2).astype(np.int32),
              "w3": rng.integers(-300, 300, hidden2).astype(np.int16),
              "b3": np.array(rng.integers(-500, 500), dtype=np.int32)}
    return arrays


def plain_inputs(board):
    """The two views' active inputs read from the piece map square by square."""
    from engine.notation import square_order
    order = square_order(board)
    n = len(order)
    pieces = board.piece_map()
    mover = int(board.turn)
    views = []
    for side in (mover, 1 - mover):
        row = np.zeros(4 * n, np.int64)
        for i, name in enumerate(order):
            key = int(name) if board.spec.numbered else name
            if key not in pieces:
                continue
            letter = pieces[key]
            colour = 0 if letter in "wW" else 1
            kind = (0 if colour == side else 2) + (1 if letter.isupper() else 0)
            square = i if side == 0 else n - 1 - i            # Black's board turned
            row[kind * n + square] = 1
        views.append(row)
    return views


def lone_king_holds(board):
    from engine.evaluation import DRAUGHTS_WEIGHTS
    pieces = board.piece_map()
    if any(p in "wb" for p in pieces.values()):
        return False
    counts = [sum(p == "W" for p in pieces.values()), sum(p == "B" for p in pieces.values())]
    limit = DRAUGHTS_WEIGHTS[board.variant]["lone_king_draw"]
    return any(counts[s] == 1 and counts[1 - s] <= limit for s in (0, 1))


# Sizes that take each kernel where the processor has AVX2: hidden a multiple of 16 and hidden2
# of 8 the vector ones (32/16 their unrolled case, 48 a view of 16 mod 32); others the plain
# loops (25: layer 2's last group of four inputs padded).
@pytest.mark.parametrize("variant,hidden,hidden2", [(v, 32, 8) for v in VARIANTS] + [
    ("international", 32, 16), ("international", 48, 8), ("international", 25, 5),
    ("checkers", 24, 16)])
def test_native_value_equals_the_integer_reference(variant, hidden, hidden2, tmp_path):
    arrays = random_network(variant, hidden=hidden, hidden2=hidden2, seed=len(variant) + hidden)
    path = tmp_path / "net.npz"
    network.save(path, variant, arrays, centi=90)
    weights.load(path, variant)
    boards = random_positions(variant, 150, seed=3, plies=160)
    rng = np.random.default_rng(1)
    checked = 0
    for _ in range(2):                        # twice, in another order: other cached sums
        for k in rng.permutation(len(boards)):
            board = boards[k]
            if lone_king_holds(board):
                continue
            us, them = plain_inputs(board)
            want = int(network.reference(arrays, 90, us[None, :], them[None, :])[0])
            assert board.evaluate() == want, board.fen()
            checked += 1
    assert checked >= 200


@pytest.mark.parametrize("variant", ["international", "canadian"])
def test_inputs_of_training_equal_a_plain_reading(variant):
    boards = random_positions(variant, 60, seed=5, plies=100)
    words = [selfplay._draughts_position(b, network._spec(variant).geometry.words) for b in boards]
    white, black, kings = (np.array([w[i] for w in words], dtype=np.uint64) for i in range(3))
    stm = np.array([int(b.turn) for b in boards], dtype=np.uint8)
    us, them = network.features(variant, white, black, kings, stm)
    for i, board in enumerate(boards):
        plain_us, plain_them = plain_inputs(board)
        assert (us[i].toarray()[0] == plain_us).all() and (them[i].toarray()[0] == plain_them).all()


def test_the_search_runs_on_the_network_with_threads(tmp_path):
    arrays = random_network("international", hidden=64, hidden2=16, seed=7)
    path = tmp_path / "net.npz"
    network.save(path, "international", arrays, centi=100)
    weights.load(path, "international")
    board = engine.Board("international")
    one = engine.Engine(hash_mb=8).search(board, depth=7)
    again = engine.Engine(hash_mb=8).search(board, depth=7)
    assert (one.nodes, str(one.best_move), one.score) == (again.nodes, str(again.best_move), again.score)
    two = engine.Engine(hash_mb=8, threads=2).search(board, depth=7)
    assert two.best_move in board.legal_moves()
    weights.load(weights.shipped("international"), "international")
    assert engine.Engine(hash_mb=8).search(board, depth=7).nodes != one.nodes


def test_gradient_matches_finite_differences():
    rng = np.random.default_rng(2)
    model = network.Model(8, 4, 3, seed=3)
    import scipy.sparse as sp
    us = sp.csr_matrix((rng.random((20, 8)) < 0.4).astype(np.float32))
    them = sp.csr_matrix((rng.random((20, 8)) < 0.4).astype(np.float32))
    target = rng.random(20).astype(np.float32)
    for p in model.params.values():
        p[...] = p.astype(np.float64)
    model.params = {k: v.astype(np.float64) for k, v in model.params.items()}
    _, grads = model.gradients(us, them, target)
    for name, value in model.params.items():
        flat = value.reshape(-1)
        for j in range(min(flat.size, 6)):
            old = flat[j]
            flat[j] = old + 1e-6
            up = model.gradients(us, them, target)[0]
            flat[j] = old - 1e-6
            down = model.gradients(us, them, target)[0]
            flat[j] = old
            assert abs((up - down) / 2e-6 - grads[name].reshape(-1)[j]) < 1e-5, (name, j)


def test_bad_network_files_are_refused_and_change_nothing(tmp_path):
    board = engine.Board("international")
    before = board.evaluate()
    good = random_network("international")
    path = tmp_path / "net.npz"
    network.save(path, "international", good, centi=80)

    def written(change, meta_change=None):
        arrays = {k: v.copy() for k, v in good.items()}
        change(arrays)
        meta = {"format": weights.FORMAT, "variant": "international", "model": "network",
                "inputs": 200, "hidden": 32, "hidden2": 8, "centi": 80,
                "sha256": network.digest(arrays), "info": {}}
        meta.update(meta_change or {})
        bad = tmp_path / f"bad{len(list(tmp_path.iterdir()))}.npz"
        np.savez(bad, meta=np.array(json.dumps(meta)), **arrays)
        return bad
    cases = [
        (written(lambda a: None, {"inputs": 128}), "a network of 128 inputs"),
        (written(lambda a: None, {"hidden": 999}), "layers of 999 and 8 neurons"),
        (written(lambda a: a.update(w2=a["w2"].astype(np.int16))), "w2 must be int8"),
        (written(lambda a: None, {"centi": 0}), "centi-men a logit must be 1 to 10000"),
        (written(lambda a: None, {"sha256": "0" * 64}), "checksum mismatch"),
        (written(lambda a: a.update(w1=np.full_like(a["w1"], 3000))), "could leave 16 bits"),
        (written(lambda a: None, {"variant": "checkers"}), "a network of 200 inputs; checkers"),
    ]
    for bad, said in cases:
        with pytest.raises(weights.WeightsError, match=said):
            weights.load(bad)
        assert board.evaluate() == before
    truncated = tmp_path / "cut.npz"
    truncated.write_bytes(path.read_bytes()[:300])
    with pytest.raises(weights.WeightsError, match="not a weights file"):
        weights.load(truncated)
    assert board.evaluate() == before and weights.current("international") != str(path)


def test_a_network_plays_over_the_patterns_and_gives_way_to_them(tmp_path):
    board = engine.Board("international", "W:W31,32,33,34,28:B17,18,19,20")
    patterns_value = board.evaluate()
    path = tmp_path / "net.npz"
    network.save(path, "international", random_network("international", seed=11), centi=100)
    weights.load(path)
    assert weights.current("international") == str(path)
    assert board.evaluate() != patterns_value
    weights.load(weights.shipped("international"))
    assert board.evaluate() == patterns_value
    weights.load(path)
    weights.use_hand_set("international")
    hand = board.evaluate()
    weights.load(path)
    weights.use("international", weights.HAND_SET)
    assert board.evaluate() == hand


def test_shipped_is_the_network_over_the_patterns_and_patterns_the_patterns_alone(
        tmp_path, monkeypatch):
    """Where a network ships over a variant's patterns, `<shipped>` plays both and `<patterns>`
    the patterns alone; `sources` names what plays, in the order that loads it again."""
    net = tmp_path / "net.npz"
    network.save(net, "international", random_network("international", seed=5), centi=100)
    monkeypatch.setattr(weights, "shipped_network", lambda v: net if v == "international" else None)
    shipped = weights.shipped("international")
    board = engine.Board("international", "W:W31,32,33,34,28,K45:B17,18,19,20")
    assert weights.use("international", weights.PATTERNS) == f"international: weights from {shipped}"
    assert weights.sources("international") == [str(shipped)]
    patterns_value = board.evaluate()
    assert weights.use("international", weights.SHIPPED) == \
        f"international: network from {net} over weights from {shipped}"
    assert weights.sources("international") == [str(shipped), str(net)]
    network_value = board.evaluate()
    assert network_value != patterns_value
    weights.use_hand_set("international")
    weights.restore("international", [str(shipped), str(net)])
    assert board.evaluate() == network_value
    weights.use_hand_set("international")
    weights.load(net)
    assert weights.sources("international") == [weights.HAND_SET, str(net)]
    weights.load(shipped)
    assert weights.sources("international") == [str(shipped)] and board.evaluate() == patterns_value


def test_train_a_network_end_to_end(tmp_path):
    from engine.cli import main
    data = tmp_path / "data"
    selfplay.run("checkers", 32, data, nodes=300, workers=1, progress=False, seed=4)
    out = tmp_path / "net.npz"
    lines = []
    figures = network.fit("checkers", [data], str(out), hidden=16, hidden2=8, epochs=3,
                          report=lines.append, progress=False)
    assert lines[-1] == f"wrote {out}" and "held out" in lines[-2]
    losses = figures["train_losses"]
    assert len(losses) == 3 and losses[-1] < losses[0]
    # The integers the search reads lose almost nothing of the trained floats.
    assert abs(figures["valid_loss_quantized"] - figures["valid_loss"]) < 0.01
    assert 0 < figures["valid_loss_played"] < 1
    # On the same positions: the sample is the whole held-out set when it is small.
    assert figures["valid_loss_sample"] == pytest.approx(figures["valid_loss_quantized"])
    variant, arrays, meta = weights.read(out)
    assert variant == "checkers" and meta["model"] == "network" and meta["hidden"] == 16
    assert meta["info"]["epochs"] == 3
    weights.load(out)
    board = engine.Board("checkers")
    assert engine.Engine(hash_mb=4).search(board, depth=5).best_move in board.legal_moves()
    assert main(["train", "--model", "network", "--variant", "checkers", str(data), "--out",
                 str(tmp_path / "cli.npz"), "--hidden", "8", "--hidden2", "4", "--epochs", "1"]) == 0
    assert main(["train", "--model", "network", "--variant", "checkers", str(data), "--out",
                 str(tmp_path / "x.npz"), "--hidden", "9999"]) == 2


def test_a_network_over_the_patterns_adds_its_correction(tmp_path):
    data = tmp_path / "data"
    selfplay.run("checkers", 32, data, nodes=300, workers=1, progress=False, seed=6)
    out = tmp_path / "over.npz"
    playing = weights.sources("checkers")        # the fit reads the patterns alone, then puts back
    figures = network.fit("checkers", [data], str(out), hidden=16, hidden2=8, epochs=2,
                          report=lambda line: None, progress=False, over_patterns=True)
    assert weights.sources("checkers") == playing
    assert figures["valid_loss_quantized"] > 0
    variant, arrays, meta = weights.read(out)
    assert meta["over_patterns"] == weights.read(weights.shipped("checkers"))[2]["sha256"]
    weights.use("checkers", weights.PATTERNS)       # without the network that may ship over them
    boards = [b for b in random_positions("checkers", 60, seed=9, plies=80) if not lone_king_holds(b)]
    under = [b.evaluate() for b in boards]
    weights.load(out)
    for board, value in zip(boards, under):
        us, them = plain_inputs(board)
        assert board.evaluate() == value + int(network.reference(arrays, meta["centi"],
                                                                 us[None, :], them[None, :])[0])
    weights.use_hand_set("checkers")
    with pytest.raises(weights.WeightsError, match="corrects the pattern weights"):
        weights.load(out)
