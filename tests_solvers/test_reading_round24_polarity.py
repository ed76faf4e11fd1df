"""Round 24 (docs/reading.md, "Round 24 (polarity, ranked leans, pitch)"): yes/no said in the
other polarity or by a sameness statement, ranked leans, and the wrong readings main made on a
denial colon and on one phase of a contour. Each rule has near misses that keep their reading.
"""

from __future__ import annotations

import pytest

from fixtures.muse.registry import TASKS

SHAPE = TASKS["muse_melody_shape"]
METER = TASKS["muse_meter"]


@pytest.mark.parametrize("reply", [
    "What it does not do: climb the whole way.",  # read ascending before
    "The melody never does this: falls all the way.",  # read descending before
    "What it never does: rise and then come back down at the end.",
    "The one thing it lacks: a descent from the first note to the last.",
    "Here is what the line does not do: go steadily up to the top.",
])
def test_a_bare_predicate_after_a_denial_colon_is_what_is_denied(reply: str) -> None:
    assert SHAPE.extract_answer(reply) is None


@pytest.mark.parametrize(("reply", "expected"), [
    ("It does not turn back, and it never leaps either: each note is lower than the last.",
     "descending"),
    ("It never turns back: it keeps falling to the end.", "descending"),
    ("It has no peak: the notes drop one by one to the end.", "descending"),
    ("It does not go up: it goes down all the way.", "descending"),
    ("It does not dip anywhere: every note is higher than the one before.", "ascending"),
])
def test_a_clause_of_its_own_after_a_denial_colon_keeps_its_reading(reply: str,
                                                                    expected: str) -> None:
    assert SHAPE.options[SHAPE.extract_answer(reply)].casefold().startswith(expected)


@pytest.mark.parametrize("reply", [
    "It rises at first, then levels off.",  # read ascending before
    "It rises at first, then it wanders.",
    "Initially the melody climbs, then it stays put.",
    "The line falls at the start, then hovers around one note.",
    "To begin with it goes up; after that it is hard to follow.",
])
def test_one_direction_for_a_phase_is_not_the_whole_contour(reply: str) -> None:
    assert SHAPE.extract_answer(reply) is None


@pytest.mark.parametrize(("reply", "expected"), [
    ("It rises at first, then falls.", "arch"),
    ("It falls at first, then climbs back up.", "inverted"),
    ("The melody climbs steadily from start to finish.", "ascending"),
    ("It starts low and then rises steadily to the top.", "ascending"),
])
def test_a_whole_contour_keeps_its_reading(reply: str, expected: str) -> None:
    assert SHAPE.options[SHAPE.extract_answer(reply)].casefold().startswith(expected)
