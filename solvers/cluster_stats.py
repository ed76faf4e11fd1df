"""Accuracy over repeated samples of the same items: intervals and tests that cluster by item.

K samples of one item are not K independent trials: an item a model cannot hear is wrong in
every sample. So the interval of a cell's mean accuracy resamples items (a cluster bootstrap:
each drawn item brings all its samples), and a drop between two runs of the same items is
tested on the per-item differences of mean accuracy (a paired sign-flip randomisation test,
counted exactly when sample counts allow, else drawn). With many cells, Holm's step-down
keeps the chance of any false alarm at ``alpha``. Pure numpy, seeded: the same data give the
same numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

BOOTSTRAP_DRAWS = 2000
RANDOMISATION_DRAWS = 20000
EXACT_RANGE = 20_000  # largest sum of scaled differences counted exactly


def cluster_bootstrap_interval(
    successes: Sequence[int], trials: Sequence[int], confidence: float = 0.95,
    draws: int = BOOTSTRAP_DRAWS, seed: int = 0,
) -> tuple[float, float, float]:
    """(mean accuracy, low, high): the pooled share of right samples, and its percentile
    interval from resampling whole items (``successes[i]`` right of ``trials[i]`` samples of
    item ``i``). Items without samples are ignored; none at all gives NaNs."""
    right = np.asarray(successes, dtype=float)
    asked = np.asarray(trials, dtype=float)
    kept = asked > 0
    right, asked = right[kept], asked[kept]
    if not len(asked):
        return (float("nan"),) * 3
    mean = float(right.sum() / asked.sum())
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(asked), size=(draws, len(asked)))
    means = right[picks].sum(axis=1) / asked[picks].sum(axis=1)
    tail = (1 - confidence) / 2
    low, high = np.quantile(means, [tail, 1 - tail])
    return mean, float(low), float(high)


def paired_drop_p(now: Sequence[float], base: Sequence[float],
                  draws: int = RANDOMISATION_DRAWS, seed: int = 0,
                  denominators: Sequence[int] = ()) -> float:
    """One-sided p-value that accuracy fell from ``base`` to ``now`` (per-item mean accuracy
    of the same items, in the same order). Under no change each item's difference is as
    likely positive as negative, so its sign is flipped at random; ``p`` is the share of
    flips giving a mean difference at least as low, counting the observed one.

    When every difference is a multiple of ``1 / L`` (``L`` the least common multiple of
    ``denominators``, the items' sample counts in both runs) and the sums stay small, the
    sign-flip distribution is counted exactly; otherwise it is drawn ``draws`` times."""
    diff = np.asarray(now, dtype=float) - np.asarray(base, dtype=float)
    if diff.shape != np.asarray(base).shape:
        raise ValueError("now and base hold different numbers of items")
    diff = diff[np.abs(diff) > 1e-12]  # ties carry no evidence either way
    if not len(diff):
        return 1.0
    scale = math.lcm(*denominators) if denominators else 0
    steps = np.rint(diff * scale)
    if scale and np.allclose(steps, diff * scale) and np.abs(steps).sum() <= EXACT_RANGE:
        return _exact_sign_flip_p(steps.astype(int))
    observed = diff.sum()
    rng = np.random.default_rng(seed)
    signs = rng.choice((-1.0, 1.0), size=(draws, len(diff)))
    flipped = (signs * diff).sum(axis=1)
    as_low = int(np.count_nonzero(flipped <= observed + 1e-12))
    return (as_low + 1) / (draws + 1)


def _exact_sign_flip_p(steps: np.ndarray) -> float:
    """P(sum of randomly signed ``steps`` <= their sum), by convolving each item's two
    outcomes (every sign pattern equally likely)."""
    span = int(np.abs(steps).sum())
    probability = np.zeros(2 * span + 1)
    probability[span] = 1.0  # index span is a sum of 0
    for step in np.abs(steps):
        probability = 0.5 * (np.roll(probability, step) + np.roll(probability, -step))
    return float(min(1.0, probability[: span + int(steps.sum()) + 1].sum()))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (reject where adjusted < alpha): the chance of any
    false alarm among all the tests stays at alpha, whatever their dependence."""
    p = np.asarray(p_values, dtype=float)
    order = np.argsort(p, kind="stable")
    adjusted = np.empty_like(p)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p) - rank) * p[index]))
        adjusted[index] = running
    return adjusted.tolist()
