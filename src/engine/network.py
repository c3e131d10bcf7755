"""The draughts games' network evaluation: its inputs, its training, its files, and an integer
reference of what the native code (`_draughts_network.pxi`) computes.

    inputs    a piece on a square, of 4 kinds (own man, own king, the other side's man and
              king), as one side sees the board (Black's turned 180 degrees): 4 x squares
    layer 1   inputs -> H neurons, the same weights for the side to move's view and the
              other's, each clamped to [0, 1]
    layer 2   the two views (2H) -> H2 neurons, clamped to [0, 1]
    output    H2 -> 1: a logit, P(win for the side to move) = sigmoid(logit); the search reads
              it in centi-men (`centi` a logit, fitted so that a man is about 100)

Training (``fit``) minimises the cross-entropy of the game results blended with the search's
scores (``lam``), as the pattern evaluation's fit does, by Adam on mini-batches, holding out
whole games; the first layer's inputs are sparse (a row a piece), so each step is a sparse
product (scipy) and a few small dense ones (numpy). Then the weights are rounded to the
integers the native code uses (``quantize``): layer 1 int16 in 1/127 units, layer 2 int8 and
the output int16 in 1/64 units; ``reference`` evaluates those integers exactly as the native code
does, and the tests check that both agree on every position they try.

Files are weights files (``weights.py``) whose meta says ``"model": "network"``; their arrays are
``w1 b1 w2 b2 w3 b3``. A network file loads like any weights file (``EvalFile``), and checks
that no sum of layer 1 can leave int16 on a board of the variant.
"""

from __future__ import annotations

import hashlib
import json
import time

import numpy as np

from .errors import EngineError

UNIT = 127                  # a clamped activation of 1.0, in layer 1's and 2's integer units
SHIFT = 6                   # layers 2 and 3 weigh in 1/64 units
ARRAYS = ("w1", "b1", "w2", "b2", "w3", "b3")
DTYPES = {"w1": np.int16, "b1": np.int16, "w2": np.int8, "b2": np.int32, "w3": np.int16,
          "b3": np.int32}
MAX_H, MAX_H2 = 512, 64     # as _draughts_types.pxi's NET_MAX_H, NET_MAX_H2
PLAYED_SAMPLE = 50000       # held-out positions the evaluation that played is compared on


def _spec(variant: str):
    from .rulesets import DRAUGHTS_VARIANTS
    return DRAUGHTS_VARIANTS[variant]


def _native(variant: str):
    from . import patterns
    return patterns._native(variant)


def squares(variant: str) -> list[list[int]]:
    """For each side, each bit's square as that side sees the board (0 .. n - 1 in the
    variant's square order; Black's is the square turned 180 degrees), -1 off the board."""
    from . import Board
    spec = Board(variant).spec
    geometry = _spec(variant).geometry
    index = {b: i for i, b in enumerate(sorted(spec.square_names, key=spec.order_key))}
    at = {tuple(xy): b for b, xy in geometry.coords.items()}
    width = max(x for x, _ in at) + 1
    height = max(y for _, y in at) + 1
    white = [-1] * (64 * geometry.words)
    black = [-1] * (64 * geometry.words)
    for b, (x, y) in geometry.coords.items():
        white[b] = index[b]
        black[b] = index[at[(width - 1 - x, height - 1 - y)]]
    return [white, black]


def input_count(variant: str) -> int:
    return 4 * len(_spec(variant).geometry.coords)


def max_pieces(variant: str) -> int:
    """The most pieces a board of the variant holds (the start's)."""
    from . import patterns
    return patterns.start_pieces(variant)


# -- inputs ---------------------------------------------------------------------------------------------

