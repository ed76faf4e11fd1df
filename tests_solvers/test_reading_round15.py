"""Issue 30, round 15: the one wrong reading of a tenth blind set (blind13, measured before and
after round 14, whose author never saw it). A yes/no reply that gave its answer the odds of a
guess ("Probability same progression: 0.5.") was read as that answer. Every phrasing here was
written for these tests; the near misses must keep their reading."""

from __future__ import annotations

import pytest

from solvers.even_odds import states_even_odds
from solvers.reading import lettered_yes_no_reader, sameness, yes_no_reader

PROGRESSION = sameness("progression", "chord progression")
SAME = yes_no_reader(PROGRESSION)
LETTERED = lettered_yes_no_reader({"A": "Yes, the two excerpts share one progression.",
                                   "B": "No, the progressions differ."}, PROGRESSION)


@pytest.mark.parametrize("reply", [
    "Probability same progression: 0.5. Probability different: 0.5.",
    "Odds they share the progression: 0.50; odds they differ: 0.50. I can't separate them.",
    "Same progression, with 50% confidence.",
    "Same progression: 50 percent likely.",
    "Same progression (50%) or a different one (50%).",
    "Honestly it's a coin flip whether it is the same progression.",
    "Same progression? Fifty-fifty.",
    "P(same progression) = .5",
])
def test_even_odds_on_the_answer_are_no_answer(reply) -> None:
    assert states_even_odds(reply)
    assert SAME(reply).answer is None
    assert LETTERED(reply).answer is None


@pytest.mark.parametrize(("reply", "answer"), [
    ("Yes, the same progression. The second clip is 50% louder, that's all.", "yes"),
    ("Same progression at 50 bpm in both clips.", "yes"),
    ("The same progression, I'm about 80% confident.", "yes"),
    ("No, a different progression: the second one moves to the relative minor at bar 5.", "no"),
    ("Probability same progression: 0.5. Probability different: 0.5.\n\nFinal Answer: No",
     "no"),  # an explicit final answer after the odds commits
])
def test_other_figures_and_a_final_answer_keep_their_reading(reply, answer) -> None:
    assert SAME(reply).answer == answer


@pytest.mark.parametrize("text", [
    "The tempo rose by 50 percent.", "It is 0.5 seconds long.", "50 bpm", "Track 50 of 150",
    "A 5.0 rating", "bars 50-51",
])
def test_a_figure_without_odds_is_not_even_odds(text) -> None:
    assert not states_even_odds(text)
