"""Issue 30, round 13: the one wrong reading of a ninth blind set (blind12, measured before and
after round 12, whose author never saw it). A pitch named as the reference after a direction
word with its article ("a major third above the C4 reference: E4") and a prompt quoted back
whole before the answer were read as the answer. Every phrasing here was written for these
tests; each group has near misses that must keep their reading."""

from __future__ import annotations

import pytest

from solvers.reading import SAMENESS, choice_reader, pitch_answer_reader, yes_no_reader

SPN = pitch_answer_reader("pitch", "spn")
MIDI = pitch_answer_reader("pitch", "midi")
QUALITY = choice_reader({"A": "Major", "B": "Minor", "C": "Diminished", "D": "Augmented"})
SAME = yes_no_reader(SAMENESS)


def key(reader, reply: str) -> int | None:
    answer = reader(reply).answer
    return None if answer is None else answer.keys[0]


# --- 1. The reference after a direction word and its article ------------------------------------


@pytest.mark.parametrize(("reply", "midi_note"), [
    ("The second tone sits a major third above the C4 reference: E4.", 64),
    ("It lands a perfect fifth below the G4, so C4.", 60),
    ("Counting two semitones up from the A4 gives B4.", 71),
    ("An octave under the E5 they played first: E4.", 64),
    ("Starting from a D4 reference tone, the target is F#4.", 66),
    ("With the A4 reference in mind, the tone is G4.", 67),
])
def test_a_pitch_after_a_direction_and_its_article_is_the_reference(reply, midi_note) -> None:
    assert key(SPN, reply) == midi_note


@pytest.mark.parametrize(("reply", "midi_note"), [
    ("It is C4.", 60),  # no reference anywhere
    ("The tone is C4, a third above the reference.", 60),  # the reference is named by no pitch
    ("The answer is the C4.", 60),  # an article alone is no direction
])
def test_near_misses_keep_their_pitch(reply, midi_note) -> None:
    assert key(SPN, reply) == midi_note


def test_a_reply_naming_only_the_reference_answers_nothing() -> None:
    assert SPN("Somewhere above the C4 reference.").answer is None


def test_the_reference_after_a_direction_in_midi_numbers() -> None:
    assert key(MIDI, "Four semitones above the 60 reference: 64.") == 64


# --- 2. The prompt quoted back whole ------------------------------------------------------------


@pytest.mark.parametrize(("reply", "midi_note"), [
    ('"Recording 1 is a reference tone at C4. What is the pitch of recording 2?" — E4.', 64),
    ("\u201cThe first clip plays C4. Which note is the second clip?\u201d The second clip is G4.",
     67),
    ('"What pitch is the tone?": A3.', 57),
])
def test_a_quoted_prompt_is_no_part_of_the_answer(reply, midi_note) -> None:
    assert key(SPN, reply) == midi_note


def test_a_quoted_prompt_then_a_question_back_answers_nothing() -> None:
    assert SPN('"Recording 1 is C4. What is recording 2?" Hmm, could it be E4?').answer is None


def test_a_quoted_prompt_with_options_before_a_choice() -> None:
    reply = '"Is the chord major, minor, diminished or augmented?" It is minor.'
    assert QUALITY(reply).answer == "B"
    assert SAME('"Are the two melodies the same?" No, they differ in bar 3.').answer == "no"


@pytest.mark.parametrize(("reply", "midi_note"), [
    ('"C4" is what I hear.', 60),  # a quoted answer, not a quoted question
    ('What the prompt calls "the second tone" is D4.', 62),  # a quote inside the sentence
])
def test_quotes_that_are_not_the_prompt_said_back_keep_their_reading(reply, midi_note) -> None:
    assert key(SPN, reply) == midi_note
