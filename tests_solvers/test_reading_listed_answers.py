"""Issue 30: a last line that lists both answers' sentences, as small models echo the options
("… Yes, the two are the same. No, the two are not the same."). The fallback read only the
line's first and last sentences, so the listing read as its last answer (blind18's first
contact). Every sentence between them that opens as a whole answer is read too now: two
answers there are a hedge. Phrasings written for these tests."""

from __future__ import annotations

import pytest

from solvers.answer_lines import read_ends
from solvers.reading import HEDGE, yes_no_reader
from tests_solvers.test_reading_round16 import QUALITY

SAME = yes_no_reader()


@pytest.mark.parametrize("reply", [
    "Both grooves lean on the kick in a similar way; maybe a ghost note differs. Yes, the two "
    "patterns are the same. No, the two patterns are not the same.",
    "The clips feel close overall, hard to say more than that. No, they differ. Yes, they match.",
])
def test_both_answers_listed_in_the_last_line_are_a_hedge(reply):
    reading = SAME(reply)
    assert reading.answer is None and reading.error == HEDGE


@pytest.mark.parametrize(("reply", "answer"), [
    # one answer between reasoning sentences: still read
    ("The kick and snare land in the same places in both clips. Yes, the patterns are the "
     "same. Only the mix differs between the two recordings.", "yes"),
    ("I compared each bar in turn and found the hats shifted in bar three. So the answer is "
     "that they differ, no.", "no"),
])
def test_one_answer_in_a_long_last_line_is_still_read(reply, answer):
    assert SAME(reply).answer == answer


def test_the_fallback_reads_first_last_and_answers_between():
    sentences = ["It rings for a while.", "A. Major.", "The fifth is clear.", "B. Minor.",
                 "That is all."]
    assert read_ends(sentences) == ["It rings for a while.", "A. Major.", "B. Minor.",
                                    "That is all."]
    assert read_ends(["Only one."]) == ["Only one."]
    assert QUALITY("The chord rings warmly with a clear bright third and a steady bass under "
                   "it. A. Major. B. Minor.").answer is None
