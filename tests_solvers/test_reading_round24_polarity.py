"""Round 24 (docs/reading.md, "Round 24 (polarity, ranked leans, pitch)"): yes/no said in the
other polarity or by a sameness statement, ranked leans, and the wrong readings main made on a
denial colon and on one phase of a contour. Each rule has near misses that keep their reading.
"""

from __future__ import annotations

import pytest

from fixtures.muse.registry import TASKS
from fixtures.published_muse.protocol import tasks
from solvers.reading import yes_no_reader

SHAPE = TASKS["muse_melody_shape"]
METER = TASKS["muse_meter"]


@pytest.mark.parametrize("reply", [
    "What it does not do: climb the whole way.",  # read ascending before
    "The melody never does this: falls all the way.",  # read descending before
    "What it never does: rise and then come back down at the end.",
    "The one thing it lacks: a descent from the first note to the last.",
    "Here is what the line does not do: go steadily up to the top.",
])
def test_a_bare_predicate_after_a_denial_colon_is_what_is_denied(reply: str) -> None:
    assert SHAPE.extract_answer(reply) is None


@pytest.mark.parametrize(("reply", "expected"), [
    ("It does not turn back, and it never leaps either: each note is lower than the last.",
     "descending"),
    ("It never turns back: it keeps falling to the end.", "descending"),
    ("It has no peak: the notes drop one by one to the end.", "descending"),
    ("It does not go up: it goes down all the way.", "descending"),
    ("It does not dip anywhere: every note is higher than the one before.", "ascending"),
])
def test_a_clause_of_its_own_after_a_denial_colon_keeps_its_reading(reply: str,
                                                                    expected: str) -> None:
    assert SHAPE.options[SHAPE.extract_answer(reply)].casefold().startswith(expected)


@pytest.mark.parametrize("reply", [
    "It rises at first, then levels off.",  # read ascending before
    "It rises at first, then it wanders.",
    "Initially the melody climbs, then it stays put.",
    "The line falls at the start, then hovers around one note.",
    "To begin with it goes up; after that it is hard to follow.",
])
def test_one_direction_for_a_phase_is_not_the_whole_contour(reply: str) -> None:
    assert SHAPE.extract_answer(reply) is None


@pytest.mark.parametrize(("reply", "expected"), [
    ("It rises at first, then falls.", "arch"),
    ("It falls at first, then climbs back up.", "inverted"),
    ("The melody climbs steadily from start to finish.", "ascending"),
    ("It starts low and then rises steadily to the top.", "ascending"),
])
def test_a_whole_contour_keeps_its_reading(reply: str, expected: str) -> None:
    assert SHAPE.options[SHAPE.extract_answer(reply)].casefold().startswith(expected)


@pytest.mark.parametrize("reply", [
    "The melody starts high, dips to its lowest point in the middle and climbs back at the end. "
    "That is the opposite of an arch.",  # read Arch before (blind23)
    "That is the opposite of an arch.",
    "It is the reverse of ascending.",
])
def test_the_opposite_of_an_option_is_not_that_option(reply: str) -> None:
    assert SHAPE.extract_answer(reply) is None


@pytest.mark.parametrize(("reply", "expected"), [
    ("Descending, the opposite of ascending.", "descending"),
    ("The melody is an inverted arch, the opposite of an arch.", "inverted"),
])
def test_an_option_named_beside_the_opposite_of_another_keeps_its_reading(reply: str,
                                                                        expected: str) -> None:
    assert SHAPE.options[SHAPE.extract_answer(reply)].casefold().startswith(expected)


PROGRESSION = yes_no_reader(tasks()["chord_sequence"].phrases)


@pytest.mark.parametrize("reply", [
    "No: the chord progression in the second excerpt is the same as the first, just "
    "transposed.",  # read no before (blind23)
    "Yes: the chords of the second excerpt are not the same as the first, the third one differs.",
    "No: both excerpts play exactly the same progression of chords, only in another key.",
])
def test_a_bare_yes_or_no_whose_explanation_says_the_other_is_a_hedge(reply: str) -> None:
    assert PROGRESSION(reply).answer is None


@pytest.mark.parametrize(("reply", "expected"), [
    ("No: the chord progression in the second excerpt is clearly different from the first one.",
     "no"),
    ("Yes: the chord progression in the second excerpt is the same as the first, just "
     "transposed.", "yes"),
    ("No: the third chord of the second excerpt is a IV where the first one has a vi chord.",
     "no"),
])
def test_a_bare_yes_or_no_whose_explanation_agrees_keeps_it(reply: str, expected: str) -> None:
    assert PROGRESSION(reply).answer == expected


SAME_MELODY = yes_no_reader(tasks()["oddball"].phrases)  # "Are the two the same exact melody?"
SAME_RHYTHM = yes_no_reader(tasks()["rhythm_match"].phrases)
KEY = yes_no_reader(tasks()["key_modulation"].phrases)  # "Does the key change?"


