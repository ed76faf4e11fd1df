"""Issue 30, round 11: the wrong readings of a seventh blind set (blind10, measured once before
this round). A reply cut off mid-sentence, a final answer asked as a question, and "yes or no"
named as the choice itself were read as answers. Every phrasing here was written for these
tests; each group has near misses that must keep their reading."""

from __future__ import annotations

import pytest

from solvers.cut_off import unfinished_tail
from solvers.reading import SAMENESS, choice_reader, pitch_answer_reader, yes_no_reader

MIDI = pitch_answer_reader("pitch", "midi")
SHAPES = choice_reader({"A": "Arch (ascending and then descending)",
                        "B": "Inverted Arch (descending and then ascending)",
                        "C": "Ascending (pitch raises over time)",
                        "D": "Descending (pitch falls over time)"})
SAME = yes_no_reader(SAMENESS)


def key(reply: str) -> int | None:
    answer = MIDI(reply).answer
    return None if answer is None else answer.keys[0]


# --- 1. A reply cut off mid-sentence ------------------------------------------------------------


@pytest.mark.parametrize("reply", [
    "1. The first clip's melody opens on G.\n2. They look the same so far.\n3. Comparing the last "
    "two bars, the second clip",
    "Step 1: Both melodies start on C.\nStep 2: Same contour. Checking the final cadence, the",
    "Both clips play the same tune. Listening to the ending once more, the second one seems to",
])
def test_a_reply_cut_off_mid_sentence_answers_nothing(reply: str) -> None:
    assert unfinished_tail(reply) is not None
    assert SAME(reply).answer is None


@pytest.mark.parametrize("reply", [
    "The line starts low and keeps rising through the scale toward the",
    "It begins on a low note and climbs step by step to",
])
def test_a_description_broken_off_on_an_open_word_answers_nothing(reply: str) -> None:
    assert SHAPES(reply).answer is None


@pytest.mark.parametrize(("reply", "letter"), [
    ("The line starts low and keeps rising through the scale.", "C"),  # finished: a description
    ("So the answer is C", "C"),  # no full stop, but the answer is the tail itself
    ("I'd call this one Descending", "D"),
    ("Final Answer: C\nIt rises from the low register and then the", "C"),  # committed above
])
def test_an_answer_not_cut_off_is_still_read(reply: str, letter: str) -> None:
    assert SHAPES(reply).answer == letter


@pytest.mark.parametrize(("reply", "answer"), [
    ("Yes, they are the same melody", "yes"),  # the tail is the answer
    ("They match note for note.\nConfidence: high", "yes"),  # a short label is finished as it is
])
def test_a_finished_reply_without_a_full_stop_keeps_its_reading(reply: str, answer: str) -> None:
    assert SAME(reply).answer == answer


# --- 2. A final answer asked as a question ------------------------------------------------------


@pytest.mark.parametrize("reply", [
    "Two semitones above the reference, so 71, though it might be 70.\nFinal Answer: 71?",
    "Final answer: MIDI 64?",
    "My best reading: 62 (?)",
])
def test_a_pitch_answer_ending_in_a_question_mark_is_no_answer(reply: str) -> None:
    assert key(reply) is None


@pytest.mark.parametrize(("reply", "midi"), [
    ("Is it 71? Yes.\nFinal Answer: 71", 71),
    ("Final Answer: 64", 64),
])
def test_a_question_above_a_plain_answer_line_changes_nothing(reply: str, midi: int) -> None:
    assert key(reply) == midi


# --- 3. "Yes or no" names the choice, not an answer ---------------------------------------------


@pytest.mark.parametrize("reply", [
    "Yes or no depends on how strictly you define a change of melody.",
    "It is hard to give a yes/no answer here.",
    "Whether these match is a yes-or-no call I can't make from this audio.",
])
def test_yes_or_no_named_together_is_no_answer(reply: str) -> None:
    assert SAME(reply).answer is None


@pytest.mark.parametrize(("reply", "answer"), [
    ("You wanted a plain yes or no, so here it is.\nFinal Answer: Yes", "yes"),
    ("No. The second melody differs in its last bar.", "no"),
])
def test_a_yes_or_no_after_the_mention_is_still_read(reply: str, answer: str) -> None:
    assert SAME(reply).answer == answer
