"""The OpenAI-compatible backend, driven through the real ``openai`` SDK against a fake server.

Requests are built from real eartest items, so what is checked on the wire (roles, audio
bytes, settings) is what a benchmark run sends. Retry delays are tiny to keep this fast.
"""

from __future__ import annotations

import asyncio
import base64
import email.utils
import time
import traceback
from collections.abc import Iterator
from pathlib import Path

import pytest

from fixtures.backends.base import (
    Backend,
    BackendError,
    GenerationSettings,
    MediaPart,
    Request,
    Response,
    TextPart,
    Turn,
)
from fixtures.backends.openai_compat import (
    OpenAICompatBackend,
    input_caveats,
    max_tokens_parameter,
    retry_after_s,
)
from fixtures.backends.options import BackendOptions
from fixtures.backends.retry import RetryCounter, RetryPolicy
from fixtures.tasks.catalog import items_for
from fixtures.tasks.prompting import build_request
from tests_solvers.fakes.openai_server import (
    FakeOpenAIServer,
    Step,
    completion,
    content_filter,
    dribbling,
    empty_choices,
    error,
    length,
    malformed_json,
    not_json,
    rate_limited,
    server_error,
    slow,
    text,
)

KEY = "sk-test-SECRET-0123456789abcdef"
VLLM_MODEL = "Qwen/Qwen2-Audio-7B-Instruct"
FAST = RetryPolicy(max_attempts=4, max_total_s=10.0, initial_delay_s=0.001, max_delay_s=0.01)


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


def make_backend(
    server: FakeOpenAIServer,
    model_id: str = VLLM_MODEL,
    timeout_s: float = 5.0,
    policy: RetryPolicy = FAST,
    counter: RetryCounter | None = None,
    api_key: str = KEY,
) -> OpenAICompatBackend:
    options = BackendOptions(base_url=server.base_url, timeout_s=timeout_s, retry=policy)
    return OpenAICompatBackend("test-model", model_id, api_key, options, counter)


@pytest.fixture(scope="module")
def few_shot_audio() -> Request:
    """A two-clip transposition trial with worked examples: the richest request shape."""
    item = items_for("transposition", "test")[0]
    return build_request(item, "audio", "few", "cot", GenerationSettings())


@pytest.fixture(scope="module")
def zero_shot_audio() -> Request:
    item = items_for("chord", "test")[0]
    return build_request(item, "audio", "zero", "standalone", GenerationSettings())


def generate(backend: OpenAICompatBackend, request: Request) -> Response:
    return asyncio.run(backend.generate(request))


def test_backend_speaks_the_protocol(server: FakeOpenAIServer) -> None:
    backend = make_backend(server)
    assert isinstance(backend, Backend)
    assert (backend.name, backend.model_id, backend.offline) == ("test-model", VLLM_MODEL, False)
    assert backend.max_audio_parts is None


def test_success_gives_text_tokens_and_stop(server, zero_shot_audio) -> None:
    server.enqueue(text("Final Answer: B", prompt_tokens=321, completion_tokens=4))
    response = generate(make_backend(server), zero_shot_audio)
    assert response.text == "Final Answer: B"
    assert response.finish_reason == "stop"
    assert (response.input_tokens, response.output_tokens) == (321, 4)
    assert response.latency_s > 0 and not response.cached and response.error is None


