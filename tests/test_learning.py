"""The learned evaluation of the draughts family: its features against a plain recomputation,
colour symmetry, the fitting code against known weights, weights files and their errors, and
self-play and training end to end on a tiny run."""

import json

import numpy as np
import pytest

import engine
from conftest import evaluations_kept, random_positions
from engine import patterns, selfplay, train, weights
from engine.evaluation import DRAUGHTS_WEIGHTS
from engine.rulesets import DRAUGHTS_VARIANTS

DRAUGHTS = ["international", "spanish", "checkers", "chapinas", "turkish", "gothic-checkers",
            "russian", "italian", "antidraughts",          # three of the newer rows: other boards and rules
            "canadian"]                                    # 12x12: boards of two 64-bit words


@pytest.fixture(autouse=True)
def restore_evaluations():
    """Each test leaves every variant's evaluation as it found it."""
    yield from evaluations_kept(DRAUGHTS)


def random_weights(variant, seed, spread=40.0):
    rng = np.random.default_rng(seed)
    w = rng.normal(0, spread, size=(patterns.layout_size(variant), 2))
    w[-len(patterns.DENSE_TERMS):] = [[100, 90], [300, 280], [3, 2], [60, 70], [30, 40],
                                       [10, 15], [5, 5], [-7, -3], [40, 90], [12, 20], [-30, -10],
                                       [-8, -12]]
    return w


def install(variant, table, tmp_path, name="w.npz", drawish=False, phase="pieces"):
    path = tmp_path / name
    weights.save(path, variant, table, drawish=drawish, phase=phase)
    weights.load(path, variant)
    return path


def random_boards(variant, count, seed):
    return random_positions(variant, count, seed, plies=120)


def bitboards(board):
    """White's, Black's and the kings' squares and the side to move, from the native position:
    64-bit words, or (low, high) pairs on a board of two words (Canadian)."""
    import struct
    words = patterns.words(board.variant)
    values = struct.unpack_from(f"<{3 * words + 1}Qi", board._native_position())
    if words == 1:
        return values[0], values[1], values[2], values[4]
    return tuple(values[0:2]), tuple(values[2:4]), tuple(values[4:6]), values[7]


# -- the features, recomputed plainly -----------------------------------------------------------

def plain_regions(variant):
    """The layout, written out again from the board's coordinates."""
    spec = DRAUGHTS_VARIANTS[variant]
    g = spec.geometry
    width, height, step = (4, 2, 1) if spec.colour == "all" else (4, 4, 2)
    regions = []
    for r0 in range(0, spec.size - height + 1, step):
        for f0 in range(0, spec.size - width + 1, 2):
            regions.append([(f, r) for r in range(r0, r0 + height)
                            for f in range(f0, f0 + width) if (f, r) in g.bit_at])
    return regions


def plain_tempo(spec, pieces):
    """Rows the men still have to go: a White man on rank r has size - 1 - r, a Black one r."""
    return sum(spec.size - 1 - r if p == "w" else r for (_, r), p in pieces.items() if p in "wb")


def plain_value(board, table, drawish=False, tempo=False):
    """The evaluation computed square by square from the piece map (White's view, then the
    mover's), with the whole-board terms other than men and kings taken from the features and
    checked against a plain count where one is written here."""
    spec = board.spec
    g, size = spec.geometry, spec.size
    pieces = {}
    for name, piece in board.piece_map().items():
        bit = spec.bit_of[str(name)]
        pieces[g.coords[bit]] = piece[0]
    # The engine's endgame knowledge comes first: with kings only, a lone king against
    # `lone_king_draw` kings or fewer holds, a value of 0 (evaluation.py).
    kings = [sum(p == colour for p in pieces.values()) for colour in "WB"]
    if sum(kings) == len(pieces) and min(kings) == 1 \
            and max(kings) <= DRAUGHTS_WEIGHTS[board.variant]["lone_king_draw"]:
        return 0.0
    offsets = []
    total = 0
    for region in plain_regions(board.variant):
        offsets.append(total)
        total += 3 ** len(region)
    opening = ending = 0.0
    for region, offset in zip(plain_regions(board.variant), offsets):
        white = sum(3 ** k * {"w": 1, "b": 2}.get(pieces.get(sq), 0) for k, sq in enumerate(region))
        turned = [(size - 1 - f, size - 1 - r) for f, r in region]
        black = sum(3 ** k * {"b": 1, "w": 2}.get(pieces.get(sq), 0) for k, sq in enumerate(turned))
        opening += table[offset + white, 0] - table[offset + black, 0]
        ending += table[offset + white, 1] - table[offset + black, 1]
    # The king-square table: the playable squares in bit order, a Black king's square turned.
    order = sorted(g.coords)
    for (f, r), piece in pieces.items():
        if piece in "WB":
            sq = (f, r) if piece == "W" else (size - 1 - f, size - 1 - r)
            row = total + order.index(g.bit_at[sq])
            sign = 1 if piece == "W" else -1
            opening += sign * table[row, 0]
            ending += sign * table[row, 1]
    w, b, k, stm = bitboards(board)
    _, _, dense, _ = patterns.features(board.variant, [w], [b], [k], [stm])
    men = sum(p == "w" for p in pieces.values()) - sum(p == "b" for p in pieces.values())
    kings = sum(p == "W" for p in pieces.values()) - sum(p == "B" for p in pieces.values())
    assert (dense[0, 0], dense[0, 1]) == (men, kings)
    assert dense[0, 6] == (1 if board.turn == engine.WHITE else -1)
    assert list(dense[0, 7:]) == plain_new_terms(board, pieces)
    d = table[total + len(order):]
    opening += float(dense[0] @ d[:, 0])
    ending += float(dense[0] @ d[:, 1])
    if tempo:
        first = engine.Board(board.variant)
        start = plain_tempo(spec, {g.coords[spec.bit_of[str(n)]]: p[0]
                                   for n, p in first.piece_map().items()})
        phase = min(plain_tempo(spec, pieces), start)
    else:
        start = patterns.start_pieces(board.variant)
        phase = min(len(pieces), start)
    value = (opening * phase + ending * (start - phase)) / (16 * start)
    if drawish:
        value /= plain_drawish_divisor(pieces, value)
    return value if board.turn == engine.WHITE else -value


