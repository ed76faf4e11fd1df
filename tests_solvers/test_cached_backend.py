"""The caching wrapper and its keys: cache modes, what is stored, what changes a key.

(The SQLite file under it, with many processes, SIGKILL and bad files:
test_response_cache.py.)
"""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

from fixtures.backends.base import (
    AnswerKey,
    Backend,
    BackendError,
    GenerationSettings,
    MediaPart,
    Request,
    Response,
    TextPart,
    Turn,
)
from fixtures.backends.offline import OracleBackend
from fixtures.backends.scripted import ScriptedBackend
from fixtures.sending.cached_backend import CACHE_MODES, CachedBackend, cache_key
from fixtures.sending.response_cache import ResponseCache

SHA_A, SHA_B = "a" * 64, "b" * 64


@dataclasses.dataclass(frozen=True)
class RepeatSettings(GenerationSettings):
    """What a later change may add: settings that carry a repeat index."""

    repeat_index: int = 0


def _request(
    system: str = "You are a listener.",
    text: str = "Which chord is this?",
    sha256: str = SHA_A,
    settings: GenerationSettings | None = None,
    answer_key: AnswerKey | None = None,
) -> Request:
    media = MediaPart(path=Path("/nonexistent.wav"), sha256=sha256, mime_type="audio/wav")
    turn = Turn(role="user", parts=(TextPart(text), media))
    return Request(system, (turn,), settings or GenerationSettings(), answer_key)


def _cached(tmp_path: Path, mode: str = "use", replies=None, script=None):
    inner = ScriptedBackend(script=script or (lambda r: f"reply to {r.turns[0].text}"))
    if replies is not None:
        inner = ScriptedBackend(replies=replies)
    cache = ResponseCache(tmp_path / "cache" / "responses.sqlite")
    return CachedBackend(inner, cache, mode, "scripted", None), inner, cache


def _ask(backend: Backend, request: Request) -> Response:
    return asyncio.run(backend.generate(request))


# -- modes ----------------------------------------------------------------------------------


def test_hit_is_marked_cached_and_second_pass_sends_nothing(tmp_path):
    backend, inner, cache = _cached(tmp_path)
    requests = [_request(text=f"question {i}") for i in range(5)] + [_request(text="question 0")]
    first = [_ask(backend, r) for r in requests]
    assert [r.cached for r in first] == [False] * 5 + [True]
    assert (backend.hits, backend.misses, backend.stores) == (1, 5, 5)
    calls = len(inner.requests)
    second = [_ask(backend, r) for r in requests]
    assert len(inner.requests) == calls  # zero requests on the re-run
    assert all(r.cached for r in second)
    assert [r.text for r in second] == [r.text for r in first]
    assert cache.count() == 5


def test_a_fresh_process_view_sees_stored_answers(tmp_path):
    backend, _, cache = _cached(tmp_path)
    _ask(backend, _request())
    cache.close()
    again = CachedBackend(ScriptedBackend(replies=[]), ResponseCache(cache.path), "use", "scripted")
    assert _ask(again, _request()) == Response("reply to Which chord is this?", cached=True)


def test_refresh_always_asks_and_overwrites(tmp_path):
    backend, inner, cache = _cached(tmp_path, replies=["old"])
    _ask(backend, _request())
    refresh = CachedBackend(ScriptedBackend(replies=["new"]), cache, "refresh", "scripted")
    got = _ask(refresh, _request())
    assert (got.text, got.cached) == ("new", False)
    assert refresh.inner.requests and (refresh.hits, refresh.stores) == (0, 1)
    assert _ask(backend, _request()) == Response("new", cached=True)
    assert cache.count() == 1


