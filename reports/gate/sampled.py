"""The regression gate and the run comparison of ``--samples K`` runs, item by item.

Three samples of 84 items are not 252 independent trials, so the gate of a sampled run does
not count samples: per cell it pairs the items both runs asked, takes each item's mean
accuracy over its samples in each run, and tests whether the current run's is lower with a
paired sign-flip randomisation test (:func:`solvers.cluster_stats.paired_drop_p`). Items are
the unit, so it is as strict at K = 10 as at K = 3. The cells' p-values are then Holm-adjusted
together, so between two runs of an unchanged model the chance of any false alarm is at most
``alpha`` however many cells are gated.

A baseline of a sampled run stores every trial's counted sample outcomes (``samples`` per
model: trial id to a list of 0/1), beside the majority outcome that decides its expected
failures. ``python -m reports compare`` of two sampled runs adds the same paired test per
cell, two-sided (:func:`sampled_comparison`).
"""

from __future__ import annotations

import pandas as pd

from reports.stats.sampled import has_samples
from solvers.cluster_stats import holm, paired_drop_p
from solvers.metrics import DENOMINATOR_EXCLUDED

GATE_KEYS = ("task", "modality", "shot", "strategy")


def sample_flags(outcome: dict) -> list[int]:
    """A record's counted samples as 0/1 (samples with no output to judge left out)."""
    return [int(bool(right)) for right, error in zip(outcome["correct"], outcome["errors"],
                                                     strict=True)
            if error not in DENOMINATOR_EXCLUDED]


def counted_samples(group: pd.DataFrame) -> int:
    """How many samples of the records ``group`` count towards accuracy."""
    return sum(len(sample_flags(o)) for o in group["samples"] if isinstance(o, dict))


def baseline_samples(df: pd.DataFrame) -> dict[str, dict[str, list[int]]]:
    """Per model, per trial id: its counted sample outcomes (empty for a single-sample run)."""
    if not has_samples(df):
        return {}
    stored: dict[str, dict[str, list[int]]] = {}
    for row in df.itertuples():
        if isinstance(row.samples, dict):
            stored.setdefault(str(row.model), {})[row.trial_id] = sample_flags(row.samples)
    return stored


def paired_items(group: pd.DataFrame, base: dict[str, list[int]]
                 ) -> tuple[list[float], list[float], set[int]]:
    """The items of one cell's records ``group`` that ``base`` (trial id to counted sample
    outcomes) also holds: their mean accuracy now and in ``base``, and every sample count
    seen (for the exact test)."""
    now_items: dict[str, list[int]] = {}
    base_items: dict[str, list[int]] = {}
    for trial_id, item_id, outcome in zip(group["trial_id"], group["item_id"], group["samples"],
                                          strict=True):
        if trial_id not in base or not isinstance(outcome, dict):
            continue
        now_items.setdefault(item_id, []).extend(sample_flags(outcome))
        base_items.setdefault(item_id, []).extend(base[trial_id])
    items = [i for i in now_items if now_items[i] and base_items[i]]
    now = [sum(now_items[i]) / len(now_items[i]) for i in items]
    was = [sum(base_items[i]) / len(base_items[i]) for i in items]
    counts = {len(now_items[i]) for i in items} | {len(base_items[i]) for i in items}
    return now, was, counts


def sampled_gate_failures(stored: dict[str, dict[str, list[int]]], df: pd.DataFrame,
                          alpha: float) -> list[str]:
    """Cells whose mean accuracy fell below the baseline's, Holm-adjusted across cells."""
    tested, failures = [], []
    for (model, *cell), group in df.groupby(["model", *GATE_KEYS], sort=False):
        if str(model) not in stored:
            continue  # a model the baseline lacks: the coverage check's matter
        now, was, counts = paired_items(group, stored[str(model)])
        if now:
            tested.append((model, cell, now, was, paired_drop_p(now, was, denominators=counts)))
        elif counted_samples(group):  # n = 0 cells are named by reports.gate.baseline.cell_gaps
            failures.append(f"{model} {'/'.join(cell)}: no item answered now was answered in "
                            "the baseline: nothing compared")
    adjusted = holm([p for *_, p in tested])
    for (model, cell, now, was, p_value), p_holm in zip(tested, adjusted, strict=True):
        if p_holm < alpha:
            failures.append(
                f"{model} {'/'.join(cell)}: mean accuracy {100 * sum(now) / len(now):.1f}% now "
                f"vs {100 * sum(was) / len(was):.1f}% in the baseline over {len(now)} items "
                f"(paired by item, p = {p_value:.2g}, Holm-adjusted over {len(tested)} cells "
                f"{p_holm:.2g})")
    return failures


SAMPLED_COMPARISON_COLUMNS = ("model_a", "model_b", *GATE_KEYS, "n_items", "mean_a", "mean_b",
                              "delta", "p_value", "p_holm")


def sampled_comparison(df_a: pd.DataFrame, df_b: pd.DataFrame) -> pd.DataFrame:
    """Per cell, run B's mean accuracy over samples against run A's on the items both asked:
    two-sided paired sign-flip p-values by item, Holm-adjusted across the cells. Models pair
    as in :func:`reports.stats.inference.paired_comparison` (by name when both runs hold the
    same)."""
    models_a = list(dict.fromkeys(df_a["model"]))
    models_b = list(dict.fromkeys(df_b["model"]))
    pairs = ([(m, m) for m in models_a] if set(models_a) == set(models_b)
             else [(a, b) for a in models_a for b in models_b])
    stored = baseline_samples(df_a)
    rows = []
    for model_a, model_b in pairs:
        part = df_b[df_b["model"] == model_b]
        for cell, group in part.groupby(list(GATE_KEYS), sort=False):
            now, was, counts = paired_items(group, stored.get(str(model_a), {}))
            if not now:
                continue
            one_sided = min(paired_drop_p(now, was, denominators=counts),
                            paired_drop_p(was, now, denominators=counts))
            rows.append({"model_a": model_a, "model_b": model_b,
                         **dict(zip(GATE_KEYS, cell, strict=True)), "n_items": len(now),
                         "mean_a": sum(was) / len(was), "mean_b": sum(now) / len(now),
                         "delta": 100 * (sum(now) - sum(was)) / len(now),
                         "p_value": min(1.0, 2 * one_sided)})
    table = pd.DataFrame(rows, columns=list(SAMPLED_COMPARISON_COLUMNS))
    table["p_holm"] = holm(table["p_value"].tolist())
    return table


def format_sampled_comparison(table: pd.DataFrame) -> str:
    """The sampled comparison as terminal text (empty when neither run was sampled)."""
    if table.empty:
        return ""
    lines = ["", "Mean accuracy over samples, paired by item (two-sided sign-flip test; Holm "
             f"over {len(table)} cells):",
             f"{'model A -> B':<28} {'cell':<36} {'items':>5} {'A':>6} {'B':>6} {'delta':>7} "
             f"{'p':>8} {'Holm p':>8}"]
    for r in table.itertuples(index=False):
        models = r.model_a if r.model_a == r.model_b else f"{r.model_a} -> {r.model_b}"
        cell = f"{r.task}/{r.modality}/{r.shot}/{r.strategy}"
        lines.append(f"{models:<28} {cell:<36} {r.n_items:>5} {100 * r.mean_a:>5.1f}% "
                     f"{100 * r.mean_b:>5.1f}% {r.delta:>+6.1f} {r.p_value:>8.3g} "
                     f"{r.p_holm:>8.3g}")
    return "\n".join(lines) + "\n"
