"""Issue 27, the gate and baselines: gates that cannot pass on nothing (defects 1, 12, 14, 17,
19 and 20's baseline values). Each test reproduces a defect (its number is in the name).

Gate logic runs in-process on records built here; the end-to-end runs drive the real bench in
a subprocess, one with ``--cache replay`` on an empty cache (every trial a ``backend_error``)
and one against the fake OpenAI-compatible server failing every request after the eighth, as
a revoked key or an exhausted quota does.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from fixtures.backends.base import GenerationSettings, Response
from fixtures.backends.scripted import ScriptedBackend
from fixtures.running.runner import Trial, run_trial_sync
from fixtures.tasks.catalog import items_for
from reports.builders.compare import compare_runs
from reports.gate.baseline import Baseline, baseline_from_records, gate_failures
from reports.gate.exit_status import FINISHED_BROKEN
from reports.gate.run_health import health_problem
from reports.tables.accuracy import cell_summary
from solvers.sampling import summarize
from tests_solvers import CORE_BENCH, PYTEST
from tests_solvers.fakes.openai_server import FakeOpenAIServer, error, text

REPO = Path(__file__).resolve().parent.parent
CELL = ("chord", "midi", "zero", "standalone")


def _row(n: int, correct: bool, error_class: str | None = None, model: str = "m",
         cell: tuple = CELL, samples: dict | None = None) -> dict:
    task, modality, shot, strategy = cell
    return {"model": model, "task": task, "modality": modality, "shot": shot,
            "strategy": strategy, "trial_id": f"{'/'.join(cell)}/{task}{n}",
            "item_id": f"{task}{n}", "truth": "A",
            "parsed_answer": None if error_class else ("A" if correct else "B"),
            "correct": correct and not error_class, "error_class": error_class,
            "answer_source": "final_line", "samples": samples}


def _run(rows: list[dict]) -> pd.DataFrame:
    df = pd.DataFrame(rows)
    return df if df["samples"].notna().any() else df.drop(columns="samples")


def _healthy(cells: tuple = (CELL,), size: int = 20) -> pd.DataFrame:
    return _run([_row(n, n % 4 != 0, cell=cell) for cell in cells for n in range(size)])


def _baseline(df: pd.DataFrame, path: Path) -> Baseline:
    path.write_text(json.dumps(baseline_from_records(df)))
    return Baseline.load(path)


OTHER = ("chord", "midi", "zero", "cot")


# -- defect 1: cells with nothing measured, on either side, never pass -----------------------------
def test_defect01_gate_names_a_cell_measured_with_n_zero(tmp_path: Path) -> None:
    base = _baseline(_healthy(), tmp_path / "b.json")
    broken = _run([_row(n, False, "backend_error") for n in range(20)])
    (failure,) = gate_failures(base, broken, 0.01)
    assert "m chord/midi/zero/standalone: nothing measured now (n = 0 of 20" in failure
    assert "backend_error 20" in failure


def test_defect01_gate_names_cells_the_baseline_lacks_or_holds_with_n_zero(tmp_path) -> None:
    healthy = _healthy((CELL, OTHER))
    empty = baseline_from_records(healthy)
    empty["models"]["m"]["cells"] = []  # a baseline with trials but no cells
    (tmp_path / "empty.json").write_text(json.dumps(empty))
    failures = gate_failures(Baseline.load(tmp_path / "empty.json"), healthy, 0.01)
    assert len(failures) == 2 and all("the baseline has no such cell" in f for f in failures)
    # a baseline saved from a failing run: its cells hold n = 0
    failed = _baseline(_run([_row(n, False, "backend_error", cell=c) for c in (CELL, OTHER)
                             for n in range(20)]), tmp_path / "failed.json")
    failures = gate_failures(failed, healthy, 0.01)
    assert len(failures) == 2
    assert all("the baseline measured nothing in this cell (n = 0)" in f for f in failures)


def test_defect01_a_baseline_cell_the_run_did_not_measure_fails_unless_partial(tmp_path) -> None:
    base = _baseline(_healthy((CELL, OTHER)), tmp_path / "b.json")
    only_one = _healthy((CELL,))
    (failure,) = gate_failures(base, only_one, 0.01)
    assert failure.startswith("m chord/midi/zero/cot: 15/20 in the baseline, not measured in "
                              "this run")
    assert gate_failures(base, only_one, 0.01, partial=True) == []
    assert gate_failures(base, _healthy((CELL, OTHER)), 0.01) == []  # a like run still passes


def test_defect01_a_partial_gate_that_compares_no_cell_fails(tmp_path: Path) -> None:
    held = baseline_from_records(_healthy((OTHER,)))
    held["models"]["m"]["trials"].update(baseline_from_records(_healthy())["models"]["m"]["trials"])
    (tmp_path / "b.json").write_text(json.dumps(held))
    (failure,) = gate_failures(Baseline.load(tmp_path / "b.json"), _healthy(), 0.01, partial=True)
    assert "nothing compared" in failure


# -- defect 12: broken trials above --max-error-rate -----------------------------------------------
def test_defect12_a_run_mostly_of_failed_requests_is_a_health_problem() -> None:
    rows = [_row(n, n < 3) for n in range(10)] + [
        _row(n, False, "backend_error") for n in range(10, 176)]
    problem = health_problem(_run(rows), 0.05)
    assert problem and "166 of 176 trials (94.3 %)" in problem and "backend_error 166" in problem
    # wrong answers, unreadable replies and token-limited ones are the model's, not breakage
    model_failures = [_row(n, False, "no_final_answer" if n % 2 else "token_limit")
                      for n in range(10)] + [_row(n, True) for n in range(10, 20)]
    assert health_problem(_run(model_failures), 0.05) is None
    one_in_twenty = [_row(0, False, "backend_error")] + [_row(n, True) for n in range(1, 20)]
    assert health_problem(_run(one_in_twenty), 0.05) is None  # 5 % is at, not above
    assert "1 of 20 trials" in health_problem(_run(one_in_twenty), 0.04)
    assert "no_record 2" in health_problem(_run(one_in_twenty), 0.1, unrecorded=2)


# -- defect 14: failed samples neither outvote an answer nor agree ---------------------------------
def test_defect14_failed_samples_take_no_part_in_majority_or_agreement() -> None:
    failed = "backend_error"
    one_real = summarize([None, None, "A"], [False, False, True], [0, 1, 2],
                         [failed, failed, None])
    assert one_real.majority_answer == "A" and one_real.majority_correct
    assert one_real.agreement == 1.0 and one_real.mean_accuracy == 1.0
    none_real = summarize([None, None, None], [False] * 3, [0, 1, 2], [failed] * 3)
    assert not none_real.majority_correct
    assert none_real.agreement is None and none_real.mean_accuracy is None
    # an unreadable reply is the model's answer "none", and still counts
    unread = summarize([None, None, "A"], [False, False, True], [0, 1, 2],
                       ["no_final_answer", "no_final_answer", None])
    assert unread.majority_answer is None and unread.agreement == pytest.approx(2 / 3)


def test_defect14_a_trial_is_its_real_answer_or_else_its_failure() -> None:
    """Through the real runner: two failed requests and one right answer, then three failed."""
    chord = items_for("chord", "test")[0]
    trial = Trial("subject", "midi", "zero", "standalone", chord)
    failed = Response("", finish_reason="error", error="HTTP 400: quota exhausted")
    answer = f"Final Answer: {chord.answer}"
    backend = ScriptedBackend(replies=[failed, failed, answer], name="subject")
    record = run_trial_sync(backend, trial, GenerationSettings(samples=3)).record().flat()
    assert record["correct"] is True and record["error_class"] is None
    assert record["samples"]["agreement"] == 1.0 and record["samples"]["mean_accuracy"] == 1.0
    backend = ScriptedBackend(replies=[failed] * 3, name="subject")
    result = run_trial_sync(backend, trial, GenerationSettings(samples=3))
    record = result.record().flat()
    assert record["correct"] is False and record["error_class"] == "backend_error"
    assert record["samples"]["agreement"] is None
    assert "every sample failed" in result.explain()


def test_defect14_a_sampled_cell_does_not_count_errors_agreeing() -> None:
    failed = "backend_error"
    rows = []
    for n in range(4):  # each trial: two failed samples, one right answer
        outcome = summarize([None, None, "A"], [False, False, True], [0, 1, 2],
                            [failed, failed, None])
        rows.append(_row(n, outcome.majority_correct, samples=outcome.to_json()))
    all_failed = summarize([None] * 3, [False] * 3, [0, 1, 2], [failed] * 3)
    rows.append(_row(4, False, failed, samples=all_failed.to_json()))
    cell = cell_summary(_run(rows)).iloc[0]
    assert cell["n"] == 4 and cell["accuracy"] == 1.0 and cell[failed] == 1
    assert cell["mean_accuracy"] == 1.0 and cell["agreement"] == 1.0


# -- defect 19: `reports compare` when every shared trial is excluded ------------------------------
def test_defect19_compare_says_every_shared_trial_is_excluded(tmp_path: Path) -> None:
    fields = ("model", "trial_id", "task", "modality", "shot", "strategy", "correct",
              "error_class", "truth", "parsed_answer")
    for name, error_class in (("a", "backend_error"), ("b", None)):
        rows = [_row(n, True, error_class) for n in range(6)]
        (tmp_path / name).mkdir()
        (tmp_path / name / "trials.jsonl").write_text("".join(
            json.dumps({**{k: r[k] for k in fields}, "record_version": 1, "turns": []}) + "\n"
            for r in rows))
    with pytest.raises(ValueError) as raised:
        compare_runs(tmp_path / "a", tmp_path / "b")
    message = str(raised.value)
    assert "no trial in common" not in message
    assert "all 6 trials they share are excluded" in message and "backend_error" in message


# -- defect 20: baseline values this eartest does not know -----------------------------------------
@pytest.mark.parametrize(("change", "message"), [
    (lambda b: b.update(baseline_version=99), "baseline_version 99 is not 1"),
    (lambda b: b["models"]["m"]["trials"].update({"x/y": "maybe"}), "outcome 'maybe'"),
    (lambda b: b["models"]["m"]["cells"][0].update(correct=30), "30 correct of n = 20"),
    (lambda b: b["models"]["m"]["cells"][0].pop("task"), "a cell without its task"),
    (lambda b: b["models"]["m"].update(samples={"x/y": [1, 2]}), "samples [1, 2] are not 0/1"),
], ids=["version-99", "outcome-maybe", "impossible-cell", "cell-without-task", "sample-flag-2"])
def test_defect20_a_baseline_with_unknown_values_is_one_usage_error(tmp_path, change,
                                                                    message) -> None:
    data = baseline_from_records(_healthy())
    change(data)
    (tmp_path / "b.json").write_text(json.dumps(data))
    with pytest.raises(pytest.UsageError, match=re.escape(message)):
        Baseline.load(tmp_path / "b.json")


# -- end to end ------------------------------------------------------------------------------------
SLICE = ("--modality", "midi", "--shot", "zero", "--strategy", "standalone", "--no-report")


def bench(tmp_path: Path, *args: str, env: dict | None = None,
          axes: tuple = SLICE) -> subprocess.CompletedProcess:
    """The core bench (by default its MIDI zero-shot standalone slice) in a subprocess, with
    a response cache of its own."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    environment.update(EARTEST_CACHE_DIR=str(tmp_path / "cache"), **(env or {}))
    cmd = [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider", "-n", "0", *axes, *args]
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600,
                          env=environment)