def test_off_never_reads_or_writes(tmp_path):
    backend, inner, cache = _cached(tmp_path, replies=["a", "b"])
    off = CachedBackend(inner, cache, "off", "scripted")
    assert [_ask(off, _request()).text for _ in range(2)] == ["a", "b"]
    assert cache.count() == 0
    no_file = CachedBackend(ScriptedBackend(replies=["c"]), None, "off", "scripted")
    assert _ask(no_file, _request()).text == "c"
    with pytest.raises(ValueError, match="needs a ResponseCache"):
        CachedBackend(inner, None, "use", "scripted")


def test_replay_hits_and_refuses_misses_without_asking(tmp_path):
    backend, _, cache = _cached(tmp_path)
    _ask(backend, _request())
    never = ScriptedBackend(replies=[])  # any call would fail the test
    replay = CachedBackend(never, cache, "replay", "scripted")
    assert _ask(replay, _request()).cached
    with pytest.raises(BackendError, match=r"^replay: no cached response for this request \("):
        _ask(replay, _request(text="never asked"))
    assert never.requests == [] and (replay.hits, replay.misses) == (1, 1)


@pytest.mark.parametrize(
    ("finish_reason", "stored"),
    [
        ("stop", True),
        ("length", True),
        ("empty", False),  # issue 27 defect 9: an empty reply is no answer; never replayed
        ("error", False),
        ("safety", False),
        ("recitation", False),
        ("other", False),
    ],
)
def test_only_real_answers_are_stored(tmp_path, finish_reason, stored):
    reply = Response("partial" if finish_reason in ("stop", "length") else "", finish_reason)
    backend, inner, cache = _cached(tmp_path, replies=[reply, reply])
    assert _ask(backend, _request()) == reply
    assert (cache.count(), backend.stores) == ((1, 1) if stored else (0, 0))
    _ask(backend, _request())
    assert len(inner.requests) == (1 if stored else 2)


def test_this_runs_answers_read_back_are_not_cached_and_are_sent_once(tmp_path):
    """Issue 27: ``cached`` means an earlier run stored the answer. This run's own answer read
    back (a repair equal to an earlier round, a test body after the prefetch, another xdist
    worker) is not cached, whichever process reads it first, and is not asked again; counting
    it once is the reports' job (test_new_requests.py)."""
    inner = ScriptedBackend(script=lambda r: "reply")
    cache = ResponseCache(tmp_path / "responses.sqlite")
    backend = CachedBackend(inner, cache, "use", "scripted", None, run="this-run")
    first, repeat = _ask(backend, _request()), _ask(backend, _request())
    assert len(inner.requests) == 1
    assert (first.cached, repeat.cached) == (False, False)
    other = CachedBackend(ScriptedBackend(replies=[]), cache, "use", "scripted", None,
                          run="this-run")  # another worker of the same run
    assert [_ask(other, _request()).cached for _ in range(2)] == [False, False]
    later = CachedBackend(ScriptedBackend(replies=[]), cache, "use", "scripted", None,
                          run="next-run")
    assert _ask(later, _request()).cached and not later.inner.requests


def test_refresh_asks_each_request_once_per_run(tmp_path):
    """``--cache refresh`` asks again what earlier runs stored, but a request this run already
    sent (an equal repair) is read back: the server gets each request once per run."""
    cache = ResponseCache(tmp_path / "responses.sqlite")
    _ask(CachedBackend(ScriptedBackend(replies=["old"]), cache, "use", "scripted", None,
                       run="earlier"), _request())
    refresh = CachedBackend(ScriptedBackend(replies=["new", "never"]), cache, "refresh",
                            "scripted", None, run="this-run")
    answers = [_ask(refresh, _request()) for _ in range(3)]
    assert [(a.text, a.cached) for a in answers] == [("new", False)] * 3
    assert len(refresh.inner.requests) == 1 and (refresh.hits, refresh.stores) == (2, 1)


def test_backend_errors_propagate_and_are_not_stored(tmp_path):
    def fail(request: Request) -> str:
        raise BackendError("gave up after 6 attempts")

    backend, _, cache = _cached(tmp_path, script=fail)
    with pytest.raises(BackendError, match="gave up"):
        _ask(backend, _request())
    assert cache.count() == 0


