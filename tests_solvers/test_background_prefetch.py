"""The prefetch beside the test bodies (issue 33): in one process the prefetch runs in a thread
of its own and each test body takes its own trial's result as soon as that trial is done.

Unit tests drive :class:`PendingTrialStore` and :class:`BackgroundPrefetch` with a slow fake
backend; the end-to-end ones run the benchmark in a subprocess against the fake OpenAI server.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import threading
import time
from pathlib import Path

import pytest

from fixtures.backends.base import GenerationSettings, Request, Response
from fixtures.backends.retry import RetryCounter
from fixtures.running.runner import Trial, run_sync
from fixtures.running.trial_store import PendingTrialStore
from fixtures.sending.background import BackgroundPrefetch, Pump
from fixtures.sending.prefetch import Progress, prefetch_trials
from fixtures.sending.startup_guard import RunAborted
from fixtures.tasks.catalog import items_for
from tests_solvers import CORE_BENCH, PYTEST
from tests_solvers.fakes.openai_server import FakeOpenAIServer

REPO = Path(__file__).resolve().parent.parent
SLICE = ["-m", "chord and midi and zero and standalone"]  # 44 trials, one request each


class SlowBackend:
    """Answers after ``delay_s``; the first trial's request answers at once."""

    offline = False
    max_audio_parts = None
    provider = "slow"

    def __init__(self, delay_s: float) -> None:
        self.name = self.model_id = "slow"
        self.delay_s = delay_s
        self.answered = 0

    async def generate(self, request: Request) -> Response:
        await asyncio.sleep(self.delay_s if self.answered else 0)
        self.answered += 1
        return Response("Final Answer: A", "stop")


def trials(n: int) -> list[Trial]:
    items = items_for("chord", "test")
    return [Trial("slow", "midi", "zero", "standalone", items[i]) for i in range(n)]


def background(backend: SlowBackend, chosen: list[Trial], concurrency: int = 1):
    store = PendingTrialStore([(t.model, t.trial_id) for t in chosen])
    progress = Progress(total=len(chosen), counter=RetryCounter())
    coroutine = prefetch_trials(chosen, lambda _: backend, GenerationSettings(), concurrency,
                                progress, lambda _: None, interval_s=10, store=store.put,
                                settled=store.settle)
    return BackgroundPrefetch(coroutine, store).start(), store


def test_a_test_body_takes_its_result_while_later_trials_are_in_flight():
    chosen = trials(4)
    prefetch, store = background(SlowBackend(delay_s=0.5), chosen)
    first = store.take(chosen[0])
    assert first is not None and first.trial is chosen[0]
    assert not prefetch.over, "the first result must not wait for the whole prefetch"
    assert all(store.take(t) is not None for t in chosen[1:])  # each waits for its own
    prefetch.stop()
    assert prefetch.over and prefetch.error is None


def test_stop_cancels_what_is_in_flight_and_a_live_run_waits_for_the_loop():
    chosen = trials(3)
    backend = SlowBackend(delay_s=30)
    prefetch, store = background(backend, chosen)
    assert store.take(chosen[0]) is not None
    started = time.monotonic()
    prefetch.stop()  # the other two would take a minute
    assert time.monotonic() - started < 10 and prefetch.over
    assert isinstance(prefetch.error, asyncio.CancelledError)
    assert store.take(chosen[1]) is None  # not finished: its test body runs it live
    assert run_sync(asyncio.sleep(0, result="live")) == "live"  # the loop is free again


def test_a_trial_the_store_never_expected_is_not_waited_for():
    store = PendingTrialStore([("slow", "other")])
    assert store.take(trials(1)[0]) is None


def test_a_waiting_test_body_keeps_the_display_going_and_sees_an_abort():
    chosen = trials(1)
    calls: list[float] = []
    store = PendingTrialStore([(t.model, t.trial_id) for t in chosen], idle=lambda: calls.append(
        time.monotonic()), idle_every_s=0.01)
    threading.Timer(0.2, store.finish, kwargs={"aborted": "model 'slow': refused"}).start()
    with pytest.raises(RunAborted, match="refused"):
        store.take(chosen[0])
    assert len(calls) >= 3


def run(*args: str, path: Path, timeout_s: float = 600) -> subprocess.CompletedProcess:
    """The bench in a subprocess, with ``path`` on its PYTHONPATH (a probe plugin)."""
    environment = {**os.environ, "OPENAI_API_KEY": "sk-test", "PYTHONPATH": os.pathsep.join(
        filter(None, [str(path), os.environ.get("PYTHONPATH")]))}
    environment.pop("PYTEST_XDIST_WORKER", None)
    return subprocess.run([*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider", *args],
                          cwd=REPO, capture_output=True, text=True, timeout=timeout_s,
                          env=environment)


PROBE = '''
import threading

def pytest_runtest_setup(item):
    alive = any(t.name == "eartest-prefetch" for t in threading.enumerate())
    print(f"prefetch sending at a test: {alive}")
'''


def test_test_bodies_run_while_the_prefetch_sends_and_stop_with_the_run(tmp_path):
    (tmp_path / "overlap_probe.py").write_text(PROBE)
    with FakeOpenAIServer(latency_s=0.3) as server:
        common = ["--model", "openai:qwen2-audio-7b", "--base-url", server.base_url,
                  "--concurrency", "2", *SLICE, "--no-report", "-s", "-p", "overlap_probe"]
        whole = run(*common, "--cache-path", str(tmp_path / "a.sqlite"),
                    "--run-dir", str(tmp_path / "a"), path=tmp_path)
        asked = server.count
        stopped = run(*common, "--cache-path", str(tmp_path / "b.sqlite"), "--maxfail", "1",
                      "--run-dir", str(tmp_path / "b"), path=tmp_path)
    assert whole.returncode in (0, 1), whole.stdout[-3000:] + whole.stderr[-3000:]
    assert asked == 44 and len((tmp_path / "a" / "trials.jsonl").read_text().splitlines()) == 44
    assert "prefetch sending at a test: True" in whole.stdout  # the first tests overlap it
    assert "eartest prefetch openai:qwen2-audio-7b: 44/44 done" in whole.stdout
    # --maxfail 1 stops at the first wrong answer: the rest is not asked (22 s at this pace)
    assert stopped.returncode == 1 and server.count - asked < 44
    assert "Traceback" not in stopped.stdout + stopped.stderr


def test_the_display_is_fed_outside_pytests_capture_and_closed_once_at_the_end():
    chosen = trials(2)
    prefetch, store = background(SlowBackend(delay_s=0.3), chosen)
    shown: list[str] = []
    lifted: list[bool] = []

    class Display:
        def update(self, tally) -> None:
            shown.append(f"update {lifted[-1]}")

        def close(self, tally) -> None:
            shown.append(f"close {lifted[-1]}")

    class Uncaptured:
        def __enter__(self) -> None:
            lifted.append(True)

        def __exit__(self, *exc) -> None:
            lifted.append(False)

    pump = Pump(prefetch, Display(), lambda: None, interval_s=0.0, uncaptured=Uncaptured)
    store._idle, store._idle_every_s = pump, 0.05
    assert all(store.take(t) is not None for t in chosen)
    prefetch.stop()
    pump()
    pump()
    assert shown and all(line.endswith("True") for line in shown)  # written uncaptured
    assert shown[-1] == "close True" and shown.count("close True") == 1
