"""Fitting the learned evaluation to self-play games: ``python -m engine train``.

The model is the evaluation itself. For the draughts games (patterns.py): for a position, the
sum of the weights its regions select (White's minus Black's) and of the whole-board terms, each
blended between its opening and ending value by the number of pieces. For the other games
(linear.py, ``fit_linear`` below): the sum of each feature's count times its weight, blended the
same way by the family's phase. It is fitted by logistic regression: the
probability that the side to move wins is sigmoid(value), and the target is the game's result
(1, 1/2, 0 for the side to move), or with ``lam`` > 0 a blend with sigmoid of the search's
score. The loss is the cross-entropy plus an L2 penalty on the region weights (most region
contents are rare), minimised by L-BFGS (scipy). Whole games are held out to report the
validation loss, so that positions of one game never sit on both sides.

Units: the fit runs in logits. A first fit of material alone (men, kings) sets the scale: its
man is 100 centi-men, so the learned values keep the units the search was written in (a man
about 100, its aspiration window 25).
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import numpy as np

from . import linear, patterns, selfplay, weights
from .errors import EngineError


def _sigmoid(x):
    return 0.5 * (1.0 + np.tanh(0.5 * x))


class Data:
    """Features and targets of a set of positions, ready for the loss."""

    def __init__(self, variant: str, arrays: dict, lam: float, scale: float,
                 drawish: bool = False, phase: str = "pieces"):
        own, other, dense, pieces = patterns.features(
            variant, arrays["white"], arrays["black"], arrays["kings"], arrays["stm"])
        if phase == "tempo":
            pieces = patterns.tempo(variant, arrays["white"], arrays["black"], arrays["kings"])
        start = patterns.phase_start(variant, phase == "tempo")
        self.own, self.other = own, other
        self.kings = patterns.king_features(variant, arrays["white"], arrays["black"],
                                            arrays["kings"])
        # White's value is divided by these when drawish material is scaled (None: never).
        self.divisors = patterns.drawish_divisors(arrays["white"], arrays["black"],
                                                  arrays["kings"]) if drawish else None
        self.dense = dense.astype(np.float64)
        self.phase = np.minimum(pieces, start) / start                 # 1 opening .. 0 ending
        # (pieces on the board, or with phase "tempo" the rows the men still have to go)
        self.sign = np.where(arrays["stm"] == 0, 1.0, -1.0)            # White's view -> mover's
        result = arrays["result"].astype(np.float64) * self.sign       # for the side to move
        target = (result + 1) / 2
        if lam > 0:
            target = (1 - lam) * target + lam * _sigmoid(arrays["score"] / scale)
        self.target = target
        # Rows: the regions, the king-square table (both under the L2 penalty), then the
        # whole-board terms.
        self.n_regions = patterns.region_rows(variant)
        self.n_pattern = self.n_regions + patterns.king_rows(variant)

    def __len__(self):
        return len(self.target)

    def _white_value(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray | float]:
        """White's value of every position before drawish scaling, and the scale factor."""
        w = theta.reshape(-1, 2)
        p = self.phase
        opening = w[self.own, 0].sum(1) - w[self.other, 0].sum(1)
        ending = w[self.own, 1].sum(1) - w[self.other, 1].sum(1)
        table = w[self.n_regions:self.n_pattern]
        opening += self.kings @ table[:, 0]
        ending += self.kings @ table[:, 1]
        d = w[self.n_pattern:]
        opening += self.dense @ d[:, 0]
        ending += self.dense @ d[:, 1]
        value = opening * p + ending * (1 - p)
        if self.divisors is None:
            return value, 1.0
        ahead_white, ahead_black = self.divisors
        return value, 1.0 / np.where(value > 0, ahead_white, np.where(value < 0, ahead_black, 1))

    def logits(self, theta: np.ndarray) -> np.ndarray:
        value, factor = self._white_value(theta)
        return self.sign * value * factor

    prior: np.ndarray | None = None     # whole-board terms' prior values (logits), set by fit()
    prior_l2 = 0.0
    anchor: np.ndarray | None = None    # region weights' prior values (None: zero), set by fit()

    def loss_grad(self, theta: np.ndarray, l2: float, phase_l2: float = 0.0) -> tuple[float, np.ndarray]:
        value, factor = self._white_value(theta)
        prob = _sigmoid(self.sign * value * factor)
        eps = 1e-12
        t = self.target
        n = len(t)
        loss = -np.mean(t * np.log(prob + eps) + (1 - t) * np.log(1 - prob + eps))
        # d loss / d (White's value before scaling); the scale is constant where it applies
        g = self.sign * factor * (prob - t) / n
        go, ge = g * self.phase, g * (1 - self.phase)
        size = len(theta) // 2
        grad = np.zeros((size, 2))
        for col, weight in ((0, go), (1, ge)):
            rep = np.repeat(weight, self.own.shape[1])
            grad[:, col] += np.bincount(self.own.ravel(), weights=rep, minlength=size)
            grad[:, col] -= np.bincount(self.other.ravel(), weights=rep, minlength=size)
            grad[self.n_regions:self.n_pattern, col] = self.kings.T @ weight
            grad[self.n_pattern:, col] = self.dense.T @ weight
        w = theta.reshape(-1, 2)
        penalty = np.zeros_like(grad)
        penalty[:self.n_pattern] = w[:self.n_pattern]
        if self.anchor is not None:
            # Warm start: the region weights are pulled towards the earlier generation's, not
            # towards zero, so what its (larger) data taught is kept where this data is silent.
            penalty[:self.n_pattern] -= self.anchor
        loss += l2 * float((penalty ** 2).sum())
        grad += 2 * l2 * penalty
        if self.prior is not None and self.prior_l2:
            # The whole-board terms are pulled towards the hand-set values: results alone
            # confound them (a king's worth with its mobility, material with kings-only draws).
            diff = w[self.n_pattern:] - self.prior
            loss += self.prior_l2 * float((diff ** 2).sum())
            grad[self.n_pattern:] += 2 * self.prior_l2 * diff
        loss += phase_penalty(w, grad, phase_l2)
        return loss, grad.ravel()


