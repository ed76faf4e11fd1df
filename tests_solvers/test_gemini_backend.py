"""GeminiBackend driven through the real google-genai SDK against a fake Gemini REST server.

The requests are those of real eartest items (few-shot, audio and MIDI): answers and finish
reasons, retries, the Files API path for media too large to inline, client errors and the
key, proxies, and the fake under load. (The request body on the wire: test_gemini_wire.py.)
Retry delays are tiny (``FAST``), so the file runs in a few seconds.
"""

# ruff: noqa: F811 (test arguments name the fixtures imported from gemini_fixtures)
from __future__ import annotations

import asyncio
import threading

import pytest

from fixtures.backends.base import BackendError, MediaPart
from fixtures.backends.gemini import GeminiBackend
from fixtures.backends.options import BackendOptions
from fixtures.backends.retry import RetryCounter, RetryPolicy
from tests_solvers.fakes import gemini_server as fake
from tests_solvers.fakes.gemini_server import FakeGeminiServer, field_of
from tests_solvers.gemini_fixtures import (  # noqa: F401 (pytest fixtures by name)
    FAST,
    KEY,
    MODEL,
    audio_request,
    make,
    midi_request,
    run,
    server,
)


# -- success and what goes on the wire ------------------------------------------------------
def test_success_text_tokens_and_finish(server, midi_request):
    server.script(fake.reply("I think.\nFinal Answer: B", thought="secret musing",
                             prompt_tokens=321, output_tokens=9, thoughts_tokens=40))
    response = run(make(server).generate(midi_request))
    assert response.text == "I think.\nFinal Answer: B"  # the thought part is left out
    assert (response.finish_reason, response.error) == ("stop", None)
    assert (response.input_tokens, response.output_tokens) == (321, 49)
    assert response.latency_s > 0 and not response.cached


def test_default_reply_when_script_is_empty(server, midi_request):
    assert run(make(server).generate(midi_request)).text == fake.DEFAULT_TEXT


# -- retries --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "limited", [fake.rate_limited(retry_delay_s=0.2), fake.rate_limited(None, retry_after_s=0.2)],
    ids=["retry-info", "retry-after-header"],
)
def test_429_waits_the_server_delay_then_succeeds(server, midi_request, limited):
    counter = RetryCounter()
    server.script(limited, fake.reply("Final Answer: C"))
    response = run(make(server, counter=counter).generate(midi_request))
    first, second = server.requests
    assert second.time_s - first.time_s >= 0.2
    assert response.text == "Final Answer: C" and response.latency_s >= 0.2
    assert (counter.retries, counter.gave_up) == (1, 0)


@pytest.mark.parametrize("status", [500, 503, 408])
def test_server_error_then_success(server, midi_request, status):
    server.script(fake.server_error(status), fake.reply("ok"))
    assert run(make(server).generate(midi_request)).text == "ok"
    assert server.generate_count == 2


def test_timeout_then_success(server, midi_request):
    counter = RetryCounter()
    server.script(fake.hang(1.5), fake.reply("after the timeout"))
    response = run(make(server, counter=counter, timeout_s=0.3).generate(midi_request))
    assert response.text == "after the timeout"
    assert counter.retries == 1
    first, second = server.requests
    # the hung request was given up at the 0.3 s deadline, not answered after 1.5 s
    assert second.time_s - first.time_s < 1.2


def test_retries_exhausted_raise_backend_error(server, midi_request):
    counter = RetryCounter()
    server.script(*[fake.server_error()] * 3)
    backend = make(server, counter=counter, retry=RetryPolicy(max_attempts=3, initial_delay_s=0.01))
    with pytest.raises(BackendError, match=r"gave up after 3 attempts .*HTTP 500"):
        run(backend.generate(midi_request))
    assert server.generate_count == 3 and (counter.retries, counter.gave_up) == (2, 1)


def test_malformed_json_is_retried(server, midi_request):
    server.script(fake.malformed_json(), fake.reply("fine now"))
    assert run(make(server).generate(midi_request)).text == "fine now"
    assert server.generate_count == 2


def test_json_of_the_wrong_shape_is_retried(server, midi_request):
    """Valid JSON that is not a GenerateContentResponse (a proxy's page, a changed API)."""
    server.script(fake.Action(body={"candidates": [{"content": {"parts": "oops"}}]}),
                  fake.Action(body={"candidates": "none"}), fake.reply("fine now"))
    assert run(make(server).generate(midi_request)).text == "fine now"
    assert server.generate_count == 3


