"""Values that cannot work are one usage error before the first request (issue 27, defects 13
and 20): a thinking level or budget Gemini has not got, an endpoint that is not a URL (once
retried six times as if the network had failed), an unwritable cache directory."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests_solvers import CORE_BENCH, PYTEST
from tests_solvers.fakes.gemini_server import FakeGeminiServer

REPO = Path(__file__).resolve().parent.parent
SLICE = ["-m", "chord and midi and zero and standalone"]


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("PYTEST_XDIST_WORKER", "GEMINI_BASE_URL")}
    environment |= {"GEMINI_API_KEY": "AIza-test-option-checks"} | (env or {})
    return subprocess.run([*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider", *SLICE, *args],
                          cwd=REPO, capture_output=True, text=True, timeout=600,
                          env=environment)


def one_usage_error(result: subprocess.CompletedProcess, *expected: str) -> None:
    shown = result.stdout + result.stderr
    assert result.returncode == 4, shown[-3000:]
    assert "Traceback" not in shown and "INTERNALERROR" not in shown
    for part in expected:
        assert part in result.stderr, result.stderr[-2000:]


@pytest.mark.parametrize(("args", "expected"), [
    (["--thinking-level", "ultra"], ("--thinking-level: unknown level 'ultra'", "high")),
    (["--thinking-budget", "-5"], ("--thinking-budget must be", "not -5")),
    (["--thinking-budget", "128", "--thinking-level", "low"], ("give one, not both",)),
    (["--base-url", "notaurl"], ("--base-url: 'notaurl' is not an http(s) URL",)),
    (["--base-url", "http://"], ("--base-url: 'http://' is not an http(s) URL",)),
], ids=["level", "budget", "both", "base-url", "no-host"])
def test_defect20_bad_model_settings_are_one_usage_error_before_any_request(
        tmp_path, args, expected):
    with FakeGeminiServer() as server:
        result = run("--model", "gemini-pro", *args, "--run-dir", str(tmp_path / "run"),
                     "--cache-path", str(tmp_path / "responses.sqlite"))
        assert server.generate_count == 0
    one_usage_error(result, *expected)
    assert not (tmp_path / "run").exists()


def test_defect20_an_endpoint_variable_that_is_not_a_url_is_named(tmp_path):
    result = run("--model", "gemini-pro", "--collect-only",
                 env={"GEMINI_BASE_URL": "localhost:8000"})
    one_usage_error(result, "$GEMINI_BASE_URL: 'localhost:8000' is not an http(s) URL")


@pytest.mark.parametrize("args", [["--thinking-level", "High"], ["--thinking-budget", "-1"],
                                  ["--thinking-budget", "0", "--base-url", "http://127.0.0.1:9/"]])
def test_defect20_good_settings_still_run(args):
    result = run("--model", "gemini-pro", *args, "--collect-only")
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]


@pytest.mark.parametrize("where", ["under-a-file", "read-only-fs"])
def test_defect13_an_unwritable_cache_dir_is_one_usage_error(tmp_path, where):
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder")
    cache = {"under-a-file": a_file / "cache", "read-only-fs": Path("/proc/eartest-cache")}[where]
    result = run("--model", "oracle", "--run-dir", str(tmp_path / "run"),
                 env={"EARTEST_CACHE_DIR": str(cache)})
    one_usage_error(result, f"$EARTEST_CACHE_DIR: cannot write into {cache}")
    assert not (tmp_path / "run").exists()