@pytest.mark.parametrize(("read", "reply", "expected"), [
    (SAME_MELODY, "**Oddball present?** Yes\n\nThe second-to-last note has been altered.", "no"),
    (SAME_MELODY, "Is there an oddball? Yes.", "no"),  # read yes before: a wrong reading
    (SAME_MELODY, "Do they differ? Yes, in the fifth note.", "no"),  # read yes before
    (SAME_MELODY, "Any difference? No.", "yes"),  # read no before
    (SAME_MELODY, "Are they different? No.", "yes"),  # read no before
    (SAME_RHYTHM, "**Same pattern?** \u274c\n\nThe snare in excerpt 2 gets a ghost note.", "no"),
    (SAME_RHYTHM, "Identical pattern? \u2705", "yes"),
    (KEY, "Does the key stay the same? Yes.", "no"),  # read yes before
    (KEY, "Key stays put? No, it moves to the dominant.", "yes"),
])
def test_a_word_answers_the_question_it_follows(read, reply: str, expected: str) -> None:
    assert read(reply).answer == expected


@pytest.mark.parametrize(("read", "reply", "expected"), [
    (SAME_MELODY, "Are they the same? Yes.", "yes"),  # the asked question: as it is
    (SAME_MELODY, "Same melody? \u2705", "yes"),
    (SAME_RHYTHM, "Same pattern? No, the snare moves.", "no"),
    (KEY, "Does the key change? No.", "no"),
    (KEY, "Modulation? Yes, to the dominant.", "yes"),
])
def test_a_restated_asked_question_keeps_its_word(read, reply: str, expected: str) -> None:
    assert read(reply).answer == expected


@pytest.mark.parametrize("reply", [
    "Isn't it the same melody? Yes.",  # a negated question: either way round
    "Verdict? \u274c",  # says nothing of what is asked
    "Yes or no? Yes.",
])
def test_a_question_that_is_neither_the_asked_one_nor_its_complement_answers_nothing(
        reply: str) -> None:
    assert SAME_MELODY(reply).answer in (None, "yes") and SAME_MELODY(reply).answer != "no"


@pytest.mark.parametrize(("reply", "expected"), [
    ("Yes, there is an oddball in the second excerpt.", "no"),  # hedges before
    ("Yes \u2014 the second excerpt contains an oddball note.", "no"),
    ("No: there's no oddball, the two excerpts are the exact same melody.", "yes"),
    ("I listened twice. Yes, there is a difference in the fifth note.", "no"),
])
def test_a_word_introducing_the_complements_clause_of_existence_is_that_clause(
        reply: str, expected: str) -> None:
    assert SAME_MELODY(reply).answer == expected


@pytest.mark.parametrize(("read", "reply", "expected"), [
    (SAME_MELODY, "Yes, there is no oddball.", "yes"),
    (SAME_MELODY, "No, there is an oddball.", "no"),
    (SAME_MELODY, "Yes, they are the same.", "yes"),
    (KEY, "Yes, there is a modulation.", "yes"),
    (KEY, "No, there is no modulation.", "no"),
])
def test_a_word_and_a_clause_that_agree_keep_their_reading(read, reply: str,
                                                         expected: str) -> None:
    assert read(reply).answer == expected


@pytest.mark.parametrize("reply", [
    "They sound identical to me \u2014 same hits in the same places.",
    "The two patterns sound identical.",
    "I can't say they differ: every hit lines up as far as I can hear.",
    "I cannot really say the two rhythms differ.",
    "I can't find a single position in the bar where they don't match.",
    "I could not spot one beat in which the two rhythms do not line up.",
])
def test_sameness_said_by_a_verb_of_hearing_or_a_difference_denied_twice_is_yes(
        reply: str) -> None:
    assert SAME_RHYTHM(reply).answer == "yes"


@pytest.mark.parametrize(("reply", "expected"), [
    ("I can't say whether they differ.", None),  # asked, not answered
    ("I can't say they are the same.", None),  # a doubt of sameness, no answer
    ("I can find a position where they don't match.", "no"),
    ("They don't sound identical.", "no"),
    ("I can't find a single beat where they match.", "no"),
    ("At first they sound identical. Then the snare moves. So they differ.", "no"),  # a first
])  # impression, superseded
def test_near_misses_of_a_difference_denied_twice_keep_their_reading(reply: str,
                                                                     expected: str) -> None:
    assert SAME_RHYTHM(reply).answer == expected


TRANSPOSED = yes_no_reader(tasks()["transposition"].phrases)  # "Are they the same melody?"


@pytest.mark.parametrize(("reply", "expected"), [
    ("It's not another melody.", "yes"),  # no answer before
    ("Not another melody, just moved up.", "yes"),
    ("That's another melody.", "no"),
    ("It is an entirely another tune.", "no"),
    ("It is the same melody in another key.", "yes"),  # another key: a part, as before
])
def test_another_melody_is_a_different_one(reply: str, expected: str) -> None:
    assert TRANSPOSED(reply).answer == expected
