"""Issue 30, round 22: an answer followed by a doubt is that answer (docs/reading.md, round 22).

A reply that commits to one answer and then doubts it (the answer, the recording or a part of
it, with or without a degree) is read as that answer, as a human grader reads it. A hedge is a
reply that does not choose: another option offered as a candidate, two answers, its answer
taken back, or "can't tell" instead of an answer. Every phrasing here was written for these
tests; each group has near misses that must stay hedges. Section 3 holds the rules blind19's
wrong readings and declines asked for.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fixtures.muse.harmony_definitions import KEY_CHANGE, SAME_PROGRESSION
from solvers.caveats import split_caveat
from solvers.doubts import doubt_only
from solvers.reading import SAMENESS, choice_reader, pitch_answer_reader, yes_no_reader

QUALITY = choice_reader({"A": "Major", "B": "Minor", "C": "Dominant", "D": "Diminished"})
TIMBRE = choice_reader({"A": "Piano", "B": "Violin", "C": "Trumpet", "D": "Flute"})
COUNT = choice_reader({"A": "0 (No Syncopation)", "B": "2 (Low Syncopation)",
                       "C": "4 (Medium-Low Syncopation)", "D": "6 (Medium-High Syncopation)"})
SAME = yes_no_reader(SAMENESS)
PROGRESSIONS = yes_no_reader(SAME_PROGRESSION)
KEYS = yes_no_reader(KEY_CHANGE)
MIDI = pitch_answer_reader("pitch", "midi")
HZ = pitch_answer_reader("pitch", "hz")


def key(reader, reply: str) -> int | None:
    answer = reader(reply).answer
    return None if answer is None else answer.keys[0]


# --- 1. Doubts of any form after (or before) a committed answer are that answer ----------------


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (QUALITY, "Minor, although I'm not sure.", "B"),  # no degree
    (QUALITY, "B. (Not sure.)", "B"),  # a parenthesis of doubt alone
    (QUALITY, "Probably D, but I can't be certain.", "D"),
    (QUALITY, "I think it's minor, but the take is noisy so I can't be 100% sure.", "B"),
    (QUALITY, "Final Answer: A, though it's hard to tell.", "A"),  # doubts the answer itself
    (QUALITY, "Dominant. I'm not sure, though.", "C"),  # a sentence of doubt after the answer
    (QUALITY, "Not certain, but C.", "C"),  # the doubt first
    (QUALITY, "Diminished, I think, but I might be mistaken.", "D"),
    (QUALITY, "Final Answer: B (low confidence)", "B"),
    (QUALITY, "Final Answer: A\nI'm honestly unsure about this one.", "A"),  # a line of doubt
    (QUALITY, "Minor\n\nHard to tell, to be honest.", "B"),  # below a short answer line
    (QUALITY, "It is major, though the recording is muddy and I have some doubts.", "A"),
    (QUALITY, "Major, though the top voice is unclear — the piano's sustain smears it.", "A"),
    (QUALITY, "Minor, but that's just a guess.", "B"),
    (QUALITY, "Dominant, I'd say, though it's a close call.", "C"),
    (TIMBRE, "Trumpet — though I couldn't make out the attacks clearly.", "C"),
    (TIMBRE, "Flute, although there is no way to be sure from such a short clip.", "D"),
    (TIMBRE, "Violin (take it with a grain of salt).", "B"),
    (TIMBRE, "The answer is A, though I may have missed a quiet second instrument.", "A"),
    (COUNT, "Final Answer: C, though the ghost notes in the last bar are hard to count.", "C"),
])
def test_an_answer_with_a_doubt_is_that_answer(reader, reply: str, answer: str) -> None:
    assert reader(reply).answer == answer


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (SAME, "Yes, they are the same melody, though I'm not completely sure.", "yes"),
    (SAME, "They are the same melody, but there's a chance I missed an altered note.", "yes"),
    (SAME, "No. I can't be certain, though.", "no"),
    (PROGRESSIONS, "Yes (hard to say for sure with these voicings).", "yes"),
    (KEYS, "No, though I might be wrong.", "no"),
    (KEYS, "Yes, it modulates, though I'm not sure about the exact bar.", "yes"),
])
def test_a_yes_no_answer_with_a_doubt_is_that_answer(reader, reply: str, answer: str) -> None:
    assert reader(reply).answer == answer


@pytest.mark.parametrize(("reader", "reply", "midi"), [
    (MIDI, "62, though I'm not sure.", 62),
    (MIDI, "Probably 57, but I can't be certain.", 57),
    (MIDI, "Final Answer: 71 (I'm not confident)", 71),
    (HZ, "About 330 Hz. The onset is noisy, so I could be off.", 64),
])
def test_a_pitch_with_a_doubt_is_that_pitch(reader, reply: str, midi: int) -> None:
    assert key(reader, reply) == midi


# --- 2. Near misses: what still makes a hedge --------------------------------------------------


@pytest.mark.parametrize(("reader", "reply"), [
    (QUALITY, "Minor, though I'm not sure — it could be diminished."),  # another offered
    (QUALITY, "Minor, or possibly dominant."),
    (QUALITY, "Minor, though I'm not sure about major."),  # the doubt names another option
    (QUALITY, "Diminished, though I can't rule out minor."),
    (QUALITY, "Minor or diminished, I can't tell which."),  # two answers
    (QUALITY, "Final Answer: B, though honestly it might be D."),
    (QUALITY, "Major, though I'm not sure it isn't dominant."),  # a negation naming another
    (QUALITY, "Minor — actually no, I'm not sure."),  # taken back
    (QUALITY, "Minor? I'm not sure."),  # asked, not given
    (QUALITY, "I'm not sure."),  # a doubt instead of an answer
    (QUALITY, "Final Answer: not sure"),
    (QUALITY, "I can't tell if it's minor."),  # the answer is only what is doubted
    (TIMBRE, "Violin, though a flute is also possible."),
    (TIMBRE, "Piano, but I'm unsure — something else may be playing the melody."),
])
def test_a_doubt_that_offers_or_withdraws_stays_a_hedge(reader, reply: str) -> None:
    assert reader(reply).answer is None


@pytest.mark.parametrize(("reader", "reply"), [
    # "can't say whether" the question's own answer: cannot tell, instead of answering
    (PROGRESSIONS, "The first two chords share their functions, but I'm unsure about the last "
                   "one, so I can't say whether they are the same progression."),
    (SAME, "Yes, the same melody, though I'm not sure — the last note differs."),  # differs
    (SAME, "They sound alike; the only possible difference is the ending, which I can't hear "
           "clearly enough to decide."),  # a possible difference, and no decision
    (KEYS, "No, though it might modulate near the end."),
])
def test_a_yes_no_doubt_that_offers_or_cannot_tell_stays_a_hedge(reader, reply: str) -> None:
    assert reader(reply).answer is None


def test_an_offer_after_a_doubt_vetoes_any_answer_it_names() -> None:
    # read 63 before round 22: the doubt made the first part unreadable, the offer answered
    assert MIDI("62, though I'm not sure; could be 63.").answer is None
    assert MIDI("62, though I'm not sure.").answer.keys == (62,)
    # a doubt between an answer and an offer stays: the sentence reads as before (no answer)
    assert QUALITY("The third is faint. I'd say major, but I'm not sure; it might be minor."
                   ).answer is None
    assert SAME("They sound the same, but I'm not sure; the second may have an altered note."
                ).answer is None
    # "can't rule out" offers; a pitch in another notation beside a pitch answer vetoes it
    assert MIDI("It's E4 (64), though I can't rule out F4.").answer is None
    assert MIDI("64, though I'm not sure about F4.").answer is None


def test_a_doubt_about_a_change_or_an_altered_note_is_no_plain_doubt() -> None:
    # a difference said in passing may be the other answer: the clause is read as before
    assert doubt_only("though I'm not sure about the ending, where one note seems altered") \
        is None
    assert doubt_only("though I'm not sure about the key change") is None
    assert doubt_only("though I'm not sure about the ending") == "about the ending"


def test_a_line_of_doubt_that_says_more_is_kept_as_it_is() -> None:
    # "what happens after" is what the reply cannot tell: the line is no mere doubt to drop
    assert KEYS("It stays in C major for the first half.\nHard to tell what happens after."
                ).answer is None
    assert QUALITY("Minor.\nNot sure, though.").answer == "B"  # a doubt alone is dropped


def test_a_caveat_negating_the_answer_withdraws_it() -> None:
    # read as the answer before round 22: the negation named no option
    assert QUALITY("Diminished, though I doubt it.").answer is None
    assert QUALITY("Major. Probably not, though.").answer is None
    assert KEYS("Yes, but I don't think so.").answer is None
    # agreeing with a "no", or before the answer it then gives, it withdraws nothing
    assert KEYS("No, probably not.").answer == "no"
    assert QUALITY("Is it major? I don't think so. It's minor.").answer == "B"


def test_a_plain_cannot_of_a_difference_is_no_doubt() -> None:
    # "I can't hear any difference" denies a difference (an answer), it doubts nothing
    assert SAME("I can't hear any difference between the two.").answer == "yes"
    assert doubt_only("I can't hear any difference between them") is None


def test_not_having_the_audio_is_no_doubt() -> None:
    # an admission that the recording is missing makes a fact said next to it no answer
    assert key(MIDI, "I can't hear the audio, but concert A is MIDI 69.") is None


def test_what_a_doubt_says_besides_is_kept_to_veto() -> None:
    line, subjects = split_caveat("Minor, though I'm not sure whether the fifth is flat.")
    assert line == "Minor."
    assert subjects == [("the fifth is flat", "caveat_question")]
    line, subjects = split_caveat("B (though I may have missed a second bowed part).")
    assert line == "B." and subjects == []  # what may have been missed is conceded, not read


# --- 3. blind19: a questioned answer line, a later sentence offering another answer ----------


def test_an_answer_line_whose_value_is_asked_is_no_answer_line() -> None:
    # "Answer: 74? …" thinks aloud; the answer is the one given after it
    reply = "Answer: 74? No — that is the octave partial; the fundamental is lower. I'll say 62."
    assert key(MIDI, reply) == 62
    assert key(MIDI, "Answer: 74?") is None or key(MIDI, "Answer: 74?") == 74  # alone: as before


def test_a_later_sentence_offering_another_answer_makes_a_hedge() -> None:
    reply = ("The frequency is about 440 Hz, i.e. A4. On the other hand, it could be A#4 at "
             "466 Hz given how bright it is; the spectrum favours A4, the brightness A#4.")
    assert HZ(reply).answer is None  # (read 69 before round 22)
    # the same answer offered again, or nothing offered: the answer stands
    assert key(HZ, reply.replace("A#4 at 466 Hz", "A4 at 440 Hz").replace("brightness A#4",
                                                                          "brightness A4")) == 69
    assert key(HZ, "The frequency is about 440 Hz, i.e. A4. On the other hand, the tone is a "
                   "little bright; the spectrum sits near A4.") == 69
    # what is offered only vetoes: never the answer itself
    assert HZ("The tone is bright and steady. On the other hand, it could be A#4 at 466 Hz, "
              "given how bright it is; still, I am hesitant about committing here.").answer is None


def test_a_doubt_before_a_hypothetical_answer_is_kept_with_it() -> None:
    # "… which would make it six" offers an answer: the doubt is no caveat, the line reads whole
    reply = ("Final Answer: C\n\nHmm, I might have missed a ghost note in bar 3, which would "
             "make it six... but I'll stay with C.")
    assert COUNT(reply).answer == "C"


# --- 4. Properties ------------------------------------------------------------------------------

COMMITTED = [("Minor.", "B"), ("Final Answer: D", "D"), ("I'd go with C.", "C"),
             ("The chord is major.", "A"), ("B", "B")]
OPENINGS = [", though", ", but", " —", ";", ", although"]
DOUBTS = ["I'm not sure", "I can't be certain", "it is hard to tell", "I might be wrong",
          "I'm not completely confident", "the recording is noisy, so I'm not sure",
          "I may have missed something", "it's hard to hear the fifth", "I have my doubts"]
ABOUT = ["", " about the fifth", " about the voicing in the second bar", " given the reverb"]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(COMMITTED), st.sampled_from(OPENINGS), st.sampled_from(DOUBTS),
       st.sampled_from(ABOUT), st.booleans())
def test_a_doubt_naming_no_option_never_changes_a_committed_reading(committed, opening, doubt,
                                                                    about, own_sentence) -> None:
    reply, answer = committed
    assert QUALITY(reply).answer == answer
    clause = f" {doubt[0].upper()}{doubt[1:]}{about}." if own_sentence \
        else f"{opening} {doubt}{about}."
    doubted = QUALITY(reply.rstrip(".") + ("." if own_sentence else "") + clause).answer
    assert doubted == answer  # never another option, and not withdrawn either


OTHERS = {"A": "major", "B": "minor", "C": "dominant", "D": "diminished"}


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(COMMITTED), st.sampled_from(OPENINGS), st.sampled_from(
    ["it might be {}", "I'm not sure it isn't {}", "{} is also possible", "or possibly {}",
     "I'm not sure about {}"]))
def test_a_doubt_offering_another_option_is_a_hedge(committed, opening, offer) -> None:
    reply, answer = committed
    other = next(text for letter, text in OTHERS.items() if letter != answer)
    assert QUALITY(f"{reply.rstrip('.')}{opening} {offer.format(other)}.").answer is None
