"""Scoring arithmetic for reports and gates: intervals, set F1, exact tests.

Everything here is a pure function of integers (stdlib only), so the numbers in a report can be
recomputed by hand and property-tested. The reports turn trial records into these integers; this
module never sees a record.

The denominator policy
----------------------
There is exactly one rule for what counts towards accuracy, shared by every table and gate:

* Excluded from the denominator (but counted and shown next to it): trials whose output was
  cut by the token limit or came back empty -- the paper's *EffectiveTotal* subtracts these
  "token-limited events" -- provider failures that produced no output at all, and requests the
  model cannot take (a score image for an audio-only model). Those say nothing about what the
  model heard. Their error classes are :data:`DENOMINATOR_EXCLUDED`.
* Everything else the model produced counts. An answer that cannot be parsed, a LogicLM schema
  that stays invalid after repair, or a transcription the solver cannot decide is the model's
  failure and counts as wrong. A safety or recitation block is also the model's own output (it
  chose to refuse) and counts as wrong.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from itertools import zip_longest
from statistics import NormalDist

from .logic import is_offbeat

DENOMINATOR_EXCLUDED: frozenset[str] = frozenset(
    {"token_limit", "empty_output", "backend_error", "unsupported_input"}
)
"""Error classes left out of accuracy's denominator (see the module docstring for the policy)."""

Counts = tuple[int, int, int]