def test_defect01_replay_of_an_empty_cache_fails_the_gate_and_is_not_saved(tmp_path) -> None:
    oracle = tmp_path / "oracle.json"
    saved = bench(tmp_path, "--model", "oracle", "--baseline-save", str(oracle), "-m", "chord")
    assert saved.returncode == 0, saved.stdout[-2000:]
    data = json.loads(oracle.read_text())
    data["models"] = {"gemini-flash": data["models"]["oracle"]}
    (tmp_path / "flash.json").write_text(json.dumps(data))
    gated = bench(tmp_path, "--model", "gemini-flash", "--cache", "replay", "-m", "chord",
                  "--baseline", str(tmp_path / "flash.json"), "--baseline-strict",
                  "--gate", "0.01", "--baseline-save", str(tmp_path / "again.json"),
                  env={"GEMINI_API_KEY": "test-key-not-sent"})
    out = gated.stdout
    assert gated.returncode == FINISHED_BROKEN, out[-3000:]  # not a result: broken, not wrong
    assert "gate at alpha 0.01 passed" not in out
    assert "gate at alpha 0.01 FAILED: nothing was measured" in out
    assert "gemini-flash chord/midi/zero/standalone: nothing measured now (n = 0 of 44" in out
    assert "baseline NOT saved" in out and not (tmp_path / "again.json").exists()
    assert "Traceback" not in out + gated.stderr


