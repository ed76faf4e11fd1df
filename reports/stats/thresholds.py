"""Psychometric thresholds of the graded pitch experiments: a hearing profile per model.

A clinic reports the smallest difference a listener still hears, not a percent correct. The
graded experiments vary one stimulus quantity over fixed levels (D2 the pitch step, A2 the
level, A3 the duration, E2 the signal-to-noise ratio, E5 the vibrato depth, E6 the detuning);
for each model, experiment and condition this module fits a psychometric function
(:mod:`solvers.psychometric`) to the any-notation outcome per item and reports its threshold.
The graded value is read from the record's ``params`` (the item's parameters), never from the
trial id. Trials of an adaptive staircase (``--adaptive``; their params say ``method:
adaptive`` and their ``slot``) are fitted apart from the fixed grid's, and their reversal mean
is reported beside the fit; tables and the figure show them as "<model> (adaptive)".

Published human values sit in their own column with their citation, measured elsewhere under
other procedures; a cell without a source we are sure of stays empty.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass

import pandas as pd

from reports.tables.accuracy import markdown_table
from reports.tables.cells import counted
from reports.tables.pitch import any_notation_items
from solvers.psychometric import FITTED, fit_psychometric
from solvers.staircase import geometric_mean, recorded_reversals

ALL_CONDITIONS = "all"
FIXED, ADAPTIVE = "fixed", "adaptive"  # how a fit's trials were chosen (the ``method`` column)
SETTLE_REVERSALS = 2  # reversals left out of a reversal mean (solvers.staircase.Staircase)


@dataclass(frozen=True)
class Graded:
    """How one experiment's graded variable is read and fitted."""

    param: str  # the item parameter that holds the level
    unit: str
    log_scale: bool  # the tested grid is logarithmic
    increasing: bool  # a larger level is easier
    condition: str | None  # a second parameter fitted apart ("all" pools it)
    absolute: bool = False  # the level is the parameter's magnitude (signed detunings)
    condition_text: str = "{}"  # how a condition's value reads in a table


GRADED: dict[str, Graded] = {
    "d2": Graded("delta_cents", "cents", True, True, "gap_ms", condition_text="gap {} ms"),
    "a2": Graded("level_db", "dB", False, True, None),
    "a3": Graded("duration_ms", "ms", True, True, None),
    "e2": Graded("snr_db", "dB SNR", False, True, "background"),
    "e5": Graded("vibrato_depth_cents", "cents", True, False, "vibrato_rate_hz",
                 condition_text="vibrato {} Hz"),
    "e6": Graded("detune_cents", "cents", False, False, None, absolute=True),
}
MEASURE: dict[str, str] = {
    "d2": "smallest step heard as higher or lower",
    "a2": "lowest level at which the pitch is named",
    "a3": "shortest tone whose pitch is named",
    "e2": "lowest SNR at which the pitch is named",
    "e5": "vibrato depth at which naming the pitch fails",
    "e6": "detuning at which the nearest note is lost",
}
LITERATURE: dict[tuple[str, str], str] = {
    ("d2", ALL_CONDITIONS): (
        "≈3.5–9 cents (0.2–0.5 % at 1 kHz; pure tones, trained listeners, two-interval "
        "forced choice) — Wier, Jesteadt & Green 1977, JASA 61:178"
    ),
}
"""Published human thresholds for the same measure, with their source (not measured here)."""
SUMMARY_COLUMNS = ("model", "experiment", "condition", "unit", "status", "threshold", "ci_low",
                   "ci_high", "slope", "lapse", "guess", "deviance", "deviance_p", "n_trials",
                   "n_levels", "smallest_level", "largest_level", "method", "reversal_mean")


