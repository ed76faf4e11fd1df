"""Issue 30, round 12: the wrong readings and the declines of an eighth blind set (blind11,
measured once before this round). An answer sentence taken back before a later answer, an
afterthought offering another option, a number cut off short, an alternative pitch in the
explanation after a final answer, and a pitch restated in the reasoning as another pitch were
read as answers; an answer with a mild caveat, a misspelt option, Helmholtz notation, an octave
in words and "Most likely: B" were not. Every phrasing here was written for these tests; each
group has near misses that must keep their reading (true hedges stay hedges)."""

from __future__ import annotations

import pytest

from fixtures.muse.definitions import OUT_OF_KEY
from fixtures.muse.harmony_definitions import KEY_CHANGE
from fixtures.muse.rhythm_definitions import SAME_RHYTHM
from fixtures.tasks.definitions import SYNCOPATION as SYNCOPATION_TASK
from solvers.helmholtz import MAX_WHOLE_REPLY_CHARS, helmholtz_as_spn
from solvers.pitch_scoring import score_answer
from solvers.reading import choice_reader, pitch_answer_reader, yes_no_reader
from solvers.restated_pitches import restated_otherwise
from solvers.typos import edit_distance

MIDI = pitch_answer_reader("pitch", "midi")
SPN = pitch_answer_reader("pitch", "spn")
HZ = pitch_answer_reader("pitch", "hz")
WINDS = choice_reader({"A": "Oboe", "B": "Clarinet", "C": "Bassoon", "D": "Flute"})
QUALITY = choice_reader({"A": "Major", "B": "Minor", "C": "Dominant", "D": "Diminished"})
STRINGS = choice_reader({"A": "Piano", "B": "Violin", "C": "Trumpet", "D": "Flute"})
SHAPES = choice_reader({"A": "Arch", "B": "Inverted Arch", "C": "Ascending", "D": "Descending"})
SYNCOPATION = SYNCOPATION_TASK.extract_answer


def key(reader, reply: str) -> int | None:
    answer = reader(reply).answer
    return None if answer is None else answer.keys[0]


# --- 1. An answer sentence taken back, then a later answer ---------------------------------------


@pytest.mark.parametrize(("reply", "letter"), [
    ("A double reed, so oboe or bassoon. I'll go with Oboe. Hmm, no — the range is far too low "
     "for an oboe.\n\nC. Bassoon", "C"),
    ("I'd pick the flute. Actually, no — the attack is far too reedy and woody for that.\n\n"
     "B. Clarinet", "B"),
    ("My answer is A. I was wrong about the reed, though: there is none at all.\n\nD. Flute", "D"),
])
def test_an_answer_sentence_taken_back_gives_way_to_the_later_answer(reply: str,
                                                                      letter: str) -> None:
    assert WINDS(reply).answer == letter


@pytest.mark.parametrize(("reply", "letter"), [
    ("I'll go with Oboe. The reedy, nasal tone settles it.", "A"),  # nothing taken back
    ("I'd pick the flute. No vibrato at all, and a soft breathy attack.", "D"),  # "No" is no
    # taking back
])
def test_an_answer_sentence_not_taken_back_still_decides(reply: str, letter: str) -> None:
    assert WINDS(reply).answer == letter


def test_an_answer_sentence_taken_back_with_nothing_after_it_answers_nothing() -> None:
    assert WINDS("I'll go with Oboe. Hmm, no — that can't be right.").answer is None


# --- 2. An afterthought that offers another option reopens the answer ----------------------------


@pytest.mark.parametrize("reply", [
    "The third is lowered and the colour is dark. B. Minor\n\nStill, the overdrive muddies it — "
    "A. Major is possible too.",
    "It sounds minor to me. B\n\nThat said, with this much reverb, C. Dominant is also plausible.",
])
def test_an_afterthought_offering_another_option_is_no_answer(reply: str) -> None:
    assert QUALITY(reply).answer is None


