"""The trial runner: what a trial asks, how the reply is judged, and when LogicLM repairs.

All trials here use the MIDI modality, so no audio is rendered. Model replies come from
``ScriptedBackend`` (which records every request) or from the offline ``oracle``/``chance``
backends.
"""

from __future__ import annotations

import dataclasses
import json
import re
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fixtures.backends.base import (
    AnswerKey,
    BackendError,
    GenerationSettings,
    MediaPart,
    Request,
    Response,
    TextPart,
)
from fixtures.backends.offline import ChanceBackend, OracleBackend
from fixtures.backends.scripted import ScriptedBackend
from fixtures.runner import Trial, TrialResult, run_trial_sync
from fixtures.stimuli import midi_text
from fixtures.tasks.catalog import TASK_NAMES, items_for
from fixtures.tasks.definitions import TASKS
from fixtures.tasks.prompting import (
    PROMPTS_DIR,
    build_request,
    identifiers,
    reply_text,
    system_instruction,
)
from fixtures.tasks.spec import Item
from solvers.schemas import SchemaError, parse_chord

MODALITY = "midi"
SETTINGS = GenerationSettings()
STRATEGIES = ("standalone", "cot", "logiclm")
SHOTS = ("zero", "few")
FEWSHOT_COUNT = {"syncopation": 2, "transposition": 2, "chord": 4}
SAME = "Yes, these are the same melody."
DIFFERENT = "No, these are not the same melody."

with open(PROMPTS_DIR / "repair.toml", "rb") as _handle:
    REPAIR_PROMPTS = tomllib.load(_handle)


def _test_item(item_id: str) -> Item:
    (item,) = [i for t in TASK_NAMES for i in items_for(t, "test") if i.item_id == item_id]
    return item


CHORD = _test_item("chord17")  # C diminished (Table S1), answer D
[CHORD_ID] = identifiers(CHORD, MODALITY)
[CHORD_PITCHES] = CHORD.transcription
VALID_CHORD = f"chord({CHORD_ID}, [{', '.join(map(str, CHORD_PITCHES))}])"
UNDECIDABLE_CHORD = f"chord({CHORD_ID}, [60, 62, 64])"  # {0, 2, 4}: no quality
UNDECIDABLE_CHORD_2 = f"chord({CHORD_ID}, [60, 61])"  # {0, 1}: no quality
MALFORMED = "It sounds like a dark, tense chord to me."
WRONG_ID = "chord(other.mid, [60, 63, 66])"  # structural: identifier mismatch
OUT_OF_RANGE = f"chord({CHORD_ID}, [60, 63, 660])"


def _run(
    item: Item,
    strategy: str,
    replies=(),
    *,
    script=None,
    shot: str = "zero",
    settings_: GenerationSettings = SETTINGS,
    model: str = "scripted",
) -> tuple[ScriptedBackend, TrialResult]:
    backend = ScriptedBackend(script=script, replies=replies, name=model)
    result = run_trial_sync(backend, Trial(model, MODALITY, shot, strategy, item), settings_)
    return backend, result


def _schema_message(text: str) -> str:
    with pytest.raises(SchemaError) as info:
        parse_chord(text, CHORD_ID)
    return info.value.message


def _judge(task: str, strategy: str, text: str, ids: tuple[str, ...]):
    """Answer a reply gives, read with the task definition (schema + solver for LogicLM)."""
    definition = TASKS[task]
    if strategy == "logiclm":
        return definition.solve(definition.parse(text, ids))
    return definition.extract_answer(text)


# --- Standalone and CoT --------------------------------------------------------------------------


@pytest.mark.parametrize("strategy", ["standalone", "cot"])
def test_final_answer_correct(strategy: str) -> None:
    backend, result = _run(CHORD, strategy, ["Three stacked minor thirds.\nFinal Answer: D"])
    assert result.correct
    assert result.parsed_answer == "D"
    assert result.error_class is None
    assert result.repair_rounds == 0
    assert len(backend.requests) == 1


@pytest.mark.parametrize("strategy", ["standalone", "cot"])
def test_final_answer_wrong_letter_is_wrong_not_an_error(strategy: str) -> None:
    _, result = _run(CHORD, strategy, ["Final Answer: A"])
    assert not result.correct
    assert result.parsed_answer == "A"
    assert result.error_class is None
    assert "expected D. Diminished" in result.explain()


