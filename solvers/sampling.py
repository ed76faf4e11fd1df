"""K samples of one trial: their majority answer, agreement, and what chance makes of them.

With ``--samples K`` every trial is asked K times. A trial's verdict is its majority answer:
the answer given most often, ties going to the one given first (the lowest sample index), a
sample with no answer read counting as the answer "none", which is never right. Agreement is
the share of samples that gave the majority answer.

A sample that produced nothing to judge (an error class of
:data:`solvers.metrics.DENOMINATOR_EXCLUDED`: a failed request, an empty or cut reply) is no
answer of the model's: it takes no part in the majority, the agreement or the mean accuracy,
so two failed requests can neither outvote a real answer nor "agree". When every sample
failed, the trial is the first sample's failure and has no agreement or mean accuracy.

The analytic values are what a uniform guesser over ``m`` options gets, and what a model that
is right with probability ``p`` per sample gets on a yes/no-like question (one wrong answer),
so tests and reports can check a run against them. Pure: no I/O.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, fields

from .metrics import DENOMINATOR_EXCLUDED


@dataclass(frozen=True)
class SampleOutcomes:
    """What K samples of one trial answered, and their summary (``samples`` in a record)."""

    answers: list  # per sample: the answer read, or None
    correct: list  # per sample: whether it was right
    seeds: list  # per sample: the seed sent
    errors: list  # per sample: its error class, or None
    mean_accuracy: float | None  # over the counted samples; None when every sample failed
    majority_answer: str | None
    majority_correct: bool
    agreement: float | None  # share of the counted samples giving the majority answer

    @property
    def k(self) -> int:
        return len(self.answers)

    def to_json(self) -> dict:
        return {"k": self.k, **{f.name: getattr(self, f.name) for f in fields(self)}}


def majority_index(answers: Sequence[str | None]) -> int:
    """The index of the first sample giving the majority answer (ties: the earliest given)."""
    if not answers:
        raise ValueError("no samples")
    counts = Counter(answers)
    top = max(counts.values())
    return next(i for i, answer in enumerate(answers) if counts[answer] == top)


def counted_samples(errors: Sequence[str | None]) -> list[int]:
    """The indices of the samples that produced something to judge (see the module text)."""
    return [i for i, error in enumerate(errors) if error not in DENOMINATOR_EXCLUDED]


def majority_sample(answers: Sequence[str | None], errors: Sequence[str | None]) -> int:
    """The index of the sample whose answer is the trial's: the first giving the majority
    answer among the counted samples, or sample 0 when every sample failed."""
    counted = counted_samples(errors)
    if not counted:
        if not answers:
            raise ValueError("no samples")
        return 0
    return counted[majority_index([answers[i] for i in counted])]


def summarize(answers: Sequence[str | None], correct: Sequence[bool], seeds: Sequence[int],
              errors: Sequence[str | None] | None = None) -> SampleOutcomes:
    """The outcomes of one trial's samples, in sample order."""
    errors = [None] * len(answers) if errors is None else list(errors)
    if not len(answers) == len(correct) == len(seeds) == len(errors):
        raise ValueError("answers, correct, seeds and errors differ in length")
    index = majority_sample(answers, errors)
    counted = counted_samples(errors)
    majority = answers[index] if counted else None
    return SampleOutcomes(
        answers=list(answers), correct=[bool(c) for c in correct], seeds=list(seeds),
        errors=errors,
        mean_accuracy=(sum(bool(correct[i]) for i in counted) / len(counted)
                       if counted else None),
        majority_answer=majority,
        majority_correct=bool(correct[index]) and bool(counted),
        agreement=(sum(1 for i in counted if answers[i] == majority) / len(counted)
                   if counted else None),
    )


# --- Analytic values ---------------------------------------------------------------------------


def _count_at_most(options: int, samples: int, cap: int) -> int:
    """How many of the ``options ** samples`` answer sequences give no answer more than
    ``cap`` times: ``samples! [x^samples] (sum_{j<=cap} x^j / j!) ** options``."""
    # polynomial coefficients times samples!, kept as exact integers via multinomials
    ways = [1] + [0] * samples  # ways[n]: sequences of length n over the options seen so far
    for _ in range(options):
        nxt = [0] * (samples + 1)
        for n, w in enumerate(ways):
            if w:
                for j in range(min(cap, samples - n) + 1):
                    nxt[n + j] += w * math.comb(n + j, j)
        ways = nxt
    return ways[samples]


def uniform_agreement(options: int, samples: int) -> float:
    """Expected agreement (modal count / samples) of a uniform guesser over ``options``."""
    if options < 1 or samples < 1:
        raise ValueError("options and samples must be at least 1")
    total = options ** samples
    # E[max] = sum_{c>=1} P(max >= c) = sum_c (1 - P(max <= c-1))
    expected_max = sum(1 - _count_at_most(options, samples, c - 1) / total
                       for c in range(1, samples + 1))
    return expected_max / samples


def uniform_majority_accuracy(options: int) -> float:
    """A uniform guesser's majority-vote accuracy: the tie rule (first given) favours no
    option, so by symmetry it is ``1 / options`` at any K."""
    return 1.0 / options


def binary_majority_accuracy(p: float, samples: int) -> float:
    """Majority accuracy of K samples each right with probability ``p`` when every wrong
    sample gives the same wrong answer (ties at even K go to the first sample's answer)."""
    total = 0.0
    for right in range(samples + 1):
        prob = math.comb(samples, right) * p ** right * (1 - p) ** (samples - right)
        if 2 * right > samples:
            total += prob
        elif 2 * right == samples:
            total += prob * right / samples  # first sample right with probability right/K
    return total


def binary_agreement(p: float, samples: int) -> float:
    """Expected agreement of K samples each right with probability ``p``, one wrong answer."""
    return sum(math.comb(samples, r) * p ** r * (1 - p) ** (samples - r)
               * max(r, samples - r) / samples for r in range(samples + 1))