@pytest.mark.parametrize(("reply", "letter"), [
    ("The colour is dark and the third is low, so the chord reads as minor, option B.", "B"),
    ("With every interval stacked in minor thirds, the quality is clear, D.", "D"),
])
def test_a_closing_clause_without_an_afterthought_is_still_read(reply: str, letter: str) -> None:
    assert QUALITY(reply).answer == letter


# --- 3. A number cut off short is no frequency -------------------------------------------------


@pytest.mark.parametrize("reply", [
    "The tone heard at 00:10.00 seems to sit at roughly 3",
    "Final Answer: 5 Hz",
])
def test_a_frequency_below_every_midi_note_is_no_pitch(reply: str) -> None:
    assert key(HZ, reply) is None


@pytest.mark.parametrize(("reply", "midi"), [
    ("Final Answer: 27.5 Hz", 21),  # A0, the piano's lowest note
    ("Final Answer: 8.18 Hz", 0),  # MIDI note 0 itself
])
def test_a_low_frequency_that_is_a_midi_note_is_still_read(reply: str, midi: int) -> None:
    assert key(HZ, reply) == midi


# --- 4. An alternative in the explanation after the answer ----------------------------------------


@pytest.mark.parametrize(("reader", "reply"), [
    (SPN, "Final Answer: E3 (165 Hz)... the overtones are loud, so perhaps E4 (330 Hz). Both "
          "seem plausible."),
    (MIDI, "Final Answer: 64 — the buzz hides the fundamental, it could also be 76."),
    (SPN, "Final Answer: G4, the hum is strong though, possibly G3 after all."),
])
def test_an_explanation_offering_another_pitch_is_a_hedge(reader, reply: str) -> None:
    assert reader(reply).answer is None
    assert reader(reply).error == "hedge"


@pytest.mark.parametrize(("reader", "reply", "midi"), [
    (SPN, "Final Answer: E3 (165 Hz)... the overtones are loud, so perhaps it sounds higher.", 52),
    (MIDI, "Final Answer: 64 — the buzz hides the fundamental, it could also be E4 (64) again.",
     64),
    (SPN, "Final Answer: G4, the hum is strong though, possibly a little flat.", 67),
])
def test_an_explanation_with_a_doubt_but_no_other_pitch_keeps_the_answer(reader, reply: str,
                                                                        midi: int) -> None:
    assert key(reader, reply) == midi


# --- 5. A pitch restated in the reasoning as another pitch ----------------------------------------


@pytest.mark.parametrize(("reader", "reply"), [
    (SPN, "The wobble is wide, but its middle is E4 (329.63 Hz); in MIDI that's 65.\n"
          "Final Answer: E4"),
    (SPN, "Its centre is G3, MIDI 56.\nFinal Answer: G3"),
    (MIDI, "The note is A4, which is 70 in MIDI.\nFinal Answer: 70"),
    (SPN, "E4 — in MIDI terms 65.\nFinal Answer: E4"),
    (SPN, "E4, which in MIDI is 65.\nFinal Answer: E4"),
])
def test_a_pitch_restated_otherwise_in_the_reasoning_is_a_hedge(reader, reply: str) -> None:
    assert reader(reply).answer is None
    assert reader(reply).error == "hedge"


def test_the_scorer_reads_a_restatement_in_the_reasoning_as_the_reader_does() -> None:
    verdict = score_answer("pitch", (64,), "Its middle is E4 (329.63 Hz); in MIDI that's 65.\n"
                           "Final Answer: E4", notation="spn")
    assert verdict.error_class == "hedged_answer"


