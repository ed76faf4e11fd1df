"""Results by condition (reports/tables/factors.py and friends): per-factor marginals of real items.

Records carry real catalog items' parameters, as a run records them; the verdicts come from a
seeded guesser, with a few excluded trials and items that lack a factor, so the sums are
checked where they could go wrong. No audio.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fixtures.pitch.catalog import pitch_items
from fixtures.running.record_fields import item_factor_field
from fixtures.tasks.catalog import items_for
from reports.builders.factor_section import FILE_NAME, TITLE, factor_section
from reports.html.page import render_report
from reports.tables.factors import MISSING, experiment_cells, factor_marginals, register_of
from tests_solvers.trial_helpers import _run

SUMMED = ["n_trials", "n_excluded", "n", "correct"]


def _pitch_record(model: str, item, correct: bool, error_class: str | None = None) -> dict:
    return {"model": model, "family": "pitch", "task": f"pitch_{item.experiment}",
            "experiment": item.experiment, "notation": "midi", "item_id": item.item_id,
            "correct": correct, "error_class": error_class,
            "parsed_answer": None if error_class else "60",
            **item_factor_field(item)}


def _records() -> pd.DataFrame:
    rng = np.random.default_rng(7)
    rows = []
    for experiment in ("e2", "a2", "c4"):
        for index, item in enumerate(pitch_items(experiment)[:60]):
            for model in ("guesser", "oracle"):
                excluded = "empty_output" if index % 11 == 0 and model == "guesser" else None
                correct = model == "oracle" or bool(rng.random() < 0.4)
                rows.append(_pitch_record(model, item, correct and not excluded, excluded))
    rows[5].pop("factors")  # a record whose item set no factor: it counts under n/a
    return pd.DataFrame(rows)


def test_every_factors_marginals_add_up_to_the_experiments_cell():
    records = _records()
    marginals = factor_marginals(records)
    cells = experiment_cells(records).set_index(["model", "family", "experiment"])
    sums = marginals.groupby(["model", "family", "experiment", "factor"])[SUMMED].sum()
    assert len(sums) >= 6
    for (model, family, experiment, factor), row in sums.iterrows():
        cell = cells.loc[(model, family, experiment)]
        assert row.tolist() == cell[SUMMED].tolist(), (experiment, factor)
    assert (marginals["value"] == MISSING).any()
    assert cells.loc[("guesser", "pitch", "e2"), "n_excluded"] > 0


def test_graded_factors_are_ordered_numbers_and_midi_becomes_register():
    marginals = factor_marginals(_records())
    snr = marginals[(marginals["experiment"] == "e2") & (marginals["factor"] == "snr_db")
                    & (marginals["model"] == "oracle")]
    assert snr["graded"].all()
    levels = [v for v in snr["value"] if v != MISSING]
    assert levels == sorted(levels) and len(levels) >= 2
    background = marginals[(marginals["experiment"] == "e2")
                           & (marginals["factor"] == "background")]
    assert not background["graded"].any()
    assert "midi" not in set(marginals["factor"])
    assert "midi register" in set(marginals["factor"])
    assert register_of(60) == 4 and register_of(59) == 3
    oracle = marginals[marginals["model"] == "oracle"]
    assert (oracle["accuracy"] == 1.0).all()
    assert ((oracle["ci_low"] < 1.0) & (oracle["ci_high"] == 1.0)).all()


def test_a_factor_with_one_value_or_one_value_per_item_is_not_broken_out():
    records = _records()
    records = records[records["experiment"] == "a2"].copy()
    records["factors"] = [{**f, "constant": 1, "serial": i} if isinstance(f, dict) else f
                          for i, f in enumerate(records["factors"])]
    factors = set(factor_marginals(records)["factor"])
    assert "constant" not in factors and "serial" not in factors
    assert {"level_db", "source"} <= factors


def test_a_core_trial_records_its_items_scalar_parameters():
    item = next(i for i in items_for("chord", "test"))
    _, result = _run(item, "standalone", ["Final Answer: A"])
    factors = result.record().to_json()["factors"]
    params = item.params_dict()
    assert factors["quality"] == params["quality"] and factors["root"] == params["root"]
    assert "pitches" not in factors  # a list names no condition


def test_the_section_writes_the_csv_and_one_figure_per_experiment_into_the_report(tmp_path):
    files, section = factor_section(_records(), tmp_path)
    written = pd.read_csv(files[FILE_NAME])
    assert {"model", "family", "experiment", "factor", "value", "n", "correct", "accuracy",
            "ci_low", "ci_high"} <= set(written.columns)
    pngs = sorted(name for name in files if name.endswith(".png"))
    assert pngs == ["factors_pitch_a2.png", "factors_pitch_c4.png", "factors_pitch_e2.png"]
    anchor, title, body = section
    page = render_report({"run_id": "r"}, {}, {}, views=[section])
    assert title == TITLE and page.count("data:image/png;base64,") == 3 and anchor in page


def test_a_run_without_varied_factors_writes_an_empty_table_and_no_section(tmp_path):
    records = _records()
    records = records.assign(factors=None, notation="midi")
    files, section = factor_section(records, tmp_path)
    assert section is None
    assert pd.read_csv(files[FILE_NAME]).empty
