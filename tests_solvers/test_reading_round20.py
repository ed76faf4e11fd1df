"""Issue 30, round 20: the declines of blind15 and blind16. Caveats in forms round 18 did not
know (a sound that masks a part, a cause that makes a part hard to confirm or makes it hard to
be *fully* sure, a part that is not obvious or sounds incomplete, a part's state joined to the
doubt by "and", a closing "I'm fairly sure") were read as doubts where a grader reads the
answer; so were changes of mind ("A... no, …, so B", "I had the loops reversed"), two clips
compared in new forms, an option's "X and then Y" said "X then Y", and a pitch before an
explaining parenthesis. Every phrasing here was written for these tests; each group has near
misses that must keep their reading (true hedges stay hedges)."""

from __future__ import annotations

import pytest

from solvers.caveats import split_caveat
from solvers.reading import HEDGE, pitch_answer_reader
from solvers.retractions import after_interruption
from solvers.revisions import revised_answer
from tests_solvers.test_reading_round14 import WHICH_SYNCOPATED
from tests_solvers.test_reading_round16 import METER, PROGRESSIONS, QUALITY, SHAPES

# --- 1. Caveats: masking, hard to confirm, not obvious, "and I'm not fully sure" -------------


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (QUALITY, "It sounds diminished to me, although the hum of the amplifier obscures the top "
              "note at times.", "C"),  # a sound masking a part
    (METER, "Three beats to the bar, so B, though the reverb makes it hard to be entirely "
            "certain.", "B"),  # hard to be sure, with a degree
    (QUALITY, "Augmented — D — though the room echo makes the upper voice hard to confirm.",
     "D"),
    (METER, "I believe it's triple (B), though the first downbeat of the groove is not "
            "obvious.", "B"),  # a part that is not obvious
    (METER, "Meter: 6/8 (two groups of three eighths), though the very last bar sounds "
            "incomplete.", "C"),
    (QUALITY, "So the chord is D, though the top note is faint and I'm not completely sure.",
     "D"),  # a part's state joined to the doubt by "and"
    (QUALITY, "The third sits low against the root: a minor triad (B), I'm fairly confident.",
     "B"),  # a closing confidence
    (PROGRESSIONS, "They differ at the cadence, though the bass voicings make its last chord a "
                   "little ambiguous", "no"),  # "make", and no closing stop
    (QUALITY, "Minor, I'd say, though the pedal tones make the third a bit unclear", "B"),
    # round 22: a doubt with no degree, or of the answer itself, is no hedge
    (METER, "Final Answer: B, though the reverb makes it hard to be sure.", "B"),
    (QUALITY, "So the chord is D, though the top note is faint and I'm not sure.", "D"),
])
def test_an_answer_with_a_caveat_of_a_new_form_is_credited(reader, reply, answer) -> None:
    assert reader(reply).answer == answer


@pytest.mark.parametrize(("reader", "reply"), [
    # the masked part names another answer
    (QUALITY, "Final Answer: B, though the traffic noise masks the major third a little."),
    # the part that is not obvious names another answer
    (QUALITY, "Final Answer: C, though the minor third is not entirely clear."),
    # a confidence followed by another answer is no closing "I'm fairly sure"
    (PROGRESSIONS, "No, I'm fairly sure they are the same."),
    # a caveat that offers another reading
    (QUALITY, "Final Answer: A, though the noise masks it, so it might be minor."),
])
def test_a_new_caveat_form_naming_or_offering_another_answer_stays_a_hedge(reader,
                                                                            reply) -> None:
    assert reader(reply).answer is None


def test_a_masking_caveat_is_left_out_and_what_masks_is_kept_to_veto() -> None:
    line, subjects = split_caveat("Minor, though the crowd noise masks the bass.")
    assert line == "Minor."
    assert subjects == [("the crowd noise", "caveat_reason"), ("the bass", "caveat_reason")]


@pytest.mark.parametrize(("reply", "key"), [
    ("D3, though the wind noise masks it somewhat.", 50),
    ("64 — though the low hum covers the attack a little.", 64),
])
def test_a_pitch_with_a_masking_caveat_is_read(reply, key) -> None:
    notation = "midi" if reply[0].isdigit() else "spn"
    assert pitch_answer_reader("pitch", notation)(reply).answer.keys == (key,)


def test_a_pitch_with_a_masking_caveat_offering_another_stays_a_hedge() -> None:
    reading = pitch_answer_reader("pitch", "spn")("D3, though the noise masks it, maybe D4.")
    assert reading.answer is None and reading.error == HEDGE


# --- 2. A changed mind: a thought broken off ("A... no, …"), an error of the speaker's ("I had
# the loops reversed", "I mistimed …"), a correction opening the last line, "…, so I'll revise:"


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (QUALITY, "Diminished... no, the fifth is perfect, not flat. Minor (B).", "B"),
    (QUALITY, "I'd go with D... no, the top note sits a perfect fifth above the root, so A.",
     "A"),
    (QUALITY, "C. Diminished\n\nScratch that, the fifth is perfect. B. Minor", "B"),
    (METER, "Final Answer: B\n\nHmm, thinking it over, I had the two groupings reversed: the "
            "accent falls every second beat. Final Answer: A", "A"),
    (METER, "A — wait, I mistimed where the bar begins. Counting from the downbeat, it's "
            "triple: B.", "B"),  # main read A: the answer taken back
    (PROGRESSIONS, "Yes, they're the same.\nThe bass moves differently in bar 3, so I'll "
                   "revise: no, they are different progressions.", "no"),
])
def test_a_changed_mind_gives_the_answer_after_it(reader, reply, answer) -> None:
    assert reader(reply).answer == answer


