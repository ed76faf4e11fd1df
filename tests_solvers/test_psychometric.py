"""Psychometric fits (solvers/psychometric.py): simulated observers with a known threshold.

A scripted observer answers right with the probability of a known psychometric function; the
fit must find its threshold inside the bootstrap interval in at least 90 of 100 simulated runs,
and must call a perfect observer "below the smallest tested level" and a guesser "no
threshold". Simulated outcomes only: no audio, a few seconds.
"""

from __future__ import annotations

import numpy as np
import pytest

from solvers.psychometric import (
    ABOVE_RANGE,
    BELOW_RANGE,
    FITTED,
    NO_THRESHOLD,
    fit_psychometric,
    proportion_correct,
)

D2_CENTS = np.array([1, 2, 5, 10, 25, 50, 100, 200, 400, 700, 1200], dtype=float)
TRIALS_PER_LEVEL = 20  # what the D2 sample holds per step (220 items over 11 steps)


def _simulate(rng, levels, threshold, slope, guess, lapse, log_scale, increasing=True):
    p = proportion_correct(levels, threshold, slope, guess, lapse, log_scale, increasing)
    n = np.full(len(levels), TRIALS_PER_LEVEL)
    return rng.binomial(n, p), n


def test_the_threshold_is_inside_its_interval_in_at_least_90_of_100_runs():
    rng = np.random.default_rng(19)
    true_cents, covered, estimates = 20.0, 0, []
    for run in range(100):
        k, n = _simulate(rng, D2_CENTS, true_cents, 4.0, 0.5, 0.03, log_scale=True)
        fit = fit_psychometric(D2_CENTS, k, n, 0.5, log_scale=True, n_boot=100, seed=run)
        assert fit.status == FITTED, (run, k)
        covered += fit.ci_low <= true_cents <= fit.ci_high
        estimates.append(fit.threshold)
    assert covered >= 90
    # and the estimate is centred on the truth (a biased fit could still cover it)
    assert 0.8 < np.exp(np.mean(np.log(estimates))) / true_cents < 1.25


def test_a_linear_grid_and_a_falling_function_recover_their_thresholds():
    rng = np.random.default_rng(5)
    snr_db = np.array([-12, -9, -6, -3, 0, 3, 6, 10], dtype=float)
    k, n = _simulate(rng, snr_db, -4.0, 0.8, 0.05, 0.02, log_scale=False)
    k, n = k * 5, n * 5  # many trials: the estimate must be close
    fit = fit_psychometric(snr_db, k, n, 0.05, log_scale=False, n_boot=50)
    assert fit.status == FITTED and abs(fit.threshold + 4.0) < 1.5
    assert fit.ci_low < fit.threshold < fit.ci_high
    depth = np.array([25, 50, 100, 200, 400], dtype=float)
    k, n = _simulate(rng, depth, 120.0, 5.0, 0.1, 0.0, log_scale=True, increasing=False)
    fall = fit_psychometric(depth, k * 5, n * 5, 0.1, log_scale=True, increasing=False, n_boot=50)
    assert fall.status == FITTED and 80 < fall.threshold < 180
    assert fall.slope > 0 and 0 <= fall.lapse <= 0.1


def test_a_perfect_observer_is_below_the_smallest_level_and_a_guesser_has_no_threshold():
    n = np.full(len(D2_CENTS), TRIALS_PER_LEVEL)
    assert fit_psychometric(D2_CENTS, n, n, 0.5, log_scale=True).status == BELOW_RANGE
    rng = np.random.default_rng(3)
    for seed in range(5):
        guesses = np.random.default_rng(seed).binomial(n, 0.5)
        assert fit_psychometric(D2_CENTS, guesses, n, 0.5, log_scale=True).status == NO_THRESHOLD
    # never wrong where a larger level is harder: it never falls inside the range
    assert fit_psychometric(D2_CENTS, n, n, 0.5, log_scale=True,
                            increasing=False).status == ABOVE_RANGE
    # right only at the largest steps: the midpoint lies beyond the range, not extrapolated
    k, _ = _simulate(rng, D2_CENTS, 5000.0, 6.0, 0.5, 0.0, log_scale=True)
    assert fit_psychometric(D2_CENTS, k, n, 0.5, log_scale=True).status == NO_THRESHOLD
    # the same middling score at every level: flat, neither easy everywhere nor a threshold
    flat = np.full(len(D2_CENTS), 29)
    assert fit_psychometric(D2_CENTS, flat, n * 2, 0.5, log_scale=True).status == NO_THRESHOLD
    # nothing is ever returned without its numbers or with numbers and no threshold
    fit = fit_psychometric(D2_CENTS, n, n, 0.5, log_scale=True)
    assert fit.threshold is None and fit.ci_low is None and fit.deviance is None


def test_a_misfitting_curve_has_a_large_deviance_and_a_small_p():
    n = np.full(len(D2_CENTS), 40)
    dip = np.array([20, 21, 19, 22, 40, 40, 40, 27, 26, 40, 40])  # falls again: not monotonic
    bad = fit_psychometric(D2_CENTS, dip, n, 0.5, log_scale=True, n_boot=60)
    rng = np.random.default_rng(8)
    k, _ = _simulate(rng, D2_CENTS, 20.0, 4.0, 0.5, 0.02, log_scale=True)
    good = fit_psychometric(D2_CENTS, k, n[:len(k)] // 2, 0.5, log_scale=True, n_boot=60)
    assert bad.status == good.status == FITTED
    assert bad.deviance_p < 0.05 < good.deviance_p
    assert bad.deviance > good.deviance


def test_counts_at_a_repeated_level_are_pooled():
    a = fit_psychometric([1, 10, 10, 100], [5, 6, 7, 10], [10, 10, 10, 10], 0.5,
                         log_scale=True, n_boot=0)
    b = fit_psychometric([1, 10, 100], [5, 13, 10], [10, 20, 10], 0.5, log_scale=True, n_boot=0)
    assert a == b


@pytest.mark.parametrize(("levels", "correct", "total", "guess", "message"), [
    ([5, 5], [1, 2], [3, 3], 0.5, "two or more levels"),
    ([0, 5], [1, 2], [3, 3], 0.5, "positive levels"),
    ([1, 5], [4, 2], [3, 3], 0.5, "correct <= total"),
    ([1, 5], [1, 2], [3, 3], 1.0, "guess rate"),
])
def test_bad_input_is_one_clear_error(levels, correct, total, guess, message):
    with pytest.raises(ValueError, match=message):
        fit_psychometric(levels, correct, total, guess, log_scale=True)
