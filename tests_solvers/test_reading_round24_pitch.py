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


def reader(notation: str):
    return pitch_answer_reader("pitch", notation)


@pytest.mark.parametrize(("reply", "expected"), [
    ("A4 (440 Hz) plus about 60 cents.", 70),  # read A4 before (blind23)
    ("A4, roughly 70 cents sharp.", 70),
    ("It sounds like C4 minus 80 cents.", 59),
    ("440 Hz, about 60 cents high.", 70),
    ("A3, but roughly 30 cents sharp.", 57),  # under half a semitone: the named note
    ("E4, some 20 cents flat.", 64),
])
@pytest.mark.parametrize("notation", ["midi", "spn", "hz"])
def test_an_offset_of_more_than_half_a_semitone_names_the_neighbour(reply: str, expected: int,
                                                                     notation: str) -> None:
    answer = reader(notation)(reply).answer
    assert answer is not None and answer.keys == (expected,)


def test_a_frequency_moved_by_its_offset_keeps_the_frequency_meant() -> None:
    answer = reader("hz")("440 Hz plus about 60 cents.").answer
    assert answer.keys == (70,)
    assert answer.freqs_hz[0] == pytest.approx(455.52, abs=0.01)
    assert answer.cents_errors[0] == pytest.approx(-40.0)


@pytest.mark.parametrize("reply", [
    "A4, about 50 cents sharp.",  # exactly half: no nearest note
    "A4, 60 cents off.",  # no direction
    "It is A#4, 60 cents above A4.",  # a distance from a reference point, no offset of A#4
])
def test_an_offset_that_leaves_the_note_open_names_none(reply: str) -> None:
    assert reader("midi")(reply).answer is None


def test_an_offset_on_a_pitch_class_names_none() -> None:
    assert reader("solfege")("La, plus about 70 cents.").answer is None


@pytest.mark.parametrize(("reply", "notation", "expected"), [
    ("The played note is the F above middle C.", "midi", (65,)),  # no pitch before
    ("The A below middle C.", "spn", (57,)),
    ("It is the C above middle C.", "midi", (72,)),
    ("The B just below middle C.", "midi", (59,)),
    ("An octave above middle C.", "midi", (72,)),  # read as before
    ("It is middle C.", "midi", (60,)),
])
def test_a_note_named_beside_middle_c_is_the_nearest_on_that_side(reply: str, notation: str,
                                                                   expected: tuple) -> None:
    assert reader(notation)(reply).answer.keys == expected


def test_a_note_beside_middle_c_offered_with_another_stays_a_hedge() -> None:
    assert reader("midi")("The F above middle C, or maybe the G.").answer is None


@pytest.mark.parametrize(("reply", "notation", "expected"), [
    ("The note is E\u266d4... actually no, it sounds a semitone higher: E4.", "spn", (64,)),
    ("I hear 233 Hz... correction, that was the second harmonic; the fundamental is an octave "
     "lower, about 116.5 Hz.", "hz", (46,)),  # hedges before
    ("It's G4... wait, no: A4.", "midi", (69,)),
    ("A4... no, G4.", "midi", (67,)),  # read as before (round 20)
])
def test_a_thought_broken_off_and_denied_gives_way_to_the_one_after(reply: str, notation: str,
                                                                    expected: tuple) -> None:
    assert reader(notation)(reply).answer.keys == expected


def test_an_ellipsis_that_goes_on_without_a_denial_keeps_both() -> None:
    assert reader("midi")("It is G4... or A4.").answer is None
