"""Retries sit above the rate limiter (issue 15): every attempt, a retry too, pays ``--rpm``,
for every provider through the one ``RetryingBackend``."""

from __future__ import annotations

import asyncio
import itertools
import os
import subprocess
import sys
import time
from pathlib import Path

from fixtures.backends.base import Request, Response
from fixtures.backends.retry import RetryCounter, RetryingBackend, RetryPolicy, Transient
from fixtures.rate_limit import RateLimiter
from tests_solvers import CORE_BENCH
from tests_solvers.fakes.openai_server import FakeOpenAIServer, server_error

REPO = Path(__file__).resolve().parent.parent


class FailsFirst:
    """A provider whose first ``failures`` attempts fail with a retryable error."""

    name = model_id = "fails-first"
    offline = False
    max_audio_parts = None

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.attempted_at: list[float] = []

    async def attempt(self, request: Request) -> Response:
        self.attempted_at.append(time.monotonic())
        if len(self.attempted_at) <= self.failures:
            raise Transient("HTTP 503")
        return Response("Final Answer: A")


def test_every_attempt_waits_for_the_rate_limit():
    provider, counter = FailsFirst(failures=2), RetryCounter()
    no_backoff = RetryPolicy(max_attempts=3, initial_delay_s=0.0)
    backend = RetryingBackend(provider, no_backoff, counter, RateLimiter(200).acquire)  # 0.3 s
    response = asyncio.run(backend.generate(Request(system="", turns=())))
    assert response.text == "Final Answer: A" and counter.retries == 2
    gaps_s = [b - a for a, b in itertools.pairwise(provider.attempted_at)]
    assert len(gaps_s) == 2 and all(gap >= 0.29 for gap in gaps_s), gaps_s


def test_without_a_limit_retries_follow_the_backoff_alone():
    provider = FailsFirst(failures=1)
    backend = RetryingBackend(provider, RetryPolicy(initial_delay_s=0.0), RetryCounter())
    asyncio.run(backend.generate(Request(system="", turns=())))
    (gap_s,) = [b - a for a, b in itertools.pairwise(provider.attempted_at)]
    assert gap_s < 0.2


def test_a_run_spaces_a_retry_by_its_rpm(tmp_path):
    """20 requests a minute: one every 3 s. The retry after a 503 waits for its slot, although
    the backoff alone (at most 1 s for a first retry) would have sent it sooner."""
    with FakeOpenAIServer() as server:
        server.enqueue(server_error(503))
        env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
        env["OPENAI_API_KEY"] = "sk-test-rpm"
        result = subprocess.run(
            [sys.executable, "-m", "pytest", *CORE_BENCH, "-q", "-p", "no:cacheprovider",
             "--no-report", "--model", "openai:qwen2-audio-7b", "--base-url", server.base_url,
             "--cache-path", str(tmp_path / "c.sqlite"), "--rpm", "20",
             "-m", "chord and midi and zero and standalone", "-k", "chord45",
             "--run-dir", str(tmp_path / "run")],
            cwd=REPO, capture_output=True, text=True, timeout=300, env=env)
        times = [r.received_at for r in server.requests]
    assert result.returncode in (0, 1), result.stdout[-3000:] + result.stderr[-3000:]
    assert len(times) == 2, "one failed attempt and its retry"
    # The first attempt left when its slot came (t = 0) but reached the server only after the
    # SDK's client was made; the retry's slot is 3 s after the first. Backoff alone: <= 1 s.
    assert times[1] - times[0] >= 2.0
