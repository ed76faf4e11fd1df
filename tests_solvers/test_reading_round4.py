"""Issue 30, last misses: the settled retraction rule, a reference pitch in the answer sentence,
negations of yes/no answers, counts stated as none and guesses by option text. Each rule is
general; the phrasings here were written for these tests (none is from a corpus)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fixtures.muse.definitions import OUT_OF_KEY
from fixtures.muse.harmony_definitions import KEY_CHANGE, SAME_PROGRESSION
from fixtures.muse.rhythm_definitions import SAME_RHYTHM
from fixtures.tasks import syncopation
from fixtures.tasks.definitions import CHORD, TRANSPOSITION
from solvers.reading import (
    HEDGE,
    SAMENESS,
    choice_reader,
    lettered_yes_no_reader,
    pitch_answer_reader,
    yes_no_reader,
)

# --- 1. The settled retraction rule ----------------------------------------------------------

MARKERS = ("Wait, the fifth sounds flat.", "Actually, listening again, the fifth sounds flat.",
           "On second thought, the third is lower.", "Listening again, the top note is off.",
           "Re-listening to the clip, the seventh is there.", "I was wrong about the third.",
           "Recount: the intervals are 3, 3, 3.", "Let me correct that.",
           "Hmm, actually listening again the fifth sounds flat.")


@pytest.mark.parametrize("marker", MARKERS)
def test_a_correction_marker_commits_to_the_one_answer_after_it(marker: str) -> None:
    assert CHORD.extract_answer(f"Final Answer: B\n\n{marker}\n\nFinal Answer: D") == "D"


@pytest.mark.parametrize("marker", MARKERS)
def test_two_answers_after_a_correction_marker_stay_a_hedge(marker: str) -> None:
    reply = f"Final Answer: B\n\n{marker}\n\nFinal Answer: D\n\nFinal Answer: A"
    assert CHORD.read_answer(reply).error == "hedge"


@pytest.mark.parametrize("marker", MARKERS)
def test_a_correction_marker_with_no_answer_after_it_commits_to_nothing(marker: str) -> None:
    assert CHORD.extract_answer(f"Final Answer: B\n\n{marker}") is None


@pytest.mark.parametrize("between", ["", "The third is minor and the fifth perfect.",
                                     "Hmm.", "Let me describe the bass line."])
def test_two_final_answers_with_no_marker_between_stay_a_hedge(between: str) -> None:
    assert CHORD.read_answer(f"Final Answer: B\n\n{between}\n\nFinal Answer: D").error == "hedge"


def test_the_rule_holds_for_every_kind() -> None:
    assert TRANSPOSITION.extract_answer(
        "Final Answer: Yes\n\nWait, the last interval is different.\n\nFinal Answer: No") == "no"
    read_key = lettered_yes_no_reader({"A": "Yes, a key modulation occurs.",
                                       "B": "No, the key stays the same."}, KEY_CHANGE)
    assert read_key("Final Answer: A\nActually, re-listening, the key holds.\n"
                    "Final Answer: B").answer == "B"
    mcq = choice_reader({"A": "Violin", "B": "Cello", "C": "Flute", "D": "Oboe"})
    assert mcq("Final Answer: A\nOn second thought, it is lower.\nFinal Answer: B").answer == "B"
    pitch = pitch_answer_reader("pitch", "spn")
    assert pitch("Final Answer: E4\nOn second thought, a semitone higher.\n"
                 "Final Answer: F4").answer.keys == (65,)
    assert pitch("Final Answer: E4\nWait — re-listening — Final Answer: F4").answer.keys == (65,)


# --- 2. A reference pitch in the answer sentence -----------------------------------------------

@pytest.mark.parametrize(("reply", "notation", "midi_note"), [
    ("With the reference A4 = 440 Hz, the tone is about 261.63 Hz.", "hz", 60),
    ("With the tuning reference A4 = 440 Hz, this one is 392 Hz.", "hz", 67),
    ("Final Answer: with the reference A440 the note is 329.63 Hz", "hz", 64),
    ("Its pitch is 220 Hz, an octave below the A4 = 440 Hz reference.", "hz", 57),
    ("The reference is 69; the second tone is a perfect fourth higher, so 74.", "midi", 74),
    ("The reference note is 60 and the answer is 67.", "midi", 67),
    ("Reference: C4. The second tone is a fifth up, G4.", "spn", 67),
    ("The tone is an E, two octaves above E3: E5.", "spn", 76),
])
def test_the_reference_in_the_answer_sentence_is_set_aside(reply, notation, midi_note) -> None:
    assert pitch_answer_reader("pitch", notation)(reply).answer.keys == (midi_note,)


@pytest.mark.parametrize(("reply", "notation"), [
    ("The reference is 69; the tone is 71 or 72.", "midi"),
    ("With the reference A4 = 440 Hz, it is 261.63 Hz or 277.18 Hz.", "hz"),
])
def test_two_candidates_beside_a_reference_are_no_answer(reply: str, notation: str) -> None:
    assert pitch_answer_reader("pitch", notation)(reply).answer is None


# --- 3. Negations of yes/no answers ------------------------------------------------------------

@pytest.mark.parametrize(("phrases", "reply", "expected"), [
    (SAMENESS, "The two melodies don't differ anywhere.", "yes"),
    (SAMENESS, "They do not differ at all.", "yes"),
    (SAMENESS, "The melodies never deviate from each other.", "yes"),
    (SAMENESS, "Nothing differs between them.", "yes"),
    (SAMENESS, "No note differs between the two.", "yes"),
    (SAMENESS, "The melodies differ in the last bar.", "no"),
    (SAMENESS, "The key differs, but the melody is the same.", "yes"),  # a transposition
    (SAME_PROGRESSION, "No chord changes function between the two", "yes"),
    (SAME_PROGRESSION, "No chord changes its role between them.", "yes"),
    (SAME_RHYTHM, "No hit varies between the two loops.", "yes"),
    (OUT_OF_KEY, "The melody is not entirely diatonic: the F# is foreign.", "yes"),
    (OUT_OF_KEY, "The melody isn't fully diatonic.", "yes"),
    (OUT_OF_KEY, "One note is out of key.", "yes"),
    (OUT_OF_KEY, "Nothing sounds out of place.", "no"),
    (OUT_OF_KEY, "No note is out of key.", "no"),
    (OUT_OF_KEY, "I don't hear any note that isn't in the key.", "no"),
    (OUT_OF_KEY, "There's a note that isn't in the key.", "yes"),
])
def test_negations_of_the_answer_are_read(phrases, reply: str, expected: str) -> None:
    assert yes_no_reader(phrases)(reply).answer == expected


@pytest.mark.parametrize(("phrases", "reply"), [
    (SAMENESS, "One note differs."),  # a part, not the melodies
    (SAMENESS, "There is no reverb."),
    (SAME_PROGRESSION, "There are no chord changes."),
    (OUT_OF_KEY, "The melody is in the key of G, not in the key of C."),
])
def test_what_a_negation_does_not_answer_stays_unread(phrases, reply: str) -> None:
    assert yes_no_reader(phrases)(reply).answer is None


def test_a_negation_s_reach_ends_at_a_conjunction() -> None:
    assert yes_no_reader(SAMENESS)("There is no reverb and the melodies are the same.").answer \
        == "yes"


NEGATED_DIFFERENCE = ("{} don't differ.", "{} do not differ at all.", "{} never differ.")


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(("The two melodies", "They", "These melodies", "Both melodies")),
       st.sampled_from(NEGATED_DIFFERENCE))
def test_a_negated_verb_of_difference_always_says_the_same(subject: str, template: str) -> None:
    read = yes_no_reader(SAMENESS)
    assert read(template.format(subject)).answer == "yes"
    assert read(template.format(subject).replace(" don't", "").replace(" do not", "")
                .replace(" never", "")).answer == "no"


# --- 4. Counts stated as none ------------------------------------------------------------------

SYNCOPATION = choice_reader(syncopation.OPTIONS, syncopation.ANSWER_ALIASES)
ZERO = syncopation.SYNCOPATION_LETTER_BY_COUNT[0]


@pytest.mark.parametrize("reply", [
    "There isn't a single kick or snare between the beats.",
    "There are no off-beat hits.",
    "Not a single hit falls between the beats.",
    "There aren't any snares off the beat.",
    "No kick or snare lands between the beats.",
])
def test_a_count_stated_as_none_is_the_option_meaning_zero(reply: str) -> None:
    assert SYNCOPATION(reply).answer == ZERO


@pytest.mark.parametrize("reply", [
    "No hit falls on the beat.",  # all off the beat: no count of none
    "Not one of the options fits.", "No idea.",
])
def test_a_none_said_of_something_else_is_no_count(reply: str) -> None:
    assert SYNCOPATION(reply).answer is None


def test_a_none_count_needs_an_option_meaning_zero() -> None:
    assert CHORD.extract_answer("There are no off-beat hits.") is None


# --- 5. Guesses by option text -----------------------------------------------------------------

TEMPO = {"A": "slow", "B": "fast", "C": "moderate"}


@pytest.mark.parametrize("reply", [
    "I would guess the tempo is fast.", "I'd guess the pace is fast.",
    "I can't be sure, but I'd guess the tempo is fast.", "I guess the beat sounds fast.",
])
def test_a_guess_said_of_the_subject_is_read_by_option_text(reply: str) -> None:
    assert choice_reader(TEMPO)(reply).answer == "B"


@pytest.mark.parametrize("reply", ["I would guess the tempo is fast or slow.",
                                   "I'd guess the bass is A."])
def test_a_guess_naming_no_single_option_text_is_no_answer(reply: str) -> None:
    assert choice_reader(TEMPO)(reply).answer is None


def test_a_guess_said_of_a_part_names_no_option() -> None:
    assert CHORD.extract_answer("I'd guess the third is major.") is None
    assert CHORD.extract_answer("I'd guess the chord is major.") == "A"


# -- the question's options echoed as a list (a blind held-out reply read as B on main) --------
KEY_OPTIONS = {"A": "Yes, a key modulation occurs somewhere in this excerpt.",
               "B": "No, the key stays the same from the start to the end."}


@pytest.mark.parametrize("reply", [
    "A. Yes, a key modulation occurs somewhere in this excerpt.\n"
    "B. No, the key stays the same from the start to the end.",
    "Options:\n(A) Yes, a key modulation occurs somewhere in this excerpt.\n"
    "(B) No, the key stays the same from the start to the end.",
    "I am not sure.\n\nA) Yes, a key modulation occurs somewhere in this excerpt.\n\n"
    "B) No, the key stays the same from the start to the end.",
])
def test_a_reply_that_only_lists_the_options_commits_to_none(reply: str) -> None:
    reading = lettered_yes_no_reader(KEY_OPTIONS)(reply)
    assert reading.answer is None and reading.error == HEDGE
    assert choice_reader(KEY_OPTIONS)(reply).answer is None


def test_one_option_line_after_the_reasoning_still_answers() -> None:
    reply = ("Step 1: the cadence lands on the new tonic.\n"
             "A. Yes, a key modulation occurs somewhere in this excerpt.")
    assert lettered_yes_no_reader(KEY_OPTIONS)(reply).answer == "A"
