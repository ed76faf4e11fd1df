"""Pitch confusion: which pitch a model names for which true pitch, and by how much it is off.

For every pitch-naming answer (one true MIDI note, answered in MIDI, scientific pitch notation
or hertz; solfège is octave-free and left out) the table holds the true and the answered note
and their difference in semitones. From it come a heatmap of answered against true pitch (an
octave error lies on a diagonal 12 semitones off the main one), the shares of exact answers,
octave errors (right pitch class, wrong octave), answers a semitone off and other errors per
model and source, and for hertz answers the error in cents against the truth: the answered
note's offset plus the cents the answer lay beside that note (the record's ``cents_error``).
"""

from __future__ import annotations

import json
import math

import pandas as pd

from reports.tables.cells import counted

NAMING_NOTATIONS = ("midi", "spn", "hz")
KINDS = ("exact", "octave", "semitone", "other")
COLUMNS = ["model", "experiment", "source", "notation", "true_midi", "answered_midi",
           "offset_semitones", "cents_vs_truth"]
SHARE_COLUMNS = ["model", "source", "n", "exact", "octave", "pitch_class", "semitone", "other"]


def _one_note(text: object) -> int | None:
    """The single MIDI note a record's truth or answer holds, else None."""
    if not isinstance(text, str):
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return None
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _source(row: pd.Series) -> str:
    for column in ("factors", "params"):
        value = row.get(column)
        if isinstance(value, dict) and isinstance(value.get("source"), str):
            return value["source"]
    return "n/a"


def naming_answers(pitch: pd.DataFrame) -> pd.DataFrame:
    """One row per counted pitch-naming trial with a one-note answer (:data:`COLUMNS`)."""
    if pitch.empty or "notation" not in pitch.columns:
        return pd.DataFrame(columns=COLUMNS)
    rows = []
    for _, row in counted(pitch[pitch["notation"].isin(NAMING_NOTATIONS)]).iterrows():
        true_midi, answered = _one_note(row["truth"]), _one_note(row["parsed_answer"])
        if true_midi is None or answered is None:
            continue
        offset = answered - true_midi
        cents = row.get("cents_error")
        beside = float(cents) if isinstance(cents, (int, float)) and not math.isnan(cents) \
            else 0.0
        rows.append({"model": row["model"], "experiment": row["experiment"],
                     "source": _source(row), "notation": row["notation"],
                     "true_midi": true_midi, "answered_midi": answered,
                     "offset_semitones": offset,
                     "cents_vs_truth": 100.0 * offset + beside if row["notation"] == "hz"
                     else math.nan})
    return pd.DataFrame(rows, columns=COLUMNS)


def error_kind(offset_semitones: int) -> str:
    """exact, octave (a whole number of octaves off), semitone (one off) or other."""
    if offset_semitones == 0:
        return "exact"
    if offset_semitones % 12 == 0:
        return "octave"
    return "semitone" if abs(offset_semitones) == 1 else "other"


def error_shares(answers: pd.DataFrame) -> pd.DataFrame:
    """Per model and source: n and the share of each :data:`KINDS`, and ``pitch_class``
    (exact or octave: the pitch class was right)."""
    if answers.empty:
        return pd.DataFrame(columns=SHARE_COLUMNS)
    kinds = answers["offset_semitones"].map(error_kind)
    rows = []
    for (model, source), group in answers.assign(kind=kinds).groupby(["model", "source"]):
        shares = {kind: float((group["kind"] == kind).mean()) for kind in KINDS}
        rows.append({"model": model, "source": source, "n": len(group), **shares,
                     "pitch_class": shares["exact"] + shares["octave"]})
    return pd.DataFrame(rows, columns=SHARE_COLUMNS)


def confusion_counts(answers: pd.DataFrame, model: str) -> pd.DataFrame:
    """Trials per (answered, true) MIDI note for one model: rows answered, columns true."""
    mine = answers[answers["model"] == model]
    return pd.crosstab(mine["answered_midi"], mine["true_midi"])
