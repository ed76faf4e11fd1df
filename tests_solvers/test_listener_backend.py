"""The listener as a backend: registered as an offline model and the default one, deaf to the
answer key and to few-shot examples, dispatching pitch questions, and right through the runner."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from fixtures.backends import OFFLINE_BACKENDS, BackendError, make_backend, resolve_model
from fixtures.backends.base import GenerationSettings, MediaPart, Question, Request, TextPart, Turn
from fixtures.backends.listener import LISTENER_VERSION, ListenerBackend
from fixtures.running import run_options
from fixtures.running.runner import Trial, run_sync, run_trial_sync
from fixtures.tasks.catalog import items_for
from fixtures.tasks.prompting import (
    DEFAULT_MODALITIES,
    MODALITIES,
    SHOTS,
    STRATEGIES,
    build_request,
)
from fixtures.tasks.spec import Item

SETTINGS = GenerationSettings()
TASKS = ("syncopation", "transposition", "chord")


@pytest.fixture(scope="module")
def listener() -> ListenerBackend:
    backend = make_backend("listener")
    assert isinstance(backend, ListenerBackend)
    return backend


def reply(backend: ListenerBackend, request: Request) -> str:
    return run_sync(backend.generate(request)).text


def sample_items() -> list[Item]:
    return [items_for(task, "test")[k] for task in TASKS for k in (0, 3)]


def test_listener_is_an_offline_model_and_the_default() -> None:
    spec = resolve_model("listener")
    assert spec.kind == "listener" and spec.offline
    assert "listener" in OFFLINE_BACKENDS
    assert run_options.DEFAULT_MODEL == "listener"


def test_backend_identity(listener: ListenerBackend) -> None:
    assert listener.name == "listener" and listener.offline
    assert listener.model_id == f"listener-{LISTENER_VERSION}"
    assert listener.max_audio_parts is None


@pytest.mark.parametrize("item", sample_items(), ids=lambda item: item.item_id)
def test_answers_do_not_depend_on_the_answer_key(listener, item: Item) -> None:
    for modality in MODALITIES:
        for shot in SHOTS:
            for strategy in STRATEGIES:
                request = build_request(item, modality, shot, strategy, SETTINGS)
                assert request.answer_key is not None
                blind = replace(request, answer_key=None)
                assert reply(listener, blind) == reply(listener, request)


@pytest.mark.parametrize("task", TASKS)
def test_few_shot_examples_are_not_its_stimulus(listener, task: str) -> None:
    item = items_for(task, "test")[1]
    for strategy in STRATEGIES:
        zero = build_request(item, "audio", "zero", strategy, SETTINGS)
        few = build_request(item, "audio", "few", strategy, SETTINGS)
        assert len(few.media_parts()) > len(zero.media_parts())
        assert reply(listener, few) == reply(listener, zero)


def test_only_the_final_user_turn_is_heard(listener) -> None:
    item = items_for("chord", "test")[0]
    request = build_request(item, "audio", "zero", "standalone", SETTINGS)
    moved = replace(request, turns=(*request.turns, Turn("model", (TextPart("ok"),)),
                                    Turn("user", (TextPart("Stimulus: again"),))))
    text = reply(listener, moved)
    assert "Final Answer" not in text and "recording" in text


def test_a_request_without_a_question_is_an_error(listener) -> None:
    item = items_for("chord", "test")[0]
    request = replace(build_request(item, "audio", "zero", "standalone", SETTINGS), question=None)
    with pytest.raises(BackendError):
        run_sync(listener.generate(request))


def test_an_unknown_task_is_declined(listener) -> None:
    request = Request("", (Turn("user", (TextPart("?"),)),),
                      question=Question("tempo", "standalone", "audio"))
    assert "Final Answer" not in reply(listener, request)


def test_pitch_questions_go_to_the_pitch_module(listener, monkeypatch, tmp_path) -> None:
    from fixtures.backends.listener import pitch

    seen = []

    def fake_answer_pitch(question, audio_paths):
        seen.append((question.task, list(audio_paths)))
        return "Final Answer: 60"

    monkeypatch.setattr(pitch, "answer_pitch", fake_answer_pitch)
    clip = tmp_path / "tone.wav"
    example = tmp_path / "example.wav"
    turns = (
        Turn("user", (MediaPart(example, "0" * 64, "audio/wav"),)),
        Turn("model", (TextPart("Final Answer: 62"),)),
        Turn("user", (TextPart("What pitch?"), MediaPart(clip, "1" * 64, "audio/wav"))),
    )
    request = Request("", turns, question=Question("pitch_a1", "standalone", "audio"))
    assert reply(listener, request) == "Final Answer: 60"
    assert seen == [("pitch_a1", [Path(clip)])]


@pytest.mark.parametrize("modality", DEFAULT_MODALITIES)  # what it hears or reads
@pytest.mark.parametrize("item", sample_items(), ids=lambda item: item.item_id)
def test_logiclm_trials_are_right_with_its_own_transcription(listener, item, modality) -> None:
    result = run_trial_sync(listener, Trial("listener", modality, "zero", "logiclm", item),
                            SETTINGS)
    assert result.correct, result.explain()
    assert result.transcription == item.transcription
    assert result.repair_rounds == 0
