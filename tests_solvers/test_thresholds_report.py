"""The hearing profile in a report (reports/stats/thresholds.py and friends), from synthetic
records.

Records carry the real catalog items' parameters (the graded level is read from ``params``, as
in a run); the outcomes come from scripted observers: an oracle, a guesser and an observer with
a known psychometric function. No audio.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fixtures.pitch.catalog import pitch_items
from reports.builders.threshold_section import FIGURE_NAME, TITLE, threshold_section
from reports.html.page import render_report
from reports.stats.thresholds import graded_items, profile_table, threshold_summary
from solvers.psychometric import ABOVE_RANGE, BELOW_RANGE, FITTED, NO_THRESHOLD, proportion_correct

OBSERVER_CENTS = 30.0


def _record(model: str, experiment: str, item, notation: str, correct: bool, chance: float,
            error_class: str | None = None) -> dict:
    return {"model": model, "experiment": experiment, "notation": notation,
            "item_id": item.item_id, "correct": correct, "error_class": error_class,
            "parsed_answer": None if error_class else "x", "chance_probability": chance,
            "params": item.params_dict(), "family": "pitch"}


def _d2_records() -> pd.DataFrame:
    rng = np.random.default_rng(4)
    rows = []
    for item in pitch_items("d2"):
        cents = item.params_dict()["delta_cents"]
        p = float(proportion_correct(cents, OBSERVER_CENTS, 4.0, 0.5, 0.02, log_scale=True))
        rows.append(_record("oracle", "d2", item, "plain", True, 0.5))
        rows.append(_record("chance", "d2", item, "plain", bool(rng.random() < 0.5), 0.5))
        rows.append(_record("observer", "d2", item, "plain", bool(rng.random() < p), 0.5))
    return pd.DataFrame(rows)


def test_each_model_gets_its_own_verdict_and_the_observer_its_threshold():
    summary = threshold_summary(_d2_records(), n_boot=60).set_index(["model", "condition"])
    assert summary.loc[("oracle", "all"), "status"] == BELOW_RANGE
    assert summary.loc[("chance", "all"), "status"] == NO_THRESHOLD
    observer = summary.loc[("observer", "all")]
    assert observer["status"] == FITTED
    assert observer["ci_low"] <= OBSERVER_CENTS <= observer["ci_high"]
    assert observer["n_trials"] == len(pitch_items("d2")) and observer["n_levels"] == 11
    # one fit per inter-tone gap besides the pooled one, in numeric order
    conditions = list(summary.loc["oracle"].index)
    assert conditions == ["all", "gap 200 ms", "gap 500 ms", "gap 1000 ms", "gap 2000 ms"]


def test_the_level_comes_from_params_and_an_excluded_item_is_left_out():
    items = pitch_items("e6")
    rows = [_record("m", "e6", item, notation, True, 0.02) for item in items
            for notation in ("midi", "spn")]
    rows[0] = {**rows[0], "correct": False, "error_class": "empty_output"}
    rows[1] = {**rows[1], "correct": False, "error_class": "empty_output"}  # both notations
    graded = graded_items(pd.DataFrame(rows))
    assert len(graded) == len(items) - 1  # one row per item, its notations pooled
    assert set(graded["level"]) == {0.0, 11.25, 22.5}  # |detune|: signed detunings pooled
    summary = threshold_summary(pd.DataFrame(rows))
    assert summary["status"].tolist() == [ABOVE_RANGE]  # larger detuning is harder: never falls


def test_the_section_writes_files_figure_and_an_html_table_with_models_side_by_side(tmp_path):
    files, tables, figures, rows = threshold_section(_d2_records(), tmp_path, n_boot=20)
    assert {"thresholds.md", "thresholds.csv", "hearing_profile.png"} <= set(files)
    assert all(path.stat().st_size > 0 for path in files.values())
    table = tables[TITLE]
    assert {"oracle", "chance", "observer"} <= set(table.columns)
    literature = table["human (literature, not measured here)"]
    assert "Wier, Jesteadt & Green 1977" in literature.loc[("d2", "all", "cents")]
    assert literature.loc[("d2", "gap 200 ms", "cents")] == ""  # no source: left empty
    assert table.loc[("d2", "all", "cents"), "oracle"] == BELOW_RANGE
    markdown = files["thresholds.md"].read_text(encoding="utf-8")
    assert NO_THRESHOLD in markdown and "| observer | d2 | all | fitted |" in markdown
    page = render_report({}, tables, figures)
    assert TITLE in page and "hearing profile" in page and "data:image/png;base64," in page
    assert len(rows) == 15 and {row["model"] for row in rows} == {"oracle", "chance", "observer"}
    assert FIGURE_NAME in figures


def test_a_run_without_graded_experiments_has_no_section(tmp_path):
    records = pd.DataFrame([_record("m", "a1", item, "midi", True, 0.02)
                            for item in pitch_items("a1", 5)])
    assert threshold_section(records, tmp_path) == ({}, {}, {}, [])
    assert profile_table(threshold_summary(records)).empty
    no_params = _d2_records().drop(columns="params")  # records without item parameters
    assert threshold_section(no_params, tmp_path) == ({}, {}, {}, [])
    assert not list(tmp_path.iterdir())


def test_a_sample_with_one_level_per_condition_still_draws_the_profile(tmp_path):
    """``--pitch-sample 1``: one item per experiment gives no fit with two levels to span; the
    panel says so instead of the figure failing on empty axis limits."""
    item = pitch_items("d2", 1)[0]
    records = pd.DataFrame([_record("oracle", "d2", item, "plain", True, 0.5)])
    files, _, figures, rows = threshold_section(records, tmp_path, n_boot=5)
    assert files["hearing_profile.png"].stat().st_size > 0 and FIGURE_NAME in figures
    assert {row["status"] for row in rows} == {"fewer than two tested levels"}
