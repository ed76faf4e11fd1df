"""Issue 30, round 8: sameness said without "same", retractions with a spoken correction,
answers said in descriptions (a drum kit by its pieces, a contour by what no step does, a
letter after the option's text), elimination conclusions, guesses, pitches named by their
noun phrase, and refusals that name the question. The rules are general; every phrasing here
was written for these tests (none is from a corpus), with near misses that must stay None."""

from __future__ import annotations

import pytest

from fixtures.muse.definitions import OUT_OF_KEY
from fixtures.muse.harmony_definitions import KEY_CHANGE, SAME_PROGRESSION
from fixtures.muse.rhythm_definitions import SAME_RHYTHM
from solvers.reading import (
    SAMENESS,
    choice_reader,
    lettered_yes_no_reader,
    pitch_answer_reader,
    yes_no_reader,
)

SAME_MELODY = yes_no_reader(SAMENESS)
SAME_RHYTHMS = yes_no_reader(SAME_RHYTHM)
SAME_CHORDS = yes_no_reader(SAME_PROGRESSION)
ODD_NOTE = yes_no_reader(OUT_OF_KEY)
KEY = lettered_yes_no_reader({"A": "Yes, the key changes.", "B": "No, the key holds."},
                             KEY_CHANGE)
CHORDS = choice_reader({"A": "Major", "B": "Minor", "C": "Augmented", "D": "Diminished"})
SHAPES = choice_reader({"A": "Rising", "B": "Falling", "C": "Arch", "D": "Inverted arch"})
COUNTS = choice_reader({"A": "0", "B": "3", "C": "5", "D": "7"})
BAND = choice_reader({"A": "Organ", "B": "Cello", "C": "Drum kit", "D": "Harp"})
HAND_DRUMS = choice_reader({"A": "Organ", "B": "Steel drums", "C": "Tabla", "D": "Harp"})
GENRES = choice_reader({"A": "Surf rock", "B": "Klezmer", "C": "Gospel", "D": "Drill"})
HZ = pitch_answer_reader("pitch", "hz")
SPN = pitch_answer_reader("pitch", "spn")

# --- 1. Sameness and difference without the word "same" -----------------------------------


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (SAME_RHYTHMS, "Not a single stroke moved from one loop to the other.", "yes"),
    (SAME_RHYTHMS, "No onset shifted anywhere in the two bars.", "yes"),
    (SAME_MELODY, "Nothing moved: every pitch sits where it did.", "yes"),
    (SAME_RHYTHMS, "The loops match beat for beat except for bar four, which adds a rest.", "no"),
    (SAME_RHYTHMS, "The grooves are identical apart from the last beat, where a fill comes in.",
     "no"),
    (SAME_MELODY, "Except for the closing note, the two tunes are the same.", "no"),
    (SAME_CHORDS, "Both run ii–V–I; only the key differs.", "yes"),
    (SAME_CHORDS, "The two progressions differ only in key.", "yes"),
    (SAME_MELODY, "The only difference is the register: the second sits an octave up.", "yes"),
    (SAME_RHYTHMS, "Loop 2 isn't the same as the other loop.", "no"),
    (SAME_CHORDS, "The later progression is not the same as the earlier one.", "no"),
    (SAME_MELODY, "The second tune is different from the first one.", "no"),
    (SAME_MELODY, "The answer tune is just the opening tune played in a lower key.", "yes"),
    (SAME_MELODY, "Clip two is clip one moved up a whole tone.", "yes"),
    # main read the first as "yes": a wrong reading
    (SAME_RHYTHMS, "Loop 2 is identical to loop 1 except in the third bar, where a rest appears.",
     "no"),
    (SAME_CHORDS, "The two progressions are the same apart from being in different keys.", "yes"),
    (SAME_RHYTHMS, "The loops line up perfectly except for one added kick.", "no"),
    (SAME_RHYTHMS, "Not a single onset differs between the two loops.", "yes"),
    (SAME_RHYTHMS, "Loop 2 drops the final kick.", "no"),
    (SAME_RHYTHMS, "The second pattern has an extra snare on the last beat.", "no"),
    (SAME_CHORDS, "Progression 2 differs from progression 1 in its last chord.", "no"),
    # the closing and-clause of a long sentence, said of the compared things
    (SAME_MELODY, "The two clips have the same rhythm, timbre and length, and the second is just "
                  "the first played in a lower key.", "yes"),
])
def test_sameness_said_otherwise_is_read(reader, reply: str, answer: str) -> None:
    assert reader(reply).answer == answer


