"""Issue 30, round 23: an explicit change of mind is the new answer, a concluding sentence
decides, and a guess given after a refusal is that answer (docs/reading.md, round 23).

Every phrasing here was written for these tests; each group has near misses that keep their
reading (a hedge, or the answer main read).
"""

from __future__ import annotations

import pytest

from fixtures.muse.harmony_definitions import KEY_CHANGE
from solvers.answer_cues import colon_conclusion
from solvers.changes_of_mind import concluding
from solvers.reading import SAMENESS, choice_reader, pitch_answer_reader, yes_no_reader

QUALITY = choice_reader({"A": "Major", "B": "Minor", "C": "Dominant", "D": "Diminished"})
TIMBRE = choice_reader({"A": "Piano", "B": "Violin", "C": "Trumpet", "D": "Flute"})
SHAPE = choice_reader({"A": "Ascending", "B": "Descending", "C": "Arch", "D": "Inverted arch"})
METER = choice_reader({"A": "Duple (2/4)", "B": "Triple (3/4)", "C": "Compound duple (6/8)"})
COUNT = choice_reader({"A": "0 (No Syncopation)", "B": "2 (Low Syncopation)",
                       "C": "4 (Medium-Low Syncopation)", "D": "6 (Medium-High Syncopation)"})
SAME = yes_no_reader(SAMENESS)
KEYS = yes_no_reader(KEY_CHANGE)
MIDI = pitch_answer_reader("pitch", "midi")


# --- 1. An explicit change of mind with one new answer is that answer -------------------------


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (QUALITY, "Final Answer: B\n\nHmm, the third sounds raised after all. Changing my answer to "
              "A.", "A"),
    (QUALITY, "Final Answer: B\n\nI'm changing my answer to major.", "A"),
    (QUALITY, "Final answer: Minor\n\nWait, I was wrong: the third is a major third. The chord "
              "is major.", "A"),
    (TIMBRE, "**Answer: Violin**\n\nOn second thought, the attack is brassy and there is no bow "
             "noise. Correcting myself: it is a trumpet.", "C"),
    (TIMBRE, "Answer: Piano\n\nHmm, listening more carefully, the tone swells after the attack. "
             "It is a flute.", "D"),
    (SAME, "Answer: No\n\nLet me revise: I misheard the second clip. Yes, they are the same "
           "melody.", "yes"),
    (KEYS, "**Answer: No**\n\nOn reflection, the last phrase is in fact in the dominant. "
           "Correcting myself: **Yes**, the key changes.", "yes"),
])
def test_a_change_of_mind_after_an_answer_line_is_the_new_answer(reader, reply, answer):
    assert reader(reply).answer == answer


@pytest.mark.parametrize(("reader", "reply"), [
    (QUALITY, "Final Answer: B\n\nWait, it could also be A."),  # offered as a possibility
    (QUALITY, "Final Answer: B\n\nActually, maybe major."),
    (QUALITY, "Final Answer: B\n\nActually, it's either major or dominant."),  # two options
    (QUALITY, "Final Answer: B\n\nWait, I was wrong."),  # withdrawn, nothing new
    (QUALITY, "Final Answer: B\n\nOn second thought, it is not minor."),  # negated only
    (QUALITY, "Final Answer: B\n\nActually, if the bass is the root, it would be major."),
    (QUALITY, "Final Answer: B\nFinal Answer: A"),  # two answers, no marker of change
    (QUALITY, "Final Answer: B\n\nHmm. Major."),  # "Hmm" alone says no change
    (SAME, "Final Answer: Yes\n\nWait, the second melody might differ in bar 2."),
    (SAME, "Final Answer: Yes\n\nOn second thought, I am not sure they are the same."),
    # a yes/no read from phrases alone is too loose to replace an answer: an explicit word is needed
    (SAME, "Final Answer: Yes\n\nActually, listening again, the fourth note is a semitone "
           "higher in the second melody, so they are different melodies."),
    (SAME, "Final Answer: No\n\nWait, the first four notes are the same."),
    (SAME, "No. Actually, the first half is identical."),
    (KEYS, "Final Answer: Yes\n\nActually, the key does not change until the last bar."),
])
def test_a_doubt_or_an_offer_after_an_answer_line_stays_a_hedge(reader, reply):
    assert reader(reply).answer is None


@pytest.mark.parametrize(("reply", "answer"), [
    ("Final Answer: 64\n\nWait, I was wrong: it is 65.", 65),
    ("Final Answer: 64\n\nWait, 65 is the next semitone up, so 64 stands.", None),  # both named
    ("Final Answer: 64\n\nActually, listening again, it could be 65.", None),
])
def test_a_pitch_changed_after_an_answer_line_names_no_other_pitch(reply, answer):
    reading = MIDI(reply).answer
    assert (reading and reading.keys[0]) == answer


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (QUALITY, "Final Answer: B\n\nHmm, the third sounds low. The chord is minor.", "B"),
    (QUALITY, "Final Answer: B\n\nThe third is flat, so the chord is not major.", "B"),
    (SAME, "Final Answer: No\n\nThe second melody also starts a tone higher.", "no"),
])
def test_what_follows_an_answer_line_without_a_new_answer_keeps_it(reader, reply, answer):
    assert reader(reply).answer == answer


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (TIMBRE, "It sounds like a piano. Hmm, listening more carefully, it is a violin.", "B"),
    (TIMBRE, "Piano. Actually, listening again, it is a violin.", "B"),
    (QUALITY, "Minor. Wait, on a closer listen, it's a major chord.", "A"),
    (SAME, "They are the same. Wait, listening again, the last note differs. No, they are "
           "different melodies.", "no"),
    # near misses: no marker, an offer, no new answer (the answer read as on main)
    (TIMBRE, "Piano. Hmm, it is a violin.", None),
    (TIMBRE, "Piano. Actually, it might be a violin.", None),
    (TIMBRE, "Piano. Actually, the attack is soft.", "A"),  # a remark: as on main
])
def test_a_change_of_mind_closing_a_reply_without_an_answer_line(reader, reply, answer):
    assert reader(reply).answer == answer


