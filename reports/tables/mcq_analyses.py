"""MuChoMusic's own analyses of a multiple-choice run: where the wrong answers went.

Each MuChoMusic question has one distractor of each kind (Weck et al., section 3.2):
*incorrect but related* (IR: wrong for the track, on the question's topic), *correct but
unrelated* (CU: true of the track, off the question) and *incorrect and unrelated* (IU). The
paper found that IR draws the models most, since the two unrelated options can be ruled out from
the text alone. This table gives, per model × dataset × condition × shot, the share of wrong
answers that went to each kind, and the accuracy with each kind removed.

The paper re-asked with the option removed; ``--mcq-ablate IR,CU,IU`` does too, and the table
then gives those trials' accuracy. Without it (and beside it) the table re-scores the run: a
reply that chose the removed kind has to choose again among the options left; the estimate
scores that choice as a uniform guess (1 / options left), the bounds as always wrong / right.
A reply that named no option, or several, stays wrong. Records need the per-option kinds
(``option_kinds``), so prepared JSON with fewer than three distractors and WildScore have none.
"""

from __future__ import annotations

import math

import pandas as pd

from reports.tables.cells import counted
from reports.tables.terminal import percent_text

KINDS = {"incorrect_but_related": "IR", "correct_but_unrelated": "CU",
         "incorrect_and_unrelated": "IU"}
LETTERS = "ABCDEFGHIJ"  # as fixtures.mcq.spec.LETTERS (reports import nothing of fixtures)
KEYS = ("model", "dataset", "condition", "shot")
COLUMNS = (*KEYS, "n", "correct", "accuracy", "wrong", "no_single_option",
           *(f"to_{short}" for short in KINDS.values()),
           *(f"without_{short}{part}" for short in KINDS.values()
             for part in ("", "_low", "_high")),
           *(f"asked_without_{short}{part}" for short in KINDS.values()
             for part in ("", "_n")))


def chosen_kind(row: pd.Series) -> str | None:
    """The kind of the option a record's answer named (None: no answer, or kinds unknown)."""
    kinds, letter = row.get("option_kinds"), row.get("parsed_answer")
    if not isinstance(kinds, list) or not isinstance(letter, str) or letter not in LETTERS:
        return None
    index = LETTERS.index(letter)
    return kinds[index] if index < len(kinds) else None


def distractor_summary(mcq: pd.DataFrame) -> pd.DataFrame:
    """One row per model × dataset × condition × shot whose records know their option kinds."""
    if mcq.empty or "option_kinds" not in mcq.columns:
        return pd.DataFrame(columns=list(COLUMNS))
    known = counted(mcq[mcq["option_kinds"].map(
        lambda kinds: isinstance(kinds, list) and bool(kinds))])
    removed = (known["removed_option"] if "removed_option" in known.columns
               else pd.Series(None, index=known.index, dtype=object))
    asked = _asked_without(known[removed.notna()])
    rows = []
    for key, group in known[removed.isna()].groupby(list(KEYS), sort=False):
        n = len(group)
        chosen = group.apply(chosen_kind, axis=1) if n else pd.Series(dtype=object)
        correct = int(group["correct"].astype(bool).sum())
        wrong = n - correct
        row = {**dict(zip(KEYS, key, strict=True)), "n": n, "correct": correct,
               "accuracy": correct / n if n else math.nan, "wrong": wrong,
               "no_single_option": int(chosen.isna().sum()) if n else 0}
        options_left = group["option_kinds"].map(len) - 1
        for kind, short in KINDS.items():
            picked = chosen == kind
            row[f"to_{short}"] = int(picked.sum())
            regained = float((1 / options_left[picked]).sum()) if picked.any() else 0.0
            row[f"without_{short}"] = (correct + regained) / n if n else math.nan
            row[f"without_{short}_low"] = correct / n if n else math.nan
            row[f"without_{short}_high"] = (correct + int(picked.sum())) / n if n else math.nan
            re_asked = asked.get((*key, short), (math.nan, 0))
            row[f"asked_without_{short}"], row[f"asked_without_{short}_n"] = re_asked
        rows.append(row)
    return pd.DataFrame(rows, columns=list(COLUMNS))


def _asked_without(ablated: pd.DataFrame) -> dict[tuple, tuple[float, int]]:
    """(accuracy, n) of the ``--mcq-ablate`` trials per cell and kind left out. Their
    ``condition`` is the plain one (their ``modality`` names the kind)."""
    result: dict[tuple, tuple[float, int]] = {}
    if ablated.empty:
        return result
    for key, group in ablated.groupby([*KEYS, "removed_option"], sort=False):
        result[key] = (float(group["correct"].astype(bool).mean()), len(group))
    return result


def distractor_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Readable form: wrong answers per kind (count and share), accuracy without each kind."""
    if summary.empty:
        return pd.DataFrame()
    rows = []
    for r in summary.to_dict("records"):
        row = {key: r[key] for key in KEYS}
        row["accuracy %"] = percent_text(r["accuracy"])
        row["n"] = int(r["n"])
        row["wrong"] = int(r["wrong"])
        for short in KINDS.values():
            count = int(r[f"to_{short}"])
            row[f"wrong to {short}"] = (f"{count} ({percent_text(count / r['wrong'])} %)"
                                        if r["wrong"] else "0")
        row["wrong, no single option"] = int(r["no_single_option"])
        for short in KINDS.values():
            row[f"accuracy % without {short} [bounds]"] = (
                f"{percent_text(r[f'without_{short}'])} "
                f"[{percent_text(r[f'without_{short}_low'])}, "
                f"{percent_text(r[f'without_{short}_high'])}]")
        for short in KINDS.values():
            if summary[f"asked_without_{short}_n"].any():
                n = int(r[f"asked_without_{short}_n"])
                row[f"re-asked without {short}: accuracy % (n)"] = (
                    f"{percent_text(r[f'asked_without_{short}'])} ({n})" if n else "")
        rows.append(row)
    return pd.DataFrame(rows).set_index(list(KEYS))


CAPTION = (
    "MuChoMusic distractor analysis: the wrong answers by the kind of distractor they named "
    "(IR incorrect but related, CU correct but unrelated, IU incorrect and unrelated; 'no "
    "single option': no option or several named), and the accuracy with each kind removed, "
    "re-scored from this run (a reply that chose the removed option guesses again among the "
    "options left; bounds: always wrong / always right) and, with --mcq-ablate, re-asked "
    "without it as in the paper."
)