def features(variant: str, white, black, kings, stm):
    """The active inputs of N positions, as two sparse [N, inputs] matrices (scipy CSR, float32):
    the side to move's view and the other side's."""
    import scipy.sparse as sp
    from . import patterns
    white, black, kings = (patterns.as_words(a) for a in (white, black, kings))
    stm = np.asarray(stm, dtype=np.uint8)
    table = np.array(squares(variant), dtype=np.int64)          # [2, nbits]
    n = len(_spec(variant).geometry.coords)
    count = len(stm)
    rows, cols_us, cols_them = [], [], []
    for b in sorted(_spec(variant).geometry.coords):
        word, bit = divmod(b, 64)
        mask = np.uint64(1) << np.uint64(bit)
        on_w = (white[:, word] & mask) != 0
        on_b = (black[:, word] & mask) != 0
        king = (kings[:, word] & mask) != 0
        for colour, on in ((0, on_w), (1, on_b)):
            where = np.flatnonzero(on)
            if not len(where):
                continue
            kind_own = np.where(king[where], 1, 0)                  # 0 man, 1 king
            mover = stm[where]
            # The side to move's view: own pieces are the mover's.
            own_for_us = colour == mover
            us = np.where(own_for_us, kind_own, 2 + kind_own) * n + table[mover, b]
            them = np.where(~own_for_us, kind_own, 2 + kind_own) * n + table[1 - mover, b]
            rows.append(where)
            cols_us.append(us)
            cols_them.append(them)
    r = np.concatenate(rows) if rows else np.zeros(0, np.int64)
    ones = np.ones(len(r), np.float32)
    shape = (count, 4 * n)
    return (sp.csr_matrix((ones, (r, np.concatenate(cols_us) if rows else r)), shape=shape),
            sp.csr_matrix((ones, (r, np.concatenate(cols_them) if rows else r)), shape=shape))


# -- the float model and its training -----------------------------------------------------------------

class Model:
    """The network in floats, as it is trained."""

    def __init__(self, inputs: int, hidden: int, hidden2: int, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.params = {
            "w1": (rng.standard_normal((inputs, hidden)) * 0.15).astype(np.float32),
            "b1": np.full(hidden, 0.1, np.float32),
            "w2": (rng.standard_normal((2 * hidden, hidden2)) / np.sqrt(2 * hidden)).astype(np.float32),
            "b2": np.zeros(hidden2, np.float32),
            "w3": (rng.standard_normal((hidden2, 1)) / np.sqrt(hidden2)).astype(np.float32),
            "b3": np.zeros(1, np.float32),
        }

    def forward(self, us, them, base=None):
        """(logits, what the gradient needs); `base`: logits added to the output (the
        patterns' values that a correcting network starts from)."""
        p = self.params
        a_us = us @ p["w1"] + p["b1"]
        a_them = them @ p["w1"] + p["b1"]
        pre1 = np.concatenate([a_us, a_them], axis=1)
        h1 = np.clip(pre1, 0, 1)
        pre2 = h1 @ p["w2"] + p["b2"]
        h2 = np.clip(pre2, 0, 1)
        out = (h2 @ p["w3"] + p["b3"])[:, 0]
        if base is not None:
            out = out + base
        return out, (pre1, h1, pre2, h2)

    def gradients(self, us, them, target, base=None):
        """(mean cross-entropy, gradient of each parameter)."""
        p = self.params
        out, (pre1, h1, pre2, h2) = self.forward(us, them, base)
        prob = 1 / (1 + np.exp(-out))
        loss = cross_entropy(prob, target)
        g_out = ((prob - target) / len(target)).astype(np.float32)[:, None]
        grads = {"w3": h2.T @ g_out, "b3": g_out.sum(0)}
        g_pre2 = (g_out @ p["w3"].T) * ((pre2 > 0) & (pre2 < 1))
        grads["w2"] = h1.T @ g_pre2
        grads["b2"] = g_pre2.sum(0)
        g_pre1 = (g_pre2 @ p["w2"].T) * ((pre1 > 0) & (pre1 < 1))
        h = p["b1"].shape[0]
        g_us, g_them = g_pre1[:, :h], g_pre1[:, h:]
        grads["w1"] = np.asarray(us.T @ g_us + them.T @ g_them)
        grads["b1"] = g_us.sum(0) + g_them.sum(0)
        return loss, grads

    def clip(self, pieces: int = 40) -> None:
        """Keep the weights inside what their integers can hold (see quantize): layer 1's sums,
        of a bias and a row for each of at most `pieces` pieces, inside 16 bits."""
        p = self.params
        limit = 32000 / UNIT / (pieces + 1)
        np.clip(p["w1"], -limit, limit, out=p["w1"])
        np.clip(p["b1"], -limit, limit, out=p["b1"])
        np.clip(p["w2"], -127 / 64, 127 / 64, out=p["w2"])
        np.clip(p["w3"], -32767 / 64 / UNIT, 32767 / 64 / UNIT, out=p["w3"])


def cross_entropy(prob, target) -> float:
    prob = np.clip(prob, 1e-7, 1 - 1e-7)
    return float(-(target * np.log(prob) + (1 - target) * np.log(1 - prob)).mean())


class Adam:
    def __init__(self, params: dict, rate: float):
        self.rate = rate
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, params: dict, grads: dict) -> None:
        self.t += 1
        c1, c2 = 1 - 0.9 ** self.t, 1 - 0.999 ** self.t
        for k, g in grads.items():
            g = g.reshape(params[k].shape)
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            params[k] -= self.rate * (self.m[k] / c1) / (np.sqrt(self.v[k] / c2) + 1e-8)