def test_wrapper_speaks_the_backend_protocol(tmp_path):
    backend, inner, _ = _cached(tmp_path)
    assert isinstance(backend, Backend)
    assert (backend.name, backend.model_id, backend.offline, backend.max_audio_parts) == (
        inner.name, inner.model_id, inner.offline, inner.max_audio_parts,
    )
    assert backend.requests is inner.requests  # anything else is the inner backend's
    with pytest.raises(ValueError, match="valid modes: use, refresh, off, replay"):
        CachedBackend(inner, None, "sometimes", "scripted")
    assert CACHE_MODES == ("use", "refresh", "off", "replay")


def test_a_whole_trial_runs_from_the_cache_the_second_time(tmp_path):
    from fixtures.running.runner import Trial, run_trial_sync
    from fixtures.tasks.catalog import items_for

    class Counting(OracleBackend):
        calls = 0

        async def generate(self, request: Request) -> Response:
            Counting.calls += 1
            return await super().generate(request)

    cache = ResponseCache(tmp_path / "c.sqlite")
    backend = CachedBackend(Counting(), cache, "use", "oracle")
    trial = Trial("oracle", "midi", "zero", "cot", items_for("chord", "test")[0])
    first = run_trial_sync(backend, trial, GenerationSettings())
    second = run_trial_sync(backend, trial, GenerationSettings())
    assert first.correct and second.correct and Counting.calls == 1
    assert [t.cached for t in second.turns] == [True]
    assert second.turns[0].text == first.turns[0].text


# -- keys -----------------------------------------------------------------------------------

BASE = dict(backend_kind="gemini", model_id="gemini-2.5-pro", base_url=None, request=_request())
CHANGES = {
    "backend kind": dict(backend_kind="openai_compat"),
    "model id": dict(model_id="gemini-2.5-flash"),
    "base url": dict(base_url="http://localhost:8000/v1"),
    "system text": dict(request=_request(system="You are a musician.")),
    "text part": dict(request=_request(text="Which chord is that?")),
    "media sha256": dict(request=_request(sha256=SHA_B)),
    "temperature": dict(request=_request(settings=GenerationSettings(temperature=0.7))),
    "max tokens": dict(request=_request(settings=GenerationSettings(max_output_tokens=512))),
    "seed": dict(request=_request(settings=GenerationSettings(seed=1))),
    "repeat index": dict(repeat_index=1),
}


@pytest.mark.parametrize("what", CHANGES)
def test_key_changes_with(what):
    assert cache_key(**{**BASE, **CHANGES[what]}) != cache_key(**BASE)


def test_key_ignores_answer_key_and_is_stable():
    key = AnswerKey(correct="A", correct_reply="A", replies=(("A", "A"), ("B", "B")))
    assert cache_key(**{**BASE, "request": _request(answer_key=key)}) == cache_key(**BASE)
    assert cache_key(**BASE) == cache_key(**BASE) and len(cache_key(**BASE)) == 64
    trailing = cache_key(**{**BASE, "base_url": "http://h/v1/"})
    assert trailing == cache_key(**{**BASE, "base_url": "http://h/v1"})
    assert cache_key(**BASE, variant={}) == cache_key(**BASE)
    assert cache_key(**BASE, variant={"thinking_budget": 0}) != cache_key(**BASE)


def test_repeat_index_is_read_from_settings(tmp_path):
    backend, inner, _ = _cached(tmp_path, replies=["first", "second"])
    first = _request(settings=RepeatSettings(repeat_index=0))
    second = _request(settings=RepeatSettings(repeat_index=1))
    assert first.request_hash() == second.request_hash()  # not (yet) in the request hash
    assert backend.key_for(first) == backend.key_for(_request())
    assert [_ask(backend, r).text for r in (first, second, first, second)] == [
        "first", "second", "first", "second",
    ]
    assert len(inner.requests) == 2
