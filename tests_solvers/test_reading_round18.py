"""Issue 30, round 18: the declines of an eleventh blind set (blind14). A caveat that chains a
second doubt (", so I'm not fully certain"), closes a parenthesis, says a part was hard to
*separate* or that a numbered recording *sounds* louder was read as a doubt where a grader reads
the answer. Every phrasing here was written for these tests; each group has near misses that
must keep their reading (true hedges stay hedges)."""

from __future__ import annotations

import pytest

from fixtures.muse.harmony_definitions import SAME_PROGRESSION
from fixtures.muse.rhythm_definitions import SAME_RHYTHM
from solvers.caveats import split_caveat
from solvers.reading import choice_reader, lettered_yes_no_reader, yes_no_reader
from tests_solvers.test_reading_round16 import QUALITY, SHAPES

TIMBRE = choice_reader({"A": "Cello", "B": "Clarinet", "C": "Harp", "D": "Organ"})
RHYTHMS = yes_no_reader(SAME_RHYTHM)
PROGRESSIONS = yes_no_reader(SAME_PROGRESSION)


# --- 1. A caveat: chained doubts, in a parenthesis, parts hard to separate, louder takes -----


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (QUALITY, "Final Answer: D, although the top voice was tricky to pick out, so I might be "
              "wrong.", "D"),  # a part hard to pick out, then a second doubt chained with "so"
    (QUALITY, "Final Answer: B (the third sounds flat against the root, though the reverb left "
              "the inner voices hard to tell apart, so I'm not entirely sure)", "B"),
    (TIMBRE, "Final Answer: C. (The attack is plucked; I'm not completely sure about the "
             "sustain.)", "C"),  # a caveat closing a parenthesised sentence
    (RHYTHMS, "Final Answer: Yes, the grooves match, though take 1 sounds a little quieter.",
     "yes"),  # a numbered recording that sounds quieter
    (PROGRESSIONS, "No, they differ at the cadence, although clip B seemed slightly muffled.",
     "no"),
    (TIMBRE, "Final Answer: A, though the lowest notes were hard to distinguish.", "A"),
])
def test_an_answer_with_a_caveat_is_credited(reader, reply, answer) -> None:
    assert reader(reply).answer == answer


@pytest.mark.parametrize(("reader", "reply"), [
    # the part hard to separate names another answer
    (QUALITY, "Final Answer: D, though the minor chord was hard to separate, so I might be "
              "wrong."),
    # a part that is no single thing ("the major and minor thirds") is no caveat
    (QUALITY, "Final Answer: B, though the major and minor thirds are hard to tell apart."),
    # a parenthesis offering another answer
    (TIMBRE, "Final Answer: C (though I'm not entirely sure; it might be a harp-like organ stop)"),
    # a recording named by a number that names another answer's words
    (PROGRESSIONS, "No, they differ, though take 2 sounds the same, so I might be wrong."),
])
def test_a_caveat_naming_or_offering_another_answer_stays_a_hedge(reader, reply) -> None:
    assert reader(reply).answer is None


def test_a_chained_caveat_is_left_out_whole_and_its_part_is_kept_to_veto() -> None:
    line, subjects = split_caveat("Minor, though the fifth was hard to hear, so I could be wrong.")
    assert line == "Minor."
    assert subjects == [("the fifth was", "caveat_reason")]  # round 22: read word by word


# --- 2. A changed mind inside one line: an answer, a correction, a new answer -----------------


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (QUALITY, "B. Minor. Wait, the third is raised when it comes back; I misjudged it at "
              "first. A. Major", "A"),
    (TIMBRE, "D. Organ. Actually, no: every note decays like a plucked string. C. Harp", "C"),
    (PROGRESSIONS, "No. Listening again, both go ii - V - I with the same bass notes. Yes, "
                   "they are the same progression.", "yes"),
    (TIMBRE, "A. Cello — wait, each note is plucked and dies away at once. C. Harp", "C"),
])
def test_a_correction_between_two_answers_on_one_line_hands_the_answer_to_the_last(
        reader, reply, answer) -> None:
    assert reader(reply).answer == answer