@pytest.mark.parametrize(("reader", "reply"), [
    (SAME_RHYTHMS, "The rhythms are identical apart from"),  # nothing after the exception
    (SAME_RHYTHMS, "Not one stroke moved until the final bar."),  # a limit: it moved later
    (SAME_RHYTHMS, "Only if not one stroke moved."),  # a condition
    (SAME_RHYTHMS, "Is the groove identical apart from bar two?"),  # a question
    (SAME_CHORDS, "Not only the key differs."),
    (SAME_CHORDS, "The final chord is the same as the first chord."),  # a part of one
    (SAME_MELODY, "The rhythm is the same."),  # a part of a melody, said the same
    (SAME_MELODY, "The second tune is the first moved up a fourth, but the last note changes."),
    (SAME_RHYTHMS, "No stroke moved, but an extra one was added in bar 2."),  # a turn after it
    (SAME_RHYTHMS, "Both loops add a kick on beat 4."),  # both, not the second alone
    (SAME_MELODY, "The two tunes differ in key."),  # an aspect: says nothing of the tunes
    (SAME_RHYTHMS, "Not one stroke moved; however, loop 2 drops the last one."),
])
def test_sameness_near_misses_stay_unread(reader, reply: str) -> None:
    assert reader(reply).answer is None


def test_an_aspect_and_a_place_as_the_only_difference_is_a_difference() -> None:
    assert SAME_MELODY("The only difference is the key and one note in the last bar.").answer \
        == "no"


# --- 2. Retractions with a spoken correction between two final answers ---------------------


@pytest.mark.parametrize(("reply", "answer"), [
    ("Final Answer: Yes\n\nOne moment, the fourth chord is a iii. Let me amend my answer.\n\n"
     "Final Answer: No", "no"),
    ("Final Answer: No\n\nI misspoke: every chord lines up.\n\nFinal Answer: Yes", "yes"),
    ("Final Answer: Yes\n\nOn a second listen the bass moves differently in bar 3.\n\n"
     "Final Answer: No", "no"),
    ("Final Answer: No\nHold on, I compared the wrong bars.\nFinal Answer: Yes", "yes"),
    ("Final Answer: Yes\nLet me update my answer, the cadence differs.\nFinal Answer: No", "no"),
])
def test_a_spoken_correction_hands_the_answer_to_the_later_final(reply: str, answer: str) -> None:
    assert SAME_CHORDS(reply).answer == answer


@pytest.mark.parametrize("reply", [
    "Final Answer: Yes\nLet me fix my answer.",  # taken back, nothing new
    "Final Answer: Yes\nI misspoke.\nFinal Answer: No\nFinal Answer: Yes",  # two after it
    "Final Answer: Yes\nThe cadence is the same.\nFinal Answer: No",  # no correction marker
])
def test_retraction_near_misses_commit_to_nothing(reply: str) -> None:
    assert SAME_CHORDS(reply).answer is None


# --- 3. Answers said in descriptions, conclusions and guesses ------------------------------


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (CHORDS, "The third is not major and the fifth is not raised. That leaves B.", "B"),
    (CHORDS, "Augmented and diminished are both out, which leaves only A.", "A"),
    (CHORDS, "No raised or lowered fifth. What is left is the major triad.", "A"),
    (CHORDS, "The only option remaining is D.", "D"),
    (CHORDS, "Once the rest are out, what's left is the diminished chord.", "D"),
    (CHORDS, "The top is muddy, but if I had to pick I'd say (C).", "C"),
    (SHAPES, "I'll guess falling (B) because the ending is hard to hear.", "B"),
    (GENRES, "The reverb-soaked twang all points squarely to surf rock.", "A"),
    (GENRES, "Choir, organ and call-and-response point to gospel, option C.", "C"),
    (BAND, "No melody instrument at all here, only snare, toms and hi-hat.", "C"),
    (BAND, "There's nothing but kick and cymbals in this clip.", "C"),
    (SHAPES, "It never changes course: not a single step goes down from the first note to "
             "the last.", "A"),
    (SHAPES, "It does not turn back, and it never leaps either: each note is lower than the "
             "one before it.", "B"),
    (COUNTS, "It's a plain marching pattern and not one hit strays from the beat grid.", "A"),
    (SHAPES, "Each note sits higher than the previous one.", "A"),
    (SHAPES, "The pitch only ever goes down.", "B"),
    (GENRES, "The twangy reverb guitar points straight to surf rock.", "A"),
    (BAND, "This is pure percussion: kick, snare and a crash cymbal.", "C"),
])
def test_described_and_concluded_answers_are_read(reader, reply: str, answer: str) -> None:
    assert reader(reply).answer == answer


