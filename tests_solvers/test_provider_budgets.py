"""Budgets per provider (issue 15): with several models in one run, each provider (endpoint and
key) gets its own ``--concurrency`` and its own ``--rpm``, two models of one provider share
them; retries sit above the rate limiter for every provider, so an always-failing server gets
exactly ``--max-attempts`` per trial and every attempt pays ``--rpm``.

The end-to-end tests run the benchmark in a subprocess against both fake servers at once,
which count what they received and hold.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from fixtures.backends.base import GenerationSettings, Request, Response
from fixtures.backends.retry import RetryCounter
from fixtures.running.runner import Trial
from fixtures.sending.prefetch import Progress, prefetch_trials
from fixtures.sending.rate_limit import RateLimiter
from fixtures.tasks.catalog import items_for
from reports.gate.exit_status import FINISHED_BROKEN
from tests_solvers import CORE_BENCH, PYTEST
from tests_solvers.fakes import gemini_server as gemini_fake
from tests_solvers.fakes import openai_server as openai_fake

REPO = Path(__file__).resolve().parent.parent
KEY = "sk-test-provider-budgets"
# 10 chord trials of one request each per model (both fakes answer "Final Answer: A").
SLICE = ["-m", "chord and midi and zero and standalone", "-k", "chord4 or chord5"]
TRIALS = 10
GEMINI, OPENAI = "gemini-pro", "openai:qwen2-audio-7b"


# -- the engine and the limiter ---------------------------------------------------------------
class Provider:
    """Counts the calls in flight of every backend that names it."""

    def __init__(self) -> None:
        self.in_flight = self.peak = 0


class SlowBackend:
    """A model of ``provider`` that answers after ``delay_s``."""

    offline = False
    max_audio_parts = None

    def __init__(self, name: str, provider: Provider, provider_name: str) -> None:
        self.name = self.model_id = name
        self.provider = provider_name
        self.counts = provider

    async def generate(self, request: Request) -> Response:
        self.counts.in_flight += 1
        self.counts.peak = max(self.counts.peak, self.counts.in_flight)
        await asyncio.sleep(0.02)
        self.counts.in_flight -= 1
        return Response("Final Answer: A", "stop")


def trials_of(models: list[str], per_model: int) -> list[Trial]:
    items = items_for("chord", "test")
    return [Trial(model, "midi", "zero", "standalone", items[i])
            for model in models for i in range(per_model)]


def prefetch(backends: dict[str, SlowBackend], trials: list[Trial], concurrency: int) -> None:
    progress = Progress(total=len(trials), counter=RetryCounter())
    asyncio.run(prefetch_trials(trials, backends.__getitem__, GenerationSettings(), concurrency,
                                progress, lambda _: None, interval_s=10))
    assert progress.done == len(trials) and progress.failed == 0


def test_two_providers_each_reach_their_own_concurrency_at_once():
    a, b, both = Provider(), Provider(), Provider()

    class Both(SlowBackend):  # also counts the calls of the two providers together
        async def generate(self, request: Request) -> Response:
            both.in_flight += 1
            both.peak = max(both.peak, both.in_flight)
            try:
                return await super().generate(request)
            finally:
                both.in_flight -= 1

    backends = {"m1": Both("m1", a, "p-a"), "m2": Both("m2", b, "p-b")}
    prefetch(backends, trials_of(["m1", "m2"], 12), concurrency=3)
    assert (a.peak, b.peak, both.peak) == (3, 3, 6)


def test_two_models_of_one_provider_share_its_concurrency():
    shared = Provider()
    backends = {"m1": SlowBackend("m1", shared, "p"), "m2": SlowBackend("m2", shared, "p")}
    prefetch(backends, trials_of(["m1", "m2"], 12), concurrency=3)
    assert shared.peak == 3


def test_each_provider_has_its_own_request_schedule():
    limiter = RateLimiter(120)  # one request every 0.5 s per provider

    async def times_s() -> dict[str, list[float]]:
        seen: dict[str, list[float]] = {"a": [], "b": []}

        async def one(provider: str) -> None:
            await limiter.acquire(provider)
            seen[provider].append(time.monotonic())

        await asyncio.gather(*(one(p) for p in ("a", "b", "a", "b", "a", "b")))
        return seen

    seen = asyncio.run(times_s())
    for provider in ("a", "b"):
        gaps_s = [y - x for x, y in itertools.pairwise(seen[provider])]
        assert all(gap >= 0.45 for gap in gaps_s), (provider, gaps_s)
    # Three slots each take 1 s per provider; one schedule for both would take 2.5 s.
    span_s = max(max(t) for t in seen.values()) - min(min(t) for t in seen.values())
    assert span_s < 1.75, span_s


# -- end to end, against both fake servers ----------------------------------------------------
def run_bench(tmp_path: Path, gemini_url: str, openai_url: str, *args: str,
              while_running: Callable[[], None] | None = None) -> subprocess.CompletedProcess:
    """The benchmark in a subprocess; ``while_running`` is called until it ends."""
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    env.update(GEMINI_API_KEY=KEY, GEMINI_BASE_URL=gemini_url, OPENAI_API_KEY=KEY,
               OPENAI_BASE_URL=openai_url)
    env.pop("GOOGLE_API_KEY", None)
    cmd = [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider",
           "--no-report", "--cache-path", str(tmp_path / "responses.sqlite"),
           "--run-dir", str(tmp_path / "run"), *SLICE, *args]
    with subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True) as process:
        if while_running is not None:
            while process.poll() is None:
                while_running()
                time.sleep(0.005)
        out, _ = process.communicate(timeout=600)
    return subprocess.CompletedProcess(cmd, process.returncode, out, "")


def test_each_provider_of_a_run_reaches_its_own_concurrency(tmp_path):
    joint_peak = [0]
    with gemini_fake.FakeGeminiServer(latency_s=0.3, keep_bodies=False) as gemini, \
            openai_fake.FakeOpenAIServer(latency_s=0.3) as openai:

        def watch() -> None:
            joint_peak[0] = max(joint_peak[0], gemini.in_flight + openai.in_flight)

        result = run_bench(tmp_path, gemini.base_url, openai.base_url,
                           "--model", f"{GEMINI},{OPENAI}", "--concurrency", "3",
                           while_running=watch)
        counts = (gemini.generate_count, openai.count)
        peaks = (gemini.max_in_flight, openai.max_in_flight)
    assert result.returncode in (0, 1), result.stdout[-3000:]
    assert counts == (TRIALS, TRIALS)
    assert peaks == (3, 3)
    assert joint_peak[0] == 6, "both providers at their own concurrency at the same time"


def test_rpm_applies_per_provider(tmp_path):
    """20 requests a minute: one every 3 s per provider. Three trials of each model: each
    provider's requests wait 3 s for their slots, but the providers do not wait for each other
    (one shared schedule would spread the six requests over 15 s). A request reaches its
    server some time after its slot (the SDK client is made then; on a loaded machine Gemini's
    first call took 3.7 s and a later one 0.7 s), so the gap counted is the one after the
    second, with a second of slack (without a limit it would be ~0 s)."""
    with gemini_fake.FakeGeminiServer(keep_bodies=False) as gemini, \
            openai_fake.FakeOpenAIServer() as openai:
        result = run_bench(tmp_path, gemini.base_url, openai.base_url,
                           "--model", f"{GEMINI},{OPENAI}", "--rpm", "20",
                           "-k", "chord45 or chord47 or chord48")
        times_s = {"gemini": [r.time_s for r in gemini.requests_of("generate")],
                   "openai": [r.received_at for r in openai.requests]}
    assert result.returncode in (0, 1), result.stdout[-3000:]
    assert {name: len(t) for name, t in times_s.items()} == {"gemini": 3, "openai": 3}
    for name, (_, second, third) in times_s.items():
        assert third - second >= 2.0, (name, third - second)
    every = sorted(t for three in times_s.values() for t in three)
    assert every[-1] - every[0] < 9.0, [t - every[0] for t in every]


def test_an_always_failing_gemini_gets_exactly_max_attempts_per_trial(tmp_path):
    """(test_prefetch_results.py has the same for the OpenAI-compatible provider.)"""
    with gemini_fake.FakeGeminiServer(
            keep_bodies=False, responder=lambda _: gemini_fake.server_error(503)) as gemini, \
            openai_fake.FakeOpenAIServer() as openai:
        result = run_bench(tmp_path, gemini.base_url, openai.base_url, "--model", GEMINI,
                           "--max-attempts", "2")
        sent = gemini.generate_count
    # Nothing measured: the run ends broken, not as wrong answers.
    assert result.returncode == FINISHED_BROKEN, result.stdout[-3000:]
    assert sent == 2 * TRIALS, f"{sent} attempts for {TRIALS} trials with --max-attempts 2"


@pytest.mark.parametrize("model", [GEMINI, OPENAI])
def test_a_retry_pays_the_rpm_for_every_provider(tmp_path, model):
    """15 requests a minute: one every 4 s. The retry after a 503 waits for its slot, although
    the backoff alone (at most 1 s for a first retry) would have sent it sooner. (The first
    attempt leaves after its client is open, so a slow SDK import does not shorten the gap.)"""
    with gemini_fake.FakeGeminiServer(keep_bodies=False) as gemini, \
            openai_fake.FakeOpenAIServer() as openai:
        gemini.script(gemini_fake.server_error(503))
        openai.enqueue(openai_fake.server_error(503))
        result = run_bench(tmp_path, gemini.base_url, openai.base_url, "--model", model,
                           "--rpm", "15", "-k", "chord45")
        if model == GEMINI:
            times_s = [r.time_s for r in gemini.requests_of("generate")]
        else:
            times_s = [r.received_at for r in openai.requests]
    assert result.returncode in (0, 1), result.stdout[-3000:]
    assert len(times_s) == 2, "one failed attempt and its retry"
    assert times_s[1] - times_s[0] >= 2.0
