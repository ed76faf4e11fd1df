"""Round 24 (pitch; docs/reading.md, "Round 24 (polarity, ranked leans, pitch)"): pitch replies
main declined or misread. Each rule has near misses that keep their reading.
"""

from __future__ import annotations

import pytest

from solvers.reading import pitch_answer_reader

MIDI = pitch_answer_reader("pitch", "midi")


def keys(reply: str) -> tuple[int, ...] | None:
    answer = MIDI(reply).answer
    return None if answer is None else answer.keys


@pytest.mark.parametrize("reply", [
    "vs. A4 it is flat",  # read A4 before: the sentence was split at "vs."
    "It is flat vs. A4.",
    "Vs. A4, it sounds a little low.",
    "Lower vs. A4 by a bit, cf. the reference tone.",
])
def test_an_abbreviation_point_ends_no_sentence(reply: str) -> None:
    assert keys(reply) is None


@pytest.mark.parametrize(("reply", "expected"), [
    ("It is flat vs. A4. The note is G#4.", (68,)),
    ("It is G#4, approx. 415 Hz.", (68,)),
    ("The note is A4.", (69,)),
])
def test_a_pitch_after_an_abbreviation_is_read(reply: str, expected: tuple[int, ...]) -> None:
    assert keys(reply) == expected
