"""Honest accounting of a network run (issue 14, items 13 and 20): new requests and their cost
apart from replays of earlier runs, a cost estimate before the first request, and a prefetch
that stays concurrent under ``--cache off``.

The benchmark runs in a subprocess against the fake OpenAI-compatible server, which counts
requests and the most it held at once.
"""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
from pathlib import Path

import pytest

from fixtures.sending.prefetch import Tally
from fixtures.sending.progress_display import ProgressDisplay
from tests_solvers import CORE_BENCH, PYTEST, trial_row
from tests_solvers.fakes.openai_server import FakeOpenAIServer, Step, text

REPO = Path(__file__).resolve().parent.parent
SLICE = ["-m", "chord and midi and zero and standalone"]  # 44 trials, one request each
PRICED = "openai:gpt-4o-audio-preview"  # listed in fixtures/backends/pricing.py


def run(*args: str, timeout_s: float = 600) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    env["OPENAI_API_KEY"] = "sk-test-accounting"
    cmd = [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider", *args]
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=timeout_s,
                          env=env)


def records(run_dir: Path) -> list[dict]:
    return [trial_row(line) for line in (run_dir / "trials.jsonl").read_text().splitlines()]


# -- item 13 ----------------------------------------------------------------------------------
def test_issue14_item13_new_requests_and_their_cost_apart_from_replays(tmp_path):
    cache = tmp_path / "responses.sqlite"
    with FakeOpenAIServer(latency_s=0.01) as server:
        common = ["--model", PRICED, "--base-url", server.base_url, "--cache-path", str(cache),
                  *SLICE, "--concurrency", "4"]
        first = run(*common, "--run-dir", str(tmp_path / "a"))
        sent = server.count
        second = run(*common, "--run-dir", str(tmp_path / "b"))
        assert server.count == sent, "the re-run must send nothing"
    assert first.returncode in (0, 1), first.stdout[-3000:] + first.stderr[-3000:]
    assert sent >= 44
    fresh = json.loads((tmp_path / "a" / "summary.json").read_text())["usage"][PRICED]
    again = json.loads((tmp_path / "b" / "summary.json").read_text())["usage"][PRICED]
    # The prefetch asked the network in this run: none of it is a replay.
    assert (fresh["new_requests"], fresh["cached_requests"]) == (sent, 0)
    assert fresh["new_cost_usd"] > 0
    assert fresh["new_cost_usd"] == pytest.approx(fresh["estimated_cost_usd"])
    # The re-run replays everything: no new request, no new cost, the results' cost unchanged.
    assert (again["new_requests"], again["cached_requests"]) == (0, sent)
    assert again["new_cost_usd"] == 0
    assert again["estimated_cost_usd"] == pytest.approx(fresh["estimated_cost_usd"])
    assert all(not t["cached"] for r in records(tmp_path / "a") for t in r["turns"])
    assert all(t["cached"] for r in records(tmp_path / "b") for t in r["turns"])
    # A cost estimate before the first request, the spend as it goes, the new spend at the end.
    out = first.stdout
    estimate = out.index("estimated cost")
    assert estimate < out.index("eartest prefetch")
    assert "$" in out[out.index("eartest prefetch"):]
    assert f"eartest: {PRICED}: {sent} new requests" in out
    assert f"eartest: {PRICED}: 0 new requests" in second.stdout
    assert f"{sent} answered from the cache" in second.stdout


# -- item 20 ----------------------------------------------------------------------------------
@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["single", "xdist"])
def test_issue14_item20_cache_off_keeps_the_prefetch_concurrent(tmp_path, workers):
    cache = tmp_path / "responses.sqlite"
    with FakeOpenAIServer(latency_s=0.1) as server:
        result = run("--model", "openai:qwen2-audio-7b", "--base-url", server.base_url,
                     "--cache", "off", "--cache-path", str(cache), *SLICE, "--concurrency", "4",
                     "--no-report", "--run-dir", str(tmp_path / "run"), *workers)
        sent, peak = server.count, server.max_in_flight
    assert result.returncode in (0, 1), result.stdout[-3000:] + result.stderr[-3000:]
    assert "eartest prefetch: 44 trials" in result.stdout
    # One process keeps all 4 in flight; two workers hold 2 each, at once when both are up.
    assert peak == 4 if not workers else peak >= 2, "the prefetch must run concurrently"
    turns = [turn for record in records(tmp_path / "run") for turn in record["turns"]]
    assert len(turns) == 44
    assert sent == len({turn["request_hash"] for turn in turns}), "a request was asked twice"
    assert not cache.exists(), "--cache off must not write the response cache"


# -- item 14 ----------------------------------------------------------------------------------
class FakeClock:
    def __init__(self) -> None:
        self.now_s = 0.0

    def __call__(self) -> float:
        return self.now_s


