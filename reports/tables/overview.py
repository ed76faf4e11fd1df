"""One overview across runs: a row per model, a column per task family.

``python -m reports build`` given several runs writes ``overview.html`` and ``overview.csv``
beside the merged report: each model's accuracy per family (all its counted trials of that
family pooled, with the Wilson 95 % interval), then a pooled ``human`` row when listeners'
runs are among them (their own table, with intervals over listeners, is in the report), then
the seed papers' published results (``reports.tables.published``): per model and family the mean of
its published accuracies for the conditions of that family the runs hold, labelled as
published and with how many published numbers it averages. Published numbers are quoted,
never pooled with measured ones.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from reports.tables.cells import cell_numbers
from reports.tables.humans import HUMAN, human_records, is_human
from reports.tables.terminal import percent_text

OVERVIEW_HTML = "overview.html"
OVERVIEW_CSV = "overview.csv"
CAPTION = (
    "One row per model across every task family of the merged runs: accuracy in percent with "
    "its Wilson 95 % interval and the number of trials counted, all of a family's tasks and "
    "conditions pooled. 'human' pools every listener's trials (the listeners' own table, with "
    "intervals over listeners, is in the report). Published rows quote the seed papers: the "
    "mean of a model's published accuracies for the family's conditions in these runs (k = "
    "how many), never pooled with measured numbers."
)


def _measured(records: pd.DataFrame, label: str, kind: str) -> list[dict]:
    rows = []
    for family, group in records.groupby("family", sort=True):
        numbers = cell_numbers(group)
        rows.append({"row": label, "kind": kind, "family": family,
                     "accuracy": numbers["accuracy"], "ci_low": numbers["ci_low"],
                     "ci_high": numbers["ci_high"], "n": numbers["n"], "tasks": None})
    return rows


def _published(records: pd.DataFrame) -> list[dict]:
    """Per published model and family: the mean of its accuracies for the conditions
    (task, modality, shot, strategy) the runs hold, as ``reports.tables.published`` matches them."""
    from reports.tables.published import _matches, published_rows

    keys = ["task", "modality", "shot", "strategy"]
    rows = []
    for family, group in records.groupby("family", sort=True):
        by_model: dict[str, list[float]] = {}
        for key in group[keys].drop_duplicates().itertuples(index=False):
            cell = dict(zip(keys, key, strict=True))
            for row in published_rows(str(cell["task"])):
                if _matches(row, cell):
                    by_model.setdefault(row["model"], []).append(row["accuracy_pct"] / 100)
        for model, shares in sorted(by_model.items()):
            rows.append({"row": f"{model} (published)", "kind": "published", "family": family,
                         "accuracy": sum(shares) / len(shares), "ci_low": None,
                         "ci_high": None, "n": None, "tasks": len(shares)})
    return rows


def overview_rows(records: pd.DataFrame) -> pd.DataFrame:
    """Long form (``overview.csv``), of the real trials among ``records`` (control trials are
    not the model's accuracy): row, kind (model, human, published), family, accuracy,
    ci_low, ci_high, n, tasks (published rows: how many published accuracies the mean is of)."""
    from reports.tables.controls import real_records

    real = real_records(records) if len(records) else records
    if real.empty:
        return pd.DataFrame(columns=["row", "kind", "family", "accuracy", "ci_low", "ci_high",
                                     "n", "tasks"])
    real = real.assign(family=real["family"].fillna("core"))
    rows = []
    for model, group in real.groupby("model", sort=True):
        rows += _measured(group, str(model), "human" if is_human(str(model)) else "model")
    humans = human_records(real)
    if len(humans) and set(humans["model"]) != {HUMAN}:
        rows += _measured(humans, HUMAN, "human")
    rows += _published(real[~real["model"].map(lambda m: is_human(str(m)))])
    return pd.DataFrame(rows)


def overview_table(rows: pd.DataFrame) -> pd.DataFrame:
    """The page's table: a row per model (then human, then published), a column per family."""
    def cell(entry: pd.Series) -> str:
        if entry["kind"] == "published":
            return f"{percent_text(entry['accuracy'])} (k={int(entry['tasks'])})"
        return (f"{percent_text(entry['accuracy'], 'n/a')} [{percent_text(entry['ci_low'])}–"
                f"{percent_text(entry['ci_high'])}] n={int(entry['n'])}")

    order = {"model": 0, "human": 1, "published": 2}
    shown = rows.assign(text=rows.apply(cell, axis=1), order=rows["kind"].map(order))
    table = shown.pivot_table(index=["order", "row"], columns="family", values="text",
                              aggfunc="first", sort=True).fillna("")
    table.index = table.index.droplevel("order")
    table.columns.name = None
    return table


def write_overview(records: pd.DataFrame, out_dir: Path, header: dict) -> dict[str, Path]:
    """``overview.csv`` and ``overview.html`` in ``out_dir`` from the merged runs' records;
    nothing when no real trial is among them."""
    from reports.html.page import render_report

    rows = overview_rows(records)
    if rows.empty:
        return {}
    csv_path, page_path = out_dir / OVERVIEW_CSV, out_dir / OVERVIEW_HTML
    csv_path.write_text(rows.to_csv(index=False), encoding="utf-8")
    table = overview_table(rows)
    table.attrs["caption"] = CAPTION
    page_header = {**header, "run_id": f"{header.get('run_id', '')} overview".strip()}
    page_path.write_text(render_report(page_header, {"Overview across runs": table}, {}),
                         encoding="utf-8")
    return {OVERVIEW_CSV: csv_path, OVERVIEW_HTML: page_path}