@pytest.mark.parametrize(("reader", "reply", "midi"), [
    (SPN, "Its centre is E4 (329.63 Hz); in MIDI that's 64.\nFinal Answer: E4", 64),  # agrees
    (SPN, "I first took it for MIDI 65, but it is E4.\nFinal Answer: E4", 64),  # a changed mind
    (SPN, "The reference is 440 Hz (A4); the tone is a fifth below it.\nFinal Answer: D4", 62),
    (SPN, "Step 2: f0 near 294 Hz.\nFinal Answer: D4", 62),  # f0 is the fundamental, no F0
    (MIDI, "It sits between A4 and 70.\nFinal Answer: 69", 69),  # a comparison, no restatement
])
def test_reasoning_that_restates_nothing_otherwise_keeps_the_answer(reader, reply: str,
                                                                    midi: int) -> None:
    assert key(reader, reply) == midi


# --- 6. A committed answer followed by a mild caveat ---------------------------------------------


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (QUALITY, 'Of the four, the one I hear is "Diminished", though I\'m not fully certain about '
              "the top note.", "D"),
    (QUALITY, "Final Answer: C, though the second bar was hard to hear clearly.", "C"),
    (QUALITY, "Minor, I think — the bass was hard to hear.", "B"),
    (WINDS, "The bassoon, I believe, though the difference is small.", "C"),
    (WINDS, "A flute, I'd guess, because of the breathy onset — though I'm not entirely sure.",
     "D"),
    (QUALITY, "Diminished, though I could be wrong.", "D"),
    (QUALITY, "Final Answer: A (though I might be mistaken)", "A"),
    (QUALITY, "Dominant — I'm not completely sure, though.", "C"),
    (QUALITY, "Minor, though I'm not sure.", "B"),  # round 22: a doubt of any degree
])
def test_an_answer_with_a_mild_caveat_is_credited(reader, reply: str, answer: str) -> None:
    assert reader(reply).answer == answer


def test_a_yes_no_answer_with_a_mild_caveat_is_credited() -> None:
    keys = yes_no_reader(KEY_CHANGE)
    assert keys("I hear no change of key — it stays home the whole way, though I'm not "
                "entirely sure about the bridge.").answer == "no"


def test_a_caveat_of_hearing_said_of_a_pronoun_is_credited_but_not_one_of_telling() -> None:
    out_of_key = yes_no_reader(OUT_OF_KEY)
    assert out_of_key("Yes — the G# is foreign to the key, though it was hard to hear "
                      "clearly.").answer == "yes"
    # round 22: a doubt of the answer itself is a doubt, no hedge
    assert QUALITY("Minor, though it is hard to tell.").answer == "B"


def test_a_pitch_with_a_mild_caveat_is_credited() -> None:
    assert key(SPN, "The hiss is loud, but I think the tone is F4, although I'm not completely "
                    "confident.") == 65


@pytest.mark.parametrize(("reader", "reply"), [
    (QUALITY, "Minor, though it might be diminished."),
    (QUALITY, "Minor, though I'm not fully certain — diminished is also possible."),
    # round 22: a doubt's words are read one by one ("major" names option A: no part here)
    (QUALITY, "Final Answer: B, though the major third was hard to hear."),
    (QUALITY, "Minor, though I'm not fully certain about major."),  # names another option
    (QUALITY, "Minor, though I'm not fully certain it isn't diminished."),
    (QUALITY, "Final Answer: B, I think, or maybe D."),
    (QUALITY, "B, though major is hard to rule out."),
    (SPN, "Final Answer: F4, though I am not fully sure about E4."),
    (QUALITY, "Minor, though I could be wrong about major."),
    (QUALITY, "Minor, I might be wrong, it could be major."),
    (QUALITY, "Final Answer: B (I could be wrong, maybe D)"),
])
def test_a_caveat_that_offers_another_answer_stays_a_hedge(reader, reply: str) -> None:
    assert reader(reply).answer is None


# --- 7. Option text with a small typo ------------------------------------------------------------


