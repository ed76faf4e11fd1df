"""Audio-attention controls, report side: the paired table's maths, and a run end to end."""

from __future__ import annotations

import csv
import json
import math
import os
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from reports.tables.controls import (
    LISTENS,
    PRIORS,
    control_summary,
    controls_markdown,
    real_records,
    terminal_lines,
)
from solvers.metrics import exact_binomial_sf
from tests_solvers import CORE_BENCH, FULL_E2E, PYTEST, trial_row

REPO = Path(__file__).resolve().parent.parent


def records(task: str, outcomes: list[tuple[bool, bool]], control: str = "noise",
            model: str = "m") -> list[dict]:
    """A real and a control record per item, right or wrong as ``outcomes`` says."""
    rows = []
    for index, (real_right, control_right) in enumerate(outcomes):
        real_id = f"{task}/audio/zero/standalone/item{index}"
        for name, right, trial_id in ((
            "real", real_right, real_id), (control, control_right, f"{real_id}/control-{control}"
        )):
            rows.append({"model": model, "task": task, "modality": "audio", "shot": "zero",
                         "strategy": "standalone", "trial_id": trial_id, "truth": "A",
                         "parsed_answer": "A" if right else "B", "correct": right,
                         "error_class": None, "control": name})
    return rows


def test_a_clear_drop_is_significant():
    outcomes = [(True, False)] * 15 + [(True, True)] * 5  # 100 % -> 25 %
    (row,) = control_summary(pd.DataFrame(records("chord", outcomes))).to_dict("records")
    assert (row["n_pairs"], row["real_correct"], row["control_correct"]) == (20, 20, 5)
    assert (row["b"], row["c"]) == (15, 0)
    assert row["p_drop"] == pytest.approx(0.5**15)
    assert row["drop_points"] == pytest.approx(75.0)
    assert row["drop_significant"] and row["verdict"] == LISTENS
    assert row["chance"] == 0.25
    assert row["p_control_above_chance"] == pytest.approx(exact_binomial_sf(5, 20, 0.25))


def test_no_drop_is_flagged_as_language_priors():
    # 60 % with audio, 55 % without: b = 3, c = 2 discordant pairs
    outcomes = ([(True, True)] * 9 + [(True, False)] * 3 + [(False, True)] * 2
                + [(False, False)] * 6)
    (row,) = control_summary(pd.DataFrame(records("chord", outcomes))).to_dict("records")
    assert (row["real_correct"], row["control_correct"], row["b"], row["c"]) == (12, 11, 3, 2)
    assert row["p_drop"] == pytest.approx(sum(math.comb(5, k) for k in (3, 4, 5)) / 32)
    assert not row["drop_significant"] and row["verdict"] == PRIORS
    assert "no significant drop (language priors): m chord/audio/zero/standalone noise" in (
        "\n".join(terminal_lines(control_summary(pd.DataFrame(records("chord", outcomes))))))


def test_a_rise_under_the_control_is_not_a_drop():
    outcomes = [(False, True)] * 10 + [(False, False)] * 10
    (row,) = control_summary(pd.DataFrame(records("chord", outcomes))).to_dict("records")
    assert row["p_drop"] == 1.0 and row["verdict"] == PRIORS
    assert row["drop_points"] == pytest.approx(-50.0)


def test_excluded_and_unpaired_trials_are_counted_not_scored():
    rows = records("syncopation", [(True, False)] * 6)
    rows[1]["error_class"] = "backend_error"  # item0's control: excluded from the denominator
    rows[2]["error_class"] = "token_limit"  # item1's real trial: excluded
    rows.append({**rows[-1], "trial_id": "syncopation/audio/zero/standalone/x/control-noise"})
    (row,) = control_summary(pd.DataFrame(rows)).to_dict("records")
    assert (row["n_pairs"], row["n_excluded"], row["n_unpaired"]) == (4, 2, 1)
    assert row["real_correct"] == 4 and row["control_correct"] == 0


def test_cells_and_controls_are_kept_apart():
    rows = (records("chord", [(True, False)] * 8, "noise")
            + records("chord", [(True, True)] * 8, "silence")[1::2]  # the silence records only
            + records("transposition", [(True, False)] * 8, "noise", model="other"))
    summary = control_summary(pd.DataFrame(rows))
    got = {(r.model, r.task, r.control): (r.n_pairs, r.control_correct)
           for r in summary.itertuples()}
    assert got == {("m", "chord", "noise"): (8, 0), ("m", "chord", "silence"): (8, 8),
                   ("other", "transposition", "noise"): (8, 0)}
    markdown = controls_markdown(summary)
    assert "| m | chord | audio | zero | standalone | silence | 8 | 100.0 | 100.0 |" in markdown


def test_real_records_leave_control_trials_out_and_keep_old_records():
    frame = pd.DataFrame(records("chord", [(True, False)] * 3))
    assert list(real_records(frame)["control"]) == ["real"] * 3
    old = frame.drop(columns="control")
    assert len(real_records(old)) == len(old)  # records made before controls existed
    assert control_summary(old).empty and controls_markdown(control_summary(old)) == ""