def test_body_carries_system_few_shot_roles_audio_and_settings(server, few_shot_audio) -> None:
    generate(make_backend(server), few_shot_audio)
    (recorded,) = server.requests
    assert recorded.path == "/v1/chat/completions"
    assert recorded.headers["authorization"] == f"Bearer {KEY}"
    body = recorded.body
    assert body["model"] == VLLM_MODEL
    assert (body["temperature"], body["top_p"], body["seed"]) == (0.0, 1.0, 0)
    assert body["max_tokens"] == 2048 and "max_completion_tokens" not in body

    messages = body["messages"]
    assert messages[0] == {"role": "system", "content": few_shot_audio.system}
    roles = [m["role"] for m in messages[1:]]
    assert roles == ["assistant" if t.role == "model" else "user" for t in few_shot_audio.turns]
    assert roles.count("assistant") >= 1 and roles[-1] == "user"

    audio_count = 0
    for message, turn in zip(messages[1:], few_shot_audio.turns, strict=True):
        if turn.role == "model":
            assert message["content"] == turn.text
            continue
        assert len(message["content"]) == len(turn.parts)
        for sent, part in zip(message["content"], turn.parts, strict=True):
            if isinstance(part, TextPart):
                assert sent == {"type": "text", "text": part.text}
            else:
                assert sent["type"] == "input_audio"
                assert sent["input_audio"]["format"] == "wav"
                decoded = base64.b64decode(sent["input_audio"]["data"], validate=True)
                assert decoded == Path(part.path).read_bytes()
                audio_count += 1
    assert audio_count == len(few_shot_audio.media_parts()) >= 4


def test_openai_models_get_max_completion_tokens(server, zero_shot_audio) -> None:
    generate(make_backend(server, model_id="gpt-4o-audio-preview"), zero_shot_audio)
    body = server.requests[0].body
    assert body["max_completion_tokens"] == 2048 and "max_tokens" not in body


def test_images_are_sent_as_data_urls(server, tmp_path) -> None:
    png = tmp_path / "score.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\nfake")
    part = MediaPart(png, "0" * 64, "image/png")
    request = Request(system="", turns=(Turn("user", (TextPart("Read this."), part)),))
    generate(make_backend(server), request)
    messages = server.requests[0].body["messages"]
    assert [m["role"] for m in messages] == ["user"]  # no empty system message
    image = messages[0]["content"][1]
    expected = "data:image/png;base64," + base64.b64encode(png.read_bytes()).decode()
    assert image == {"type": "image_url", "image_url": {"url": expected}}


@pytest.mark.parametrize("header", ["retry-after", "retry-after-ms"])
def test_429_waits_as_long_as_retry_after_says(server, zero_shot_audio, header) -> None:
    counter = RetryCounter()
    server.enqueue(rate_limited(0.3, header=header), text("Final Answer: C"))
    response = generate(make_backend(server, counter=counter), zero_shot_audio)
    assert response.text == "Final Answer: C"
    first, second = server.requests
    assert second.received_at - first.received_at >= 0.29
    assert (counter.retries, counter.gave_up) == (1, 0)


def test_500_then_success(server, zero_shot_audio) -> None:
    server.enqueue(server_error(500), server_error(503), text("Final Answer: D"))
    assert generate(make_backend(server), zero_shot_audio).text == "Final Answer: D"
    assert server.count == 3


def test_timeout_then_success(server, zero_shot_audio) -> None:
    server.enqueue(slow(8.0), text("Final Answer: B"))
    started = time.monotonic()
    response = generate(make_backend(server, timeout_s=0.3), zero_shot_audio)
    assert response.text == "Final Answer: B"
    assert server.count == 2 and time.monotonic() - started < 6.0  # did not wait out the 8 s


def test_request_timeout_is_a_deadline_for_the_whole_request(server, zero_shot_audio) -> None:
    """Issue 27 defect 10: a server sending one byte every 0.5 s never trips a read timeout;
    --request-timeout still ends each attempt, and the retries, in about its time."""
    policy = RetryPolicy(max_attempts=2, initial_delay_s=0.001, max_delay_s=0.01)
    server.enqueue(dribbling(0.5), dribbling(0.5))
    started = time.monotonic()
    with pytest.raises(BackendError, match=r"gave up after 2 attempts.*within 1 s"):
        generate(make_backend(server, timeout_s=1.0, policy=policy), zero_shot_audio)
    assert time.monotonic() - started < 5.0  # the body alone takes some 100 s to dribble
    assert server.count == 2


def test_retries_exhausted_raise_backend_error(server, zero_shot_audio) -> None:
    counter = RetryCounter()
    policy = RetryPolicy(max_attempts=3, initial_delay_s=0.001, max_delay_s=0.01)
    server.enqueue(*[server_error(502)] * 5)
    with pytest.raises(BackendError, match=r"gave up after 3 attempts.*HTTP 502"):
        generate(make_backend(server, policy=policy, counter=counter), zero_shot_audio)
    assert server.count == 3
    assert (counter.retries, counter.gave_up) == (2, 1)


