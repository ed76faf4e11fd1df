"""Issue 30, round 6: the last general rules blind5 asked for (docs/reading.md). The phrasings
here were written for these tests (none is from a corpus); the near-misses after each rule are
the readings a rule must not change."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fixtures.muse.definitions import MELODY_SHAPE, OUT_OF_KEY
from fixtures.muse.harmony_definitions import INSTRUMENT, KEY_CHANGE, SAME_PROGRESSION
from fixtures.muse.rhythm_definitions import SYNC_COMPARE
from fixtures.tasks.definitions import CHORD, SYNCOPATION
from solvers.reading import HEDGE, choice_reader, pitch_answer_reader, sameness, yes_no_reader

SAME = yes_no_reader(sameness())
SAME_EXACT = yes_no_reader(sameness(different=("oddball", "oddballs")))  # MUSE's own question
MOOD = choice_reader({"A": "Happy", "B": "Sad", "C": "Angry", "D": "Calm"})

# --- Explicit retractions ---------------------------------------------------------------------


@pytest.mark.parametrize("correction", [
    "Thinking about the bass once more, that's incorrect: it moves by a fifth.",
    "That is wrong; the second melody ends a tone lower.",
    "I retract that: the last interval differs.",
    "Retracting my answer, the endings differ.",
])
def test_an_explicit_correction_hands_the_answer_to_the_final_line_after_it(correction: str
                                                                            ) -> None:
    reply = f"Final Answer: Yes\n\n{correction}\n\nFinal Answer: No"
    assert SAME(reply).answer == "no"


@pytest.mark.parametrize("between", [
    "On reflection, the endings sound alike.",   # "on reflection" alone takes nothing back
    "Let me describe the contour once more.",
    "Correctness matters here, so I'll listen to the bass.",  # no correction in so many words
])
def test_two_final_answers_without_an_explicit_correction_stay_a_hedge(between: str) -> None:
    reply = f"Final Answer: Yes\n\n{between}\n\nFinal Answer: No"
    assert SAME(reply).answer is None


def test_a_correction_after_the_last_answer_still_withdraws_it() -> None:
    assert SAME("Final Answer: Yes\n\nOn reflection, that's incorrect.").answer is None


# --- Courtesy openers -------------------------------------------------------------------------


@pytest.mark.parametrize(("reply", "answer"), [
    ("Thanks for the clip! The mood is calm, with soft strings drifting over a slow pulse of "
     "low piano chords.", "D"),
    ("Thank you for sending the audio. The overall mood is sad: the melody sinks slowly, the "
     "tempo drags and the harmony stays in a dark minor key.", "B"),
    ("Many thanks for the recording.\nThe mood is happy, with a bouncing bass, bright brass "
     "stabs and a quick major-key tune over a busy drum groove.", "A"),
])
def test_a_courtesy_opener_is_read_as_if_absent(reply: str, answer: str) -> None:
    assert MOOD(reply).answer == answer


@pytest.mark.parametrize("reply", [
    "Thanks for the clip! Is it sad or calm?",
    "Thank you for sharing. The mood could be sad.",
    "Thanks, but I can't hear the audio.",
])
def test_a_courtesy_opener_does_not_make_a_hedge_an_answer(reply: str) -> None:
    assert MOOD(reply).answer is None


def test_a_reply_that_is_only_courtesy_answers_nothing() -> None:
    assert MOOD("Thank you for the happy little clip!").answer is None
    assert CHORD.extract_answer("Thank you!") is None


# --- An option named in a descriptive last sentence -------------------------------------------


@pytest.mark.parametrize(("reply", "answer"), [
    ("The clip is best described as a calm piece.", "D"),
    ("Overall the mood comes across as sad.", "B"),
    ("After the first bar the music turns angry.", None),  # said of a part of the clip
])
def test_a_mood_named_in_a_descriptive_sentence(reply: str, answer: str | None) -> None:
    assert MOOD(reply).answer == answer


@pytest.mark.parametrize(("reply", "answer"), [
    ("The melody is carried by a trumpet.", "C"),
    ("The bright attack and the quick decay point to a piano.", "A"),
    ("Not a trumpet — the tone is breathy and soft, so flute.", "D"),
    ("Definitely not a piano — the long swelling notes and the audible bow noise point to a "
     "violin.", "B"),
    ("Thanks for the clip! I can hear a flute.", "D"),
])
def test_an_instrument_named_in_a_descriptive_sentence(reply: str, answer: str) -> None:
    assert INSTRUMENT.extract_answer(reply) == answer


@pytest.mark.parametrize(("reply", "answer"), [
    ("Above the bass I hear a minor third and a diminished fifth, which gives a diminished "
     "chord.", "D"),
    ("Neither major nor dominant: the fifth is flat, which makes it a diminished chord.", "D"),
    ("It is not a dominant chord; there is no seventh. So it's a plain minor chord.", "B"),
    ("Stacked on the root are a major third, a perfect fifth and a minor seventh, which is the "
     "familiar dominant seventh sound.", "C"),
])
def test_a_chord_named_in_a_descriptive_sentence(reply: str, answer: str) -> None:
    assert CHORD.extract_answer(reply) == answer


def test_a_count_then_the_level_it_makes() -> None:
    assert SYNCOPATION.extract_answer("I count eight off-beat hits: High Syncopation.") == "E"
    assert SYNCOPATION.extract_answer("I count eight off-beat hits.") is None  # reasoning


def test_a_contour_ruled_out_and_then_named() -> None:
    assert MELODY_SHAPE.extract_answer("It is not rising at all; every note is falling.") == "B"
    assert MELODY_SHAPE.extract_answer("The tune is not ascending; it is descending.") == "B"


@pytest.mark.parametrize("reply", [
    "The accompaniment is played on a piano.",           # a part, not the melody
    "I hear a piano in the background.",                 # more than filler after the option
    "Is the melody played on a violin?",                 # a question
    "If the tone is bowed, the melody is a violin.",     # a condition
    "The melody could be played on a violin.",           # a doubt
    "The melody is not only played on a violin.",        # "not only"
    "The melody is played on a violin and a flute.",     # two options
    "The melody is not played on a violin.",             # ruled out, with four options
    "Not a violin, not a piano — the tone is breathy.",  # ruled out only
    "Not a trumpet — the tone is breathy, though a flute doubles it.",  # a turn
    "<think>The tone is breathy, so flute.</think>",     # reasoning, never the answer
])
def test_descriptions_that_commit_to_nothing_stay_no_answer(reply: str) -> None:
    assert INSTRUMENT.extract_answer(reply) is None


def test_a_description_corrected_after_wait_is_the_new_answer() -> None:
    # round 23: a change of mind with one new answer is that answer (no answer before)
    reply = "The melody is played on a violin; wait, a flute."
    assert INSTRUMENT.extract_answer(reply) == INSTRUMENT.extract_answer("A flute.") is not None


@pytest.mark.parametrize("reply", [
    "The chord sounds dark, which is typical of minor chords.",  # a likeness, not an answer
    "The third is minor.",                                        # a part of the chord
    "Therefore the chord is C major.",                            # a note name: option C?
    "So it's not a minor chord.",                                 # a negated final choice
    "It sounds major, but the seventh makes it a dominant chord?",
])
def test_chord_descriptions_that_commit_to_nothing_stay_no_answer(reply: str) -> None:
    assert CHORD.extract_answer(reply) is None


_INSTRUMENTS = st.sampled_from(["piano", "violin", "trumpet", "flute"])
_DESCRIPTIONS = st.sampled_from([
    "The melody is {neg}played on a {x}.", "The phrase is {neg}carried by a {x}.",
    "The soft attack does {neg}point to a {x}.", "So it is {neg}a {x}.",
])


@settings(max_examples=60, deadline=None)
@given(_INSTRUMENTS, _DESCRIPTIONS)
def test_negating_a_description_never_reads_the_option_it_names(instrument: str,
                                                               template: str) -> None:
    """Prefixing a negation to the describing clause changes the reading: it never reads the
    option named (with four options, ruling one out reads nothing)."""
    plain = INSTRUMENT.extract_answer(template.format(neg="", x=instrument))
    negated = INSTRUMENT.extract_answer(template.format(neg="not ", x=instrument))
    (letter,) = [key for key, text in INSTRUMENT.options.items() if text.casefold() == instrument]
    assert plain == letter
    assert negated != plain and negated is None


# --- Negated sameness and difference ------------------------------------------------------------


@pytest.mark.parametrize(("reply", "answer"), [
    ("The second progression does not follow the same root motion.", "no"),
    ("Both progressions share the same harmonic motion.", "yes"),
    ("Nothing changes harmonically; the second is the first moved up a fourth.", "yes"),
    ("Nothing really changed between them.", "yes"),
])
def test_progression_sameness_by_negation(reply: str, answer: str) -> None:
    assert yes_no_reader(SAME_PROGRESSION)(reply).answer == answer


@pytest.mark.parametrize(("reply", "answer"), [
    ("I did not hear any note that was altered between the two.", "yes"),
    ("I couldn't find any pitch that was changed.", "yes"),
    ("There is no note that was modified.", "yes"),
    ("I noticed a note that was changed in bar two.", None),    # a change said, not denied:
])                                                               # no sameness word to read
def test_a_denied_change_is_the_same_melody(reply: str, answer: str | None) -> None:
    assert SAME_EXACT(reply).answer == answer


@pytest.mark.parametrize(("reply", "answer"), [
    ("Not one wrong note anywhere.", "no"),
    ("There is a wrong note in the fourth bar.", "yes"),
    ("I hear no wrong notes.", "no"),
    ("Wait, I was wrong.", None),                   # "wrong" alone is no out-of-key note
])
def test_a_wrong_note_is_an_out_of_key_note(reply: str, answer: str | None) -> None:
    assert yes_no_reader(OUT_OF_KEY)(reply).answer == answer


@pytest.mark.parametrize(("reply", "answer"), [
    ("Not the same key at the close: it ends on the relative minor.", "yes"),
    ("It ends in a different key.", "yes"),
    ("It stays in the same key throughout.", "no"),
    ("It doesn't stay in the same key.", "yes"),
    ("The key does not stay the same.", "yes"),
    ("The melody is not the same at the end.", None),  # the melody, not the key
])
def test_the_same_key_answers_a_key_change_question(reply: str, answer: str | None) -> None:
    assert yes_no_reader(KEY_CHANGE)(reply).answer == answer


@pytest.mark.parametrize("reply", [
    "Nothing changes except the final note.",
    "No note differs apart from the last one.",
    "I did not notice any note that was changed, other than the fourth.",
    "There is no difference besides the closing interval.",
])
def test_a_denial_with_an_exception_is_no_answer(reply: str) -> None:
    assert SAME_EXACT(reply).answer is None


def test_the_same_key_answers_nothing_of_a_transposition() -> None:
    assert SAME("They are not in the same key.").answer is None
    assert SAME("Nothing changes.").answer == "yes"  # of sameness: no difference at all


_DENIALS = st.sampled_from(["I did not notice any note that was changed.",
                            "Nothing changes between them.", "Not one wrong note.",
                            "Not the same key at the end."])


@settings(max_examples=40, deadline=None)
@given(_DENIALS)
def test_removing_the_negation_never_keeps_the_reading(denial: str) -> None:
    """Each denial read, then its negation taken away: the reading is never the same."""
    readers = {"changed": SAME_EXACT, "changes": SAME_EXACT, "wrong": yes_no_reader(OUT_OF_KEY),
               "key": yes_no_reader(KEY_CHANGE)}
    read = next(reader for word, reader in readers.items() if word in denial)
    affirmed = (denial.replace("I did not notice any", "I noticed a")
                .replace("Nothing changes", "Everything changes")
                .replace("Not one wrong note", "One wrong note")
                .replace("Not the same key", "The same key"))
    assert read(denial).answer is not None
    assert read(affirmed).answer != read(denial).answer


# --- A pitch beside a reference phrase ----------------------------------------------------------


@pytest.mark.parametrize(("notation", "reply", "midi"), [
    ("midi", "Two octaves below A4 (440 Hz), so MIDI 45.", 45),
    ("hz", "220 Hz, an octave below A4 = 440 Hz.", 57),
    ("hz", "Roughly 1760 Hz, two octaves above A4 = 440 Hz.", 93),
    ("spn", "With the reference G3, the target is a perfect fifth up: D4.", 62),
    ("spn", "The reference note is E4 (329.6 Hz); the tone a minor third below it is C#4.", 61),
])
def test_a_reference_phrase_is_no_pitch_of_the_answer(notation: str, reply: str,
                                                      midi: int) -> None:
    assert pitch_answer_reader("pitch", notation)(reply).answer.keys == (midi,)


@pytest.mark.parametrize(("notation", "reply"), [
    ("spn", "Given the reference C4, I can't tell the target."),   # a refusal
    ("spn", "Given the reference C4, the target is D4 or E4."),    # a hedge
    ("hz", "An octave above A4 = 440 Hz."),                        # no answer but the reference
    ("midi", "Above A4 (440 Hz), maybe 72 or 74."),
])
def test_a_reference_phrase_makes_no_hedge_an_answer(notation: str, reply: str) -> None:
    assert pitch_answer_reader("pitch", notation)(reply).answer is None



# --- One of two loops ruled out as the answer -----------------------------------------------------


@pytest.mark.parametrize(("reply", "answer"), [
    ("Loop 2 isn't the answer.", "A"),
    ("Loop 1 is not the right one; the other pushes more hits off the beat.", "B"),
    ("Definitely not loop 1.", "B"),
    # said through a property: "not the quieter one" may mean the busier one, so no answer
    ("Loop 1 is not the quieter one.", None),
    ("Loop 1 is not the more syncopated one.", None),
    ("The quieter pattern is not loop 1.", None),
    ("Loop 1 isn't the answer?", None),                                  # a question
    ("Loop 1 is not only the answer.", None),                            # "not only"
    ("Loop 1 isn't the answer, and loop 2 isn't either.", None),         # both
])
def test_a_loop_ruled_out_as_the_answer(reply: str, answer: str | None) -> None:
    assert SYNC_COMPARE.extract_answer(reply) == answer


# --- An answer taken back in its own span; an option that holds only for a while --------------

_INSTRUMENTS_ABCD = choice_reader({"A": "Piano", "B": "Violin", "C": "Trumpet", "D": "Flute"})


@pytest.mark.parametrize("reply", [
    "It is a violin. Actually no.",
    "Trumpet. Wait, no.",
    "The phrase is played on a flute. Hmm, no.",
    "Violin, no wait, flute.",
    "Piano - scratch that.",
])
def test_an_answer_taken_back_is_a_hedge(reply: str) -> None:
    assert _INSTRUMENTS_ABCD(reply).error == HEDGE


def test_a_word_no_after_actually_that_takes_nothing_back_keeps_the_answer() -> None:
    assert _INSTRUMENTS_ABCD("Final Answer: B (actually, no other option fits)").answer == "B"


@pytest.mark.parametrize("reply", ["The melody starts on a piano.",
                                   "The tune ends on a trumpet.",
                                   "The line is briefly carried by a flute."])
def test_an_option_that_holds_only_for_a_while_is_no_description(reply: str) -> None:
    assert _INSTRUMENTS_ABCD(reply).answer is None
