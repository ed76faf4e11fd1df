"""An interrupted run says so, and ``--resume RUN_DIR`` completes it (issue 14, item 12).

A run interrupted with SIGINT (Ctrl-C) is marked incomplete in ``summary.json``, in the report
and in the terminal; resuming keeps the earlier records, asks only what was never answered
(answered requests come from the response cache) and marks the run complete.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

from tests_solvers import CORE_BENCH, PYTEST, sigint_as_on_a_terminal
from tests_solvers.fakes.openai_server import FakeOpenAIServer

REPO = Path(__file__).resolve().parent.parent
SLICE = ["-m", "chord and midi and zero and standalone"]  # 44 trials, one request each
HELD_AFTER = 8  # requests answered before the server holds the rest (test below)


def bench_cmd(*args: str) -> list[str]:
    return [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider", *args]


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    return env | {"OPENAI_API_KEY": "sk-test-resume"}


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(bench_cmd(*args), cwd=REPO, capture_output=True, text=True,
                          timeout=600, env=environment())


def lines_of(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


def summary(run_dir: Path) -> dict:
    return json.loads((run_dir / "summary.json").read_text())


def test_issue14_item12_sigint_marks_the_run_incomplete_and_resume_completes_it(tmp_path):
    cache, run_dir = tmp_path / "responses.sqlite", tmp_path / "run"
    interrupted = threading.Event()
    with FakeOpenAIServer(latency_s=0.05) as server:
        # after 8 answers the server holds every request until the run is interrupted, so the
        # signal always lands mid-run, however slowly or quickly the machine runs the victim
        server.script = lambda request: (
            None if interrupted.is_set() or server.count <= HELD_AFTER
            else dataclasses.replace(server.default, delay_s=120.0))
        common = ["--model", "openai:qwen2-audio-7b", "--base-url", server.base_url,
                  "--cache-path", str(cache), *SLICE, "--no-prefetch"]
        # Ctrl-C as on a terminal: the victim starts with SIGINT's default disposition, whatever
        # the worker running this test inherited (an ignored SIGINT is inherited across exec)
        victim = subprocess.Popen(bench_cmd(*common, "--run-dir", str(run_dir)), cwd=REPO,
                                  env=environment(), stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True,
                                  preexec_fn=sigint_as_on_a_terminal)
        deadline = time.monotonic() + 300
        while len(lines_of(run_dir / "trials.jsonl")) < 6 and time.monotonic() < deadline:
            time.sleep(0.05)
        victim.send_signal(signal.SIGINT)
        interrupted.set()
        output = victim.communicate(timeout=300)[0]
        assert victim.returncode == 2, output[-3000:]
        earlier = lines_of(run_dir / "trials.jsonl")
        assert 6 <= len(earlier) < 44
        marked = summary(run_dir)
        assert marked["complete"] is False
        assert marked["header"]["trials_recorded"] == len(earlier)
        assert marked["header"]["trials_expected"] == 44
        assert "INCOMPLETE" in (run_dir / "report.html").read_text()
        assert f"INCOMPLETE run: {len(earlier)} of 44 trials recorded" in output
        assert f"--resume {run_dir}" in output
        answered = sqlite3.connect(cache).execute("SELECT COUNT(*) FROM responses").fetchone()[0]
        before = server.count

        refused = run(*common, "--run-dir", str(run_dir))
        assert refused.returncode == 4 and "--resume" in refused.stderr

        resumed = run(*common, "--resume", str(run_dir))
        assert resumed.returncode in (0, 1), resumed.stdout[-3000:] + resumed.stderr[-3000:]
        asked_again = server.count - before
    records = lines_of(run_dir / "trials.jsonl")
    assert records[:len(earlier)] == earlier, "earlier records must be kept as they were"
    test_ids = [json.loads(line)["test_id"] for line in records]
    assert len(test_ids) == len(set(test_ids)) == 44, "every trial recorded exactly once"
    assert asked_again == 44 - answered, "an answered request was asked again, or one was lost"
    done = summary(run_dir)
    assert done["complete"] is True and done["header"]["trials_recorded"] == 44
    assert "INCOMPLETE" not in (run_dir / "report.html").read_text()
    assert "INCOMPLETE" not in resumed.stdout


def test_issue14_item12_resume_refuses_other_options_and_a_finished_run(tmp_path):
    run_dir = tmp_path / "run"
    common = ["--model", "chance", "--modality", "midi", "-m", "chord and zero and standalone"]
    stopped = run(*common, "-x", "--run-dir", str(run_dir))  # stops at the first wrong answer
    assert stopped.returncode == 1
    assert summary(run_dir)["complete"] is False
    other = run(*common, "--seed", "7", "--resume", str(run_dir))
    assert other.returncode == 4 and "--seed" in other.stderr
    assert "Traceback" not in other.stdout + other.stderr
    finished = run(*common, "--resume", str(run_dir))
    assert finished.returncode == 1  # chance answers wrong, now as then
    assert summary(run_dir)["complete"] is True
    assert len(lines_of(run_dir / "trials.jsonl")) == 44
    again = run(*common, "--resume", str(run_dir))
    assert again.returncode == 4 and "already complete" in again.stderr
    missing = run(*common, "--resume", str(tmp_path / "nowhere"))
    assert missing.returncode == 4 and "nowhere" in missing.stderr


OTHER_TESTS = "def test_a():\n    assert False\n\n\ndef test_b():\n    pass\n"


def test_a_stopped_session_without_bench_trials_is_not_an_incomplete_run(tmp_path):
    """``-x`` stopping a session of other tests (the project's own, serial or under xdist)
    names no run to resume: there were no trials."""
    (tmp_path / "test_other.py").write_text(OTHER_TESTS)
    (tmp_path / "conftest.py").write_text((REPO / "conftest.py").read_text())
    for workers in ([], ["-n", "2"]):
        done = subprocess.run(
            [*PYTEST, str(tmp_path / "test_other.py"), "-x", "-p", "no:cacheprovider",
             "-p", "no:randomly", "--rootdir", str(tmp_path), "--run-dir", str(tmp_path / "run"),
             *workers],
            cwd=tmp_path, capture_output=True, text=True, timeout=300,
            env={**os.environ, "PYTHONPATH": str(REPO)})
        assert done.returncode in (1, 2), done.stdout[-2000:] + done.stderr[-2000:]  # 2: xdist
        assert "1 failed" in done.stdout and "INCOMPLETE" not in done.stdout, done.stdout[-2000:]
        assert not (tmp_path / "run").exists()
