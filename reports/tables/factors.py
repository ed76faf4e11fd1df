"""Results by condition: accuracy per value of every factor an experiment's items vary.

A factor is one of an item's scalar generation parameters (recorded as ``factors`` by
``fixtures.running.record_fields.item_factor_field``; pitch records older than that field carry them
in ``params``) or one of the record's own condition columns (:data:`RECORD_FACTORS`). Only
factors that take at least two values within an experiment are broken out. A MIDI-valued
parameter (``midi``, ``root_midi``...) is shown as its register, the octave of scientific
pitch notation, since one row per note would say nothing. Every record of a cell counts in
each factor exactly once (a record without the factor counts under :data:`MISSING`), so each
factor's marginals add up to the cell of :func:`experiment_cells`.
"""

from __future__ import annotations

import math

import pandas as pd

from reports.tables.cells import cell_numbers

CELL = ["model", "family", "experiment"]
COLUMNS = [*CELL, "factor", "value", "graded", "n_trials", "n_excluded", "n", "correct",
           "accuracy", "ci_low", "ci_high"]
RECORD_FACTORS = ("notation", "rendition", "genre")  # condition columns a record may carry
RECORD_DEFAULTS = {"rendition": "studio"}  # studio records leave the field out
MISSING = "n/a"
MAX_VALUES = 24  # a factor with more values than this is an item id, not a condition
REGISTER_SUFFIX = "midi"


def register_of(midi_note: float) -> int:
    """The octave number of scientific pitch notation (MIDI 60 = C4 -> 4)."""
    return int(math.floor(midi_note / 12)) - 1


def _item_factors(row: pd.Series) -> dict:
    for column in ("factors", "params"):
        value = row.get(column)
        if isinstance(value, dict):
            return value
    return {}


def factor_values(records: pd.DataFrame) -> pd.DataFrame:
    """One column per candidate factor, one row per record (index kept); values are scalars
    or None. MIDI-valued parameters become ``<name> register``."""
    rows = []
    for _, row in records.iterrows():
        values = {}
        for key, value in _item_factors(row).items():
            if isinstance(value, (list, tuple, dict)) or value is None:
                continue
            if key.endswith(REGISTER_SUFFIX) and isinstance(value, (int, float)) \
                    and not isinstance(value, bool):
                values[f"{key} register"] = register_of(value)
            else:
                values[key] = value
        for column in RECORD_FACTORS:
            value = row.get(column)
            if isinstance(value, str) and value:
                values[column] = value
            elif column in RECORD_DEFAULTS and column in records.columns:
                values[column] = RECORD_DEFAULTS[column]
        rows.append(values)
    return pd.DataFrame(rows, index=records.index)


def experiment_of(records: pd.DataFrame) -> pd.Series:
    """A record's experiment: the pitch experiment, else its task (dataset, MUSE task...)."""
    task = records["task"].astype(str)
    if "experiment" not in records.columns:
        return task
    return records["experiment"].where(records["experiment"].notna(), task).astype(str)


def _is_graded(values: list) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def _keyed(records: pd.DataFrame) -> pd.DataFrame:
    keyed = records.copy()
    keyed["experiment"] = experiment_of(records)
    keyed["family"] = records["family"].fillna("core") if "family" in records else "core"
    return keyed


def experiment_cells(records: pd.DataFrame) -> pd.DataFrame:
    """Each model × family × experiment's numbers, the sum every factor's marginals make."""
    if records.empty:
        return pd.DataFrame(columns=[c for c in COLUMNS if c not in ("factor", "value", "graded")])
    keyed = _keyed(records)
    rows = [{**dict(zip(CELL, key, strict=True)), **_counts(group)}
            for key, group in keyed.groupby(CELL, sort=True)]
    return pd.DataFrame(rows)


def _counts(group: pd.DataFrame) -> dict:
    numbers = cell_numbers(group)
    return {k: numbers[k] for k in ("n_trials", "n_excluded", "n", "correct", "accuracy",
                                    "ci_low", "ci_high")}


def factor_marginals(records: pd.DataFrame) -> pd.DataFrame:
    """``factors.csv``: accuracy with its Wilson 95 % interval per model, family, experiment,
    factor and value, for every factor with two to :data:`MAX_VALUES` values in its
    experiment. Graded (numeric) factors are ordered by value, others alphabetically."""
    if records.empty:
        return pd.DataFrame(columns=COLUMNS)
    keyed = _keyed(records)
    rows = []
    for (family, experiment), part in keyed.groupby(["family", "experiment"], sort=True):
        values = factor_values(part)
        for factor in sorted(values.columns):
            present = values[factor].dropna()
            distinct = list(dict.fromkeys(present.tolist()))
            if not 2 <= len(distinct) <= MAX_VALUES:
                continue
            graded = _is_graded(distinct)
            order = sorted(distinct) if graded else sorted(distinct, key=str)
            column = values[factor].astype(object).where(values[factor].notna(), MISSING)
            for model, by_model in part.groupby("model", sort=True):
                for value in [*order, MISSING]:
                    group = by_model[column.loc[by_model.index] == value]
                    if group.empty:
                        continue
                    rows.append({"model": model, "family": family, "experiment": experiment,
                                 "factor": factor, "value": value, "graded": graded,
                                 **_counts(group)})
    return pd.DataFrame(rows, columns=COLUMNS)
