"""``python -m reports compare A B``: what changed between two runs on the same trials.

Typical uses: the same model before and after a prompt change, two samples of a
nondeterministic model, or two models on one trial set. The numbers come from
:func:`reports.stats.inference.paired_comparison` (of ``--samples`` runs: by majority answer, then
mean accuracy over samples paired by item, :func:`reports.gate.sampled.sampled_comparison`);
this module only loads the runs and frames the text.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from reports.gate.sampled import format_sampled_comparison, sampled_comparison
from reports.stats.inference import ALL, format_comparison, paired_comparison
from reports.stats.sampled import has_samples
from reports.tables.accuracy import load_records
from reports.tables.cells import excluded
from reports.tables.controls import real_records


def compare_runs(run_a: Path, run_b: Path) -> str:
    """Paired per-cell comparison of run B against run A, as terminal text.

    ``run_a`` and ``run_b`` are run directories (or their ``trials.jsonl`` files). Trials pair
    by ``trial_id`` (and model, when both runs hold the same models); see
    :func:`reports.stats.inference.paired_comparison` for what is counted where.

    Raises
    ------
    FileNotFoundError
        If a path holds no trial records.
    ValueError
        For malformed records, runs that disagree on a trial's cell, runs that share no
        trial, or runs whose shared trials are all excluded from accuracy (every row would
        read n = 0; the message tells the two apart).
    """
    # control trials (reports.tables.controls) would share their real trials' cells: left out
    df_a, df_b = real_records(load_records(run_a)), real_records(load_records(run_b))
    header = [
        f"A: {run_a}  ({len(df_a)} trials; {_models(df_a)})",
        f"B: {run_b}  ({len(df_b)} trials; {_models(df_b)})",
        "",
    ]
    table = paired_comparison(df_a, df_b)
    cells = table[table["modality"] != ALL]  # (the per-task rows repeat the cells' counts)
    if not cells["n_pairs"].sum() and cells["n_excluded"].sum():
        raise ValueError(
            f"{run_a} and {run_b} share trials, but all {int(cells['n_excluded'].sum())} trials "
            "they share are excluded from accuracy in one run or both (no answer to judge: "
            f"{_excluded_classes(df_a, df_b, 'A')}; {_excluded_classes(df_b, df_a, 'B')}); "
            "nothing to compare"
        )
    if not cells["n_pairs"].sum():
        raise ValueError(
            f"{run_a} and {run_b} have no trial in common (no trial_id of one run is in the "
            "other, for the models compared); nothing to compare"
        )
    text = "\n".join(header) + format_comparison(table)
    if has_samples(df_a) and has_samples(df_b):  # --samples K: majority above, mean here
        text += format_sampled_comparison(sampled_comparison(df_a, df_b))
    return text


def _excluded_classes(df: pd.DataFrame, other: pd.DataFrame, run: str) -> str:
    """``"A: backend_error 6"``: the records of ``df`` whose trial ``other`` also holds and
    that are excluded from accuracy, by error class."""
    shared = df["trial_id"].isin(set(other["trial_id"]))
    classes = df.loc[shared & excluded(df), "error_class"].value_counts()
    return f"{run}: " + (", ".join(f"{name} {n}" for name, n in classes.items()) or "none")


def _models(df: pd.DataFrame) -> str:
    models = [str(m) for m in dict.fromkeys(df["model"])]
    if not models:
        return "no models"
    return ("model " if len(models) == 1 else "models ") + ", ".join(models)
