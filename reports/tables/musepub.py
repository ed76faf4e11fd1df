"""MUSE as published: accuracy per task × prompting × shots, laid out like the paper's table.

One row per model and task (the paper's task names), one column per prompting variant
(SYSINST: plain system instructions; CoT) and shot setting (0-shot, or the paper's own solved
examples), so a row can be put beside the paper's. Each cell gives the accuracy with its
Wilson 95 % interval (``reports.tables.cells``, the one denominator policy of every table), the
trials it counts, and how many of the task's questions ran: a question whose recordings are
missing from the user's MUSE folder is left out, and the cell says so ("18 of 20").
"""

from __future__ import annotations

import pandas as pd

from reports.tables.accuracy import markdown_table
from reports.tables.cells import cell_numbers
from reports.tables.terminal import percent_text

KEYS = ("model", "task", "prompting", "shot")
SHOT_NAMES = {"zero": "0-shot", "few": "paper's shots"}
CAPTION = ("MUSE as published, on the user's recordings: accuracy % with Wilson 95 % interval "
           "[low, high], the trials counted (n) and the task's questions that ran of its "
           "questions (those whose recordings are missing are left out, never failed); "
           "SYSINST is MUSE's plain system instructions, CoT its chain of thought; 'paper's "
           "shots' shows the paper's solved examples first. Chance is a uniform guess.")


def musepub_summary(records: pd.DataFrame, header: dict | None = None) -> pd.DataFrame:
    """One row per model × task × prompting × shot: the cell's numbers and its coverage. A
    cell none of whose questions could run (recordings missing) has no records; the run
    header's coverage gives it a row of n = 0, so the table still shows "0 of 20"."""
    if records.empty:
        return pd.DataFrame(columns=[*KEYS, "title"])
    rows = []
    for key, group in records.groupby(list(KEYS), sort=False):
        rows.append({**dict(zip(KEYS, key, strict=True)), "title": group["title"].iloc[0],
                     **cell_numbers(group, chance=True),
                     "questions_run": int(group["items_run"].max()),
                     "questions_total": int(group["items_total"].max())})
    part = (header or {}).get("musepub") or {}
    part = {**part, "tasks": [t for t in part.get("tasks") or () if isinstance(t, dict)]}
    rows += _empty_cells(records, part, rows)
    models = list(dict.fromkeys(records["model"]))
    task_order = [t["task"] for t in part["tasks"]] + list(records["task"].unique())
    rows.sort(key=lambda row: (models.index(row["model"]), task_order.index(row["task"])))
    return pd.DataFrame(rows)


def _empty_cells(records: pd.DataFrame, part: dict, rows: list[dict]) -> list[dict]:
    """Rows of n = 0 for the cells the header lists that no question of ran."""
    seen = {tuple(row[k] for k in KEYS) for row in rows}
    prompting = {"standalone": "SYSINST", "cot": "CoT"}
    about_tasks = {t["task"]: t for t in part["tasks"]}
    empty = []
    for model in records["model"].unique():
        for task, cells in (part.get("coverage") or {}).items():
            about = about_tasks.get(task, {})
            for cell, counts in cells.items():
                shot, _, strategy = cell.partition("/")
                key = (model, task, prompting.get(strategy, strategy), shot)
                if key in seen or counts.get("run"):
                    continue
                empty.append({**dict(zip(KEYS, key, strict=True)),
                              "title": about.get("title", task),
                              **cell_numbers(records.iloc[0:0], chance=False),
                              "chance": about.get("chance", float("nan")),
                              "questions_run": 0, "questions_total": counts.get("total", 0)})
    return empty


def _cell(r) -> str:
    if not r.n:
        return f"n=0 ({r.questions_run} of {r.questions_total})"
    return (f"{percent_text(r.accuracy)} [{percent_text(r.ci_low)}, {percent_text(r.ci_high)}] "
            f"n={int(r.n)} ({r.questions_run} of {r.questions_total})")


def musepub_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Rows model × task, columns prompting × shots, plus the task's chance."""
    if summary.empty:
        return pd.DataFrame()
    column_order = [f"{p} {SHOT_NAMES.get(s, s)}" for p in ("SYSINST", "CoT")
                    for s in ("zero", "few")]
    cells: dict[tuple[str, str], dict[str, str]] = {}
    for r in summary.itertuples(index=False):
        row = cells.setdefault((r.model, r.title), {"chance %": percent_text(r.chance)})
        row[f"{r.prompting} {SHOT_NAMES.get(r.shot, r.shot)}"] = _cell(r)
    present = [c for c in column_order
               if any(c in row for row in cells.values())]
    table = pd.DataFrame(
        [{"model": model, "task": title, **{c: row.get(c, "") for c in present},
          "chance %": row["chance %"]} for (model, title), row in cells.items()])
    return table.set_index(["model", "task"])


def musepub_markdown(summary: pd.DataFrame) -> str:
    """The table as GitHub Markdown under its caption; empty without records."""
    table = musepub_table(summary)
    if table.empty:
        return ""
    flat = table.reset_index()
    lines = ["# MUSE as published", "", CAPTION, "",
             *markdown_table(flat.columns, flat.values)]
    return "\n".join(lines) + "\n"
