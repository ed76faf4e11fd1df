"""What a trial asks: the turns, the stimuli and the system instruction of zero- and few-shot
trials, and that the answer key stays out of prompts and hashes."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from fixtures.backends.base import (
    AnswerKey,
    GenerationSettings,
)
from fixtures.backends.scripted import ScriptedBackend
from fixtures.running.runner import Trial, run_trial_sync
from fixtures.stimuli import midi_text
from fixtures.tasks.catalog import TASK_NAMES, items_for
from fixtures.tasks.definitions import TASKS
from fixtures.tasks.prompting import (
    build_request,
    identifiers,
    system_instruction,
)
from tests_solvers.trial_helpers import (
    CHORD,
    FEWSHOT_COUNT,
    MODALITY,
    SETTINGS,
    STRATEGIES,
    _judge,
)

# --- What a trial asks ---------------------------------------------------------------------------


def _stimulus_names_in(text: str) -> set[str]:
    return set(re.findall(r"\bs[0-9a-f]{10}\b", text))


@pytest.mark.parametrize("task", TASK_NAMES)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_zero_shot_request_is_one_user_turn_with_the_stimulus(task: str, strategy: str) -> None:
    item = items_for(task, "test")[0]
    request = build_request(item, MODALITY, "zero", strategy, SETTINGS)
    (turn,) = request.turns
    assert turn.role == "user"
    assert not request.media_parts()
    for clip, name in zip(item.clips, identifiers(item, MODALITY), strict=True):
        assert name in turn.text
        assert midi_text(clip) in turn.text
    assert request.system == system_instruction(task, strategy, MODALITY)
    assert request.settings == SETTINGS


@pytest.mark.parametrize("task", TASK_NAMES)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_few_shot_examples_carry_their_own_correct_replies(task: str, strategy: str) -> None:
    item = items_for(task, "test")[0]
    request = build_request(item, MODALITY, "few", strategy, SETTINGS)
    examples = items_for(task, "fewshot")
    assert len(examples) == FEWSHOT_COUNT[task]
    assert len(request.turns) == 2 * FEWSHOT_COUNT[task] + 1
    assert [t.role for t in request.turns] == ["user", "model"] * len(examples) + ["user"]
    by_name = {c.stimulus_name: ex for ex in examples for c in ex.clips}
    test_names = {c.stimulus_name for i in items_for(task, "test") for c in i.clips}
    seen = []
    for user, model in zip(request.turns[:-1:2], request.turns[1::2], strict=True):
        names = _stimulus_names_in(user.text)
        assert names and not names & test_names, "a test item is used as an example"
        (example,) = {by_name[n].item_id: by_name[n] for n in names}.values()
        assert example.split == "fewshot"
        ids = identifiers(example, MODALITY)
        assert _judge(task, strategy, model.text, ids) == example.answer
        if strategy == "logiclm":
            assert TASKS[task].parse(model.text, ids) == example.transcription
        seen.append(example.item_id)
    assert sorted(seen) == sorted(e.item_id for e in examples)
    # the last turn is the test stimulus itself, and only it
    assert _stimulus_names_in(request.turns[-1].text) == {c.stimulus_name for c in item.clips}


def test_each_trial_is_a_fresh_conversation() -> None:
    backend = ScriptedBackend(replies=["Final Answer: D", "Final Answer: A", "Final Answer: D"])
    first, second = items_for("chord", "test")[:2]
    for item in (first, second, first):
        run_trial_sync(backend, Trial("scripted", MODALITY, "zero", "cot", item), SETTINGS)
    r1, r2, r3 = backend.requests
    assert len(r2.turns) == 1
    assert "Final Answer" not in r2.turns[0].text
    assert first.clips[0].stimulus_name not in r2.turns[0].text
    assert r1 == r3 and r1.request_hash() == r3.request_hash()


def test_answer_key_is_left_out_of_hashes() -> None:
    request = build_request(CHORD, MODALITY, "zero", "logiclm", SETTINGS)
    assert request.answer_key is not None
    other_key = AnswerKey(correct="A", correct_reply="Final Answer: A", replies=(("A", "x"),))
    variants = [dataclasses.replace(request, answer_key=k) for k in (None, other_key)]
    for variant in variants:
        assert variant.prompt_hash() == request.prompt_hash()
        assert variant.request_hash() == request.request_hash()
        assert variant == request
    # while what the model is shown does change them
    changed = dataclasses.replace(request, system=request.system + " ")
    assert changed.prompt_hash() != request.prompt_hash()
    assert changed.request_hash() != request.request_hash()
    reseeded = dataclasses.replace(request, settings=GenerationSettings(seed=1))
    assert reseeded.prompt_hash() == request.prompt_hash()
    assert reseeded.request_hash() != request.request_hash()


def test_answer_key_does_not_leak_into_the_prompt() -> None:
    request = build_request(CHORD, MODALITY, "zero", "logiclm", SETTINGS)
    shown = json.dumps(request.digest_form())
    assert request.answer_key.correct_reply not in shown
    assert "diminished" not in request.turns[0].text.lower()


@pytest.mark.parametrize("task", TASK_NAMES)
def test_system_instruction_differs_by_modality_and_strategy(task: str) -> None:
    systems = {
        (modality, strategy): system_instruction(task, strategy, modality)
        for modality in ("audio", "midi")
        for strategy in STRATEGIES
    }
    assert len(set(systems.values())) == len(systems)
    for strategy in STRATEGIES:
        assert "MIDI" in systems[("midi", strategy)]
        assert "MIDI File" not in systems[("audio", strategy)]
        assert "audio" in systems[("audio", strategy)]
        assert "$" not in systems[("midi", strategy)]  # every placeholder filled


def test_reference_replies_are_written_only_when_a_backend_reads_them(monkeypatch) -> None:
    """A network model's request never pays for the offline backends' replies (issue 33);
    read, copied with a new trial id or pickled, the key holds the same replies."""
    import pickle

    from fixtures.tasks import prompting

    written: list[str] = []
    real_reply_text = prompting.reply_text

    def counting_reply_text(*args, **kwargs) -> str:
        written.append(args[0])
        return real_reply_text(*args, **kwargs)

    monkeypatch.setattr(prompting, "reply_text", counting_reply_text)
    settings = dataclasses.replace(SETTINGS, seed=SETTINGS.seed + 7919)  # not memoised yet
    request = build_request(CHORD, MODALITY, "zero", "standalone", settings)
    request.request_hash()
    assert written == []  # building and hashing the request wrote no reply
    key = request.answer_key
    assert CHORD.answer in key.correct_reply
    assert sorted(answer for answer, _ in key.replies) == sorted(
        CHORD.offered or TASKS[CHORD.task].answers)
    assert len(written) == len(key.replies) + 1  # written once, then kept
    assert key.correct_reply == key.correct_reply and len(written) == len(key.replies) + 1
    renamed = dataclasses.replace(key, trial_id="chord/controlled")
    plain = pickle.loads(pickle.dumps(key))
    assert type(plain) is AnswerKey
    for copy in (renamed, plain):
        assert (copy.correct, copy.correct_reply, copy.replies) == (
            key.correct, key.correct_reply, key.replies)
    assert renamed.trial_id == "chord/controlled" and plain.trial_id == key.trial_id