def plain_drawish_divisor(pieces, value):
    """The side ahead (by value) with three pieces or fewer against a king: 8; kings equal and
    men within one: 2; else 1."""
    count = {p: sum(q == p for q in pieces.values()) for p in "wWbB"}
    ahead, behind = ("wW", "bB") if value > 0 else ("bB", "wW")
    if value == 0 or not count[behind[1]]:
        return 1
    if count[ahead[0]] + count[ahead[1]] <= 3:
        return 8
    if count["W"] == count["B"] and abs(count["w"] - count["b"]) <= 1:
        return 2
    return 1


def plain_new_terms(board, pieces):
    """Balance, first king, kings on a long diagonal, capture threat and exposed king mobility
    (White minus Black), from the piece map and the legal moves of the position with the other
    side to move."""
    size = board.spec.size
    out = []
    for colour in "wb":
        men = [sq for sq, p in pieces.items() if p == colour]
        kings = [sq for sq, p in pieces.items() if p == colour.upper()]
        left = sum(f < size // 2 for f, _ in men)
        out.append([abs(left - (len(men) - left)), 1 if kings else 0,
                    sum(f == r or f + r == size - 1 for f, r in kings),
                    threatens(board, colour), plain_exposed(board.spec, pieces, colour)])
    return [a - b for a, b in zip(*out)]


def plain_exposed(spec, pieces, colour):
    """Squares the kings of `colour` can move to where a man of the other side could take a
    piece at once: that man one step before the square along one of its capture directions,
    the square after it empty (none in Italian draughts, where men never take kings)."""
    from engine.geometry import DIRECTIONS
    g = spec.geometry
    enemy = "b" if colour == "w" else "w"

    def empty(sq):
        return sq in g.bit_at and sq not in pieces

    captures = [(df, dr if enemy == "w" else -dr)
                for df, dr in (DIRECTIONS[c] for c in spec.man_capture_dirs)]
    count = 0
    for (f, r), piece in pieces.items():
        if piece != colour.upper():
            continue
        for d in spec.king_dirs:
            df, dr = DIRECTIONS[d]
            k = 1
            while empty((f + k * df, r + k * dr)):
                tf, tr = f + k * df, r + k * dr
                count += spec.men_take_kings and any(
                    pieces.get((tf - cf, tr - cr)) == enemy and empty((tf + cf, tr + cr))
                    for cf, cr in captures)
                if not spec.flying_kings:
                    break
                k += 1
    return count


def threatens(board, colour):
    """Whether `colour` has a capture with it to move (the FEN with the turn set to it)."""
    fen = board.fen()
    turn = "W" if colour == "w" else "B"
    other = engine.Board(board.variant, turn + fen[1:])
    return int(any("x" in str(m) for m in other.legal_moves()))


@pytest.mark.parametrize("variant", DRAUGHTS)
def test_layout_covers_the_board_with_regions_of_eight(variant):
    own, turned = patterns.regions(variant)
    spec = DRAUGHTS_VARIANTS[variant]
    assert all(len(r) == 8 for r in own) and len(own) == len(turned)
    covered = {b for r in own for b in r}
    assert covered == set(spec.geometry.coords)
    assert sorted(map(sorted, own)) == sorted(map(sorted, turned))   # the layout is symmetric


@pytest.mark.parametrize("variant", DRAUGHTS)
def test_evaluation_equals_a_plain_recomputation(variant, tmp_path):
    table = random_weights(variant, 3)
    path = install(variant, table, tmp_path)
    _, stored, _ = weights.read(path)                      # what the engine uses: int16
    for board in random_boards(variant, 40, 11):
        if board.variant == "chapinas" or not board.legal_moves():
            continue
        plain = plain_value(board, stored.astype(np.int64))
        # The engine sums in integers and divides once, truncating toward zero.
        assert board.evaluate() == int(plain) or (board.evaluate() == 0 and abs(plain) < 1)


def install_layout(variant, regions, turned, weights):
    """Install a layout of regions and its weights for a variant, with the variant's king-square
    table and the phase by pieces; the native module and the variant's id."""
    native = patterns._native(variant)
    vid = native.draughts_variant_id(variant)
    native._set_patterns(vid, regions, turned, list(patterns.king_squares(variant)),
                         patterns.king_rows(variant), np.ascontiguousarray(weights),
                         patterns.phase_start(variant, False), False)
    return native, vid


@pytest.mark.parametrize("variant", ["international", "turkish", "canadian"])
def test_a_layout_not_closed_under_the_turn_evaluates_the_same(variant):
    """The evaluation gathers each region once for White's view and for Black's view of its
    turned partner; a layout without partners for every region (here the last region left out)
    is gathered view by view. With the left-out region's weights at zero in the full layout,
    both give the same values."""
    own, turned = patterns.regions(variant)
    rows = 3 ** len(own[-1])
    n = patterns.region_rows(variant)
    full = np.rint(random_weights(variant, 5)).astype(np.int16)
    full[n - rows:n] = 0
    boards = [b for b in random_boards(variant, 30, 4) if b.legal_moves()]
    install_layout(variant, own, turned, full)
    paired = [b.evaluate() for b in boards]
    install_layout(variant, own[:-1], turned[:-1], np.concatenate([full[:n - rows], full[n:]]))
    assert [b.evaluate() for b in boards] == paired
    assert len(set(paired)) > 10                     # the weights do move the values


@pytest.mark.parametrize("variant", ["international", "turkish", "canadian"])
def test_regions_share_gather_tables_only_where_their_squares_lie_alike(variant):
    """The regions of a layout are translated windows: all White's views share one gather table
    and all Black's views another. With each region's squares listed in an order of its own
    (its weights permuted to match), no two regions lie alike, each view gets its own table,
    and the values are those of the shared tables."""
    own, turned = patterns.regions(variant)
    table = np.rint(random_weights(variant, 6)).astype(np.int16)
    boards = [b for b in random_boards(variant, 30, 7) if b.legal_moves()]
    native, vid = install_layout(variant, own, turned, table)
    assert native._pattern_tables(vid) == 2
    shared = [b.evaluate() for b in boards]
    rng = np.random.default_rng(1)
    digits = np.array([[i // 3 ** k % 3 for k in range(8)] for i in range(3 ** 8)])
    shuffled, shuffled_turned, permuted = [], [], table.copy()
    for r in range(len(own)):
        order = rng.permutation(8)                     # new position k holds old square order[k]
        shuffled.append([own[r][k] for k in order])
        shuffled_turned.append([turned[r][k] for k in order])
        old_index = (digits * 3 ** order).sum(axis=1)  # the same men, indexed the old way
        permuted[r * 3 ** 8 + np.arange(3 ** 8)] = table[r * 3 ** 8 + old_index]
    install_layout(variant, shuffled, shuffled_turned, permuted)
    assert native._pattern_tables(vid) == 2 * len(own)
    assert [b.evaluate() for b in boards] == shared
    assert len(set(shared)) > 10


@pytest.mark.parametrize("variant", ["international", "turkish", "canadian"])
@pytest.mark.parametrize("opening, ending, packed", [
    (40, 40, True),                  # the shipped weights' scale
    (100, 32767, True),              # endings at the int16 limit: their sum needs 21 bits
    (32767, 500, True),              # openings at the limit: a shift of 16 still holds them
    (32767, 32767, False),           # no shift fits both in a word: read pair by pair
])
def test_packed_region_weights_give_the_plain_values(variant, opening, ending, packed):
    """The paired loop adds each view's (opening, ending) pair as one word; the two sums come
    apart exactly wherever the weights allow a shift, and where they do not the evaluation reads
    the pairs one by one: either way the values are the plain recomputation's, here with
    region weights drawn up to the given limits."""
    rng = np.random.default_rng(12)
    table = np.rint(random_weights(variant, 10)).astype(np.int64)
    n = patterns.region_rows(variant)
    table[:n, 0] = rng.integers(-opening, opening + 1, n)
    table[:n, 1] = rng.integers(-ending, ending + 1, n)
    table = table.astype(np.int16)
    native, vid = install_layout(variant, *patterns.regions(variant), table)
    assert (native._pattern_pack_shift(vid) > 0) == packed
    values = []
    for board in random_boards(variant, 25, 13):
        if not board.legal_moves():
            continue
        plain = plain_value(board, table.astype(np.int64))
        assert board.evaluate() == int(plain) or (board.evaluate() == 0 and abs(plain) < 1)
        values.append(board.evaluate())
    assert len(set(values)) > 10


@pytest.mark.parametrize("variant", ["international", "checkers", "turkish", "canadian"])
def test_tempo_phase_blends_by_the_rows_the_men_have_to_go(variant, tmp_path):
    """A file that asks for it blends opening and ending values by the men's tempo (Scan's
    phase): the engine equals the plain recomputation, and the start is all opening."""
    table = random_weights(variant, 5)
    path = install(variant, table, tmp_path, phase="tempo")
    _, stored, meta = weights.read(path)
    assert meta["phase"] == "tempo"
    spec = DRAUGHTS_VARIANTS[variant]
    assert patterns.phase_start(variant, True) == {"international": 150 * 2, "checkers": 2 * 4 * (7 + 6 + 5),
                                                   "turkish": 2 * 8 * (6 + 5),
                                                   "canadian": 2 * 6 * (11 + 10 + 9 + 8 + 7)}[variant]
    for board in random_boards(variant, 40, 11):
        if not board.legal_moves():
            continue
        plain = plain_value(board, stored.astype(np.int64), tempo=True)
        assert board.evaluate() == int(plain) or (board.evaluate() == 0 and abs(plain) < 1)
        w, b, k, _ = bitboards(board)
        pieces = {spec.geometry.coords[spec.bit_of[str(n)]]: p[0]
                  for n, p in board.piece_map().items()}
        assert patterns.tempo(variant, [w], [b], [k])[0] == plain_tempo(spec, pieces)
    with pytest.raises(weights.WeightsError, match="phase must be one of"):
        weights.save(tmp_path / "bad.npz", variant, table, phase="moon")


def test_drawish_material_is_scaled_down(tmp_path):
    """A file that asks for it divides drawish values by 8 or 2, as the plain rule says, and
    the rule decides often enough on these endgames to be tested."""
    variant = "international"
    table = random_weights(variant, 4)
    path = install(variant, table, tmp_path, drawish=True)
    _, stored, meta = weights.read(path)
    assert meta["drawish"] is True
    divisors = set()
    fens = ["W:W12,K28,33:BK3,40", "B:W12,K28,33:BK3,40", "W:WK12,K28,33,45:BK3,K40,22",
            "W:W31,32,33,36,37:BK4,16,17,18", "W:W31,32,33,36:BK4,16,17,18",
            "B:WK31,32,33,36,37,40:BK4,16,17,18,19", "W:WK1:BK50,45"]
    boards = [engine.Board(variant, fen) for fen in fens] + random_boards(variant, 40, 11)
    for board in boards:
        if not board.legal_moves():
            continue
        plain = plain_value(board, stored.astype(np.int64), drawish=True)
        pieces = {board.spec.geometry.coords[board.spec.bit_of[str(n)]]: p[0]
                  for n, p in board.piece_map().items()}
        divisors.add(plain_drawish_divisor(pieces, plain))
        assert board.evaluate() == int(plain) or (board.evaluate() == 0 and abs(plain) < 1)
    assert divisors == {1, 2, 8}
    weights.load(install(variant, table, tmp_path, "plain.npz"), variant)
    assert not weights.read(tmp_path / "plain.npz")[2]["drawish"]


@pytest.mark.parametrize("variant", DRAUGHTS)
def test_the_random_positions_exercise_every_whole_board_term(variant):
    """The recomputation above means something only if the terms take other values than 0."""
    boards = [b for b in random_boards(variant, 40, 11) if b.legal_moves()]
    if variant == "canadian":
        # Random play on 12x12 seldom crowns a king on the long diagonal: one position that does.
        boards.append(engine.Board(variant, "W:WK67,K56,48:BK5,25"))
    cols = list(zip(*(bitboards(b) for b in boards)))
    _, _, dense, _ = patterns.features(variant, *cols)
    for k, name in enumerate(patterns.DENSE_TERMS):
        if name.startswith("runner"):
            continue                     # rare in random play (they have tests of their own)
        if name == "king_exposed_mobility" and not DRAUGHTS_VARIANTS[variant].men_take_kings:
            assert not dense[:, k].any()         # Italian: men never take kings
            continue
        assert np.any(dense[:, k] != 0), name


def mirrored(board):
    """The position turned 180 degrees with colours and the side to move swapped."""
    spec = board.spec
    g, size = spec.geometry, spec.size
    lists = {"W": [], "B": []}
    for name, piece in board.piece_map().items():
        f, r = g.coords[spec.bit_of[str(name)]]
        bit = g.bit_at[(size - 1 - f, size - 1 - r)]
        colour = "B" if piece[0].lower() == "w" else "W"
        number = piece.split(".")[1] if "." in piece else None
        lists[colour].append(("K" if piece[0].isupper() else "") + spec.square_names[bit]
                             + (f".{number}" if number is not None else ""))
    turn = "B" if board.turn == engine.WHITE else "W"
    return engine.Board(board.variant, f"{turn}:W{','.join(lists['W'])}:B{','.join(lists['B'])}")


@pytest.mark.parametrize("variant", DRAUGHTS)
def test_colour_symmetry(variant, tmp_path):
    install(variant, random_weights(variant, 5), tmp_path)
    checked = 0
    for board in random_boards(variant, 40, 12):
        try:
            other = mirrored(board)
        except engine.InvalidFenError:
            continue                       # a man on a square the other side's men never reach
        assert board.evaluate() == other.evaluate(), board.fen()
        checked += 1
    assert checked >= 30


# -- fitting --------------------------------------------------------------------------------------

def dataset(variant, count, seed):
    boards = random_boards(variant, count, seed)
    cols = list(zip(*(bitboards(b) for b in boards)))
    return {"white": np.array(cols[0], dtype=np.uint64), "black": np.array(cols[1], dtype=np.uint64),
            "kings": np.array(cols[2], dtype=np.uint64), "stm": np.array(cols[3], dtype=np.uint8),
            "score": np.zeros(count, dtype=np.int16), "result": np.zeros(count, dtype=np.int8),
            "game": np.arange(count, dtype=np.int32), "ply": np.zeros(count, dtype=np.int16)}


@pytest.mark.parametrize("drawish,phase", [(False, "pieces"), (True, "pieces"), (False, "tempo")])
def test_gradient_matches_finite_differences(drawish, phase):
    data = train.Data("checkers", dataset("checkers", 60, 1), 0.0, 100.0, drawish, phase)
    data.target = np.random.default_rng(2).uniform(0, 1, len(data))
    theta = np.random.default_rng(3).normal(0, 0.1, patterns.layout_size("checkers") * 2)
    loss, grad = data.loss_grad(theta, 1e-3)
    rng = np.random.default_rng(4)
    used = np.unique(np.concatenate([data.own.ravel(), data.other.ravel()]))
    king_rows = data.n_regions + np.unique(data.kings.indices)
    assert len(king_rows) >= 4                       # the random games crown kings
    rows = list(rng.choice(used, 8)) + list(rng.choice(king_rows, 4)) + \
        list(range(len(theta) // 2 - len(patterns.DENSE_TERMS), len(theta) // 2))
    for row in rows:
        for col in (0, 1):
            i = 2 * row + col
            step = np.zeros_like(theta)
            step[i] = 1e-6
            numeric = (data.loss_grad(theta + step, 1e-3)[0] - data.loss_grad(theta - step, 1e-3)[0]) / 2e-6
            assert grad[i] == pytest.approx(numeric, rel=1e-4, abs=1e-9)


def test_fitting_recovers_known_weights():
    """Targets made by a known evaluation (as probabilities): the fit finds its values again,
    and its whole-board weights, which every position informs."""
    from scipy.optimize import minimize
    variant = "checkers"
    data = train.Data(variant, dataset(variant, 3000, 7), 0.0, 100.0)
    truth = random_weights(variant, 8, spread=0.05) / 100.0     # in logits
    truth[-len(patterns.DENSE_TERMS):] = [[1.0, 0.8], [2.5, 2.0], [0.02, 0.03], [0.5, 0.6],
                                          [0.3, 0.3], [0.1, 0.1], [0.05, 0.05], [-0.05, -0.02],
                                          [0.4, 0.6], [0.1, 0.1], [-0.3, -0.2], [-0.05, -0.1]]
    data.target = 1 / (1 + np.exp(-data.logits(truth.ravel())))
    fitted = minimize(lambda th: data.loss_grad(th, 0.0), np.zeros(truth.size), jac=True,
                      method="L-BFGS-B", options={"maxiter": 800, "gtol": 1e-10, "ftol": 1e-14}).x
    error = np.abs(data.logits(fitted) - data.logits(truth.ravel()))
    # Values range over several logits; the fit finds them to a few hundredths.
    assert np.mean(error) < 0.005 and np.percentile(error, 99) < 0.03
    dense = fitted.reshape(-1, 2)[-len(patterns.DENSE_TERMS):]
    n = len(patterns.DENSE_TERMS)
    assert dense[0] == pytest.approx(truth[-n], abs=0.05)          # men
    # A king's worth is its count's weight plus its square's (the two are one sum), on average
    # over the squares.
    table = slice(data.n_regions, data.n_pattern)
    fitted_king = dense[1] + fitted.reshape(-1, 2)[table].mean(0)
    assert fitted_king == pytest.approx(truth[-n + 1] + truth[table].mean(0), abs=0.1)


@pytest.mark.parametrize("man", [1.0, -1.0])
def test_material_scale_keeps_the_sign_of_a_man(man):
    """Results that a man's worth explains give that worth back, negative where men are a
    burden (antidraughts: its fitted values are then in centi-men of a man's size, a man -100);
    results it does not explain are refused."""
    data = train.Data("checkers", dataset("checkers", 2000, 3), 0.0, 100.0)
    material = data.dense[:, [0, 1, 6]] * data.sign[:, None]
    data.target = 1 / (1 + np.exp(-(material @ np.array([man, 2.5 * man, 0.0]))))
    assert train.material_scale(data) == pytest.approx(man, rel=0.05)
    data.target = np.full(len(data.target), 0.5)
    with pytest.raises(engine.EngineError, match="a man is worth anything"):
        train.material_scale(data)


def test_held_out_games_are_whole():
    games = np.repeat(np.arange(50), 7)
    held = train.split_games(games, 0.2)
    assert len(np.unique(games[held])) == 10
    assert not set(games[held]) & set(games[~held])


# -- weights files ---------------------------------------------------------------------------------

def test_weights_file_round_trip_and_meta(tmp_path):
    w = random_weights("spanish", 1)
    path = tmp_path / "s.npz"
    weights.save(path, "spanish", w, info={"games": 3})
    variant, stored, meta = weights.read(path)
    assert variant == "spanish" and stored.dtype == np.int16
    assert np.array_equal(stored, np.rint(w * weights.SCALE).astype(np.int16))
    assert meta["info"] == {"games": 3} and meta["layout"] == patterns.layout_digest("spanish")


@pytest.mark.parametrize("old_terms, king_table", patterns.EARLIER_LAYOUTS)
def test_files_of_earlier_layouts_load_with_the_newer_terms_at_zero(tmp_path, old_terms, king_table):
    """Weights written with fewer whole-board terms and no king-square table (the files of
    earlier releases) load, padded with zeros where the newer rows go, and evaluate as they
    did."""
    import hashlib
    import json
    assert not king_table
    w = np.rint(random_weights("spanish", 2) * weights.SCALE).astype(np.int16)
    n_regions, n_kings = patterns.region_rows("spanish"), patterns.king_rows("spanish")
    old = np.ascontiguousarray(np.concatenate(
        [w[:n_regions], w[n_regions + n_kings:n_regions + n_kings + len(old_terms)]]))
    assert len(old) == patterns.layout_size("spanish", old_terms, king_table)
    meta = {"format": weights.FORMAT, "variant": "spanish", "scale": weights.SCALE,
            "layout": patterns.layout_digest("spanish", old_terms, king_table),
            "dense_terms": list(old_terms),
            "sha256": hashlib.sha256(old.tobytes()).hexdigest(), "info": {}}
    path = tmp_path / "old.npz"
    np.savez_compressed(path, weights=old, meta=np.array(json.dumps(meta)))
    _, stored, _ = weights.read(path)
    assert stored.shape == (patterns.layout_size("spanish"), 2)
    padded = w.copy()
    padded[n_regions:n_regions + n_kings] = 0
    padded[n_regions + n_kings + len(old_terms):] = 0
    assert np.array_equal(stored, padded)
    same = tmp_path / "new.npz"
    weights.save(same, "spanish", padded)
    for board in random_boards("spanish", 10, 4):
        weights.load(path, "spanish")
        before = board.evaluate()
        weights.load(same, "spanish")
        assert board.evaluate() == before
    meta["layout"] = "0" * 16
    np.savez_compressed(path, weights=old, meta=np.array(json.dumps(meta)))
    with pytest.raises(weights.WeightsError, match="another layout"):
        weights.read(path)


def test_the_earlier_layouts_keep_their_digests():
    """The digest names a layout: an earlier file is told by it, so it must not move."""
    assert patterns.layout_digest("international", patterns.DENSE_TERMS[:7], False) != \
        patterns.layout_digest("international", patterns.DENSE_TERMS[:11], False)
    text = json.dumps({"regions": patterns.regions("international")[0],
                       "dense": patterns.DENSE_TERMS[:11]})
    import hashlib
    assert patterns.layout_digest("international", patterns.DENSE_TERMS[:11], False) == \
        hashlib.sha256(text.encode()).hexdigest()[:16]
    _, _, meta = weights.read(weights.shipped("international"))
    assert meta["layout"] in {patterns.layout_digest("international", d, k)
                              for d, k in ((patterns.DENSE_TERMS, True), *patterns.EARLIER_LAYOUTS)}


def test_bad_weights_files_are_refused_and_change_nothing(tmp_path):
    board = random_boards("international", 1, 4)[0]
    before = board.evaluate()
    source = weights.current("international")
    good = tmp_path / "good.npz"
    weights.save(good, "international", random_weights("international", 9))
    with np.load(good) as data:
        table, meta = data["weights"], json.loads(str(data["meta"]))

    def write(name, w=table, **changes):
        path = tmp_path / name
        np.savez(path, weights=w, meta=np.array(json.dumps({**meta, **changes})))
        return path

    cases = {
        tmp_path / "missing.npz": "no such weights file",
        write("format.npz", format=9): "weights of format 9",
        write("variant.npz", variant="chess"): "weights for 'chess'",
        write("layout.npz", layout="0123"): "made for another layout",
        write("shape.npz", w=table[:-1]): "expected int16 weights of shape",
        write("dtype.npz", w=table.astype(np.int32)): "expected int16 weights",
        write("sum.npz", w=table + np.int16(1)): "checksum mismatch",
    }
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(good.read_bytes()[:300])
    cases[truncated] = "not a weights file"
    (tmp_path / "text.npz").write_text("hello")
    cases[tmp_path / "text.npz"] = "not a weights file"
    for path, message in cases.items():
        with pytest.raises(weights.WeightsError, match=message) as info:
            weights.load(path)
        assert str(path) in str(info.value)
        assert weights.current("international") == source and board.evaluate() == before
    with pytest.raises(weights.WeightsError, match="weights for international, not checkers"):
        weights.load(good, "checkers")
    with pytest.raises(weights.WeightsError):
        engine.Engine(1, eval_file=tmp_path / "missing.npz")


def test_shipped_weights_are_the_default():
    """A variant with a shipped weights file plays it from import on (the file must load);
    the others play the hand-set evaluation."""
    import subprocess
    import sys
    code = ("import engine; from engine import weights; "
            "print([weights.sources(v) for v in weights.learned_variants()])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    fresh = eval(out.stdout)
    assert len(fresh) == len(weights.learned_variants()) > 15
    for variant, source in zip(weights.learned_variants(), fresh):
        path, net = weights.shipped(variant), weights.shipped_network(variant)
        if path is None:
            assert source == [weights.HAND_SET] and net is None
        else:
            assert weights.read(path)[0] == variant
            assert source == [str(path)] + ([str(net)] if net else [])


def test_uci_and_hub_load_weights(tmp_path):
    from conftest import Transcript
    from engine.hub import HubSession
    from engine.uci import UciSession
    path = tmp_path / "c.npz"
    weights.save(path, "checkers", random_weights("checkers", 2))
    t = Transcript(UciSession)
    assert t.send(f"setoption name EvalFile value {path}") == [
        f"info string evaluation checkers: weights from {path}"]
    assert weights.current("checkers") == str(path)
    assert t.send("setoption name EvalFile value nowhere.npz") == [
        "info string error nowhere.npz: no such weights file"]
    assert weights.current("checkers") == str(path)
    t.send("setoption name UCI_Variant value checkers")
    assert t.send("setoption name EvalFile value <hand-set>") == [
        "info string evaluation checkers: the hand-set evaluation"]
    assert weights.current("checkers") == weights.HAND_SET
    h = Transcript(HubSession)
    assert h.send(f"set-param name=eval-file value={path}") == []
    assert weights.current("checkers") == str(path)
    assert h.send("set-param name=eval-file value=nowhere.npz") == [
        'error message="nowhere.npz: no such weights file"']


# -- self-play and training end to end -------------------------------------------------------------

def test_rule_draws_are_left_out_of_training():
    """Kings only, a lone king against as many kings as the rule scores drawn (checkers: one)
    or fewer: the evaluation says 0 by rule, so the fit never sees them; the rest stay."""
    def bits(*squares):
        board = engine.Board("checkers")
        return sum(1 << board.spec.bit_of[str(s)] for s in squares)
    rows = [  # (white, black, kings)
        (bits(1), bits(32), bits(1, 32)),                   # king against king: drawn by rule
        (bits(5), bits(20), bits(5, 20)),                   # the same elsewhere
        (bits(1), bits(31, 32), bits(1, 31, 32)),           # against two kings: kept
        (bits(1, 9), bits(32), bits(1, 32)),                # a man besides: kept
        (bits(1), bits(32), 0),                             # men: kept
    ]
    arrays = {"white": np.array([r[0] for r in rows], dtype=np.uint64),
              "black": np.array([r[1] for r in rows], dtype=np.uint64),
              "kings": np.array([r[2] for r in rows], dtype=np.uint64),
              "stm": np.zeros(len(rows), dtype=np.uint8), "game": np.arange(len(rows))}
    kept = train.without_rule_draws("checkers", arrays)
    assert list(kept["game"]) == [2, 3, 4]


def test_selfplay_and_train_end_to_end(tmp_path):
    out = tmp_path / "games"
    played, kept = selfplay.run("checkers", 32, out, nodes=150, workers=2, progress=False,
                                eval_file=weights.HAND_SET)
    files = sorted(out.glob("checkers-*.npz"))
    assert played == 32 and len(files) == 2 and kept > 300
    first = files[0].read_bytes()
    assert selfplay.run("checkers", 32, out, nodes=150, workers=1, progress=False) == (0, 0)
    assert selfplay.run("checkers", 48, out, nodes=150, workers=1, progress=False,
                        eval_file=weights.HAND_SET)[0] == 16       # only the new batch
    assert files[0].read_bytes() == first                          # kept, not replayed
    data = selfplay.load([out], "checkers")
    assert len(np.unique(data["game"])) == 48
    twice = selfplay.load([out, out], "checkers")                 # another run's folder
    assert len(np.unique(twice["game"])) == 96 and set(np.unique(data["result"])) <= {-1, 0, 1}
    board = engine.Board("checkers")
    for w, b, k, stm in zip(data["white"][:50], data["black"][:50], data["kings"][:50], data["stm"][:50]):
        assert not (int(w) & int(b))                               # real positions
    fitted = tmp_path / "c.npz"
    figures = train.fit("checkers", [out], str(fitted), iterations=30, report=None)
    kept = train.without_rule_draws("checkers", data)
    assert figures["games"] == 48 and figures["positions"] + figures["held_out"] == len(kept["stm"])
    assert len(data["stm"]) - len(kept["stm"]) < len(data["stm"]) // 5      # few lone-king draws
    assert figures["train_loss"] < figures["train_loss_material"]
    engine.Engine(1, eval_file=fitted)
    assert weights.current("checkers") == str(fitted)
    assert engine.Engine(1).search(board, depth=4).best_move is not None
    # A warm start from that file: held to it by huge penalties, the fit gives it back; with
    # the usual ones it moves off it and fits this data at least as well.
    _, first_fit, _ = weights.read(fitted)
    again = tmp_path / "again.npz"
    train.fit("checkers", [out], str(again), l2=1e3, prior_l2=1e3, phase_l2=0, iterations=30,
              init=str(fitted), report=None)
    assert np.abs(weights.read(again)[1].astype(int) - first_fit).max() <= 1
    further = train.fit("checkers", [out], str(again), iterations=30, init=str(fitted), report=None)
    assert further["init"] == fitted.name          # the file, not where it lay
    assert further["train_loss"] <= figures["train_loss"] + 1e-3
    assert not np.array_equal(weights.read(again)[1], first_fit)
    with pytest.raises(engine.EngineError, match="not spanish"):
        train.fit("spanish", [out], str(again), init=str(fitted), report=None)


def test_selfplay_and_train_on_boards_of_two_words(tmp_path):
    """Canadian's 12x12 needs bits 0-76: the self-play files hold [N, 2] boards, whose words
    are the native position's, and the fit and the rule-draw filter read them as one board."""
    out = tmp_path / "games"
    played, kept = selfplay.run("canadian", 16, out, nodes=300, workers=1, progress=False,
                                eval_file=weights.HAND_SET)
    data = selfplay.load([out], "canadian")
    assert played == 16 and kept == len(data["stm"]) > 1000
    assert data["white"].shape == data["black"].shape == data["kings"].shape == (kept, 2)
    # Each stored board is the position's: its squares written as a FEN give the same words.
    spec = engine.Board("canadian").spec
    for i in range(0, kept, 97):
        lists = {}
        for colour, key in (("W", "white"), ("B", "black")):
            lo, hi = (int(x) for x in data[key][i])
            king_lo, king_hi = (int(x) for x in data["kings"][i])
            bits, kings = lo | hi << 64, king_lo | king_hi << 64
            lists[colour] = ",".join(("K" if kings >> b & 1 else "") + spec.square_names[b]
                                     for b in range(128) if bits >> b & 1)
        board = engine.Board("canadian", f"{'WB'[data['stm'][i]]}:W{lists['W']}:B{lists['B']}")
        w, b, k, stm = bitboards(board)
        assert (w, b, k, stm) == (tuple(data["white"][i]), tuple(data["black"][i]),
                                  tuple(data["kings"][i]), data["stm"][i])
    assert any(int(hi) for _, hi in data["white"]) and any(int(lo) for lo, _ in data["white"])
    # A lone king against a king is drawn by rule and left out; the rest is kept.
    king = {"white": np.array([[1 << 5, 0], [1 << 5 | 1 << 20, 0]], dtype=np.uint64),
            "black": np.array([[0, 1 << 12], [0, 1 << 12]], dtype=np.uint64),
            "kings": np.array([[1 << 5, 1 << 12], [1 << 5, 1 << 12]], dtype=np.uint64),
            "game": np.arange(2)}
    assert list(train.without_rule_draws("canadian", king)["game"]) == [1]
    fitted = tmp_path / "canadian.npz"
    figures = train.fit("canadian", [out], str(fitted), iterations=20, report=None)
    assert figures["games"] == 16 and figures["train_loss"] < figures["train_loss_material"]
    engine.Engine(1, eval_file=fitted)
    assert weights.current("canadian") == str(fitted)
    board = engine.Board("canadian")
    assert engine.Engine(1).search(board, depth=4).best_move in board.legal_moves()


def test_selfplay_seed_varies_the_openings():
    def openings(seed):
        data = selfplay.play_batch("checkers", 0, 4, 50, (4, 4), weights.HAND_SET, seed)
        first = np.flatnonzero(np.r_[True, np.diff(data["game"]) != 0])
        return [(int(data["white"][i]), int(data["black"][i])) for i in first]
    same = openings(0)
    assert openings(0) == same                  # a batch replays exactly
    assert openings(1) != same                  # another seed, other openings


def test_relabel_searches_the_positions_again(tmp_path):
    """relabel: the same positions (a seeded part of them), the played score kept as
    shallow_score, `score` the deeper search's; a rerun writes nothing; train reads the files."""
    source, out = tmp_path / "games", tmp_path / "deep"
    selfplay.run("checkers", 32, source, nodes=100, workers=1, progress=False,
                 eval_file=weights.HAND_SET)
    assert selfplay.relabel("checkers", source, out, nodes=600, share=0.5, workers=2,
                            progress=False)[0] == 2
    assert selfplay.relabel("checkers", source, out, nodes=600, share=0.5, progress=False) == (0, 0)
    for name in ("checkers-000000.npz", "checkers-000001.npz"):
        with np.load(source / name) as before, np.load(out / name) as after:
            rows = {(int(g), int(p)): i for i, (g, p) in enumerate(zip(before["game"],
                                                                        before["ply"]))}
            assert len(after["stm"]) == round(len(before["stm"]) * 0.5)
            found = [rows[(int(g), int(p))] for g, p in zip(after["game"], after["ply"])]
            assert found == sorted(found)                        # in the games' order
            for key in ("white", "black", "kings", "stm"):
                assert list(after[key]) == [before[key][i] for i in found]
            assert list(after["shallow_score"]) == [before["score"][i] for i in found]
            assert list(after["result"]) == [before["result"][i] for i in found]
            assert json.loads(str(after["meta"]))["relabel_nodes"] == 600
            # A game's first kept position is searched from an empty table: as a fresh engine.
            firsts = np.flatnonzero(np.r_[True, np.diff(after["game"]) != 0])
            arrays = {k: after[k] for k in after.files}
            for i in firsts[:3]:
                searched = engine.Engine(16).search(selfplay.board_of("checkers", arrays, i),
                                                    nodes=600)
                assert after["score"][i] == max(-3000, min(3000, searched.score))
            assert (after["score"] != after["shallow_score"]).any()
    data = selfplay.load([out], "checkers")
    assert "shallow_score" not in data and len(np.unique(data["game"])) == 32
    figures = train.fit("checkers", [out], str(tmp_path / "w.npz"), lam=1.0, iterations=10,
                        report=None)
    assert figures["train_loss"] < figures["train_loss_material"]
    with pytest.raises(engine.EngineError, match="must not be"):
        selfplay.relabel("checkers", source, source, progress=False)
    with pytest.raises(engine.EngineError, match="share in"):
        selfplay.relabel("checkers", source, out, share=0, progress=False)
    with pytest.raises(engine.EngineError, match="bitboards"):
        selfplay.relabel("dipole", source, out, progress=False)
    with pytest.raises(engine.EngineError, match="no self-play files of spanish"):
        selfplay.relabel("spanish", source, tmp_path / "s", progress=False)


def test_selfplay_and_train_errors(tmp_path, monkeypatch):
    import dataclasses
    from engine import games
    with pytest.raises(engine.EngineError, match="no self-play files of checkers"):
        train.fit("checkers", [tmp_path], str(tmp_path / "w.npz"), report=None)
    # Every built-in game learns; a game without a learned evaluation (a plugin's) is refused.
    monkeypatch.setitem(games.GAMES, "dipole", dataclasses.replace(games.GAMES["dipole"],
                                                                   learned=False))
    with pytest.raises(engine.EngineError, match="has none yet"):
        selfplay.run("dipole", 1, tmp_path, progress=False)
    with pytest.raises(engine.EngineError, match="has no learned evaluation"):
        train.fit("dipole", [tmp_path], str(tmp_path / "w.npz"), report=None)
    monkeypatch.undo()
    with pytest.raises(engine.EngineError, match="need 0 <= MIN <= MAX"):
        selfplay.run("checkers", 1, tmp_path, random_plies=(5, 2), progress=False)
    with pytest.raises(weights.WeightsError):
        selfplay.run("checkers", 1, tmp_path, eval_file=str(tmp_path / "none.npz"), progress=False)
