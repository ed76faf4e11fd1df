"""Reading, round 19 (issue 30; blind15's two wrong readings on first contact): a listing of
one fact per option ("Loop 1: …; Loop 2: …") chooses neither option, and a pitch named only in
a supposition ("If it's E4, that's 64") is not an answer. Phrasings are this file's own."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fixtures.muse.rhythm_definitions import SYNC_COMPARE
from fixtures.tasks.definitions import CHORD
from solvers.answer_lines import without_listing
from solvers.pitch_scoring import score_answer
from solvers.reading import HEDGE, pitch_answer_reader
from solvers.retractions import ADMISSION, TAKEN_BACK, taken_back_after
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


@pytest.mark.parametrize("reply", [
    "Maybe C6 or C7? If C6 it's 84.",  # a supposition
    "It sounds like 84. Could you play the tone once more so I can be sure?",  # asking back
    "I hear C6 (MIDI 85).",  # restated otherwise
])
def test_the_bench_scores_a_pitch_reply_as_the_reading_api_reads_it(reply):
    """One pipeline serves both: the bench's pitch scoring took 84 from the first two replies
    while the public reading API read none."""
    verdict = score_answer("pitch", (84,), reply, "midi")
    reading = pitch_answer_reader("pitch", "midi")(reply)
    assert reading.answer is None and verdict.parsed is None and not verdict.correct
    assert verdict.error_class in ("hedged_answer", "unparseable_answer")


@pytest.mark.parametrize("reply", [
    "The note is A3.\nFinal Answer: 56",
    "It's A3 — an octave under the A above middle C.\nFinal Answer: 56",
    "This sounds like 220 Hz.\nFinal Answer: 56",
])
def test_a_sentence_saying_the_tone_is_another_pitch_makes_the_final_answer_a_hedge(reply):
    """blind16's wrong reading: "It's C3 — one octave below middle C." above "Final Answer:
    47" names two pitches for one tone; what follows the dash only elaborates."""
    assert pitch_answer_reader("pitch", "midi")(reply).error == HEDGE


@pytest.mark.parametrize(("reply", "key"), [
    ("It's A3 — an octave under the A above middle C.\nFinal Answer: 57", 57),
    ("The reference is A3.\nFinal Answer: 56", 56),
    ("It's A3, but listening again it is G#3.\nFinal Answer: 56", 56),
    ("It is lower than A3.\nFinal Answer: 56", 56),
])
def test_an_agreeing_reference_or_changed_sentence_leaves_the_final_answer(reply, key):
    assert pitch_answer_reader("pitch", "midi")(reply).answer.keys == (key,)


_FRAGMENTS = ["The answer is B.", " Hmm, no", " - wait", ", no.", " I was wrong.", " Actually",
              " no wait", " Scratch that.", " it is", " C.", "\n", " I take it back", " fine."]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=30))
def test_a_take_back_after_a_point_is_found_as_by_searching_the_rest(pieces):
    """The answer-sentence tier asks, for each answer sentence, whether the rest of the reply
    takes it back. It searched the rest anew each time, quadratic in the reply (a fuzzed 16 kB
    reply took 0.34 s of the 0.5 s budget); one search must answer every point alike."""
    lines = "".join(pieces).split("\n")
    follows = taken_back_after(lines)
    for index, line in enumerate(lines):
        for end in range(len(line) + 1):
            rest = "\n".join([line[end:], *lines[index + 1:]])
            expected = bool(TAKEN_BACK.search(rest) or ADMISSION.search(rest))
            assert follows(index, end) == expected, (lines, index, end)