class Screen(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_issue14_item14_plain_lines_at_each_tenth_not_every_update():
    clock, out = FakeClock(), Screen(tty=False)
    display = ProgressDisplay("gemini-pro", 200, out, tty=False, clock=clock)
    for done in range(1, 201):  # an update every half second, one trial each
        clock.now_s += 0.5
        display.update(Tally(total=200, done=done, in_flight=4, elapsed_s=clock.now_s,
                             spend_usd=done * 0.001))
    display.close(Tally(total=200, done=200, elapsed_s=clock.now_s, spend_usd=0.2))
    lines = out.getvalue().splitlines()
    assert 10 <= len(lines) <= 11, lines
    assert lines[0].startswith("eartest prefetch gemini-pro: 20/200 done")
    assert all("trials/s" in line and "spent" in line for line in lines)
    assert "$0.2000 spent" in lines[-1] and "200/200 done" in lines[-1]


def test_issue14_item14_a_stalled_run_prints_every_30_s_only():
    clock, out = FakeClock(), Screen(tty=False)
    display = ProgressDisplay("gemini-pro", 100, out, tty=False, clock=clock)
    for _ in range(60):  # two minutes of updates every 2 s, nothing finishing
        clock.now_s += 2.0
        display.update(Tally(total=100, done=3, in_flight=16, elapsed_s=clock.now_s))
    assert len(out.getvalue().splitlines()) == 4  # at 30, 60, 90 and 120 s


def test_issue14_item14_on_a_terminal_one_bar_updates_in_place():
    out = Screen(tty=True)
    display = ProgressDisplay("openai:gpt-4o-audio-preview", 50, out, tty=True)
    for done in range(1, 51):
        display.update(Tally(total=50, done=done, elapsed_s=done * 0.1, spend_usd=done * 0.01))
    display.close(Tally(total=50, done=50, elapsed_s=5.0, spend_usd=0.5))
    text = out.getvalue()
    assert "\r" in text and "openai:gpt-4o-audio-preview" in text
    assert text.count("\n") <= 2, "a terminal gets one bar, not a line per update"
    assert "50/50 done" in text and "$0.5000 spent" in text


def test_issue14_item14_progress_starts_on_its_own_line_under_xdist_on_a_terminal(tmp_path):
    """On a terminal xdist leaves "bringing up nodes..." without a newline: the prefetch's
    first line must not be glued to it."""
    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    env |= {"OPENAI_API_KEY": "sk-test", "COLUMNS": "160", "TERM": "xterm"}
    with FakeOpenAIServer(latency_s=0.02) as server:
        cmd = [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider",
               "--model", "openai:qwen2-audio-7b", "--base-url", server.base_url,
               "--cache-path", str(tmp_path / "c.sqlite"), *SLICE, "-n", "2", "--no-report",
               "--run-dir", str(tmp_path / "run")]
        child = subprocess.Popen(cmd, cwd=REPO, env=env, stdin=slave, stdout=slave,
                                 stderr=slave, close_fds=True)
        os.close(slave)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
        child.wait(timeout=300)
        os.close(master)
    screen = b"".join(chunks).decode("utf-8", "replace")
    assert "eartest prefetch: 44 trials" in screen, screen[-3000:]
    before = screen[:screen.index("eartest prefetch: 44 trials")]
    assert before.endswith("\n"), repr(before[-200:])


# -- issue 32: cost as billed ------------------------------------------------------------------
def test_issue32_the_billed_cost_is_the_sum_the_server_reported(tmp_path):
    """Each reply's usage says what it cost (OpenRouter's ``usage.cost``); the run records it
    per turn and trial and totals it, apart from the list-price estimate."""
    billed: list[float] = []

    def priced(_request) -> Step:
        cost = round(0.0001 * (1 + len(billed) % 7), 6)  # differing costs: a sum, not a count
        billed.append(cost)
        return text("Final Answer: A", cost_usd=cost)

    with FakeOpenAIServer(latency_s=0.01, script=priced) as server:
        result = run("--model", PRICED, "--base-url", server.base_url, "--cache", "off",
                     *SLICE, "--concurrency", "4", "--run-dir", str(tmp_path / "a"))
        sent = server.count
    assert result.returncode in (0, 1), result.stdout[-3000:] + result.stderr[-3000:]
    usage = json.loads((tmp_path / "a" / "summary.json").read_text())["usage"][PRICED]
    assert usage["new_requests"] == sent == len(billed) >= 44
    assert usage["billed_requests"] == sent
    assert usage["billed_cost_usd"] == pytest.approx(sum(billed))
    trials = records(tmp_path / "a")
    assert sum(r["billed_cost_usd"] for r in trials) == pytest.approx(sum(billed))
    assert sorted(t["cost_usd"] for r in trials for t in r["turns"]) == sorted(billed)
    assert usage["new_cost_usd"] > 0  # the estimate stays beside it
    assert f"eartest: {PRICED}: {sent} new requests (billed ${sum(billed):.4f})" in result.stdout


def test_issue32_without_a_reported_cost_the_estimate_is_labelled_as_one(tmp_path):
    with FakeOpenAIServer(latency_s=0.01) as server:
        result = run("--model", PRICED, "--base-url", server.base_url, "--cache", "off",
                     *SLICE, "--run-dir", str(tmp_path / "a"))
        sent = server.count
    usage = json.loads((tmp_path / "a" / "summary.json").read_text())["usage"][PRICED]
    assert usage["billed_cost_usd"] is None and usage["billed_requests"] == 0
    assert all("billed_cost_usd" not in r for r in records(tmp_path / "a"))
    assert f"{sent} new requests (estimated ${usage['new_cost_usd']:.4f} at list prices)" \
        in result.stdout
