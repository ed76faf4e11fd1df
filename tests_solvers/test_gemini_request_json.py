"""The Gemini request body written as JSON by eartest (issue 33): byte for byte what the SDK
would send for the same body, without the JSON encoder running over the media's base64."""

# ruff: noqa: F811 (test arguments name the fixtures imported from gemini_fixtures)
from __future__ import annotations

import base64
import json

import pytest

from fixtures.backends import gemini_rest
from fixtures.backends.base import GenerationSettings, Request, TextPart, Turn
from fixtures.backends.gemini_rest import request_body, request_json
from tests_solvers.gemini_fixtures import (  # noqa: F401 (pytest fixtures by name)
    KEY,
    MODEL,
    audio_request,
    make,
    midi_request,
    run,
    server,
)


def _awkward(audio: Request) -> Request:
    """The audio request with text that JSON must escape (quotes, backslashes, non-ASCII, a
    newline) and that looks like the placeholder the body is written with."""
    text = 'Ré "dièse"\\n eartest-media-00000000-0 \u266f\n'
    turns = (Turn("user", (TextPart(text), *audio.turns[0].parts)), *audio.turns[1:])
    return Request(system=audio.system + " \u00e9\"", turns=turns, settings=audio.settings)


@pytest.mark.parametrize("thinking", [None, {"thinking_budget": 128}])
def test_request_json_is_the_dumped_body(audio_request, midi_request, thinking):
    """Few-shot audio (five WAVs), MIDI text, escapes and non-ASCII, media by URI: the bytes
    equal ``json.dumps`` of the body, which is what the SDK does with a dict body."""
    awkward = _awkward(audio_request)
    uris = {p.sha256: f"https://files.example/{p.sha256[:8]}" for p in awkward.media_parts()}
    for request, file_uris in [(audio_request, None), (midi_request, None), (awkward, None),
                               (awkward, uris)]:
        body = request_body(request, thinking, file_uris)
        assert request_json(request, thinking, file_uris) == json.dumps(body).encode("utf-8")
    assert len(audio_request.media_parts()) == 5


def test_the_encoder_never_sees_the_media(audio_request, monkeypatch):
    """The point of writing the JSON ourselves: no string the encoder is given is as long as
    a clip's base64 (it scans each character for escapes)."""
    longest: list[int] = []
    dumps = json.dumps

    def watched(value, **kwargs):
        def strings(node):
            if isinstance(node, str):
                yield node
            elif isinstance(node, dict):
                for item in node.values():
                    yield from strings(item)
            elif isinstance(node, list):
                for item in node:
                    yield from strings(item)
        longest.append(max(map(len, strings(value))))
        return dumps(value, **kwargs)

    monkeypatch.setattr(gemini_rest.json, "dumps", watched)
    sent = request_json(audio_request, None)
    shortest_clip = min(len(p.base64(urlsafe=True)) for p in audio_request.media_parts())
    assert longest and max(longest) < 1000 < shortest_clip
    assert len(sent) > 5 * shortest_clip  # the clips are in the bytes all the same


def test_the_backend_sends_those_bytes_through_the_sdk(server, audio_request):
    """On the wire (the real SDK's transport against the fake): the request's bytes are the
    dumped body, at the SDK's URL with its key and JSON content type."""
    request = Request(audio_request.system, audio_request.turns, GenerationSettings(seed=3))
    reply = run(make(server).generate(request))
    (sent,) = server.requests_of("generate")
    assert sent.body == json.dumps(request_body(request, None)).encode("utf-8")
    assert sent.path == f"/v1beta/models/{MODEL}:generateContent"
    assert sent.headers["x-goog-api-key"] == KEY
    assert sent.headers["content-type"] == "application/json"
    assert reply.finish_reason == "stop" and reply.text


def test_each_clip_is_encoded_once_while_it_fits(tmp_path, monkeypatch):
    """A run cycles through its clips once per shot and strategy: each is encoded once while
    the memo's size allows (a memo of 32 entries encoded the core run's 114 clips 534 times),
    and the oldest goes first when it does not."""
    import hashlib

    from fixtures.backends import base

    encoded: list[str] = []
    real = base._base64_of

    def counted(path: str, sha256: str, urlsafe: bool) -> str:
        encoded.append(path)
        return real(path, sha256, urlsafe)

    monkeypatch.setattr(base, "_base64_of", counted)
    monkeypatch.setattr(base, "_BASE64_MEMO", base._Base64Memo(limit_chars=40 * 1400))
    parts = []
    for index in range(40):
        data = index.to_bytes(2, "big") * 500  # 1,000 bytes: 1,336 characters of base64
        (path := tmp_path / f"clip{index}.wav").write_bytes(data)
        parts.append(base.MediaPart(path, hashlib.sha256(data).hexdigest(), "audio/wav"))
    for _ in range(3):
        assert [base64.urlsafe_b64decode(p.base64(urlsafe=True)) for p in parts] == \
            [p.read_bytes() for p in parts]
    assert len(encoded) == 40
    base._BASE64_MEMO.limit_chars = 10 * 1400  # ten fit: the next clip drops the oldest
    (path := tmp_path / "new.wav").write_bytes(b"new" * 300)
    base.MediaPart(path, hashlib.sha256(b"new" * 300).hexdigest(), "audio/wav").base64()
    assert base._BASE64_MEMO.chars <= 10 * 1400 and len(encoded) == 41
    parts[-1].base64(urlsafe=True)  # among the most recent: still held
    assert len(encoded) == 41
    parts[0].base64(urlsafe=True)  # the oldest: dropped, encoded again
    assert len(encoded) == 42 and encoded[-1] == str(parts[0].path)
