"""Assisted accuracy: the score with ``--answer-extractor``'s readings, shown beside the strict one.

A run with an answer extractor records ``assisted_correct`` on every trial (strict correct, or
the extractor's reading of an unreadable reply right). Every table (core, pitch, MCQ, the HTML
report and the terminal summary) keeps the strict accuracy as its headline and adds the
assisted one next to it through this module; without an extractor nothing is added, so those
tables are exactly as before. The denominator is the strict one.
"""

from __future__ import annotations

import math

import pandas as pd

ASSISTED_COLUMNS = ("assisted_correct", "assisted_accuracy")


def has_extractor(df: pd.DataFrame) -> bool:
    """Whether any record of ``df`` was read with an answer extractor."""
    return "assisted_correct" in df.columns and bool(df["assisted_correct"].notna().any())


def assisted_flags(frame: pd.DataFrame) -> pd.Series:
    """Per trial: assisted correct; a record without one (a run without an extractor pooled
    with one that had it) counts as strictly scored."""
    assisted = frame["assisted_correct"]
    return assisted.where(assisted.notna(), frame["correct"]).astype(bool)


def assisted_fields(kept: pd.DataFrame, on: bool) -> dict:
    """``assisted_correct`` and ``assisted_accuracy`` of the counted trials ``kept``, or
    nothing when the run had no extractor (``on`` False)."""
    if not on:
        return {}
    correct = int(assisted_flags(kept).sum()) if len(kept) else 0
    return {"assisted_correct": correct,
            "assisted_accuracy": correct / len(kept) if len(kept) else math.nan}


def assisted_suffix(cell) -> str:
    """`` · assisted 90.0`` after a cell's strict accuracy, or "" without an extractor."""
    value = cell.get("assisted_accuracy") if hasattr(cell, "get") else None
    if value is None or value != value:
        return ""
    return f" · assisted {100 * value:.1f}"


def extractor_models(df: pd.DataFrame) -> list[str]:
    """The extractor models named in the records, for captions and the terminal summary."""
    if "extractor_model" not in df.columns:
        return []
    return sorted({str(m) for m in df["extractor_model"].dropna()})


def caption(df: pd.DataFrame) -> str:
    """A sentence for a table caption, or "" without an extractor."""
    models = extractor_models(df)
    if not models:
        return ""
    return (f" 'assisted' is the accuracy when the answer extractor ({', '.join(models)}) reads "
            "the replies the reader could not; the headline number is the strict one.")