@pytest.mark.parametrize(("reader", "reply"), [
    # no correction word between the two answers: two answers
    (QUALITY, "B. Minor. Hmm, the third is rather dark here and the fifth is steady. A. Major"),
    (TIMBRE, "D. Organ. The notes sustain evenly and the attack is soft overall. C. Harp"),
    # "Hmm" and a doubt are no correction
    (QUALITY, "B. Minor. Hmm, maybe not. A. Major"),
    (TIMBRE, "A. Cello — hmm, each note is plucked and dies away at once. C. Harp"),
    # the new answer is itself two answers
    (TIMBRE, "D. Organ. Actually, no: every note decays like a plucked string. C. Harp or A. "
             "Cello"),
])
def test_two_answers_on_one_line_without_a_correction_stay_a_hedge(reader, reply) -> None:
    assert reader(reply).answer is None


# --- 3. A five-letter option word typed with a slip: neighbours swapped, a letter doubled -------


@pytest.mark.parametrize(("reply", "answer"), [
    ("Ogran", "D"),  # neighbours swapped
    ("Final Answer: orrgan", "D"),  # a letter doubled
    ("the celllo", "A"),
])
def test_a_five_letter_option_word_typed_with_a_slip_is_that_option(reply, answer) -> None:
    assert TIMBRE(reply).answer == answer


def test_a_slip_in_a_five_letter_chord_quality_is_read() -> None:
    assert QUALITY("Minro").answer == "B"  # round 12 read it as none: no target under 6 letters
    assert QUALITY("Minar").answer is None  # a letter changed is no slip


@pytest.mark.parametrize("reply", [
    "Ogrna",  # two slips in five letters
    "Hrap",  # a four-letter option word is never a target
    "rOgan",  # the first letter changed
    "Orgna or Cello",  # a hedge as written
    "The sustain is long and even, so it could only be an orrgan stop here",  # reasoning
])
def test_other_misspellings_of_a_five_letter_option_word_are_not_read(reply) -> None:
    assert TIMBRE(reply).answer is None


# --- 4. An option word said in the other number ------------------------------------------------

PERCUSSION = choice_reader({"A": "Hand claps", "B": "Wind chimes", "C": "Sleigh bells",
                            "D": "Castanet"})


@pytest.mark.parametrize(("reply", "answer"), [
    ("wind chime", "B"),
    ("Final Answer: a sleigh bell", "C"),
    ("castanets", "D"),  # a singular option said in the plural
])
def test_an_option_said_in_the_other_number_is_that_option(reply, answer) -> None:
    assert PERCUSSION(reply).answer == answer


@pytest.mark.parametrize("reply", [
    "wind chime or sleigh bell",  # two options
    "chime",  # one word of an option is not the option
    "The shimmer at the top sounds like a wind chime being brushed lightly",  # reasoning
])
def test_other_words_in_the_other_number_are_not_read(reply) -> None:
    assert PERCUSSION(reply).answer is None


def test_a_word_of_two_options_in_two_numbers_is_no_answer() -> None:
    drums = choice_reader({"A": "Drum kit", "B": "Steel drums"})
    assert drums("drums").answer is None  # "drum" of A, "drums" of B: never turned into A


# --- 5. A double arrow (⇒, LaTeX \Rightarrow / \implies) leads to the answer as → does -------

SAME_OR_NOT = {"A": "Yes, these are the same chord progression.",
               "B": "No, these are not the same chord progression."}


@pytest.mark.parametrize(("reply", "answer"), [
    ("root up a fourth, flat third ⇒ B", "B"),
    ("Final Answer ⇒ C", "C"),
    (r"$\text{sharp fifth} \Rightarrow D$", "D"),
    (r"flat third and flat fifth $\implies$ C", "C"),
])
def test_a_double_arrow_leads_to_the_answer(reply, answer) -> None:
    assert QUALITY(reply).answer == answer


def test_a_double_arrow_leads_to_a_lettered_yes_or_no() -> None:
    reader = lettered_yes_no_reader(SAME_OR_NOT, SAME_PROGRESSION)
    assert reader("P1: ii → V → I; P2: ii → V → I ⇒ same ⇒ A").answer == "A"
    assert reader("P1: ii → V → I; P2: IV → V → I ⇒ different ⇒ B").answer == "B"
    assert reader("P1: ii → V → I; P2: ii → V → I ⇒ same ⇒ A or B").answer is None


