"""Accuracy and transcription tables built from a run's trial records.

A run leaves one JSON record per trial in ``<run dir>/trials.jsonl``; this module loads one or
more runs into a DataFrame and reduces it to the paper's tables. All scoring arithmetic
(denominator policy, Wilson interval, set F1) lives in :mod:`solvers.metrics`, so the tables and
the CI gates cannot disagree about what a number means.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping, Sequence

import pandas as pd

from reports.run.record_file import read_rows
from reports.stats.sampled import SAMPLED_COLUMNS, has_samples, sample_suffix
from reports.tables.assisted import ASSISTED_COLUMNS, assisted_suffix, has_extractor
from reports.tables.cells import cell_numbers, counted
from reports.tables.terminal import MODALITY_ORDER, TASK_ORDER, ordered
from solvers.logic import CHORD_LETTER_BY_QUALITY
from solvers.metrics import (
    TRANSCRIPTION_KEYS,
    f1_from_counts,
    part_element_counts,
    precision_recall,
    transcription_counts,
)

CELL_KEYS = ("model", "task", "modality", "shot", "strategy")
TABLE1_MODALITIES = ("audio", "midi")  # the paper's grid: always shown, even when not run
SHOT_ORDER = ("zero", "few")
STRATEGY_ORDER = ("standalone", "cot", "logiclm")
ERROR_CLASSES = (
    "no_final_answer", "hedged_answer", "schema_parse", "schema_structural", "schema_domain",
    "undecidable",
    "token_limit", "empty_output", "safety_block", "recitation_block", "backend_error",
    "unsupported_input",
)
CHANCE = {"syncopation": 0.20, "transposition": 0.50, "chord": 0.25}
CHORD_QUALITY_BY_LETTER = {letter: quality for quality, letter in CHORD_LETTER_BY_QUALITY.items()}
LABEL_ORDER = {
    "syncopation": TRANSCRIPTION_KEYS["syncopation"],
    "transposition": ("yes", "no"),
    "chord": tuple(CHORD_LETTER_BY_QUALITY),
}
CANONICAL_ORDER: dict[str, Sequence[str]] = {
    "task": TASK_ORDER,
    "modality": MODALITY_ORDER,
    "shot": SHOT_ORDER,
    "strategy": STRATEGY_ORDER,
    "label": [label for labels in LABEL_ORDER.values() for label in labels],
}
REQUIRED_FIELDS = (*CELL_KEYS, "trial_id", "truth", "parsed_answer", "correct", "error_class")
SUMMARY_COLUMNS = (
    "n_trials", "n_excluded", "n", "correct", "accuracy", "ci_low", "ci_high", "ifr", "off_final",
)

PathLike = str | os.PathLike[str]


# --- Loading -----------------------------------------------------------------------------------


def load_records(paths: PathLike | Iterable[PathLike]) -> pd.DataFrame:
    """One row per trial from run directories or ``trials.jsonl`` files, concatenated, as
    :func:`reports.run.record_file.read_rows` reads them (validated and flattened, each
    (model, trial_id) once, a ``source`` column naming the file each row came from; its
    errors are this function's)."""
    rows = read_rows(paths)
    if not rows:
        return pd.DataFrame(columns=[*REQUIRED_FIELDS, "source"])
    return pd.DataFrame(rows)


# --- Accuracy per cell -------------------------------------------------------------------------


def cell_summary(df: pd.DataFrame, samples: bool = True) -> pd.DataFrame:
    """Accuracy per (model, task, modality, shot, strategy) cell under the denominator policy.

    ``n`` is the paper's EffectiveTotal: ``n_trials`` minus the ``n_excluded`` trials whose
    error class is in :data:`solvers.metrics.DENOMINATOR_EXCLUDED`. ``ifr`` (instruction-
    following rate) is the share of those ``n`` outputs that yielded a valid answer at all, so
    a low accuracy can be told apart from a formatting failure. One count column per error
    class follows, so nothing excluded or failed is hidden. A run with ``--samples`` adds
    :data:`reports.stats.sampled.SAMPLED_COLUMNS` (``samples=False`` leaves them out: their
    bootstrap is the slow part, and the baseline's cells only need the counts).
    """
    extra = sorted({c for c in df["error_class"].dropna().unique() if c not in ERROR_CLASSES})
    classes = [*ERROR_CLASSES, *extra]
    df = with_rendition_in_task(df)
    extractor = has_extractor(df)
    sampled = samples and has_samples(df)
    rows = []
    for key, group in df.groupby(list(CELL_KEYS), sort=False):
        counts = group["error_class"].value_counts()
        rows.append(
            {
                **dict(zip(CELL_KEYS, key, strict=True)),
                **cell_numbers(group, extractor, sampled=sampled),
                **{name: int(counts.get(name, 0)) for name in classes},
            }
        )
    columns = [*CELL_KEYS, *SUMMARY_COLUMNS, *(ASSISTED_COLUMNS if extractor else ()),
               *(SAMPLED_COLUMNS if sampled else ()), *classes]
    summary = pd.DataFrame(rows, columns=columns)
    summary = summary.sort_values(
        list(CELL_KEYS),
        key=order_rank,
        kind="stable",
        ignore_index=True,
    )
    return summary.set_index(list(CELL_KEYS))


def with_rendition_in_task(df: pd.DataFrame) -> pd.DataFrame:
    """Records of a non-studio rendition (``--rendition live``) count as their own task,
    ``chord@live``, so a table shows studio and live side by side, never pooled."""
    if "rendition" not in df.columns or not df["rendition"].notna().any():
        return df
    live = df["rendition"].notna()
    return df.assign(task=df["task"].where(~live, df["task"] + "@" + df["rendition"].astype(str)))


def base_task(task: str) -> str:
    """The core task of a table's task column (``chord@live`` -> ``chord``)."""
    return task.split("@")[0]


def order_rank(col: pd.Series) -> pd.Series:
    """Sort key for one axis: the paper's order first, anything else alphabetically after."""
    order = ordered(col, CANONICAL_ORDER.get(str(col.name), ()), keep_canonical=True)
    return col.map({value: position for position, value in enumerate(order)})



# --- Table 1 -----------------------------------------------------------------------------------


def chance_levels(header: Mapping, df: pd.DataFrame | None = None) -> dict[str, float]:
    """Each task's chance level for this run: the core tasks' 1 / options offered, which a
    stimuli manifest with fewer labels narrows (recorded in the run header); any other task's
    from its records' ``chance_probability`` (a family that records it gets a chance row)."""
    manifest = (header.get("options") or {}).get("stimuli_manifest") or {}
    narrowed = {task: 1 / len(answers)
                for task, answers in (manifest.get("offered_answers") or {}).items() if answers}
    recorded: dict[str, float] = {}
    if df is not None and "chance_probability" in df.columns:
        known = df.dropna(subset=["chance_probability"])
        recorded = known.groupby("task")["chance_probability"].mean().to_dict()
    return {**recorded, **CHANCE, **narrowed}


def table1(
    summary: pd.DataFrame,
    chance: Mapping[str, float] = CHANCE,
    models: Sequence[str] | None = None,
) -> pd.DataFrame:
    """The paper's Table 1 as formatted strings, built from :func:`cell_summary`.

    Rows are always the full design grid (audio/midi × zero/few × standalone/cot/logiclm), so
    a cell that was not run shows as empty instead of silently vanishing (score and none rows
    follow when those modalities were run); a final "Chance" row
    gives each task's chance level. Columns are (task, model) for the tasks present, in the
    paper's task order. A cell reads ``85.0 [64.0, 94.8] n=20``: accuracy and Wilson 95 %
    interval in percent, then the denominator; ``excl=k`` is appended when k trials were
    excluded, and a cell whose every trial was excluded reads ``n/a n=0 excl=k``.
    """
    index = summary.index
    tasks = ordered(index.get_level_values("task"), TASK_ORDER, keep_canonical=False)
    if models is None:
        models = list(dict.fromkeys(index.get_level_values("model")))
    rows = [
        (modality, shot, strategy)
        for modality in _table1_modalities(index.get_level_values("modality"))
        for shot in ordered(index.get_level_values("shot"), SHOT_ORDER, True)
        for strategy in ordered(index.get_level_values("strategy"), STRATEGY_ORDER, True)
    ]
    columns = pd.MultiIndex.from_tuples(
        [(task, model) for task in tasks for model in models], names=["task", "model"]
    )
    body = [
        [_format_cell(summary, (model, task, *row)) for task, model in columns] for row in rows
    ]
    chance_row = [
        f"{100 * chance[base_task(task)]:.1f}" if base_task(task) in chance else ""
        for task, _ in columns
    ]
    table = pd.DataFrame(
        [*body, chance_row],
        index=pd.MultiIndex.from_tuples(
            [*rows, ("Chance", "", "")], names=["Modality", "Shot", "Strategy"]
        ),
        columns=columns,
    )
    return table


def _table1_modalities(values: Iterable[str]) -> list[str]:
    """The paper's modalities always, score and none (and anything else) only when run."""
    present = set(values)
    shown = [m for m in MODALITY_ORDER if m in TABLE1_MODALITIES or m in present]
    return shown + sorted(present - set(MODALITY_ORDER))


def _format_cell(summary: pd.DataFrame, key: tuple[str, ...]) -> str:
    if key not in summary.index:
        return ""
    cell = summary.loc[key]
    excluded = f" excl={int(cell['n_excluded'])}" if cell["n_excluded"] else ""
    if cell.get("off_final", 0) > 0:  # NaN compares False
        excluded += f" off-final={100 * cell['off_final']:.0f}%"
    if not cell["n"]:
        return f"n/a n=0{excluded}"
    return (
        f"{100 * cell['accuracy']:.1f} [{100 * cell['ci_low']:.1f}, {100 * cell['ci_high']:.1f}]"
        f" n={int(cell['n'])}{excluded}{assisted_suffix(cell)}{sample_suffix(cell)}"
    )


def table1_markdown(
    summary: pd.DataFrame,
    chance: Mapping[str, float] = CHANCE,
    models: Sequence[str] | None = None,
) -> str:
    """Table 1 as a GitHub-flavoured Markdown table (one header row: ``task / model``)."""
    table = table1(summary, chance, models)
    header = [*table.index.names, *(f"{task} / {model}" for task, model in table.columns)]
    rows = zip(table.index, table.values, strict=True)
    return "\n".join(markdown_table(header, ([*key, *values] for key, values in rows))) + "\n"


def md_row(cells: Iterable[object]) -> str:
    """One Markdown table row, pipes in cells escaped."""
    return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"


def markdown_table(header: Iterable[object], rows: Iterable[Iterable[object]]) -> list[str]:
    """The lines of a GitHub Markdown table: header, separator, rows (every report table)."""
    header = list(header)
    return [md_row(header), md_row(["---"] * len(header)), *(md_row(row) for row in rows)]


def table1_csv(summary: pd.DataFrame) -> str:
    """Table 1's numbers in long form (one line per cell), proportions in 0..1, for tools."""
    columns = ["n_trials", "n_excluded", "n", "correct", "accuracy", "ci_low", "ci_high", "ifr"]
    columns += [c for c in (*ASSISTED_COLUMNS, *SAMPLED_COLUMNS) if c in summary.columns]
    return summary[columns].reset_index().to_csv(index=False)


# --- Transcription F1 (LogicLM input quality) --------------------------------------------------


def transcription_f1(df: pd.DataFrame, by_model: bool = False) -> pd.DataFrame:
    """Micro-averaged transcription F1 of LogicLM trials per (task, label, modality).

    Follows the paper's Figure 3: TP/FP/FN are summed over all trials of a group (pooled over
    models and shots unless ``by_model``) before precision, recall and F1 are computed, so each
    trial weighs the same. Labels are "on-beat"/"off-beat" for syncopation (every trial feeds
    both), the true answer "yes"/"no" for transposition, and the true chord quality for chord;
    any other task's transcription is scored part by part (``part_element_counts``) under its
    true answer.
    ``accuracy`` is the decision accuracy of the same trials. Trials excluded from accuracy
    (no output) are excluded here too; a trial whose schema never parsed counts every true
    note as a false negative. Trials without a true transcription (a manifest's recordings
    given without one) have nothing to be scored against and are left out;
    ``attrs["without_truth"]`` counts them.
    """
    keys = ["model"] if by_model else []
    keys += ["task", "label", "modality"]
    logiclm = counted(df[df["strategy"] == "logiclm"])
    truths = logiclm.get("truth_transcription", pd.Series([[0]] * len(logiclm), dtype=object))
    has_truth = truths.map(lambda t: isinstance(t, list) and bool(t)).to_numpy(dtype=bool)
    without_truth = int((~has_truth).sum())
    logiclm = logiclm[has_truth]
    totals: dict[tuple, list[int]] = {}
    for record in logiclm.to_dict("records"):
        truth, heard = record["truth_transcription"], _missing_to_none(record["transcription"])
        counts = (transcription_counts(record["task"], truth, heard)
                  if record["task"] in TRANSCRIPTION_KEYS else part_element_counts(truth, heard))
        for key, (tp, fp, fn) in counts.items():
            label = _label(record, key)
            group = (record["model"],) if by_model else ()
            group += (record["task"], label, record["modality"])
            total = totals.setdefault(group, [0, 0, 0, 0, 0])
            for i, value in enumerate((tp, fp, fn, 1, int(bool(record["correct"])))):
                total[i] += value
    rows = []
    for group, (tp, fp, fn, n, correct) in totals.items():
        precision, recall = precision_recall(tp, fp, fn)
        rows.append(
            {
                **dict(zip(keys, group, strict=True)),
                "n_trials": n, "tp": tp, "fp": fp, "fn": fn,
                "precision": precision, "recall": recall, "f1": f1_from_counts(tp, fp, fn),
                "accuracy": correct / n,
            }
        )
    columns = [*keys, "n_trials", "tp", "fp", "fn", "precision", "recall", "f1", "accuracy"]
    table = pd.DataFrame(rows, columns=columns)
    table = table.sort_values(keys, key=order_rank, kind="stable", ignore_index=True)
    table = table.set_index(keys)
    table.attrs["without_truth"] = without_truth
    return table


def _label(record: Mapping, count_key: str) -> str:
    task = record["task"]
    if task == "syncopation":
        return count_key
    if task == "transposition" or task not in TRANSCRIPTION_KEYS:
        return str(record["truth"])
    quality = CHORD_QUALITY_BY_LETTER.get(record["truth"])
    if quality is None:
        raise ValueError(f"{record['trial_id']}: unknown chord answer letter {record['truth']!r}")
    return quality


def _missing_to_none(value: object) -> object:
    """Schema-less trials load as None (or NaN when pandas filled a column); both mean none."""
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else value
