"""Reading, third round (issue 30): negation scope, terse chains of thought, nouns of sameness,
retractions, and answers a grader reads. Each test names the pattern it guards."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from fixtures.muse.definitions import OUT_OF_KEY
from fixtures.muse.harmony_definitions import KEY_CHANGE, SAME_PROGRESSION
from fixtures.muse.registry import TASKS
from fixtures.muse.rhythm_definitions import SAME_RHYTHM
from fixtures.tasks.definitions import CHORD, TRANSPOSITION
from solvers.reading import (
    SAMENESS,
    choice_reader,
    pitch_answer_reader,
    sameness,
    yes_no_reader,
)

PROPERTY = settings(max_examples=150, deadline=None)


# --- Negation scope ----------------------------------------------------------------------------

@pytest.mark.parametrize(("reply", "expected"), [
    ("A key modulation does not occur.", "no"),
    ("No, a key modulation does not occur.", "no"),
    ("A modulation never happens here.", "no"),
    ("There is no key change.", "no"),
    ("The key changes to the dominant.", "yes"),
    ("It never leaves G major.", "no"),
    ("Modulation is not present.", "no"),
    ("No evidence of modulation.", "no"),
    ("The key does not stay the same.", "yes"),
    ("A modulation does not occur until the last bar.", "yes"),  # it does occur
])
def test_a_negated_verb_turns_the_answer_word_before_it(reply: str, expected: str) -> None:
    assert TASKS["muse_modulation"].extract_answer(reply) == expected


@pytest.mark.parametrize("reply", [
    "No pitch differences detected.", "There are no pitch differences.",
    "Final Answer: No melodic differences at all.",
])
def test_a_quantifying_no_negates_its_noun_phrase(reply: str) -> None:
    assert TRANSPOSITION.extract_answer(reply) == "yes"


@pytest.mark.parametrize("reply", ["No oddball is present.", "No hit is displaced.",
                                   "There is no reverb."])
def test_a_no_before_a_noun_the_question_does_not_own_answers_nothing(reply: str) -> None:
    assert TRANSPOSITION.extract_answer(reply) is None


def test_the_question_s_own_noun_is_answered_by_a_quantifying_no() -> None:
    assert yes_no_reader(OUT_OF_KEY)("No oddball is present.").answer == "no"
    same_exact_melody = yes_no_reader(sameness_with_oddball())
    assert same_exact_melody("No oddball is present.").answer == "yes"


def sameness_with_oddball():
    return sameness(different=("oddball", "oddballs"))


def test_match_answers_only_of_the_compared_things() -> None:
    read = TASKS["muse_rhythm_match"].extract_answer
    assert read("So they don't match.") == "no"
    assert read("The two rhythms do not match.") == "no"
    assert TRANSPOSITION.extract_answer("The first three notes match.") is None  # a part


def test_no_before_a_pronoun_stays_the_answer() -> None:
    assert TRANSPOSITION.extract_answer("No they differ in the third interval.") == "no"


@pytest.mark.parametrize("reply", ["Final Answer: No or Yes", "Final Answer: No vs Same melody",
                                   "Final Answer: No and yes"])
def test_no_before_a_conjunction_is_an_answer_and_so_a_hedge(reply: str) -> None:
    assert TRANSPOSITION.extract_answer(reply) is None


def test_an_adverb_before_same_or_different_keeps_it_a_statement() -> None:
    reply = "Final Answer: Yes — the two progressions are functionally different."
    assert TASKS["muse_chord_sequence"].read_answer(reply).error == "hedge"


NEGATIONS = ("It is not the case that {}", "It is not true that {}", "I do not think {}",
             "I don't believe {}")
CLAUSES = {
    "modulation": (KEY_CHANGE, ("the key changes", "a key modulation occurs",
                                "the piece modulates to the dominant", "the key stays the same")),
    "oddball": (OUT_OF_KEY, ("the melody has an out-of-key note", "one note is chromatic")),
    "transposition": (SAMENESS, ("these are the same melody", "the two melodies are different",
                                 "the second melody is transposed")),
    "rhythm": (SAME_RHYTHM, ("the two rhythms are identical", "the loops are different")),
    "progression": (SAME_PROGRESSION, ("these are the same progression",
                                       "the progressions are different")),
}


@PROPERTY
@given(st.sampled_from(sorted(CLAUSES)), st.data(), st.sampled_from(NEGATIONS),
       st.sampled_from((".", "", "!")))
def test_negating_the_answer_clause_never_leaves_the_reading_unchanged(
        question: str, data: st.DataObject, negation: str, end: str) -> None:
    phrases, clauses = CLAUSES[question]
    clause = data.draw(st.sampled_from(clauses))
    read = yes_no_reader(phrases)
    plain = read(clause[0].upper() + clause[1:] + end).answer
    assert plain in ("yes", "no")
    assert read(negation.format(clause) + end).answer != plain


_NOUN = st.from_regex(r"\A[a-z]{3,9}\Z")


@PROPERTY
@given(st.sampled_from(sorted(CLAUSES)), _NOUN,
       st.sampled_from(("No {} is present.", "There is no {}.", "No {} detected.",
                        "Final Answer: no {} at all")))
def test_no_noun_answers_only_when_the_noun_is_the_question_s_own(
        question: str, noun: str, template: str) -> None:
    phrases, _clauses = CLAUSES[question]
    own = phrases.yes | phrases.no | {"doubt"}
    # answer words are not nouns ("There is no yup." is no sentence a model writes)
    assume(noun not in {"they", "the", "not", "way", "yes", "nope", "wait", "and", "but", "both",
                        "yeah", "yep", "yup", "yea", "nah",
                        "each", "this", "that", "these", "those", "there", "you", "she",
                        "its", "since", "because", "sir"})  # "No sir, …" answers no
    answer = yes_no_reader(phrases)(template.format(noun)).answer
    if noun in own:
        assert answer == ("no" if noun in phrases.yes or noun == "doubt" else "yes")
    else:
        assert answer is None


# --- Terse chains of thought, nouns of sameness ---------------------------------------------------

def test_a_terse_chain_of_thought_is_decided_by_its_answer_line() -> None:
    reply = ("Step 1: Align both excerpts note by note.\nStep 2: Compare each pitch position.\n"
             "Step 3: No pitch differences detected.\nYes, these are the same exact melody.")
    assert TRANSPOSITION.extract_answer(reply) == "yes"
    assert TRANSPOSITION.extract_answer(reply.replace("No pitch differences detected",
                                                      "Note 5 differs")) == "yes"


def test_sameness_finds_its_noun_at_the_end_of_the_noun_phrase() -> None:
    read = TASKS["muse_rhythm_match"].extract_answer
    assert read("These are the same exact drum set patterns.") == "yes"
    assert read("Final Answer: Yes, these are the same exact drum set patterns.") == "yes"
    assert read("They are the same exact drum set patterns, so no.") is None  # a hedge
    assert TRANSPOSITION.extract_answer("They have the same key as each other.") is None


# --- Retractions -------------------------------------------------------------------------------

@pytest.mark.parametrize(("reply", "expected"), [
    ("Final Answer: D\n\nWait, listening again, I was wrong. The fifth is perfect and the "
     "seventh minor.\nFinal Answer: C", "C"),
    ("Final Answer: A\nHmm, correction: the third is minor.\nFinal Answer: B", "B"),
    ("Final Answer: A\nI take that back.\nFinal Answer: B", "B"),
    ("Final Answer: A\n\nFinal Answer: B", None),  # two answers, nothing taken back
    ("Final Answer: A\nWait, the third sounds flat.\nFinal Answer: B\nFinal Answer: C", None),
    ("Final Answer: A\nI was wrong.\nFinal Answer: B\nFinal Answer: C", None),
    ("Final Answer: A\nWait, I was wrong.", None),  # taken back, nothing given instead
])
def test_an_explicit_retraction_commits_to_the_one_answer_after_it(reply, expected) -> None:
    assert CHORD.extract_answer(reply) == expected


# --- Answers a grader reads ----------------------------------------------------------------------

MOODS = {"A": "Energetic and upbeat", "B": "Calm and relaxing", "C": "Dark", "D": "Sad"}
GENRES = {"A": "Pop music", "B": "Ska", "C": "Jazz", "D": "Metal"}


@pytest.mark.parametrize(("options", "reply", "expected"), [
    (MOODS, "Among the options, calm and relaxing fits best.", "B"),
    (GENRES, "Not pop music — it's ska.", "B"),
    (GENRES, "Not A, it is B", None),  # a bare letter ruled out: the documented reading
    (CHORD.options, "I can't hear it, but I'd guess (B).", "B"),
    (CHORD.options, "Final Answer: D — the arpeggio climbs two stacked minor thirds and a "
                    "tritone", "D"),
    (CHORD.options, "Not major — minor.", "B"),
    (CHORD.options, "Final Answer: D — B is also possible", None),
])
def test_choices_a_grader_reads(options, reply, expected) -> None:
    assert choice_reader(options)(reply).answer == expected


@pytest.mark.parametrize(("reply", "notation", "midi_note"), [
    ("60 (±1)", "midi", 60),
    ("The octave is 4 and the MIDI note is 61.", "midi", 61),
    ("Relative to A4 = 440 Hz, this note is C4.", "spn", 60),
    ("Relative to A4 = 440 Hz, this one is 523.25 Hz.", "hz", 72),  # was read as 69
    ("Approximately 220 Hz (A3), given A4 = 440 Hz.", "hz", 57),
    ("Final Answer: four hundred forty hertz", "hz", 69),
    ("Final answer: sixty-one", "midi", 61),
    ("Final Answer: A4 (440 Hz)", "spn", 69),  # the answer itself is A4
    ("Ignoring the vibrato, the centre is F4 — the wobble goes roughly a quarter-tone either "
     "side.", "spn", 65),  # a scene-setting opening; "either" without "or" doubts nothing
])
def test_pitches_a_grader_reads(reply: str, notation: str, midi_note: int) -> None:
    answer = pitch_answer_reader("pitch", notation)(reply).answer
    assert answer is not None and answer.keys == (midi_note,)


def test_a_reference_pitch_is_never_the_answer() -> None:
    reply = "Relative to A4 = 440 Hz, this one is 523.25 Hz."
    # a Hz form names its own notation: read in a MIDI question too (round 23), never as A4
    assert pitch_answer_reader("pitch", "midi")(reply).answer.keys == (72,)