@pytest.mark.parametrize("strategy", ["standalone", "cot"])
def test_no_final_answer_line(strategy: str) -> None:
    _, result = _run(CHORD, strategy, ["I think this one sounds rather tense."])
    assert not result.correct
    assert result.parsed_answer is None
    assert result.error_class == "no_final_answer"
    assert result.error_message


def test_answer_colon_style_and_two_different_final_answers_are_a_hedge() -> None:
    _, result = _run(CHORD, "cot", ["Answer: D"])
    assert result.correct and result.parsed_answer == "D"
    assert (result.answer_source, result.answer_via) == ("final_line", "letter")
    # Issue 12: two different final answers are a hedge, never credited (was: last wins).
    reconsidered = "Final Answer: A\nOn reflection the fifth is flat.\nFinal Answer: D"
    _, result = _run(CHORD, "cot", [reconsidered])
    assert not result.correct and result.parsed_answer is None
    assert result.error_class == "hedged_answer" and result.record().flat()["answer_source"] is None
    _, result = _run(CHORD, "cot", ["Final Answer: D\nNo wait.\nFinal Answer: B"])
    assert not result.correct and result.error_class == "hedged_answer"


def test_transposition_sentences() -> None:
    yes_item = next(i for i in items_for("transposition", "test") if i.answer == "yes")
    no_item = next(i for i in items_for("transposition", "test") if i.answer == "no")
    assert _run(yes_item, "standalone", [SAME])[1].correct
    assert not _run(yes_item, "standalone", [DIFFERENT])[1].correct
    assert _run(no_item, "cot", [f"The intervals differ.\nFinal Answer: {DIFFERENT}"])[1].correct


# --- LogicLM self-refinement ---------------------------------------------------------------------


def test_logiclm_valid_first_reply_needs_no_repair() -> None:
    backend, result = _run(CHORD, "logiclm", [VALID_CHORD])
    assert result.correct
    assert result.repair_rounds == 0
    assert result.transcription == (CHORD_PITCHES,)
    assert result.solver_verdict == result.parsed_answer == "D"
    assert len(backend.requests) == 1


def test_logiclm_wrong_transcription_is_wrong_without_repair() -> None:
    backend, result = _run(CHORD, "logiclm", [f"chord({CHORD_ID}, [60, 64, 67])"])
    assert not result.correct
    assert result.error_class is None
    assert result.solver_verdict == "A"
    assert result.repair_rounds == 0 and len(backend.requests) == 1


def test_logiclm_malformed_then_valid_is_one_repair() -> None:
    backend, result = _run(CHORD, "logiclm", [MALFORMED, VALID_CHORD])
    assert result.correct
    assert result.error_class is None and result.error_message is None
    assert result.repair_rounds == 1
    assert len(backend.requests) == 2
    assert [t.purpose for t in result.turns] == ["answer", "repair"]
    assert [t.repair_reason for t in result.turns] == [None, "schema_parse"]
    assert [t.text for t in result.turns] == [MALFORMED, VALID_CHORD]


def test_repair_request_is_a_separate_fix_only_chat() -> None:
    backend, result = _run(CHORD, "logiclm", [MALFORMED, VALID_CHORD])
    first, repair = backend.requests
    assert repair.system == REPAIR_PROMPTS["system"]
    assert repair.system != first.system
    assert len(repair.turns) == 1
    (turn,) = repair.turns
    assert turn.role == "user"
    assert all(isinstance(p, TextPart) for p in turn.parts)
    assert not repair.media_parts()
    text = turn.text
    # names the error class and message, echoes the reply, restates the schema
    assert "schema_parse" in text
    assert _schema_message(MALFORMED) in text
    assert MALFORMED in text
    assert "chord(<identifier>, [p1, p2, ..., pK])" in text
    assert CHORD_ID in text
    # and carries no stimulus
    assert "MIDI file" not in text
    assert "note_on" not in text
    assert midi_text(CHORD.clips[0]).strip() not in text
    assert "Stimulus:" not in text
    assert result.turns[1].request_hash == repair.request_hash()
    assert result.turns[1].prompt_hash == repair.prompt_hash()


