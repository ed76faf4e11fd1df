"""Issue 30, round 23 (pitch replies): another notation, conclusions, changes of mind
(docs/reading.md, round 23).

A pitch given in a form that names its own notation (``F#4``, ``MIDI 60``, ``329.6 Hz``) is read
in any question; a bare number stays in the asked notation. A pitch said by a stated distance
from a named note is that pitch. "I'll say 64." concludes as "I'd say 64." does. A change of
mind supersedes the pitches said before it. Every phrasing was written for these tests; each
group has near misses that keep their reading (most often: no answer).
"""

from __future__ import annotations

import pytest

from solvers.pitch_scoring import score_answer
from solvers.reading import choice_reader, pitch_answer_reader

MIDI = pitch_answer_reader("pitch", "midi")
SPN = pitch_answer_reader("pitch", "spn")
HZ = pitch_answer_reader("pitch", "hz")
SOLFEGE = pitch_answer_reader("pitch", "solfege")
QUALITY = choice_reader({"A": "Major", "B": "Minor", "C": "Dominant", "D": "Diminished"})


def key(reader, reply: str) -> int | None:
    answer = reader(reply).answer
    return None if answer is None else answer.keys[0]


# --- 1. A pitch in another notation than the one asked ------------------------------------------


@pytest.mark.parametrize(("reader", "reply", "expected"), [
    (SPN, "MIDI 62", 62),
    (SPN, "Final Answer: MIDI note 57", 57),
    (MIDI, "G#3", 56),
    (MIDI, "It sounds like E\u266d3.", 51),
    (MIDI, "Cb4", 59),  # C flat 4 is B3
    (HZ, "The tone is B3.", 59),
    (HZ, "Final Answer: middle C", 60),
    (MIDI, "Around 246.9 Hz.", 59),
    (SPN, "Final Answer: 392 Hz", 67),
    (SOLFEGE, "A3", 9),  # octave-free: any form gives its pitch class
    (SOLFEGE, "MIDI 64", 4),
    (SOLFEGE, "Final Answer: 349.2 Hz", 5),
    (MIDI, "D4 (293.7 Hz)", 62),  # two self-named forms that agree
])
def test_a_form_that_names_its_notation_is_read_in_any_question(reader, reply: str,
                                                                 expected: int) -> None:
    assert key(reader, reply) == expected


@pytest.mark.parametrize(("reader", "reply", "expected"), [
    (HZ, "69", 37),  # a bare number stays in the asked notation: 69 Hz, never MIDI 69
    (HZ, "Final Answer: 440", 69),
    (SPN, "62", None),  # a bare number is no SPN
    (MIDI, "D4 (MIDI 63)", None),  # two forms that disagree: a hedge
    (HZ, "B3 (220 Hz)", None),
    (MIDI, "The note is G4, which is MIDI note 68.", None),
    (MIDI, "G4 or G#4", None),
    (MIDI, "la", None),  # a syllable has no octave: no MIDI note
    (MIDI, "The key is G major.", None),
])
def test_near_misses_of_another_notation_keep_their_reading(reader, reply: str,
                                                            expected: int | None) -> None:
    assert key(reader, reply) == expected


def test_a_bare_number_never_moves_notation_even_beside_a_self_named_form() -> None:
    assert key(MIDI, "69 (A4)") == 69
    assert key(MIDI, "70 (A4)") is None  # the restatement disagrees: a hedge, as on main


# --- 2. An alternative said without an octave or by its distance is a second answer -------------


@pytest.mark.parametrize(("reader", "reply"), [
    (SPN, "middle C or the C# just above it"),
    (SPN, "Final Answer: E4, or the F above"),
    (MIDI, "64 or the note below"),
    (SPN, "G3, or perhaps a semitone higher"),
    (SPN, "B3 or one step lower"),
])
def test_a_vague_alternative_is_a_hedge(reader, reply: str) -> None:
    assert reader(reply).answer is None


def test_a_restatement_after_or_keeps_the_answer() -> None:
    assert key(SPN, "C4 (or middle C)") == 60
    assert key(SPN, "C4 or thereabouts") == 60