# -- integers ---------------------------------------------------------------------------------------------

def quantize(model: Model, centi: int) -> dict:
    """The model's weights as the native code's integers (see the module's docstring)."""
    p = model.params
    return {
        "w1": np.clip(np.rint(p["w1"] * UNIT), -32767, 32767).astype(np.int16),
        "b1": np.clip(np.rint(p["b1"] * UNIT), -32767, 32767).astype(np.int16),
        # Layer 2 reads activations of UNIT for 1.0, weighs in 1/64: its bias is in both.
        "w2": np.ascontiguousarray(np.clip(np.rint(p["w2"] * 64), -127, 127).astype(np.int8).T),
        "b2": np.rint(p["b2"] * UNIT * 64).astype(np.int32),
        "w3": np.clip(np.rint(p["w3"][:, 0] * 64), -32767, 32767).astype(np.int16),
        "b3": np.array(np.rint(p["b3"][0] * UNIT * 64), dtype=np.int32),
    }


def reference(arrays: dict, centi: int, us, them) -> np.ndarray:
    """The native evaluation of N positions from their two views' inputs (sparse or dense
    [N, inputs] 0/1 matrices), in integers as _draughts_network.pxi computes it."""
    w1 = arrays["w1"].astype(np.int64)
    acc_us = np.asarray(us @ w1).astype(np.int64) + arrays["b1"]
    acc_them = np.asarray(them @ w1).astype(np.int64) + arrays["b1"]
    h1 = np.clip(np.concatenate([acc_us, acc_them], axis=1), 0, UNIT)
    z = h1 @ arrays["w2"].astype(np.int64).T + arrays["b2"]
    h2 = np.clip(z >> SHIFT, 0, UNIT)
    out = h2 @ arrays["w3"].astype(np.int64) + int(arrays["b3"])
    value = out * centi
    divisor = UNIT << SHIFT
    return np.where(value < 0, -((-value) // divisor), value // divisor)


def sum_bound(arrays: dict, variant: str) -> int:
    """The largest |sum| layer 1 can reach on a board of the variant: each neuron's bias and
    its largest weights for as many pieces as a board holds (int16 must hold it)."""
    w1 = np.abs(arrays["w1"].astype(np.int64))
    top = np.sort(w1, axis=0)[::-1][:max_pieces(variant)].sum(axis=0)
    return int((np.abs(arrays["b1"].astype(np.int64)) + top).max())


# -- files ----------------------------------------------------------------------------------------------

def digest(arrays: dict) -> str:
    h = hashlib.sha256()
    for name in ARRAYS:
        h.update(np.ascontiguousarray(arrays[name]).tobytes())
    return h.hexdigest()


def save(path, variant: str, arrays: dict, centi: int, info: dict | None = None,
         over_patterns: str | None = None) -> None:
    """Write a network weights file (checked as a load would check it). `over_patterns`: the
    SHA-256 of the pattern weights the network corrects (its value is added to theirs)."""
    from .files import replacing
    from .weights import FORMAT
    meta = {"format": FORMAT, "variant": variant, "model": "network",
            "inputs": input_count(variant), "hidden": int(arrays["w1"].shape[1]),
            "hidden2": int(arrays["w2"].shape[0]), "centi": int(centi),
            "sha256": digest(arrays), "info": info or {}}
    if over_patterns is not None:
        meta["over_patterns"] = over_patterns
    check(path, variant, arrays, meta)
    with replacing(path) as fh:
        np.savez_compressed(fh, meta=np.array(json.dumps(meta)), **arrays)


def check(path, variant: str, arrays: dict, meta: dict) -> None:
    """Every field of a network file, before anything is installed; WeightsError naming it."""
    from .weights import WeightsError
    inputs, hidden, hidden2 = meta.get("inputs"), meta.get("hidden"), meta.get("hidden2")
    if inputs != input_count(variant):
        raise WeightsError(f"{path}: a network of {inputs} inputs; {variant} has "
                           f"{input_count(variant)}")
    if not (isinstance(hidden, int) and isinstance(hidden2, int) and 0 < hidden <= MAX_H
            and 0 < hidden2 <= MAX_H2):
        raise WeightsError(f"{path}: layers of {hidden} and {hidden2} neurons (at most "
                           f"{MAX_H} and {MAX_H2})")
    shapes = {"w1": (inputs, hidden), "b1": (hidden,), "w2": (hidden2, 2 * hidden),
              "b2": (hidden2,), "w3": (hidden2,), "b3": ()}
    for name in ARRAYS:
        a = arrays[name]
        if a.dtype != DTYPES[name] or a.shape != shapes[name]:
            raise WeightsError(f"{path}: {name} must be {np.dtype(DTYPES[name]).name} of shape "
                               f"{shapes[name]}, not {a.dtype} {a.shape}")
    centi = meta.get("centi")
    if not isinstance(centi, int) or not 0 < centi <= 10000:
        raise WeightsError(f"{path}: centi-men a logit must be 1 to 10000, not {centi!r}")
    if digest(arrays) != meta.get("sha256"):
        raise WeightsError(f"{path}: checksum mismatch (the file is damaged)")
    if sum_bound(arrays, variant) > 32767:
        raise WeightsError(f"{path}: a sum of layer 1 could leave 16 bits on a {variant} board")
    base = meta.get("over_patterns")
    if base is not None and base != patterns_digest(variant):
        raise WeightsError(f"{path}: this network corrects the pattern weights {str(base)[:12]}..., "
                           f"not those {variant} plays now: load those first")


def patterns_digest(variant: str) -> str | None:
    """The SHA-256 of the pattern weights the variant plays now, under its network if one plays
    (None: the hand-set terms)."""
    from .weights import HAND_SET, current, read
    if variant in _UNDER:
        return _UNDER[variant]
    source = current(variant)
    return None if source == HAND_SET else read(source)[2].get("sha256")


_UNDER: dict = {}        # variant -> the patterns' digest under the network it plays, if one


def install(variant: str, arrays: dict, meta: dict) -> None:
    """Make every board and search of the variant evaluate with this (checked) network."""
    under = patterns_digest(variant)
    native = _native(variant)
    native._set_network(native.draughts_variant_id(variant), squares(variant),
                        np.ascontiguousarray(arrays["w1"]), np.ascontiguousarray(arrays["b1"]),
                        grouped(arrays["w2"]),
                        np.ascontiguousarray(arrays["b2"]),
                        np.ascontiguousarray(arrays["w3"]), int(arrays["b3"]), int(meta["centi"]),
                        "over_patterns" in meta)
    _UNDER[variant] = under


def grouped(w2: np.ndarray) -> np.ndarray:
    """Layer 2's weights [h2, 2h] as the native kernel reads them: for each group g of four
    inputs and neuron k, the weights of inputs 4g .. 4g + 3 side by side ([groups, h2, 4], int8,
    flat; inputs past 2h weigh 0)."""
    h2, inputs = w2.shape
    groups = (inputs + 3) // 4
    padded = np.zeros((h2, groups * 4), dtype=np.int8)
    padded[:, :inputs] = w2
    return np.ascontiguousarray(padded.reshape(h2, groups, 4).transpose(1, 0, 2)).reshape(-1)


def uninstall(variant: str) -> None:
    _UNDER.pop(variant, None)
    native = _native(variant)
    native._clear_network(native.draughts_variant_id(variant))


# -- fitting ---------------------------------------------------------------------------------------------

def fit(variant: str, dirs: list, out: str, hidden: int = 128, hidden2: int = 16,
        epochs: int = 20, lam: float = 0.5, rate: float = 1e-3, batch: int = 8192,
        holdout: float = 0.1, seed: int = 1, report=print, progress: bool = True,
        over_patterns: bool = False) -> dict:
    """Train a network on the self-play positions of `dirs` and write it to `out`; returns the
    figures (losses of the network and of the evaluation that played, by held-out games).
    `over_patterns`: the network learns a correction of the pattern weights the variant plays
    now (its value is added to theirs), starting from no correction."""
    from tqdm import tqdm

    from . import selfplay
    from .train import split_games, without_rule_draws
    if not (0 < hidden <= MAX_H and 0 < hidden2 <= MAX_H2):
        raise EngineError(f"layers of 1 to {MAX_H} and 1 to {MAX_H2} neurons")
    if not 0 <= lam <= 1 or not 0 <= holdout < 1 or epochs < 1:
        raise EngineError("lambda in [0, 1], holdout in [0, 1), epochs 1 or more")
    started = time.monotonic()
    arrays = without_rule_draws(variant, selfplay.load(dirs, variant))
    held = split_games(arrays["game"], holdout, seed)
    centi = played_scale(variant, arrays, ~held)
    report(f"{len(arrays['stm']):,} positions of {len(np.unique(arrays['game'])):,} games; "
           f"{int(held.sum()):,} held out; the search's scores: {centi} centi-men a logit")
    us, them = features(variant, arrays["white"], arrays["black"], arrays["kings"], arrays["stm"])
    target = _target(arrays, lam, centi)
    train_rows, valid_rows = np.flatnonzero(~held), np.flatnonzero(held)
    model = Model(input_count(variant), hidden, hidden2, seed)
    pieces = max_pieces(variant)
    base = None
    under = patterns_digest(variant) if over_patterns else None
    if over_patterns:
        if under is None:
            raise EngineError(f"{variant} plays no pattern weights for a network to correct")
        report("the patterns' value of every position (the network learns their correction)...")
        from . import weights
        made_of = weights.sources(variant)
        weights.restore(variant, made_of[:1])   # the patterns alone, without a network over them
        try:
            base = (static_values(variant, arrays, np.arange(len(target)), progress)
                    / centi).astype(np.float32)
        finally:
            weights.restore(variant, made_of)
        model.params["w3"] *= 0.01              # start from (almost) no correction
    adam = Adam(model.params, rate)
    rng = np.random.default_rng(seed)
    figures: dict = {"positions": int(len(target)), "hidden": hidden, "hidden2": hidden2,
                     "lambda": lam, "centi": centi, "epochs": epochs}
    for epoch in range(epochs):
        order = rng.permutation(train_rows)
        losses = []
        steps = range(0, len(order), batch)
        for start in tqdm(steps, desc=f"epoch {epoch + 1}/{epochs}", unit="batch",
                          disable=None if progress else True, leave=False):
            rows = order[start:start + batch]
            loss, grads = model.gradients(us[rows], them[rows], target[rows],
                                          None if base is None else base[rows])
            adam.step(model.params, grads)
            model.clip(pieces)
            losses.append(loss)
        if epoch >= epochs // 2:
            adam.rate *= 0.7
        figures.setdefault("train_losses", []).append(round(float(np.mean(losses)), 6))
        line = f"epoch {epoch + 1}/{epochs}: train {np.mean(losses):.5f}"
        if len(valid_rows):
            prob = 1 / (1 + np.exp(-model.forward(us[valid_rows], them[valid_rows],
                                                  None if base is None else base[valid_rows])[0]))
            figures["valid_loss"] = cross_entropy(prob, target[valid_rows])
            line += f", held out {figures['valid_loss']:.5f}"
        report(line + f" ({time.monotonic() - started:.0f} s)")
    arrays_q = quantize(model, centi)
    if len(valid_rows):
        ints = reference(arrays_q, centi, us[valid_rows], them[valid_rows])
        if base is not None:
            ints = ints + np.rint(base[valid_rows] * centi)
        figures["valid_loss_quantized"] = cross_entropy(1 / (1 + np.exp(-ints / centi)),
                                                        target[valid_rows])
        # The evaluation that played is read position by position (slow): both are compared
        # on the same sample of the held-out positions, spread evenly over them.
        sample = np.unique(np.linspace(0, len(valid_rows) - 1,
                                       min(len(valid_rows), PLAYED_SAMPLE)).astype(np.int64))
        figures["valid_loss_sample"] = cross_entropy(1 / (1 + np.exp(-ints[sample] / centi)),
                                                     target[valid_rows[sample]])
        figures["valid_loss_played"] = played_loss(variant, arrays, valid_rows[sample], target)
        report(f"held out: network {figures['valid_loss_quantized']:.5f} (as the search reads "
               f"it); on {len(sample):,} of those positions the network "
               f"{figures['valid_loss_sample']:.5f}, the evaluation that played "
               f"{figures['valid_loss_played']:.5f}")
    figures["seconds"] = round(time.monotonic() - started, 1)
    save(out, variant, arrays_q, centi, figures, over_patterns=under)
    report(f"wrote {out}")
    return figures


def _target(arrays: dict, lam: float, centi: float) -> np.ndarray:
    """The result for the side to move (1, 1/2, 0) blended by `lam` with sigmoid(score)."""
    result = arrays["result"].astype(np.float32)
    mover = np.where(arrays["stm"] == 0, result, -result)
    target = (mover + 1) / 2
    if lam > 0:
        target = (1 - lam) * target + lam / (1 + np.exp(-arrays["score"].astype(np.float32) / centi))
    return target.astype(np.float32)


def played_scale(variant: str, arrays: dict, rows) -> int:
    """Centi-men a logit: the scale at which the search's scores best predict the results."""
    score = arrays["score"][rows].astype(np.float64)
    result = arrays["result"][rows].astype(np.float64)
    mover = (np.where(arrays["stm"][rows] == 0, result, -result) + 1) / 2
    best = min(range(30, 601, 5), key=lambda c: cross_entropy(1 / (1 + np.exp(-score / c)), mover))
    return int(best)


def played_loss(variant: str, arrays: dict, rows, target) -> float:
    """The loss of the evaluation the variant plays now (the shipped patterns, say) on the
    positions `rows`: each board's own static value, at the scale that suits it best."""
    values = static_values(variant, arrays, rows, progress=False)
    return min(cross_entropy(1 / (1 + np.exp(-values / c)), target[rows])
               for c in range(30, 601, 5))


def static_values(variant: str, arrays: dict, rows, progress: bool = True) -> np.ndarray:
    """The evaluation the variant plays now, of the positions `rows` (centi-men)."""
    from tqdm import tqdm
    from .selfplay import board_of
    return np.array([board_of(variant, arrays, i).evaluate()
                     for i in tqdm(rows, unit="pos", disable=None if progress else True,
                                   leave=False)], dtype=np.float64)