def phase_penalty(w: np.ndarray, grad: np.ndarray, phase_l2: float) -> float:
    """Opening and ending values stay close unless the data insist: a term seen mostly in one
    phase (a king among many men) must not get an extreme value in the other. Adds the
    penalty's gradient to `grad` (rows x 2); returns the penalty."""
    if not phase_l2:
        return 0.0
    diff = w[:, 0] - w[:, 1]
    grad[:, 0] += 2 * phase_l2 * diff
    grad[:, 1] -= 2 * phase_l2 * diff
    return phase_l2 * float((diff ** 2).sum())


def material_scale(data: Data) -> float:
    """Logits per man of a material-only fit (men, kings, side to move) to the results: its
    size turns the fitted logits into centi-men. Negative where men are a burden
    (antidraughts, whose men are then worth -100 centi-men)."""
    from scipy.optimize import minimize
    X = data.dense[:, [0, 1, 6]] * data.sign[:, None]
    t = data.target

    def f(v):
        prob = _sigmoid(X @ v)
        loss = -np.mean(t * np.log(prob + 1e-12) + (1 - t) * np.log(1 - prob + 1e-12))
        return loss, X.T @ (prob - t) / len(t)
    v = minimize(f, np.array([1.0, 3.0, 0.0]), jac=True, method="L-BFGS-B").x
    if not abs(v[0]) > 0.05:
        raise EngineError("the games do not show that a man is worth anything (too few games, "
                          "or all drawn?): play more self-play games")
    return float(v[0])


def split_games(games: np.ndarray, holdout: float, seed: int = 1) -> np.ndarray:
    """A boolean mask of the positions whose game is held out for validation."""
    ids = np.unique(games)
    rng = np.random.default_rng(seed)
    held = rng.choice(ids, size=max(1, int(round(len(ids) * holdout))), replace=False) \
        if holdout > 0 and len(ids) > 1 else np.array([], dtype=ids.dtype)
    return np.isin(games, held)


def hand_prior(variant: str) -> np.ndarray:
    """The hand-set evaluation's values of the whole-board terms (centi-men, opening = ending)."""
    from .evaluation import DRAUGHTS_WEIGHTS
    w: dict = DRAUGHTS_WEIGHTS[variant]
    values = [w["man"], w["king"], w["king_mobility"], *w["runaway"][1:4], 0, w["balance"]]
    values += [0] * (len(patterns.DENSE_TERMS) - len(values))      # terms it does not have
    return np.repeat(np.array(values, dtype=np.float64)[:, None], 2, axis=1)


