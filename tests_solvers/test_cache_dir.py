"""Every default path honours ``EARTEST_CACHE_DIR`` (issue 15): the response cache and numba's
cache too, not only the rendered stimuli."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests_solvers import CORE_BENCH, PYTEST

REPO = Path(__file__).resolve().parent.parent


def test_the_response_cache_defaults_to_the_eartest_cache_dir(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    env.update(EARTEST_CACHE_DIR=str(tmp_path / "cache"), OPENAI_API_KEY="sk-test-cache-dir")
    # Collecting for a network model opens (and so creates) the response cache at start-up.
    result = subprocess.run(
        [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider", "--co",
         "--model", "openai:qwen2-audio-7b", "--base-url", "http://127.0.0.1:9/v1",
         "-m", "chord and midi and zero and standalone"],
        cwd=REPO, capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    made = tmp_path / "cache" / "responses.sqlite"
    assert made.exists()
    (app_id,) = sqlite3.connect(made).execute("PRAGMA application_id").fetchone()
    assert app_id != 0  # an eartest response cache, initialised there


def test_a_run_writes_no_cache_into_the_checkout(tmp_path):
    """With ``EARTEST_CACHE_DIR`` set, a run leaves the checkout's ``.cache`` alone: rendered
    stimuli and numba's compiled functions (librosa) go to the given directory. The run uses
    a copy of the source tree, so nothing another test writes into this checkout can count."""
    checkout = tmp_path / "checkout"
    shutil.copytree(REPO, checkout, ignore=shutil.ignore_patterns(
        ".cache", ".git", ".venv", "__pycache__", ".hypothesis", ".pytest_cache", ".ruff_cache",
        "out", "node_modules"))
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTEST_XDIST_WORKER", "NUMBA_CACHE_DIR")}
    env["EARTEST_CACHE_DIR"] = str(tmp_path / "cache")
    result = subprocess.run(
        [*PYTEST, "bench/test_chord.py", "-q", "-p", "no:cacheprovider",
         "--model", "oracle", "-m", "audio and zero and standalone",
         "--run-dir", str(tmp_path / "run")],
        cwd=checkout, capture_output=True, text=True, timeout=600, env=env)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "passed" in result.stdout
    assert not (checkout / ".cache").exists(), sorted(
        str(p.relative_to(checkout)) for p in (checkout / ".cache").rglob("*"))[:20]
    assert any((tmp_path / "cache" / "stimuli").rglob("*.wav"))
    # numba's cache (librosa's compiled functions, written by runs that analyse audio) is
    # placed by the root conftest, for the controller and for each xdist worker.
    for worker, role in (({}, "main"), ({"PYTEST_XDIST_WORKER": "gw1"}, "gw1")):
        placed = subprocess.run(
            [sys.executable, "-c", "import conftest, os; print(os.environ['NUMBA_CACHE_DIR'])"],
            cwd=checkout, capture_output=True, text=True, timeout=60, env={**env, **worker})
        assert placed.stdout.strip() == str(tmp_path / "cache" / "numba" / role), placed.stderr
