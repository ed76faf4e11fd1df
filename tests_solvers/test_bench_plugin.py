"""The benchmark as users run it: options, ids, selection, records, xdist, chance levels.

These run ``pytest bench`` in a subprocess, exactly as a user would.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests_solvers import CORE_BENCH, FULL_E2E, PYTEST, trial_row

REPO = Path(__file__).resolve().parent.parent
CHANCE = {"syncopation": 0.20, "transposition": 0.50, "chord": 0.25}


def run_bench(*args: str, run_dir: Path | None = None, timeout_s: float = 600):
    cmd = [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider", *args]
    if run_dir is not None:
        cmd += ["--run-dir", str(run_dir)]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        cmd, cwd=REPO, capture_output=True, text=True, timeout=timeout_s, env=env
    )


def read_records(run_dir: Path) -> dict[str, dict]:
    records = {}
    for line in (run_dir / "trials.jsonl").read_text().splitlines():
        record = trial_row(line)
        records[f"{record['model']}/{record['trial_id']}"] = record
    return records


def without_timings(record: dict) -> dict:
    clean = dict(record)
    clean["turns"] = [{k: v for k, v in t.items() if k != "latency_s"} for t in record["turns"]]
    return clean


@pytest.mark.parametrize(
    ("option", "value", "valid"),
    [
        ("--modality", "video", "audio, midi"),
        ("--shot", "zero,three", "zero, few"),
        ("--strategy", "tot", "standalone, cot, logiclm"),
        ("--model", "gpt-17", "oracle, chance"),
    ],
)
def test_unknown_option_value_is_one_usage_error(option, value, valid):
    result = run_bench(option, value, "--collect-only")
    assert result.returncode == 4, result.stdout + result.stderr
    assert valid in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert "collected" not in result.stdout


def test_collection_has_every_axis_with_readable_ids():
    result = run_bench("--model", "oracle", "--collect-only")
    ids = [line for line in result.stdout.splitlines() if "::" in line]
    assert len(ids) == (20 + 20 + 44) * 2 * 2 * 3 == 1008
    assert "bench/test_chord.py::test_chord[oracle-audio-zero-logiclm-chord17]" in ids
    assert "bench/test_syncopation.py::test_syncopation[oracle-midi-few-cot-sync20]" in ids
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize(
    ("selection", "count"),
    [
        (["-m", "chord and logiclm"], 44 * 2 * 2),
        (["-k", "transposition and midi and zero"], 20 * 3),
        (["--modality", "midi", "--shot", "few", "--strategy", "cot"], 84),
        (["--model", "oracle,chance", "--modality", "midi", "-m", "standalone and zero"], 168),
    ],
)
def test_selection(selection, count):
    result = run_bench(*selection, "--collect-only")
    ids = [line for line in result.stdout.splitlines() if "::" in line]
    assert len(ids) == count, result.stdout[-500:]


@dataclass
class OracleRuns:
    """The oracle over one slice, serially and under ``-n 2`` with a JSON report."""

    root: Path  # run dirs ``serial`` and ``parallel``, and ``report.json``
    expected: int  # trials in the slice
    serial: subprocess.CompletedProcess
    parallel: subprocess.CompletedProcess


@pytest.fixture(scope="module")
def oracle_runs(tmp_path_factory) -> OracleRuns:
    # every core trial under make e2e; make test: the zero-shot standalone sixth, every task
    # and modality (make test's own oracle run, under -n, passes all 1,008 against the strict
    # baseline)
    sample, expected = ([], 1008) if FULL_E2E else (["-m", "zero and standalone"], 168)
    root = tmp_path_factory.mktemp("oracle_runs")
    # the records, pytest's counts and the JSON report are checked, not eartest's report
    serial = run_bench("--model", "oracle", "--no-report", *sample, run_dir=root / "serial")
    parallel = run_bench("--model", "oracle", "--no-report", "-n", "2", *sample, "--json-report",
                         f"--json-report-file={root / 'report.json'}",
                         run_dir=root / "parallel")
    return OracleRuns(root, expected, serial, parallel)


def test_oracle_passes_everything_with_identical_records_under_xdist(oracle_runs):
    serial, parallel, expected = oracle_runs.serial, oracle_runs.parallel, oracle_runs.expected
    assert serial.returncode == 0, serial.stdout[-2000:]
    assert f"{expected} passed" in serial.stdout
    assert parallel.returncode == 0, parallel.stdout[-2000:]
    assert f"{expected} passed" in parallel.stdout
    a = read_records(oracle_runs.root / "serial")
    b = read_records(oracle_runs.root / "parallel")
    assert len(a) == expected
    assert a.keys() == b.keys()
    for key in a:
        assert without_timings(a[key]) == without_timings(b[key]), key
    assert all(r["correct"] and r["error_class"] is None for r in a.values())


def binomial_interval(n: int, p: float, level: float = 0.99) -> tuple[int, int]:
    """Central interval of Binomial(n, p) holding at least ``level`` of the mass."""
    pmf = [math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]
    tail = (1 - level) / 2
    low, acc = 0, 0.0
    while acc + pmf[low] <= tail:
        acc += pmf[low]
        low += 1
    high, acc = n, 0.0
    while acc + pmf[high] <= tail:
        acc += pmf[high]
        high -= 1
    return low, high


def test_chance_lands_on_chance(tmp_path):
    # make test: the zero-shot half (its own chance run gates all 1,008 against the baseline)
    sample, expected = ([], 1008) if FULL_E2E else (["-m", "zero"], 504)
    result = run_bench("--model", "chance", "--no-report", *sample, run_dir=tmp_path)
    assert result.returncode == 1, "a guessing model must fail trials"
    records = read_records(tmp_path)
    assert len(records) == expected
    correct, total = defaultdict(int), defaultdict(int)
    for record in records.values():
        assert record["error_class"] is None, record  # always a valid answer: IFR 100 %
        correct[record["task"]] += record["correct"]
        total[record["task"]] += 1
    for task, p in CHANCE.items():
        low, high = binomial_interval(total[task], p)
        assert low <= correct[task] <= high, (task, correct[task], total[task], (low, high))


def test_last_failed_reruns_only_the_failures(tmp_path):
    cache = ["-p", "cacheprovider", "-o", f"cache_dir={tmp_path / 'cache'}"]
    args = ["--model", "chance", "--modality", "midi", "-m", "chord and standalone", "--no-report"]
    first = subprocess.run(
        [*PYTEST, *CORE_BENCH, "-q", *cache, *args,
         "--run-dir", str(tmp_path / "a")],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )
    failed = sum(1 for r in read_records(tmp_path / "a").values() if not r["correct"])
    assert 0 < failed < 88, first.stdout[-500:]
    second = subprocess.run(
        [*PYTEST, *CORE_BENCH, "-q", *cache, *args, "--lf",
         "--run-dir", str(tmp_path / "b")],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )
    assert len(read_records(tmp_path / "b")) == failed, second.stdout[-500:]
    assert f"{failed} failed" in second.stdout


def test_json_report_carries_the_records_from_xdist_workers(oracle_runs):
    assert oracle_runs.parallel.returncode == 0, oracle_runs.parallel.stdout[-1000:]
    tests = json.loads((oracle_runs.root / "report.json").read_text())["tests"]
    assert len(tests) == oracle_runs.expected
    carried = {t["user_properties"][0]["eartest_record"]["trial_id"] for t in tests}
    recorded = read_records(oracle_runs.root / "parallel").values()
    assert carried == {r["trial_id"] for r in recorded}
    assert len(carried) == oracle_runs.expected


def test_a_run_dir_holds_one_run(oracle_runs):
    run_dir = oracle_runs.root / "serial"
    held = (run_dir / "trials.jsonl").read_bytes()
    again = run_bench("--model", "oracle", "-m", "chord and midi and zero and standalone",
                      run_dir=run_dir)
    assert again.returncode == 4
    assert "already holds a run's records" in again.stderr
    assert (run_dir / "trials.jsonl").read_bytes() == held
    assert len(read_records(run_dir)) == oracle_runs.expected
