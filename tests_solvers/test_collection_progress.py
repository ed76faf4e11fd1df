"""Issue 27 defect 22: a run piped to a log says it is collecting before collection ends,
not only once the first trial is done."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests_solvers import CORE_BENCH, PYTEST

REPO = Path(__file__).resolve().parent.parent


def test_a_piped_run_says_it_collects_before_collection_finishes(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    done = subprocess.run(
        [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider", "--model", "listener",
         "-m", "chord and midi and zero and standalone", "--no-report", "--run-dir",
         str(tmp_path / "run")], cwd=REPO, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, timeout=600)
    lines = done.stdout.splitlines()
    assert done.returncode in (0, 1), done.stdout[-3000:]
    first = next(i for i, line in enumerate(lines) if line.strip())
    assert lines[first] == "eartest: collecting trials ..."
    collected = next(i for i, line in enumerate(lines) if "44 trials of listener" in line)
    assert first < collected  # said before collection ended (the count comes after it)
    assert sum("collecting trials" in line for line in lines) <= 2, "one line, not noise"
