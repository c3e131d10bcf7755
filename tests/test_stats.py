"""Match statistics against values computed by hand (docs/match-statistics.md has the formulas).

The interval is the score (Wilson-type) interval of the mean pair score. Where the pairs all
ended alike it has a closed form: the distribution with mean s nearest to pairs that all scored
a is the two-point one on a and the extreme score beyond s (1 above, 0 below), and solving
n (a - s)^2 = z^2 var(s) gives
    all won (a = 1):      s_low  = n / (n + z^2)
    all drawn (a = 1/2):  s_high = (n / 2 + z^2) / (n + z^2)
    all a = 3/4:          s_low  = 3n / 4 / (n + z^2),  s_high = (3n / 4 + z^2) / (n + z^2)
(for two games a pair these are Wilson's interval)."""

import math

import pytest

from engine.stats import (Z95, elo_estimate, elo_to_score, llr, score_to_elo, sprt_bounds,
                          sprt_verdict)

Z2 = Z95 * Z95


def test_elo_conversions():
    assert score_to_elo(0.5) == 0
    assert score_to_elo(0.75) == pytest.approx(190.848501887865)     # -400 log10(1/3)
    assert elo_to_score(score_to_elo(0.6)) == pytest.approx(0.6)
    assert score_to_elo(1.0) == math.inf and score_to_elo(0.0) == -math.inf


@pytest.mark.parametrize("n", [1, 5, 50])
def test_all_wins_give_a_lower_bound_only(n):
    est = elo_estimate([0, 0, 0, 0, n])
    assert est.score == 1 and est.elo == math.inf and est.high == math.inf
    assert est.score_low == pytest.approx(n / (n + Z2), abs=1e-7)
    assert est.low == pytest.approx(score_to_elo(n / (n + Z2)), abs=1e-3)
    assert est.text() == f"Elo > {est.low:+.1f} (95 %; {n} pair{'s' if n > 1 else ''}, all won)"
    assert est.nelo is None and est.nelo_text() == "nElo n/a (no spread)"


def test_one_won_pair_by_hand():
    # n = 1: s_low = 1 / (1 + 1.959964^2) = 0.2065493, Elo -400 log10(1 / 0.2065493 - 1).
    est = elo_estimate([0, 0, 0, 0, 1])
    assert est.score_low == pytest.approx(0.2065493, abs=1e-6)
    assert est.text() == "Elo > -233.8 (95 %; 1 pair, all won)"


@pytest.mark.parametrize("n", [1, 7, 60])
def test_all_losses_mirror_all_wins(n):
    est, won = elo_estimate([n, 0, 0, 0, 0]), elo_estimate([0, 0, 0, 0, n])
    assert est.elo == -math.inf and est.low == -math.inf
    assert est.high == pytest.approx(-won.low, abs=1e-3)
    assert est.text().startswith(f"Elo < {est.high:+.1f} (95 %;") and est.text().endswith("all lost)")


@pytest.mark.parametrize("n", [1, 10, 100])
def test_all_draws_are_level_with_a_finite_interval(n):
    est = elo_estimate([0, 0, n, 0, 0])
    high = (n / 2 + Z2) / (n + Z2)
    assert est.score == 0.5 and est.elo == 0
    assert est.score_high == pytest.approx(high, abs=1e-7)
    assert est.score_low == pytest.approx(1 - high, abs=1e-7)
    assert est.high == pytest.approx(score_to_elo(high), abs=1e-3) and est.low == pytest.approx(-est.high)
    assert 0 < est.high < math.inf


def test_ten_drawn_pairs_by_hand():
    # s_high = (5 + 3.841459) / (10 + 3.841459) = 0.6387664: +99.0 Elo.
    assert elo_estimate([0, 0, 10, 0, 0]).text() == "Elo +0.0 [-99.0, +99.0] (10 pairs)"


