"""A table cell's numbers from trial records: every table and figure counts through here.

The arithmetic is :func:`solvers.metrics.cell_numbers` (pure, on integers); this module only
turns a group of records into its counts under the one denominator policy
(:data:`solvers.metrics.DENOMINATOR_EXCLUDED`), and adds the columns that need the records
themselves: where answers were read (``off_final``), a uniform guess's chance, and the assisted
score of a run with an answer extractor.
"""

from __future__ import annotations

import math

import pandas as pd

from reports.stats.sampled import sample_fields
from reports.tables.assisted import assisted_fields
from solvers.metrics import DENOMINATOR_EXCLUDED
from solvers.metrics import cell_numbers as numbers_from_counts

# Where an answer read from a Final Answer line was found (solvers.reply_spans sources).
FINAL_LINE_SOURCES = ("final_line", "final_block")


def excluded(frame: pd.DataFrame) -> pd.Series:
    """Per record: left out of the denominator (no output, or an input the model cannot take)."""
    return frame["error_class"].isin(DENOMINATOR_EXCLUDED)


def counted(frame: pd.DataFrame) -> pd.DataFrame:
    """The records that count towards accuracy."""
    return frame[~excluded(frame)]


def cell_numbers(frame: pd.DataFrame, extractor: bool = False, chance: bool = False,
                 sampled: bool = False) -> dict:
    """n_trials, n_excluded, n, correct, accuracy, ci_low, ci_high, ifr and off_final of the
    records ``frame``; with ``chance`` the mean ``chance_probability`` of the counted ones, with
    ``extractor`` the assisted score (:mod:`reports.tables.assisted`), with ``sampled`` the mean
    accuracy over samples and agreement (:mod:`reports.stats.sampled`)."""
    kept = counted(frame)
    numbers = numbers_from_counts(
        n_trials=len(frame),
        n_excluded=len(frame) - len(kept),
        correct=int(kept["correct"].astype(bool).sum()),
        answered=int(kept["parsed_answer"].notna().sum()),
    ).as_dict()
    numbers["off_final"] = off_final_share(kept)
    if chance:
        numbers["chance"] = float(kept["chance_probability"].mean()) if len(kept) else math.nan
    return {**numbers, **assisted_fields(kept, extractor), **sample_fields(frame, sampled)}


def off_final_share(frame: pd.DataFrame) -> float:
    """Share of the answers read that were not on a ``Final Answer`` line (boxed, a sentence,
    the last line...): format drift, apart from hearing. NaN when no answer has a source
    (LogicLM verdicts, records older than the ``answer_source`` field)."""
    if "answer_source" not in frame.columns:
        return math.nan
    read = frame[frame["parsed_answer"].notna() & frame["answer_source"].notna()]
    if not len(read):
        return math.nan
    return float((~read["answer_source"].isin(FINAL_LINE_SOURCES)).mean())

