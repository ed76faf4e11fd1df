"""Cells of a ``--samples K`` run: mean accuracy over samples, clustered by item, beside the
majority-vote accuracy and the agreement of the samples.

A record of a K-sample run holds every sample's outcome in ``samples``; its ``correct`` is the
majority's, so a cell's headline ``accuracy`` is the majority-vote accuracy and this module
adds the rest. The mean accuracy's interval resamples items (each with all its samples:
``solvers.cluster_stats``), because K samples of one item are not K independent trials, and
is widened to the naive Wilson interval over every sample wherever the bootstrap's is
narrower (a design effect below 1, which for samples of one item is resampling noise); the
naive interval is kept beside it for comparison. Samples with no
output to judge (the denominator policy's classes) are left out of the mean. Without samples
nothing is added, so tables of single-sample runs are exactly as before.
"""

from __future__ import annotations

import math

import pandas as pd

from solvers.cluster_stats import cluster_bootstrap_interval
from solvers.metrics import DENOMINATOR_EXCLUDED, wilson_interval

SAMPLED_COLUMNS = ("samples_k", "mean_accuracy", "mean_ci_low", "mean_ci_high",
                   "naive_ci_low", "naive_ci_high", "agreement", "agreement_ci_low",
                   "agreement_ci_high")


def has_samples(df: pd.DataFrame) -> bool:
    """Whether any record of ``df`` holds more than one sample."""
    return "samples" in df.columns and bool(df["samples"].notna().any())


def items_of(frame: pd.DataFrame) -> pd.Series:
    """Each record's cluster: its item, or (records without one) the record itself."""
    for column in ("item_id", "trial_id"):
        if column in frame.columns:
            return frame[column]
    return pd.Series(range(len(frame)), index=frame.index)


def item_counts(frame: pd.DataFrame) -> pd.DataFrame:
    """Per item of ``frame``: right samples and counted samples (summed over its trials, e.g.
    MCQ repeats), its trials' mean agreement (NaN when every sample failed). A record without
    samples is one sample."""
    rows = []
    samples = frame["samples"] if "samples" in frame.columns else [None] * len(frame)
    for item, outcome, correct, error in zip(items_of(frame), samples, frame["correct"],
                                             frame["error_class"], strict=True):
        if isinstance(outcome, dict):
            kept = [right for right, why in zip(outcome["correct"], outcome["errors"],
                                                strict=True)
                    if why not in DENOMINATOR_EXCLUDED]
            agreement = outcome["agreement"]  # None: every sample failed, none agreed
            rows.append((item, sum(kept), len(kept),
                         math.nan if agreement is None else agreement))
        else:
            counted = error not in DENOMINATOR_EXCLUDED
            rows.append((item, int(bool(correct) and counted), int(counted), 1.0))
    table = pd.DataFrame(rows, columns=["item_id", "right", "asked", "agreement"])
    return table.groupby("item_id", sort=False).agg(
        right=("right", "sum"), asked=("asked", "sum"), agreement=("agreement", "mean"))


def every_sample(df: pd.DataFrame) -> pd.DataFrame:
    """One row per sample (its ``correct`` and ``error_class``; ``sample`` its index) for the
    records with samples, others as they are: what a model of every sample fits, with the
    stimulus's random intercept tying an item's samples together."""
    if not has_samples(df):
        return df
    sampled = df[df["samples"].map(lambda s: isinstance(s, dict))].copy()
    sampled["sample"] = sampled["samples"].map(lambda s: list(range(len(s["answers"]))))
    sampled["correct"] = sampled["samples"].map(lambda s: s["correct"])
    sampled["error_class"] = sampled["samples"].map(lambda s: s["errors"])
    exploded = sampled.explode(["sample", "correct", "error_class"], ignore_index=True)
    exploded["correct"] = exploded["correct"].astype(bool)
    return pd.concat([df[df["samples"].map(lambda s: not isinstance(s, dict))], exploded],
                     ignore_index=True)


def sample_fields(frame: pd.DataFrame, on: bool, seed: int = 0) -> dict:
    """The sampled columns of the records ``frame`` (one cell), or nothing when ``on`` is
    False (no record of the run has samples)."""
    if not on:
        return {}
    items = item_counts(frame)
    right, asked = int(items["right"].sum()), int(items["asked"].sum())
    mean, low, high = cluster_bootstrap_interval(items["right"], items["asked"], seed=seed)
    naive = wilson_interval(right, asked) if asked else (math.nan, math.nan)
    if asked:  # never narrower than naive: samples of one item are never less alike than
        low, high = min(low, naive[0]), max(high, naive[1])  # independent draws (deff >= 1)
    ks = [len(s["answers"]) for s in frame.get("samples", pd.Series([], dtype=object))
          if isinstance(s, dict)]
    agreed = items["agreement"].notna()  # an item whose every sample failed has none
    agreement = cluster_bootstrap_interval(items["agreement"].fillna(0.0), agreed.astype(int),
                                           seed=seed)
    return {"samples_k": max(ks, default=1), "mean_accuracy": mean, "mean_ci_low": low,
            "mean_ci_high": high, "naive_ci_low": naive[0], "naive_ci_high": naive[1],
            "agreement": agreement[0], "agreement_ci_low": agreement[1],
            "agreement_ci_high": agreement[2]}


def sample_suffix(cell) -> str:
    """`` · mean 41.2 [35.0, 47.9] agr 0.62`` after a cell's majority accuracy, or ""."""
    value = cell.get("mean_accuracy") if hasattr(cell, "get") else None
    if value is None or value != value:
        return ""
    return (f" · mean {100 * value:.1f} [{100 * cell['mean_ci_low']:.1f}, "
            f"{100 * cell['mean_ci_high']:.1f}] agr {cell['agreement']:.2f}")


def caption(df: pd.DataFrame) -> str:
    """A sentence for a table caption, or "" for a single-sample run."""
    if not has_samples(df):
        return ""
    return (" With --samples K, a cell's headline accuracy is majority-vote accuracy (a "
            "trial is right when its majority answer is); 'mean' is the accuracy over every "
            "sample with a 95 % bootstrap interval over items (all samples of an item drawn "
            "together), 'agr' the mean share of a trial's samples giving its majority answer.")