@pytest.mark.parametrize(("reader", "reply"), [
    (CHORDS, "That leaves B or D."),  # two options left
    (CHORDS, "I'll guess major because the top is bright, but it might be augmented."),
    (CHORDS, "I can't hear it, but if I had to guess I'd say major since it's the most common."),
    (GENRES, "Choir and organ point to gospel, option D."),  # the letter contradicts the text
    (GENRES, "Does the twang point to surf rock?"),
    (BAND, "There is no snare or kick, just a drone."),  # kit pieces negated
    (BAND, "The organ plays over kick and snare."),  # another option named
    (BAND, "Only snare and hi-hat back the cello line."),  # another option named
    (HAND_DRUMS, "Nothing but kick, snare and hi-hat."),  # no drum-kit option
    (SHAPES, "It rises first, then not a single step goes up after the peak."),
    (COUNTS, "It's a plain pattern and not a single hit stays on the grid."),
])
def test_described_near_misses_stay_unread(reader, reply: str) -> None:
    assert reader(reply).answer is None


# --- 4. Out-of-key notes said otherwise -------------------------------------------------------


@pytest.mark.parametrize(("reply", "answer"), [
    ("There is a D sharp halfway through this G major tune, which clashes with the key.", "yes"),
    ("One pitch in bar three does not belong to the key.", "yes"),
    ("The C sharp stands out as not belonging to the key.", "yes"),
    ("The tune is in F major with a B natural in bar two, which doesn't belong to the key.",
     "yes"),
    ("Nothing clashes with the key.", "no"),
])
def test_out_of_key_phrases_are_read(reply: str, answer: str) -> None:
    assert ODD_NOTE(reply).answer == answer


# --- 5. Pitches named by their noun phrase ---------------------------------------------------


@pytest.mark.parametrize(("reply", "key"), [
    ("The tremolo hovers around a centre pitch of three hundred thirty hertz.", 64),
    ("After the attack the tone settles at a steady frequency of 523 Hz.", 72),
])
def test_a_pitch_named_by_its_noun_phrase_is_read(reply: str, key: int) -> None:
    assert HZ(reply).answer.keys == (key,)


@pytest.mark.parametrize("reply", [
    "An octave above a pitch of 440 Hz.",  # a point of comparison
    "It is a fifth below a pitch of 660 Hz.",
])
def test_a_compared_pitch_is_no_answer(reply: str) -> None:
    assert HZ(reply).answer is None


# --- 6. Refusals that name the question ------------------------------------------------------


@pytest.mark.parametrize(("reader", "reply"), [
    (SPN, "I can't identify which note this is; E4 is my reference."),
    (SPN, "I cannot answer questions about pitch."),
    (HZ, "I am unable to determine what frequency this is. 440 Hz is the tuning."),
    (CHORDS, "I can't determine which chord this is, sorry."),
    (CHORDS, "I cannot identify which option is right; the minor one is common."),
    (KEY, "I can't determine whether the key changes."),
    (KEY, "I cannot answer questions about key changes."),
])
def test_a_refusal_naming_the_question_is_no_answer(reader, reply: str) -> None:
    assert reader(reply).answer is None


# --- 7. Further general forms found on the earlier blind set (blind6), in other words --------


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (SAME_MELODY, "Nothing differs between the clips apart from the key.", "yes"),
    (SAME_CHORDS, "Not one chord changes between the two takes.", "yes"),
    (CHORDS, "To my ear it is a bright, stable triad, in other words a major chord, which is "
             "option A.", "A"),
    (GENRES, "A fair guess here would be klezmer, given the clarinet's bends.", "B"),
    (COUNTS, "Over eight bars I count five snare hits on the offbeats, which puts the groove at "
             "5.", "C"),
])
def test_further_general_forms_are_read(reader, reply: str, answer: str) -> None:
    assert reader(reply).answer == answer


@pytest.mark.parametrize(("reader", "reply"), [
    (SAME_MELODY, "Nothing differs between the clips apart from the ending."),  # a place
    (SAME_CHORDS, "There are no chord changes."),  # a noun phrase, not a denied change
])
def test_further_near_misses_stay_unread(reader, reply: str) -> None:
    assert reader(reply).answer is None


def test_an_aspect_exception_of_a_key_change_question_is_never_no_change() -> None:
    # of a key-change question the key is what is asked: its exception is no detail to drop
    assert KEY("Nothing changes except the key.").answer != "B"
