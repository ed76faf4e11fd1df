"""Confusion matrices for the choice tasks: which wrong answer a model gives.

A rate says how often a model is wrong; the matrix says how: a model that calls every
diminished chord "minor" hears something, one that spreads its errors evenly does not. Per
model and task of the families that ask for the ``confusion`` report section, whose answers
are a few options (chord quality, syncopation level, transposition yes/no...): rows are the
true answers, columns the answers read, with "no answer" for a reply read as none; each count
links to its trials. For the multiple-choice datasets the options are shuffled per question,
so the matrix is by what the chosen option was
(:func:`reports.tables.mcq_analyses.chosen_kind`): the correct answer or a distractor of a
given kind.
"""

from __future__ import annotations

import html

import pandas as pd

from reports.html.trials import trials_link
from reports.tables.accuracy import CHORD_QUALITY_BY_LETTER, base_task, order_rank
from reports.tables.cells import counted
from reports.tables.mcq_analyses import chosen_kind

MAX_OPTIONS = 12  # more distinct answers than this is not a choice task (pitch, free text)
NO_ANSWER = "no answer"


def _labels(task: str, group: pd.DataFrame) -> dict[str, str]:
    """Answer -> its name: a chord letter's quality, else the records' ``truth_label`` where
    every item with that answer has the same one (a syncopation level; not the transposition
    labels, which name each item's shift)."""
    if base_task(task) == "chord":
        return dict(CHORD_QUALITY_BY_LETTER)
    if "truth_label" not in group.columns:
        return {}
    pairs = group[["truth", "truth_label"]].dropna().astype(str).drop_duplicates()
    unique = pairs.drop_duplicates("truth", keep=False)
    return dict(zip(unique["truth"], unique["truth_label"], strict=True))


def _matrix_html(model: str, task: str, group: pd.DataFrame, filters: dict) -> str:
    truths = sorted(map(str, group["truth"].dropna().unique()))
    answered = group["parsed_answer"].map(lambda v: NO_ANSWER if v is None or v != v else str(v))
    answers = sorted(set(answered) - {NO_ANSWER} | set(truths))
    if (answered == NO_ANSWER).any():
        answers.append(NO_ANSWER)
    labels = _labels(task, group)
    head = "".join(f'<th title="{html.escape(labels.get(a, a))}">{html.escape(a)}</th>'
                   for a in answers)
    rows = []
    for truth in truths:
        mine = answered[group["truth"].astype(str) == truth]
        counts = mine.value_counts()
        cells = []
        for answer in answers:
            n = int(counts.get(answer, 0))
            css = "diag" if answer == truth else ("off" if n else "")
            link = trials_link({**filters, "model": model, "task": task, "truth": truth,
                                "parsed_answer": "" if answer == NO_ANSWER else answer})
            cells.append(f'<td class="{css}">' + (
                f'<a class="cell" href="{html.escape(link)}">{n}</a>' if n else "") + "</td>")
        name = f"{truth} ({labels[truth]})" if truth in labels and labels[truth] != truth else truth
        rows.append(f"<tr><th>{html.escape(name)}</th>{''.join(cells)}</tr>")
    return (f'<div class="matrix"><h4>{html.escape(model)} — {html.escape(task)}</h4>\n'
            '<table class="data confusion"><thead><tr><th>truth \\ answer</th>'
            f"{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>")


def _choice_tasks(choice: pd.DataFrame) -> list[str]:
    if choice.empty:
        return []
    tasks = []
    for task, group in choice.groupby("task", sort=False):
        options = set(map(str, group["truth"].dropna())) | set(
            map(str, group["parsed_answer"].dropna()))
        if 1 < len(options) <= MAX_OPTIONS:
            tasks.append(str(task))
    ordered = pd.Series(tasks, name="task", dtype=object)
    return list(ordered.iloc[order_rank(ordered).argsort(kind="stable")]) if tasks else []


def _mcq_html(real: pd.DataFrame) -> str:
    if "option_kinds" not in real.columns:
        return ""
    mcq = counted(real[(real["family"] == "mcq") & real["option_kinds"].notna()])
    if mcq.empty:
        return ""
    kinds = mcq.apply(chosen_kind, axis=1).map(lambda k: k or NO_ANSWER)
    table = pd.crosstab([mcq["model"], mcq["dataset"]], kinds)
    table.attrs["caption"] = "MCQ: counted trials by the kind of option chosen."
    body = "".join(
        f"<tr><th>{html.escape(str(model))}</th><th>{html.escape(str(dataset))}</th>"
        + "".join(f"<td>{int(n)}</td>" for n in row) + "</tr>"
        for (model, dataset), row in zip(table.index, table.values, strict=True))
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in table.columns)
    return ("<h4>Multiple choice: the kind of option chosen</h4>\n"
            '<table class="data confusion"><thead><tr><th>model</th><th>dataset</th>'
            f"{head}</tr></thead><tbody>{body}</tbody></table>")


def confusion_html(real: pd.DataFrame, choices: pd.DataFrame) -> str:
    """All confusion matrices of the real (non-control) records, per task for ``choices``
    (the records whose family asked for them); empty when none applies."""
    blocks = []
    kept = counted(choices)
    for task in _choice_tasks(kept):
        for model in dict.fromkeys(kept["model"]):
            group = kept[(kept["task"] == task) & (kept["model"] == model)]
            if len(group):
                blocks.append(_matrix_html(str(model), task, group, {}))
    mcq = _mcq_html(real) if "family" in real.columns else ""
    if not blocks and not mcq:
        return ""
    return ('<p class="note">Counted trials pooled over modalities, shots and strategies: rows '
            "are the true answers, columns the answers read; the diagonal is right.</p>\n"
            + '<div class="matrices">' + "\n".join(blocks) + "</div>\n" + mcq)
