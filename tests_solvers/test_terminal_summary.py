"""The end-of-run terminal lines of a run without a report, counted without pandas (issue 33).

A ``--no-report`` run with no gate, no resume and only plain records prints its lines from
the records read back as dicts (``reports.tables.terminal``); every other run prints them from
its DataFrame. Both must print the same lines for the same records: requests and cost per
model, the pooled accuracy table in the paper's order, and the run-health warning.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.backends.base import GenerationSettings
from fixtures.backends.offline import OracleBackend
from fixtures.running.runner import Trial, run_trial_sync
from fixtures.tasks.catalog import items_for
from reports.builders.artifacts import compact_table, pooled_by_modality, usage_by_model
from reports.gate.run_health import health_problem, problem_of
from reports.run.record_file import read_rows
from reports.tables import controls
from reports.tables.accuracy import cell_summary, load_records
from reports.tables.terminal import is_plain, summary_lines, usage_lines

REPO = Path(__file__).resolve().parent.parent
ERRORS = (None, None, None, "no_final_answer", "backend_error", "empty_output", "token_limit")


def _varied_records() -> list[dict]:
    """Records of several models, tasks, modalities, a live rendition, every kind of error
    class, replayed and new turns (a request repeated across trials counts once)."""
    item = items_for("chord")[0]
    base = run_trial_sync(OracleBackend(), Trial("oracle", "midi", "zero", "standalone", item),
                          GenerationSettings()).record().to_json()
    axes = itertools.product(("zeta", "gemini-pro", "oracle"), ("transposition", "chord"),
                             ("midi", "audio"), (None, "live"), range(4))
    records = []
    for n, (model, task, modality, rendition, k) in enumerate(axes):
        error = ERRORS[n % len(ERRORS)]
        turn = {**base["turns"][0], "cached": n % 3 == 0, "request_hash": f"r{n % 17}",
                "repeat_index": 0, "sample_index": 0,
                "cost_usd": 0.001 * (n % 5) if n % 4 else None,
                "finish_reason": "unsupported" if n % 23 == 0 else "stop"}
        record = {**base, "model": model, "task": task, "modality": modality,
                  "trial_id": f"{task}/{modality}/{rendition}/{k}/{n}", "error_class": error,
                  "correct": error is None and n % 3 != 1, "turns": [turn],
                  "input_tokens": 100 + n, "output_tokens": n % 7,
                  "new_cost_usd": 0.0001 * n if n % 5 else None}
        if rendition:
            record["rendition"] = rendition
        records.append(record)
    return records


def _frame_lines(path: Path, offline: set[str], max_error_rate: float) -> list[str]:
    """The lines as the DataFrame's path prints them (reports.plugins.report)."""
    df = load_records(path)
    real = controls.real_records(df)
    asked = df[~df["model"].isin(offline)]
    lines = usage_lines(usage_by_model(asked))
    lines += compact_table(pooled_by_modality(cell_summary(real)))
    problem = health_problem(real, max_error_rate, 2)
    return lines + ([problem] if problem else [])


@pytest.mark.parametrize("max_error_rate", [0.05, 0.5])
def test_plain_records_print_the_lines_the_dataframe_prints(tmp_path, max_error_rate):
    path = tmp_path / "trials.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in _varied_records()))
    rows = read_rows(path)
    assert all(map(is_plain, rows))
    offline = {"oracle"}
    problem = problem_of([row["error_class"] for row in rows], max_error_rate, 2)
    plain = summary_lines(rows, offline) + ([problem] if problem else [])
    assert plain == _frame_lines(path, offline, max_error_rate)
    assert [line.split()[:3] for line in plain if line.startswith("gemini-pro")][:4] == [
        ["gemini-pro", "transposition", "audio"], ["gemini-pro", "transposition", "midi"],
        ["gemini-pro", "chord", "audio"], ["gemini-pro", "chord", "midi"]]
    assert any("chord@live" in line for line in plain)
    assert (problem is None) == (max_error_rate == 0.5)


@pytest.mark.parametrize("field, value", [("control", "noise"), ("extractor_model", "x"),
                                          ("samples", {"answers": ["A", "B"]})])
def test_a_control_samples_or_an_extractor_is_left_to_the_dataframe(field, value):
    record = _varied_records()[0]
    assert is_plain(record)
    assert not is_plain({**record, field: value})


PROBE = '''
import sys


def pytest_unconfigure(config):
    print("pandas imported:", "pandas" in sys.modules)
    print("anyio imported:", "anyio" in sys.modules)
'''


@pytest.mark.parametrize("report", [False, True], ids=["no-report", "report"])
def test_a_run_without_a_report_imports_neither_pandas_nor_anyio(tmp_path, report):
    (tmp_path / "import_probe.py").write_text(PROBE)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO)])}
    env.pop("PYTEST_XDIST_WORKER", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "bench/test_chord.py", "-q", "-s", "-p", "import_probe",
         "-p", "no:cacheprovider", *([] if report else ["--no-report"]), "--model", "oracle",
         "-m", "midi and zero and standalone", "-k", "chord4 or chord5",
         "--run-dir", str(tmp_path / "run")],
        cwd=REPO, capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert f"pandas imported: {report}" in done.stdout
    assert "anyio imported: False" in done.stdout  # its pytest plugin is not loaded
    table = done.stdout[done.stdout.index("model "):].splitlines()
    assert table[1].split()[:4] == ["oracle", "chord", "midi", "100.0%"]