def test_retry_after_beyond_the_budget_gives_up_at_once(server, zero_shot_audio) -> None:
    policy = RetryPolicy(max_attempts=5, max_total_s=1.0, initial_delay_s=0.001)
    server.enqueue(rate_limited(30.0))
    with pytest.raises(BackendError, match="HTTP 429"):
        generate(make_backend(server, policy=policy), zero_shot_audio)
    assert server.count == 1


@pytest.mark.parametrize(
    ("step", "finish_reason", "reply"),
    [
        (content_filter(), "safety", ""),
        (length("Let me count the semitones"), "length", "Let me count the semitones"),
        (empty_choices(), "empty", ""),
        (text("   "), "empty", "   "),
        (Step(body=completion("", finish_reason="tool_calls")), "other", ""),
    ],
)
def test_finish_reasons(server, zero_shot_audio, step, finish_reason, reply) -> None:
    server.enqueue(step)
    response = generate(make_backend(server), zero_shot_audio)
    assert (response.finish_reason, response.text) == (finish_reason, reply)


@pytest.mark.parametrize("bad_body", [malformed_json(), not_json()])
def test_a_body_that_is_not_json_is_retried(server, zero_shot_audio, bad_body) -> None:
    counter = RetryCounter()
    server.enqueue(bad_body, text("Final Answer: A"))
    response = generate(make_backend(server, counter=counter), zero_shot_audio)
    assert response.text == "Final Answer: A" and server.count == 2 and counter.retries == 1


def test_401_is_a_clear_error_without_the_key(server, zero_shot_audio) -> None:
    server.enqueue(error(401, f"Incorrect API key provided: {KEY}."))
    with pytest.raises(BackendError) as caught:
        generate(make_backend(server), zero_shot_audio)
    message = str(caught.value)
    assert "API key rejected" in message and "HTTP 401" in message
    assert KEY not in message and "\n" not in message
    assert server.count == 1  # not retried


def test_404_names_the_model(server, zero_shot_audio) -> None:
    server.enqueue(error(404, "The model `no-such-model` does not exist."))
    with pytest.raises(BackendError, match="model 'no-such-model' not found"):
        generate(make_backend(server, model_id="no-such-model"), zero_shot_audio)
    assert server.count == 1


def test_other_4xx_carries_the_server_message_scrubbed(server, zero_shot_audio) -> None:
    server.enqueue(error(400, f"Unsupported value: 'temperature' (key {KEY})"))
    with pytest.raises(BackendError, match="Unsupported value: 'temperature'") as caught:
        generate(make_backend(server), zero_shot_audio)
    assert KEY not in str(caught.value) and "[redacted]" in str(caught.value)


def test_the_key_never_leaks(server, zero_shot_audio) -> None:
    backend = make_backend(server)
    shown: list[str] = [repr(backend), str(backend), repr(vars(backend))]
    failures = [
        [error(401, f"bad key {KEY}")],
        [error(400, f"bad request {KEY}")],
        [error(404, f"missing {KEY}")],
        [error(500, f"boom {KEY}")] * 4,
        [slow(2.0)] * 4,
    ]
    for steps in failures:
        server.enqueue(*steps)
        fast_timeout = make_backend(server, timeout_s=0.2)
        with pytest.raises(BackendError) as caught:
            generate(fast_timeout, zero_shot_audio)
        shown += [str(caught.value), repr(caught.value)]
        shown += traceback.format_exception(caught.value)
    server.enqueue(text("Final Answer: A"))
    shown.append(repr(generate(backend, zero_shot_audio)))
    assert not [s for s in shown if KEY in s]
    assert all(r.headers["authorization"] == f"Bearer {KEY}" for r in server.requests)


def test_an_empty_key_is_sent_as_vllm_expects(server, zero_shot_audio) -> None:
    generate(make_backend(server, api_key=""), zero_shot_audio)
    assert server.requests[0].headers["authorization"] == "Bearer EMPTY"


