"""Models side by side: paired per-cell deltas, and the items every model fails.

The deltas and exact McNemar p-values are
:func:`reports.stats.inference.paired_comparison`'s, the very
function ``python -m reports compare A B`` prints, called on the same records (one model's real
trials as run A, another's as run B), so the page and the terminal cannot disagree. The first
model is the reference; each other model is compared with it. The items every model got wrong
in every counted trial are the benchmark's hard core: no model heard them in any condition.
"""

from __future__ import annotations

import html

import pandas as pd

from reports.html.trials import trials_link
from reports.stats.inference import ALL, p_text, paired_comparison, significance_mark
from reports.tables.accuracy import order_rank
from reports.tables.cells import counted
from reports.tables.terminal import percent_text


def comparison_tables(real: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Per other model: ``paired_comparison`` of the first model's trials against its own."""
    models = [str(m) for m in dict.fromkeys(real["model"])]
    return {other: paired_comparison(real[real["model"] == models[0]],
                                     real[real["model"] == other])
            for other in models[1:]}


def comparison_html(real: pd.DataFrame) -> str:
    """The comparison view (empty string with fewer than two models)."""
    if real.empty or real["model"].nunique() < 2:
        return ""
    blocks = []
    for other, table in comparison_tables(real).items():
        reference = str(table["model_a"].iloc[0]) if len(table) else ""
        blocks.append(f"<h3>{html.escape(reference)} → {html.escape(other)}</h3>\n"
                      + _table_html(table))
    return ('<p class="note">Paired by trial: acc A is the first model, acc B the other, in '
            "percent over the paired trials; delta = B − A in points; b = A right and B wrong, "
            "c = A wrong and B right; p: exact McNemar, two-sided, uncorrected (the numbers of "
            "<code>python -m reports compare</code>). Click a delta for the cell's trials.</p>\n"
            + "\n".join(blocks) + "\n" + _hard_core(real))


def _table_html(table: pd.DataFrame) -> str:
    rows = []
    for r in table.itertuples(index=False):
        filters = {k: getattr(r, k) for k in ("task", "modality", "shot", "strategy")
                   if getattr(r, k) != ALL}
        delta = "" if r.delta != r.delta else f"{r.delta:+.1f}"
        link = (f'<a class="cell" href="{html.escape(trials_link(filters))}">{delta}</a>'
                if delta else "")
        pooled = ' class="pooled"' if r.modality == ALL else ""
        rows.append(
            f"<tr{pooled}>" + "".join(f"<th>{html.escape(str(getattr(r, k)))}</th>"
                                     for k in ("task", "modality", "shot", "strategy"))
            + f"<td>{r.n_pairs}</td><td>{percent_text(r.accuracy_a)}</td>"
            f"<td>{percent_text(r.accuracy_b)}</td><td>{link}</td><td>{r.b}</td><td>{r.c}</td>"
            f'<td class="p-value">{p_text(r.p_value)}</td>'
            f"<td>{significance_mark(r.p_value)}</td></tr>"
        )
    return ('<div class="scroll"><table class="data compare"><thead><tr><th>task</th>'
            "<th>modality</th><th>shot</th><th>strategy</th><th>n</th><th>acc A</th>"
            "<th>acc B</th><th>delta</th><th>b</th><th>c</th><th>p</th><th></th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>")


def failed_by_all(real: pd.DataFrame) -> pd.DataFrame:
    """Items (task, item_id) that every model ran and answered wrong in every counted trial."""
    kept = counted(real)
    if kept.empty:
        return pd.DataFrame(columns=["task", "item_id", "trials"])
    right = kept["correct"].map(lambda v: bool(v) if v == v and v is not None else False)
    per_item = kept.assign(right=right).groupby(["task", "item_id"], sort=False).agg(
        models=("model", "nunique"), any_right=("right", "any"), trials=("right", "size"))
    n_models = real["model"].nunique()
    hard = per_item[(per_item["models"] == n_models) & ~per_item["any_right"]].reset_index()
    return hard.sort_values(["task", "item_id"], key=order_rank, kind="stable")[
        ["task", "item_id", "trials"]]


def _hard_core(real: pd.DataFrame) -> str:
    hard = failed_by_all(real)
    head = (f"<h3>Items every model fails ({len(hard)})</h3>\n<p class=\"note\">Items every "
            "model ran and answered wrong in every counted trial (all modalities, shots and "
            "strategies).</p>\n")
    if hard.empty:
        return head + '<p class="note">None: some model got every item right at least once.</p>'
    links = [html.escape(trials_link({"task": r.task, "item_id": r.item_id}))
             for r in hard.itertuples(index=False)]
    items = "".join(
        f'<li><a class="cell" href="{link}">'
        f"{html.escape(str(r.task))} / {html.escape(str(r.item_id))}</a> ({r.trials} trials)</li>"
        for link, r in zip(links, hard.itertuples(index=False), strict=True))
    return head + f'<ul class="hard-core">{items}</ul>'
