"""A MIDI number with a fraction ("61.8", "Approximately MIDI 57.3") names its nearest note, as a
frequency does (blind20-0160 and -0217 were no answer); halfway between two notes it names none,
and below C0 (MIDI 12) a fraction is a share ("confidence 0.9"), no pitch."""

from __future__ import annotations

import pytest

from solvers.notation import find_pitches
from solvers.reading import pitch_answer_reader

MIDI = pitch_answer_reader("pitch", "midi")


@pytest.mark.parametrize(("reply", "expected"), [
    ("61.8", 62), ("Approximately MIDI 57.3", 57), ("It is MIDI 57.7.", 58),
    ("Final Answer: 69.2", 69), ("MIDI 64.0", 64),
    ("MIDI 64 with confidence 0.9", 64),  # a share is no second pitch
])
def test_a_fractional_midi_number_names_its_nearest_note(reply: str, expected: int) -> None:
    answer = MIDI(reply).answer
    assert answer is not None and answer.keys == (expected,)


# (round 24 flipped "Candidates: 64 (0.6), 65 (0.4)": two notes ranked by probability are the
# top one, the lead's policy on ranked leans; two of equal probability stay no answer)
@pytest.mark.parametrize("reply", ["64.5", "MIDI 60.5", "Candidates: 64 (0.5), 65 (0.5)",
                                   "64 or 65"])
def test_halfway_or_two_notes_is_no_answer(reply: str) -> None:
    assert MIDI(reply).answer is None


def test_two_notes_ranked_by_probability_are_the_top_one() -> None:
    assert MIDI("Candidates: 64 (0.6), 65 (0.4)").answer.keys == (64,)  # no answer before round 24


def test_a_parsed_fraction_keeps_how_far_off_it_is() -> None:
    (pitch,) = find_pitches("61.8", "midi")
    assert pitch.midi_note == 62 and pitch.cents_error == pytest.approx(-20)
    assert find_pitches("0.8", "midi") == [] and find_pitches("127.6", "midi") == []