@pytest.mark.parametrize("reply", [
    "flat third ⇒ B or C",  # two answers after the arrow
    "Final Answer ⇒ A or D",
])
def test_two_answers_after_a_double_arrow_stay_a_hedge(reply) -> None:
    assert QUALITY(reply).answer is None


# --- 6. A caveat comparing the size of two parts of the answer ----------------------------------

@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (SHAPES, "B. Inverted arch (descending and then ascending), although the final rise is "
             "somewhat longer than the dip.", "B"),
    (QUALITY, "Final Answer: C, though the gap at the top is slightly smaller than the one "
              "below.", "C"),
])
def test_a_caveat_on_the_size_of_a_part_is_credited(reader, reply, answer) -> None:
    assert reader(reply).answer == answer


@pytest.mark.parametrize(("reader", "reply"), [
    # the part compared names another option
    (SHAPES, "B. Inverted arch, although the descending part is longer than the rest."),
    # no concession: a further claim, as before
    (SHAPES, "B. Inverted arch. The final rise is longer than the dip, maybe an arch."),
])
def test_a_size_comparison_naming_another_answer_stays_a_hedge(reader, reply) -> None:
    assert reader(reply).answer is None


def test_a_recording_compared_in_size_is_no_caveat() -> None:
    line = "Loop 2, though the second loop is a bit longer than the first one."
    assert split_caveat(line) == (line, [])  # the question's own comparison, not a detail


# --- 7. More caveats in general terms: in parentheses, a cause then a doubt, "and I'm not …" ----


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (QUALITY, "Final Answer: C (the upper voice was hard to make out)", "C"),
    (QUALITY, "Final Answer: D. (I'm not completely sure about the voicing.)", "D"),
    (QUALITY, "Final Answer: A, and I'm not entirely certain.", "A"),
    (QUALITY, "Diminished, although the take was very short, so I might be mistaken.", "C"),
    (TIMBRE, "Final Answer: B, though the low notes were hard to separate from the drone, so I "
             "could be wrong.", "B"),
    (RHYTHMS, "No, the fills differ, though the ghost notes were hard to catch.", "no"),
    (RHYTHMS, "Final Answer: Yes, though the hi-hat was hard to hear over the guitar.", "yes"),
    (PROGRESSIONS, "Final Answer: No. The cadence goes elsewhere in take 2, though the pad makes "
                   "it hard to hear.", "no"),  # a pronoun, of hearing only
    (QUALITY, "Final Answer: C, but I'm not entirely confident in that.", "C"),
    # round 22: doubts of any degree, or of the answer itself, are no hedge
    (QUALITY, "Final Answer: D, although the top voice was tricky to pick out, so I'm not sure.",
     "D"),
    (QUALITY, "Final Answer: A, though it was hard to separate, so I'm not fully sure.", "A"),
    (QUALITY, "Final Answer: C (I'm not sure)", "C"),
    (QUALITY, "Final Answer: C, though the pad makes it hard to tell.", "C"),
    (QUALITY, "Final Answer: C, though the pad makes it hard to be sure.", "C"),
])
def test_more_caveats_are_credited(reader, reply, answer) -> None:
    assert reader(reply).answer == answer


@pytest.mark.parametrize(("reader", "reply"), [
    (QUALITY, "Final Answer: C (I'm not completely sure about the minor)"),  # names another
    (QUALITY, "Final Answer: C (it might be D)"),  # offers another
    (QUALITY, "Diminished, although major is close, so I might be mistaken."),  # the cause names
    (QUALITY, "Diminished, but it could be major, so I might be mistaken."),  # one
    (TIMBRE, "Final Answer: B, though the low notes were hard to separate from the cello line."),
    (TIMBRE, "Final Answer: B, though the low notes were hard to hear over the harp."),
    (QUALITY, "Final Answer: C, but I'm not entirely confident in minor."),
])
def test_more_caveats_naming_or_offering_another_answer_stay_a_hedge(reader, reply) -> None:
    assert reader(reply).answer is None
