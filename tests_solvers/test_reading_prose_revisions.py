"""Issue 30: a change of mind said in prose ("Switching to …", "Changing my answer to …") after
an answer already given. blind17's first contact read one such reply as its *first* answer: a
wrong reading. A prose revision after a final answer line made the reply a hedge until round
23; it is now the new answer (an explicit change of mind, docs/reading.md). A revision giving
an option's label and text ("… Switching to C. Compound duple.") counts as a revision. Every
phrasing here was written for these tests; the near misses describe the music and must keep
the final answer."""

from __future__ import annotations

import pytest

from solvers.reading import HEDGE
from solvers.revisions import revised_answer
from tests_solvers.test_reading_round16 import METER, QUALITY


@pytest.mark.parametrize("reply", [
    "Final Answer: A\n\nThe accents fall in threes after all, not twos. Switching to B.",
    "Final Answer: A\n\nListening to the hi-hat pattern once more, it groups in threes. "
    "Changing my answer to B.",
    "**Answer: A**\n\nI'm switching to B: the bass returns every third beat.",
    "Final Answer: A. Duple (2/4)\n\nThe downbeats come every three pulses. I'll change to B.",
])
def test_a_prose_revision_after_a_final_answer_is_the_new_answer(reply):
    # round 23: an explicit change of mind with one new answer is that answer (a hedge before)
    assert METER(reply).answer == "B"


@pytest.mark.parametrize("reply", [
    "Final Answer: A\n\nThe accents might fall in threes. Switching to B? Not sure.",
    "Final Answer: A\n\nWait, I was wrong. Maybe B.",
])
def test_a_prose_revision_offered_as_a_possibility_stays_a_hedge(reply):
    reading = METER(reply)
    assert reading.answer is None and reading.error == HEDGE


@pytest.mark.parametrize(("reply", "answer"), [
    ("Final Answer: A\n\nThe harmony switching to the relative minor in bar 3 does not change "
     "the meter.", "A"),
    ("Final Answer: A\n\nThe bass switches to a walking line in bar 3. Switching to the "
     "relative minor in the bridge.", "A"),  # describes the music: no whole answer after "to"
    ("Final Answer: B\n\nI checked again. Keeping B; not changing to A.", "B"),
])
def test_explanations_that_mention_a_change_keep_the_final_answer(reply, answer):
    assert METER(reply).answer == answer


@pytest.mark.parametrize("reply", [
    "My pick is A. Duple (2/4). Then again, the kick returns every third beat. "
    "Switching to B. Triple (3/4).",
    "I'd say A. Duple (2/4)... the cymbal marks every third pulse, though. "
    "Changing to B. Triple (3/4).",
])
def test_a_revision_with_a_sentence_before_it_is_never_read_as_the_first_answer(reply):
    assert METER(reply).answer != "A"


@pytest.mark.parametrize(("sentence", "value"), [
    ("Switching to C. Compound duple (6/8).", "C. Compound duple (6/8)."),
    ("Changing to B) Triple (3/4) then.", "B) Triple (3/4) then."),
    ("Switching to the relative minor in the bridge.", None),
    ("Changing to a brighter register for the last phrase.", None),
])
def test_a_revision_may_give_an_options_label_and_text(sentence, value):
    assert revised_answer(sentence) == value


def test_a_revision_given_alone_after_one_answer_still_reads_as_the_new_answer():
    assert QUALITY("I'll go with A. Changing to B. Minor.").answer == "B"
