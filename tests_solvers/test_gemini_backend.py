"""GeminiBackend driven through the real google-genai SDK against a fake Gemini REST server.

The requests are those of real eartest items (few-shot, audio and MIDI), so the test checks
what the SDK really puts on the wire: system instruction, roles, inline WAV, generation
settings, thinking config, and the Files API path for media too large to inline. Retry
delays are tiny (``FAST``), so the file runs in a few seconds.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from fixtures.backends.base import BackendError, GenerationSettings, MediaPart, Request, TextPart
from fixtures.backends.gemini import GeminiBackend
from fixtures.backends.options import BackendOptions
from fixtures.backends.retry import RetryCounter, RetryPolicy
from fixtures.tasks.catalog import items_for
from fixtures.tasks.prompting import build_request
from tests_solvers.fakes import gemini_server as fake
from tests_solvers.fakes.gemini_server import FakeGeminiServer, decode_bytes, field_of

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


def test_midi_request_body(server, midi_request):
    run(make(server).generate(midi_request))
    (sent,) = server.requests
    assert sent.path == f"/v1beta/models/{MODEL}:generateContent"
    assert sent.headers["x-goog-api-key"] == KEY
    body = sent.json
    system_parts = field_of(body, "systemInstruction")["parts"]
    assert [p["text"] for p in system_parts] == [midi_request.system]
    assert [c["role"] for c in body["contents"]] == [t.role for t in midi_request.turns]
    assert midi_request.turns[1].role == "model"  # few-shot: worked answers come back as model
    for content, turn in zip(body["contents"], midi_request.turns, strict=True):
        assert [p["text"] for p in content["parts"]] == [p.text for p in turn.parts]
    config = field_of(body, "generationConfig")
    assert config == {"temperature": 0.0, "topP": 1.0, "maxOutputTokens": 2048, "seed": 7}


def test_audio_request_body_carries_inline_wav(server, audio_request):
    run(make(server).generate(audio_request))
    body = server.requests[0].json
    assert [c["role"] for c in body["contents"]] == [t.role for t in audio_request.turns]
    media_sent = []
    for content, turn in zip(body["contents"], audio_request.turns, strict=True):
        for part_json, part in zip(content["parts"], turn.parts, strict=True):
            if isinstance(part, TextPart):
                assert part_json == {"text": part.text}
                continue
            inline = field_of(part_json, "inlineData")
            assert field_of(inline, "mimeType") == "audio/wav"
            assert decode_bytes(inline["data"]) == part.read_bytes()
            media_sent.append(part)
    assert len(media_sent) == len(audio_request.media_parts()) == 5  # 4 examples + the trial
    assert server.upload_count == 0


def test_media_base64_is_memoised_by_content(tmp_path):
    """Both alphabets decode to the file's bytes; new content under the same path (a new
    content hash) is encoded afresh, never served from the memo."""
    import base64
    import hashlib

    path = tmp_path / "clip.wav"
    for data in (b"\xfb\xff\xfe first", b"\xfb\xff\xfe second"):
        path.write_bytes(data)
        part = MediaPart(path, hashlib.sha256(data).hexdigest(), "audio/wav")
        assert base64.b64decode(part.base64()) == data
        assert base64.urlsafe_b64decode(part.base64(urlsafe=True)) == data
        assert "+" in part.base64() and "-" in part.base64(urlsafe=True)


def sdk_typed_body(
    server: FakeGeminiServer, request: Request, uris: dict[str, str] | None = None, **config_extra
) -> dict:
    """What the SDK's ``models.generate_content`` sends for ``request`` built from its pydantic
    types (``types.Part``, ``types.GenerateContentConfig``), the way its documentation writes
    requests; media by URI when ``uris`` (sha256 -> file URI) is given."""
    from google import genai
    from google.genai import types

    def part_of(p):
        if isinstance(p, TextPart):
            return types.Part.from_text(text=p.text)
        if uris is not None:
            return types.Part.from_uri(file_uri=uris[p.sha256], mime_type=p.mime_type)
        return types.Part.from_bytes(data=p.read_bytes(), mime_type=p.mime_type)

    contents = [types.Content(role=turn.role, parts=[part_of(p) for p in turn.parts])
                for turn in request.turns]
    s = request.settings
    config = types.GenerateContentConfig(
        system_instruction=request.system, temperature=s.temperature, top_p=s.top_p,
        max_output_tokens=s.max_output_tokens, seed=s.seed,
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
        **config_extra,
    )
    http_options = types.HttpOptions(base_url=server.base_url, api_version="v1beta")

    async def send() -> None:
        client = genai.Client(api_key=KEY, http_options=http_options)
        await client.aio.models.generate_content(model=MODEL, contents=contents, config=config)
        await client.aio.aclose()

    run(send())
    return server.requests_of("generate")[-1].json


def sent_file_uris(body: dict, request: Request) -> dict[str, str]:
    """sha256 -> the file URI a Files-API request body gave for that media part."""
    uris = {}
    for content, turn in zip(body["contents"], request.turns, strict=True):
        for part_json, part in zip(content["parts"], turn.parts, strict=True):
            if isinstance(part, MediaPart):
                uris[part.sha256] = field_of(field_of(part_json, "fileData"), "fileUri")
    return uris


@pytest.mark.parametrize("which", ["midi", "audio", "files"])
def test_rest_body_is_what_the_sdk_would_send(server, midi_request, audio_request, which):
    """The backend writes the REST body itself (the SDK's conversion costs milliseconds of
    CPU a request); the JSON on the wire must be exactly what the SDK's typed path sends."""
    from google.genai import types

    request = midi_request if which == "midi" else audio_request
    limit = {"inline_limit_bytes": 1000} if which == "files" else {}
    for option, thinking in [
        ({"thinking_budget": 128}, types.ThinkingConfig(thinking_budget=128)),
        ({"thinking_level": "high"}, types.ThinkingConfig(thinking_level=types.ThinkingLevel.HIGH)),
    ]:
        run(make(server, **option, **limit).generate(request))
        ours = server.requests_of("generate")[-1].json
        uris = sent_file_uris(ours, request) if which == "files" else None
        assert ours == sdk_typed_body(server, request, uris, thinking_config=thinking)
    if which == "files":
        assert server.upload_count >= 5


