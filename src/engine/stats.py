"""Match statistics from game pairs: the score and the Elo difference with 95 % intervals that
stay defined on every sample, normalised Elo, and the SPRT on the pentanomial model as fishtest
computes it. The formulas and their sources are in docs/match-statistics.md.

A pair is the two games of one opening with colours swapped; its score, from the first engine's
view, is 0, 0.5, 1, 1.5 or 2 points. ``pentanomial`` counts pairs by that score. Every figure
here is per game: a pair's score is halved onto [0, 1] (0, 0.25, 0.5, 0.75, 1).

The interval is the score (Wilson-type) interval of the pentanomial mean: the expected scores s
that a score test would not reject, n (mean - s)^2 <= z^2 var(s), where var(s) is the variance
of the distribution with mean s nearest to the observed one -- the same maximum-likelihood
projection the SPRT uses. For large samples it is the usual mean +- z sqrt(var / n); it needs no
observed spread, so one pair, or fifty pairs that all ended alike, still get an honest interval,
and a score of 0 % or 100 % gets a one-sided bound instead of +-inf."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054
EPSILON = 1e-3          # stands in for an empty pentanomial cell in the SPRT, as fishtest does
INTERVAL_EPSILON = 1e-7  # the same for the interval: small enough to be the exact limit
NELO_PER_T = 800 / math.log(10)   # normalised Elo per unit of t = (score - 0.5) / sigma
POINTS = (0.0, 0.25, 0.5, 0.75, 1.0)


def score_to_elo(score: float) -> float:
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def elo_to_score(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def _regularised(pentanomial: list[int], epsilon: float) -> list[tuple[float, float]]:
    counts = [c if c > 0 else epsilon for c in pentanomial]
    total = sum(counts)
    return [(a, c / total) for a, c in zip(POINTS, counts)]


def _mean_var(pdf: list[tuple[float, float]]) -> tuple[float, float]:
    mean = sum(a * p for a, p in pdf)
    return mean, sum(p * (a - mean) ** 2 for a, p in pdf)


def _mle(pdf: list[tuple[float, float]], s: float) -> list[tuple[float, float]]:
    """The distribution on the same points closest (in likelihood) to pdf with mean s:
    p_i / (1 + x (a_i - s)), x the root of sum p_i (a_i - s) / (1 + x (a_i - s)) = 0."""
    v, w = pdf[0][0], pdf[-1][0]
    lo, hi = -1 / (w - s), 1 / (s - v)

    def f(x: float) -> float:
        return sum(p * (a - s) / (1 + x * (a - s)) for a, p in pdf)

    eps = 1e-15
    lo, hi = lo + eps * (hi - lo), hi - eps * (hi - lo)
    for _ in range(100):                      # f decreases on (lo, hi): bisection
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2
    return [(a, p / (1 + x * (a - s))) for a, p in pdf]


def _score_interval(pentanomial: list[int], z: float) -> tuple[float, float]:
    """The Wilson-type interval of the mean pair score (see the module's docstring)."""
    n = sum(pentanomial)
    pdf = _regularised(pentanomial, INTERVAL_EPSILON)
    mean = sum(a * c for a, c in zip(POINTS, pentanomial)) / n

    def rejected(s: float) -> bool:
        return n * (mean - s) ** 2 > z * z * _mean_var(_mle(pdf, s))[1]

    def crossing(inside: float, outside: float) -> float:
        for _ in range(50):
            mid = (inside + outside) / 2
            if rejected(mid):
                outside = mid
            else:
                inside = mid
        return (inside + outside) / 2

    low = 0.0 if mean <= 0 else crossing(mean, 0.0)
    high = 1.0 if mean >= 1 else crossing(mean, 1.0)
    return low, high


@dataclass(frozen=True)
class EloEstimate:
    """Per-game score and Elo of the first engine with 95 % intervals, from `pairs` pairs.
    A bound is +-inf only where the score interval reaches 0 or 1, that is when the first engine
    lost (or won) every pair; `text()` then says "Elo < X" (or "> X")."""

    pairs: int
    score: float
    score_low: float
    score_high: float
    elo: float
    low: float
    high: float
    nelo: float | None            # None when the pairs show no spread at all
    nelo_low: float | None
    nelo_high: float | None

    def text(self) -> str:
        if self.pairs == 0:
            return "Elo: no complete pair yet"
        if self.score <= 0:
            return f"Elo < {_fmt(self.high)} (95 %; {_count(self.pairs)}, all lost)"
        if self.score >= 1:
            return f"Elo > {_fmt(self.low)} (95 %; {_count(self.pairs)}, all won)"
        return f"Elo {_fmt(self.elo)} [{_fmt(self.low)}, {_fmt(self.high)}] ({_count(self.pairs)})"

    def nelo_text(self) -> str:
        if self.nelo is None:
            return "nElo n/a (no spread)"
        return f"nElo {_fmt(self.nelo)} [{_fmt(self.nelo_low)}, {_fmt(self.nelo_high)}]"


def elo_estimate(pentanomial: list[int], z: float = Z95) -> EloEstimate:
    """Elo difference of the first engine with its interval (95 % by default), from pair counts."""
    n = sum(pentanomial)
    if n == 0:
        return EloEstimate(0, 0.5, 0.0, 1.0, 0.0, -math.inf, math.inf, None, None, None)
    observed = [(a, c / n) for a, c in zip(POINTS, pentanomial)]
    mean, var = _mean_var(observed)
    low, high = _score_interval(pentanomial, z)
    if var > 0:
        # fishtest's normalised Elo: (score - 0.5) / sigma per game, sigma^2 = 2 var per pair.
        scale = NELO_PER_T / math.sqrt(2 * var)
        nelo: tuple[float | None, float | None, float | None] = (
            (mean - 0.5) * scale, (low - 0.5) * scale, (high - 0.5) * scale)
    else:
        nelo = (None, None, None)
    return EloEstimate(n, mean, low, high, score_to_elo(mean), score_to_elo(low),
                       score_to_elo(high), *nelo)


def _fmt(x: float | None) -> str:
    if x is None:
        return "n/a"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x + 0.0:+.1f}" if round(x, 1) != 0 else "+0.0"


def _count(pairs: int) -> str:
    return f"{pairs} pair" if pairs == 1 else f"{pairs} pairs"


def llr(pentanomial: list[int], elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 (elo1) against H0 (elo0), logistic Elo, pentanomial."""
    n = sum(pentanomial)
    if n == 0:
        return 0.0
    pdf = _regularised(pentanomial, EPSILON)
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