def test_persistent_malformed_json_ends_in_backend_error(server, midi_request):
    server.script(*[fake.malformed_json()] * 2)
    backend = make(server, retry=RetryPolicy(max_attempts=2, initial_delay_s=0.01))
    with pytest.raises(BackendError, match="not valid JSON"):
        run(backend.generate(midi_request))


# -- finish reasons -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("action", "finish", "error_part"),
    [
        (fake.safety("SAFETY"), "safety", "SAFETY"),
        (fake.safety("PROHIBITED_CONTENT"), "safety", "PROHIBITED_CONTENT"),
        (fake.safety("SPII"), "safety", "SPII"),
        (fake.max_tokens("Step 1: the lowest note"), "length", "MAX_TOKENS"),
        (fake.reply("Final Answer: A", finish_reason="RECITATION"), "recitation", "RECITATION"),
        (fake.reply("Final Answer: A", finish_reason="LANGUAGE"), "other", "LANGUAGE"),
        (fake.reply("", finish_reason="STOP"), "empty", "no text"),
        (fake.empty_candidates(), "empty", "no candidate"),
        (fake.prompt_blocked("PROHIBITED_CONTENT"), "safety", "prompt was blocked"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_finish_reasons(server, midi_request, action, finish, error_part):
    server.script(action)
    response = run(make(server).generate(midi_request))
    assert response.finish_reason == finish
    assert error_part in (response.error or "")
    assert server.generate_count == 1  # an answered request is not retried
    if finish == "length":
        assert response.text == "Step 1: the lowest note" and response.output_tokens == 2048


# -- the Files API --------------------------------------------------------------------------
def test_media_over_the_inline_limit_go_through_the_files_api(server, audio_request):
    server.processing_polls = 2  # the fake refuses files that are not ACTIVE yet
    backend = make(server, inline_limit_bytes=1000)
    assert run(backend.generate(audio_request)).text == fake.DEFAULT_TEXT
    media = {p.sha256: p for p in audio_request.media_parts()}
    assert server.upload_count == len(media) == 5
    assert server.count("file_get") >= len(media)  # waited for PROCESSING -> ACTIVE
    (sent,) = server.requests_of("generate")
    for content, turn in zip(sent.json["contents"], audio_request.turns, strict=True):
        for part_json, part in zip(content["parts"], turn.parts, strict=True):
            if isinstance(part, MediaPart):
                assert field_of(part_json, "inlineData") is None
                file_data = field_of(part_json, "fileData")
                assert field_of(file_data, "mimeType") == "audio/wav"
                name = "files/" + field_of(file_data, "fileUri").rsplit("/", 1)[-1]
                assert server.file_bytes(name) == part.read_bytes()
    run(backend.generate(audio_request))  # the same audio again: no new upload
    assert server.upload_count == 5 and server.generate_count == 2


def test_concurrent_requests_share_one_upload_per_sha256(server, audio_request):
    backend = make(server, inline_limit_bytes=1000)

    async def many() -> list:
        return await asyncio.gather(*(backend.generate(audio_request) for _ in range(8)))

    assert all(r.finish_reason == "stop" for r in run(many()))
    assert server.upload_count == 5 and server.generate_count == 8


def test_under_the_inline_limit_nothing_is_uploaded(server, audio_request):
    run(make(server, inline_limit_bytes=50_000_000).generate(audio_request))
    assert server.upload_count == 0


# -- client errors and the key --------------------------------------------------------------
def test_403_is_a_clear_backend_error_without_retry(server, midi_request):
    server.script(fake.http_error(403, "Method doesn't allow unregistered callers."))
    with pytest.raises(BackendError) as caught:
        run(make(server).generate(midi_request))
    message = str(caught.value)
    assert message.startswith("the Gemini API rejected the key (HTTP 403")
    assert "\n" not in message and KEY not in message
    assert server.generate_count == 1


def test_invalid_key_is_a_clear_backend_error(server, midi_request):
    wrong = "AIzaWRONG-key-9876543210"
    with pytest.raises(BackendError, match=r"rejected the key \(HTTP 400") as caught:
        run(make(server, key=wrong).generate(midi_request))
    assert wrong not in str(caught.value)
    assert server.requests[0].headers["x-goog-api-key"] == wrong


def test_unknown_model_names_the_model(server, midi_request):
    with pytest.raises(BackendError, match="model 'gemini-9-nope' not found"):
        run(make(server, model="gemini-9-nope").generate(midi_request))


def test_other_4xx_is_not_retried(server, midi_request):
    server.script(fake.http_error(400, "Request contains an invalid argument."))
    with pytest.raises(BackendError, match=r"refused the request .*HTTP 400 INVALID_ARGUMENT"):
        run(make(server).generate(midi_request))
    assert server.generate_count == 1


def test_empty_key_is_refused():
    with pytest.raises(BackendError, match="empty"):
        GeminiBackend("gemini-test", MODEL, "  ", BackendOptions())


def test_the_key_never_leaks(server, midi_request):
    """Servers that echo the key in errors, every outcome, repr: the key appears nowhere."""
    backend = make(server, retry=RetryPolicy(max_attempts=2, initial_delay_s=0.01))
    texts = [repr(backend), str(backend)]
    echo = f"API key {KEY} is not allowed"
    scripts = [
        [fake.http_error(400, echo)],
        [fake.http_error(403, echo)],
        [fake.http_error(404, echo)],
        [fake.http_error(500, echo)] * 2,
        [fake.http_error(429, echo)] * 2,
        [fake.malformed_json()] * 2,
        [fake.safety()],
        [fake.reply("fine")],
    ]
    for script in scripts:
        server.script(*script)
        try:
            texts.append(repr(run(backend.generate(midi_request))))
        except BackendError as exc:
            texts.append(str(exc))
            texts.append(repr(exc))
    texts.append(repr(vars(backend)))
    assert any("[redacted]" in t for t in texts)
    assert not [t for t in texts if KEY in t]


# -- proxies from the environment -------------------------------------------------------------
def test_an_environment_proxy_is_used(server, midi_request, monkeypatch):
    """HTTP(S)_PROXY is honoured, as by the SDK's own session: here the fake server is the
    proxy for an API host that does not resolve."""
    for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", server.base_url)
    options = BackendOptions(base_url="http://gemini.invalid", retry=FAST)
    backend = GeminiBackend("gemini-test", MODEL, KEY, options)
    assert run(backend.generate(midi_request)).text == fake.DEFAULT_TEXT
    (sent,) = server.requests
    assert sent.headers["host"] == "gemini.invalid"
    assert sent.path == f"/v1beta/models/{MODEL}:generateContent"


@pytest.mark.parametrize(
    ("env", "url", "proxied"),
    [({}, "https://generativelanguage.googleapis.com/", False),
     ({"HTTPS_PROXY": "http://proxy:3128"}, "https://generativelanguage.googleapis.com/", True),
     ({"HTTPS_PROXY": "http://proxy:3128"}, "http://127.0.0.1:8080", False),
     ({"HTTPS_PROXY": "http://proxy:3128", "NO_PROXY": "googleapis.com"},
      "https://generativelanguage.googleapis.com/", False)],
)
def test_the_environment_is_read_only_when_it_names_a_proxy(monkeypatch, env, url, proxied):
    from fixtures.backends.gemini import _env_proxy_for

    for name in ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY",
                 "all_proxy", "NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert _env_proxy_for(url) is proxied


# -- the fake under load (what the throughput benchmark relies on) -------------------------
def test_many_requests_in_flight_at_once(midi_request):
    # The server holds every request until all 64 are in: only a client that keeps 64 open at
    # once gets its replies (a fixed latency could end before the last request left a loaded
    # machine's send lane, and a peak under 64 would then prove nothing)
    all_in = threading.Barrier(64, timeout=60)

    def hold_until_all_in(rec: fake.RecordedRequest) -> fake.Action:
        all_in.wait()
        return fake.reply("held together")

    with FakeGeminiServer() as slow:
        backend = make(slow)
        run(backend.generate(midi_request))  # the SDK is imported on a first request: not here
        slow.reset()
        slow.responder = hold_until_all_in

        async def burst() -> list:
            return await asyncio.gather(*(backend.generate(midi_request) for _ in range(64)))

        responses = run(burst())
    assert [r.text for r in responses] == ["held together"] * 64
    assert slow.max_in_flight == 64


def test_fake_server_responder_and_lean_records(midi_request):
    def respond(rec: fake.RecordedRequest) -> fake.Action:
        return fake.reply(f"answered by {rec.model}")

    with FakeGeminiServer(responder=respond, keep_bodies=False) as lean:
        lean.script(fake.reply("queued first"))
        backend = make(lean)
        texts = [run(backend.generate(midi_request)).text for _ in range(2)]
    assert texts == ["queued first", f"answered by {MODEL}"]
    assert lean.generate_count == 2 and lean.requests[0].json is None
