"""Issue 30, round 6: the last general rules blind5 asked for (docs/reading.md). The phrasings
here were written for these tests (none is from a corpus); the near-misses after each rule are
the readings a rule must not change."""

from __future__ import annotations

import pytest

from fixtures.tasks.definitions import CHORD
from solvers.reading import choice_reader, sameness, yes_no_reader

SAME = yes_no_reader(sameness())
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
    ("Thanks for the clip! It sounds calm.", "D"),
    ("Thank you for sending the audio. The overall mood is sad.", "B"),
    ("Many thanks for the recording.\nThe mood is happy.", "A"),
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