# --- 3. A pitch said by a stated distance from a named note -------------------------------------


@pytest.mark.parametrize(("reader", "reply", "expected"), [
    (SPN, "It's a half step below A4.", 68),
    (SPN, "The tone is two semitones above middle C.", 62),
    (MIDI, "A major third above C4.", 64),
    (HZ, "One octave below A4.", 57),
    (SPN, "Final Answer: a whole step above F#3", 56),
    (SPN, "F4, a semitone above E4.", 65),  # the restatement agrees
])
def test_a_stated_distance_from_a_note_is_that_pitch(reader, reply: str, expected: int) -> None:
    assert key(reader, reply) == expected


@pytest.mark.parametrize(("reader", "reply"), [
    (SPN, "It's slightly above A4."),  # no distance stated
    (SPN, "It's a semitone or so above A4."),
    (SPN, "It's a tone above A4."),  # "a tone" may be any sound
    (SPN, "It's a third above C4."),  # a third without its quality: 3 or 4 semitones
    (SPN, "G4, a semitone above E4."),  # the distance names another pitch: a hedge
    (SPN, "It's not a semitone above A4."),
])
def test_a_vague_or_contradicted_distance_reads_nothing(reader, reply: str) -> None:
    assert reader(reply).answer is None


# --- 4. Names that spell no pitch -----------------------------------------------------------------


@pytest.mark.parametrize(("reader", "reply", "expected"), [
    (HZ, "Measured f0: 196.0 Hz (G3).", 55),
    (SPN, "F0 \u2248 261.6 Hz, i.e. C4.", 60),
    (SOLFEGE, "Fixed-do solf\u00e8ge: **la**", 9),
    (SOLFEGE, "In movable do: mi", 4),
    (SOLFEGE, "do", 0),  # the syllable itself still reads
])
def test_a_fundamental_or_a_solfege_system_is_no_pitch(reader, reply: str,
                                                       expected: int) -> None:
    assert key(reader, reply) == expected


# --- 5. "I'll say …" concludes; a change of mind supersedes what was said before ----------------


@pytest.mark.parametrize(("reader", "reply", "expected"), [
    (MIDI, "It lies somewhere between MIDI 70 and 71, nearer 71. I'll say 71.", 71),
    (SPN, "Could be B3 or C4 to my ear. I will say C4.", 60),
    (QUALITY, "The third is hard to hear under the strings. I'll say minor.", "B"),
])
def test_i_will_say_concludes(reader, reply: str, expected) -> None:
    answer = reader(reply).answer
    assert (answer if isinstance(answer, str) else answer.keys[0]) == expected


@pytest.mark.parametrize(("reader", "reply"), [
    (MIDI, "I'll say 70, but it might be 71."),  # a conclusion followed by an offer
    (MIDI, "I'll say this: it's either 70 or 71."),
    (QUALITY, "I'll say major, or maybe dominant."),
])
def test_a_conclusion_with_an_offer_stays_a_hedge(reader, reply: str) -> None:
    assert reader(reply).answer is None


@pytest.mark.parametrize(("reader", "reply", "expected"), [
    (MIDI, "It sounds like D4, which would be MIDI 62. Listening more closely, it sits a "
           "little higher, nearer D#4.\nMIDI: 63", 63),
    (MIDI, "It's G3. Correcting myself: an octave up.\nFinal Answer: 67", 67),
    (MIDI, "<think>I hear the G below middle C. That's MIDI 55. Hmm, could be A\u266d3 as it "
           "is a bit sharp... no, it is close enough to G3.</think>\n55", 55),
])
def test_a_change_of_mind_supersedes_the_pitches_said_before(reader, reply: str,
                                                             expected: int) -> None:
    assert key(reader, reply) == expected