@pytest.mark.parametrize(("reader", "reply"), [
    (QUALITY, "Major... no."),  # taken back, nothing after it (main read A)
    (QUALITY, "The answer is A... no."),
    (QUALITY, "Major... no, it could be minor or major."),  # a doubt after the break
    (QUALITY, "C. Diminished\nB. Minor"),  # two answers with no correction
    # "I had the fifth right" corrects nothing: two final answers stay a hedge
    (QUALITY, "Final Answer: C\n\nThinking it over, I had the fifth right. Final Answer: B"),
])
def test_a_broken_off_thought_or_an_uncorrected_second_answer_gives_no_answer(reader,
                                                                               reply) -> None:
    assert reader(reply).answer is None


def test_a_revision_after_a_comma_needs_a_first_person() -> None:
    assert revised_answer("The third is low, so I'll revise: B. Minor") == "B. Minor"
    assert revised_answer("The third is low, so changing to B.") is None
    assert revised_answer("The bass drops, changing to minor in the bridge.") is None


@pytest.mark.parametrize("reply", ["Major... no, it's minor.", "Major… no — minor."])
def test_after_interruption_keeps_what_follows_the_last_break(reply) -> None:
    assert after_interruption(reply).strip(" ,—") in ("it's minor.", "minor.")
    assert after_interruption("Major... no idea.") == "Major... no idea."


# --- 3. Two clips compared: the property named after a ranking, a clip denied as "the …
# one", a cleft ("it's loop 2 that has its kicks falling off the beat")

SYNCOPATED = WHICH_SYNCOPATED  # MUSE's two options: "The rhythm in Excerpt 1 is more syncopated."


@pytest.mark.parametrize(("reply", "answer"), [
    ("Loop 1 > Loop 2 in syncopation.", "A"),
    ("Clip 2 > clip 1 by syncopation, clearly.", "B"),
    ("The second clip isn't the syncopated one; it's the first.", "A"),
    ("Excerpt 2 is not the syncopated one.", "A"),
    ("So it's loop 2 that has its kicks falling off the beat.", "B"),
    ("Listening closely, it's the first excerpt whose snares are pushed off the beat.", "A"),
])
def test_a_comparison_of_two_clips_in_a_new_form_is_read(reply, answer) -> None:
    assert SYNCOPATED(reply).answer == answer


@pytest.mark.parametrize("reply", [
    "Excerpt 2 > Excerpt 1 in tempo.",  # ranked by another property
    "Excerpt 2 is not the syncopated one, or maybe it is.",  # a doubt
    "It's the first loop whose kicks sit on the beat.",  # the cleft names no syncopation
    "Maybe it's the first loop whose hits are pushed off the beat.",
    # the cleft's clause stops at its comma: the property belongs to the other clip
    "It's the second loop that is louder, but the first has hits pushed off the beat.",
])
def test_a_comparison_naming_another_property_or_doubting_gives_no_answer(reply) -> None:
    assert SYNCOPATED(reply).answer is None


# --- 4. An option's "X and then Y" said as "X then Y" -----------------------------------------


@pytest.mark.parametrize(("reply", "answer"), [
    ("Ascending then descending, answer A.", "A"),
    ("Descending then ascending.", "B"),
    ("Not ascending then descending; it's descending then ascending.", "B"),
])
def test_an_option_said_without_its_and_is_read(reply, answer) -> None:
    assert SHAPES(reply).answer == answer


@pytest.mark.parametrize("reply", [
    "Ascending, then descending, then ascending again.",  # neither shape alone
    "Ascending then descending, or maybe descending then ascending.",
])
def test_two_shapes_said_without_their_and_stay_a_hedge(reply) -> None:
    assert SHAPES(reply).answer is None


# --- 5. A pitch with a closing parenthesis that explains it ---------------------------------


@pytest.mark.parametrize(("reply", "key"), [
    ("Centre of the note: B3 (the tremolo wavers by about 20 cents around it).", 59),
    ("Most likely D5 (its vibrato is wide, roughly a quarter tone each way).", 74),
])
def test_a_pitch_before_an_explaining_parenthesis_is_read(reply, key) -> None:
    assert pitch_answer_reader("pitch", "spn")(reply).answer.keys == (key,)


@pytest.mark.parametrize("reply", [
    "B3 (or maybe C4, the tremolo is wide).",  # the parenthesis offers another pitch
    "I think it is B3 (though honestly it might be anything between A3 and C4).",
])
def test_a_parenthesis_offering_another_pitch_gives_no_answer(reply) -> None:
    assert pitch_answer_reader("pitch", "spn")(reply).answer is None

