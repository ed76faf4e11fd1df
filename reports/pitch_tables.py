"""Pitch-experiment tables: accuracy per experiment × notation, any-notation score, MCQ inflation.

PitchBench scores a pitch item correct if the answer in any of MIDI, scientific pitch notation
or Hz is right; solfège has no octave, so it is scored octave-free and shown on its own, never
in the any-notation score. The benchmark's mean is over its 28 experiments: D7b (two audio
parts, not every model can take them) and the A1 multiple-choice variant are shown but left out.
The denominator policy is the core tasks' (``solvers.metrics.DENOMINATOR_EXCLUDED``).
"""

from __future__ import annotations

import math
import re

import pandas as pd

from solvers.metrics import DENOMINATOR_EXCLUDED, wilson_interval

from .assisted import assisted_fields, assisted_flags, assisted_suffix, has_extractor
from .tables import markdown_table, off_final_share

ANY_NOTATIONS = ("midi", "spn", "hz")  # octave-bearing notations pooled into "any"
NOTATION_COLUMNS = ("midi", "spn", "hz", "solfege", "plain")
OUTSIDE_MEAN = ("d7b", "a1mcq")
MCQ_SPACING_PARAM = "spacing_semitones"  # a1mcq items' distractor spacing


def pitch_records(df: pd.DataFrame) -> pd.DataFrame:
    """The pitch trials of a run (records with an ``experiment`` field)."""
    if "experiment" not in df.columns:
        return df.iloc[0:0]
    return df[df["experiment"].notna()].copy()


def _experiment_key(name: str) -> tuple:
    """a1 < a1mcq < a2 < ... < d7a < d7b < d8: level letter, number, suffix."""
    match = re.fullmatch(r"([a-z])(\d+)(.*)", name)
    return (match.group(1), int(match.group(2)), match.group(3)) if match else (name, 0, "")


def _accuracy(frame: pd.DataFrame, extractor: bool = False) -> dict:
    kept = frame[~frame["error_class"].isin(DENOMINATOR_EXCLUDED)]
    n, correct = len(kept), int(kept["correct"].astype(bool).sum())
    low, high = wilson_interval(correct, n)
    return {
        "n": n,
        "n_excluded": len(frame) - n,
        "correct": correct,
        "accuracy": correct / n if n else math.nan,
        "ci_low": low,
        "ci_high": high,
        "ifr": (kept["parsed_answer"].notna().sum() / n) if n else math.nan,
        "off_final": off_final_share(kept),
        "chance": float(kept["chance_probability"].mean()) if n else math.nan,
        **assisted_fields(kept, extractor),
    }


def any_notation_items(pitch: pd.DataFrame) -> pd.DataFrame:
    """One row per (model, experiment, item): correct if any octave-bearing notation was right.

    Items asked without a notation ("plain") keep their one result. An item whose every
    octave-bearing trial was excluded (no output) is excluded too. With an answer extractor,
    ``assisted_correct`` is pooled the same way.
    """
    extractor = has_extractor(pitch)
    rows = []
    for (model, experiment, item_id), group in pitch.groupby(
        ["model", "experiment", "item_id"], sort=False
    ):
        pool = group[group["notation"].isin(ANY_NOTATIONS)]
        if pool.empty:
            pool = group[group["notation"] != "solfege"]
        if pool.empty:
            continue
        kept = pool[~pool["error_class"].isin(DENOMINATOR_EXCLUDED)]
        rows.append({
            "model": model, "experiment": experiment, "item_id": item_id,
            "correct": bool(kept["correct"].astype(bool).any()),
            "error_class": None if len(kept) else pool["error_class"].iloc[0],
            "parsed_answer": next(iter(kept["parsed_answer"].dropna()), None),
            # a guesser is right in any of k independent notations with 1 - Π(1 - p)
            "chance_probability": 1 - float((1 - kept["chance_probability"]).prod()),
            **({"assisted_correct": bool(assisted_flags(kept).any())} if extractor else {}),
        })
    return pd.DataFrame(rows, columns=["model", "experiment", "item_id", "correct",
                                       "error_class", "parsed_answer", "chance_probability",
                                       *(["assisted_correct"] if extractor else [])])


def pitch_summary(df: pd.DataFrame) -> pd.DataFrame:
    """Accuracy per (model, experiment, notation), plus notation ``any`` per item."""
    pitch = pitch_records(df)
    if pitch.empty:
        return pd.DataFrame()
    extractor = has_extractor(pitch)
    rows = []
    for (model, experiment, notation), group in pitch.groupby(
        ["model", "experiment", "notation"], sort=False
    ):
        rows.append({"model": model, "experiment": experiment, "notation": notation,
                     **_accuracy(group, extractor)})
    anyn = any_notation_items(pitch)
    for (model, experiment), group in anyn.groupby(["model", "experiment"], sort=False):
        rows.append({"model": model, "experiment": experiment, "notation": "any",
                     **_accuracy(group, extractor)})
    summary = pd.DataFrame(rows)
    if summary.empty:
        return summary
    summary["_order"] = summary["experiment"].map(_experiment_key)
    summary = summary.sort_values(["model", "_order", "notation"], kind="stable")
    return summary.drop(columns="_order").reset_index(drop=True)


