"""The typed trial record (solvers.trial_record) and the one cell-numbers function.

Round trips use real runs of each family's bench in a subprocess, so every field a family
writes today is checked against the schema; the loader's errors are checked through
``python -m reports build``, as a user meets them.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from dataclasses import fields, replace
from pathlib import Path

import pandas as pd
import pytest
from statsmodels.stats.proportion import proportion_confint

from fixtures.backends.base import GenerationSettings
from fixtures.backends.offline import OracleBackend
from fixtures.mcq import presentation
from fixtures.mcq import trial as mcq_trial
from fixtures.mcq.synthetic import make_synthetic
from fixtures.pitch import questions
from fixtures.pitch import trial as pitch_trial
from fixtures.running import runner
from fixtures.running.runner import Trial, run_trial_sync
from fixtures.running.task_version import task_version
from fixtures.tasks import prompting
from fixtures.tasks import suite as suite_module
from fixtures.tasks.catalog import items_for
from fixtures.tasks.suite import CORE
from reports.tables.accuracy import load_records
from reports.tables.cells import cell_numbers
from solvers.metrics import cell_numbers as numbers_from_counts
from solvers.trial_record import (
    DETAILS,
    RECORD_VERSION,
    RecordError,
    TrialRecord,
    row_from_json,
)
from tests_solvers import PYTEST

REPO = Path(__file__).resolve().parent.parent
SETTINGS = GenerationSettings()


def _bench(run_dir: Path, *args: str) -> list[dict]:
    """The decoded lines of a real oracle run of ``args`` (a bench selection)."""
    result = subprocess.run(
        [*PYTEST, "-q", "-p", "no:cacheprovider", "--no-report",
         "--model", "oracle", "--run-dir", str(run_dir), *args],
        cwd=REPO, capture_output=True, text=True, timeout=900,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    lines = (run_dir / "trials.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def family_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict]]:
    base = tmp_path_factory.mktemp("records")
    muchomusic, _ = make_synthetic(base / "data")
    return {
        "core": _bench(base / "core", "bench/test_chord.py", "-m", "midi and zero"),
        "pitch": _bench(base / "pitch", "bench/test_pitch/test_a_atomic.py",
                        "--pitch-sample", "1"),
        "mcq": _bench(base / "mcq", "bench/test_mcq.py", "--mcq-dataset", str(muchomusic)),
    }


@pytest.mark.parametrize("family", ["core", "pitch", "mcq"])
def test_each_familys_real_records_round_trip_through_the_schema(family_runs, family):
    records = family_runs[family]
    assert records
    for data in records:
        assert data["record_version"] == RECORD_VERSION and data["family"] == family
        typed = TrialRecord.from_json(data)
        assert typed.to_json() == data  # nothing lost, nothing added
        assert isinstance(typed.details, DETAILS[family])
        row = row_from_json(data)
        assert "details" not in row
        assert {f.name: row[f.name] for f in fields(DETAILS[family])} == data["details"]
        assert row["correct"] is True  # the oracle
    assert {data["task_version"] for data in records} == {EXPECTED_VERSION[family]()}


EXPECTED_VERSION = {  # each family's prompt files and scoring version, as its records name them
    "core": lambda: task_version((prompting.PROMPTS_DIR / "chord.toml",
                                  prompting.PROMPTS_DIR / "repair.toml"), CORE.scoring_version),
    "pitch": lambda: task_version((questions.PROMPTS_PATH,), pitch_trial.SCORING_VERSION),
    "mcq": lambda: task_version((presentation.PROMPTS_FILE,), mcq_trial.SCORING_VERSION),
}


def test_the_tables_read_every_family_as_flat_columns(family_runs, tmp_path):
    lines = [json.dumps(r) for run in family_runs.values() for r in run]
    (tmp_path / "trials.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    df = load_records(tmp_path)
    assert set(df["family"]) == {"core", "pitch", "mcq"}
    pitch = df[df["family"] == "pitch"]
    assert pitch["experiment"].notna().all() and pitch["notation"].notna().all()
    mcq = df[df["family"] == "mcq"]
    assert mcq["condition"].notna().all() and mcq["repeat"].notna().all()
    core = df[df["family"] == "core"]
    logiclm = core["strategy"] == "logiclm"
    assert logiclm.any() and core[logiclm]["solver_verdict"].notna().all()
    assert core[~logiclm]["solver_verdict"].isna().all()  # no solver without a schema


# --- The loader's one clear error --------------------------------------------------------------


def _core_line() -> dict:
    item = items_for("chord")[0]
    return run_trial_sync(OracleBackend(), Trial("oracle", "midi", "zero", "standalone", item),
                          SETTINGS).record().to_json()


def _build(tmp_path: Path, lines: list[str]) -> subprocess.CompletedProcess:
    run = tmp_path / "run"
    run.mkdir()
    (run / "trials.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "reports", "build", str(run), "--out", str(tmp_path / "out")],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"record_version": 3}, "field 'record_version': 3; this eartest reads versions 1, 2"),
        ({"record_version": None}, "field 'record_version': None"),
        ({"correct": "yes"}, "field 'correct': expected bool, got str"),
        ({"family": "drums"}, "field 'family': 'drums' has no details type (one of core, "
                              "pitch, mcq, musepub)"),
        ({"family": "Drums!"}, "field 'family': 'Drums!' is not a family name"),
        ({"family": "drums", "details_kind": "pitch"}, "field 'details.repair_errors': unknown"),
        ({"details_kind": "drums"}, "field 'details_kind': 'drums' has no details type"),
        ({"loudness_db": 3.0}, "field 'loudness_db': unknown to record version 2"),
        ({"details": {"transcription": None}}, "field 'details.truth_transcription': missing"),
        ({"input_tokens": 1.5}, "field 'input_tokens': expected int, got float"),
    ],
)
def test_a_bad_line_is_one_error_naming_file_line_and_field(tmp_path, change, message):
    good = _core_line()
    bad = {**good, **change}
    result = _build(tmp_path, [json.dumps(good), json.dumps(bad)])
    assert result.returncode == 4, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    [line] = result.stderr.strip().splitlines()
    assert f"{tmp_path / 'run' / 'trials.jsonl'}:2: not a trial record: {message}" in line


def test_a_missing_required_field_is_named(tmp_path):
    bad = _core_line()
    del bad["trial_id"]
    result = _build(tmp_path, [json.dumps(bad)])
    assert result.returncode == 4
    assert ":1: not a trial record: field 'trial_id': missing" in result.stderr


def test_records_of_the_previous_shape_are_read_as_they_were(tmp_path):
    """record_version 1 (main before this schema): flat, no family, no task_version."""
    new = _core_line()
    old = {k: v for k, v in new.items() if k not in ("details", "family", "task_version")}
    old.update(new["details"], record_version=1)
    (tmp_path / "trials.jsonl").write_text(json.dumps(old) + "\n", encoding="utf-8")
    row = load_records(tmp_path).iloc[0]
    assert row["family"] == "core" and row["task_version"] is None
    assert row["truth_transcription"] == new["details"]["truth_transcription"]
    with pytest.raises(RecordError, match="field 'model': missing"):
        row_from_json({k: v for k, v in old.items() if k != "model"})


def test_the_schema_has_no_column_twice():
    shared = {f.name for f in fields(TrialRecord)}
    for kind in DETAILS.values():
        assert not shared & {f.name for f in fields(kind)}, kind


# --- task_version ------------------------------------------------------------------------------


def test_a_prompt_edit_changes_the_core_task_version(tmp_path, monkeypatch):
    copied = tmp_path / "prompts"
    shutil.copytree(prompting.PROMPTS_DIR, copied)
    monkeypatch.setattr(runner.Trial, "suite", replace(CORE, prompts_dir=copied))
    monkeypatch.setattr(suite_module, "CORE_PROMPTS_DIR", copied)  # the shared repair.toml
    before = _core_line()["task_version"]
    assert _core_line()["task_version"] == before  # deterministic
    chord = copied / "chord.toml"
    chord.write_text(chord.read_text(encoding="utf-8") + "\n# reworded\n", encoding="utf-8")
    edited = _core_line()["task_version"]
    assert edited != before
    repair = copied / "repair.toml"
    repair.write_text(repair.read_text(encoding="utf-8") + "\n# reworded\n", encoding="utf-8")
    assert _core_line()["task_version"] not in (before, edited)
    bumped = CORE.scoring_version + 1
    monkeypatch.setattr(runner.Trial, "suite", replace(CORE, prompts_dir=copied,
                                                       scoring_version=bumped))
    assert _core_line()["task_version"].startswith(f"s{bumped}-")


def test_task_version_names_the_scoring_version_and_hashes_every_file(tmp_path):
    one, two = tmp_path / "a.toml", tmp_path / "b.toml"
    one.write_text("x = 1\n")
    two.write_text("y = 2\n")
    base = task_version((one, two), 1)
    assert base == task_version((two, one), 1)  # order of naming does not matter
    assert task_version((one, two), 2) != base and task_version((one, two), 2).startswith("s2-")
    two.write_text("y = 3\n")
    assert task_version((one, two), 1) != base


# --- One function for a cell's numbers ---------------------------------------------------------


def test_cell_numbers_by_hand_and_against_statsmodels_wilson():
    # 12 trials: 2 excluded (token_limit, backend_error), of 10 counted 7 correct, 9 answered
    numbers = numbers_from_counts(n_trials=12, n_excluded=2, correct=7, answered=9)
    assert (numbers.n, numbers.correct, numbers.n_excluded) == (10, 7, 2)
    assert numbers.accuracy == 0.7 and numbers.ifr == 0.9
    low, high = proportion_confint(7, 10, alpha=0.05, method="wilson")
    assert numbers.ci_low == pytest.approx(low, abs=1e-12)
    assert numbers.ci_high == pytest.approx(high, abs=1e-12)
    # by hand: z = 1.959964, centre = (0.7 + z²/20) / (1 + z²/10), half-width as Wilson's
    assert (numbers.ci_low, numbers.ci_high) == pytest.approx((0.396778, 0.892209), abs=1e-6)
    empty = numbers_from_counts(n_trials=3, n_excluded=3, correct=0, answered=0)
    assert empty.n == 0 and all(math.isnan(v) for v in
                                (empty.accuracy, empty.ci_low, empty.ci_high, empty.ifr))
    with pytest.raises(ValueError, match="inconsistent cell counts"):
        numbers_from_counts(n_trials=3, n_excluded=1, correct=3, answered=3)


def test_cell_numbers_from_records_apply_the_denominator_policy():
    frame = pd.DataFrame({
        "correct": [True, True, False, False, False, True],
        "parsed_answer": ["A", "B", None, "C", None, "A"],
        "error_class": [None, None, "no_final_answer", None, "token_limit", None],
        "answer_source": ["final_line", "boxed", None, "final_line", None, "final_line"],
        "chance_probability": [0.25] * 6,
    })
    cell = cell_numbers(frame, chance=True)
    assert {k: cell[k] for k in ("n_trials", "n_excluded", "n", "correct")} == {
        "n_trials": 6, "n_excluded": 1, "n": 5, "correct": 3}
    assert cell["accuracy"] == 0.6 and cell["ifr"] == 0.8
    assert cell["off_final"] == 0.25  # one of the four answers read was boxed
    assert cell["chance"] == 0.25
    low, high = proportion_confint(3, 5, method="wilson")
    assert (cell["ci_low"], cell["ci_high"]) == pytest.approx((low, high), abs=1e-12)
