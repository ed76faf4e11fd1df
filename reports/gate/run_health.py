"""Whether a run measured the model at all: the share of its trials that got no answer because
the run broke, which a gate, a saved baseline and the terminal all check the same way.

A trial is *broken* when no answer came back to judge: the provider failed
(``backend_error``: a revoked key, an exhausted quota, a server down, a cache miss under
``--cache replay``) or answered nothing (``empty_output``), or the trial ended without a record
at all. A wrong answer, an answer the reader could not read, a reply cut by the token limit or
an input the model cannot take are the model's own outcomes and are not counted here. Past
``--max-error-rate`` (default 5 %) the run's numbers describe the failures rather than the
model: the gate fails, ``--baseline-save`` refuses, and the terminal says so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from solvers.metrics import DENOMINATOR_EXCLUDED

if TYPE_CHECKING:  # pandas loads with the first table, not at start-up
    import pandas as pd

BROKEN_RUN_CLASSES: frozenset[str] = frozenset({"backend_error", "empty_output"})
"""Error classes of a trial that got no answer because the run broke (not the model)."""

DEFAULT_MAX_ERROR_RATE = 0.05


def broken_counts(df: pd.DataFrame, unrecorded: int = 0) -> dict[str, int]:
    """Trials per broken class (``no_record`` for the ``unrecorded`` ones), largest first."""
    return _broken(df["error_class"].tolist() if len(df) else [], unrecorded)


def _broken(classes: Sequence[object], unrecorded: int) -> dict[str, int]:
    found = Counter(str(name) for name in classes if name in BROKEN_RUN_CLASSES)
    if unrecorded:
        found["no_record"] = unrecorded
    return dict(sorted(found.items(), key=lambda kv: -kv[1]))  # ties: first seen first


def health_problem(df: pd.DataFrame, max_error_rate: float, unrecorded: int = 0) -> str | None:
    """Why the records ``df`` (plus ``unrecorded`` trials that left none) do not measure the
    model, or None: nothing counted towards accuracy, or broken trials above the threshold."""
    return problem_of(df["error_class"].tolist() if len(df) else [], max_error_rate, unrecorded)


def problem_of(classes: Sequence[object], max_error_rate: float,
               unrecorded: int = 0) -> str | None:
    """:func:`health_problem` of records given by their error classes (None: judged), so a
    run that keeps its records as dicts checks itself without pandas."""
    total = len(classes) + unrecorded
    broken = _broken(classes, unrecorded)
    share = sum(broken.values()) / total if total else 1.0
    listed = ", ".join(f"{name} {n}" for name, n in broken.items())
    if not total or all(name in DENOMINATOR_EXCLUDED for name in classes):
        why = f" ({listed})" if listed else ""
        return (f"nothing was measured: none of the run's {total} trials produced an answer "
                f"that counts towards accuracy{why}")
    if share > max_error_rate:
        return (f"{sum(broken.values())} of {total} trials ({100 * share:.1f} %) got no answer "
                f"because the run broke ({listed}), above --max-error-rate {max_error_rate:g}; "
                "the results describe the failures, not the model")
    return None
