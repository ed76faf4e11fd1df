"""Two wrong readings found after round 23 (docs/reading.md, "After round 23"): a later sentence
that offers the other answer as a possibility ("No. So maybe yes.") was read past, and a colon
after a clause that denies ("The one shape it clearly does not have is this: Arch.") was read as
introducing the answer. Both are now no answer; near misses keep their reading.
"""

from __future__ import annotations

import pytest

from fixtures.muse.harmony_definitions import KEY_CHANGE
from fixtures.muse.registry import TASKS
from solvers.reading import SAMENESS, choice_reader, yes_no_reader

MODULATES = yes_no_reader(KEY_CHANGE)
SAME = yes_no_reader(SAMENESS)
QUALITY = choice_reader({"A": "Major", "B": "Minor", "C": "Dominant", "D": "Diminished"})
SHAPE = TASKS["muse_melody_shape"]
METER = TASKS["muse_meter"]


@pytest.mark.parametrize("reply", [
    "No modulation at first. So maybe yes.",  # read no before
    "No. Possibly yes.",
    "Yes. Maybe no, though.",  # read yes before
    "Yes, it modulates. Perhaps not.",
    "No modulation at first. So maybe it does modulate.",
])
def test_a_later_sentence_offering_the_other_answer_makes_a_hedge(reply: str) -> None:
    assert MODULATES(reply).answer is None


@pytest.mark.parametrize(("reply", "expected"), [
    ("No. Maybe.", "no"),  # offers nothing
    ("No. Probably no.", "no"),  # offers the same answer
    ("No modulation. Maybe the ending is a little ambiguous, but the key stays put.", "no"),
    ("Yes, it modulates to the dominant.", "yes"),
])
def test_an_offer_of_nothing_else_keeps_the_answer(reply: str, expected: str) -> None:
    assert MODULATES(reply).answer == expected


@pytest.mark.parametrize("reply", ["The chord is major. Perhaps dominant, though.",
                                   "Major. Maybe minor."])
def test_an_offered_option_after_a_choice_makes_a_hedge(reply: str) -> None:
    assert QUALITY(reply).answer is None


@pytest.mark.parametrize(("task", "reply"), [
    (SHAPE, "The one shape it clearly does not have is this: Arch."),  # read Arch before
    (SHAPE, "What it is not: Arch."),
    (SHAPE, "The shape it lacks is this: Arch."),
    (SHAPE, "The shape it definitely is not: Descending."),
    (METER, "The grouping it does not have: triple."),  # read triple before
    (SHAPE, "What it never does: rise throughout."),  # the contour reader: read ascending before
])
def test_a_colon_after_a_denial_introduces_no_answer(task, reply: str) -> None:
    assert task.extract_answer(reply) is None


@pytest.mark.parametrize(("task", "reply", "expected"), [
    (SHAPE, "Each note is higher than the one before it, all the way through: Ascending.", "A"),
    (SHAPE, "It never comes back down. Shape: Ascending.", "A"),  # the denial ends its sentence
    (SHAPE, "Not ascending. My answer: Arch.", "C"),
    (METER, "I hear strong beats every three pulses: triple.", "B"),
])
def test_a_colon_after_an_assertion_still_gives_the_answer(task, reply: str, expected: str) -> None:
    assert task.extract_answer(reply) == expected


@pytest.mark.parametrize("reply", [
    "No. It could be the same melody.",  # read no before: the other answer offered, no turn word
    "Same melody. It might also be a different one.",  # read yes before
])
def test_a_later_sentence_saying_it_could_be_the_other_answer_makes_a_hedge(reply: str) -> None:
    assert SAME(reply).answer is None


@pytest.mark.parametrize(("reply", "expected"), [
    ("Yes, the same melody. It may be played a little faster.", "yes"),  # offers no answer
    ("They are different melodies. It could be a variation, but the intervals differ.", "no"),
])
def test_a_modal_sentence_naming_no_other_answer_keeps_it(reply: str, expected: str) -> None:
    assert SAME(reply).answer == expected