@pytest.mark.parametrize(
    ("option", "expected"),
    [({"thinking_budget": 256}, {"thinkingBudget": 256}),
     ({"thinking_budget": 0}, {"thinkingBudget": 0}),
     ({"thinking_level": "low"}, {"thinkingLevel": "LOW"})],
)
def test_thinking_config(server, midi_request, option, expected):
    run(make(server, **option).generate(midi_request))
    thinking = field_of(field_of(server.requests[0].json, "generationConfig"), "thinkingConfig")
    ((name, value),) = expected.items()
    assert field_of(thinking, name) == value


def test_thinking_options_are_checked(server):
    with pytest.raises(BackendError, match="not both"):
        make(server, thinking_budget=10, thinking_level="low")
    with pytest.raises(BackendError, match="unknown thinking level 'loud'"):
        make(server, thinking_level="loud")


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
    # Requests leave one at a time (the send lane): the latency must outlast sending all 64
    # even on a loaded machine, or the first replies come back before the last request leaves.
    with FakeGeminiServer(latency_s=1.0) as slow:
        backend = make(slow)

        async def burst() -> list:
            return await asyncio.gather(*(backend.generate(midi_request) for _ in range(64)))

        started = time.monotonic()
        responses = run(burst())
        elapsed_s = time.monotonic() - started
    assert len(responses) == 64 and all(r.finish_reason == "stop" for r in responses)
    assert slow.max_in_flight == 64
    assert elapsed_s < 16  # a quarter of 64 × 1 s one after another (with room for a
    # loaded machine: the peak above is what shows all 64 were held at once)


def test_fake_server_responder_and_lean_records(midi_request):
    def respond(rec: fake.RecordedRequest) -> fake.Action:
        return fake.reply(f"answered by {rec.model}")

    with FakeGeminiServer(responder=respond, keep_bodies=False) as lean:
        lean.script(fake.reply("queued first"))
        backend = make(lean)
        texts = [run(backend.generate(midi_request)).text for _ in range(2)]
    assert texts == ["queued first", f"answered by {MODEL}"]
    assert lean.generate_count == 2 and lean.requests[0].json is None
