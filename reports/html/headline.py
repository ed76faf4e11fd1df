"""The report's first screen: per model, how well it hears and where it fails.

One block per model: accuracy per task against chance with its Wilson interval, the audio-vs-MIDI
gap (the paper's central finding: models read a MIDI listing far better than they hear the
same notes), the audio-attention control verdicts, and the psychometric thresholds when the run
has graded pitch experiments. Every number links to the trials behind it (``#trials?...``,
read by the page's script). The numbers come from :func:`reports.tables.cells.cell_numbers`, as in
every table.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

import pandas as pd

from reports.html.trials import trials_link
from reports.stats.thresholds import ALL_CONDITIONS, threshold_cell
from reports.tables.accuracy import CHANCE, base_task, order_rank, with_rendition_in_task
from reports.tables.cells import cell_numbers
from reports.tables.controls import LISTENS, PRIORS
from reports.tables.terminal import percent_text


def headline_html(real: pd.DataFrame, control_summary: pd.DataFrame,
                  thresholds: Sequence[dict]) -> str:
    """The summary blocks, one per model of the real (non-control) records ``real``."""
    if real.empty:
        return '<p class="note">No trials were recorded.</p>'
    real = with_rendition_in_task(real)  # a live rendition is its own task, as in Table 1
    blocks = []
    for model in dict.fromkeys(real["model"]):
        mine = real[real["model"] == model]
        parts = [_accuracy_table(model, mine), _gap_list(model, mine),
                 _control_lines(model, control_summary),
                 _threshold_lines(model, thresholds)]
        blocks.append(f'<div class="model-block">\n<h3>{html.escape(str(model))}</h3>\n'
                      + "\n".join(p for p in parts if p) + "\n</div>")
    return ('<p class="note">Per model and task: accuracy in percent with its Wilson 95 % '
            "interval, pooled over modalities, shots and strategies, against a uniform guess; "
            "click a number for its trials.</p>\n" + "\n".join(blocks))


def _chance(task: str, group: pd.DataFrame) -> float:
    if "chance_probability" in group.columns and group["chance_probability"].notna().any():
        return float(group["chance_probability"].mean())
    return CHANCE.get(base_task(task), math.nan)


def _scored(group: pd.DataFrame) -> tuple[dict, float]:
    """A task's numbers and chance as its family's own table scores it: a pitch experiment
    per item over its notations (the any-notation score and its chance), so the report shows
    one accuracy and one chance per experiment, not a per-trial pair beside the table's."""
    family = str(group["family"].iloc[0]) if "family" in group.columns else ""
    if family == "pitch" and "notation" in group.columns:
        from reports.tables.pitch import any_notation_items

        numbers = cell_numbers(any_notation_items(group), chance=True)
        return numbers, numbers["chance"]
    return _numbers(group), _chance(str(group["task"].iloc[0]), group)


def _numbers(group: pd.DataFrame) -> dict:
    return cell_numbers(group.drop(columns=["chance_probability"], errors="ignore"))


def _percent(value: float) -> str:
    return percent_text(value, "n/a")


def _link(text: str, filters: dict) -> str:
    return f'<a class="cell" href="{html.escape(trials_link(filters))}">{html.escape(text)}</a>'


def _tasks(frame: pd.DataFrame) -> list[str]:
    tasks = pd.Series(list(dict.fromkeys(frame["task"])), name="task")
    return list(tasks.iloc[order_rank(tasks).argsort(kind="stable")])


def _accuracy_table(model: str, mine: pd.DataFrame) -> str:
    rows = []
    for task in _tasks(mine):
        group = mine[mine["task"] == task]
        numbers, chance = _scored(group)
        if numbers["n"] and chance == chance:
            verdict = ("above chance" if numbers["ci_low"] > chance else
                       "below chance" if numbers["ci_high"] < chance else "at chance")
        else:
            verdict = ""
        cell = (f"{_percent(numbers['accuracy'])} [{_percent(numbers['ci_low'])}, "
                f"{_percent(numbers['ci_high'])}]")
        family = str(group["family"].iloc[0]) if "family" in group.columns else ""
        rows.append(
            f"<tr><th>{html.escape(family)}</th><th>{html.escape(str(task))}</th>"
            f"<td>{_link(cell, {'model': model, 'task': task})}</td>"
            f"<td>{_percent(chance)}</td><td>{numbers['n']}</td>"
            f'<td class="verdict {verdict.split(" ")[0]}">{verdict}</td></tr>'
        )
    return ('<table class="data headline"><thead><tr><th>family</th><th>task</th>'
            "<th>accuracy % [95 % CI]</th><th>chance %</th><th>n</th><th></th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def _gap_list(model: str, mine: pd.DataFrame) -> str:
    """Audio minus MIDI accuracy per task that ran both (negative: hears worse than reads)."""
    items = []
    for task in _tasks(mine):
        group = mine[mine["task"] == task]
        audio = _numbers(group[group["modality"] == "audio"])
        midi = _numbers(group[group["modality"] == "midi"])
        if not (audio["n"] and midi["n"]):
            continue
        gap = 100 * (audio["accuracy"] - midi["accuracy"])
        cell = {"model": model, "task": task}
        items.append(
            f"<li><strong>{html.escape(str(task))}</strong>: audio "
            f"{_link(_percent(audio['accuracy']), {**cell, 'modality': 'audio'})} vs MIDI "
            f"{_link(_percent(midi['accuracy']), {**cell, 'modality': 'midi'})}"
            f": gap <strong>{gap:+.1f}</strong> points</li>"
        )
    if not items:
        return ""
    return ("<p><strong>Audio vs MIDI</strong> (accuracy %, audio minus MIDI):</p>"
            f"<ul class=\"gaps\">{''.join(items)}</ul>")


def _control_lines(model: str, summary: pd.DataFrame) -> str:
    if summary.empty or model not in set(summary["model"]):
        return ""
    mine = summary[summary["model"] == model]
    listens = mine[mine["verdict"] == LISTENS]
    priors = mine[mine["verdict"] == PRIORS]
    flagged = [
        f"{r.task}/{r.modality}/{r.shot}/{r.strategy} under {r.control}"
        for r in priors.itertuples(index=False)
    ]
    shown = "; ".join(html.escape(text) for text in flagged[:8])
    more = f" and {len(flagged) - 8} more" if len(flagged) > 8 else ""
    return (f"<p><strong>Controls</strong>: listens (accuracy drops without the audio) in "
            f"{len(listens)} of {len(mine)} cells"
            + (f"; <span class=\"flag\">language priors</span> in: {shown}{more}" if flagged
               else "") + ".</p>")


def _threshold_lines(model: str, thresholds: Sequence[dict]) -> str:
    rows = [row for row in thresholds
            if row.get("model") == model and row.get("condition") == ALL_CONDITIONS]
    if not rows:
        return ""
    items = "".join(
        f"<li>{html.escape(str(row['experiment']))}: "
        f"{html.escape(threshold_cell(pd.Series(row)))} {html.escape(str(row.get('unit', '')))}"
        "</li>" for row in rows)
    return f"<p><strong>Thresholds</strong> (all conditions pooled):</p><ul>{items}</ul>"