@pytest.mark.parametrize("n", [1, 50])
def test_pairs_of_one_kind(n):
    est = elo_estimate([0, 0, 0, n, 0])                # every pair a win and a draw
    assert est.score == 0.75 and est.elo == pytest.approx(190.8485, abs=1e-3)
    assert est.score_low == pytest.approx(0.75 * n / (n + Z2), abs=1e-7)
    assert est.score_high == pytest.approx((0.75 * n + Z2) / (n + Z2), abs=1e-7)


def test_one_pair_won_and_drawn_by_hand():
    # s_low = 0.75 / 4.841459 = 0.1549120, s_high = 4.591459 / 4.841459 = 0.9483627.
    est = elo_estimate([0, 0, 0, 1, 0])
    assert est.score_low == pytest.approx(0.1549120, abs=1e-6)
    assert est.score_high == pytest.approx(0.9483627, abs=1e-6)
    assert est.text() == "Elo +190.8 [-294.7, +505.6] (1 pair)"


def test_a_typical_sample_agrees_with_the_normal_interval():
    # A published pentanomial example, [485, 1923, 2942, 1937, 594] pairs: Elo 5.11 with the
    # 95 % interval [1.21, 9.02] (mean +- z sqrt(var / n)); the score interval agrees.
    counts = [485, 1923, 2942, 1937, 594]
    est = elo_estimate(counts)
    assert est.elo == pytest.approx(5.11, abs=0.005)
    assert est.low == pytest.approx(1.21, abs=0.01) and est.high == pytest.approx(9.02, abs=0.01)
    # Normalised Elo by hand: (m - 1/2) / sqrt(2 var) * 800 / ln 10.
    n = sum(counts)
    m = sum(c * i / 4 for i, c in enumerate(counts)) / n
    var = sum(c * (i / 4 - m) ** 2 for i, c in enumerate(counts)) / n
    assert est.nelo == pytest.approx((m - 0.5) / math.sqrt(2 * var) * 800 / math.log(10))
    assert est.nelo_low < est.nelo < est.nelo_high


def test_a_small_mixed_sample_is_wider_than_the_normal_interval():
    # [1, 2, 3, 2, 1]: mean 1/2, var 1/12 per pair; the normal half width 1.959964 *
    # sqrt(1/12 / 9) = 0.1885975 (+-137.8 Elo). The score interval is a little wider here.
    est = elo_estimate([1, 2, 3, 2, 1])
    assert est.elo == pytest.approx(0, abs=1e-9) and est.low == pytest.approx(-est.high)
    assert 137.8 < est.high < 145


def test_no_pairs_yet():
    est = elo_estimate([0, 0, 0, 0, 0])
    assert est.pairs == 0 and est.text() == "Elo: no complete pair yet"


def test_sprt_llr():
    results = [20, 120, 300, 140, 30]
    # Symmetric hypotheses: swapping them flips the sign; equal ones give zero.
    assert llr(results, 0, 5) == pytest.approx(-llr(results, 5, 0))
    assert llr(results, 3, 3) == pytest.approx(0)
    # For small Elo differences the exact GSPRT agrees with its normal approximation
    # LLR ~ N (s1 - s0) (2m - s0 - s1) / (2 var), m and var of the pair score per game.
    n = sum(results)
    pdf = [(i / 4, c / n) for i, c in enumerate(results)]
    m = sum(a * p for a, p in pdf)
    var = sum(p * (a - m) ** 2 for a, p in pdf)
    s0, s1 = elo_to_score(0), elo_to_score(5)
    approx = n * (s1 - s0) * (2 * m - s0 - s1) / (2 * var)
    assert llr(results, 0, 5) == pytest.approx(approx, rel=0.02)
    low, high = sprt_bounds(0.05, 0.05)
    assert low == pytest.approx(-2.944438979) and high == pytest.approx(2.944438979)
    assert sprt_verdict([0, 5, 50, 200, 150], 0, 5)[1] == "H1 accepted"
    assert sprt_verdict([150, 200, 50, 5, 0], 0, 5)[1] == "H0 accepted"
    assert sprt_verdict([1, 1, 1, 1, 1], 0, 5)[1] == "continue"
