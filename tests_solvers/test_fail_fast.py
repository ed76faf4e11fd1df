"""Issue 14, "fail fast, one message" (and the endpoint that was not keyed): each test
reproduces one defect a hostile newcomer found (the item number is in its name).

The benchmark runs in a subprocess exactly as a user runs it, against the fake Gemini server
on 127.0.0.1 through the real google-genai SDK.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from reports.gate.exit_status import FINISHED_BROKEN
from tests_solvers import CORE_BENCH, PYTEST, trial_row
from tests_solvers.fakes.gemini_server import FakeGeminiServer, http_error

REPO = Path(__file__).resolve().parent.parent
SECRET = "AIza-test-SECRET-5d0e2a11"
SLICE = ["-m", "chord and midi and zero and standalone"]  # 44 trials, one request each
ENDPOINT_VARIABLES = ("GEMINI_BASE_URL", "GOOGLE_GEMINI_BASE_URL", "GOOGLE_API_KEY")


def run(*args: str, env: dict | None = None, timeout_s: float = 600):
    environment = {k: v for k, v in os.environ.items() if k not in ENDPOINT_VARIABLES}
    environment.pop("PYTEST_XDIST_WORKER", None)
    environment.update({"GEMINI_API_KEY": SECRET, **(env or {})})
    cmd = [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider", *args]
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=timeout_s,
                          env=environment)


def records(run_dir: Path) -> list[dict]:
    return [trial_row(line) for line in (run_dir / "trials.jsonl").read_text().splitlines()]


# -- item 3: the SDK's own endpoint variable ------------------------------------------------------
def test_item03_sdk_base_url_variable_is_keyed_and_in_the_header(tmp_path: Path) -> None:
    cache = tmp_path / "responses.sqlite"
    common = ["--model", "gemini-pro", *SLICE, "--cache-path", str(cache)]
    with FakeGeminiServer() as server:
        url = server.base_url
        local = run(*common, "--run-dir", str(tmp_path / "local"),
                    env={"GOOGLE_GEMINI_BASE_URL": url})
        assert server.generate_count == 44, local.stdout[-2000:] + local.stderr[-2000:]
    header = json.loads((tmp_path / "local" / "summary.json").read_text())["header"]
    assert header["models"]["gemini-pro"]["base_url"] == url
    # The local server's answers must not replay as the public endpoint's gemini-2.5-pro.
    public = run(*common, "--cache", "replay", "--no-report", "--run-dir", str(tmp_path / "pub"))
    assert {r["error_class"] for r in records(tmp_path / "pub")} == {"backend_error"}
    assert public.returncode == FINISHED_BROKEN  # measured nothing: broken, not wrong answers
    # ... while the same endpoint replays every answer.
    again = run(*common, "--cache", "replay", "--no-report", "--run-dir", str(tmp_path / "again"),
                env={"GOOGLE_GEMINI_BASE_URL": url})
    assert all(r["error_class"] is None for r in records(tmp_path / "again")), again.stdout[-1000:]


# -- item 8: a local model path that does not exist ----------------------------------------------
@pytest.mark.parametrize("target", ["/tmp/eartest-nope-0f3a", "./no/such/dir", "~/no-such-model"])
def test_item08_missing_hf_model_path_is_one_usage_error(tmp_path: Path, target: str) -> None:
    result = run("--model", f"hf:{target}", *SLICE, "--run-dir", str(tmp_path / "r"))
    assert result.returncode == 4, result.stdout[-2000:]
    assert "neither a directory nor a repo id" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "r").exists()


# -- item 10: option values that make every request fail, or mean nothing --------------------------
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--request-timeout", "0"], "--request-timeout must be a number of seconds above 0"),
        (["--request-timeout", "-1"], "--request-timeout must be a number of seconds above 0"),
        (["--request-timeout", "nan"], "--request-timeout must be a number of seconds above 0"),
        (["--rpm", "0"], "--rpm must be a number of requests per minute above 0"),
        (["--rpm", "-5"], "--rpm must be a number of requests per minute above 0"),
    ],
)
def test_item10_timeout_and_rpm_out_of_range_are_usage_errors(args: list[str],
                                                               message: str) -> None:
    result = run("--model", "gemini-pro", *args, "--collect-only")
    assert result.returncode == 4, result.stdout[-1000:]
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_item10_positive_rpm_and_timeout_are_accepted() -> None:
    result = run("--model", "gemini-pro", "--rpm", "0.5", "--request-timeout", "0.5",
                 *SLICE, "--collect-only")
    assert result.returncode == 0, result.stderr[-1000:]


# -- item 9: output paths that cannot be written, found before the first request ------------------
def _unwritable(tmp_path: Path) -> dict[str, Path]:
    a_file = tmp_path / "a-file"
    a_file.write_text("not a directory\n")
    return {"file": a_file, "under-a-file": a_file / "run", "read-only-fs": Path("/proc/eartest")}


@pytest.mark.parametrize("where", ["file", "under-a-file", "read-only-fs"])
@pytest.mark.parametrize("option", ["--run-dir", "--baseline-save"])
def test_item09_unwritable_output_is_refused_before_any_request(
    tmp_path: Path, option: str, where: str
) -> None:
    target = _unwritable(tmp_path)[where]
    if option == "--baseline-save" and where == "file":
        target = tmp_path  # a directory where a file is wanted
    args = [option, str(target)]
    if option == "--baseline-save":
        args += ["--run-dir", str(tmp_path / "run")]
    with FakeGeminiServer() as server:
        result = run("--model", "gemini-pro", *SLICE, *args,
                     env={"GEMINI_BASE_URL": server.base_url})
        assert server.generate_count == 0
    assert result.returncode == 4, result.stdout[-2000:]
    assert f"{option}: " in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert "INTERNALERROR" not in result.stderr + result.stdout
    assert not (tmp_path / "run").exists()


def test_item09_writable_outputs_are_checked_without_leaving_folders(tmp_path: Path) -> None:
    deep = tmp_path / "new" / "deeper"
    result = run("--model", "oracle", *SLICE, "--collect-only", "--run-dir", str(deep / "run"),
                 "--baseline-save", str(deep / "base.json"))
    assert result.returncode == 0, result.stderr[-1000:]
    assert not (tmp_path / "new").exists()


# -- item 7: a refused key or a dead endpoint stops the run with one message ----------------------
def _refuse(status: int):
    return lambda _request: http_error(status, "The caller does not have permission")


@pytest.mark.parametrize(
    ("server_options", "workers"),
    [({"api_key": "another-key"}, []), ({"responder": _refuse(401)}, []),
     ({"responder": _refuse(403)}, ["-n", "2"]), ({"api_key": "another-key"}, ["--no-prefetch"])],
    ids=["invalid-key", "401", "403-xdist", "invalid-key-no-prefetch"],
)
def test_item07_refused_key_stops_the_run_with_exit_4(
    tmp_path: Path, server_options: dict, workers: list[str]
) -> None:
    with FakeGeminiServer(**server_options) as server:
        result = run("--model", "gemini-pro", *SLICE, *workers, "--run-dir", str(tmp_path / "r"),
                     "--cache-path", str(tmp_path / "c.sqlite"),
                     env={"GEMINI_BASE_URL": server.base_url})
        sent = server.generate_count
    output = result.stdout + result.stderr
    assert result.returncode == 4, output[-3000:]
    assert "the first 4 requests of the run all failed" in output
    assert "Traceback" not in output
    assert sent < 44  # it stopped instead of asking every trial
    if workers == ["--no-prefetch"]:
        assert sent == 4


def test_item07_dead_endpoint_stops_the_run_quickly(tmp_path: Path) -> None:
    import socket
    import time

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}"
    started = time.monotonic()
    result = run("--model", "gemini-pro", *SLICE, "--max-attempts", "2",
                 "--run-dir", str(tmp_path / "r"), "--cache-path", str(tmp_path / "c.sqlite"),
                 env={"GEMINI_BASE_URL": dead})
    elapsed_s = time.monotonic() - started
    output = result.stdout + result.stderr
    assert result.returncode == 4, output[-3000:]
    assert "network error talking to the Gemini API" in output
    assert "Traceback" not in output
    assert elapsed_s < 60


def test_item07_a_failure_after_the_first_answer_is_one_trials_failure(tmp_path: Path) -> None:
    answered: list[int] = []

    def first_answer_then_refuse(_request):
        answered.append(1)
        return None if len(answered) == 1 else http_error(403, "quota project revoked")

    with FakeGeminiServer(responder=first_answer_then_refuse) as server:
        result = run("--model", "gemini-pro", *SLICE, "--concurrency", "1", "--no-report",
                     "--run-dir", str(tmp_path / "r"), "--cache-path", str(tmp_path / "c.sqlite"),
                     env={"GEMINI_BASE_URL": server.base_url})
    # 43 of 44 trials broken, past --max-error-rate: the run ends broken, not as wrong answers.
    assert result.returncode == FINISHED_BROKEN, result.stdout[-3000:]
    found = records(tmp_path / "r")
    assert len(found) == 44
    assert sum(r["error_class"] == "backend_error" for r in found) == 43
