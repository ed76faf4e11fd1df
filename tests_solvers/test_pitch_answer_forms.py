"""Pitch answers that are not notes: integers, timestamps, contours, ranks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.pitch_scoring import (
    TIMESTAMP_TOLERANCE_S,
    format_timestamp,
    parse_timestamp,
    score_answer,
)

FAST = settings(max_examples=200, deadline=None)


# --- Integers, timestamps, contour, ranks ------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "value"),
    [("+7", 7), ("-3", -3), ("\u22123", -3), ("minus three", -3), ("seven", 7), ("7 semitones", 7)]
    + [("7 semitones down", -7), ("-7 (descending)", -7), ("12 (one octave)", 12), ("0", 0)],
)
def test_integer_forms(answer, value):
    verdict = score_answer("integer", (value,), f"Final Answer: {answer}")
    assert verdict.correct and verdict.parsed == value


@pytest.mark.parametrize("answer", ["7.5", "1 octave"])
def test_integer_answers_that_are_not_one_integer_are_unparseable(answer):
    verdict = score_answer("integer", (3,), f"Final Answer: {answer}")
    assert verdict.error_class == "unparseable_answer" and not verdict.correct


@pytest.mark.parametrize("answer", ["3 or 4", "+7 descending", "up 3 down 2"])
def test_integer_answers_with_two_values_are_hedges(answer):
    """issue 12: two integers, or a sign word against the sign, are hedges (were unparseable)."""
    verdict = score_answer("integer", (3,), f"Final Answer: {answer}")
    assert verdict.error_class == "hedged_answer" and not verdict.correct


@FAST
@given(st.floats(0.0, 3600.0))
def test_timestamps_round_trip(seconds):
    text = format_timestamp(seconds)
    assert len(text.split(":")[1]) == 5
    # centiseconds, rounded half to even (0.125 -> "00:00.12"): off by half a step at most
    assert parse_timestamp(text) == pytest.approx(seconds, abs=5e-3 + 1e-9)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("01:07.25", 67.25), ("1:07.25", 67.25), ("00:02", 2.0), ("0:01:07.5", 67.5)]
    + [("67.25 s", 67.25), ("67.25s", 67.25), ("12 seconds", 12.0), ("2500 ms", 2.5)],
)
def test_timestamp_formats(text, seconds):
    assert parse_timestamp(text) == pytest.approx(seconds)


@pytest.mark.parametrize("bad", ["67.25", "01:75.00", "1:2", "00:02,50", "abc", "-0:01.00"])
def test_timestamps_that_are_not_times(bad):
    assert parse_timestamp(bad) is None


def test_timestamp_tolerance_is_inclusive_and_count_must_match():
    truth = (2.0, 7.0)
    assert TIMESTAMP_TOLERANCE_S == 0.25
    assert score_answer("timestamps", truth, "Final Answer: 00:02.25, 00:06.75").correct
    assert not score_answer("timestamps", truth, "Final Answer: 00:02.26, 00:07.00").correct
    short = score_answer("timestamps", truth, "Final Answer: 00:02.00")
    assert not short.correct and short.error_class is None and short.parsed == [2.0]
    # issue 12: bare seconds are read when the question asked for times (was unparseable)
    assert score_answer("timestamps", truth, "Final Answer: 2.0, 7.0").correct


@pytest.mark.parametrize(
    ("answer", "steps"),
    [("up, down, up", ["up", "down", "up"]), ("rise then fall", ["up", "down"])]
    + [("arch", ["up", "down"]), ("valley", ["down", "up"]), ("fall then rise", ["down", "up"])]
    + [("\u2191\u2193", ["up", "down"]), ("Ascending, descending", ["up", "down"])]
    + [("arch: up, down", ["up", "down"]), ("higher, lower, higher", ["up", "down", "up"])]
    + [("down (the pitch gets lower)", ["down"]), ("valley (down, up)", ["down", "up"])],
)
def test_contour_synonyms(answer, steps):
    verdict = score_answer("contour", tuple(steps), f"Final Answer: {answer}")
    assert verdict.correct and verdict.parsed == steps


def test_contour_that_cannot_be_read():
    assert score_answer("contour", ("up",), "Final Answer: not up").error_class
    assert score_answer("contour", ("up",), "Final Answer: unclear").error_class
    assert not score_answer("contour", ("up", "up"), "Final Answer: up").correct


def test_ranks_must_be_a_permutation():
    assert score_answer("ranks", (3, 1, 2), "Final Answer: 3, 1, 2").correct
    assert score_answer("ranks", (3, 1, 2), "Final Answer: 3rd, 1st, 2nd").correct
    assert not score_answer("ranks", (3, 1, 2), "Final Answer: 1, 3, 2").correct
    for bad in ("3, 1, 1", "0, 1, 2", "3, 1", "tone three"):
        verdict = score_answer("ranks", (3, 1, 2), f"Final Answer: {bad}")
        assert verdict.error_class == "unparseable_answer", bad


# --- a frequency named as the reference; a syllable restating the answer -------------------

@pytest.mark.parametrize("reply", [
    "Compared with the 440.00 Hz reference, the tone sits a whole step higher, near 493.88 Hz.",
    "Against a 261.63 Hz reference tone the note lands around 493.9 Hz.",
    "The reference was 440 Hz; this one is higher, roughly 493.88 Hz.",
])
def test_a_frequency_named_as_the_reference_is_never_the_answer(reply):
    from solvers.reading import pitch_answer_reader

    reading = pitch_answer_reader("pitch", "hz")(reply)
    assert reading.answer is None or reading.answer.keys == (71,), reading


@pytest.mark.parametrize(("reply", "keys"), [
    ("Final Answer: fa, MIDI 62", None),  # F against D: two answers
    ("Final Answer: 67 / la", None),
    ("Final Answer: 64, mi", (64,)),
    ("Final Answer: MIDI 69 (la)", (69,)),
    ("I do think the note is MIDI 65.", (65,)),  # "do" inside prose is a word
])
def test_a_syllable_standing_as_an_answer_item_must_agree(reply, keys):
    from solvers.reading import pitch_answer_reader

    reading = pitch_answer_reader("pitch", "midi")(reply)
    assert (reading.answer.keys if reading.answer else None) == keys, reading
