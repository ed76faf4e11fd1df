"""The pitch experiments end to end: collection, oracle, chance, D7b's skip, the report table.

A stratified sample keeps this inside the test budget; the full sets are run by
``pytest bench/test_pitch --model oracle`` / ``--model chance`` (figures in the README).
"""

from __future__ import annotations

import math
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from fixtures.pitch.catalog import EXPERIMENTS, pitch_items
from fixtures.pitch.questions import notations_for
from tests_solvers import PYTEST, trial_row

REPO = Path(__file__).resolve().parent.parent
SAMPLE = 2


@pytest.fixture(scope="module")
def sampled_run(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    run_dir = tmp_path_factory.mktemp("pitch") / "run"
    result = subprocess.run(
        [*PYTEST, "bench/test_pitch", "-q", "-p", "no:cacheprovider",
         "--model", "oracle,chance", "--pitch-sample", str(SAMPLE),
         "--run-dir", str(run_dir)],
        cwd=REPO, capture_output=True, text=True, timeout=1200,
    )
    assert result.returncode == 1, result.stdout[-3000:]  # chance fails trials, nothing errors
    assert " error" not in result.stdout.splitlines()[-1], result.stdout[-3000:]
    records = [trial_row(line) for line in (run_dir / "trials.jsonl").read_text().splitlines()]
    return records


def test_every_experiment_and_notation_runs_and_the_oracle_is_perfect(sampled_run):
    oracle = [r for r in sampled_run if r["model"] == "oracle"]
    expected = {
        (e, n) for e in EXPERIMENTS for item in pitch_items(e, SAMPLE) for n in notations_for(item)
    }
    assert {(r["experiment"], r["notation"]) for r in oracle} == expected
    wrong = [r["trial_id"] for r in oracle if not r["correct"]]
    assert not wrong, wrong[:5]


def test_records_say_where_the_answer_was_found_and_keep_partial_credit(sampled_run):
    oracle = [r for r in sampled_run if r["model"] == "oracle"]
    assert {r["answer_source"] for r in oracle} == {"final_line"}
    assert all(r["answer_via"] for r in oracle)
    pitched = [r for r in oracle if r["experiment"] == "a1" and r["notation"] != "solfege"]
    assert pitched and all(r["partial_credit"]["within_1_semitone"] == 1.0 for r in pitched)


def test_chance_always_answers_and_lands_on_its_analytic_chance(sampled_run):
    chance = [r for r in sampled_run if r["model"] == "chance"]
    assert all(r["error_class"] is None for r in chance), "a guesser still follows the format"
    correct = sum(r["correct"] for r in chance)
    # Sum of independent Bernoulli(p_i): mean Σp, variance Σp(1-p); 4 standard deviations.
    mean = sum(r["chance_probability"] for r in chance)
    sd = math.sqrt(sum(p * (1 - p) for p in (r["chance_probability"] for r in chance)))
    assert abs(correct - mean) <= 4 * sd + 1, (correct, mean, sd)
    by_experiment = defaultdict(list)
    for r in chance:
        by_experiment[r["experiment"]].append(r["correct"])
    assert any(sum(v) for v in by_experiment.values()), "some guesses are right"


def test_d7b_is_skipped_with_its_reason_for_a_one_clip_backend():
    sys.path.insert(0, str(REPO / "bench" / "test_pitch"))
    try:
        from test_d_sequential import test_d7b
    finally:
        sys.path.pop(0)
    from fixtures.pitch.trial import PitchTrial

    class OneClip:
        model_id = "one-clip-model"
        max_audio_parts = 1

    trial = PitchTrial("m", "midi", pitch_items("d7b", 1)[0])
    with pytest.raises(pytest.skip.Exception, match="takes 1 audio part"):
        test_d7b(trial, OneClip(), run_trial=None, record=None)
