"""What the Gemini backend puts on the wire, through the real google-genai SDK against the fake
server: the request body of real eartest items (system instruction, roles, inline WAV,
generation settings) is what the SDK itself would send, and the thinking configuration.
"""

# ruff: noqa: F811 (test arguments name the fixtures imported from gemini_fixtures)
from __future__ import annotations

import pytest

from fixtures.backends.base import BackendError, MediaPart, Request, TextPart
from tests_solvers.fakes.gemini_server import FakeGeminiServer, decode_bytes, field_of
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
