"""Multiple-choice tables: accuracy and IFR per dataset × condition × dimension.

MuChoMusic reports accuracy and the instruction-following rate (IFR: the share of replies that
name exactly one option) overall, per category (knowledge / reasoning), per dimension (a
question counting in every dimension it covers) and per genre; where the dataset has its
annotators' columns, also for questions all annotators answered as intended vs not, and for
questions an annotator flagged as odd vs never (``correct`` and ``odd_question`` of the
authors' benchmark table). The overall row says how many of the dataset's questions the
condition ran ("n of N": ``--mcq-missing skip`` leaves out questions without their media).
WildScore reports accuracy per category and subcategory. Both are computed here from the
trial records, over all repeats (each repeat shows the options in another order), under the
core tasks' denominator policy (``solvers.metrics.DENOMINATOR_EXCLUDED``). The Wilson
interval treats the trials as independent; repeats of one question are not, so with several
repeats it is too narrow: the overall row adds an interval that resamples questions (each with
all its repeats and samples), and the consistency across option orders that pooling hides —
the share of questions right in every order, and right in more than half of them (a trial of
a ``--samples`` run is right by its majority answer).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pandas as pd

from reports.stats.sampled import SAMPLED_COLUMNS, has_samples, items_of, sample_fields
from reports.tables.accuracy import markdown_table
from reports.tables.assisted import ASSISTED_COLUMNS, has_extractor
from reports.tables.cells import cell_numbers
from reports.tables.mcq_analyses import CAPTION, distractor_summary, distractor_table
from reports.tables.terminal import percent_text
from solvers.metrics import DENOMINATOR_EXCLUDED

GROUP_KINDS = ("all", "category", "subcategory", "genre", "annotators", "odd question")
KEYS = ("model", "dataset", "condition", "shot")
SUMMARY_COLUMNS = (*KEYS, "group_kind", "group", "n_trials", "n_excluded", "n", "correct",
                   "accuracy", "ci_low", "ci_high", "ifr", "off_final", "chance",
                   "questions_run", "questions_total", "orders", "all_orders",
                   "majority_orders", "cluster_ci_low", "cluster_ci_high")


def mcq_records(df: pd.DataFrame) -> pd.DataFrame:
    """The multiple-choice trials of a run (records of family ``mcq``)."""
    if "family" not in df.columns:
        return df.iloc[0:0]
    return df[df["family"] == "mcq"].copy()


def full_questions(mcq: pd.DataFrame) -> pd.DataFrame:
    """The records of questions asked with all their options (not ``--mcq-ablate`` trials)."""
    if "removed_option" not in mcq.columns:
        return mcq
    return mcq[mcq["removed_option"].isna()]


def _labels(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list | tuple) else []


def _single(column: str, name: Callable[[object], list[str]]
            ) -> Callable[[pd.DataFrame], pd.Series | None]:
    """A group labeller reading one details column (genre, annotator shares)."""
    return lambda frame: frame[column].map(name) if column in frame.columns else None


def _agreement(share: object) -> list[str]:
    if not isinstance(share, int | float) or share != share:
        return []
    return ["all chose the answer" if share >= 1 else "not all chose the answer"]


def _odd(share: object) -> list[str]:
    if not isinstance(share, int | float) or share != share:
        return []
    return ["flagged by an annotator" if share > 0 else "never flagged"]


def _genre(value: object) -> list[str]:
    return [value] if isinstance(value, str) and value else []


GROUPERS = (
    ("category", lambda frame: frame["categories"].map(_labels)),
    ("subcategory", lambda frame: frame["subcategories"].map(_labels)),
    ("genre", _single("genre", _genre)),
    ("annotators", _single("annotator_agreement", _agreement)),
    ("odd question", _single("odd_question", _odd)),
)
"""Breakdowns of the MCQ table: each maps records to the labels a record counts under
(MuChoMusic's dimensions, genre, and its annotators' agreement and odd-question flags)."""


def _coverage(group: pd.DataFrame) -> dict:
    """Questions this condition ran of the dataset's (``--mcq-missing skip``), from records."""
    numbers = {}
    for column in ("questions_run", "questions_total"):
        values = group[column].dropna() if column in group.columns else ()
        numbers[column] = int(values.max()) if len(values) else None
    return numbers


def order_consistency(group: pd.DataFrame) -> dict:
    """Per question over its repeats (option orders): right in all of them, right in more
    than half; and the pooled accuracy's interval over questions (``reports.stats.sampled``)."""
    counted = group[~group["error_class"].isin(DENOMINATOR_EXCLUDED)]
    rights = counted["correct"].groupby(items_of(counted), sort=False).agg(
        lambda c: list(map(bool, c)))
    fields = sample_fields(group, True)
    return {"orders": int(rights.map(len).max()) if len(rights) else 0,
            "all_orders": float(rights.map(all).mean()) if len(rights) else math.nan,
            "majority_orders": (float(rights.map(lambda r: 2 * sum(r) > len(r)).mean())
                                if len(rights) else math.nan),
            "cluster_ci_low": fields["mean_ci_low"], "cluster_ci_high": fields["mean_ci_high"]}