def test_repair_request_in_few_shot_trial_has_no_examples() -> None:
    backend, result = _run(CHORD, "logiclm", [MALFORMED, VALID_CHORD], shot="few")
    assert len(backend.requests[0].turns) == 2 * 4 + 1
    assert len(backend.requests[1].turns) == 1
    assert result.correct and result.repair_rounds == 1


def test_repair_settings_are_deterministic_and_short() -> None:
    trial_settings = GenerationSettings(temperature=0.7, top_p=0.9, max_output_tokens=4096, seed=7)
    backend, result = _run(
        CHORD, "logiclm", [MALFORMED, UNDECIDABLE_CHORD, VALID_CHORD], settings_=trial_settings
    )
    assert result.correct and result.repair_rounds == 2
    assert backend.requests[0].settings == trial_settings
    for repair in backend.requests[1:]:
        assert repair.settings.max_output_tokens == 256
        assert repair.settings.temperature == 0
        assert repair.settings.top_p == 1


def test_three_malformed_replies_get_exactly_two_repairs() -> None:
    replies = [MALFORMED, WRONG_ID, OUT_OF_RANGE]
    backend, result = _run(CHORD, "logiclm", replies)
    assert len(backend.requests) == 3
    assert result.repair_rounds == 2
    assert not result.correct
    assert result.parsed_answer is None and result.transcription is None
    assert result.error_class is not None and result.error_class.startswith("schema_")
    assert result.error_class == "schema_parse"  # the first reply's failure, not the last
    assert [e["error_class"] for e in result.repair_errors] == ["schema_structural",
                                                                "schema_domain"]
    assert [t.repair_reason for t in result.turns] == [None, "schema_parse", "schema_structural"]
    # each repair echoes the reply it repairs
    assert MALFORMED in backend.requests[1].turns[0].text
    assert WRONG_ID in backend.requests[2].turns[0].text
    assert "schema_structural" in backend.requests[2].turns[0].text


def test_undecidable_then_valid_is_one_undecidable_repair() -> None:
    backend, result = _run(CHORD, "logiclm", [UNDECIDABLE_CHORD, VALID_CHORD])
    assert result.correct
    assert result.repair_rounds == 1
    assert [t.repair_reason for t in result.turns] == [None, "undecidable"]
    text = backend.requests[1].turns[0].text
    assert "undecidable" in text
    assert UNDECIDABLE_CHORD in text
    assert "0, 2, 4" in text  # the pitch-class set the solver could not classify
    assert backend.requests[1].system == REPAIR_PROMPTS["system"]


def test_undecidable_twice_is_undecidable_after_one_repair() -> None:
    backend, result = _run(CHORD, "logiclm", [UNDECIDABLE_CHORD, UNDECIDABLE_CHORD_2])
    assert len(backend.requests) == 2
    assert result.repair_rounds == 1
    assert result.error_class == "undecidable"
    assert not result.correct
    assert result.parsed_answer is None and result.solver_verdict is None
    assert result.transcription == ((60, 61),)


def test_schema_error_then_undecidable_then_valid() -> None:
    backend, result = _run(CHORD, "logiclm", [MALFORMED, UNDECIDABLE_CHORD, VALID_CHORD])
    assert result.correct
    assert result.repair_rounds == 2
    assert [t.purpose for t in result.turns] == ["answer", "repair", "repair"]
    assert [t.repair_reason for t in result.turns] == [None, "schema_parse", "undecidable"]
    assert [t.round for t in result.turns] == [0, 1, 2]


@pytest.mark.parametrize(
    ("kinds", "expected_requests", "correct", "error_class"),
    [
        # two schema repairs, then the extra undecidable one: 3 repairs
        (("schema", "schema", "undecidable", "valid"), 4, True, None),
        (("undecidable", "schema", "schema", "valid"), 4, True, None),
        (("schema", "undecidable", "schema", "valid"), 4, True, None),
        # budgets are separate: a second undecidable gets no repair, even with schema budget left
        # (the trial keeps its first reply's failure as its error class)
        (("schema", "undecidable", "undecidable"), 3, False, "schema_parse"),
        # and a third schema error gets none, even with the undecidable budget left
        (("undecidable", "schema", "schema", "schema"), 4, False, "undecidable"),
        (("schema", "schema", "schema"), 3, False, "schema_parse"),
    ],
)
def test_repair_budget(kinds, expected_requests, correct, error_class) -> None:
    text = {"schema": MALFORMED, "undecidable": UNDECIDABLE_CHORD, "valid": VALID_CHORD}
    backend, result = _run(CHORD, "logiclm", [text[k] for k in kinds])
    assert len(backend.requests) == expected_requests
    assert result.repair_rounds == expected_requests - 1
    assert result.correct is correct
    assert result.error_class == error_class
    assert len(result.turns) == expected_requests


