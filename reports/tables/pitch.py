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

from reports.tables.accuracy import markdown_table
from reports.tables.assisted import assisted_flags, assisted_suffix, has_extractor
from reports.tables.cells import cell_numbers, counted
from solvers.pitch_credit import CREDIT_FIELDS

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
        kept = counted(pool)
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
                     **cell_numbers(group, extractor, chance=True)})
    anyn = any_notation_items(pitch)
    for (model, experiment), group in anyn.groupby(["model", "experiment"], sort=False):
        rows.append({"model": model, "experiment": experiment, "notation": "any",
                     **cell_numbers(group, extractor, chance=True)})
    return _in_experiment_order(pd.DataFrame(rows))


def _in_experiment_order(summary: pd.DataFrame) -> pd.DataFrame:
    """Rows by model, then experiment in the paper's order (A1 … F2), then notation."""
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
    """Rows: experiments then their mean (over those that ran); columns per model: any, each
    notation, chance (of the any-notation score). Cells read ``accuracy (n=…)`` in percent."""
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
    in_mean = [e for e in experiments if e not in OUTSIDE_MEAN]
    for model, column in columns:
        cells = [lookup.get((model, e, "any" if column == "chance" else column)) for e in in_mean]
        counted = [c for c in cells if c is not None and c.n]
        values = [getattr(c, "chance" if column == "chance" else "accuracy") for c in counted]
        assisted = [getattr(c, "assisted_accuracy", math.nan) for c in counted]
        suffix = ("" if column == "chance" or not assisted or any(a != a for a in assisted)
                  else assisted_suffix({"assisted_accuracy": sum(assisted) / len(assisted)}))
        mean_row.append(f"{100 * sum(values) / len(values):.1f} ({len(values)} exp.){suffix}"
                        if values else "")
    # the experiments this run measured (a sample or -k runs fewer than the benchmark's 28)
    index = [*experiments, f"Mean ({len(in_mean)} experiment{'' if len(in_mean) == 1 else 's'})"]
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
        open_ = cell_numbers(anyn[(anyn["model"] == model) & (anyn["experiment"] == "a1")],
                             extractor, chance=True)
        rows.append({"model": model, "condition": "open answer (A1, any notation)", **open_})
        spacing = group["params"].map(
            lambda p: p.get(MCQ_SPACING_PARAM) if isinstance(p, dict) else None
        )
        for value in sorted(spacing.dropna().unique()):
            cell = cell_numbers(group[spacing == value], extractor, chance=True)
            rows.append({"model": model, "condition": f"MCQ, distractors {value} semitones apart",
                         **cell, "gain": cell["accuracy"] - open_["accuracy"]})
    return pd.DataFrame(rows)


# Shares: an unanswered trial of the cell counts 0, as it counts wrong in the exact score.
SHARE_CREDITS = tuple(c for c in CREDIT_FIELDS if c not in ("cents_error_abs", "kendall_tau"))
CREDIT_LABELS = {
    "pitch_class_correct": "pitch class", "octave_correct": "octave",
    "within_1_semitone": "within ±1 st", "hz_within_1pct": "Hz ±1 %",
    "step_accuracy": "contour steps", "timing_iou": "timing IoU", "hits_100ms": "hits 100 ms",
    "hits_250ms": "hits 250 ms", "hits_500ms": "hits 500 ms", "off_by_one": "within ±1",
    "kendall_tau": "Kendall τ", "cents_median": "|cents| median", "cents_p90": "|cents| p90",
}


def partial_credit_summary(df: pd.DataFrame) -> pd.DataFrame:
    """Partial credit per (model, experiment, notation) beside the exact accuracy.

    Share metrics are means over the cell's counted trials, an unanswered trial counting 0 for
    every metric its answered neighbours have; Kendall τ is the mean over answered rank trials
    (``n_tau``); cents errors (Hz answers to one-pitch questions) are summarised by their
    median and 90th percentile (``n_cents``). A metric that applies to no trial is left out.
    """
    pitch = pitch_records(df)
    if pitch.empty or "partial_credit" not in pitch.columns:
        return pd.DataFrame()
    rows = []
    for (model, experiment, notation), group in pitch.groupby(
        ["model", "experiment", "notation"], sort=False
    ):
        kept = counted(group)
        credits = [c if isinstance(c, dict) else {} for c in kept["partial_credit"]]
        present = {name for credit in credits for name in credit}
        numbers = cell_numbers(group)
        n = numbers["n"]
        row: dict = {"model": model, "experiment": experiment, "notation": notation, "n": n,
                     "accuracy": numbers["accuracy"]}
        for name in SHARE_CREDITS:
            if name in present and n:
                row[name] = sum(credit.get(name, 0.0) for credit in credits) / n
        taus = [credit["kendall_tau"] for credit in credits if "kendall_tau" in credit]
        if taus:
            row["kendall_tau"], row["n_tau"] = sum(taus) / len(taus), len(taus)
        cents = pd.Series([c["cents_error_abs"] for c in credits if "cents_error_abs" in c])
        if len(cents):
            row.update(cents_median=float(cents.median()), cents_p90=float(cents.quantile(0.9)),
                       n_cents=len(cents))
        rows.append(row)
    return _in_experiment_order(pd.DataFrame(rows))


def partial_credit_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The partial-credit summary for display: percentages, τ and cents, blanks where n/a."""
    if summary.empty:
        return pd.DataFrame()
    columns = [c for c in (*SHARE_CREDITS, "kendall_tau", "cents_median", "cents_p90")
               if c in summary.columns]
    body = []
    for row in summary.itertuples(index=False):
        cells = [f"{100 * row.accuracy:.1f}" if row.n else "", str(row.n)]
        for column in columns:
            value = getattr(row, column)
            if value is None or value != value:
                cells.append("")
            elif column == "kendall_tau":
                cells.append(f"{value:+.2f}")
            elif column.startswith("cents"):
                cells.append(f"{value:.0f}")
            else:
                cells.append(f"{100 * value:.1f}")
        body.append(cells)
    index = pd.MultiIndex.from_tuples(
        [(r.model, r.experiment, r.notation) for r in summary.itertuples(index=False)],
        names=["model", "experiment", "notation"])
    return pd.DataFrame(body, index=index,
                        columns=["exact %", "n", *(CREDIT_LABELS[c] for c in columns)])


PARTIAL_CAPTION = (
    "Partial credit beside the exact score (which stays the headline): shares in percent over "
    "the cell's counted trials (an unanswered trial counts 0); Hz ±1 % is PitchBench's "
    "frequency rule as a second score for Hz answers; Kendall τ over answered rank trials; "
    "|cents| is the absolute error of Hz answers to one-pitch questions."
)


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
    partial = partial_credit_table(partial_credit_summary(df))
    if not partial.empty:
        lines += ["", PARTIAL_CAPTION, ""]
        lines += markdown_table([*partial.index.names, *partial.columns],
                                ([*i, *v] for i, v in zip(partial.index, partial.values,
                                                          strict=True)))
    return "\n".join(lines) + "\n"