@pytest.mark.parametrize(("reader", "reply", "letter"), [
    (QUALITY, "dimished", "D"),  # 10 letters: two edits allowed, one made
    (QUALITY, "Final Answer: Dominnat", "C"),  # a swap of neighbours is one edit
    (WINDS, "Bassooon", "C"),
    (WINDS, "Final Answer: Clarnet", "B"),
    (STRINGS, "Final Answer: Vilin", "B"),  # five letters left of a six-letter option word
])
def test_a_misspelt_option_text_is_read_as_that_option(reader, reply: str, letter: str) -> None:
    assert reader(reply).answer == letter


def test_a_misspelt_option_word_shared_by_every_option_is_corrected() -> None:
    assert SYNCOPATION("medium-low syncoption") == "C"


@pytest.mark.parametrize(("reader", "reply"), [
    (QUALITY, "Majr"),  # a five-letter option word is never the target of an edit
    (STRINGS, "Flutr"),
    (STRINGS, "Vlin"),  # under five letters: never corrected
    (QUALITY, "Minar"),  # (round 18: only of a slip, "Minro" or "Minoor", tests in round 18)
    (WINDS, "Final Answer: Clarinet or Bassooon"),  # a hedge stays a hedge
    (WINDS, "The tone was quite breathy and the attack felt soft and the vibrato was dimished, "
            "so I cannot say."),  # a long line is reasoning
])
def test_a_word_that_is_no_clear_typo_of_one_option_is_not_corrected(reader, reply: str) -> None:
    assert reader(reply).answer is None


def test_an_option_word_is_never_corrected_into_another() -> None:
    assert (SHAPES("Descending").answer, SHAPES("Ascnding").answer) == ("D", "C")


def test_edit_distance_counts_a_swap_as_one_edit() -> None:
    assert edit_distance("dominnat", "dominant", 2) == 1
    assert edit_distance("trumpt", "trumpet", 1) == 1
    assert edit_distance("oboe", "flute", 1) == 2  # above the limit: limit + 1


# --- 8. Helmholtz notation and an octave said as a word ------------------------------------------


@pytest.mark.parametrize(("reply", "midi"), [
    ("Final Answer: e'' (Helmholtz)", 76),
    ("Final Answer: g'", 67),  # primes are unambiguous
    ("In Helmholtz notation the tone is small d.\nFinal Answer: d (147 Hz)", 50),
    ("The tone is Helmholtz notation B, two octaves below b'.\nFinal Answer: B", 47),
    ("Final Answer: D five", 74),
])
def test_a_pitch_in_helmholtz_or_with_its_octave_in_words_is_read(reply: str, midi: int) -> None:
    assert key(SPN, reply) == midi


@pytest.mark.parametrize("reply", [
    "Final Answer: a",  # no Helmholtz said: "a" is no pitch
    "The tone is a bright one.\nFinal Answer: B",  # a letter with no octave, no Helmholtz
    "Final Answer: F three or F four",
])
def test_a_letter_without_helmholtz_or_octave_is_no_pitch(reply: str) -> None:
    assert key(SPN, reply) is None


def test_a_reply_that_is_no_text_is_no_pitch() -> None:
    assert score_answer("pitch", (60,), None, notation="spn").error_class == "no_final_answer"


def test_helmholtz_primes_are_written_in_scientific_pitch() -> None:
    assert helmholtz_as_spn("c' and a'' but not 'a' or don't") == "C4 and A5 but not 'a' or don't"


# --- 9. The most likely option under a list of probabilities --------------------------------------


def test_the_option_named_most_likely_under_probabilities_is_the_answer() -> None:
    assert QUALITY("Probabilities:\n- A (Major): 0.2\n- B (Minor): 0.6\n- C (Dominant): 0.1\n"
                   "- D (Diminished): 0.1\n\nMost likely: B.").answer == "B"


def test_probabilities_with_no_option_chosen_stay_no_answer() -> None:
    assert QUALITY("Probabilities:\n- A (Major): 0.4\n- B (Minor): 0.4\n- C (Dominant): 0.1\n"
                   "- D (Diminished): 0.1").answer is None


# --- 10. Found in the earlier sets while tracing causes ----------------------------------------