# --- Proportions -------------------------------------------------------------------------------


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion ``successes / n``.

    Chosen over the normal (Wald) interval because cells are small (20-88 trials) and accuracies
    sit near 0 or 1, where Wald collapses to zero width. With ``n == 0`` there is no estimate at
    all, so the result is ``(nan, nan)``, which tables show as missing rather than as a
    pretend-uninformative [0, 1].

    Raises
    ------
    ValueError
        If ``n < 0``, ``successes`` is outside ``0..n`` or ``confidence`` is outside (0, 1).
    """
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got successes={successes}, n={n}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    if n == 0:
        return (math.nan, math.nan)
    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    p_hat = successes / n
    z2_n = z * z / n
    centre = (p_hat + z2_n / 2.0) / (1.0 + z2_n)
    half = z / (1.0 + z2_n) * math.sqrt(p_hat * (1.0 - p_hat) / n + z2_n / (4.0 * n))
    # The bounds touch 0 and 1 exactly at the extremes; pin them so rounding cannot push the
    # interval off p_hat or out of [0, 1].
    low = 0.0 if successes == 0 else max(0.0, min(p_hat, centre - half))
    high = 1.0 if successes == n else min(1.0, max(p_hat, centre + half))
    return (low, high)


@dataclass(frozen=True)
class CellNumbers:
    """The numbers of one table cell (a group of trials) under the denominator policy."""

    n_trials: int  # every trial of the cell
    n_excluded: int  # left out of the denominator (DENOMINATOR_EXCLUDED), shown beside it
    n: int  # the denominator: the paper's EffectiveTotal
    correct: int
    accuracy: float  # correct / n; NaN when n == 0
    ci_low: float  # Wilson interval at ``confidence``; NaN when n == 0
    ci_high: float
    ifr: float  # instruction-following rate: answered / n (an answer was read at all)

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


def cell_numbers(
    n_trials: int, n_excluded: int, correct: int, answered: int, confidence: float = 0.95
) -> CellNumbers:
    """The one computation of a cell's numbers that every table, figure and gate shows.

    ``correct`` and ``answered`` count among the ``n_trials - n_excluded`` counted trials.

    Raises
    ------
    ValueError
        For counts that cannot belong together (negative, more excluded than trials, more
        correct or answered than counted).
    """
    n = n_trials - n_excluded
    if min(n_trials, n_excluded, correct, answered) < 0 or n < 0 or max(correct, answered) > n:
        raise ValueError(f"inconsistent cell counts: n_trials={n_trials}, n_excluded="
                         f"{n_excluded}, correct={correct}, answered={answered}")
    low, high = wilson_interval(correct, n, confidence)
    return CellNumbers(
        n_trials=n_trials, n_excluded=n_excluded, n=n, correct=correct,
        accuracy=correct / n if n else math.nan, ci_low=low, ci_high=high,
        ifr=answered / n if n else math.nan,
    )


# --- Set precision / recall / F1 ---------------------------------------------------------------


def set_prf(true: Iterable[int], predicted: Iterable[int]) -> Counts:
    """(TP, FP, FN) of a predicted set against a true set; duplicates in either collapse."""
    true_set, predicted_set = set(true), set(predicted)
    return (
        len(true_set & predicted_set),
        len(predicted_set - true_set),
        len(true_set - predicted_set),
    )


def precision_recall(tp: int, fp: int, fn: int) -> tuple[float, float]:
    """Precision and recall with 0/0 resolved the same way as :func:`f1_from_counts`.

    Nothing to find and nothing claimed is perfect (1.0); claiming nothing while missing
    something, or claiming something where there was nothing, scores 0.0.
    """
    _check_counts(tp, fp, fn)
    if tp + fp + fn == 0:
        return (1.0, 1.0)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return (precision, recall)


def f1_from_counts(tp: int, fp: int, fn: int) -> float:
    """F1 = 2TP / (2TP + FP + FN), the harmonic mean of precision and recall.

    The 0/0 case (no truth and no prediction) is 1.0: an empty off-beat set transcribed as empty
    is a perfect transcription. Any other case with TP == 0 is 0.0.
    """
    _check_counts(tp, fp, fn)
    denominator = 2 * tp + fp + fn
    return 1.0 if denominator == 0 else 2 * tp / denominator


def _check_counts(tp: int, fp: int, fn: int) -> None:
    if min(tp, fp, fn) < 0:
        raise ValueError(f"counts must be non-negative, got tp={tp}, fp={fp}, fn={fn}")


# --- Transcription quality (LogicLM inputs) ----------------------------------------------------

TRANSCRIPTION_KEYS: dict[str, tuple[str, ...]] = {
    "syncopation": ("on-beat", "off-beat"),
    "transposition": ("pitch-classes",),
    "chord": ("pitches",),
}
"""The keys :func:`transcription_counts` returns for each task."""


PART_ELEMENTS = "elements"
"""The key of :func:`part_element_counts`, for tasks without a schema of their own here."""


def part_element_counts(
    truth: Sequence[Sequence[int]], predicted: Sequence[Sequence[int]] | None
) -> dict[str, Counts]:
    """(TP, FP, FN) of any LogicLM transcription made of parts (a melody, a rhythm grid, a
    chord...) each holding integers: every element counts with its part's position, so a
    pitch heard in the wrong chord or an onset in the wrong loop is both a FP and a FN.
    ``predicted`` None (no valid schema) makes every true element a false negative."""
    parts: Sequence[Sequence[int]] = [] if predicted is None else predicted
    return {PART_ELEMENTS: set_prf(
        ((index, x) for index, part in enumerate(truth) for x in part),
        ((index, x) for index, part in enumerate(parts) for x in part))}


def transcription_counts(
    task: str,
    truth: Sequence[Sequence[int]],
    predicted: Sequence[Sequence[int]] | None,
) -> dict[str, Counts]:
    """(TP, FP, FN) of a LogicLM transcription against the true one, as the paper scores it.

    * syncopation -- onset slots split into ``"on-beat"`` (odd slots) and ``"off-beat"`` (even
      slots), each scored as a set: the off-beats are what the answer depends on, the on-beats
      show whether the model tracks the pulse at all.
    * chord -- absolute MIDI pitch sets under ``"pitches"`` (a wrong octave is a wrong note).
    * transposition -- pitch-class sets (MIDI pitch mod 12) under ``"pitch-classes"``, each
      melody against its own truth, counts summed over the two melodies.

    ``predicted`` is None when the model never produced a valid schema; every true element is
    then a false negative, so failures lower F1 instead of silently leaving the average. A
    missing melody likewise counts all its notes as FN, an extra one all its notes as FP.

    Raises
    ------
    ValueError
        For an unknown task.
    """
    if task not in TRANSCRIPTION_KEYS:
        raise ValueError(f"unknown task {task!r}; expected one of {sorted(TRANSCRIPTION_KEYS)}")
    parts: Sequence[Sequence[int]] = [] if predicted is None else predicted
    if task == "syncopation":
        true_onsets = {slot for part in truth for slot in part}
        predicted_onsets = {slot for part in parts for slot in part}
        on_true = {s for s in true_onsets if not is_offbeat(s)}
        on_predicted = {s for s in predicted_onsets if not is_offbeat(s)}
        return {
            "on-beat": set_prf(on_true, on_predicted),
            "off-beat": set_prf(true_onsets - on_true, predicted_onsets - on_predicted),
        }
    if task == "chord":
        return {
            "pitches": set_prf(
                (p for part in truth for p in part), (p for part in parts for p in part)
            )
        }
    tp = fp = fn = 0
    for true_melody, predicted_melody in zip_longest(truth, parts, fillvalue=()):
        t, f, n = set_prf((p % 12 for p in true_melody), (p % 12 for p in predicted_melody))
        tp, fp, fn = tp + t, fp + f, fn + n
    return {"pitch-classes": (tp, fp, fn)}


# --- Exact tests for gates ---------------------------------------------------------------------


def exact_binomial_sf(k: int, n: int, p: float = 0.5) -> float:
    """P(X >= k) for X ~ Binomial(n, p), summed exactly in integers (no overflow at large n)."""
    if n < 0 or not 0.0 <= p <= 1.0:
        raise ValueError(f"need n >= 0 and 0 <= p <= 1, got n={n}, p={p}")
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    numerator, denominator = p.as_integer_ratio()
    rest = denominator - numerator
    total = sum(math.comb(n, i) * numerator**i * rest ** (n - i) for i in range(k, n + 1))
    return min(1.0, total / denominator**n)


def one_sided_drop_test(successes_now: int, n_now: int, successes_base: int, n_base: int) -> float:
    """p-value that the current accuracy is lower than the baseline's (the aggregate gate).

    Fisher's exact test, one-sided: conditional on both margins of the 2x2 table, the current
    run's success count is hypergeometric, and the p-value is the probability of seeing that
    few successes or fewer if both runs shared one accuracy. Exact because cells are small.
    With an empty side there is no evidence of a drop, so the p-value is 1.0.
    """
    for successes, n in ((successes_now, n_now), (successes_base, n_base)):
        if n < 0 or not 0 <= successes <= n:
            raise ValueError(f"need 0 <= successes <= n, got successes={successes}, n={n}")
    if n_now == 0 or n_base == 0:
        return 1.0
    total = n_now + n_base
    total_successes = successes_now + successes_base
    total_failures = total - total_successes
    lowest = max(0, n_now - total_failures)
    tail = sum(
        math.comb(total_successes, x) * math.comb(total_failures, n_now - x)
        for x in range(lowest, successes_now + 1)
    )
    return min(1.0, tail / math.comb(total, n_now))


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value from the discordant pair counts ``b`` and ``c``.

    For paired trials (same items, two runs), only the items that flipped carry information;
    under no change each flip goes either way with probability 1/2, so the test is a two-sided
    binomial test on ``b`` out of ``b + c``. No flips gives 1.0.
    """
    if b < 0 or c < 0:
        raise ValueError(f"discordant counts must be non-negative, got b={b}, c={c}")
    n = b + c
    if n == 0:
        return 1.0
    lower_tail = sum(math.comb(n, i) for i in range(min(b, c) + 1))
    return min(1.0, 2 * lower_tail / 2**n)