def without_rule_draws(variant: str, arrays: dict) -> dict:
    """Drop kings-only positions with a lone king against few kings: the evaluation scores them
    drawn by rule (evaluation.py's lone_king_draw), and their results would teach the
    whole-board terms that kings are worth little."""
    from .evaluation import DRAUGHTS_WEIGHTS
    limit = DRAUGHTS_WEIGHTS[variant]["lone_king_draw"]
    white, black, kings = (patterns.as_words(arrays[k]) for k in ("white", "black", "kings"))
    nw, nb = patterns.popcount(white), patterns.popcount(black)
    kings_only = ((white | black) == kings).all(axis=1)
    ruled = kings_only & (((nw == 1) & (nb <= limit)) | ((nb == 1) & (nw <= limit)))
    return {k: v[~ruled] for k, v in arrays.items()}


@contextlib.contextmanager
def _iteration_bar(iterations: int, report):
    """A progress bar of L-BFGS's iterations (at most `iterations`; it may stop earlier, when
    the loss no longer falls) for a fit that reports; yields minimize's callback."""
    from tqdm import tqdm
    with tqdm(total=iterations, unit="it", desc="L-BFGS", disable=None if report else True,
              leave=False) as bar:
        yield lambda *_: bar.update(1)


def fit(variant: str, dirs: list, out: str, lam: float = 0.5, l2: float = 1e-4,
        phase_l2: float = 1e-3, prior_l2: float = 1e-2, holdout: float = 0.1,
        iterations: int = 300, init: str | None = None, drawish: bool | None = None,
        phase: str = "pieces", report=print) -> dict:
    """Fit the weights of `variant` to the self-play games in `dirs`, write them to `out`;
    returns the figures (positions, games, losses, the man's value in logits). With `init` (a
    weights file of the variant, e.g. the generation that played the games) the fit starts from
    its weights and the penalties pull towards them instead of towards zero and the hand-set
    whole-board values. `drawish` (default: patterns.DRAWISH_BY_DEFAULT) fits, and writes, an
    evaluation that scales drawish material down; `phase` ("pieces" or "tempo") is what blends
    opening and ending values."""
    try:
        from scipy.optimize import minimize
    except ImportError:
        raise EngineError("training needs scipy: pip install 'dimensiones[train]'") from None
    if not 0 <= lam <= 1 or min(l2, phase_l2, prior_l2) < 0 or not 0 <= holdout < 1:
        raise EngineError("need 0 <= lambda <= 1, penalties >= 0 and 0 <= holdout < 1")
    if weights.kind(variant) is linear:
        if drawish or phase != "pieces" or prior_l2 != 1e-2:
            raise EngineError(f"--drawish, --phase and --prior-l2 are the draughts games' "
                              f"options; {variant}'s fit pulls every weight towards the "
                              f"hand-set values by --l2")
        return fit_linear(variant, dirs, out, lam=lam, l2=l2, phase_l2=phase_l2,
                          holdout=holdout, iterations=iterations, init=init, report=report)
    if weights.kind(variant) is not patterns:
        raise EngineError(f"{variant} has no learned evaluation to train")
    if phase not in patterns.PHASES:
        raise EngineError(f"phase must be one of {', '.join(patterns.PHASES)}, not {phase!r}")
    started = time.perf_counter()
    if drawish is None:
        drawish = variant in patterns.DRAWISH_BY_DEFAULT
    start_weights = None
    if init is not None:
        found, stored, _ = weights.read(init)
        if found != variant:
            raise EngineError(f"{init}: weights for {found}, not {variant}")
        start_weights = stored.astype(np.float64) / weights.SCALE           # centi-men
    arrays = without_rule_draws(variant, selfplay.load(dirs, variant))
    held = split_games(arrays["game"], holdout)
    train_rows = {k: v[~held] for k, v in arrays.items()}
    valid_rows = {k: v[held] for k, v in arrays.items()}
    # The scale first (results only), then the data with the chosen target.
    scale_logits = material_scale(Data(variant, train_rows, 0.0, 100.0))
    centi_per_logit = 100.0 / abs(scale_logits)
    train = Data(variant, train_rows, lam, centi_per_logit, drawish, phase)
    valid = Data(variant, valid_rows, lam, centi_per_logit, drawish, phase) if held.any() else None
    train.prior = hand_prior(variant) / centi_per_logit
    train.prior_l2 = prior_l2
    size = patterns.layout_size(variant)
    theta = np.zeros((size, 2))
    theta[size - len(patterns.DENSE_TERMS), :] = scale_logits         # a man, to start with
    if start_weights is not None:
        theta = start_weights / centi_per_logit
        train.anchor = theta[:train.n_pattern].copy()
        train.prior = theta[train.n_pattern:].copy()
    if report:
        report(f"{len(train):,} training positions from {len(np.unique(train_rows['game'])):,} "
               f"games, {0 if valid is None else len(valid):,} held out; a man = "
               f"{scale_logits:.3f} logits")
    material = np.zeros((size, 2))
    material[size - len(patterns.DENSE_TERMS), :] = scale_logits
    baseline = train.loss_grad(material.ravel(), 0.0)[0]
    with _iteration_bar(iterations, report) as step:
        result = minimize(lambda th: train.loss_grad(th, l2, phase_l2), theta.ravel(), jac=True,
                          method="L-BFGS-B", options={"maxiter": iterations}, callback=step)
    theta = result.x
    figures = {
        "positions": len(train), "held_out": 0 if valid is None else len(valid),
        "games": int(len(np.unique(arrays["game"]))), "lambda": lam, "l2": l2,
        "phase_l2": phase_l2, "prior_l2": prior_l2, "drawish": drawish, "phase": phase,
        "init": None if init is None else Path(init).name,
        "man_logits": scale_logits, "train_loss_material": baseline,
        "train_loss": float(train.loss_grad(theta, 0.0)[0]), "iterations": int(result.nit),
    }
    if valid is not None:
        figures["valid_loss_material"] = float(valid.loss_grad(material.ravel(), 0.0)[0])
        figures["valid_loss"] = float(valid.loss_grad(theta, 0.0)[0])
    fitted = theta.reshape(-1, 2) * centi_per_logit
    figures["seconds"] = round(time.perf_counter() - started, 1)
    weights.save(out, variant, fitted, info=figures, drawish=drawish, phase=phase)
    if report:
        report(f"loss {figures['train_loss']:.4f} (material only {baseline:.4f})"
               + (f", held out {figures['valid_loss']:.4f} (material only "
                  f"{figures['valid_loss_material']:.4f})" if valid is not None else "")
               + f"; {figures['iterations']} iterations, {figures['seconds']} s -> {out}")
        dense = dict(zip(patterns.DENSE_TERMS, fitted[-len(patterns.DENSE_TERMS):].tolist()))
        report("whole-board terms (opening, ending), centi-men: " + ", ".join(
            f"{k} {v[0]:.0f}/{v[1]:.0f}" for k, v in dense.items()))
    return figures