def graded_items(pitch: pd.DataFrame) -> pd.DataFrame:
    """One row per (model, graded experiment, item): correct, chance, level and condition.

    The any-notation outcome per item (a pitch item counts right in MIDI, SPN or Hz); items
    whose every trial was excluded (no output) are left out, as in every table.
    """
    columns = ["model", "experiment", "item_id", "correct", "chance_probability", "level",
               "condition", "method", "slot"]
    if "params" not in pitch.columns:  # records from before items carried their parameters
        return pd.DataFrame(columns=columns)
    pitch = pitch[pitch["experiment"].isin(tuple(GRADED))]
    if pitch.empty:
        return pd.DataFrame(columns=columns)
    items = counted(any_notation_items(pitch))
    params = pitch.drop_duplicates(["experiment", "item_id"]).set_index(
        ["experiment", "item_id"])["params"]
    # Recordings (a stimuli manifest, PitchBench's release) carry no stimulus level: no fit.
    leveled = [GRADED[e].param in params[(e, i)]
               for e, i in zip(items["experiment"], items["item_id"], strict=True)]
    items = items[leveled] if leveled else items
    levels, conditions, methods, slots = [], [], [], []
    for experiment, item_id in zip(items["experiment"], items["item_id"], strict=True):
        spec, values = GRADED[experiment], params[(experiment, item_id)]
        level = float(values[spec.param])
        levels.append(abs(level) if spec.absolute else level)
        conditions.append(spec.condition_text.format(_g(values[spec.condition]))
                          if spec.condition else ALL_CONDITIONS)
        methods.append(values.get("method", FIXED))
        slots.append(values.get("slot"))
    return items.assign(level=levels, condition=conditions, method=methods,
                        slot=slots)[columns]


def threshold_summary(pitch: pd.DataFrame, n_boot: int = 200, seed: int = 0) -> pd.DataFrame:
    """One fit per model × graded experiment × condition (and ``all`` conditions pooled)."""
    items = graded_items(pitch)
    rows = []
    for (model, experiment, method), group in items.groupby(["model", "experiment", "method"],
                                                            sort=True):
        spec = GRADED[experiment]
        by_condition = sorted(group.groupby("condition"), key=lambda part: _number_first(part[0]))
        parts = [(ALL_CONDITIONS, group)] + (by_condition if spec.condition else [])
        for condition, part in parts:
            fit = _fit(part, spec, n_boot, seed)
            # a reversal mean only beside a fitted threshold: a guesser's staircase turns too
            staircases = [p for c, p in by_condition if condition in (ALL_CONDITIONS, c)]
            reversal = _reversal_mean(staircases) \
                if method == ADAPTIVE and fit["status"] == FITTED else None
            rows.append({"model": model, "experiment": experiment, "condition": condition,
                         "unit": spec.unit, **fit, "method": method, "reversal_mean": reversal})
    return pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS))


def _reversal_mean(staircases: list[pd.DataFrame]) -> float | None:
    """The geometric mean of the settled reversals of each staircase (one per condition), its
    trials in slot order (Levitt 1971, JASA 49:467)."""
    settled = []
    for trials in staircases:
        trials = trials.sort_values("slot")
        settled += recorded_reversals(trials["level"].tolist(),
                                      trials["correct"].tolist())[SETTLE_REVERSALS:]
    return geometric_mean(settled)


def _fit(part: pd.DataFrame, spec: Graded, n_boot: int, seed: int) -> dict:
    counts = part.groupby("level")["correct"].agg(["sum", "count"])
    if len(counts) < 2:  # one tested level: nothing to fit
        return {"status": "fewer than two tested levels", "n_trials": int(counts["count"].sum()),
                "n_levels": len(counts)}
    fit = fit_psychometric(counts.index.to_numpy(), counts["sum"].to_numpy(),
                           counts["count"].to_numpy(), float(part["chance_probability"].mean()),
                           log_scale=spec.log_scale, increasing=spec.increasing,
                           n_boot=n_boot, seed=seed)
    return asdict(fit)


def _number_first(text: str) -> tuple:
    """Conditions in numeric order where they hold a number ("gap 200 ms" < "gap 1000 ms")."""
    match = re.search(r"-?\d+(\.\d+)?", text)
    return (0, float(match.group()), text) if match else (1, 0.0, text)


# --- Presentation --------------------------------------------------------------------------