REPLY_KINDS = {"schema": MALFORMED, "undecidable": UNDECIDABLE_CHORD, "valid": VALID_CHORD}


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(sorted(REPLY_KINDS)), min_size=4, max_size=6))
def test_repair_rule_property(kinds: list[str]) -> None:
    """At most 2 schema repairs plus 1 undecidable repair; stop at the first valid reply.

    ``kinds`` is what the model would say in each round; at most 4 rounds can be asked, so the
    script never runs out (running out would fail the test).
    """
    replies = [REPLY_KINDS[k] for k in kinds]
    by_text = {v: k for k, v in REPLY_KINDS.items()}
    _, result = _run(CHORD, "logiclm", replies)
    asked = [by_text[t.text] for t in result.turns]
    assert asked == kinds[: len(asked)]
    reasons = [t.repair_reason for t in result.turns[1:]]
    assert sum(1 for r in reasons if r and r.startswith("schema_")) <= 2
    assert reasons.count("undecidable") <= 1
    assert result.repair_rounds <= 3
    # every repair was owed for the reply right before it
    for previous, reason in zip(asked, reasons, strict=False):
        assert reason == ("undecidable" if previous == "undecidable" else "schema_parse")
    if "valid" in asked:
        assert asked[-1] == "valid" and asked.count("valid") == 1
        assert result.correct and result.error_class is None
    else:
        # stopped only because the budget for the last kind of error was spent
        last = asked[-1]
        spent = asked[:-1].count(last)
        assert spent == (2 if last == "schema" else 1)
        assert not result.correct
        first = asked[0]
        assert result.error_class == ("undecidable" if first == "undecidable" else "schema_parse")
        later = ["undecidable" if k == "undecidable" else "schema_parse" for k in asked[1:]]
        assert [e["error_class"] for e in result.repair_errors] == later


def test_undecidable_whose_repairs_fail_to_parse_keeps_its_first_cause() -> None:
    """Regression (issue 12): an undecidable transcription whose repairs then fail to parse was
    recorded as ``schema_parse``; the trial's error class is its real first cause, and the
    repairs' failures are kept beside it."""
    backend, result = _run(CHORD, "logiclm", [UNDECIDABLE_CHORD, MALFORMED, MALFORMED, MALFORMED])
    assert len(backend.requests) == 4
    assert [t.repair_reason for t in result.turns] == [None, "undecidable", "schema_parse",
                                                        "schema_parse"]
    record = result.record().flat()
    assert record["error_class"] == "undecidable"
    assert "0, 2, 4" in record["error_message"]  # the first cause's own message
    assert [e["error_class"] for e in record["repair_errors"]] == ["schema_parse"] * 3
    assert [e["round"] for e in record["repair_errors"]] == [1, 2, 3]
    assert not record["correct"] and record["parsed_answer"] is None


def test_syncopation_and_transposition_repairs() -> None:
    sync = _test_item("sync01")
    [sync_id] = identifiers(sync, MODALITY)
    onsets = ", ".join(map(str, sync.transcription[0]))
    valid = f"rhythm({sync_id}, [{onsets}])"
    backend, result = _run(sync, "logiclm", [f"rhythm({sync_id}, [2])", valid])
    assert result.correct
    assert [t.repair_reason for t in result.turns] == [None, "undecidable"]
    assert "1 of the onsets" in backend.requests[1].turns[0].text

    trans = _test_item("trans01")
    first_id, second_id = identifiers(trans, MODALITY)
    anchor, target = (", ".join(map(str, m)) for m in trans.transcription)
    one_line = f"melody({first_id}, [{anchor}])"
    valid = f"{one_line}\nmelody({second_id}, [{target}])"
    backend, result = _run(trans, "logiclm", [one_line, valid])
    assert result.correct
    assert [t.repair_reason for t in result.turns] == [None, "schema_structural"]


