"""What the Gemini backend tests share: the fake server with its key and model, two requests
of real eartest items (few-shot audio and MIDI), and a backend with tiny retry delays."""

from __future__ import annotations

import asyncio

import pytest

from fixtures.backends.base import GenerationSettings, Request
from fixtures.backends.gemini import GeminiBackend
from fixtures.backends.options import BackendOptions
from fixtures.backends.retry import RetryCounter, RetryPolicy
from fixtures.tasks.catalog import items_for
from fixtures.tasks.prompting import build_request
from tests_solvers.fakes.gemini_server import FakeGeminiServer

KEY = "AIzaFAKE-test-key-0123456789"
MODEL = "gemini-2.5-flash"
FAST = RetryPolicy(max_attempts=4, max_total_s=10.0, initial_delay_s=0.01, max_delay_s=0.05)


@pytest.fixture
def server():
    with FakeGeminiServer(api_key=KEY, models={MODEL}) as running:
        yield running


@pytest.fixture(scope="module")
def audio_request() -> Request:
    item = items_for("chord", "test")[0]
    return build_request(item, "audio", "few", "cot", GenerationSettings())


@pytest.fixture(scope="module")
def midi_request() -> Request:
    item = items_for("syncopation", "test")[0]
    return build_request(item, "midi", "few", "logiclm", GenerationSettings(seed=7))


def make(
    server: FakeGeminiServer,
    *,
    key: str = KEY,
    model: str = MODEL,
    counter: RetryCounter | None = None,
    retry: RetryPolicy = FAST,
    timeout_s: float = 5.0,
    **kwargs,
) -> GeminiBackend:
    thinking = {k: kwargs.pop(k) for k in ("thinking_budget", "thinking_level") if k in kwargs}
    options = BackendOptions(base_url=server.base_url, timeout_s=timeout_s, retry=retry, **thinking)
    return GeminiBackend("gemini-test", model, key, options, counter, file_poll_s=0.01, **kwargs)


def run(coro):
    return asyncio.run(coro)
