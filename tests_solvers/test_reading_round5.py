"""Issue 30, round 5: ruling out one of exactly two options commits to the other. The rule is
general; the phrasings here were written for these tests (none is from a corpus)."""

from __future__ import annotations

import pytest

from fixtures.muse.rhythm_definitions import METER, SYNC_COMPARE
from fixtures.tasks.definitions import SYNCOPATION
from solvers.reading import HEDGE, choice_reader

MAJOR_MINOR = choice_reader({"A": "Major", "B": "Minor"})

# --- 1. Ruling out one of two options -------------------------------------------------------


@pytest.mark.parametrize(("reply", "left"), [
    ("It's not a major chord.", "B"),
    ("This is not a major chord.", "B"),
    ("Not major.", "B"),
    ("It isn't a minor chord.", "A"),
    ("It is definitely not minor.", "A"),
    ("The third sits a semitone lower than I expected.\n\nIt's not a major chord.", "B"),
])
def test_ruling_out_one_of_two_options_reads_the_other(reply: str, left: str) -> None:
    assert MAJOR_MINOR(reply).answer == left


@pytest.mark.parametrize("reply", ["It's not the first loop.", "Not loop 1.",
                                   "It is not the first loop."])
def test_ruling_out_a_loop_reads_the_other_loop(reply: str) -> None:
    assert SYNC_COMPARE.extract_answer(reply) == "B"


@pytest.mark.parametrize("reply", [
    "Maybe not major.",               # uncertain
    "Not sure it's major.",           # a hedge, not a ruling out
    "It's not only major.",           # keeps major
    "It's not a major chord?",        # a question
    "If it's not major.",             # a condition
    "It's not major or minor.",       # both ruled out
    "Not major, not minor.",
    "Not not major.",                 # a double negation is left alone
])
def test_hedged_or_double_rulings_out_stay_no_answer(reply: str) -> None:
    assert MAJOR_MINOR(reply).answer is None


@pytest.mark.parametrize("reply", ["It's not triple time.", "Not duple.", "It isn't 6/8."])
def test_ruling_out_one_of_three_options_stays_no_answer(reply: str) -> None:
    assert METER.extract_answer(reply) is None


def test_the_option_that_is_named_is_still_read_as_itself() -> None:
    assert MAJOR_MINOR("It is major.").answer == "A"
    assert MAJOR_MINOR("Major, not minor.").answer == "A"
    assert MAJOR_MINOR("Maybe major, maybe minor.").error == HEDGE


# --- 7. None counted, then restated as everything on the beat -------------------------------


@pytest.mark.parametrize("reply", [
    "There are no off-beat hits at all; everything lands on the beat.",
    "There are no off-beat hits \u2014 every hit falls on the beat.",
    "No off-beat kicks; all the hits sit right on the beat.",
    "There are no syncopated snare hits \u2014 all hits are on the beat.",
])
def test_a_none_count_restated_as_on_the_beat_is_the_zero_option(reply: str) -> None:
    assert SYNCOPATION.extract_answer(reply) == "A"


@pytest.mark.parametrize("reply", [
    "There are no off-beat hits; everything lands off the beat.",   # contradicts itself
    "No hit falls on the beat; everything lands on the beat.",      # a "no" of the beat
    "Maybe there are no off-beat hits; everything lands on the beat.",
])
def test_a_none_count_with_another_tail_stays_no_answer(reply: str) -> None:
    assert SYNCOPATION.extract_answer(reply) is None


def test_a_none_count_corrected_after_wait_is_the_new_count() -> None:
    # round 23: a change of mind with one new answer is that answer (no answer before)
    assert SYNCOPATION.extract_answer("There are no off-beat hits; wait, two.") == "B"
