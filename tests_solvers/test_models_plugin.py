"""Model names, keys, the response cache across runs, resumability, and key hygiene.

The benchmark runs in a subprocess exactly as a user runs it, against fake providers on
127.0.0.1 that speak the real wire formats (the real SDKs are used on the client side).
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from fixtures.backends import UnknownModelError, resolve_model
from reports.gate.exit_status import FINISHED_BROKEN
from tests_solvers import CORE_BENCH, FULL_E2E, PYTEST, trial_row
from tests_solvers.fakes.openai_server import FakeOpenAIServer

REPO = Path(__file__).resolve().parent.parent
SECRET = "sk-test-SECRET-4f9c1e77"
SLICE = ["-m", "chord and midi and zero"]  # 132 trials, no rendering needed


def bench_cmd(*args: str) -> list[str]:
    return [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider", *args]


def run(*args: str, env: dict | None = None, timeout_s: float = 600):
    environment = {**os.environ, **(env or {})}
    environment.pop("PYTEST_XDIST_WORKER", None)
    return subprocess.run(bench_cmd(*args), cwd=REPO, capture_output=True, text=True,
                          timeout=timeout_s, env=environment)


def records(run_dir: Path) -> dict[str, dict]:
    lines = (run_dir / "trials.jsonl").read_text().splitlines()
    return {trial_row(line)["trial_id"]: trial_row(line) for line in lines}


@pytest.mark.parametrize(
    ("name", "kind", "model_id"),
    [
        ("gemini-pro", "gemini", "gemini-2.5-pro"),
        ("gemini-flash", "gemini", "gemini-2.5-flash"),
        ("gemini:gemini-2.0-flash", "gemini", "gemini-2.0-flash"),
        ("openai:gpt-4o-audio-preview", "openai", "gpt-4o-audio-preview"),
        ("oracle", "oracle", "oracle"),
    ],
)
def test_names_resolve(monkeypatch, name, kind, model_id):
    monkeypatch.setenv("GEMINI_API_KEY", SECRET)
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    spec = resolve_model(name)
    assert (spec.kind, spec.model_id) == (kind, model_id)
    assert SECRET not in repr(spec)


def test_missing_keys_are_clear_errors(monkeypatch):
    for variable in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(variable, raising=False)
    with pytest.raises(UnknownModelError, match="GEMINI_API_KEY"):
        resolve_model("gemini-pro")
    with pytest.raises(UnknownModelError, match="OPENAI_API_KEY"):
        resolve_model("openai:gpt-4o-audio-preview")
    assert resolve_model("openai:qwen2-audio", base_url="http://127.0.0.1:1/v1").kind == "openai"
    monkeypatch.setenv("GOOGLE_API_KEY", SECRET)
    assert resolve_model("gemini-pro").key_variable == "GOOGLE_API_KEY"


@pytest.mark.parametrize(
    ("model", "message"),
    [("gemini-pro", "needs a Gemini API key"), ("nonsense-7b", "unknown model 'nonsense-7b'"),
     ("hf:missing_dir", "neither a directory nor a repo id")],
)
def test_bad_model_is_one_usage_error_before_anything_runs(model, message):
    env = {"GEMINI_API_KEY": "", "GOOGLE_API_KEY": ""}
    result = run("--model", model, env=env)
    assert result.returncode == 4
    assert message in result.stderr
    assert "Traceback" not in result.stderr and "passed" not in result.stdout


def test_corrupt_response_cache_is_one_usage_error(tmp_path):
    cache = tmp_path / "responses.sqlite"
    cache.write_bytes(os.urandom(4096))
    result = run("--model", "openai:qwen2-audio", "--base-url", "http://127.0.0.1:9/v1",
                 "--cache-path", str(cache))
    assert result.returncode == 4
    assert str(cache) in result.stderr and "Traceback" not in result.stderr


@dataclass
class SliceRun:
    """One finished OpenAI run of the 132-trial slice that several tests assert on."""

    root: Path  # the run dir ``a``, its response cache and its JSON report
    server: FakeOpenAIServer  # still listening, so later runs can be counted against it
    result: subprocess.CompletedProcess
    sent: int  # requests the server had received when the run ended
    common: list[str]  # the run's options but its run dir


@pytest.fixture(scope="module")
def slice_run(tmp_path_factory) -> Iterator[SliceRun]:
    """The slice run by the real openai SDK with a secret key, report and JSON report on."""
    root = tmp_path_factory.mktemp("openai_slice")
    with FakeOpenAIServer() as server:
        common = ["--model", "openai:qwen2-audio-7b", "--base-url", server.base_url,
                  "--cache-path", str(root / "responses.sqlite"), *SLICE]
        result = run(*common, "--run-dir", str(root / "a"), "--json-report",
                     f"--json-report-file={root / 'report.json'}",
                     env={"OPENAI_API_KEY": SECRET})
        yield SliceRun(root, server, result, server.count, common)


def test_second_run_sends_nothing_and_replay_needs_no_network(slice_run, tmp_path):
    first, server = slice_run.result, slice_run.server
    assert first.returncode in (0, 1), first.stdout[-2000:] + first.stderr[-2000:]
    distinct = {t["request_hash"] for r in records(slice_run.root / "a").values()
                for t in r["turns"]}
    assert slice_run.sent == len(distinct) > 132  # LogicLM repairs of the fake's reply too
    common = [*slice_run.common, "--no-report"]
    # one process: a re-run under xdist is test_a_second_run_under_xdist_replays_every_turn...
    second = run(*common, "--run-dir", str(tmp_path / "b"))
    assert server.count == slice_run.sent, "a re-run of a finished run must send nothing"
    # replay sends nothing: the server, still listening, counts no further request
    replay = run(*common, "--cache", "replay", "--run-dir", str(tmp_path / "c"))
    assert server.count == slice_run.sent
    a, b, c = records(slice_run.root / "a"), records(tmp_path / "b"), records(tmp_path / "c")
    assert len(a) == len(b) == len(c) == 132
    for trial_id in a:
        assert b[trial_id]["parsed_answer"] == a[trial_id]["parsed_answer"]
        assert c[trial_id]["correct"] == a[trial_id]["correct"]
        assert all(turn["cached"] for turn in b[trial_id]["turns"])
    assert second.returncode == first.returncode == replay.returncode


def test_replay_miss_is_an_error_not_a_network_call(tmp_path):
    with FakeOpenAIServer() as server:
        result = run("--model", "openai:qwen2-audio-7b", "--base-url", server.base_url,
                     "--cache-path", str(tmp_path / "empty.sqlite"), "--cache", "replay",
                     "-m", "chord and midi and zero and standalone", "--no-report",
                     "--run-dir", str(tmp_path / "r"))
        assert server.count == 0
    errors = {r["error_class"] for r in records(tmp_path / "r").values()}
    assert errors == {"backend_error"}
    assert result.returncode == FINISHED_BROKEN  # measured nothing: broken, not wrong answers


def test_a_killed_run_loses_no_answered_request(tmp_path):
    cache = tmp_path / "responses.sqlite"
    with FakeOpenAIServer(latency_s=0.05) as server:
        common = ["--model", "openai:qwen2-audio-7b", "--base-url", server.base_url,
                  "--cache-path", str(cache), *SLICE, "--concurrency", "4", "--no-report"]
        environment = {**os.environ}
        environment.pop("PYTEST_XDIST_WORKER", None)
        victim = subprocess.Popen(bench_cmd(*common, "--run-dir", str(tmp_path / "killed")),
                                  cwd=REPO, env=environment, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while server.count < 40 and time.monotonic() < deadline:
            time.sleep(0.05)
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        answered = sqlite3.connect(cache).execute("SELECT COUNT(*) FROM responses").fetchone()[0]
        assert 0 < answered
        before = _settled_count(server)  # a request the victim sent may still be read after it died
        resumed = run(*common, "--run-dir", str(tmp_path / "resumed"))
        assert resumed.returncode in (0, 1)
        resumed_records = records(tmp_path / "resumed")
        distinct = {t["request_hash"] for r in resumed_records.values() for t in r["turns"]}
        assert server.count - before == len(distinct) - answered, "answered requests asked again"
    assert len(resumed_records) == 132


def _settled_count(server, quiet_s: float = 1.0, limit_s: float = 15.0) -> int:
    """The server's request count once it has not changed for ``quiet_s``: a killed client's
    last request can sit in the socket and be counted a moment after the client is gone (on a
    loaded machine the resume was then charged with it)."""
    deadline = time.monotonic() + limit_s
    count, since = server.count, time.monotonic()
    while time.monotonic() < deadline and time.monotonic() - since < quiet_s:
        time.sleep(0.05)
        if server.count != count:
            count, since = server.count, time.monotonic()
    return count


def test_no_api_key_in_any_artifact(slice_run):
    result = slice_run.result
    assert any(r.headers.get("authorization") == f"Bearer {SECRET}"
               for r in slice_run.server.requests)
    assert result.returncode in (0, 1)
    assert SECRET not in result.stdout + result.stderr
    artifacts = [p for p in slice_run.root.rglob("*") if p.is_file()]
    assert any(p.name == "report.html" for p in artifacts)
    assert any(p.name == "report.json" for p in artifacts)
    for path in artifacts:
        assert SECRET.encode() not in path.read_bytes(), path


def test_gemini_pro_runs_every_core_trial_against_a_fake_and_reruns_for_free(tmp_path):
    from tests_solvers.fakes.gemini_server import FakeGeminiServer

    cache = tmp_path / "responses.sqlite"
    with FakeGeminiServer(api_key=SECRET, keep_bodies=False) as server:
        env = {"GEMINI_API_KEY": SECRET, "GEMINI_BASE_URL": server.base_url}
        # every core trial under make e2e; make test: the zero-shot standalone ones of all
        # tasks and modalities (168)
        sample, expected = ([], 1008) if FULL_E2E else (["-m", "zero and standalone"], 168)
        # one process each (Gemini under xdist: test_xdist_workers_split_the_prefetch_...)
        common = ["--model", "gemini-pro", "--cache-path", str(cache), *sample]
        first = run(*common, "--run-dir", str(tmp_path / "a"), env=env, timeout_s=1200)
        assert first.returncode in (0, 1), first.stdout[-3000:] + first.stderr[-3000:]
        assert f"eartest prefetch: {expected} trials" in first.stdout
        sent = server.generate_count
        # the re-run's records are all that is read
        second = run(*common, "--no-report", "--run-dir", str(tmp_path / "b"), env=env,
                     timeout_s=1200)
        assert server.generate_count == sent, "the second run must send no request"
    a, b = records(tmp_path / "a"), records(tmp_path / "b")
    assert len(a) == len(b) == expected
    assert {r["model_id"] for r in a.values()} == {"gemini-2.5-pro"}
    assert all(r["error_class"] != "backend_error" for r in a.values())
    assert second.returncode == first.returncode
    summary = json.loads((tmp_path / "a" / "summary.json").read_text())
    assert summary["header"]["models"]["gemini-pro"]["key_from"] == "GEMINI_API_KEY"
    assert summary["usage"]["gemini-pro"]["estimated_cost_usd"] > 0


def test_xdist_workers_split_the_prefetch_within_one_concurrency_budget(tmp_path):
    """Under -n 2 each worker prefetches half the trials with its share of --concurrency; the
    tests start only when both are done, so every test body is answered from the cache."""
    from tests_solvers.fakes.gemini_server import FakeGeminiServer

    with FakeGeminiServer(api_key=SECRET, keep_bodies=False, latency_s=0.05) as server:
        env = {"GEMINI_API_KEY": SECRET, "GEMINI_BASE_URL": server.base_url}
        result = run("--model", "gemini-pro", "--cache-path", str(tmp_path / "c.sqlite"),
                     *SLICE, "-n", "2", "--concurrency", "3", "--no-report",
                     "--run-dir", str(tmp_path / "run"), env=env)
        sent, peak = server.generate_count, server.max_in_flight
    assert result.returncode in (0, 1), result.stdout[-3000:] + result.stderr[-3000:]
    assert "eartest prefetch: 132 trials, up to 3 requests in flight, split over 2 workers" \
        in result.stdout
    assert "eartest prefetch gemini-pro: 132/132 done, 0 in flight" in result.stdout
    assert peak == 3  # 2 + 1 slots: both workers at once, never more than the one budget
    by_trial = records(tmp_path / "run")
    assert len(by_trial) == 132
    turns = [turn for record in by_trial.values() for turn in record["turns"]]
    # Each request asked once: a test body that ran before the prefetch finished would have
    # asked its own again. (The prefetch's answers are this run's, so none reads as cached.)
    assert not any(turn["cached"] for turn in turns)
    assert sent == len({turn["request_hash"] for turn in turns}) < len(turns)  # equal repairs
    # the account counts each request the server got once, whichever worker read it back
    assert f"eartest: gemini-pro: {sent} new requests" in result.stdout
    assert sum(record["new_requests"] for record in by_trial.values()) == sent


def test_a_second_run_under_xdist_replays_every_turn_and_counts_no_new_request(tmp_path):
    """Issue 27: against a cache a first run filled, every turn of a second run (repeated
    repairs too) is a replay of an earlier run's answer: cached, and 0 new requests."""
    cache, model = tmp_path / "c.sqlite", "openai:gpt-4o-audio-preview"
    with FakeOpenAIServer() as server:
        common = ["--model", model, "--base-url", server.base_url, "--cache-path", str(cache),
                  "-m", "chord and midi and zero and logiclm", "-n", "2", "--no-report"]
        first = run(*common, "--run-dir", str(tmp_path / "a"), env={"OPENAI_API_KEY": SECRET})
        sent = server.count
        second = run(*common, "--run-dir", str(tmp_path / "b"), env={"OPENAI_API_KEY": SECRET})
        assert server.count == sent, "the second run must send nothing"
    assert first.returncode in (0, 1), first.stdout[-3000:] + first.stderr[-3000:]
    assert second.returncode == first.returncode, second.stdout[-3000:]
    a, b = records(tmp_path / "a"), records(tmp_path / "b")
    turns = [turn for record in b.values() for turn in record["turns"]]
    assert len(b) == len(a) == 44 and len(turns) > sent  # repeated repairs are among them
    assert all(turn["cached"] for turn in turns)
    assert sum(record["new_requests"] for record in b.values()) == 0
    assert f"eartest: {model}: {sent} new requests" in first.stdout
    assert f"eartest: {model}: 0 new requests (estimated $0.0000 at list prices), " \
        f"{len(turns)} answered from the cache" in second.stdout


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["single", "xdist"])
def test_collect_only_sends_no_request(tmp_path, workers):
    with FakeOpenAIServer() as server:
        result = run("--model", "openai:qwen2-audio-7b", "--base-url", server.base_url,
                     "--cache-path", str(tmp_path / "c.sqlite"), *SLICE, "--co", *workers)
        assert server.count == 0
    assert result.returncode == 0 and "132/1008 tests collected" in result.stdout
