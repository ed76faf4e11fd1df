"""Round 24 (docs/reading.md, "Round 24 (polarity, ranked leans, pitch)"): a reply that ranks
its options explicitly is read as its top-ranked option (the lead's policy); options with equal
standing stay a hedge. Near misses keep their reading.
"""

from __future__ import annotations

import pytest

from fixtures.published_muse.protocol import tasks
from solvers.reading import choice_reader, pitch_answer_reader, yes_no_reader

QUALITY = choice_reader({"A": "Major", "B": "Minor"})
INSTRUMENT = choice_reader({"A": "Piano", "B": "Violin", "C": "Trumpet", "D": "Flute"})
LOUDER = choice_reader({"A": "Loop 1", "B": "Loop 2"})
SAME = yes_no_reader(tasks()["rhythm_match"].phrases)
MIDI = pitch_answer_reader("pitch", "midi")


@pytest.mark.parametrize(("read", "reply", "expected"), [
    (QUALITY, "P(Major) = 0.35, P(Minor) = 0.65", "B"),  # a hedge before
    (QUALITY, "Major: 30 %; Minor: 70 %", "B"),
    (INSTRUMENT, "Piano 0.1, Violin 0.6, Trumpet 0.2, Flute 0.1", "B"),
    (INSTRUMENT, "- Piano: 10%\n- Violin: 20%\n- Trumpet: 15%\n- Flute: 55%", "D"),
    (LOUDER, "Probabilities: Loop 1: 35%, Loop 2: 65%", "B"),
    (SAME, "Same: 80%, different: 20%", "yes"),
])
def test_the_strictly_highest_probability_is_the_answer(read, reply: str, expected: str) -> None:
    assert read(reply).answer == expected


def test_a_pitch_list_with_probabilities_is_read_as_its_top_candidate() -> None:
    assert MIDI("Candidates: 64 (40%), 65 (35%), 63 (25%).").answer.keys == (64,)


@pytest.mark.parametrize(("read", "reply"), [
    (QUALITY, "Major: 50%, Minor: 50%"),  # equal standing
    (INSTRUMENT, "Piano 0.4, Violin 0.4, Flute 0.2"),  # two share the top
    (LOUDER, "Loop 1 0.62, Loop 2 0.31"),  # two scores, maybe no probabilities
    (LOUDER, "Loop 1: 60%, Loop 2: 30%"),  # adds up to less than the whole, no likelihood said
    (INSTRUMENT, "Piano 70%, Violin 50%"),  # more than the whole
    (QUALITY, "Major 0.6, 0.4 minor, or maybe augmented"),  # more than a list
])
def test_a_list_without_one_top_probability_is_no_answer(read, reply: str) -> None:
    assert read(reply).answer is None


def test_a_list_beside_an_answer_line_leaves_the_answer() -> None:
    assert QUALITY("Final Answer: Minor\nP(Major) = 0.35, P(Minor) = 0.65").answer == "B"


METER = choice_reader(dict(tasks()["meter"].options))  # Groups of 3 / 4 / 5
KEY = yes_no_reader(tasks()["key_modulation"].phrases)


@pytest.mark.parametrize(("read", "reply", "expected"), [
    (QUALITY, "Major or minor: I'd lean minor, maybe 60/40.", "B"),  # hedges before
    (QUALITY, "I'd lean major, roughly 70:30.", "A"),
    (KEY, "I'd lean towards a modulation, maybe 60/40, because the last cadence is elsewhere.",
     "yes"),
    (METER, "Probably in 4, though it could be in 3 with a pickup.", "B"),
    (QUALITY, "Most likely minor, although it might be major.", "B"),
    (QUALITY, "Major or minor, probably minor.", "B"),
])
def test_a_lean_that_ranks_its_options_is_its_preferred_option(read, reply: str,
                                                               expected: str) -> None:
    assert read(reply).answer == expected


def test_a_closing_preference_among_pitches_is_that_pitch() -> None:
    assert MIDI("Around MIDI 70\u201371, probably 70.").answer.keys == (70,)
    assert MIDI("Probably 70, though it could be 71.").answer.keys == (70,)


@pytest.mark.parametrize(("read", "reply"), [
    (QUALITY, "I'd lean minor, maybe 50/50."),  # equal standing
    (QUALITY, "I'd lean minor, maybe 40/60."),  # the share against the lean
    (QUALITY, "Minor, though it could be major."),  # no lean marked: as decided in round 23
    (QUALITY, "Major or minor, probably."),  # no preference said
    (QUALITY, "Major or diminished, probably minor."),  # the preferred one is not among them
    (QUALITY, "I'd lean towards minor, but it may well be major; the third is ambiguous."),
    (SAME, "No. It could be the same pattern."),  # round 23: a plain assertion, then an offer
])
def test_options_of_equal_standing_stay_no_answer(read, reply: str) -> None:
    assert read(reply).answer is None


def test_pitches_of_equal_standing_or_a_preference_outside_them_stay_no_answer() -> None:
    assert MIDI("70 or 71, probably 72.").answer is None
    assert MIDI("Around MIDI 70\u201371, probably.").answer is None


def test_a_lean_taken_back_is_read_as_round_23_reads_it() -> None:
    assert QUALITY("Probably minor, though it could be major. Actually no, major.").answer == "A"
