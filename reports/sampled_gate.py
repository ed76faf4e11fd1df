"""The regression gate between ``--samples K`` runs: a drop in mean accuracy, item by item.

Three samples of 84 items are not 252 independent trials, so the gate of a sampled run does
not count samples: per cell it pairs the items both runs asked, takes each item's mean
accuracy over its samples in each run, and tests whether the current run's is lower with a
paired sign-flip randomisation test (:func:`solvers.cluster_stats.paired_drop_p`). Items are
the unit, so it is as strict at K = 10 as at K = 3. The cells' p-values are then Holm-adjusted
together, so between two runs of an unchanged model the chance of any false alarm is at most
``alpha`` however many cells are gated.

A baseline of a sampled run stores every trial's counted sample outcomes (``samples`` per
model: trial id to a list of 0/1), beside the majority outcome that decides its expected
failures.
"""

from __future__ import annotations

import pandas as pd

from solvers.cluster_stats import holm, paired_drop_p
from solvers.metrics import DENOMINATOR_EXCLUDED

from .sampled import has_samples

GATE_KEYS = ("task", "modality", "shot", "strategy")


def sample_flags(outcome: dict) -> list[int]:
    """A record's counted samples as 0/1 (samples with no output to judge left out)."""
    return [int(bool(right)) for right, error in zip(outcome["correct"], outcome["errors"],
                                                     strict=True)
            if error not in DENOMINATOR_EXCLUDED]


def baseline_samples(df: pd.DataFrame) -> dict[str, dict[str, list[int]]]:
    """Per model, per trial id: its counted sample outcomes (empty for a single-sample run)."""
    if not has_samples(df):
        return {}
    stored: dict[str, dict[str, list[int]]] = {}
    for row in df.itertuples():
        if isinstance(row.samples, dict):
            stored.setdefault(str(row.model), {})[row.trial_id] = sample_flags(row.samples)
    return stored


def sampled_gate_failures(stored: dict[str, dict[str, list[int]]], df: pd.DataFrame,
                          alpha: float) -> list[str]:
    """Cells whose mean accuracy fell below the baseline's, Holm-adjusted across cells."""
    tested = []
    for (model, *cell), group in df.groupby(["model", *GATE_KEYS], sort=False):
        base = stored.get(str(model), {})
        now_items: dict[str, list[int]] = {}
        base_items: dict[str, list[int]] = {}
        for row in group.itertuples():
            if row.trial_id not in base or not isinstance(row.samples, dict):
                continue
            now_items.setdefault(row.item_id, []).extend(sample_flags(row.samples))
            base_items.setdefault(row.item_id, []).extend(base[row.trial_id])
        items = [i for i in now_items if now_items[i] and base_items[i]]
        if not items:
            continue
        now = [sum(now_items[i]) / len(now_items[i]) for i in items]
        was = [sum(base_items[i]) / len(base_items[i]) for i in items]
        counts = {len(now_items[i]) for i in items} | {len(base_items[i]) for i in items}
        tested.append((model, cell, now, was, paired_drop_p(now, was, denominators=counts)))
    adjusted = holm([p for *_, p in tested])
    failures = []
    for (model, cell, now, was, p_value), p_holm in zip(tested, adjusted, strict=True):
        if p_holm < alpha:
            failures.append(
                f"{model} {'/'.join(cell)}: mean accuracy {100 * sum(now) / len(now):.1f}% now "
                f"vs {100 * sum(was) / len(was):.1f}% in the baseline over {len(now)} items "
                f"(paired by item, p = {p_value:.2g}, Holm-adjusted over {len(tested)} cells "
                f"{p_holm:.2g})")
    return failures
