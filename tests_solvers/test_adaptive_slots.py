"""Adaptive slots in process (fixtures/pitch/adaptive.py) and their fits in the report: no audio.

The subprocess runs of ``--adaptive d2`` are in test_adaptive_pytest.py.
"""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest

from fixtures.backends.scripted import _draw, load_script_file, psychometric_p
from fixtures.pitch.adaptive import PLANS, Ledger, adaptive_slots, parse_adaptive, run_slot
from fixtures.running.runner import run_sync
from reports.stats.thresholds import profile_table, threshold_summary
from solvers.psychometric import FITTED
from solvers.staircase import reversal_levels, threshold_estimate

CURVE = {"trials": "pitch/d2/*", "param": "delta_cents", "threshold": 20, "slope": 4,
         "guess": 0.5, "lapse": 0.02, "seed": 0}


class Outcome:
    def __init__(self, trial, correct: bool) -> None:
        self.trial, self.correct = trial, correct


def observe(trial) -> Outcome:
    """The scripted psychometric observer's answer to a slot's trial."""
    params = dict(trial.item.params)
    return Outcome(trial, _draw(CURVE, trial.trial_id, params)
                   < psychometric_p(CURVE, params["delta_cents"]))


def test_slot_ids_are_stable_and_the_stimulus_depends_only_on_seed_and_earlier_answers():
    slots = adaptive_slots("m", "d2", 3, seed=5, ledger=Ledger())
    assert [s.test_id for s in slots[:3]] == [
        f"m-audio-plain-d2-adaptive-g200-t0{n}" for n in range(3)]
    assert len(slots) == 3 * len(PLANS["d2"].conditions)
    first, again = slots[2].trial_at([True, False]), slots[2].trial_at([True, False])
    assert first.item == again.item and first.test_id == slots[2].test_id
    assert dict(first.item.params)["delta_cents"] == 398.0  # 100 → 50.1 → up 0.9 decade
    assert slots[2].trial_at([True, True]).item != first.item
    other_seed = adaptive_slots("m", "d2", 3, seed=6, ledger=Ledger())[2].trial_at([True, False])
    assert dict(other_seed.item.params)["delta_cents"] == 398.0  # same level, other draw
    assert parse_adaptive(" D2,d2 ") == ("d2",)
    with pytest.raises(ValueError, match="valid: d2"):
        parse_adaptive("d2,a1")


def test_a_slot_runs_the_earlier_slots_it_has_no_answer_for_and_remembers_them():
    ledger = Ledger()
    slots = adaptive_slots("m", "d2", 5, seed=0, ledger=ledger)
    asked = []

    async def run(trial):
        asked.append(trial.test_id)
        return observe(trial)

    run_sync(run_slot(slots[4], run))  # slots 0 … 3 first, in order, then 4
    assert asked == [s.test_id for s in slots[:5]]
    run_sync(run_slot(slots[3], run))  # known now: only slot 3 itself again
    assert asked[5:] == [slots[3].test_id]


def test_adaptive_fits_are_apart_labelled_and_carry_a_reversal_mean(tmp_path):
    rows, answers_by_gap = [], {}
    for gap in PLANS["d2"].conditions:
        answers = []
        for slot in [s for s in adaptive_slots("observer", "d2", 13, 0, Ledger())
                     if s.condition == gap]:
            trial = slot.trial_at(answers)
            answers.append(observe(trial).correct)
            rows.append({"model": "observer", "experiment": "d2", "notation": "plain",
                         "item_id": trial.item.item_id, "correct": answers[-1],
                         "error_class": None, "parsed_answer": "x", "chance_probability": 0.5,
                         "params": trial.item.params_dict(), "family": "pitch"})
        answers_by_gap[gap] = answers
    summary = threshold_summary(pd.DataFrame(rows), n_boot=20)
    assert set(summary["method"]) == {"adaptive"}
    pooled = summary.set_index("condition").loc["all"]
    assert pooled["status"] == FITTED
    assert pooled["n_trials"] == 13 * len(PLANS["d2"].conditions)
    # the reversal mean read back from the records is the staircase's own (levels rounded)
    staircase = PLANS["d2"].staircase
    settled = [level for answers in answers_by_gap.values()
               for level in reversal_levels(staircase, answers)[staircase.settle_after:]]
    assert settled, "the observer's staircases should turn"
    exact = math.exp(sum(math.log(level) for level in settled) / len(settled))
    assert pooled["reversal_mean"] == pytest.approx(exact, rel=0.01)
    by_gap = summary.set_index("condition")
    for gap, answers in answers_by_gap.items():
        alone = threshold_estimate(staircase, answers)
        row = by_gap.loc[f"gap {gap} ms"]
        if alone is None or row["status"] != FITTED:  # none beside "no threshold", too
            assert row["reversal_mean"] is None or math.isnan(row["reversal_mean"])
        else:
            assert row["reversal_mean"] == pytest.approx(alone, rel=0.01)
    table = profile_table(summary)
    assert list(table.columns)[0] == "observer (adaptive)"


def test_a_psychometric_script_file_is_checked(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"base": "oracle", "psychometric": {"trials": "pitch/d2/*"}}))
    with pytest.raises(ValueError, match="psychometric"):
        load_script_file(path)
    path.write_text(json.dumps({"base": "oracle", "psychometric": CURVE}))
    assert load_script_file(path)["psychometric"] == CURVE
    assert psychometric_p(CURVE, 20) == pytest.approx(0.74)  # midway: chance to 1 − lapse
