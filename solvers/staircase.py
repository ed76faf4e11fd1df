"""An adaptive staircase: the next stimulus level from the answers so far.

A fixed grid spends most trials far from the threshold (a model that hears 5 cents answers 120
trials at 25-1,200 cents that say nothing new). A weighted up-down staircase (Kaernbach 1991,
Percept. Psychophys. 49:227) steps down by ``step`` after a right answer and up by
``step * p / (1 - p)`` after a wrong one, so it settles where the probability of a right answer
is ``p``. With ``p`` midway between chance and 1 that is the psychometric fit's threshold
(:mod:`solvers.psychometric`, lapse 0). Steps are in log10 units on a logarithmic grid: the
first steps are large to find the region fast, and shrink after the first reversals.

The level of trial n depends only on the answers to trials 0 … n-1 (:func:`next_level` replays
them), so a run is reproducible and resumable from its recorded answers alone.

Pure: no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Staircase:
    """A weighted up-down staircase on a log10 grid between ``lowest`` and ``highest``."""

    start: float
    lowest: float
    highest: float
    target: float  # the probability correct it converges to
    step: float = 0.05  # log10 units down after a right answer, once settled
    first_step: float = 0.2  # before ``settle_after`` reversals
    settle_after: int = 2

    def __post_init__(self) -> None:
        if not 0 < self.lowest <= self.start <= self.highest:
            raise ValueError("a staircase needs 0 < lowest <= start <= highest")
        if not 0 < self.target < 1:
            raise ValueError(f"target probability {self.target} outside (0, 1)")


def midpoint_target(guess: float) -> float:
    """The probability correct midway between chance and 1: the fit's threshold definition."""
    return (1.0 + guess) / 2.0


def next_level(staircase: Staircase, answers: Sequence[bool]) -> float:
    """The level of the next trial after ``answers`` (right or wrong, in order)."""
    return _walk(staircase, answers)[0][-1]


def reversal_levels(staircase: Staircase, answers: Sequence[bool]) -> list[float]:
    """Levels at which the direction turned (right after wrong, or wrong after right)."""
    return _walk(staircase, answers)[1]


def threshold_estimate(staircase: Staircase, answers: Sequence[bool]) -> float | None:
    """The geometric mean of the reversal levels after the first ``settle_after`` (Levitt 1971,
    JASA 49:467); None until there is one. The psychometric fit to the same trials
    (:func:`solvers.psychometric.fit_psychometric`) gives the same point with an interval."""
    return geometric_mean(reversal_levels(staircase, answers)[staircase.settle_after:])


def recorded_reversals(levels: Sequence[float], answers: Sequence[bool]) -> list[float]:
    """The reversal levels of a staircase read back from its trials (level and answer of each,
    in order): the level of every trial answered otherwise than the one before it."""
    return [levels[n] for n in range(1, len(answers)) if bool(answers[n]) != bool(answers[n - 1])]


def geometric_mean(levels: Sequence[float]) -> float | None:
    """None for no levels."""
    if not levels:
        return None
    return 10 ** (sum(math.log10(level) for level in levels) / len(levels))


def trial_levels(staircase: Staircase, answers: Sequence[bool]) -> list[float]:
    """The level each of ``answers`` was given at."""
    return _walk(staircase, answers)[0][:len(answers)]


def _walk(staircase: Staircase, answers: Sequence[bool]) -> tuple[list[float], list[float]]:
    """(the level of every trial and of the next one, the reversal levels)."""
    ratio = staircase.target / (1 - staircase.target)
    low, high = math.log10(staircase.lowest), math.log10(staircase.highest)
    z = math.log10(staircase.start)
    levels, reversals, last = [staircase.start], [], None
    for right in answers:
        if last is not None and right != last:
            reversals.append(10 ** z)
        last = bool(right)
        step = staircase.step if len(reversals) >= staircase.settle_after else \
            staircase.first_step
        z = min(high, max(low, z - step if right else z + step * ratio))
        levels.append(10 ** z)
    return levels, reversals