def threshold_cell(row: pd.Series) -> str:
    """``20.7 [11.4, 42.9]``; a status in words when there is no threshold; empty when unfit."""
    if row["status"] != FITTED:
        return str(row["status"])
    low, high = row["ci_low"], row["ci_high"]
    low_text = f"<{_g(row['smallest_level'])}" if low < row["smallest_level"] else _g(low)
    high_text = f">{_g(row['largest_level'])}" if high > row["largest_level"] else _g(high)
    return f"{_g(row['threshold'])} [{low_text}, {high_text}]"


def labelled(summary: pd.DataFrame) -> pd.DataFrame:
    """``model`` as tables and the figure show it: "<model> (adaptive)" for a staircase's fit,
    so a model's fixed-grid and adaptive thresholds stand side by side."""
    if "method" not in summary.columns:
        return summary
    adaptive = summary["method"] == ADAPTIVE
    return summary.assign(model=summary["model"].where(~adaptive,
                                                       summary["model"] + f" ({ADAPTIVE})"))


def profile_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Experiments × conditions in rows, one column per model, and the literature's column."""
    if summary.empty:
        return pd.DataFrame()
    summary = labelled(summary)
    summary = summary.assign(cell=summary.apply(threshold_cell, axis=1))
    table = summary.pivot_table(index=["experiment", "condition", "unit"], columns="model",
                                values="cell", aggfunc="first", sort=False)
    table.columns.name = None
    literature = [LITERATURE.get((experiment, condition), "")
                  for experiment, condition, _ in table.index]
    table["human (literature, not measured here)"] = literature
    table.index = table.index.set_names(["experiment", "condition", "unit"])
    return table


def thresholds_markdown(summary: pd.DataFrame) -> str:
    """``thresholds.md``: the profile table, then every fit's numbers, then how to read them."""
    table = profile_table(summary)
    lines = ["# Psychometric thresholds (hearing profile)", ""]
    lines += [f"- **{name.upper()}**: {MEASURE[name]} ({GRADED[name].unit})"
              for name in GRADED if name in set(summary["experiment"])]
    lines += ["", *markdown_table(["experiment", "condition", "unit", *table.columns],
                                  ([*index, *row] for index, row in zip(
                                      table.index, table.itertuples(index=False), strict=True))),
              "", "## Fits", ""]
    numbers = ["threshold", "ci_low", "ci_high", "slope", "lapse", "guess", "deviance",
               "deviance_p"]
    lines += markdown_table(
        ["model", "experiment", "condition", "status", *numbers, "trials", "levels",
         "reversal mean"],
        ([row["model"], row["experiment"], row["condition"], row["status"],
          *(_g(row[name]) for name in numbers), _g(row["n_trials"]), _g(row["n_levels"]),
          _g(row["reversal_mean"])]
         for _, row in labelled(summary).iterrows()))
    return "\n".join([*lines, "", CAPTION, ""])


CAPTION = (
    "Threshold: the level where the fitted logistic psychometric function (log10 level on the "
    "logarithmic grids: cents, ms) is midway between chance (the guess rate, fixed) and "
    "1 − lapse (lapse fitted in [0, 0.1]), by maximum likelihood over the any-notation outcome "
    "per item; [95 % parametric-bootstrap interval], a bound beyond the tested range shown as "
    "<smallest or >largest level. Slope per log10 unit (or per dB); deviance with its "
    "bootstrap p. Never extrapolated: 'below the smallest tested level' (or 'above the "
    "largest', where a larger level is harder) when the whole range is easy, 'no threshold "
    "within the tested range' when the answers are no better than a guess or never fall. "
    "Human values come from the literature under other procedures, not from this run. "
    "\"(adaptive)\": the trials of a staircase (--adaptive), fitted the same way (its interval "
    "treats the levels as fixed, which a staircase's are not: too narrow); its reversal mean, "
    "beside a fitted threshold only, is the geometric mean of each staircase's reversal levels "
    "after the first two."
)


def _g(value: object) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float):
        return f"{value:.3g}" if value != int(value) or abs(value) >= 1e6 else str(int(value))
    return str(value)
