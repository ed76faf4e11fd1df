"""Round 25 (docs/reading.md, "Round 25: five wrong readings of the held-out blind22 and
blind25"): wrong readings found on first contact with two held-out blind sets, each fixed by a
general rule, with near misses that keep their reading.
"""

from __future__ import annotations

import pytest

from fixtures.published_muse.protocol import tasks
from solvers.reading import choice_reader, pitch_answer_reader, yes_no_reader

PUB_SHAPE = choice_reader(dict(tasks()["melody_shape"].options))  # A arch, B inverted, C up, D down
SHAPE = choice_reader({"A": "Ascending", "B": "Descending", "C": "Arch", "D": "Inverted arch"})
CHORD = choice_reader({"A": "Major", "B": "Minor", "C": "Dominant", "D": "Diminished"})
LOOPS = choice_reader({"A": "The first loop", "B": "The second loop"})
SAME = yes_no_reader(tasks()["transposition"].phrases)
HZ = pitch_answer_reader("pitch", "hz")


@pytest.mark.parametrize(("reply", "shape"), [
    ("It goes down, then up.", "down_up"),  # read descending before
    ("It goes up, then down.", "up_down"),  # read ascending before
    ("It goes down, then up again.", "down_up"),
    ("The melody goes down and then back up.", "down_up"),
    ("It rises, then falls.", "up_down"),
    ("It goes down.", "down"),  # near miss: one direction is still that direction
    ("It goes up, then down, then up.", None),  # no offered shape: read ascending before
])
def test_a_second_direction_after_then_turns_the_contour(reply: str, shape: str | None) -> None:
    core = {"up": "A", "down": "B", "up_down": "C", "down_up": "D", None: None}
    published = {"up": "C", "down": "D", "up_down": "A", "down_up": "B", None: None}
    assert SHAPE(reply).answer == core[shape]
    assert PUB_SHAPE(reply).answer == published[shape]


@pytest.mark.parametrize(("reply", "expected"), [
    ("Honestly I hear as many similarities as differences.", None),  # read no before
    ("Same? Different? There are as many differences as similarities.", None),
    ("Similarities and differences in equal measure.", None),
    ("I hear both similarities and differences.", "no"),  # near miss: a difference is heard
    ("I hear no differences.", "yes"),
])
def test_sameness_and_difference_weighed_as_even_is_no_answer(reply, expected) -> None:
    assert SAME(reply).answer == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("First loop more syncopated: 60%. Second loop: 40%.", None),  # read B before: a share is
    ("The first loop: 60%. The second loop: 40%.", "A"),  # no answer of its own; a list: ranked
    ("The first loop: 50%. The second loop: 50%.", None),
    ("The second loop.", "B"),  # near miss: an option alone
])
def test_options_given_shares_are_read_only_as_a_ranking(reply: str, expected) -> None:
    assert LOOPS(reply).answer == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("**Answer: A) Major**\n\nThe chord sounds bright and stable. Actually, listening again, "
     "there is a minor seventh on top, so the better label is **Dominant (C)**.", None),  # A
    ("Final Answer: A\n\nIt sounds bright. Wait, listening again, it is dominant.", None),  # A
    ("Final Answer: A\n\nIt sounds bright and stable.", "A"),  # near miss: no change of mind
    ("Final Answer: A\n\nThe chord is actually quite bright.", "A"),  # "actually" inside
])
def test_a_change_of_mind_inside_a_paragraph_takes_the_answer_back(reply, expected) -> None:
    assert CHORD(reply).answer == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("It is 880 Hz. On reflection, it is 440 Hz.", None),  # read 81 before
    ("Frequency: 880 Hz. Hmm, on reflection it's probably the octave below, 440 Hz.", None),
    ("It is 880 Hz. Hmm, on reflection it's the octave below, 220 Hz.", None),  # 81 before
    ("880 Hz, the octave below, 440 Hz.", None),  # an apposition, no reference: 81 before
    ("It is 880 Hz. Actually, it is 440 Hz.", 69),  # near misses
    ("It is 880 Hz. Hmm, the tone is steady.", 81),
    ("880 Hz, an octave above 440 Hz.", 81),  # a reference point
])
def test_a_second_frequency_after_a_change_of_mind_is_never_dropped(reply, expected) -> None:
    answer = HZ(reply).answer
    assert (None if answer is None else answer.keys[0]) == expected


INSTRUMENT = choice_reader({"A": "Piano", "B": "Violin", "C": "Trumpet", "D": "Flute"})
SPN = pitch_answer_reader("pitch", "spn")
MIDI = pitch_answer_reader("pitch", "midi")


def test_a_later_sentence_opening_on_hmm_and_closing_on_another_answer_takes_it_back() -> None:
    # found by reader28 on main: read as the piano
    assert INSTRUMENT("Piano, I think. Hmm, the tone swells after the attack, so it must be the "
                      "flute: D.").answer is None
    assert INSTRUMENT("Piano, I think. Hmm, the tone swells after the attack.").answer == "A"


@pytest.mark.parametrize(("read", "reply", "expected"), [
    (SPN, "A4 — wait, that's the reference tone; the target is 3 semitones higher.", None),  # A4
    (MIDI, "MIDI 60. Wait, the tone is steady.", None),
    (MIDI, "60. Wait, 5 semitones above that.", None),  # read 60 before
    (MIDI, "The tone is steady. Wait, it is 60.", 60),
    (MIDI, "60. Wait, 60 is right.", 60),  # near misses: the answer confirmed, or only a "hmm"
    (MIDI, "60. Hmm, the tone is steady.", 60),
])
def test_an_explicit_wait_after_a_pitch_takes_it_back_unless_it_confirms(read, reply, expected):
    answer = read(reply).answer
    assert (None if answer is None else answer.keys[0]) == expected


def test_an_explicit_wait_after_an_option_takes_it_back_unless_it_confirms() -> None:
    assert INSTRUMENT("Piano. Wait, the attack is soft.").answer is None  # read piano before
    assert INSTRUMENT("Piano. Wait, yes, piano.").answer == "A"
    assert INSTRUMENT("Piano. Hmm, the attack is soft.").answer == "A"  # a bare "hmm": kept
