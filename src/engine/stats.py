"""Match statistics: Elo with a 95 % interval from game pairs, and the SPRT on the pentanomial
model, as fishtest computes it (the log-likelihood ratio of the two maximum-likelihood
distributions with expected scores s0, s1 fitted to the observed pair results).

A pair is the two games of one opening with colours swapped; its score, from the first engine's
view, is 0, 0.5, 1, 1.5 or 2 points. ``pentanomial`` counts pairs by that score."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054
EPSILON = 1e-3          # stands in for an empty pentanomial cell, as fishtest does


def score_to_elo(score: float) -> float:
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def elo_to_score(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def _pdf(pentanomial: list[int]) -> tuple[int, list[tuple[float, float]]]:
    n = sum(pentanomial)
    counts = [c if c > 0 else EPSILON for c in pentanomial]
    total = sum(counts)
    return n, [(i / 4, c / total) for i, c in enumerate(counts)]


@dataclass(frozen=True)
class EloEstimate:
    elo: float
    low: float
    high: float
    score: float


def elo_estimate(pentanomial: list[int]) -> EloEstimate:
    """Elo difference of the first engine with its 95 % confidence interval, from pair counts."""
    n = sum(pentanomial)
    if n == 0:
        return EloEstimate(0.0, -math.inf, math.inf, 0.5)
    pdf = [(i / 4, c / n) for i, c in enumerate(pentanomial)]
    mean = sum(a * p for a, p in pdf)
    var = sum(p * (a - mean) ** 2 for a, p in pdf)
    half = Z95 * math.sqrt(var / n)
    return EloEstimate(score_to_elo(mean), score_to_elo(mean - half), score_to_elo(mean + half), mean)


def _mle(pdf: list[tuple[float, float]], s: float) -> list[tuple[float, float]]:
    """The distribution on the same points closest (in likelihood) to pdf with mean s:
    p_i / (1 + x (a_i - s)), x the root of sum p_i (a_i - s) / (1 + x (a_i - s)) = 0."""
    v, w = pdf[0][0], pdf[-1][0]
    lo, hi = -1 / (w - s), 1 / (s - v)
    f = lambda x: sum(p * (a - s) / (1 + x * (a - s)) for a, p in pdf)  # noqa: E731
    eps = 1e-12
    lo, hi = lo + eps * (hi - lo), hi - eps * (hi - lo)
    for _ in range(200):                      # f decreases on (lo, hi): bisection
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2
    return [(a, p / (1 + x * (a - s))) for a, p in pdf]


def llr(pentanomial: list[int], elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 (elo1) against H0 (elo0), logistic Elo, pentanomial."""
    n, pdf = _pdf(pentanomial)
    if n == 0:
        return 0.0
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    p0, p1 = _mle(pdf, s0), _mle(pdf, s1)
    return n * sum(p * math.log(q1 / q0) for (_, p), (_, q0), (_, q1) in zip(pdf, p0, p1))


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_verdict(pentanomial: list[int], elo0: float, elo1: float, alpha: float = 0.05,
                 beta: float = 0.05) -> tuple[float, str]:
    """(LLR, "H1 accepted" | "H0 accepted" | "continue")."""
    value = llr(pentanomial, elo0, elo1)
    low, high = sprt_bounds(alpha, beta)
    if value >= high:
        return value, "H1 accepted"
    if value <= low:
        return value, "H0 accepted"
    return value, "continue"
