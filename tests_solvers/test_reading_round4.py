"""Issue 30, last misses: the settled retraction rule, a reference pitch in the answer sentence,
negations of yes/no answers, counts stated as none and guesses by option text. Each rule is
general; the phrasings here were written for these tests (none is from a corpus)."""

from __future__ import annotations

import pytest

from fixtures.muse.harmony_definitions import KEY_CHANGE
from fixtures.tasks.definitions import CHORD, TRANSPOSITION
from solvers.reading import (
    choice_reader,
    lettered_yes_no_reader,
    pitch_answer_reader,
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