# -- the linear evaluation of the other games (linear.py) -----------------------------------------

class LinearData:
    """Features and targets of the positions of a game with a linear evaluation."""

    def __init__(self, variant: str, arrays: dict, lam: float, scale: float):
        self.X, self.phase = linear.features(variant, arrays["position"], arrays["start"])
        self.XT = self.X.T.tocsr()
        self.sign = np.where(arrays["stm"] == 0, 1.0, -1.0)            # White's view -> mover's
        self.result, self.score = arrays["result"].astype(np.float64), arrays["score"]
        self.set_target(lam, scale)

    def set_target(self, lam: float, scale: float) -> None:
        """The result for the side to move (1, 1/2, 0), blended by `lam` with sigmoid(search
        score / scale)."""
        target = (self.result * self.sign + 1) / 2
        if lam > 0:
            target = (1 - lam) * target + lam * _sigmoid(self.score / scale)
        self.target = target

    def __len__(self):
        return len(self.target)

    def white_value(self, theta: np.ndarray) -> np.ndarray:
        w = theta.reshape(-1, 2)
        return (self.X @ w[:, 0]) * self.phase + (self.X @ w[:, 1]) * (1 - self.phase)

    def loss_grad(self, theta: np.ndarray, prior: np.ndarray, l2: float,
                  phase_l2: float = 0.0) -> tuple[float, np.ndarray]:
        prob = _sigmoid(self.sign * self.white_value(theta))
        t = self.target
        loss = -np.mean(t * np.log(prob + 1e-12) + (1 - t) * np.log(1 - prob + 1e-12))
        g = self.sign * (prob - t) / len(t)
        grad = np.stack([self.XT @ (g * self.phase), self.XT @ (g * (1 - self.phase))], axis=1)
        # Every weight is pulled towards the prior (the hand-set value, or the generation the
        # fit started from): rare features keep it, common ones go where the games say.
        w = theta.reshape(-1, 2)
        diff = w - prior
        loss += l2 * float((diff ** 2).sum())
        grad += 2 * l2 * diff
        loss += phase_penalty(w, grad, phase_l2)
        return loss, grad.ravel()