def test_a_ranking_numbered_inline_ends_on_no_answer() -> None:
    assert QUALITY("Ranking, most to least likely: 1. Minor 2. Major 3. Diminished "
                   "4. Dominant").answer is None  # read C (the least likely) before
    assert QUALITY("Ranking: 1. Minor 2. Major\nFinal Answer: B").answer == "B"
    assert QUALITY("1. The third is low. 2. The fifth is perfect. 3. So minor.").answer == "B"


def test_misjudged_is_a_correction_between_two_final_answers() -> None:
    assert key(SPN, "Final Answer: G4\nNo, I misjudged that; it is a semitone lower.\n"
                    "Final Answer: F#4") == 66
    assert key(SPN, "Final Answer: G4\nIt is a semitone lower.\nFinal Answer: F#4") is None


@pytest.mark.parametrize(("reply", "letter"), [
    ("1. The kick plays on 1 and 3.\n2. The snare plays on 2 and 4.\n3. Off-beat hits: none.\n"
     "So: A", "A"),
    ("1) Every hit sits on a beat.\n2) Nothing is pushed.\nAnswer A", "A"),
])
def test_numbered_steps_above_a_short_last_line_are_reasoning(reply: str, letter: str) -> None:
    assert SYNCOPATION(reply) == letter


def test_short_unnumbered_lines_above_a_short_last_line_are_still_read_with_it() -> None:
    assert QUALITY("Major\nMinor\nB").error == "hedge"


@pytest.mark.parametrize("reply", [
    "None of the strokes differ between the two loops.",
    "Not one kick shifted from one pattern to the other.",
    "Nothing in the groove changes between the two clips.",
])
def test_a_difference_denied_of_every_part_is_sameness(reply: str) -> None:
    assert yes_no_reader(SAME_RHYTHM)(reply).answer == "yes"


@pytest.mark.parametrize("reply", [
    "None of the strokes differ until the last bar.",
    "No kick is displaced except the one in bar 3.",
    "Nothing in the groove changes, but a cymbal is added.",
    "Not all of the strokes differ.",
])
def test_a_denied_difference_with_an_exception_is_no_sameness(reply: str) -> None:
    assert yes_no_reader(SAME_RHYTHM)(reply).answer != "yes"


# --- 11. A reply cut off inside a closing concession ---------------------------------------------


@pytest.mark.parametrize("reply", [
    "The chord is clearly a diminished triad, though I'm not fully",
    "It sounds like a minor chord, though I could be",
    "The colour is dark, so minor, or",
])
def test_a_reply_cut_off_inside_a_closing_concession_answers_nothing(reply: str) -> None:
    assert QUALITY(reply).answer is None


@pytest.mark.parametrize(("reply", "letter"), [
    ("Minor, though I am not fully certain", "B"),  # a whole caveat, no full stop
    ("It sounds dark but it is clearly minor", "B"),  # a turn inside, not a closing one
    ("The chord is diminished, though the top note was hard to hear", "D"),
])
def test_a_reply_ending_on_a_whole_caveat_is_not_cut_off(reply: str, letter: str) -> None:
    assert QUALITY(reply).answer == letter


def test_a_caveat_about_the_octave_that_offers_another_is_a_hedge() -> None:
    assert SPN("Final Answer: C4, though I am not fully sure about the octave — maybe C5").error \
        == "hedge"


def test_a_reply_longer_than_a_real_one_is_not_read_whole() -> None:
    """A megabyte of "C4\\n" once took 11 s: the reasoning is read whole only up to a real
    reply's size."""
    padding = "x " * (MAX_WHOLE_REPLY_CHARS // 2)
    restated = "Its centre is G3, MIDI 56.\nFinal Answer: G3"
    assert restated_otherwise(restated, 55, "spn")
    assert not restated_otherwise(padding + restated, 55, "spn")
    assert helmholtz_as_spn(padding + "c'") == padding + "c'"