def mcq_summary(df: pd.DataFrame) -> pd.DataFrame:
    """One row per model × dataset × condition × shot × (all | each category, subcategory,
    genre, annotator agreement, odd-question flag)."""
    mcq = full_questions(mcq_records(df))
    if mcq.empty:
        return pd.DataFrame(columns=list(SUMMARY_COLUMNS))
    extractor = has_extractor(mcq)
    sampled = has_samples(mcq)  # --samples: the overall rows add the mean over samples
    rows = []
    for key, group in mcq.groupby(list(KEYS), sort=False):
        base = dict(zip(KEYS, key, strict=True))
        rows.append({**base, "group_kind": "all", "group": "all",
                     **cell_numbers(group, extractor, chance=True, sampled=sampled),
                     **_coverage(group),
                     **order_consistency(group)})
        for kind, labeller in GROUPERS:
            labels = labeller(group)
            if labels is None:
                continue
            for label in sorted({label for values in labels for label in values}):
                members = group[labels.map(lambda values, label=label: label in values)]
                rows.append({**base, "group_kind": kind, "group": label,
                             **cell_numbers(members, extractor, chance=True)})
    summary = pd.DataFrame(rows, columns=[*SUMMARY_COLUMNS,
                                          *(ASSISTED_COLUMNS if extractor else ()),
                                          *(SAMPLED_COLUMNS if sampled else ())])
    if summary.empty:
        return summary
    order = {kind: rank for rank, kind in enumerate(GROUP_KINDS)}
    summary["_kind"] = summary["group_kind"].map(order)
    summary = summary.sort_values(["dataset", "condition", "shot", "_kind", "group", "model"],
                                  kind="stable")
    return summary.drop(columns="_kind").reset_index(drop=True)


def _questions(r) -> str:
    """"n of N": questions this condition ran, of the dataset's (overall rows only)."""
    run, total = getattr(r, "questions_run", None), getattr(r, "questions_total", None)
    if r.group_kind != "all" or run is None or total is None or run != run or total != total:
        return ""
    return f"{int(run)} of {int(total)}"


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
            "accuracy % [95% CI]": (f"{percent_text(r.accuracy)} [{percent_text(r.ci_low)}, "
                                    f"{percent_text(r.ci_high)}]" if r.n else ""),
            **({"assisted accuracy %": percent_text(r.assisted_accuracy)}
               if hasattr(r, "assisted_accuracy") else {}),
            **({"mean accuracy % (samples)": percent_text(r.mean_accuracy),
                "agreement": "" if r.agreement != r.agreement else f"{r.agreement:.2f}"}
               if hasattr(r, "mean_accuracy") else {}),
            "mean accuracy 95% CI by question": (
                f"[{percent_text(r.cluster_ci_low)}, {percent_text(r.cluster_ci_high)}]"
                if r.group_kind == "all" and r.n else ""),
            "right in every order %": percent_text(r.all_orders),
            "right in most orders %": percent_text(r.majority_orders),
            "IFR %": percent_text(r.ifr),
            "not on a Final Answer line %": percent_text(r.off_final),
            "n": int(r.n),
            "questions": _questions(r),
            "excluded": int(r.n_excluded),
            "chance %": percent_text(r.chance),
        })
    return pd.DataFrame(rows).set_index(["dataset", "condition", "shot", "group", "model"])


def _markdown(table: pd.DataFrame) -> str:
    flat = table.reset_index()
    return "\n".join(markdown_table(flat.columns, flat.values)) + "\n"


def mcq_markdown(summary: pd.DataFrame, records: pd.DataFrame | None = None) -> str:
    """The MCQ table as GitHub Markdown, then (given the records) MuChoMusic's distractor
    analysis; empty without MCQ records."""
    table = mcq_table(summary)
    if table.empty:
        return ""
    text = _markdown(table)
    distractors = distractor_table(distractor_summary(mcq_records(records))) \
        if records is not None else pd.DataFrame()
    if not distractors.empty:
        text += f"\n## Distractors\n\n{CAPTION}\n\n{_markdown(distractors)}"
    return text


def mcq_report_tables(records: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The HTML report's MCQ tables beyond the main one (the distractor analysis)."""
    table = distractor_table(distractor_summary(mcq_records(records)))
    if table.empty:
        return {}
    table.attrs["caption"] = CAPTION
    return {"Multiple-choice distractors (MuChoMusic's analysis)": table}
