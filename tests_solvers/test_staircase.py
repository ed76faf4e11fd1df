"""The adaptive staircase (solvers/staircase.py) against simulated observers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from solvers.psychometric import FITTED, fit_psychometric, proportion_correct
from solvers.staircase import (
    Staircase,
    midpoint_target,
    next_level,
    reversal_levels,
    threshold_estimate,
    trial_levels,
)

D2_STAIRCASE = Staircase(start=200.0, lowest=1.0, highest=1200.0, target=midpoint_target(0.5))
ADAPTIVE_TRIALS = 55  # a quarter of D2's fixed grid (220 items)


def _run(rng, threshold_cents: float) -> list[bool]:
    answers: list[bool] = []
    for _ in range(ADAPTIVE_TRIALS):
        level = next_level(D2_STAIRCASE, answers)
        p = proportion_correct(level, threshold_cents, 4.0, 0.5, 0.0, log_scale=True)
        answers.append(bool(rng.random() < p))
    return answers


@pytest.mark.parametrize("threshold_cents", [3.0, 20.0, 300.0])
def test_the_staircase_converges_to_a_simulated_observers_threshold(threshold_cents):
    rng = np.random.default_rng(int(threshold_cents))
    estimates = [threshold_estimate(D2_STAIRCASE, _run(rng, threshold_cents))
                 for _ in range(100)]
    ratios = np.array(estimates) / threshold_cents
    assert abs(math.log(np.exp(np.mean(np.log(ratios))))) < math.log(1.3)  # no large bias
    assert np.mean((ratios > 0.5) & (ratios < 2.0)) >= 0.85  # within a factor 2 in most runs


def test_a_fit_to_the_adaptive_trials_brackets_the_threshold():
    answers = _run(np.random.default_rng(7), 20.0)
    levels = trial_levels(D2_STAIRCASE, answers)
    fit = fit_psychometric(levels, [int(a) for a in answers], [1] * len(answers), 0.5,
                           log_scale=True, n_boot=100)
    assert fit.status == FITTED and fit.ci_low < 20.0 < fit.ci_high


def test_the_next_level_depends_only_on_earlier_answers():
    answers = [True, True, False, True, False, False, True, True, True, True]
    levels = trial_levels(D2_STAIRCASE, answers)
    assert levels[0] == 200.0
    for n in range(len(answers)):
        assert next_level(D2_STAIRCASE, answers[:n]) == pytest.approx(levels[n])
        assert trial_levels(D2_STAIRCASE, answers[:n] + [not answers[n]])[:n + 1] == levels[:n + 1]
    # two right answers step down by the large first step, a wrong one up by 3x (target 0.75)
    assert math.log10(levels[1] / levels[0]) == pytest.approx(-0.2)
    assert math.log10(levels[3] / levels[2]) == pytest.approx(0.6)
    assert reversal_levels(D2_STAIRCASE, answers)[0] == pytest.approx(levels[2])


def test_levels_stay_inside_the_range_and_bad_settings_are_refused():
    assert next_level(D2_STAIRCASE, [True] * 40) == pytest.approx(1.0)
    assert next_level(D2_STAIRCASE, [False] * 40) == pytest.approx(1200.0)
    assert threshold_estimate(D2_STAIRCASE, [True] * 5) is None  # no reversal yet
    with pytest.raises(ValueError, match="lowest <= start"):
        Staircase(start=0.5, lowest=1.0, highest=10.0, target=0.75)
    with pytest.raises(ValueError, match="target"):
        Staircase(start=5.0, lowest=1.0, highest=10.0, target=1.0)