def _quota_after_eight(server_requests: list) -> object:
    def script(request):
        server_requests.append(request)
        if len(server_requests) > 8:
            return error(400, "quota exhausted for this key")
        return text("Final Answer: A")
    return script


def test_defect12_a_key_failing_mid_run_warns_fails_the_gate_and_is_not_saved(tmp_path) -> None:
    seen: list = []
    with FakeOpenAIServer(script=_quota_after_eight(seen)) as server:
        model = ["--model", "openai:quota-7b", "--base-url", server.base_url,
                 "--concurrency", "1", "-m", "chord",
                 "--cache-path", str(tmp_path / "responses.sqlite")]
        env = {"OPENAI_API_KEY": "sk-test-quota"}
        saved = bench(tmp_path, *model, "--baseline-save", str(tmp_path / "b.json"), env=env)
    out = saved.stdout
    assert len(seen) > 8, out[-3000:]
    assert re.search(r"WARNING: 3\d of 44 trials \(\d+\.\d %\) got no answer because the run "
                     r"broke \(backend_error 3\d\)", out), out[-3000:]
    assert "baseline NOT saved" in out and not (tmp_path / "b.json").exists()
    assert saved.returncode != 0


@pytest.mark.parametrize("value", ["-0.1", "1.5", "nan"])
def test_max_error_rate_is_validated(value: str) -> None:
    result = subprocess.run([*PYTEST, *CORE_BENCH, "--collect-only", "-q",
                             "--max-error-rate", value], cwd=REPO, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 4, result.stdout[-2000:]
    assert "--max-error-rate takes a share between 0 and 1" in result.stderr
    assert "Traceback" not in result.stderr


def test_defect17_the_documented_scripted_model_recipe_fails_the_gate_on_its_cell(
    tmp_path: Path,
) -> None:
    """docs/baselines.md's recipe, run as written: its script and its two commands."""
    docs = (REPO / "docs" / "baselines.md").read_text()
    section = docs[docs.index("## A scripted model"):]
    script = json.loads(re.search(r'```json\n(\{"base": "oracle", "wrong".*?)\n```', section,
                                  re.S).group(1))
    commands = [shlex.split(line.strip()) for line in section.splitlines()
                if line.strip().startswith("pytest bench") and "<script.json>" in line]
    assert len(commands) == 2, "the recipe: save the script's own baseline, then gate on it"
    script_file, saved = tmp_path / "script.json", tmp_path / "scripted-baseline.json"

    def run(words: list[str]) -> subprocess.CompletedProcess:
        words = [w.replace("<script.json>", str(script_file))
                 .replace("<scripted-baseline.json>", str(saved)) for w in words]
        assert words[:2] == ["pytest", "bench"] and "<" not in " ".join(words)
        return bench(tmp_path, *words[2:], "--no-report", axes=())

    script_file.write_text(json.dumps({**script, "wrong": []}))  # first: the base's answers
    first = run(commands[0])
    assert first.returncode == 0 and saved.is_file(), first.stdout[-2000:]
    script_file.write_text(json.dumps(script))  # then: the same file, answering wrongly
    gated = run(commands[1])
    assert gated.returncode == 1, gated.stdout[-2000:]
    cell = "/".join(script["wrong"][0].split("/")[:4])
    assert "gate at alpha 0.01 FAILED for 1 cells:" in gated.stdout, gated.stdout[-2000:]
    assert f"{cell}: 0/44 now vs 44/44 in the baseline" in gated.stdout
