"""LogicLM self-refinement: when a reply earns a repair round, what the repair asks, and the
budget of repairs (a property over every sequence of reply kinds)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fixtures.backends.base import (
    GenerationSettings,
    TextPart,
)
from fixtures.stimuli import midi_text
from tests_solvers.trial_helpers import (
    CHORD,
    CHORD_ID,
    CHORD_PITCHES,
    MALFORMED,
    OUT_OF_RANGE,
    REPAIR_PROMPTS,
    UNDECIDABLE_CHORD,
    UNDECIDABLE_CHORD_2,
    VALID_CHORD,
    WRONG_ID,
    _run,
    _schema_message,
)

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