def prior_scale(data: LinearData, prior: np.ndarray) -> float:
    """Logits per centi-unit of the prior evaluation (hand-set, or the generation the fit
    starts from) fitted alone to the results: its inverse keeps the learned weights in the
    units the search was written in (a pawn, a checker, a man about 100)."""
    from scipy.optimize import minimize
    v = data.sign * data.white_value(prior.ravel())
    t = data.target

    def f(a):
        prob = _sigmoid(a[0] * v)
        loss = -np.mean(t * np.log(prob + 1e-12) + (1 - t) * np.log(1 - prob + 1e-12))
        return loss, np.array([np.mean(v * (prob - t))])
    a = float(minimize(f, np.array([0.005]), jac=True, method="L-BFGS-B").x[0])
    if not a > 1e-5:
        raise EngineError("the games do not show that the evaluation predicts their results "
                          "(too few games, or all drawn?): play more self-play games")
    return a


def fit_linear(variant: str, dirs: list, out: str, lam: float = 0.5, l2: float = 1e-4,
               phase_l2: float = 1e-3, holdout: float = 0.1, iterations: int = 300,
               init: str | None = None, report=print) -> dict:
    """Fit a game's linear evaluation (linear.py) to its self-play games; as fit() for the
    draughts games: logistic regression of the results (blended with the search's score by
    `lam`), whole games held out, L-BFGS. Every weight is pulled towards the prior by `l2`: the
    hand-set evaluation, or with `init` the weights file the fit starts from."""
    from scipy.optimize import minimize
    started = time.perf_counter()
    prior = linear.prior(variant)
    if init is not None:
        found, stored, _ = weights.read(init)
        if found != variant:
            raise EngineError(f"{init}: weights for {found}, not {variant}")
        prior = stored.astype(np.float64) / weights.SCALE
    arrays = selfplay.load(dirs, variant)
    held = split_games(arrays["game"], holdout)
    train_rows = {k: v[~held] for k, v in arrays.items()}
    valid_rows = {k: v[held] for k, v in arrays.items()}
    train = LinearData(variant, train_rows, 0.0, 100.0)      # results alone, for the scale
    per_centi = prior_scale(train, prior)                    # logits per centi-unit
    train.set_target(lam, 1 / per_centi)
    valid = LinearData(variant, valid_rows, lam, 1 / per_centi) if held.any() else None
    start = prior * per_centi
    if report:
        report(f"{len(train):,} training positions from {len(np.unique(train_rows['game'])):,} "
               f"games, {0 if valid is None else len(valid):,} held out; 100 centi-units of "
               f"the prior evaluation = {100 * per_centi:.3f} logits")
    baseline = train.loss_grad(start.ravel(), start, 0.0)[0]
    # Rows the search does not read from the weights stay where they are.
    fixed = set(linear.fixed_rows(variant))
    bounds = [(v, v) if i // 2 in fixed else (None, None) for i, v in enumerate(start.ravel())]
    with _iteration_bar(iterations, report) as step:
        result = minimize(lambda th: train.loss_grad(th, start, l2, phase_l2), start.ravel(),
                          jac=True, method="L-BFGS-B", bounds=bounds,
                          options={"maxiter": iterations}, callback=step)
    theta = result.x
    figures = {
        "positions": len(train), "held_out": 0 if valid is None else len(valid),
        "games": int(len(np.unique(arrays["game"]))), "lambda": lam, "l2": l2,
        "phase_l2": phase_l2, "init": None if init is None else Path(init).name,
        "logits_per_100": 100 * per_centi, "train_loss_prior": baseline,
        "train_loss": float(train.loss_grad(theta, start, 0.0)[0]), "iterations": int(result.nit),
    }
    if valid is not None:
        figures["valid_loss_prior"] = float(valid.loss_grad(start.ravel(), start, 0.0)[0])
        figures["valid_loss"] = float(valid.loss_grad(theta, start, 0.0)[0])
    fitted = theta.reshape(-1, 2) / per_centi
    figures["seconds"] = round(time.perf_counter() - started, 1)
    weights.save(out, variant, fitted, info=figures)
    if report:
        report(f"loss {figures['train_loss']:.4f} (prior {baseline:.4f})"
               + (f", held out {figures['valid_loss']:.4f} (prior "
                  f"{figures['valid_loss_prior']:.4f})" if valid is not None else "")
               + f"; {figures['iterations']} iterations, {figures['seconds']} s -> {out}")
        names = linear.layout(variant)
        moved = np.argsort(-np.abs(fitted - prior).max(axis=1))[:12]
        report("rows that moved most (opening, ending; prior), centi-units: " + ", ".join(
            f"{names[i]} {fitted[i, 0]:.0f}/{fitted[i, 1]:.0f} ({prior[i, 0]:.0f}/"
            f"{prior[i, 1]:.0f})" for i in moved))
    return figures
