"""The trial runner: how a reply is judged, finish reasons, records and ids.

All trials here use the MIDI modality, so no audio is rendered; replies come from
``ScriptedBackend`` (``trial_helpers``). What a trial asks: test_trial_requests.py; LogicLM's
repair rule: test_logiclm_repairs.py; the offline backends: test_offline_backends.py.
"""

from __future__ import annotations

import asyncio
import json
import signal

import pytest

from fixtures.backends.base import (
    BackendError,
    MediaPart,
    Request,
    Response,
)
from fixtures.running.runner import Trial, run_sync
from fixtures.tasks.catalog import TASK_NAMES, items_for
from fixtures.tasks.prompting import (
    build_request,
    identifiers,
    reply_text,
)
from tests_solvers.trial_helpers import (
    CHORD,
    CHORD_PITCHES,
    DIFFERENT,
    MALFORMED,
    MODALITY,
    SAME,
    SETTINGS,
    STRATEGIES,
    UNDECIDABLE_CHORD,
    VALID_CHORD,
    _judge,
    _run,
    _test_item,
)

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
    _, result = _run(CHORD, "cot", ["Final Answer: D\nHmm.\nFinal Answer: B"])
    assert not result.correct and result.error_class == "hedged_answer"


def test_transposition_sentences() -> None:
    yes_item = next(i for i in items_for("transposition", "test") if i.answer == "yes")
    no_item = next(i for i in items_for("transposition", "test") if i.answer == "no")
    assert _run(yes_item, "standalone", [SAME])[1].correct
    assert not _run(yes_item, "standalone", [DIFFERENT])[1].correct
    assert _run(no_item, "cot", [f"The intervals differ.\nFinal Answer: {DIFFERENT}"])[1].correct


# --- LogicLM repairs: the first cause, the other tasks (the rule: test_logiclm_repairs.py) -----


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


def test_a_backend_error_keeps_the_turns_repair_reason() -> None:
    """A failed request is a turn ending in "error"; its ``repair_reason`` stays what the
    round was asked to fix (None for the first answer), not the finish reason."""
    replies = iter([MALFORMED])

    def script(request: Request) -> str:
        reply = next(replies, None)
        if reply is None:
            raise BackendError("HTTP 503: model overloaded")
        return reply

    _, repaired = _run(CHORD, "logiclm", script=script)
    assert repaired.turns[0].repair_reason is None
    assert [t.finish_reason for t in repaired.turns] == ["stop", "error"]
    assert repaired.turns[1].repair_reason == "schema_parse"


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


async def _ctrl_c_then(ending: str) -> str:
    """Press Ctrl-C while awaiting, then end as a library might: swallow the cancel, cancel
    again (anyio's cancel scopes), or turn it into another error."""
    signal.raise_signal(signal.SIGINT)  # asyncio.Runner's handler: cancel this coroutine
    try:
        await asyncio.sleep(10)
    except asyncio.CancelledError:
        if ending == "swallowed":
            return "finished anyway"
        if ending == "cancelled again":
            asyncio.current_task().cancel()
            await asyncio.sleep(0)
        raise RuntimeError("connection closed while cancelling") from None
    return "never"


@pytest.mark.parametrize("ending", ["swallowed", "cancelled again", "another error"])
def test_ctrl_c_during_a_trial_is_an_interrupt_however_the_coroutine_ends(ending: str) -> None:
    """Whatever the provider SDK does with the cancel, a Ctrl-C stops the run (pytest's exit
    2 and the --resume hint) instead of becoming one trial's error while the run goes on."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # as on a terminal
    try:
        with pytest.raises(KeyboardInterrupt):
            run_sync(_ctrl_c_then(ending))
        assert run_sync(asyncio.sleep(0, result="next")) == "next"  # the next trial runs
    finally:
        signal.signal(signal.SIGINT, previous)
