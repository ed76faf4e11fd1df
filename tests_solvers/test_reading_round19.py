"""Reading, round 19 (issue 30; blind15's two wrong readings on first contact): a listing of
one fact per option ("Loop 1: …; Loop 2: …") chooses neither option, and a pitch named only in
a supposition ("If it's E4, that's 64") is not an answer. Phrasings are this file's own."""

from __future__ import annotations

import pytest

from fixtures.muse.rhythm_definitions import SYNC_COMPARE
from fixtures.tasks.definitions import CHORD
from solvers.answer_lines import without_listing
from solvers.reading import HEDGE, pitch_answer_reader
from solvers.suppositions import supposes_a_pitch


@pytest.mark.parametrize("reply", [
    "Clip 1: three off-beats; Clip 2: three off-beats. Honestly I can't pick one.",
    "Loop 1: roughly four off-beats; Loop 2: roughly four off-beats. I cannot split them apart.",
    "I compared both loops. Loop 1: five displaced hits; Loop 2: two displaced hits.",
    "Excerpt A: busy hi-hat; Excerpt B: busy hi-hat; nothing sets them apart for me.",
])
def test_a_listing_of_one_fact_per_option_chooses_neither(reply):
    assert SYNC_COMPARE.read_answer(reply).answer is None


@pytest.mark.parametrize(("reply", "letter"), [
    ("Loop 1: five off-beats; Loop 2: two off-beats. So the first loop is more syncopated.", "A"),
    ("First clip: plain backbeat; second clip: kicks on the and of 2. The second loop.", "B"),
    ("Answer: the first loop. Reason: its snare lands off the beat twice.", "A"),
])
def test_an_answer_after_or_beside_a_listing_is_still_read(reply, letter):
    assert SYNC_COMPARE.read_answer(reply).answer == letter


def test_a_listing_of_chords_does_not_answer_a_chord_question():
    reply = "Note 1: C; Note 2: E; Note 3: G; the quality is hard for me to judge here."
    assert CHORD.read_answer(reply).answer is None


def test_only_sentences_with_labels_of_one_shape_are_listing_items():
    sentences = ["Step 1: find the root;", "Step 2: find the third.", "Final answer: B."]
    assert without_listing(sentences) == ["Final answer: B."]
    assert without_listing(["Answer: B.", "Confidence: high."]) == ["Answer: B.",
                                                                     "Confidence: high."]
    assert without_listing(["Loop 1: busy.", "So B."]) == ["Loop 1: busy.", "So B."]


@pytest.mark.parametrize(("reply", "notation"), [
    ("Possibly G5 or G6? If G5 that's 79.", "midi"),
    ("If it's E4, then 64.", "midi"),
    ("64 if it is E4.", "midi"),
    ("Assuming the note is A4, MIDI 69.", "midi"),
    ("If it is A4, that means 440 Hz.", "hz"),
    ("Supposing it's 60, the note is C4.", "spn"),
])
def test_a_pitch_named_only_in_a_supposition_is_a_hedge(reply, notation):
    reading = pitch_answer_reader("pitch", notation)(reply)
    assert reading.answer is None and reading.error == HEDGE, reading


@pytest.mark.parametrize(("reply", "notation", "key"), [
    ("If I have to commit to one, 64.", "midi", 64),
    ("If anything it is 64.", "midi", 64),
    ("With A4 = 440 Hz as the reference, the tone is 64.", "midi", 64),
    ("Final answer: E4, even if the attack makes it sound higher.", "spn", 64),
])
def test_a_condition_that_supposes_no_pitch_leaves_the_answer(reply, notation, key):
    assert pitch_answer_reader("pitch", notation)(reply).answer.keys == (key,)


def test_a_supposition_is_told_apart_from_a_concession_or_a_comparison():
    assert supposes_a_pitch("If it's E4, then 64.", "midi")
    assert not supposes_a_pitch("It is E4, even if it sounds like E5.", "spn")
    assert not supposes_a_pitch("It rings as if it were E5 but it is E4.", "spn")