def _cell(row: pd.Series | None) -> str:
    if row is None or not row["n"]:
        return ""
    drift = row.get("off_final", math.nan)
    off = f", off-final {100 * drift:.0f}%" if drift > 0 else ""  # NaN compares False
    return f"{100 * row['accuracy']:.1f} (n={int(row['n'])}{off}){assisted_suffix(row)}"


def pitch_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Rows: experiments then their 28-experiment mean; columns per model: any, each notation,
    chance (of the any-notation score). Cells read ``accuracy (n=…)`` in percent."""
    if summary.empty:
        return pd.DataFrame()
    lookup = {(r.model, r.experiment, r.notation): r for r in summary.itertuples(index=False)}
    models = list(dict.fromkeys(summary["model"]))
    experiments = sorted(set(summary["experiment"]), key=_experiment_key)
    notations = [n for n in NOTATION_COLUMNS if n in set(summary["notation"])]
    columns = [(m, c) for m in models for c in ("any", *notations, "chance")]
    body = []
    for experiment in experiments:
        row = []
        for model, column in columns:
            key = (model, experiment, "any" if column == "chance" else column)
            cell = lookup.get(key)
            if column == "chance":
                row.append("" if cell is None else f"{100 * cell.chance:.1f}")
            else:
                row.append(_cell(None if cell is None else pd.Series(cell._asdict())))
        body.append(row)
    mean_row = []
    for model, column in columns:
        in_mean = [e for e in experiments if e not in OUTSIDE_MEAN]
        cells = [lookup.get((model, e, "any" if column == "chance" else column)) for e in in_mean]
        counted = [c for c in cells if c is not None and c.n]
        values = [getattr(c, "chance" if column == "chance" else "accuracy") for c in counted]
        assisted = [getattr(c, "assisted_accuracy", math.nan) for c in counted]
        suffix = ("" if column == "chance" or not assisted or any(a != a for a in assisted)
                  else assisted_suffix({"assisted_accuracy": sum(assisted) / len(assisted)}))
        mean_row.append(f"{100 * sum(values) / len(values):.1f} ({len(values)} exp.){suffix}"
                        if values else "")
    index = [*experiments, "Mean (28 experiments)"]
    return pd.DataFrame([*body, mean_row], index=pd.Index(index, name="experiment"),
                        columns=pd.MultiIndex.from_tuples(columns, names=["model", "notation"]))


def mcq_inflation(df: pd.DataFrame) -> pd.DataFrame:
    """A1 open answers against A1 as 5-option multiple choice, by distractor spacing."""
    pitch = pitch_records(df)
    mcq = pitch[pitch["experiment"] == "a1mcq"]
    if mcq.empty:
        return pd.DataFrame()
    anyn = any_notation_items(pitch)
    extractor = has_extractor(pitch)
    rows = []
    for model, group in mcq.groupby("model", sort=False):
        open_ = _accuracy(anyn[(anyn["model"] == model) & (anyn["experiment"] == "a1")],
                          extractor)
        rows.append({"model": model, "condition": "open answer (A1, any notation)", **open_})
        spacing = group["params"].map(
            lambda p: p.get(MCQ_SPACING_PARAM) if isinstance(p, dict) else None
        )
        for value in sorted(spacing.dropna().unique()):
            cell = _accuracy(group[spacing == value], extractor)
            rows.append({"model": model, "condition": f"MCQ, distractors {value} semitones apart",
                         **cell, "gain": cell["accuracy"] - open_["accuracy"]})
    return pd.DataFrame(rows)


def pitch_markdown(df: pd.DataFrame) -> str:
    """The pitch table (and the MCQ inflation table, if run) as Markdown; empty without pitch."""
    table = pitch_table(pitch_summary(df))
    if table.empty:
        return ""
    header = ["experiment", *(f"{m} / {n}" for m, n in table.columns)]
    lines = markdown_table(header, ([i, *v] for i, v in zip(table.index, table.values,
                                                             strict=True)))
    inflation = mcq_inflation(df)
    if not inflation.empty:
        lines += ["", "| model | condition | accuracy | n | gain |", "|---|---|---|---|---|"]
        for r in inflation.itertuples(index=False):
            gain = getattr(r, "gain", math.nan)
            lines.append(f"| {r.model} | {r.condition} | {100 * r.accuracy:.1f} | {r.n} | "
                         + ("" if gain != gain else f"{100 * gain:+.1f}") + " |")
    return "\n".join(lines) + "\n"