def test_pitch_cells_keep_their_notation_and_own_chance():
    rows = records("pitch_a1", [(True, False)] * 10)
    for row in rows:
        row.update(notation="midi", chance_probability=0.1)
    (row,) = control_summary(pd.DataFrame(rows)).to_dict("records")
    assert row["notation"] == "midi" and row["chance"] == pytest.approx(0.1)
    assert "| notation |" in controls_markdown(control_summary(pd.DataFrame(rows)))


# --- End to end --------------------------------------------------------------------------------


def test_listener_drops_to_chance_under_noise_and_mismatch(tmp_path):
    """The acceptance run: the built-in listener on the core tasks' zero-shot standalone audio
    cells, with noise and mismatched controls; and on the MUSE meter items, which the controls
    reach as they reach the core's."""
    run_dir = tmp_path / "run"
    # every core task under make e2e; make test: the chord task (44 items, the most of the three)
    core, items, sample = ((("syncopation", "transposition", "chord"), 84, ())
                           if FULL_E2E else (("chord",), 44, ("-k", "chord or muse_meter")))
    tasks = (*core, "muse_meter")
    cmd = [*PYTEST, *CORE_BENCH, "bench/test_muse.py", "--muse", "meter", "-q",
           "-p", "no:cacheprovider",
           "-p", "no:randomly", "--tb=line", "--model", "listener", "--modality", "audio",
           "--shot", "zero", "--strategy", "standalone", "--control", "noise,mismatched",
           "--run-dir", str(run_dir), *sample]
    result = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    items += 24  # the meter items
    assert f"{items} passed" in result.stdout and "eartest controls" in result.stdout
    with open(run_dir / "controls.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert {(r["task"], r["control"]) for r in rows} == {
        (task, control) for task in tasks for control in ("noise", "mismatched")}
    for row in rows:
        cell = f"{row['task']} {row['control']}"
        assert row["drop_significant"] == "True" and row["verdict"] == LISTENS, cell
        assert float(row["p_control_above_chance"]) >= 0.05, cell  # not above chance
        assert float(row["real_accuracy"]) == 1.0, cell
    # the ordinary tables hold the real trials only
    summary = json.loads((run_dir / "summary.json").read_text())
    assert sorted(cell["n"] for cell in summary["cells"]) == (
        [20, 20, 24, 44] if FULL_E2E else [24, 44])
    assert "Audio-attention controls" in (run_dir / "report.html").read_text()
    records = [trial_row(line) for line in (run_dir / "trials.jsonl").read_text().splitlines()]
    assert len(records) == items * 3
    assert {r["control"] for r in records} == {"real", "noise", "mismatched"}
    assert all(r["control_partner"] != r["item_id"] for r in records
               if r["control"] == "mismatched")


def test_mcq_and_pitch_controls_run_with_the_oracle_perfect(tmp_path):
    """Controls reach the other two families: MCQ audio questions (not the no-audio, image or
    text-only conditions) and the pitch experiments; the oracle still answers every one."""
    from fixtures.mcq.synthetic import make_synthetic

    muchomusic, wildscore = make_synthetic(tmp_path / "data")
    run_dir = tmp_path / "run"
    cmd = [*PYTEST, "bench/test_mcq.py", "bench/test_pitch/test_a_atomic.py",
           "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--model", "oracle",
           "--mcq-dataset", f"{muchomusic},{wildscore}", "--mcq-repeats", "1",
           "--pitch-sample", "3", "--notation", "midi", "-m", "mcq or pitch_a1",
           "--control", "silence,mismatched", "--run-dir", str(run_dir)]
    result = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    records = [trial_row(line) for line in (run_dir / "trials.jsonl").read_text().splitlines()]
    assert all(r["correct"] for r in records)
    controlled = {(r["task"], r["modality"], r["control"]) for r in records
                  if r["control"] != "real"}
    assert controlled == {(task, "audio", control) for task in ("mcq_muchomusic", "pitch_a1")
                          for control in ("silence", "mismatched")}
    mcq_audio = [r for r in records if r["task"] == "mcq_muchomusic" and r["modality"] == "audio"]
    assert len(mcq_audio) == 12 * 3
    assert all(r["control_partner"] != r["item_id"] for r in records
               if r["control"] == "mismatched")
    with open(run_dir / "controls.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert {(r["task"], r["notation"], r["control"], r["n_pairs"]) for r in rows} == {
        ("mcq_muchomusic", "", "silence", "12"), ("mcq_muchomusic", "", "mismatched", "12"),
        ("pitch_a1", "midi", "silence", "3"), ("pitch_a1", "midi", "mismatched", "3")}
    assert "| mcq_muchomusic | audio | zero | standalone |" not in (run_dir / "mcq.md").read_text()
