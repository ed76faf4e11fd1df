"""Prefetch results are the trial results (issue 15): the test bodies take the record the
prefetch made instead of running the trial again, so every cache mode sends each request once
and a failing server is asked exactly ``--max-attempts`` times per request.

The benchmark runs in a subprocess against the fake OpenAI-compatible server, which counts
the requests it received and the most it held at once.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from reports.gate.exit_status import FINISHED_BROKEN
from tests_solvers import CORE_BENCH, PYTEST, trial_row
from tests_solvers.fakes.openai_server import FakeOpenAIServer, server_error

REPO = Path(__file__).resolve().parent.parent
# 10 chord trials of one request each (the fake's "Final Answer: A" needs no repair).
SLICE = ["-m", "chord and midi and zero and standalone", "-k", "chord4 or chord5"]
TRIALS = 10


def run(*args: str, timeout_s: float = 600) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    env["OPENAI_API_KEY"] = "sk-test-prefetch-results"
    cmd = [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider",
           "--no-report", *args]
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=timeout_s,
                          env=env)


def records(run_dir: Path) -> list[dict]:
    return [trial_row(line) for line in (run_dir / "trials.jsonl").read_text().splitlines()]


def common(server: FakeOpenAIServer, tmp_path: Path, *args: str) -> list[str]:
    return ["--model", "openai:qwen2-audio-7b", "--base-url", server.base_url,
            "--cache-path", str(tmp_path / "responses.sqlite"), *SLICE, *args]


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["single", "xdist"])
def test_cache_refresh_sends_one_request_per_trial_turn(tmp_path, workers):
    with FakeOpenAIServer(latency_s=0.01) as server:
        first = run(*common(server, tmp_path, "--cache", "refresh", "--run-dir",
                            str(tmp_path / "a"), *workers))
        after_first = server.count
        second = run(*common(server, tmp_path, "--cache", "refresh", "--run-dir",
                             str(tmp_path / "b"), *workers))
        after_second = server.count
    assert first.returncode in (0, 1), first.stdout[-3000:] + first.stderr[-3000:]
    assert second.returncode == first.returncode
    for run_dir in (tmp_path / "a", tmp_path / "b"):
        turns = [t for r in records(run_dir) for t in r["turns"]]
        assert len(turns) == TRIALS and not any(t["cached"] for t in turns)
    # Refresh asks again once per run, not once in the prefetch and once more in the test body.
    assert (after_first, after_second - after_first) == (TRIALS, TRIALS)
    # One process hands its results over in memory; xdist workers through the cache file,
    # which holds none of them once the run is over.
    with sqlite3.connect(tmp_path / "responses.sqlite") as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
        left = db.execute("SELECT COUNT(*) FROM trial_results").fetchone()[0] \
            if "trial_results" in tables else None
    assert left == (0 if workers else None)


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["single", "xdist"])
def test_an_always_failing_server_gets_exactly_the_retry_budget_per_trial(tmp_path, workers):
    with FakeOpenAIServer(default=server_error(503)) as server:
        result = run(*common(server, tmp_path, "--max-attempts", "2", "--run-dir",
                             str(tmp_path / "run"), *workers))
        sent = server.count
    # Nothing measured: the run ends broken, not as wrong answers.
    assert result.returncode == FINISHED_BROKEN, result.stdout[-3000:] + result.stderr[-3000:]
    found = records(tmp_path / "run")
    assert len(found) == TRIALS
    assert {r["error_class"] for r in found} == {"backend_error"}
    assert all("gave up after 2 attempts" in r["error_message"] for r in found)
    assert sent == 2 * TRIALS, f"{sent} attempts for {TRIALS} trials with --max-attempts 2"


def test_cache_off_is_as_concurrent_as_cache_use(tmp_path):
    seen = {}
    for mode in ("use", "off"):
        with FakeOpenAIServer(latency_s=0.2) as server:
            result = run(*common(server, tmp_path / mode, "--cache", mode, "--concurrency", "4",
                                 "--run-dir", str(tmp_path / mode / "run")))
            seen[mode] = (server.count, server.max_in_flight)
        assert result.returncode in (0, 1), result.stdout[-3000:] + result.stderr[-3000:]
        assert len(records(tmp_path / mode / "run")) == TRIALS
    assert seen["off"] == seen["use"] == (TRIALS, 4)
    assert not (tmp_path / "off" / "responses.sqlite").exists()