def test_one_backend_serves_successive_event_loops(server, zero_shot_audio) -> None:
    backend = make_backend(server)
    assert [generate(backend, zero_shot_audio).text for _ in range(3)] == ["Final Answer: A"] * 3
    assert len(backend._clients) == 0  # each loop's client was closed as asyncio.run ended it


def test_aclose_closes_the_running_loops_client(server, zero_shot_audio) -> None:
    backend = make_backend(server)

    async def use_then_close() -> str:
        reply = (await backend.generate(zero_shot_audio)).text
        await backend.aclose()
        assert len(backend._clients) == 0
        return reply + (await backend.generate(zero_shot_audio)).text  # reopens on demand

    assert asyncio.run(use_then_close()) == "Final Answer: A" * 2


def test_64_requests_in_flight_at_once() -> None:
    """All 64 requests sit in the server together; serially they would take 64 × latency."""
    latency_s = 0.5
    request = Request(system="s", turns=(Turn("user", (TextPart("Which chord?"),)),))
    with FakeOpenAIServer(latency_s=latency_s) as fake:
        backend = make_backend(fake)

        async def burst() -> list[Response]:
            return await asyncio.gather(*(backend.generate(request) for _ in range(64)))

        started = time.monotonic()
        responses = asyncio.run(burst())
        elapsed_s = time.monotonic() - started
        assert [r.text for r in responses] == ["Final Answer: A"] * 64
        assert fake.count == 64 and fake.max_in_flight == 64
        assert elapsed_s < 64 * latency_s / 4  # generous: the machine may be busy


def test_scripting_by_function_and_default() -> None:
    def script(recorded):
        return text(f"echo {recorded.body['seed']}") if recorded.body["seed"] == 7 else None

    request = Request(system="s", turns=(Turn("user", (TextPart("hi"),)),))
    with FakeOpenAIServer(script=script) as fake:
        backend = make_backend(fake)
        seeded = Request(request.system, request.turns, GenerationSettings(seed=7))
        assert generate(backend, seeded).text == "echo 7"
        assert generate(backend, request).text == "Final Answer: A"
        assert fake.pending == 0 and fake.count == 2


@pytest.mark.parametrize(
    ("model_id", "needles"),
    [
        ("Qwen/Qwen2-Audio-7B-Instruct", ("mono", "16 kHz", "first 30 s")),
        ("Qwen/Qwen2.5-Omni-7B", ("mono", "16 kHz", "--limit-mm-per-prompt")),
        ("gpt-4o-audio-preview", ("wav or mp3",)),
        ("gpt-4o-mini-audio-preview-2024-12-17", ("wav or mp3",)),
    ],
)
def test_input_caveats_of_known_families(model_id: str, needles: tuple[str, ...]) -> None:
    caveats = input_caveats(model_id)
    assert caveats and all(isinstance(c, str) and "\n" not in c for c in caveats)
    for needle in needles:
        assert any(needle in c for c in caveats), needle


def test_unknown_models_have_no_caveats() -> None:
    assert input_caveats("some-org/text-only-llm") == []


@pytest.mark.parametrize(
    ("model_id", "parameter"),
    [
        ("gpt-4o-audio-preview", "max_completion_tokens"),
        ("o4-mini", "max_completion_tokens"),
        ("Qwen/Qwen2.5-Omni-7B", "max_tokens"),
        ("openai/gpt-oss-20b", "max_tokens"),  # an open model served by vLLM
    ],
)
def test_max_tokens_parameter(model_id: str, parameter: str) -> None:
    assert max_tokens_parameter(model_id) == parameter


def test_retry_after_header_forms() -> None:
    assert retry_after_s({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert retry_after_s({"retry-after": "1.5"}) == 1.5
    assert retry_after_s({}) is None and retry_after_s({"retry-after": "soon"}) is None
    date = email.utils.formatdate(time.time() + 20, usegmt=True)
    assert 15 < retry_after_s({"retry-after": date}) <= 20