@pytest.mark.parametrize(("reader", "reply"), [
    (MIDI, "It sounds like D4, which would be MIDI 62.\nMIDI: 63"),  # no change said
    (MIDI, "It sounds like D4, which would be MIDI 62. Hmm, it's a little higher, closer to "
           "D#4.\nMIDI: 63"),  # "Hmm" alone is no change of mind (retractions.py)
    (MIDI, "It's MIDI 57. It is B\u266d3.\nFinal Answer: 57"),  # two sentences, two pitches
])
def test_without_a_change_of_mind_a_pitch_restated_otherwise_stays_a_hedge(reader,
                                                                            reply: str) -> None:
    assert reader(reply).answer is None


def test_a_note_name_asked_in_hz_is_scored_without_a_frequency() -> None:
    """The scorer credits "A4" asked in Hz, but it gave no frequency: no cents error is made up
    (the cents percentiles of the report count Hz answers only)."""
    by_name = score_answer("pitch", (69,), "Final Answer: A4", "hz")
    assert by_name.correct and by_name.cents_error is None and by_name.answer_via == "spn"
    assert "cents_error_abs" not in by_name.credit
    in_hz = score_answer("pitch", (69,), "Final Answer: 445 Hz", "hz")
    assert in_hz.correct and in_hz.cents_error is not None and in_hz.cents_error > 19
    in_midi = score_answer("pitch", (60,), "Final Answer: 62", "spn")
    assert not in_midi.correct and in_midi.error_class == "unparseable_answer"


@pytest.mark.parametrize(("reader", "reply"), [
    (SPN, "MIDI 60 or 61"),  # a bare number beside a MIDI form is MIDI too: a hedge
    (SPN, "Between MIDI note 62 and 64."),
    (SOLFEGE, "MIDI 64 or 65"),
    (SPN, "The tone is higher than MIDI 60."),  # a reference, before "MIDI"
    (MIDI, "The tone is higher than MIDI 60."),  # read as 60 on main
])
def test_a_midi_form_beside_a_bare_number_or_as_a_reference_reads_nothing(reader,
                                                                           reply: str) -> None:
    assert reader(reply).answer is None


def test_a_midi_answer_beside_a_midi_reference_keeps_its_answer() -> None:
    assert key(MIDI, "Final Answer: MIDI 61, a semitone above MIDI note 60") == 61


# --- 6. "closer to X" approximates X; an alternative an octave away is a second answer ----------


@pytest.mark.parametrize(("reader", "reply", "expected"), [
    (MIDI, "It's closer to 65 than to 64.", 65),
    (MIDI, "Close to 64.", 64),
    (HZ, "It rounds to 440 Hz.", 69),
    # read as 69 before round 23 ("to 466 Hz" was a reference); a change of mind with one new
    (HZ, "It's about 440 Hz. Actually, listening again, it's closer to 466 Hz.", 70),  # answer
    (MIDI, "It's 64, but closer to 65.", None),  # main: "to 65" was a reference
    (MIDI, "It is 69, closer to the reference than to 70.", 69),
    (SPN, "A4 or an octave higher", None),  # read as A4 on main
    (SPN, "It's a semitone above A4 or B4.", None),  # read as B4 on main
])
def test_closer_to_names_the_pitch_approximated(reader, reply: str, expected: int | None) -> None:
    assert key(reader, reply) == expected


# --- A pitch a tone is compared with --------------------------------------------------------------


@pytest.mark.parametrize("reader", [SPN, MIDI, HZ])
@pytest.mark.parametrize("reply", [
    "Compared with A4, it's lower.",  # read as A4 before: the point of comparison is no answer
    "Versus A4, it is lower.",
    "Unlike A4, it is a little flat.",
    "In comparison with the A4, the tone is sharper.",
])
def test_the_pitch_a_tone_is_compared_with_is_no_answer(reader, reply: str) -> None:
    assert reader(reply).answer is None


@pytest.mark.parametrize(("reply", "expected"), [
    ("Compared with A4, the tone is a bit lower: G#4.", 68),
    ("Compared with A4 = 440 Hz, this one is C5.", 72),
    ("Compared to the A4 reference, it sits at E5.", 76),
])
def test_a_pitch_named_beside_the_compared_one_is_read(reply: str, expected: int) -> None:
    assert key(SPN, reply) == expected
