"""Published results of the seed papers, kept as data with their citations.

``reports/published/*.csv`` hold the papers' own tables, one accuracy a row (columns: source,
task, modality, shot, strategy, model, accuracy_pct, note). ``task`` is the eartest task the
row matches (empty: no eartest task does, kept as data only); ``modality``, ``shot`` and
``strategy`` empty when the paper does not split by them (the row matches any), or a value of
the paper's own (``4-shot``) that no eartest condition has (kept, never shown beside a run's
cell). The numbers are copied as printed. They are shown in the report
as "published" rows beside the run's own, labelled with the citation, and never pooled with
measured numbers. ``published_rows(task)`` is the loader other pages call.
"""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path

import pandas as pd

from reports.tables.cells import counted

PUBLISHED_DIR = Path(__file__).resolve().parents[1] / "published"
CITATIONS = {
    "carone-table1": (
        "Carone et al., \"LLMs can read music, but struggle to hear it. An evaluation of core "
        "music perception tasks\" (the MUSE benchmark's companion paper), Table 1"),
    "muse-tableB": (
        "Carone et al., \"The MUSE Benchmark: Probing Music Perception and Auditory Relational "
        "Reasoning in Audio LLMs\", arXiv 2510.19055, repository README Table B "
        "(few-shot accuracy of Gemini Flash and Pro)"),
    "muse-summary": (
        "Carone et al., \"The MUSE Benchmark\", arXiv 2510.19055, repository file "
        "Gemini_Qwen_AF_logs/accuracy_summary_AF3.csv (per-task accuracy of each model)"),
    "pitchbench-table1": (
        "\"PitchBench: Measuring Pitch Hearing in Audio-Language Models\", Table 1 "
        "(per-experiment accuracy; a reply is right if its MIDI, SPN or Hz answer is)"),
    "muchomusic-table3": (
        "Weck, Manco et al., \"MuChoMusic: Evaluating Music Understanding in Multimodal "
        "Audio-Language Models\" (ISMIR 2024), Table 3 (overall accuracy)"),
}
FIELDS = ("source", "task", "modality", "shot", "strategy", "model", "accuracy_pct", "note")


@cache
def _all_rows() -> tuple[dict, ...]:
    rows = []
    for path in sorted(PUBLISHED_DIR.glob("*.csv")):
        with path.open(newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                if tuple(row) != FIELDS or row["source"] not in CITATIONS:
                    raise ValueError(f"{path.name}: a row without the columns {FIELDS} or "
                                     f"with an unknown source {row.get('source')!r}")
                rows.append({**row, "accuracy_pct": float(row["accuracy_pct"]),
                             "citation": CITATIONS[row["source"]]})
    return tuple(rows)


def published_rows(task: str) -> list[dict]:
    """Every published accuracy for eartest task ``task`` (copies: callers may change them),
    each with its ``citation``."""
    return [dict(row) for row in _all_rows() if row["task"] == task]


def _matches(row: dict, cell: dict) -> bool:
    return all(not row[key] or row[key] == cell[key] for key in ("modality", "shot", "strategy"))


def published_table(df: pd.DataFrame) -> pd.DataFrame:
    """The run's cells (task, modality, shot, strategy) with each published accuracy for the
    same condition beside the run's own per model; empty when no published row matches."""
    if df.empty:
        return pd.DataFrame()
    keys = ["task", "modality", "shot", "strategy"]
    rows = []
    for key, cell in df.groupby(keys, sort=False):
        names = dict(zip(keys, key, strict=True))
        published = [r for r in published_rows(str(names["task"])) if _matches(r, names)]
        if not published:
            continue
        for model, own in cell.groupby("model", sort=True):
            kept = counted(own)
            share = kept["correct"].mean() if len(kept) else float("nan")
            rows.append({**names, "row": f"{model} (this run)", "accuracy %": round(100 * share, 1),
                         "n": len(kept), "source": "measured"})
        for row in published:
            label = f"{row['model']} (published{'; ' + row['note'] if row['note'] else ''})"
            rows.append({**names, "row": label, "accuracy %": row["accuracy_pct"], "n": None,
                         "source": row["citation"]})
    return pd.DataFrame(rows)


CAPTION = ("Published results beside this run's: the seed papers' own accuracies for the same "
           "task and condition, labelled 'published' with their source; they are quoted, never "
           "pooled with or tested against the measured numbers.")


def published_report_tables(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    table = published_table(df)
    if table.empty:
        return {}
    table.attrs["caption"] = CAPTION
    return {"Published results (seed papers)": table}