# --- Finish reasons ------------------------------------------------------------------------------


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_token_limit_is_not_judged_and_not_repaired(strategy: str) -> None:
    text = VALID_CHORD if strategy == "logiclm" else "Final Answer: D"
    backend, result = _run(CHORD, strategy, [Response(text=text, finish_reason="length")])
    assert result.error_class == "token_limit"
    assert not result.correct
    assert result.repair_rounds == 0 and len(backend.requests) == 1
    assert result.turns[0].finish_reason == "length"


def test_token_limit_in_a_repair_round_ends_the_trial() -> None:
    backend, result = _run(
        CHORD, "logiclm", [MALFORMED, Response(text="chord(", finish_reason="length")]
    )
    assert result.error_class == "token_limit"
    assert result.repair_rounds == 1 and len(backend.requests) == 2
    assert not result.correct


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("text", ["", "  \n\t"])
def test_empty_output(strategy: str, text: str) -> None:
    backend, result = _run(CHORD, strategy, [text])
    assert result.error_class == "empty_output"
    assert not result.correct
    assert len(backend.requests) == 1


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_backend_error_is_recorded(strategy: str) -> None:
    def script(request: Request) -> str:
        raise BackendError("HTTP 503: model overloaded")

    backend, result = _run(CHORD, strategy, script=script)
    assert result.error_class == "backend_error"
    assert result.error_message == "HTTP 503: model overloaded"
    assert not result.correct
    assert len(result.turns) == 1
    assert result.turns[0].finish_reason == "error"
    assert result.turns[0].error == "HTTP 503: model overloaded"
    assert result.record().flat()["turns"][0]["error"] == "HTTP 503: model overloaded"


@pytest.mark.parametrize(
    ("finish_reason", "error_class"),
    [("safety", "safety_block"), ("recitation", "recitation_block"), ("error", "backend_error")],
)
def test_blocked_outputs(finish_reason: str, error_class: str) -> None:
    backend, result = _run(
        CHORD, "logiclm", [Response(text=VALID_CHORD, finish_reason=finish_reason)]
    )
    assert result.error_class == error_class
    assert not result.correct
    assert len(backend.requests) == 1


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


# --- Offline reference backends ------------------------------------------------------------------


@pytest.mark.parametrize("shot", SHOTS)
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("task", TASK_NAMES)
def test_oracle_is_always_right(task: str, strategy: str, shot: str) -> None:
    backend = OracleBackend()
    for item in items_for(task, "test"):
        result = run_trial_sync(backend, Trial("oracle", MODALITY, shot, strategy, item), SETTINGS)
        assert result.correct, result.explain()
        assert result.parsed_answer == item.answer
        assert result.error_class is None
        assert result.repair_rounds == 0 and len(result.turns) == 1
        if strategy == "logiclm":
            assert result.transcription == item.transcription
            assert result.solver_verdict == item.answer


def _chance_results(task: str, strategy: str, seed: int, shot: str = "zero") -> list[TrialResult]:
    backend = ChanceBackend()
    settings_ = GenerationSettings(seed=seed)
    return [
        run_trial_sync(backend, Trial("chance", MODALITY, shot, strategy, item), settings_)
        for item in items_for(task, "test")
    ]


@pytest.mark.parametrize("shot", SHOTS)
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("task", TASK_NAMES)
def test_chance_always_follows_the_format(task: str, strategy: str, shot: str) -> None:
    definition = TASKS[task]
    for result in _chance_results(task, strategy, seed=0, shot=shot):
        item = result.trial.item
        assert result.error_class is None, result.explain()
        assert result.repair_rounds == 0
        assert result.parsed_answer in definition.answers
        assert result.correct == (result.parsed_answer == item.answer)
        ids = identifiers(item, MODALITY)
        assert _judge(task, strategy, result.turns[0].text, ids) == result.parsed_answer
        if strategy == "logiclm":
            transcription = definition.parse(result.turns[0].text, ids)
            assert result.transcription == transcription
            assert result.solver_verdict == result.parsed_answer


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("task", TASK_NAMES)
def test_answer_key_replies_give_their_own_answers(task: str, strategy: str) -> None:
    for item in items_for(task, "test"):
        ids = identifiers(item, MODALITY)
        key = build_request(item, MODALITY, "zero", strategy, SETTINGS).answer_key
        assert key.correct == item.answer
        assert _judge(task, strategy, key.correct_reply, ids) == item.answer
        assert sorted(a for a, _ in key.replies) == sorted(TASKS[task].answers)
        for answer, text in key.replies:
            assert _judge(task, strategy, text, ids) == answer, text


