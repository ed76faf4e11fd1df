"""Retries sit above the rate limiter (issue 15): every attempt, a retry too, pays ``--rpm``,
for every provider through the one ``RetryingBackend``. (A whole run against each provider's
fake server: test_provider_budgets.py.)"""

from __future__ import annotations

import asyncio
import itertools
import time

from fixtures.backends.base import Request, Response
from fixtures.backends.retry import RetryCounter, RetryingBackend, RetryPolicy, Transient
from fixtures.sending.rate_limit import RateLimiter


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
    # Slots are 0.3 s apart; an attempt may start a little after its slot on a busy machine
    # (without the limit the gaps are ~0 s: no backoff).
    assert len(gaps_s) == 2 and all(gap >= 0.25 for gap in gaps_s), gaps_s


class SlowToOpen(FailsFirst):
    """A provider whose client takes a while to open (an SDK imported on first use)."""

    def __init__(self, open_s: float) -> None:
        super().__init__(failures=1)
        self.open_s = open_s
        self.prepared_at: list[float] = []

    async def prepare(self) -> None:
        if not self.prepared_at:
            await asyncio.sleep(self.open_s)
            self.prepared_at.append(time.monotonic())

    async def attempt(self, request: Request) -> Response:
        await self.prepare()  # as the real backends do: the client opens on first use
        return await super().attempt(request)


def test_the_client_opens_before_the_first_slot_is_taken():
    """A slow client start must not eat into the gap between the first attempt and its retry:
    the retry's slot is one interval after the first attempt actually left."""
    provider = SlowToOpen(open_s=0.3)
    no_backoff = RetryPolicy(max_attempts=2, initial_delay_s=0.0)
    backend = RetryingBackend(provider, no_backoff, RetryCounter(), RateLimiter(150).acquire)
    asyncio.run(backend.generate(Request(system="", turns=())))  # slots 0.4 s apart
    assert len(provider.prepared_at) == 1 and provider.prepared_at[0] <= provider.attempted_at[0]
    (gap_s,) = [b - a for a, b in itertools.pairwise(provider.attempted_at)]
    assert gap_s >= 0.35, gap_s  # without prepare() first: 0.4 - 0.3 s


def test_without_a_limit_retries_follow_the_backoff_alone():
    provider = FailsFirst(failures=1)
    backend = RetryingBackend(provider, RetryPolicy(initial_delay_s=0.0), RetryCounter())
    asyncio.run(backend.generate(Request(system="", turns=())))
    (gap_s,) = [b - a for a, b in itertools.pairwise(provider.attempted_at)]
    assert gap_s < 0.2

