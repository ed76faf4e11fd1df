"""Multiple-choice tables: accuracy and IFR per dataset × condition × dimension.

MuChoMusic reports accuracy and the instruction-following rate (IFR: the share of replies that
name exactly one option) overall, per category (knowledge / reasoning) and per dimension, a
question counting in every dimension it covers; WildScore reports accuracy per category and
subcategory. Both are computed here from the trial records, over all repeats (each repeat
shows the options in another order), under the core tasks' denominator policy
(``solvers.metrics.DENOMINATOR_EXCLUDED``). The Wilson interval treats the trials as
independent; repeats of one question are not, so with several repeats it is too narrow.
"""

from __future__ import annotations

import pandas as pd

from .assisted import ASSISTED_COLUMNS, has_extractor
from .cells import cell_numbers
from .tables import markdown_table

GROUP_KINDS = ("all", "category", "subcategory")
KEYS = ("model", "dataset", "condition", "shot")
SUMMARY_COLUMNS = (*KEYS, "group_kind", "group", "n_trials", "n_excluded", "n", "correct",
                   "accuracy", "ci_low", "ci_high", "ifr", "off_final", "chance")


def mcq_records(df: pd.DataFrame) -> pd.DataFrame:
    """The multiple-choice trials of a run (records of family ``mcq``)."""
    if "family" not in df.columns:
        return df.iloc[0:0]
    return df[df["family"] == "mcq"].copy()


def _labels(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list | tuple) else []


def mcq_summary(df: pd.DataFrame) -> pd.DataFrame:
    """One row per model × dataset × condition × shot × (all | each category | subcategory)."""
    mcq = mcq_records(df)
    if mcq.empty:
        return pd.DataFrame(columns=list(SUMMARY_COLUMNS))
    extractor = has_extractor(mcq)
    rows = []
    for key, group in mcq.groupby(list(KEYS), sort=False):
        base = dict(zip(KEYS, key, strict=True))
        rows.append({**base, "group_kind": "all", "group": "all",
                     **cell_numbers(group, extractor, chance=True)})
        for kind, column in (("category", "categories"), ("subcategory", "subcategories")):
            labels = group[column].map(_labels)
            for label in sorted({label for values in labels for label in values}):
                members = group[labels.map(lambda values, label=label: label in values)]
                rows.append({**base, "group_kind": kind, "group": label,
                             **cell_numbers(members, extractor, chance=True)})
    summary = pd.DataFrame(rows, columns=[*SUMMARY_COLUMNS,
                                          *(ASSISTED_COLUMNS if extractor else ())])
    if summary.empty:
        return summary
    order = {kind: rank for rank, kind in enumerate(GROUP_KINDS)}
    summary["_kind"] = summary["group_kind"].map(order)
    summary = summary.sort_values(["dataset", "condition", "shot", "_kind", "group", "model"],
                                  kind="stable")
    return summary.drop(columns="_kind").reset_index(drop=True)


def _percent(value: float) -> str:
    return "" if value != value else f"{100 * value:.1f}"


def mcq_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Readable table: one row per dataset/condition/shot/group, per model accuracy [CI] and IFR."""
    if summary.empty:
        return pd.DataFrame()
    rows = []
    for r in summary.itertuples(index=False):
        rows.append({
            "dataset": r.dataset, "condition": r.condition, "shot": r.shot,
            "group": r.group if r.group_kind == "all" else f"{r.group_kind}: {r.group}",
            "model": r.model,
            "accuracy % [95% CI]": (f"{_percent(r.accuracy)} [{_percent(r.ci_low)}, "
                                    f"{_percent(r.ci_high)}]" if r.n else ""),
            **({"assisted accuracy %": _percent(r.assisted_accuracy)}
               if hasattr(r, "assisted_accuracy") else {}),
            "IFR %": _percent(r.ifr),
            "not on a Final Answer line %": _percent(r.off_final),
            "n": int(r.n),
            "excluded": int(r.n_excluded),
            "chance %": _percent(r.chance),
        })
    return pd.DataFrame(rows).set_index(["dataset", "condition", "shot", "group", "model"])


def mcq_markdown(summary: pd.DataFrame) -> str:
    """The MCQ table as GitHub Markdown; empty without MCQ records."""
    table = mcq_table(summary)
    if table.empty:
        return ""
    flat = table.reset_index()
    return "\n".join(markdown_table(flat.columns, flat.values)) + "\n"