def test_chance_is_deterministic_given_the_seed_and_changes_with_it() -> None:
    def answers(seed: int) -> list[str | None]:
        return [r.parsed_answer for r in _chance_results("chord", "logiclm", seed)]

    def texts(seed: int) -> list[str]:
        return [r.turns[0].text for r in _chance_results("chord", "logiclm", seed)]

    assert answers(0) == answers(0)
    assert texts(0) == texts(0)
    assert answers(0) != answers(1)
    assert texts(0) != texts(1)


def test_chance_accuracy_is_near_chance() -> None:
    results = [r for s in STRATEGIES for r in _chance_results("chord", s, seed=0)]
    accuracy = sum(r.correct for r in results) / len(results)
    # 132 trials at p = 0.25: standard deviation ~0.038
    assert 0.10 <= accuracy <= 0.42, accuracy
    assert len({r.parsed_answer for r in results}) == 4


# --- Records and ids -----------------------------------------------------------------------------


def test_trial_ids() -> None:
    trial = Trial("gemini-pro", "midi", "few", "logiclm", CHORD)
    assert trial.trial_id == "chord/midi/few/logiclm/chord17"
    assert trial.test_id == "gemini-pro-midi-few-logiclm-chord17"
    assert trial.task == "chord"


def test_record_is_json_and_complete() -> None:
    backend, result = _run(CHORD, "logiclm", [MALFORMED, VALID_CHORD], shot="few", model="m1")
    record = result.record().flat()
    assert json.loads(json.dumps(record)) == record
    expected = {
        "trial_id": "chord/midi/few/logiclm/chord17",
        "test_id": "m1-midi-few-logiclm-chord17",
        "task": "chord",
        "model": "m1",
        "model_id": "m1",
        "modality": "midi",
        "shot": "few",
        "strategy": "logiclm",
        "item_id": "chord17",
        "truth": "D",
        "prompt_hash": backend.requests[0].prompt_hash(),
        "parsed_answer": "D",
        "solver_verdict": "D",
        "transcription": [list(CHORD_PITCHES)],
        "repair_rounds": 1,
        "correct": True,
        "error_class": None,
    }
    assert {k: record[k] for k in expected} == expected
    assert record["truth_label"] == "C diminished"
    assert record["stimuli"] == [CHORD.clips[0].stimulus_name]
    turns = record["turns"]
    assert [t["purpose"] for t in turns] == ["answer", "repair"]
    assert [t["repair_reason"] for t in turns] == [None, "schema_parse"]
    assert [t["text"] for t in turns] == [MALFORMED, VALID_CHORD]
    assert [t["request_hash"] for t in turns] == [r.request_hash() for r in backend.requests]


def test_record_of_a_standalone_trial_has_no_solver_verdict() -> None:
    _, result = _run(CHORD, "standalone", ["Final Answer: D"])
    record = result.record().flat()
    assert (record["parsed_answer"], record["solver_verdict"]) == ("D", None)
    assert record["correct"] is True and record["transcription"] is None


def test_record_of_a_failed_trial() -> None:
    _, result = _run(CHORD, "cot", ["no idea"])
    record = result.record().flat()
    assert json.loads(json.dumps(record)) == record
    assert record["correct"] is False
    assert record["error_class"] == "no_final_answer"
    assert record["parsed_answer"] is None
    assert record["repair_rounds"] == 0
    assert record["solver_verdict"] is None


def test_media_free_requests_in_midi_modality() -> None:
    # The MIDI modality must never need audio rendering, even for few-shot examples.
    for task in TASK_NAMES:
        request = build_request(items_for(task, "test")[0], MODALITY, "few", "cot", SETTINGS)
        assert not request.media_parts()
        assert not any(isinstance(p, MediaPart) for t in request.turns for p in t.parts)


def test_reply_text_round_trip_for_every_test_item() -> None:
    for task in TASK_NAMES:
        for item in items_for(task, "test"):
            ids = identifiers(item, MODALITY)
            for strategy in STRATEGIES:
                text = reply_text(task, strategy, item.transcription, ids)
                assert _judge(task, strategy, text, ids) == item.answer
