"""Every default path honours ``EARTEST_CACHE_DIR`` (issue 15): the response cache too, not only
the rendered stimuli."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests_solvers import CORE_BENCH

REPO = Path(__file__).resolve().parent.parent


def test_the_response_cache_defaults_to_the_eartest_cache_dir(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    env.update(EARTEST_CACHE_DIR=str(tmp_path / "cache"), OPENAI_API_KEY="sk-test-cache-dir")
    # Collecting for a network model opens (and so creates) the response cache at start-up.
    result = subprocess.run(
        [sys.executable, "-m", "pytest", *CORE_BENCH, "-q", "-p", "no:cacheprovider", "--co",
         "--model", "openai:qwen2-audio-7b", "--base-url", "http://127.0.0.1:9/v1",
         "-m", "chord and midi and zero and standalone"],
        cwd=REPO, capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    made = tmp_path / "cache" / "responses.sqlite"
    assert made.exists()
    (app_id,) = sqlite3.connect(made).execute("PRAGMA application_id").fetchone()
    assert app_id != 0  # an eartest response cache, initialised there