# --- 2. A concluding sentence decides -----------------------------------------------------------


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (KEYS, "The first phrase stays in the tonic, no key change there. But the last phrase "
           "cadences firmly in the dominant. So yes, the key changes.", "yes"),
    (SAME, "At first they sound identical. Then the last note of the second drops a tone. "
           "Therefore, they are different melodies.", "no"),
    (SAME, "No — hold on, the second just starts higher and keeps every interval. So yes, "
           "they are the same melody.", "yes"),
    (QUALITY, "The third sounds low at first, like a minor chord. Listening to the top voice, "
              "though, it is a raised third. So it's a major chord.", "A"),
])
def test_a_concluding_sentence_decides_over_the_reasoning_before_it(reader, reply, answer):
    assert reader(reply).answer == answer


@pytest.mark.parametrize(("reader", "reply"), [
    (QUALITY, "The third sounds low, like a minor chord. So it's major or dominant."),
    (QUALITY, "It sounds minor to me at first. So it might be major after all."),
    (SAME, "They sound the same at first. Then the last note drops. So they could differ."),
    (SAME, "They are the same melody at first glance. So unless I misheard, no."),
    # no turn between the answer and a conclusion about a part
    (KEYS, "It modulates to G in the bridge. So the last phrase is back in the home key, no "
           "modulation there."),
])
def test_a_conclusion_that_doubts_offers_or_supposes_decides_nothing(reader, reply):
    assert reader(reply).answer is None


@pytest.mark.parametrize(("sentences", "closing"), [
    (["It dips, but then climbs.", "So yes, it does."], "So yes, it does."),
    (["Hmm, it climbs.", "Therefore the shape is ascending."], "Therefore the shape is ascending."),
    (["It climbs.", "So yes, it does."], None),  # no turn in the reasoning before it
    (["So yes."], None),  # no reasoning before it
    (["It climbs.", "So maybe yes."], None),
    (["It climbs.", "Sometimes it falls."], None),  # no marker: "so" must open the sentence
])
def test_what_concludes(sentences, closing):
    assert concluding(sentences) == closing


# --- 3. An answer closing a reasoning after a colon; a guess after a refusal --------------------


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (SHAPE, "Each note is lower than the one before it, from the first to the last (with one "
            "repeated note): Descending.", "B"),
    (SHAPE, "It rises for the first three notes and then falls back down to where it started: "
            "Arch.", "C"),
    (METER, "I have no way of hearing this recording, so what follows is only a guess from the "
            "genre: B (3/4).", "B"),
    (TIMBRE, "I can't listen to audio files, but if I had to guess: (D) Flute.", "D"),
    (COUNT, "Nearly every hit lands on the beat and only the last bar pushes one snare, so I'd "
            "rate it low syncopation (2).", "B"),
])
def test_an_answer_closing_a_reasoning_or_a_guess_after_a_refusal_is_read(reader, reply, answer):
    assert reader(reply).answer == answer


@pytest.mark.parametrize(("reader", "reply"), [
    (SHAPE, "It could rise at first or stay level for a while, I'm not sure which of the two: "
            "Arch."),
    (SHAPE, "The melody rises at first and then falls, so the two options I'm between are: Arch "
            "or Ascending."),
    (TIMBRE, "I'm unable to hear the recording, so I won't guess."),
    (METER, "I can't hear the audio; the three options here are: A, B and C."),
])
def test_a_doubting_reasoning_or_a_refusal_alone_reads_nothing(reader, reply):
    assert reader(reply).answer is None


@pytest.mark.parametrize(("sentence", "value"), [
    ("It rises from the first note to the last: Ascending.", "Ascending"),
    ("It rises from the first note to the last: it is clearly an ascending line.", None),
    ("It rises, then maybe falls, at the end: Arch.", None),  # doubted
    ("The one shape this melody clearly does not have is this: Arch.", None),  # denied
    ("The first thing I can rule out from the contour alone is: Arch.", None),  # ruled out
    ("Besides the melody, the accompaniment is clearly audible here: piano.", None),  # a part
    ("I can't hear the audio, so this is only a guess from the genre: B (3/4).", "B (3/4)"),
    ("It rises.", None),
])
def test_a_colon_conclusion(sentence, value):
    assert colon_conclusion(sentence) == value


# --- 4. A reply cut off in a sequence ("… and then") answers nothing -----------------------------


@pytest.mark.parametrize(("reply", "answer"), [
    ("The melody rises at first and then", None),  # read as ascending on main: a wrong reading
    ("The line climbs for a bar, then", None),
    ("It falls all the way down, so B then", "B"),  # "then" closing an answer is finished
    ("The melody rises from start to finish", "A"),
])
def test_a_reply_cut_off_in_a_sequence_answers_nothing(reply, answer):
    assert SHAPE(reply).answer == answer
